"""Full Tilt Poker's 2016 client, which wrote PokerStars-shaped histories.

A hand starts at ``Full Tilt Hand #<n>: ...`` or ``Full Tilt Rush Hand #<n>: ...``;
the rest of the hand is written as PokerStars writes it (``parsers.stars_family``).
The older Full Tilt format (``Full Tilt Poker Game #...``) is a different format.
"""

from __future__ import annotations

import re

from parsers.stars_family import StarsFamilyParser
from parsers.stars_site import GAME, stars_site

FULL_TILT_2016 = stars_site(
    "fulltilt-stars", "Full Tilt (2016)", "FT-", ("Full Tilt Hand #", "Full Tilt Rush Hand #"),
    r"Full Tilt (?:Rush )?Hand #(?P<num>\d+):", rf"(?P<buyin>.*?) ?{GAME}(?: - Level (?P<level>\w+))? ",
    site="fulltilt",
    records_rebuys=True,
)


class FullTiltStarsParser(StarsFamilyParser):
    """Reads the 2016 Full Tilt client's text histories (see the module docstring)."""

    def __init__(self) -> None:
        super().__init__(FULL_TILT_2016)
