"""Bovada / Ignition / Bodog (``parsers/bovada.py``) on the real corpus, through the per-site
harness (``tests/site_corpus.py``: what each test proves is written there).

Seen: every ``Bovada Hand #``, ``Ignition Hand #``, ``Bodog Hand #`` and ``Bodog UK Hand #``
in the folders, a header glued to a cut-off line or after a byte-order mark included.  Stored
share: below the bar, for what the record leaves out (the xfail below says what); every
rejection is listed here with its reason code, read hand by hand.

Mutation recall: Bovada's no-limit hold'em tournament hands, written in PokerStars' wording
for the mutation library and the mutants written back in Bovada's (the converters below).
"""

from __future__ import annotations

import re

import pytest


from conftest import CORPUS, needs_corpus
from site_corpus import SiteSpec, site_tests


def _each(rel: str, code: str, lines: tuple[int, ...]) -> dict[tuple[str, int], str]:
    return {(rel, n): code for n in lines}


# --- mutation: Bovada hands written as tests/mutate.py reads them, and back -----------------
#
# The library reads PokerStars' wording.  A Bovada no-limit hold'em tournament hand is written
# in it from what the Bovada parser makes of the hand: seats renumbered in acting order (small
# blind first, the dealer last, who has the button), the position names kept as the players'
# names, raises as '<increment> to <total>'.  A mutant is written back as Bovada writes a hand
# ('Raises <chips added> to <total>', 'Hand Result', 'Return uncalled portion of bet', the hole
# cards in 'Card dealt to a spot' lines, which the shown cards must match).  Hands with inferred
# events (walks) and hands without a dealer are not used.

_STARS_SEAT = re.compile(r"^Seat (\d+): (.+) \((\d+) in chips\)$")
_STARS_ACT = re.compile(r"^(?P<v>folds|checks|calls|bets|raises|posts small & big blinds|posts small blind|"
                        r"posts big blind|posts the ante|shows|mucks hand|doesn't show hand)(?: (?P<a>.*?))?"
                        r"(?P<ai> and is all-in)?$")
_POT_WORDS = {"pot": "pot", "main": "main pot", "side": "side pot"}


def bovada_as_stars(text: str) -> str | None:
    """A Bovada no-limit hold'em tournament hand in PokerStars' wording (None: not such a hand)."""
    from parsers.base import ParsedHand
    from parsers.bovada import BovadaParser

    lines = text.split("\n")
    lines[0] = lines[0][lines[0].find("Bovada Hand #"):]  # a header glued to a cut-off line: from its start
    # (a hand cut off mid-line by the next header holds that header too: the cut hand comes first)
    hand = list(BovadaParser().iter_hands(((i, 0, t) for i, t in enumerate(lines, 1)), "m.txt"))[0]
    if not isinstance(hand, ParsedHand) or not hand.is_tournament or hand.variant != "holdem" \
            or hand.betting != "no-limit" or any(e.inferred_from for e in hand.events) or hand.record_cut:
        return None
    seats = sorted(hand.seats, key=lambda s: s.position or 0)
    if not seats or not seats[-1].player.startswith("Dealer"):
        return None
    new = {s.seat: k for k, s in enumerate(seats, 1)}
    # the library knows the game by PokerStars' name ('HOLDEM' is written back)
    out = [lines[0].replace(" HOLDEM ", " Hold'em "),
           f"Table '{hand.tournament_id} 1' {max(9, len(seats))}-max Seat #{len(seats)} is the button"]
    out += [f"Seat {new[s.seat]}: {s.player} ({s.starting_stack} in chips)" for s in seats]
    street, committed, board, shown = "", {}, [], False
    won: dict[int, int] = {}
    cards: dict[int, str] = {}
    for e in hand.events:
        p, a, ai = e.player, e.amount, " and is all-in" if e.all_in else ""
        if e.street != street and e.street != "summary":
            street, committed = e.street, {}
        if e.kind == "ante":
            out.append(f"{p}: posts the ante {a}{ai}")
        elif e.kind in ("small_blind", "big_blind", "dead_blind"):
            words = {"small_blind": "small blind", "big_blind": "big blind", "dead_blind": "small & big blinds"}
            out.append(f"{p}: posts {words[e.kind]} {a}{ai}")
            committed[e.seat] = committed.get(e.seat, 0) + (min(a, hand.big_blind) if e.kind == "dead_blind" else a)
        elif e.kind == "deal_hole":
            if "*** HOLE CARDS ***" not in out:
                out.append("*** HOLE CARDS ***")
            out.append(f"Dealt to {p} [{e.cards}]")
            cards[e.seat] = e.cards
        elif e.kind in ("fold", "check"):
            out.append(f"{p}: {e.kind}s")
        elif e.kind in ("call", "bet"):
            out.append(f"{p}: {e.kind}s {a}{ai}")
            committed[e.seat] = committed.get(e.seat, 0) + a
        elif e.kind == "raise":
            out.append(f"{p}: raises {e.to_amount - max(committed.values(), default=0)} to {e.to_amount}{ai}")
            committed[e.seat] = e.to_amount
        elif e.kind == "deal_board":
            marker = {"flop": "FLOP", "turn": "TURN", "river": "RIVER"}[e.street]
            out.append(f"*** {marker} ***" + (f" [{' '.join(board)}]" if board else "") + f" [{e.cards}]")
            board += e.cards.split()
        elif e.kind == "uncalled_return":
            out.append(f"Uncalled bet ({a}) returned to {p}")
        elif e.kind in ("show", "muck", "no_show"):
            if not shown:
                out.append("*** SHOW DOWN ***")
                shown = True
            out.append(f"{p}: shows [{e.cards}]" if e.kind == "show" else f"{p}: mucks hand" if e.kind == "muck"
                       else f"{p}: doesn't show hand")
        elif e.kind == "collect":
            out.append(f"{p} collected {a} from {_POT_WORDS[e.pot_label]}")
            won[e.seat] = won.get(e.seat, 0) + a
        elif e.kind == "total_pot":
            # the pots as the collects name them (Bovada writes no pot list)
            by_pot = {label: sum(c.amount for c in hand.events if c.kind == "collect" and c.pot_label == label)
                      for label in ("main", "side")}
            pots = f" Main pot {by_pot['main']}. Side pot-1 {by_pot['side']}." if by_pot["side"] else ""
            out += ["*** SUMMARY ***", f"Total pot {a}{pots} | Rake {e.to_amount or 0}"]
            if board:
                out.append(f"Board [{' '.join(board)}]")
    showed = {e.seat for e in hand.events if e.kind == "show"}
    folded = {e.seat: "folded before Flop" if e.street == "preflop" else f"folded on the {e.street.capitalize()}"
              for e in hand.events if e.kind == "fold"}
    for s in seats:
        k, p = new[s.seat], s.player
        if s.seat in won:
            line = (f"showed [{cards[s.seat]}] and won ({won[s.seat]}) with a hand" if s.seat in showed
                    else f"collected ({won[s.seat]})")
        else:
            line = (f"showed [{cards[s.seat]}] and lost with a hand" if s.seat in showed
                    else folded.get(s.seat, "folded"))
        out.append(f"Seat {k}: {p} {line}")
    return "\n".join(out)


def stars_as_bovada(text: str) -> str:
    """A hand the library wrote (PokerStars' wording, Bovada's names) in Bovada's."""
    lines = text.split("\n")
    names = sorted((m[2] for line in lines if (m := _STARS_SEAT.match(line))), key=len, reverse=True)
    shown = {}
    for line in lines:
        for name in names:
            if line.startswith(name + ": shows ["):
                shown[name] = line[len(name) + 9:line.index("]", len(name) + 9)]
    bb = int(re.search(r"\((\d+)/(\d+)\)", lines[0])[2])
    out, committed, summary, dealt = [lines[0].replace(" Hold'em ", " HOLDEM ")], {}, False, {}
    for line in lines[1:]:
        if line.startswith("Table '") or line == "*** SHOW DOWN ***":
            continue
        if line.startswith("***"):
            summary = summary or line == "*** SUMMARY ***"
            committed = {} if not line.startswith("*** HOLE CARDS") else committed
            out.append(line)
            continue
        if summary:
            if m := re.match(r"^Total pot (\d+).*? \| Rake (\d+)$", line):
                out.append(f"Total Pot({m[1]})" + (f" | Rake ({m[2]})" if int(m[2]) else ""))
            elif line.startswith("Board ["):
                out.append(line)
            elif m := re.match(r"^Seat (\d+): (.*)$", line):
                name = next(n for n in names if m[2].startswith(n))
                w = re.search(r"(?:won|collected) \((\d+)\)", m[2])
                out.append(f"Seat+{m[1]}: {name}" + (f" {w[1]}  with a hand" if w else " Folded"))  # (or lost)
            continue
        if _STARS_SEAT.match(line):
            out.append(line)
            continue
        if line.startswith("Dealt to "):
            name = next(n for n in names if line.startswith(f"Dealt to {n} ["))
            dealt[name] = shown.get(name, line[len(name) + 11:-1])
            out.append(f"{name} : Card dealt to a spot [{dealt[name]}]")
            continue
        if m := re.match(r"^Uncalled bet \((\d+)\) returned to (.+)$", line):
            out.append(f"{m[2]} : Return uncalled portion of bet {m[1]}")
            continue
        if m := re.match(r"^(.+) collected (\d+) from (pot|main pot|side pot(?:-\d+)?)$", line):
            out.append(f"{m[1]} : Hand Result" + ("-Side Pot" if m[3].startswith("side") else "") + f" {m[2]}")
            continue
        name = next((n for n in names if line.startswith(n + ": ")), None)
        a = _STARS_ACT.match(line[len(name) + 2:]) if name else None
        if a is None:
            out.append(line)  # the parser says what it cannot read
            continue
        v, amount = a["v"], a["a"]
        if v == "posts the ante":
            out.append(f"{name} : Ante chip {amount}")
        elif v.startswith("posts"):
            word = {"posts small blind": "Small blind", "posts big blind": "Big blind",
                    "posts small & big blinds": "Posts dead chip"}[v]
            out.append(f"{name} : {word} {amount}")
            committed[name] = committed.get(name, 0) + (min(int(amount), bb) if "&" in v else int(amount))
        elif v in ("folds", "checks"):
            out.append(f"{name} : {v.capitalize()}")
        elif v == "calls":
            out.append(f"{name} : Call {amount}")
            committed[name] = committed.get(name, 0) + int(amount)
        elif v == "bets":
            out.append(f"{name} : Bets {amount}")
            committed[name] = committed.get(name, 0) + int(amount)
        elif v == "raises":
            to = int(amount.split(" to ")[1])
            out.append(f"{name} : Raises {to - committed.get(name, 0)} to {to}")
            committed[name] = to
        elif v == "shows":
            out.append(f"{name} : Showdown [{shown[name]}]")
        elif v == "mucks hand":
            out.append(f"{name} : Mucks [{dealt.get(name, '')}]")
        else:
            out.append(f"{name} : Does not show [{dealt.get(name, '')}]")
    return "\n".join(out)


SPEC = SiteSpec(
    parser="bovada",
    folders=("tour/Bovada", "cash/Bovada"),
    marker=re.compile(r"(?:Bovada|Ignition|Bodog UK|Bodog\.com|Bodog\.eu|Bodog) Hand #\d+"),
    mutation_header=re.compile(r"^(Bovada Hand #)(\d+)(: .*)$"),
    mutation_text=bovada_as_stars,
    mutant_text=stars_as_bovada,
    expected_rejections={
        # 'Big Blind [ME] : All-in 166' before the deal, then the dealer's 'Ante chip 240' and a
        # return: the all-in may be the big blind or the ante (ante.all.in)
        **_each('tour/Bovada/Flop/NLHE-9max-USD-10-201211.ante.all.in.txt',
                'all-in-unclear', (5,)),
        # no line deals the board (2012: no street marker, no 'Card dealt to table'): the streets
        # begin where the betting rounds close, but here a line is written twice just where a
        # round closes: the same check written again, or the next street's first, is not said
        **_each('cash/Bovada/Flop/PLO-USD-5-10-201204.new.format.txt',
                'streets-unrecorded', (167, 692,)),
        # the summary is another hand's (old.format line 7822: its board, seats and 4-card holes
        # are not the hand's)
        **_each('cash/Bovada/Flop/LHE-USD-8-16-201204.old.format.txt',
                'summary-mismatch', (7860,)),
        # the summary runs into another hand's seat lines with no header (concatenated.partial):
        # where this hand's record ends in the spliced text cannot be told without guessing.
        # (partial.hand's first hand, cut off mid-line by the next header at line 10, is
        # stored as recorded, marked as cut: one record-incomplete finding.)
        **_each('cash/Bovada/Flop/NLHE-USD-5-10-201511.concatenated.partial.txt',
                'truncated', (37,)),
    },
)

globals().update(site_tests(SPEC))

# 1,560 of 1,565 (99.7%) are stored (the 275 Ignition tournament hands whose header names no
# limit, and the 45 seven card stud hands, whose headers state no bet sizes, with betting
# 'unrecorded'; 27 hands whose board only the summary writes, its streets placed where the
# betting rounds close; one hand cut short, stored as recorded): 2 of those write a line twice just
# where a round closes, 1 is spliced with another hand, 1 holds another hand's summary, 1 an all-in that may be a blind or an ante.


# --- the up cards of every corpus stud hand, exchanged: the bring-in check finds each ---------

@needs_corpus
def test_a_bring_in_the_up_cards_no_longer_name_is_found_in_every_corpus_stud_hand(tmp_path):
    """Each Bovada stud hand with a bring-in, written again with the bring-in's three
    third-street cards exchanged with the next dealt seat's (the rest as it was): the
    lowest up card is now another seat's, and the ``bring-in`` check names every hand."""
    from auditor.pipeline import audit

    bring = re.compile(r"^(Seat\+\d+(?: \[ME\])?) : (?:Bring_in chip|Big blind/Bring in)")
    third = re.compile(r"^(Seat\+\d+(?: \[ME\])?) : Card dealt to a spot (\[\S+ \S+ \S+\])$")
    mutants = []
    for path in sorted((CORPUS / "fpdb").glob("*/Bovada/Stud/*")):
        text = path.read_text(encoding="utf-8-sig")
        for hand in re.split(r"\n\s*\n(?=\ufeff?(?:Bovada|Bodog) Hand #)", text):
            lines = hand.strip("\n").split("\n")
            at = next((k for k, line in enumerate(lines) if bring.match(line)), None)
            if at is None:
                continue
            deals = [k for k, line in enumerate(lines) if third.match(line)]
            mine = next(k for k in deals if third.match(lines[k])[1] == bring.match(lines[at])[1])
            other = deals[(deals.index(mine) + 1) % len(deals)]
            a, b = third.match(lines[mine]), third.match(lines[other])
            lines[mine], lines[other] = lines[mine].replace(a[2], b[2]), lines[other].replace(b[2], a[2])
            mutants.append("\n".join(lines))
    assert len(mutants) == 41
    (tmp_path / "exchanged.txt").write_text("\n\n\n".join(mutants) + "\n", encoding="utf-8")
    result = audit([tmp_path / "exchanged.txt"], db=tmp_path / "m.duckdb")
    assert result.ingest.stored == 41, result.ingest.errors
    found = {f["hand_id"] for f in result.findings if f["check_id"] == "bring-in"}
    assert len(found) == 41


# --- brands and wordings of the files added to the corpus -----------------------------------

@needs_corpus
@pytest.mark.parametrize("rel, hand_id", [
    ("cash/Bovada/Flop/NLHE-6max-USD - $0.25-$0.50 - 201804.bodog.eu.txt", "BOV-3598529418"),
    ("cash/Bovada/Flop/NLHE-USD - $1.00-$2.00 - 202104.Bodog.com.MVS.txt", "BOV-4107052743"),
    # 'Dealer : BOUNTY PRIZE [$5]' and 'Seat 7:Dealer 8680  with ...' (a knockout, 2015)
    ("tour/Bovada/Flop/NLHE-USD-MTT - ($5 Knockout) - $10-$1 - 201512.KO.txt", "BOV-3304886256"),
])
def test_a_file_of_each_brand_and_wording_is_read_and_its_hand_stored(rel, hand_id):
    from parsers import all_parsers, iter_lines, open_source
    from parsers.base import ParsedHand

    path = CORPUS / "fpdb" / rel
    info = open_source(path)
    [parser] = [p for p in all_parsers() if p.detect(info.head, rel)]
    [hand] = list(parser.iter_hands(iter_lines(path, info.encoding), rel))
    assert isinstance(hand, ParsedHand), hand
    assert hand.hand_id == hand_id and hand.site == "bovada"
    assert not [e for e in hand.events if e.kind == "unread"]
