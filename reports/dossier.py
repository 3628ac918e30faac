"""The one-hand dossier (``tda-audit explain HAND --format html``): one page, offline,
that shows a disputed hand first in one line, then its findings, then the hand
replayed on a drawn table one event at a time, with the rules' facts at every
action, and ends with the provenance of this hand only (its file, lines, sha256).

The table state after each event (stacks, bets in front, pots and the seats eligible
for each, cards, board) is computed here from the stored events; the rules' facts
at each action (who was to act, to call, minimum and maximum raise-to, whether
betting was open and why, the stack after) are the replay's ``decisions`` rows as
stored, and the showdown is the replay's ``pots`` and ``pot_shares``.  The chips a
voluntary action moves are what the replay moved (``_voluntary``): a call adds its
amount, a bet or raise brings the player's street commitment to its total.

Everything from the histories is inserted by the page's script as text, never as
markup (``reports/dossier.js``).

>>> layers({1: 100, 2: 300, 3: 300, 4: 50}, folded={4}, all_in={1})
[{'amount': 350, 'eligible': [1, 2, 3]}, {'amount': 400, 'eligible': [2, 3]}]
>>> layers({1: 100, 2: 600, 3: 200}, folded=set(), all_in={3})  # seat 1 may still call
[{'amount': 500, 'eligible': [1, 2, 3]}, {'amount': 400, 'eligible': [1, 2]}]
>>> stud_slots("stud", "third", 3, 0), stud_slots("stud", "third", 1, 0), stud_slots("razz", "seventh", 1, 6)
([False, False, True], [True], [False])
"""

from __future__ import annotations

import time
from pathlib import Path

import duckdb

from auditor import manifest
from auditor.schema import betting_streets, street_family
from replay.engine import HOLE_COUNT, clockwise, small_blind_out_of_position
from reports import data
from reports.markup import esc, json_for_script

HERE = Path(__file__).parent

#: forced bets that go in front of the player (an ante goes straight to the pot)
BLINDS = ("small_blind", "big_blind", "dead_blind", "straddle", "bring_in")
#: events that move a player's chips
CHIP_KINDS = ("ante", *BLINDS, "call", "bet", "raise", "complete", "uncalled_return", "collect")
#: events between hands (street 'summary', written where the site writes them, even mid-hand)
BETWEEN_HANDS = ("rebuy", "addon", "out_of_hand")


def is_stud(variant: str) -> bool:
    return street_family(variant) == "stud"


def hole_cards(variant: str) -> int:
    """The cards a player holds in ``variant`` (drawn face down where they are not shown).

    >>> hole_cards("holdem"), hole_cards("omaha_hilo"), hole_cards("badugi"), hole_cards("2-7_triple_draw"), hole_cards("razz")
    (2, 4, 4, 5, 7)
    >>> hole_cards("5_card_stud"), hole_cards("irish")
    (5, 4)
    """
    if is_stud(variant):
        return 5 if variant == "5_card_stud" else 7
    if variant == "irish":
        return 4  # dealt; two are discarded after the flop
    if street_family(variant) != "board":
        return 4 if variant == "badugi" else 5
    return HOLE_COUNT.get(variant, 2)


#: the stud street that deals its card face down, after the first street's down cards
DOWN_STREET = "seventh"


def stud_deal(variant: str) -> tuple[tuple[str, ...], int]:
    """A stud game's betting streets and how many cards its first street deals (the
    last of them up, the others down): one card per later street up to its hole cards.

    >>> stud_deal("stud"), stud_deal("5_card_stud")
    ((('third', 'fourth', 'fifth', 'sixth', 'seventh'), 3), (('second', 'third', 'fourth', 'fifth'), 2))
    """
    streets = tuple(str(s) for s in betting_streets(variant, street_family(variant)))
    return streets, hole_cards(variant) - (len(streets) - 1)


def stud_slots(variant: str, street: str, n: int, held: int) -> list[bool]:
    """Whether each of ``n`` cards dealt on a stud street is face up, the player holding
    ``held`` before: the first street (7-card stud's third, 5-card stud's second) deals
    its cards down but the last (a history that writes only another player's up card
    writes one), the later streets one up, seventh one down.

    >>> stud_slots("5_card_stud", "second", 2, 0), stud_slots("5_card_stud", "second", 1, 0)
    ([False, True], [True])
    >>> stud_slots("5_card_stud", "third", 1, 2)  # 5-card stud's third street is a later one
    [True]
    """
    streets, k = stud_deal(variant)
    if street == streets[0]:
        return [i == k - 1 for i in range(k)][k - n:] if n <= k else [held + i >= k - 1 for i in range(n)]
    return [street != DOWN_STREET] * n


def stud_face_up(variant: str, i: int) -> bool:
    """Whether a stud player's ``i``-th card (from 0, in deal order) was dealt face up.

    >>> [stud_face_up("stud", i) for i in range(7)], [stud_face_up("5_card_stud", i) for i in range(5)]
    ([False, False, True, True, True, True, False], [False, True, True, True, True])
    """
    streets, k = stud_deal(variant)
    j = i - k + 1  # the street that dealt it, its first street's cards all counted on it
    return 0 <= j < len(streets) and (j == 0 and i == k - 1 or j > 0 and streets[j] != DOWN_STREET)


def layers(total_in: dict, folded: set, all_in: set) -> list[dict]:
    """The pots the chips put in make: a main pot and a side pot per all-in level below
    the largest commitment, each with the seats that can win it (not folded, and put in
    up to its level or still able to: not all in below it); the chips of folded seats are
    in the pots they reach."""
    levels = sorted({v for s, v in total_in.items() if s in all_in and s not in folded and v > 0})
    top = max(total_in.values(), default=0)
    if not levels or levels[-1] < top:
        levels.append(top)
    out, prev = [], 0
    for lv in levels:
        amount = sum(min(v, lv) - min(v, prev) for v in total_in.values())
        elig = sorted((s for s, v in total_in.items() if s not in folded and (v >= lv or s not in all_in)),
                      key=lambda s: (s is None, s or 0))
        if amount > 0:
            if out and not elig:
                out[-1]["amount"] += amount
            else:
                out.append({"amount": amount, "eligible": elig})
        prev = lv
    return out


def _split(cards: str | None) -> list[str]:
    return (cards or "").split()


def seat_order(ev: dict) -> dict:
    """Each dealt-in seat's place in acting order (0: left of the button), as the replay
    orders them (``replay.engine.clockwise``); a player who acts with no seat line last."""
    timeline = ev["timeline"]
    in_hand = {r["seat"] for r in timeline if r["seat"] is not None and r["street"] != "summary"}
    dealt = [s for s in ev["seats"] if s["seat"] in in_hand]
    sb = next((r["seat"] for r in timeline if r["kind"] == "small_blind" and r["seat"] is not None), None)
    places = clockwise([s["seat"] for s in dealt], [s.get("position") for s in dealt], ev["button_seat"],
                       is_stud(ev["variant"]), ev.get("max_seats"), sb)
    order: dict = {dealt[i]["seat"]: n for n, i in enumerate(places)}
    if any(r["seat"] is None and r["kind"] in CHIP_KINDS for r in timeline):
        order[None] = len(order)
    return order


def replay_steps(ev: dict, decisions: dict[int, dict]) -> list[dict]:
    """The table after each event of the hand (step 0: before the first event)."""
    variant = ev["variant"]
    stud = is_stud(variant)
    stud_streets, first_dealt = stud_deal(variant) if stud else ((), 0)
    first_street = stud_streets[0] if stud_streets else ""  # stud: the street that deals the down cards
    seats = [s["seat"] for s in ev["seats"]]
    if any(r["seat"] is None and r["kind"] in CHIP_KINDS for r in ev["timeline"]):
        seats.append(None)  # a player who acts with no seat line: his chips count, his stack is unknown
    stack = {s["seat"]: s["starting_stack"] for s in ev["seats"]}
    bet = {s: 0 for s in seats}
    total_in = {s: 0 for s in seats}
    middle = 0
    house = 0
    folded: set = set()
    all_in: set = set()
    cards: dict = {s: [] for s in seats}  # [card or '', face up]
    shown: set = set()
    boards: dict[int, list[tuple[str, str]]] = {1: []}  # run -> [(card, street)]
    street = None
    posted: list[tuple[str, int]] = []  # the street's blinds so far (kind, poster's place), as the replay keeps them
    order = seat_order(ev)
    dead_small = {s: 0 for s in seats}
    big_blind = ev["big_blind"]
    steps = []

    def snap() -> dict:
        pot_total = middle + sum(bet.values())
        run_boards = []
        for run in sorted(boards):
            run_boards.append([c for c, _ in boards[run]])
        return {
            "stacks": {str(x): v for x, v in stack.items()},
            "bets": {str(x): v for x, v in bet.items() if v and x is not None},
            "pot": pot_total, "middle": middle, "house": house,
            "pots": [dict(p, label="main" if k == 0 else f"side-{k}")
                     for k, p in enumerate(layers(total_in, folded, all_in))] if pot_total else [],
            "folded": sorted(x for x in folded if x is not None), "all_in": sorted(x for x in all_in if x is not None),
            "cards": {str(x): [list(c) for c in v] for x, v in cards.items() if v and x is not None},
            "shown": sorted(x for x in shown if x is not None), "boards": run_boards, "street": street,
        }

    steps.append(snap())
    for r in ev["timeline"]:
        k, s, amt = r["kind"], r["seat"], r["amount"]
        if r["street"] != street and k not in BETWEEN_HANDS:
            middle += sum(bet.values())  # the street's bets go to the middle
            bet = {x: 0 for x in seats}
            posted, dead_small = [], {x: 0 for x in seats}
            street = r["street"]
        known = s in stack and stack[s] is not None
        if k == "house_added":  # money the house adds to the pot: no player's, beside the pot (as the replay counts)
            house += amt or 0
        elif k == "ante" and s in bet:
            if known:
                stack[s] -= amt or 0
            total_in[s] += amt or 0
            middle += amt or 0
        elif k in BLINDS and s in bet:
            if known:
                stack[s] -= amt or 0
            total_in[s] += amt or 0
            live = amt or 0
            if k == "dead_blind":  # 'posts small & big blinds': the big blind's part is live, the rest dead
                live = min(live, big_blind or live)
            elif k == "small_blind" and small_blind_out_of_position(posted, order[s], s, ev["button_seat"], len(order)):
                live = 0  # a small blind posted out of position is dead: it does not count toward a call
                dead_small[s] += amt or 0
            bet[s] += live
            middle += (amt or 0) - live
            posted.append((k, order[s]))
        elif k in ("call", "bet", "raise", "complete") and s in bet:
            d = decisions.get(r["seq"])
            if k == "call":
                add = amt if amt is not None else (d["to_call"] if d else 0)
                top = max(bet.values())
                if dead_small[s] and bet[s] + add < top == bet[s] + add + dead_small[s]:
                    # the call matches the bet only with the dead small blind counted live: played so
                    bet[s] += dead_small[s]
                    middle -= dead_small[s]
                    dead_small[s] = 0
            else:
                to = r["to_amount"] if r["to_amount"] is not None else bet[s] + (amt or 0)
                add = to - bet[s]
            if known:
                stack[s] -= add
            bet[s] += add
            total_in[s] += add
        elif k == "fold":
            folded.add(s)
        elif k == "uncalled_return" and s in bet:
            if known:
                stack[s] += amt or 0
            total_in[s] -= amt or 0
            back = min(bet[s], amt or 0)
            bet[s] -= back
            middle -= (amt or 0) - back
        elif k == "collect" and s in bet:
            middle += sum(bet.values())
            bet = {x: 0 for x in seats}
            if known:
                stack[s] += amt or 0
            middle -= amt or 0
            if middle < 0:  # the house's money is collected last
                house, middle = house + middle, 0
        elif k == "deal_board":
            run = r.get("run") or 1
            if run not in boards:  # a later run shares the cards dealt before the runs part
                first = next((st for c, st in boards[1] if st == street), None)
                boards[run] = [(c, st) for c, st in boards[1] if st != street] if first else list(boards[1])
            boards[run] += [(c, street) for c in _split(r["cards"])]
        elif k == "deal_hole" and s in cards:
            new = _split(r["cards"])
            if stud:
                ups = stud_slots(variant, street, len(new), len(cards[s]))
                dealt = first_dealt if street == first_street else 0
                if len(new) < dealt:
                    cards[s] += [["", False] for _ in range(dealt - len(new))]  # the down cards not written
                cards[s] += [[c, up] for c, up in zip(new, ups)]
            elif street not in ("preflop", "predraw") and cards[s]:
                # a draw: the new cards replace the discarded ones (those written, else the unknown ones)
                for c in new:
                    j = next((i for i, (x, _) in enumerate(cards[s]) if x == ""), None)
                    if j is None:
                        cards[s].append([c, False])
                    else:
                        cards[s][j] = [c, False]
            else:
                cards[s] += [[c, False] for c in new]
        elif k == "draw" and s in cards:
            gone = set(_split(r["cards"]))
            if not cards[s]:
                cards[s] = [["", False] for _ in range(hole_cards(variant))]
            if gone:  # discards not written change nothing the table shows
                cards[s] = [["", False] if c in gone else [c, up] for c, up in cards[s]]
        elif k in ("show", "muck") and s in cards and r["cards"]:
            new = _split(r["cards"])
            if stud:
                cards[s] = [[c, stud_face_up(variant, i)] for i, c in enumerate(new)]
            else:
                cards[s] = [[c, False] for c in new]
            shown.add(s)
        if r["all_in"] and k in CHIP_KINDS + ("disconnect_all_in",):
            all_in.add(s)
        if known and stack[s] == 0 and total_in.get(s):
            all_in.add(s)
        steps.append(snap())
    return steps


def settlement(last: dict, results: list[dict], pots: list[dict]) -> dict:
    """The last step: the pots as the replay built them and each seat's end stack by the
    rules (``hand_results.end_stack_expected``: start - put in + returned + won), the
    cards as the hand left them."""
    stacks = dict(last["stacks"])
    for r in results:
        if str(r["seat"]) in stacks and r["end_stack_expected"] is not None:
            stacks[str(r["seat"])] = r["end_stack_expected"]
    return dict(last, stacks=stacks, bets={}, pot=0, middle=0, street="settlement",
                pots=[{"label": p["pot_label"] + (f" (run {p['run']})" if any(q["run"] > 1 for q in pots) else ""),
                       "amount": p["amount"], "eligible": [x for x in p["eligible"] if x is not None],
                       "hi_winners": p["hi_winners"], "lo_winners": p["lo_winners"], "verified": p["verified"],
                       "note": p["note"], "pot_index": p["pot_index"], "run": p["run"]} for p in pots])


def max_label(betting: str) -> str:
    """What bounds a raise in the hand's betting structure (the replay's max_raise_to)."""
    return {"no-limit": "no limit: the actor's stack", "pot-limit": "the pot limit",
            "fixed-limit": "the fixed limit", "pot-limit-preflop": "the pot limit pre-flop, the stack after"}.get(
        betting, "not judged: the betting structure is not recorded")


DECISION_COLS = ("seq", "expected_seat", "to_act", "actor_status", "to_call", "current_bet", "min_raise_to",
                 "max_raise_to", "may_raise", "may_raise_reason", "last_full_increment", "bets_and_raises",
                 "raise_cap", "stack_before", "committed_before", "stack_after", "committed_after", "pot_before",
                 "amount_to", "action_class", "sa_before")


def _rows(cur) -> list[dict]:
    cols = [d[0] for d in cur.description]
    return [dict(zip(cols, r)) for r in cur.fetchall()]


def dossier_data(con: duckdb.DuckDBPyConnection, edition: str, hand_id: str) -> dict | None:
    """Everything the dossier shows for one hand, or None when there is no such hand."""
    return dossiers(con, edition, [hand_id]).get(hand_id)


def _grouped(con, sql: str, edition: str) -> dict[str, list[dict]]:
    out: dict[str, list[dict]] = {}
    for r in _rows(con.execute(sql, [edition])):
        out.setdefault(r.pop("hand_id"), []).append(r)
    return out


def dossiers(con: duckdb.DuckDBPyConnection, edition: str, hand_ids: list[str]) -> dict[str, dict]:
    """The dossiers of ``hand_ids`` (those stored), read with one query per table for all of them."""
    from auditor.house import applied

    evs = data.evidence(con, edition, list(hand_ids))
    if not evs:
        return {}
    con.execute("CREATE OR REPLACE TEMP TABLE _dossier_hands (hand_id VARCHAR)")
    con.executemany("INSERT INTO _dossier_hands VALUES (?)", [[h] for h in evs])
    join = "JOIN _dossier_hands USING (hand_id)"
    extra = {r.pop("hand_id"): r for r in _rows(con.execute(
        "SELECT h.hand_id, h.max_seats, h.currency, h.is_tournament, h.buy_in, h.content_hash, h.bring_in, h.small_bet, "
        f"h.big_bet, h.record_cut, s.size, s.format FROM hands h {join} JOIN sources s USING (source_id)"))}
    decisions = _grouped(con, f"SELECT d.hand_id, {', '.join('d.' + c for c in DECISION_COLS)} FROM decisions d {join} "
                              "WHERE edition = ? ORDER BY d.hand_id, seq", edition)
    shares = _grouped(con, "SELECT p.hand_id, pot_index, run, seat, eligible, expected, odd_chips, recorded, hand_value, "
                           f"line_no FROM pot_shares p {join} WHERE edition = ? ORDER BY p.hand_id, pot_index, run, seat",
                      edition)
    pots = _grouped(con, "SELECT p.hand_id, pot_index, run, pot_label, amount, eligible, hi_winners, lo_winners, verified, "
                         f"note FROM pots p {join} WHERE edition = ? ORDER BY p.hand_id, pot_index, run", edition)
    policy = dict(con.execute(f"SELECT finding_id, house_policy FROM findings {join} WHERE edition = ?",
                              [edition]).fetchall())
    runs: dict[str, dict[int, int]] = {}
    for h, seq, run in con.execute(f"SELECT hand_id, seq, run FROM events {join}").fetchall():
        runs.setdefault(h, {})[seq] = run
    con.execute("DROP TABLE _dossier_hands")
    fs_all = data.group_by([f for f in data.findings(con, edition) if f["hand_id"] in evs], "hand_id")
    rules = data.rules_for([f["check_id"] for fs in fs_all.values() for f in fs], edition)
    house = applied(con, edition)
    out = {}
    for hand_id, ev in evs.items():
        ev.update(extra[hand_id])
        ev["timeline"] = [dict(zip(data.TIMELINE_COLS, r)) for r in ev["timeline"]]
        ev["seats"] = [dict(zip(data.SEAT_COLS, s)) for s in ev["seats"]]
        fs = fs_all.get(hand_id, [])
        out[hand_id] = _one(ev, edition, fs, {c: rules[c] for c in {f["check_id"] for f in fs}},
                            {d["seq"]: d for d in decisions.get(hand_id, [])}, policy, shares.get(hand_id, []),
                            pots.get(hand_id, []), runs.get(hand_id, {}), house)
    return out


def _one(ev: dict, edition: str, fs: list[dict], rules: dict, decisions: dict[int, dict], policy: dict,
         shares: list[dict], pots: list[dict], runs: dict[int, int], house: dict | None) -> dict:
    timeline = ev["timeline"]
    for r in timeline:  # the run a board card, show or collect belongs to (a board run twice)
        r["run"] = runs.get(r["seq"], 1)
    steps = replay_steps(ev, decisions)
    steps.append(settlement(steps[-1], ev["results"], pots))
    findings = []
    for f in fs:
        at = sorted(data.offending(f, timeline))
        findings.append(dict(f, house_policy=policy.get(f["finding_id"]), step=at[0] + 1 if at else None))
    events = []
    for r in timeline:
        d = decisions.get(r["seq"])
        if d is not None and d.get("to_act") is not None:
            d = dict(d, to_act=list(d["to_act"]))
        events.append({k: r[k] for k in ("seq", "line_no", "street", "kind", "seat", "player", "amount", "to_amount",
                                         "all_in", "cards", "pot_label", "text", "inferred_from")}
                      | {"run": r["run"], "decision": d})
    # the last step is no event of the history: the replay's settlement of the pots
    events.append({"seq": None, "line_no": None, "street": "settlement", "kind": "settlement", "seat": None,
                   "player": None, "amount": None, "to_amount": None, "all_in": False, "cards": None,
                   "pot_label": None, "text": None, "inferred_from": None, "run": None, "decision": None})
    out = {
        "hand": {k: ev.get(k) for k in (
            "hand_id", "site", "hand_number", "tournament_id", "tournament_name", "buy_in", "table_name", "level",
            "small_blind", "big_blind", "ante", "bring_in", "small_bet", "big_bet", "variant", "betting", "game_label",
            "started_at_text", "button_seat", "scale", "max_seats", "currency", "is_tournament", "record_cut")},
        "max_label": max_label(ev["betting"]),
        "stud": is_stud(ev["variant"]), "hole_cards": hole_cards(ev["variant"]),
        "seats": ev["seats"],
        "edition": edition,
        "house": house_for(house, ev.get("site")),
        "findings": findings,
        "rules": rules,
        "events": events,
        "steps": steps,
        "pots": pots,
        "shares": shares,
        "results": ev["results"],
        "notes": ev["notes"],
        "provenance": {"path": ev["source_path"], "first_line": ev["first_line"], "last_line": ev["last_line"],
                       "sha256": ev["sha256"], "size": ev["size"], "format": ev["format"],
                       "content_hash": ev["content_hash"]},
    }
    out["line"] = one_line(out)
    return out


def compact(steps: list[dict]) -> list[dict]:
    """Steps as changes: each step holds only what differs from the one before (a dict
    value only its changed keys), which the page's script (``expand``) rebuilds; a
    hand's steps repeat most of the table from one event to the next.

    >>> compact([{"a": 1, "s": {"1": 5, "2": 6}}, {"a": 1, "s": {"1": 5, "2": 4}}])
    [{'a': 1, 's': {'1': 5, '2': 6}}, {'s': {'2': 4}}]
    """
    out, prev = [], None
    for st in steps:
        if prev is None:
            out.append(st)
        else:
            diff = {}
            for k, v in st.items():
                p = prev.get(k)
                if isinstance(v, dict) and isinstance(p, dict):
                    sub = {x: y for x, y in v.items() if p.get(x) != y}
                    sub.update({x: None for x in p if x not in v})
                    if sub:
                        diff[k] = sub
                elif v != p:
                    diff[k] = v
            out.append(diff)
        prev = st
    return out


def house_for(house: dict | None, site: str | None) -> str:
    """The house profile the hand's findings were categorised under: the profile for its site."""
    if not house:
        return "none recorded (judged by the TDA edition alone)"
    for p in house.get("profiles") or []:
        if site in p.get("sites", []):
            return f"{p['profile']} ({Path(p['file']).name})"
    if house.get("profiles") is not None:
        return "none for this site (judged by the TDA edition alone)"
    return house.get("text") or ""


def one_line(d: dict) -> str:
    """The hand in one line: site, tournament or stakes, table, time, edition, house profile.

    >>> one_line({"hand": {"hand_id": "PS-1", "site": "pokerstars", "tournament_id": "12", "tournament_name": None,
    ...   "table_name": "12 3", "level": "IV", "small_blind": 50, "big_blind": 100, "scale": 1, "currency": None,
    ...   "started_at_text": "2024/01/01 10:00:00 ET", "game_label": "Hold'em No Limit", "variant": "holdem",
    ...   "betting": "no-limit"}, "edition": "tda-2024", "house": "pokerstars (pokerstars.toml)"})
    "PS-1 · pokerstars · tournament 12, level IV (50/100) · table 12 3 · 2024/01/01 10:00:00 ET · Hold'em No Limit · rules tda-2024 · house pokerstars (pokerstars.toml)"
    """
    h = d["hand"]
    sc = h["scale"] or 1
    from reports.explain import amount

    stakes = (f"{amount(h['small_blind'], sc)}/{amount(h['big_blind'], sc)}" + (f" {h['currency']}" if h["currency"] else "")
              if h["big_blind"] is not None else "")
    if h["tournament_id"]:
        where = "tournament " + " ".join(x for x in (h["tournament_id"], h["tournament_name"]) if x)
        if h["level"] or stakes:
            where += ", level " + " ".join(x for x in (h["level"], f"({stakes})" if stakes else "") if x)
    else:
        where = f"cash {stakes}".strip() if stakes else "cash"
    parts = [h["hand_id"], h["site"], where, f"table {h['table_name']}" if h["table_name"] else "",
             h["started_at_text"] or "", h["game_label"] or f"{h['variant']} {h['betting']}",
             f"rules {d['edition']}", f"house {d['house']}"]
    return " · ".join(p for p in parts if p)


#: the dossier's lists of rows, written on the page as a table (its columns once, then rows of values)
TABLES = ("results", "shares", "findings", "seats", "pots")


def table(rows: list[dict]) -> dict:
    """Rows of one shape as ``{"cols": [...], "rows": [[...], ...]}`` (the page's script
    turns them back into objects).

    >>> table([{"a": 1, "b": None}, {"a": 2, "b": 3}])
    {'cols': ['a', 'b'], 'rows': [[1, None], [2, 3]]}
    """
    cols = list(rows[0]) if rows else []
    return {"cols": cols, "rows": [[r.get(c) for c in cols] for r in rows]}


def for_page(d: dict, shared_rules: bool = False) -> dict:
    """The dossier as the page embeds it: its steps compacted (``compact``), its events
    (their decisions as rows of values under ``decision_cols``) and other lists as
    tables (``table``); the rules' texts left out when the page holds them already
    (``shared_rules``: the report's)."""
    events = [dict(e, decision=None if e["decision"] is None else [e["decision"][k] for k in DECISION_COLS])
              for e in d["events"]]
    out = dict(d, steps=compact(d["steps"]), steps_compact=True, events=table(events),
               decision_cols=list(DECISION_COLS), **{k: table(d[k]) for k in TABLES})
    if shared_rules:
        del out["rules"]
    return out


COMPONENT_MARK = "/* component:"


def component_css() -> str:
    """The dossier's own styles (scoped to ``.dossier``), without the page's: what the
    report embeds beside its own."""
    css = (HERE / "dossier.css").read_text(encoding="utf-8")
    return css[css.index(COMPONENT_MARK):]


def script() -> str:
    """The dossier's script, after the element maker it shares with the report's (dom.js)."""
    return (HERE / "dom.js").read_text(encoding="utf-8") + (HERE / "dossier.js").read_text(encoding="utf-8")


def render(d: dict, made_from: dict | None = None) -> str:
    """The dossier page.  ``made_from`` (``auditor.manifest.build`` of this hand: what the
    page was made from; ``tda-audit verify`` reads it) is embedded as
    ``<script type="application/json" id="tda-manifest">`` when given."""
    css = (HERE / "dossier.css").read_text(encoding="utf-8")
    js = script()
    h = d["hand"]
    p = d["provenance"]
    head = d["line"]
    fs = d["findings"]
    items = "".join(
        f'<li class="cat-{esc(f["category"])}"><a href="#step-{f["step"]}">'
        f'{esc(f["category"])}: {esc(f["check_id"])} (Rule {esc(f["rule"])}'
        f'{": " + esc(f["rule_title"]) if f["rule_title"] else ""})</a> '
        f'{esc(f["message"])}</li>' if f["step"] is not None else
        f'<li class="cat-{esc(f["category"])}">{esc(f["category"])}: {esc(f["check_id"])} (Rule {esc(f["rule"])}) '
        f'{esc(f["message"])}</li>'
        for f in fs)
    findings = (f'<ol id="finding-list">{items}</ol>' if fs
                else f'<p id="finding-list" class="muted">No findings under {esc(d["edition"])}.</p>')
    out = [
        "<!DOCTYPE html>",
        '<html lang="en"><head><meta charset="utf-8">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        '<link rel="icon" href="data:,">',
        f"<title>Hand {esc(h['hand_id'])} ({esc(d['edition'])}): dossier</title>",
        f"<style>{css}</style></head><body>",
        f'<header><h1 id="hand-line">{esc(head)}</h1></header><main>',
        f'<section id="findings"><h2>Findings</h2>{findings}</section>',
        '<section id="replay"><h2>The hand, event by event</h2>',
        "<noscript><p>The replay needs JavaScript; <code>tda-audit explain HAND</code> prints it as text.</p></noscript>",
        '<div class="dossier" data-dossier></div></section>',
        '<section id="provenance"><h2>Provenance of this hand</h2><table class="kv">'
        f'<tr><th>file</th><td class="mono" id="prov-path">{esc(p["path"])}</td></tr>'
        f'<tr><th>lines</th><td id="prov-lines">{p["first_line"]}\u2013{p["last_line"]}</td></tr>'
        f'<tr><th>file sha256</th><td class="mono" id="prov-sha256">{esc(p["sha256"])}</td></tr>'
        f'<tr><th>file size</th><td>{esc(p["size"])} bytes, read as {esc(p["format"])}</td></tr>'
        f'<tr><th>hand text sha256</th><td class="mono">{esc(p["content_hash"])}</td></tr>'
        f'<tr><th>rules</th><td>Poker TDA, edition {esc(d["edition"])}</td></tr>'
        f'<tr><th>house profile</th><td>{esc(d["house"])}</td></tr>'
        f'<tr><th>made by</th><td>tda-audit {esc(d.get("version", ""))}, {esc(d.get("generated_at", ""))}</td></tr>'
        "</table></section></main>",
        f'<script type="application/json" id="dossier-data">{json_for_script(for_page(d))}</script>',
    ]
    if made_from is not None:
        out.append(manifest.script_tag(made_from))
    out += [f"<script>{js}</script>", "</body></html>"]
    return "\n".join(out)


def build(db: str, edition: str | None, hand_id: str) -> tuple[str, dict]:
    """The dossier of ``hand_id`` in the store ``db``, with what it was made from (its
    manifest, for ``tda-audit verify``); (html, stats)."""
    import datetime as dt

    from auditor import __version__

    t0 = time.perf_counter()
    con, ed = data.open_store(db, edition)
    try:
        d = dossier_data(con, ed, hand_id)
        made_from = manifest.build(con, ed, [hand_id]) if d is not None else None
    finally:
        con.close()
    if d is None:
        raise KeyError(hand_id)
    d["version"] = __version__
    d["generated_at"] = dt.datetime.now(dt.timezone.utc).strftime("%Y-%m-%d %H:%M:%S UTC")
    page = render(d, made_from)
    return page, {"bytes": len(page.encode("utf-8")), "seconds": round(time.perf_counter() - t0, 2), "edition": ed}
