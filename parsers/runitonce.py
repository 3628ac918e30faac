"""Run It Once Poker text hand histories (2019-2021), a PokerStars-family format.

A hand starts at ``Run It Once Poker Hand #<n>: ...``.  What Run It Once writes
its own way is here (``parsers.stars_family`` reads the rest):

- the header: ``Tournament #<id>, <buy-in> <name>, <game> (<sb>/<bb>) - <date> UTC [...]``
  (no level) or ``<game> (<sb>/<bb>) - ...`` for cash;
- ``Table ID '<id>' 6-Max``; the recording player's seat line ends ``[hero]``;
- ``<player> shows [cards] for <hand>`` (no colon) at the showdown;
- the summary's award without brackets: ``mucked hand and won 120``;
- ``raises X to Y``: Y leaves out the player's own earlier bets and raises on the
  street (not his blind): ``Ann: bets 0.19``, ``Bob: raises 0.39 to 0.58``,
  ``Ann: raises 0.54 to 1.12``, ``Bob: calls 0.73``: Ann's total is 1.31, as the call
  and the total pot say; a small blind's ``raises 20 to 40`` is a total of 40.  X is Y
  less the bet faced.  The event's to_amount is the total, its amount the raise over
  the level (as PokerStars writes them).  No ``and is all-in`` is written, and all-in
  players' ``checks`` are written on later streets (the replay notes them).  By August
  2019 the site wrote raises the PokerStars way (``to`` the total, ``and is all-in``
  written), and the hand does not say which way it is written: a hand whose raises,
  read the older way, put in more than a player had is rejected (``raise-reading``),
  not read the other way by guess;
- "splash the pot" (``STP added: €0.50``, after ``*** HOLE CARDS ***``): the house
  adds money to the pot, a ``house_added`` event with no seat; the summary's total
  pot counts it (``Total pot €0.75 | Main pot €0.25 | STP €0.50 | Rake €0.04``).
"""

from __future__ import annotations

import re

from typing import Iterator

from parsers.base import HandError, ParsedHand
from parsers.stars_family import GAME, RAISE_TO_ADDED, SEAT, StarsFamilyParser, stars_site

RUN_IT_ONCE = stars_site(
    "runitonce", "Run It Once Poker", "RIO-", ("Run It Once Poker Hand #",), r"Run It Once Poker Hand #(?P<num>\d+):",
    rf"(?P<buyin>\S+) (?P<name>[^,]*), {GAME} ",
    table_prefix="Table ID '",
    table=re.compile(r"^Table ID '(?P<name>.*)' (?P<max>\d+)-Max(?: Seat #(?P<btn>\d+) is the button)?$"),
    seat=re.compile(SEAT.pattern.replace(r"\)(?P<tail>.*)$", r"\)(?: \[hero\])?(?P<tail>.*)$")),
    markers={"*** SHOWDOWN ***": "showdown"},
    raise_amounts=RAISE_TO_ADDED,
    line_events=((re.compile(r"^(?P<player>.+) shows \[(?P<cards>[^\]]*)\] for .*$"), "show"),
                 (re.compile(r"^STP added: (?P<amount>\S+)$"), "house_added")),
    # 'Hero collected €60.60 from pot' beside '... from side pot 1': 'pot' is the main pot
    collect=re.compile(r"^(.+) collected (\S+) from (pot|side pot(?: \d+)?)(?: \((hi|lo|high|low)\))?$"),
    main_pot_words=("pot",),
    pot_claim=re.compile(r" \| (Main pot|Side pot(?: \d+)?|STP) (\S+)"),
    house_pot_words=("STP",),
    won=re.compile(r"(?:won|collected) \(?([^()\s]+)\)?"),
)


class RunItOnceParser(StarsFamilyParser):
    """Reads Run It Once Poker text histories (see the module docstring)."""

    def __init__(self) -> None:
        super().__init__(RUN_IT_ONCE)

    def iter_hands(self, lines: Iterator[tuple[int, int, str]], path: str,
                   cut_by_end: int | None = None) -> Iterator[ParsedHand | HandError]:
        for item in super().iter_hands(lines, path, cut_by_end):
            yield (beyond_stack(item) or item) if isinstance(item, ParsedHand) else item


_CHIPS_KINDS = ("small_blind", "big_blind", "straddle", "dead_blind", "bring_in", "call", "bet", "raise", "complete")


def beyond_stack(hand: ParsedHand) -> HandError | None:
    """The rejection of a hand whose raises, read as this reader reads them, put in more
    than a player had: the raise lines are written another way (see the module docstring)."""
    stacks = {s.seat: s.starting_stack for s in hand.seats}
    put: dict[int, int] = {}
    committed: dict[int, int] = {}
    street = None
    for e in hand.events:
        if e.seat is None:
            continue
        if e.street != street and e.kind in _CHIPS_KINDS:
            street, committed = e.street, {}
        if e.kind == "ante":
            put[e.seat] = put.get(e.seat, 0) + (e.amount or 0)
        elif e.kind in _CHIPS_KINDS:
            before = committed.get(e.seat, 0)
            after = e.to_amount if e.kind in ("raise", "complete") and e.to_amount is not None else before + (e.amount or 0)
            committed[e.seat] = after
            put[e.seat] = put.get(e.seat, 0) + after - before
            if put[e.seat] > stacks.get(e.seat, put[e.seat]):
                return HandError(e.line_no, "raise-reading",
                                 f"line {e.line_no}: read as Run It Once wrote raises until 2019 ('raises X to Y', Y "
                                 f"without the player's own earlier bets on the street), {e.player} puts in "
                                 f"{put[e.seat]} (stored units), more than the {stacks[e.seat]} he had: this hand "
                                 f"writes its raises another way, which it does not say: {e.text!r}", hand.hand_id)
    return None
