"""Stars-shaped sites' hands as ``tests/mutate.py`` reads them, and its mutants written back.

``tests/mutate.py`` reads and writes PokerStars' wording in whole chips.  The other
formats read through ``parsers/stars_family.py`` (WPN, classic Full Tilt, GGPoker, the
2016 Full Tilt client) write the same lines their own way.  One converter serves them:

* :func:`as_stars` writes a site's hand in PokerStars' wording from what the site's own
  parser makes of it (every amount in stored units, so cash hands too).  The header
  becomes a PokerStars header (the game, the limit and the blinds the library reads)
  that carries the amounts' style and the site's own header line, with placeholders
  for the hand number and the tournament; a site without a table line gets one naming
  the button (dropped on the way back).
* :meth:`Wording.write` writes a mutant back in the site's wording and number format:
  a site is one :class:`Wording` (a handful of templates).

A hand is used only if its round trip is exact: written back, the site's parser reads
the same seats and events from it as from the original.  Hands with what the library
does not model (dead blinds, straddles, bring-ins, hi/lo halves) are left out.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field

from parsers.base import ParsedHand

NUM, TID = "\u27e8num\u27e9", "\u27e8tid\u27e9"  # placeholders in the site's header line
HEAD = re.compile(r"^PokerStars Hand #(\d+): .*? @@ (\S*)\|(\d+)\|(\d+)\|(,?) @@ (.*)$")
NO_TABLE = "Table '@@' "  # the table line made for a site that writes none
ACT = re.compile(r"^(folds|checks|calls (\d+)|bets (\d+)|raises (\d+) to (\d+)"
                 r"|posts (small blind|big blind|the ante|small & big blinds) (\d+))( and is all-in)?$")
SEAT = re.compile(r"^Seat (\d+): (.+?) \((\d+) in chips(.*?)\)(.*)$")
UNCALLED = re.compile(r"^Uncalled bet \((\d+)\) returned to (.+)$")
COLLECT = re.compile(r"^(.+) collected (\d+) from (pot|main pot|side pot(?:-\d+)?)$")
TOTAL = re.compile(r"^Total pot (\d+)((?: (?:Main|Side) pot(?:-\d+)? \d+\.)*) <<(.*)>> \| Rake (\d+)$")
POT = re.compile(r" (Main|Side) pot(?:-(\d+))? (\d+)\.")
SUM_AMOUNT = re.compile(r"\b(won|collected) \((\d+)\)")
NEW_ROUND = ("*** FLOP", "*** TURN", "*** RIVER")
STREET = re.compile(r"^\*\*\* (HOLE CARDS|FLOP|TURN|RIVER|SHOW DOWN|SHOWDOWN|SUMMARY) \*\*\*")

ACTION_KINDS = ("ante", "small_blind", "big_blind", "dead_blind", "fold", "check", "call", "bet", "raise")
# events of what tests/mutate.py does not model: such a hand is not a source
UNMODELLED = ("dead_blind", "straddle", "bring_in", "complete", "draw", "discard", "rebuy", "topup")
GAMES = {"holdem": "Hold'em", "omaha": "Omaha", "omaha_hilo": "Omaha Hi/Lo"}
LIMITS = {"no-limit": "No Limit", "pot-limit": "Pot Limit", "fixed-limit": "Limit"}


@dataclass(frozen=True)
class Wording:
    """How a site writes the lines ``tests/mutate.py`` touches (PokerStars' by default)."""

    actor_sep: str = ": "
    show_sep: str = ": "  # 'Ann: shows [..]' (Run It Once: 'Ann shows [..] for ...')
    show_for: bool = False  # the shown hand's name after ' for ' (Run It Once), not in brackets
    in_chips: bool = True  # 'Seat 1: Ann (1500 in chips)' or 'Seat 1: Ann (1500)'
    posts: tuple[str, str, str] = ("posts small blind ", "posts big blind ", "posts the ante ")
    # 'raises <by> to <to>'; 'added': 'raises <chips added> to <to>'; 'to': 'raises to <to>';
    # 'to-added': 'raises <x> to <the total less his earlier bets on the street, his blind not>' (Run It Once)
    raise_to: str = "by"
    all_in: str = " and is all-in"
    uncalled: str = "Uncalled bet ({a}) returned to {p}"
    collect: str = "{p} collected {a} from {pot}"
    pot_words: dict[str, str] = field(default_factory=dict)  # 'pot', 'main pot', 'side pot', 'side pot-2' as the site writes them
    side_pot: str = "Side pot-{k}"  # a total line's k-th of several side pots
    claims: bool = True  # the total line names each pot's amount ('Main pot 300. Side pot 120.')
    total_after_house: bool = False  # the total written is what is left after the rake and fees
    summary_parens: bool = True  # 'won (100)' or 'won 100'
    summary: tuple[tuple[str, str], ...] = ()  # (site, PokerStars) phrases of summary seat lines, longest first
    board: str = "Board ["
    both_blinds: str | None = None  # how the site posts both blinds at once ('posts dead '; None: not modelled)

    # --- the site to PokerStars' wording ---------------------------------------------------
    def as_stars(self, text: str, parser) -> str | None:
        """The hand in PokerStars' wording, or None (a hand the library cannot model, or
        one whose round trip is not exact)."""
        lines = text.lstrip("\ufeff").split("\n")
        [hand] = parser.iter_hands(((i, 0, t) for i, t in enumerate(lines, 1)), "m.txt")
        if (not isinstance(hand, ParsedHand) or hand.variant not in GAMES or hand.betting not in LIMITS
                or not hand.big_blind or hand.button_seat is None
                or hand.cap is not None  # a capped table: the library's amounts know no cap (tests/test_mutations_capped.py) or not re.search(r"\d$", hand.hand_number or "")
                or any((e.kind in UNMODELLED and not (e.kind == "dead_blind" and self.both_blinds)) or e.half
                       or e.run != 1 for e in hand.events)):  # run it twice: tests/test_mutations.py's per-run recall
            return None
        try:
            stars = self._as_stars(hand, lines, parser.site)
        except (ValueError, KeyError, AttributeError):
            return None
        [back] = parser.iter_hands(((i, 0, t) for i, t in enumerate(self.write(stars).split("\n"), 1)), "m.txt")
        return stars if isinstance(back, ParsedHand) and _signature(back) == _signature(hand) else None

    def _as_stars(self, hand: ParsedHand, lines: list[str], site) -> str:
        by_line: dict[int, list] = {}
        for e in hand.events:
            by_line.setdefault(e.line_no, []).append(e)
        seat_lines = {s.line_no: s for s in hand.seats if s.line_no}
        stacks = [site.seat.match(lines[no - 1]).group("stack") for no in seat_lines]
        dec = len(str(hand.amount_scale)) - 1 if hand.amount_scale > 1 else \
            max((len(s.partition(".")[2]) for s in stacks), default=0)
        style = f"{re.match(r'^[^0-9]*', stacks[0]).group(0)}|{hand.amount_scale}|{dec}|{',' if any(',' in s for s in stacks) else ''}"
        number = re.sub(r"^\D*", "", hand.hand_number)  # GGPoker's 'OM190765880': the library numbers digits
        template = lines[0].replace(number, NUM, 1)
        if hand.tournament_id:
            template = template.replace(hand.tournament_id, TID, 1)
        out = [f"PokerStars Hand #{number}: {GAMES[hand.variant]} {LIMITS[hand.betting]} "
               f"({hand.small_blind or 0}/{hand.big_blind}) - @@ {style} @@ {template}"]
        if not re.search(r"\d+-max Seat #\d+ is the button", lines[1]):
            seats = max(s.seat for s in hand.seats)
            out.append(f"{NO_TABLE}{max(hand.max_seats or 0, seats)}-max Seat #{hand.button_seat} is the button")
        collects = [e for e in hand.events if e.kind == "collect"]
        sides = len({e.pot_label for e in collects if (e.pot_label or "").startswith("side")})
        results = {e.line_no for e in hand.events if e.kind == "seat_result"}
        # a collect only the summary records: a collect line of its own, before the summary
        pending = [f"{c.player} collected {c.amount} from {_pot_words(c.pot_label, sides)}"
                   for c in collects if c.line_no in results]
        commit: Counter[str] = Counter()
        level = 0
        for no, line in enumerate(lines[1:], 2):
            events = by_line.get(no, [])
            kinds = {e.kind: e for e in events}
            if line.startswith(NEW_ROUND):  # (the blinds, posted before the hole cards, stay the bet to call)
                commit, level = Counter(), 0
            if line.startswith("*** SUMMARY"):
                out += pending
            if no in seat_lines:
                m = site.seat.match(line)
                s = seat_lines[no]
                inner = f"{s.starting_stack} in chips" + (f", {m.group('bounty')}" if m.group("bounty") else "")
                out.append(f"Seat {s.seat}: {s.player} ({inner}){m.group('tail')}")
            elif (e := next((x for x in events if x.kind in ACTION_KINDS), None)) is not None:
                out.append(f"{e.player}: {_stars_act(e, commit, level)}")
                if e.kind == "dead_blind":  # both blinds: the big blind live, the small one dead
                    commit[e.player] += min(e.amount, hand.big_blind)
                    level = max(level, commit[e.player])
                elif e.kind in ("small_blind", "big_blind", "call", "bet", "raise"):
                    commit[e.player] = e.to_amount if e.kind == "raise" else commit[e.player] + e.amount
                    level = max(level, commit[e.player])
            elif "uncalled_return" in kinds:
                r = kinds["uncalled_return"]
                out.append(f"Uncalled bet ({r.amount}) returned to {r.player}")
            elif "collect" in kinds and "seat_result" not in kinds:
                c = kinds["collect"]
                out.append(f"{c.player} collected {c.amount} from {_pot_words(c.pot_label, sides)}")
            elif "total_pot" in kinds:
                t = kinds["total_pot"]
                m = site.total_pot.match(line)
                pots = [e for e in events if e.kind == "pot_claim"]
                claimed = "".join(f" {_pot_words(p.pot_label, len(pots) - 1).capitalize()} {p.amount}." for p in pots)
                out.append(f"Total pot {t.amount}{claimed} <<{line[m.end('pots'):]}>> | Rake {t.to_amount or 0}")
            elif "seat_result" in kinds:
                r = kinds["seat_result"]
                if r.amount is not None:
                    m = re.search(r"\b(won|collected) (?:\([^)]*\)|\S+?)(?=\s|, |,?$)", line)
                    line = f"{line[:m.start()]}{m.group(1)} ({r.amount}){line[m.end():]}"
                for theirs, ours in self.summary:
                    line = line.replace(theirs, ours)
                out.append(line)
            elif "show" in kinds and line.startswith(f"{kinds['show'].player}{self.show_sep}shows ["):
                rest = line[len(kinds['show'].player) + len(self.show_sep):]
                if self.show_for:
                    rest = re.sub(r"^(shows \[[^\]]*\]) for (.*)$", r"\1 (\2)", rest)
                out.append(f"{kinds['show'].player}: {rest}")
            elif line.startswith(self.board):
                out.append("Board [" + line[len(self.board):])
            else:
                out.append(line)
        return "\n".join(out)

    # --- PokerStars' wording back to the site's ----------------------------------------------
    def write(self, text: str) -> str:
        """A hand in PokerStars' wording (made by :meth:`as_stars`, perhaps mutated) in the site's."""
        lines = text.split("\n")
        m = HEAD.match(lines[0])
        number, prefix, scale, dec, sep = m.group(1), m.group(2), int(m.group(3)), int(m.group(4)), m.group(5)

        def amt(units: int | str) -> str:
            whole, frac = divmod(int(units), scale)
            return prefix + (f"{whole:,}" if sep else str(whole)) + (f".{frac:0{dec}d}" if dec else "")

        big_blind = int(re.search(r"\((\d+)/(\d+)\)", lines[0]).group(2))
        out = [m.group(6).replace(NUM, number).replace(TID, number)]
        names: list[str] = []
        commit: Counter[str] = Counter()
        blind: Counter[str] = Counter()
        section = ""
        for line in lines[1:]:
            if line.startswith(NO_TABLE):
                continue
            if sm := STREET.match(line):
                section = sm.group(1)
            if line.startswith(NEW_ROUND):
                commit, blind = Counter(), Counter()
            if not section and (s := SEAT.match(line)):
                names.append(s.group(2))
                chips = " in chips" if self.in_chips else ""
                out.append(f"Seat {s.group(1)}: {s.group(2)} ({amt(s.group(3))}{chips}{s.group(4)}){s.group(5)}")
                continue
            if section == "SUMMARY":
                if t := TOTAL.match(line):
                    total, house = int(t.group(1)), int(t.group(4))
                    pots = [(k, n, int(a)) for k, n, a in POT.findall(t.group(2))]
                    claimed = "".join(f" {'Main pot' if k == 'Main' else self.side_pot.format(k=n) if n else 'Side pot'} "
                                      f"{amt(a)}." for k, n, a in pots if self.claims)
                    line = f"Total pot {amt(total - house if self.total_after_house else total)}{claimed}{t.group(3)}"
                elif line.startswith("Seat "):
                    for theirs, ours in self.summary:
                        line = line.replace(ours, theirs)
                    line = SUM_AMOUNT.sub(lambda w: f"{w[1]} ({amt(w[2])})" if self.summary_parens else f"{w[1]} {amt(w[2])}", line)
                elif line.startswith("Board ["):
                    line = self.board + line[7:]
                out.append(line)
                continue
            if u := UNCALLED.match(line):
                out.append(self.uncalled.format(a=amt(u.group(1)), p=u.group(2)))
                continue
            if (c := COLLECT.match(line)) and c.group(1) in names:
                out.append(self.collect.format(p=c.group(1), a=amt(c.group(2)), pot=self.pot_words.get(c.group(3), c.group(3))))
                continue
            name = next((n for n in sorted(names, key=len, reverse=True) if line.startswith(n + ": ")), None)
            if name is not None:
                rest = line[len(name) + 2:]
                a = ACT.match(rest)
                if a:
                    rest = self._act(a, name, commit, blind, amt, big_blind)
                if rest.startswith("shows [") and self.show_for:
                    rest = re.sub(r"^(shows \[[^\]]*\]) \((.*)\)$", r"\1 for \2", rest)
                out.append(f"{name}{self.show_sep if rest.startswith('shows [') else self.actor_sep}{rest}")
                continue
            out.append(line)
        return "\n".join(out)

    def _act(self, a: re.Match, name: str, commit: Counter, blind: Counter, amt, big_blind: int) -> str:
        verb, tail = a.group(1), self.all_in if a.group(8) else ""
        if a.group(2):
            commit[name] += int(a.group(2))
            return f"calls {amt(a.group(2))}{tail}"
        if a.group(3):
            commit[name] += int(a.group(3))
            return f"bets {amt(a.group(3))}{tail}"
        if a.group(5):
            to = int(a.group(5))
            added, own, commit[name] = to - commit[name], commit[name] - blind[name], to
            said = {"by": f"raises {amt(a.group(4))} to {amt(to)}", "added": f"raises {amt(added)} to {amt(to)}",
                    "to": f"raises to {amt(to)}", "to-added": f"raises {amt(a.group(4))} to {amt(to - own)}"}[self.raise_to]
            return said + tail
        if a.group(6) == "small & big blinds":
            commit[name] += min(int(a.group(7)), big_blind)
            return f"{self.both_blinds or 'posts small & big blinds '}{amt(a.group(7))}{tail}"
        if a.group(6):
            post = ("small blind", "big blind", "the ante").index(a.group(6))
            if post < 2:
                commit[name] += int(a.group(7))
                blind[name] += int(a.group(7))
            return f"{self.posts[post]}{amt(a.group(7))}{tail}"
        return verb


def _stars_act(e, commit: Counter, level: int) -> str:
    tail = " and is all-in" if e.all_in else ""
    if e.kind in ("fold", "check"):
        return e.kind + "s"
    if e.kind == "raise":
        return f"raises {e.to_amount - level} to {e.to_amount}{tail}"
    if e.kind in ("call", "bet"):
        return f"{e.kind}s {e.amount}{tail}"
    word = {"small_blind": "small blind", "big_blind": "big blind", "ante": "the ante",
            "dead_blind": "small & big blinds"}[e.kind]
    return f"posts {word} {e.amount}{tail}"


def _pot_words(label: str | None, sides: int) -> str:
    """A collect's pot as PokerStars names it: 'pot', 'main pot', 'side pot' (one side
    pot) or 'side pot-2'."""
    if label in (None, "pot"):
        return "pot"
    if label == "main":
        return "main pot" if sides else "pot"  # (WPN names its one pot the main pot)
    k = label[5:] or "1"
    return "side pot" if sides <= 1 else f"side pot-{k}"


def _signature(hand: ParsedHand) -> tuple:
    """What a round trip must keep: the seats and every event but its text, line and order."""
    seats = sorted((s.seat, s.player, s.starting_stack) for s in hand.seats)
    events = sorted((e.kind, e.player or "", e.amount or 0, e.to_amount or 0, e.all_in, e.cards or "",
                     "pot" if e.pot_label == "main" else e.pot_label or "") for e in hand.events)
    return hand.betting, hand.big_blind, hand.amount_scale, tuple(seats), tuple(events)


STARS = Wording()
WPN = Wording(
    actor_sep=" ", show_sep=" ", in_chips=False, raise_to="added", total_after_house=True, summary_parens=False,
    pot_words={"pot": "main pot"}, both_blinds="posts dead ", claims=False,
    posts=("posts the small blind ", "posts the big blind ", "posts ante "),
    summary=(("did not show and won (", "collected ("),
             ("folded on the Pre-Flop and did not bet", "folded before Flop (didn't bet)"),
             ("folded on the Pre-Flop", "folded before Flop")),
)
FULL_TILT = Wording(
    actor_sep=" ", show_sep=" ", in_chips=False, raise_to="to", all_in=", and is all in",
    posts=("posts the small blind of ", "posts the big blind of ", "antes "),
    uncalled="Uncalled bet of {a} returned to {p}", collect="{p} wins the {pot} ({a})",
    pot_words={"side pot-1": "side pot", "side pot-2": "side pot", "side pot-3": "side pot"},
    side_pot="Side pot {k}",
    summary=(("didn't bet (folded)", "folded before Flop (didn't bet)"), ("folded before the Flop", "folded before Flop")),
    board="Board: [",
)
RUN_IT_ONCE = Wording(raise_to="to-added", all_in="", summary_parens=False, show_sep=" ", show_for=True,
                      summary=(("mucked hand and won (", "collected ("),))
