"""Winning Poker Network (WPN: Americas Cardroom, Black Chip, True Poker) text histories.

WPN has written two formats; both are read here, recognised by their content.

**2019 onwards**, a PokerStars-family format (``parsers.stars_family`` reads it).
A hand starts at ``Game Hand #<n> - `` (tournaments) or ``Hand #<n> - `` (cash).
What WPN writes its own way:

- headers ``Game Hand #<n> - [<name> ]Tournament #<id> - Holdem(No Limit) - Level <l> (<sb>/<bb>)- <date> UTC``
  and ``Hand #<n> - Omaha H/L(Fixed Limit) - $20.00/$40.00 - <date> UTC``;
- a table line without ``Table '...'`` for cash (``Fort Lupton 9-max Seat #5 is the button``),
  seat lines ``Seat 1: Ann ($9.10)`` (no ``in chips``);
- actions without a colon (``Ann folds``), ``posts the small blind``, ``posts ante``,
  ``posts dead`` (both blinds, out of position), ``brings in $0.02``, ``does not show``;
- a raise's first amount is the chips the player adds, not the increment over the
  bet (``Ann posts the small blind $10``, ``Ann raises $30 to $40``): it is stored as
  written (the raise event's amount) and must equal the total less what the player
  had in on the street, or the hand is a parse error;
- running ``Main pot $x | Rake $y`` lines at each street (the summary's total is
  the record); ``Total pot $x | Rake $y | JP Fee $z``, where the total is what is
  left after the rake and the jackpot fee (``Total pot $199.00 | Rake $0.96 | JP Fee $0.04``
  when $200 went in): the total_pot event's amount adds the two back (to_amount: their sum);
- a walk (everyone folds to the big blind) has no ``Uncalled bet`` line: the big blind
  is awarded the whole pot, his own unmatched chips included;
- before the antes of some tournament hands, one ``Dealt to <player> [card]`` a seat:
  the draw for the button, not the hand's cards; nothing is recorded for them;
- capped no-limit tables (``<player> caps $0.55``: the bet goes to the table's cap)
  are not supported: such a hand is rejected, reason ``capped-no-limit``.

**2016 and before** (``Game started at: ...`` then ``Game ID: <n> <sb>/<bb> <table> (<game>)``,
often UTF-16).  This format never says whether the game was no-limit, pot-limit
or fixed-limit, and the meaning of its stakes (blinds or bets) depends on that.
The auditor does not guess it: every hand of this format is rejected, reason
``betting-unrecorded``, at its ``Game ID`` line.

>>> text = '''Hand #7 - Holdem(No Limit) - $0.01/$0.02 - 2019/11/08 04:43:23 UTC
... Parachute 6-max Seat #1 is the button
... Seat 1: Ann ($1.00)
... Seat 2: Bob ($2.00)
... Ann posts the small blind $0.01
... Bob posts the big blind $0.02
... *** HOLE CARDS ***
... Ann raises $0.05 to $0.06
... Bob folds
... Uncalled bet ($0.04) returned to Ann
... Ann does not show
... *** SUMMARY ***
... Total pot $0.04
... Seat 1: Ann (button) (small blind) did not show and won $0.04
... Seat 2: Bob (big blind) folded on the Pre-Flop'''
>>> [h] = WpnParser().iter_hands(((i, 0, t) for i, t in enumerate(text.splitlines(), 1)), "x.txt")
>>> h.hand_id, h.site, h.table_name, h.big_blind
('WPN-7', 'wpn', 'Parachute', 2)
>>> [(e.kind, e.player, e.amount, e.to_amount) for e in h.events[2:4]]
[('raise', 'Ann', 5, 6), ('fold', 'Bob', None, None)]
"""

from __future__ import annotations

import re
from typing import Iterator

from auditor.schema import Betting, EventKind, Variant
from parsers.base import HandError, ParsedHand
from parsers.stars_family import RAISE_ADDED, StarsFamilyParser, StarsSite, hand_headers

_WPN_GAMES = {
    "holdem": Variant.HOLDEM.value,
    "omaha": Variant.OMAHA.value,
    "omaha h/l": Variant.OMAHA_HILO.value,
    "7stud": Variant.STUD.value,
    "7stud h/l": Variant.STUD_HILO.value,
    "razz": Variant.RAZZ.value,
}
_WPN_LIMITS = {
    "no limit": Betting.NO_LIMIT.value,
    "pot limit": Betting.POT_LIMIT.value,
    "fixed limit": Betting.FIXED_LIMIT.value,
}
_GAME_ALT = "|".join(re.escape(g) for g in sorted(_WPN_GAMES, key=len, reverse=True))
# 'Holdem(No Limit)'; the family reads the groups mixed (never written here), base and limit
_GAME = rf"(?P<mixed>(?!))?(?P<base>{_GAME_ALT})\((?P<limit>No Limit|Pot Limit|Fixed Limit)\)"

WPN = StarsSite(
    name="wpn",
    label="WPN",
    id_prefix="WPN-",
    **hand_headers(("Game Hand #", "Hand #"), r"(?:Game )?Hand #(?P<num>\d+) -"),
    tourney_find=re.compile("Tournament #"),
    tourney=re.compile(
        rf"^(?:(?P<name>.*?) )?Tournament #(?P<tid>\d+) - {_GAME} - Level (?P<level>\w+) "
        r"\((?P<sb>[^/()]+)/(?P<bb>[^/()]+)\)- (?P<date>.+)$",
        re.IGNORECASE,
    ),
    cash=re.compile(rf"^{_GAME} - (?P<stakes>[^ ]+/[^ ]+) - (?P<date>.+)$", re.IGNORECASE),
    games=_WPN_GAMES,
    limits=_WPN_LIMITS,
    table_prefix="",
    table=re.compile(r"^(?:Table ')?(?P<name>.+?)'? (?P<max>\d+)-max(?: Seat #(?P<btn>\d+) is the button)?$"),
    # the family reads five groups: seat, name, stack, bounty (never written here), tail
    seat=re.compile(r"^Seat (?P<seat>\d+): (?P<name>.+) \((?P<stack>[^()\s]+)\)(?P<bounty>(?!))?(?P<tail>.*)$"),
    total_pot=re.compile(
        r"^Total pot (?P<total>\S+)(?P<pots>)(?: \| Rake (?P<rake>\S+))?(?: \| JP Fee (?P<fee_jackpot>\S+))?$"
    ),
    won=re.compile(r"won (\S+)"),
    actor_sep=" ",
    summary_collects=True,
    action_aliases=(
        ("brings in ", re.compile(r"^brings in "), "brings in for "),
        ("does not show", re.compile(r"^does not show"), "doesn't show hand"),
    ),
    extra_posts={
        "the small blind ": EventKind.SMALL_BLIND.value,
        "the big blind ": EventKind.BIG_BLIND.value,
        "ante ": EventKind.ANTE.value,
        "dead ": EventKind.DEAD_BLIND.value,  # both blinds, posted out of position
    },
    raise_amounts=RAISE_ADDED,
    total_after_rake=True,
    ignored_lines=("Main pot ",),
    predeal_ignored=("Dealt to ",),
    rejected_lines=((" caps ", "capped-no-limit",
                     "a capped no-limit table (the bet went to the table's cap), which the auditor does not support"),),
)


class WpnParser(StarsFamilyParser):
    """Reads WPN's 2019 format (see the module docstring)."""

    def __init__(self) -> None:
        super().__init__(WPN)


# --- the format of 2016 and before ----------------------------------------------------

LEGACY_START = "Game started at: "
_LEGACY_ID = re.compile(r"^Game ID: (?P<num>\d+) ")


class WpnLegacyParser:
    """WPN's format of 2016 and before: each hand is accounted for and rejected
    (``betting-unrecorded``; see the module docstring), never stored with a guessed
    betting structure.

    >>> text = ["Game started at: 2016/8/2 10:50:44", "", "Game ID: 693967308 0.02/0.05 (PRR) Cyclops - 6 (Hold'em)"]
    >>> [e] = WpnLegacyParser().iter_hands(((i, 0, t) for i, t in enumerate(text, 1)), "x.txt")
    >>> e.line_no, e.reason_code, e.hand_id
    (3, 'betting-unrecorded', 'WPN-693967308')
    """

    name = "wpn-legacy"
    hand_start = re.compile(rb"^Game started at: ", re.M)

    def detect(self, head: str, path: str) -> bool:
        lines = [line for line in head.lstrip("\ufeff").splitlines()[:200] if line.strip()]
        return len(lines) >= 2 and lines[0].startswith(LEGACY_START) and lines[1].startswith("Game ID: ")

    def iter_hands(self, lines: Iterator[tuple[int, int, str]], path: str,
                   cut_by_end: int | None = None) -> Iterator[ParsedHand | HandError]:
        start: int | None = None  # the line of the current hand's 'Game started at:'
        found_id = False
        stray: int | None = None
        for no, _, text in lines:
            text = text.lstrip("\ufeff")
            if text.startswith(LEGACY_START):
                if start is not None and not found_id:
                    yield HandError(start, "truncated", f"hand at line {start} has no 'Game ID' line")
                start, found_id = no, False
                continue
            if start is None:
                if text.strip() and stray is None:
                    stray = no
                continue
            if not found_id and text.startswith("Game ID: "):
                found_id = True
                m = _LEGACY_ID.match(text)
                hand_id = f"WPN-{m.group('num')}" if m else None
                yield HandError(no, "betting-unrecorded",
                                f"line {no}: WPN's format of 2016 and before does not record whether the game is "
                                f"no-limit, pot-limit or fixed-limit: {text.strip()!r}", hand_id)
        if start is not None and not found_id:
            yield HandError(start, "truncated", f"hand at line {start} has no 'Game ID' line")
        if stray is not None:
            yield HandError(stray, "truncated", f"line {stray} comes before any WPN hand ('Game started at:')")
