"""Full Tilt Poker's 2016 client, which wrote PokerStars-shaped histories.

A hand starts at ``Full Tilt Hand #<n>: ...`` or ``Full Tilt Rush Hand #<n>: ...``;
the rest of the hand is written as PokerStars writes it (``parsers.stars_family``).
The older Full Tilt format (``Full Tilt Poker Game #...``) is a different format.
"""

from __future__ import annotations

import re

from parsers.stars_family import (
    GAMES,
    StarsFamilyParser,
    StarsSite,
    cash_header,
    game_pattern,
    hand_headers,
    tourney_header,
)

_GAME = game_pattern(GAMES)

FULL_TILT_2016 = StarsSite(
    name="fulltilt-stars",
    site="fulltilt",
    label="Full Tilt (2016)",
    id_prefix="FT-",
    **hand_headers(("Full Tilt Hand #", "Full Tilt Rush Hand #"), r"Full Tilt (?:Rush )?Hand #(?P<num>\d+):"),
    tourney=tourney_header(rf"(?P<buyin>.*?) ?{_GAME}(?: - Level (?P<level>\w+))? "),
    cash=cash_header(_GAME),
)


class FullTiltStarsParser(StarsFamilyParser):
    """Reads the 2016 Full Tilt client's text histories (see the module docstring)."""

    def __init__(self) -> None:
        super().__init__(FULL_TILT_2016)
