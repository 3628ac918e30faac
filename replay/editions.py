"""What differs between TDA editions, as far as a replay ruling is concerned.

Rule numbers and titles live in the catalog (``auditor/rules/catalog.toml``);
this module holds only the behaviour switches, each justified by the text in
``../shared/tda/`` (see ``docs/editions.md``).

>>> edition("tda-2011").cumulative_short_allins_reopen
False
>>> edition("tda-2019").limit_half_raise_reopens
True
>>> edition("tda-2024").identical_hands_split_evenly, edition("tda-2024").bb_ante_order
(False, 'big-blind-first')
"""

from __future__ import annotations

from dataclasses import dataclass

EDITIONS = ("tda-2011", "tda-2013", "tda-2017", "tda-2019", "tda-2024")
DEFAULT_EDITION = "tda-2024"


@dataclass(frozen=True, slots=True)
class EditionRules:
    name: str
    # 2011 Rule 38: "an all-in wager of less than a full raise does not reopen the
    # betting to a player who has already acted" - one wager, judged on its own.
    # 2013 Rule 41-B adds "and is not facing at least a full raise when the action
    # returns to him"; 2017 Rule 48 / 2019 Rule 47-A name "multiple short all-ins
    # totaling less than a full bet or raise": short all-ins add up.
    cumulative_short_allins_reopen: bool
    # 2013 Rule 41-B, 2017 Rule 48, 2019 Rule 47-B: "In limit, at least 50% of a full
    # (bet or) raise is required to re-open betting".  2011 restricts its no-reopen
    # clause to no-limit and pot-limit, so in limit any all-in raise reopens.
    limit_half_raise_reopens: bool
    # 2011 Rule 17: "In stud, the odd chip goes to the high card by suit" (the whole
    # hand); 2013 Rule 19 onward: "the high card by suit in the best 5-card hand".
    stud_odd_chip_from_best_five: bool
    # identical hands winning both halves split "as evenly as possible" (2011 Rule 17,
    # 2013 Rule 19, 2017/2019 Rule 20-D).  2024 Rule 20: "D) Deleted 2022": the pot is
    # split in halves like any hi/lo pot, the odd chip of the total pot high (20-C), the
    # odd chip of each half by 20-A (board: first seat left of the button) or 20-B (stud:
    # high card by suit) - the 2019 Addendum's "wrong" 34/32 is the 2024 ruling.
    identical_hands_split_evenly: bool = True
    # every edition: in a hi/lo split the odd chip of the total pot goes to the high side
    hilo_odd_chip_to_high: bool = True
    # RP-11, a big blind ante the big-blind player cannot post in full together with the
    # blind: 2019 "ante-first calculation" (the ante is paid first, the rest is the live
    # blind); 2024 "big-blind-first calculation" (the blind first, the rest is the dead
    # ante).  None: the edition has no big blind ante format (before 2019), and the
    # replay keeps the split the history posted.
    bb_ante_order: str | None = None
    # 2024 Rule 34-A: a button moved incorrectly stands once substantial action occurs;
    # "the button will not be backed-up on the next hand".  Earlier editions have no rule
    # on button errors: a history that moves the button back to correct one is not wrong.
    button_error_stands: bool = False
    # 54-B, the pre-flop pot-limit maximum: 2017/2019 "a short all-in blind will not affect
    # calculation of the maximum pot limit bet"; 2024 "a dead or short all-in blind will not
    # affect pot calculation. All pre-flop pot and re-pot bets will assume full blinds were
    # posted" (Ex 1: 100-200, dead small blind, the first raise may go to 700).
    pot_limit_assumes_full_blinds: bool = False


_EDITIONS = {
    "tda-2011": EditionRules("tda-2011", False, False, False),
    "tda-2013": EditionRules("tda-2013", True, True, True),
    "tda-2017": EditionRules("tda-2017", True, True, True),
    "tda-2019": EditionRules("tda-2019", True, True, True, bb_ante_order="ante-first"),
    "tda-2024": EditionRules("tda-2024", True, True, True, identical_hands_split_evenly=False,
                             bb_ante_order="big-blind-first", button_error_stands=True,
                             pot_limit_assumes_full_blinds=True),
}


def edition(name: str) -> EditionRules:
    try:
        return _EDITIONS[name]
    except KeyError:
        raise ValueError(f"unknown TDA edition {name!r}; choose one of {', '.join(EDITIONS)}") from None
