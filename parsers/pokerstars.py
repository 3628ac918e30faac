"""PokerStars text hand histories (tournament, cash, home games, zoom).

A hand starts at its header line (``PokerStars Game #...``, ``PokerStars Hand #...``,
``PokerStars Home Game Hand #...``).  The format is the model of the family that
``parsers.stars_family`` reads; this module holds only what PokerStars writes its
own way: its headers, its games' names, its button-blind stakes.

>>> text = '''PokerStars Hand #1: Tournament #9, $1+$0.10 USD Hold'em No Limit - Level I (10/20) - 2020/01/02 3:04:05 ET
... Table '9 1' 9-max Seat #1 is the button
... Seat 1: Ann (1500 in chips)
... Seat 2: Bob: the 2nd (1500 in chips)
... Ann: posts small blind 10
... Bob: the 2nd: posts big blind 20
... *** HOLE CARDS ***
... Ann: raises 40 to 60
... Bob: the 2nd: folds
... Uncalled bet (40) returned to Ann
... Ann collected 40 from pot
... Ann: doesn't show hand
... *** SUMMARY ***
... Total pot 40 | Rake 0
... Seat 1: Ann (button) (small blind) collected (40)
... Seat 2: Bob: the 2nd (big blind) folded before Flop'''
>>> lines = ((i, 0, t) for i, t in enumerate(text.splitlines(), 1))
>>> [h] = PokerStarsParser().iter_hands(lines, "x.txt")
>>> h.hand_id, h.variant, h.betting, h.small_blind, h.big_blind, h.level
('PS-1', 'holdem', 'no-limit', 10, 20, 'I')
>>> [(e.kind, e.player, e.amount, e.to_amount) for e in h.events[2:5]]
[('raise', 'Ann', 40, 60), ('fold', 'Bob: the 2nd', None, None), ('uncalled_return', 'Ann', 40, None)]
"""

from __future__ import annotations

import re

from auditor.schema import EventKind
from parsers.stars_family import StarsFamilyParser
from parsers.stars_languages import LANGUAGES, PREFIXES, starts
from parsers.stars_site import GAMES, IGNORED_EXACT, StarsSite, game_pattern, to_units

# A header starts its line; the upper-case form is written by old PokerTracker exports; the
# client in another language writes its own (parsers/stars_languages.py)
HAND_START = re.compile(rb"^(?:PokerStars |POKERSTARS )(?i:(?:Home Game |Zoom )?(?:Game|Hand) #\d+:)|^(?:"
                        + starts().encode() + rb")", re.M)
_ENGLISH_START = r"PokerStars (?:Home Game |Zoom )?(?:Game|Hand) #\d+:"
# an export's lines between hands: its title ('Выписка Ваши последние 20 раздач(и) запрошена
# Ann (ann@example.com)', the pt-PT client's 'Transcrito último 1 hora de jogo requerido por Ann
# (ann@example.com)') and the separator before each hand ('*********** # 97 **************',
# '*********** №1 ****...', '*********** n. 1 ****...')
_BETWEEN_HANDS = re.compile(r"^(?:\*{5,} (?:# ?|№ ?|n\. ?)\d+ \*{5,}|Выписка .* запрошена .*|Transcrito .* requerido por .*)\s*$")
# games PokerStars deals that the schema has no variant for: rejected by name
_UNSUPPORTED_GAMES = ("split hold'em",)
_GAME = game_pattern(GAMES, _UNSUPPORTED_GAMES)

POKERSTARS = StarsSite(
    name="pokerstars",
    label="PokerStars",
    id_prefix="PS-",
    header_prefixes=("PokerStars ", "POKERSTARS ", *PREFIXES),
    header_start=re.compile(rf"(?i:{_ENGLISH_START})|{starts()}"),
    languages=LANGUAGES,
    between_hands=_BETWEEN_HANDS,
    hand_start=HAND_START,
    header=re.compile(
        r"^PokerStars (?P<kind>Home Game Hand|Zoom Hand|Game|Hand) #(?P<num>\d+): +(?:\{(?P<club>[^}]*)\} +)?(?P<rest>.*)$",
        re.IGNORECASE,
    ),
    tourney=re.compile(
        rf"^(?:Zoom )?Tournament #(?P<tid>\d+), (?P<buyin>.*?) ?{_GAME}\)?"
        r"(?: - (?:Match Round (?P<round>\w+), )?Level (?P<level>\w+))? \((?P<sb>[^/()]+)/(?P<bb>[^/()]+)\) - (?P<date>.+)$",
        re.IGNORECASE,
    ),
    cash=re.compile(rf"^{_GAME}(?:, | \()(?P<stakes>[^()]*)\) - (?P<date>.+)$", re.IGNORECASE),
    header_anywhere=re.compile(r"PokerStars (?:Home Game |Zoom )?(?:Game|Hand) #\d+: "),
    glued_key="PokerStars ",
    tourney_starts=("tournament", "zoom tourn"),
    unsupported_games=_UNSUPPORTED_GAMES,
    records_rebuys=True,  # 'Ann re-buys and receives 600 chips', 'Ann takes the add-on and receives ...'
    stakes=(
        re.compile(r"^(?P<sb>[^/ ]+)/(?P<bb>[^/ ]+)(?: (?P<cur>[A-Z]{3}))?$"),
        # 6+ hold'em: 'Button Blind $1 - Ante $0.50 USD'
        re.compile(r"^Button Blind\s(?P<bb>\S+) - Ante\s(?P<ante>\S+)\s+(?P<cur>[A-Z]{3})$"),
        # a capped no-limit table: '$0.25/$0.50 - $10 Cap -  USD' (hands.cap)
        re.compile(r"^(?P<sb>[^/ ]+)/(?P<bb>[^/ ]+) - (?P<cap>\S+) Cap -(?:\s+(?P<cur>[A-Z]{3}))?$"),
    ),
    cap_reached=re.compile(r" and has reached the \S+ cap$"),
    header_tag=re.compile(r" \[(?:ADM|AAMS) ID: [^\]]*\](?= - )"),
    # an all-in cash-out: the house buys the player's share of the pot (event cash_out)
    line_events=((re.compile(r"^(?P<player>.+) cashed out the hand for (?P<amount>\S+) \| Cash Out Fee (?P<fee>\S+)$"),
                  EventKind.CASH_OUT.value),),
)


class PokerStarsParser(StarsFamilyParser):
    """Reads PokerStars text histories (see the module docstring).

    >>> PokerStarsParser().detect("\\ufeffPokerStars Hand #12: Hold'em", "a.txt")
    True
    >>> PokerStarsParser().detect("Full Tilt Hand #12: Hold'em", "a.txt")
    False
    """

    def __init__(self) -> None:
        super().__init__(POKERSTARS)


__all__ = ["HAND_START", "IGNORED_EXACT", "POKERSTARS", "PokerStarsParser", "to_units"]
