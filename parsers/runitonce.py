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
  players' ``checks`` are written on later streets (the replay notes them);
- "splash the pot" (``STP added: €0.50``): the house adds money to the pot, which
  the log has no event for; such a hand is rejected, reason ``splash-the-pot``.
"""

from __future__ import annotations

import re

from parsers.stars_family import GAME, RAISE_TO_ADDED, SEAT, StarsFamilyParser, stars_site

RUN_IT_ONCE = stars_site(
    "runitonce", "Run It Once Poker", "RIO-", ("Run It Once Poker Hand #",), r"Run It Once Poker Hand #(?P<num>\d+):",
    rf"(?P<buyin>\S+) (?P<name>[^,]*), {GAME} ",
    table_prefix="Table ID '",
    table=re.compile(r"^Table ID '(?P<name>.*)' (?P<max>\d+)-Max(?: Seat #(?P<btn>\d+) is the button)?$"),
    seat=re.compile(SEAT.pattern.replace(r"\)(?P<tail>.*)$", r"\)(?: \[hero\])?(?P<tail>.*)$")),
    markers={"*** SHOWDOWN ***": "showdown"},
    raise_amounts=RAISE_TO_ADDED,
    line_events=((re.compile(r"^(?P<player>.+) shows \[(?P<cards>[^\]]*)\] for .*$"), "show"),),
    # 'Hero collected €60.60 from pot' beside '... from side pot 1': 'pot' is the main pot
    collect=re.compile(r"^(.+) collected (\S+) from (pot|side pot(?: \d+)?)(?: \((hi|lo|high|low)\))?$"),
    main_pot_words=("pot",),
    pot_claim=re.compile(r" \| (Main pot|Side pot(?: \d+)?) (\S+)"),
    won=re.compile(r"(?:won|collected) \(?([^()\s]+)\)?"),
    rejected_lines=(("STP added: ", "splash-the-pot",
                     "the house added money to the pot (splash the pot), which the log cannot record"),),
)


class RunItOnceParser(StarsFamilyParser):
    """Reads Run It Once Poker text histories (see the module docstring)."""

    def __init__(self) -> None:
        super().__init__(RUN_IT_ONCE)
