"""GGPoker text hand histories (tournaments and cash), a PokerStars-family format.

A hand starts at ``Poker Hand #<letters><digits>: ...``.  What GGPoker writes its
own way, and nothing else, is here (``parsers.stars_family`` reads the rest):

- game names of its own: ``PLO``, ``PLO-5``, ``Omaha5``, ``ShortDeck`` (6+ hold'em), and
  ``Omaha (NL postflop)``: pot-limit before the flop, no-limit after;
- an ante-only cash header (``ShortDeck No Limit ($100)``): the blind comes from
  the button-blind post;
- tournament headers ``Tournament #<id>, <name and buy-in> <game> - Level<n>(<sb>/<bb>)``,
  since about 2024 with the ante inside the brackets where there is one (``Level7(175/350(45))``),
  as cash headers do (``Hold'em No Limit ($0.02/$0.05($0.01))``);
- ``Dealt to <player>`` with no cards for every other player, ``*** SHOWDOWN ***``;
- straddles written ``Ann: straddle $2`` (no ``posts``); a player may straddle again
  (``straddle $0.04``, then ``straddle $0.08``): each amount is the player's total,
  so the event's amount is what was added and its to_amount the total;
- ``Total pot $x | Rake $y | Jackpot $z | Bingo $w | Fortune $v | Tax $u``: the
  jackpot, bingo, fortune and tax fees, like the rake, leave the pot to the house
  (the total_pot event's to_amount is their sum); older lines stop after any of them;
- 2017-2018 cash headers write two spaces before the stakes
  (``Poker Hand #RC2345481320: Hold'em No Limit  ($0.05/$0.1) - 2018/03/31 14:43:23``);
- Rush & Cash's ``Cash Drop to Pot : total $0.2`` before the blinds: money the house
  puts in the pot, a ``house_added`` event with no seat (as Run It Once's splash the pot);
- ``Bet & Muck``: a bet whose player mucks if called (``Ann: Bet & Muck $0.05``, a bet;
  ``Ann: Bet & Muck folds``, once called: his muck at the showdown);
- EV Cashout (``Ann: Chooses to EV Cashout``, ``Ann: Pays Cashout Risk ($19)``,
  ``Ann: Receives Cashout ($2.31)``; the summary's ``, Cashout Risk ($19)``) and
  all-in insurance (``Ann: get an all-in insurance (...)``, ``Ann: pay premium of
  all-in insurance ($4)``): money between a player all in and the house, outside the
  pot, which is awarded as played: ``equity_insurance`` events (docs/semantics.md,
  "Cash-outs").  Run-it-twice and three-times hands
  (``*** FIRST SHOWDOWN ***``, ``Hand was run three times``, ``SECOND Board [4d Qs]``)
  are read by the family, as for PokerStars: each run's cards and collects carry
  their run (``Event.run``).  Run twice after an all-in on the flop, GGPoker writes the
  flop as the first run's (``*** FIRST FLOP ***``, the betting, then ``*** FIRST TURN ***``
  and ``*** SECOND TURN ***``; the summary's ``SECOND Board [9d Td]``): a first run's street
  with no second run's is the board both runs share, read as the plain street.

>>> text = '''Poker Hand #TM1: Tournament #7, Demo $1 Hold'em No Limit - Level1(100/200) - 2021/04/04 16:06:27
... Table '89' 8-max Seat #1 is the button
... Seat 1: Ann (1,000 in chips)
... Seat 2: Bob (1,000 in chips)
... Ann: posts small blind 100
... Bob: posts big blind 200
... *** HOLE CARDS ***
... Dealt to Ann [9s 9h]
... Dealt to Bob
... Ann: raises 200 to 400
... Bob: folds
... Uncalled bet (200) returned to Ann
... *** SHOWDOWN ***
... Ann collected 400 from pot
... *** SUMMARY ***
... Total pot 400 | Rake 0 | Jackpot 0 | Bingo 0
... Seat 1: Ann (button) (small blind) won (400)
... Seat 2: Bob (big blind) folded before Flop'''
>>> [h] = GGPokerParser().iter_hands(((i, 0, t) for i, t in enumerate(text.splitlines(), 1)), "x.txt")
>>> h.hand_id, h.site, h.tournament_name, h.level, h.big_blind, len(h.events)
('GG-TM1', 'ggpoker', 'Demo $1', '1', 200, 10)
"""

from __future__ import annotations

import functools
import re
from dataclasses import replace

from auditor.schema import Betting, EventKind, Variant
from parsers.base import HandError, ParsedHand
from parsers.stars_family import StarsFamilyParser
from parsers.stars_site import GAMES, LIMITS, STAKES, game_pattern, stars_site

_GG_GAMES = {
    **GAMES,
    "plo": Variant.OMAHA.value,
    "plo-5": Variant.OMAHA5.value,
    "plo-6": Variant.OMAHA6.value,
    "omaha5": Variant.OMAHA5.value,  # 'PLO-5 Classic $10 Omaha5 Pot Limit - Level16(..)' (2026)
    "shortdeck": Variant.SIX_PLUS_HOLDEM.value,
}
_GG_LIMITS = {**LIMITS, "(nl postflop)": Betting.POT_LIMIT_PREFLOP.value}
_GAME = game_pattern(_GG_GAMES, limits=r"No Limit|Pot Limit|Fixed Limit|Limit|\(NL postflop\)", limit_optional=True)

# A player all in settles with the house beside the pot, which is awarded as played
# (equity_insurance events): the line he opts in on (no amount), what the house pays him
# (amount), what he pays the house (the 'fee' group: to_amount)
_HOUSE_SIDE_LINES = (
    ("Chooses to EV Cashout", r"$"),
    ("Receives Cashout ", r"\((?P<amount>[^()\s]+)\)$"),
    ("Pays Cashout Risk ", r"\((?P<fee>[^()\s]+)\)$"),
    ("get an all-in insurance ", r"\(.*\)$"),  # '(premium ($0/$4/$0) for ($0/$10.8/$0) - (Mandatory/Main/Sub))': a quote
    ("pay premium of all-in insurance ", r"\((?P<fee>[^()\s]+)\)$"),
)
_HOUSE_SIDE_STARTS = tuple(words for words, _ in _HOUSE_SIDE_LINES)
_HOUSE_SIDE = tuple((re.compile(rf"^(?P<player>.+): {re.escape(words)}{rest}"), EventKind.EQUITY_INSURANCE.value)
                    for words, rest in _HOUSE_SIDE_LINES)

GGPOKER = stars_site(
    "ggpoker", "GGPoker", "GG-", ("Poker Hand #",), r"Poker Hand #(?P<num>[A-Z]*\d+):",
    # the cash header's game: 2017-2018 hands write two spaces before the stakes
    # ("Hold'em No Limit  ($0.5/$1)"), as PokerStars' own Zoom headers did
    rf"(?P<name>.*?) ?{_GAME} *- Level(?P<level>\w+) ?", _GAME + " ?",
    # since about 2024 a table with an ante names it inside the blinds' brackets: tournaments
    # 'Level7(175/350(45))', cash '($0.02/$0.05($0.01))' (the posts are the record of it)
    ante_in_brackets=True,
    games=_GG_GAMES,
    limits=_GG_LIMITS,
    game_betting={"plo": Betting.POT_LIMIT.value, "plo-5": Betting.POT_LIMIT.value, "plo-6": Betting.POT_LIMIT.value},
    stakes=(STAKES, re.compile(r"^(?P<ante>[^/ ]+)$")),  # 'ShortDeck No Limit ($100)': the ante
    total_pot=re.compile(
        r"^Total pot (?P<total>\S+)(?P<pots>.*?)(?: \| Rake (?P<rake>\S+))?"
        r"(?: \| Jackpot (?P<fee_jackpot>\S+))?(?: \| Bingo (?P<fee_bingo>\S+))?"
        r"(?: \| Fortune (?P<fee_fortune>\S+))?(?: \| Tax (?P<fee_tax>\S+))?$"
    ),
    markers={"*** SHOWDOWN ***": "showdown"},
    bare_dealt=True,
    bare_posts=("straddle ",),
    straddle_to=True,
    extra_posts={"missed blind ": "small_blind"},  # a missed small blind, posted dead out of its turn
    # EV Cashout and all-in insurance: money between the player and the house, outside the pot
    # (line_events below read them, not the actions)
    not_actions=_HOUSE_SIDE_STARTS,
    # 'Bet & Muck': a bet whose player gives his hand up if called ('Ann: Bet & Muck $0.05',
    # then, called, 'Ann: Bet & Muck folds': he mucks at the showdown, the summary's 'folded')
    action_aliases=(
        ("Bet & Muck ", re.compile(r"^Bet & Muck (?=\S+$)(?!folds$)"), "bets "),
        ("Bet & Muck folds", re.compile(r"^Bet & Muck folds$"), "mucks hand"),
    ),
    # money the house drops into the pot before the deal (Rush & Cash), no player's
    line_events=((re.compile(r"^Cash Drop to Pot : total (?P<amount>\S+)$"), "house_added"), *_HOUSE_SIDE),
)


class GGPokerParser(StarsFamilyParser):
    """Reads GGPoker text histories (see the module docstring)."""

    def __init__(self) -> None:
        super().__init__(GGPOKER)

    def _hand(self, buf: list[tuple[int, int, str]], cut_by: int | None) -> ParsedHand | HandError:
        # one hand's lines (the family's reader hands them here): a second reading needs them
        item = super()._hand(buf, cut_by)
        if isinstance(item, HandError) and item.reason_code == "run-it-twice":
            shared = _shared_streets(buf)
            if shared:
                again = _shared_streets_parser(tuple(shared.items()))._hand(buf, cut_by)
                if isinstance(again, ParsedHand):
                    return again
        return item


@functools.cache
def _shared_streets_parser(shared: tuple[tuple[str, str], ...]) -> StarsFamilyParser:
    """GGPoker read with the first run's street markers ``shared`` as the plain ones: one
    parser (and one set of the site's tables) for each such set of markers, not one a hand."""
    return StarsFamilyParser(replace(GGPOKER, marker_aliases=dict(shared)))


# A hand run twice once a player is all in on the flop or turn: GGPoker writes the street
# the betting went on as the first run's ('*** FIRST FLOP *** [9h 7c 9c]', bets, then
# '*** FIRST TURN ***', '*** SECOND TURN *** [9h 7c 9c] [9d]', the summary's 'SECOND Board
# [9d Td]'): a first run's street with no second run's, before the street where the second
# run begins, is the board both runs share.  A hand with no second run at all is no board
# run twice: it stays rejected
_FIRST_STREETS = ("FLOP", "TURN", "RIVER")


def _shared_streets(buf: list[tuple[int, int, str]]) -> dict[str, str]:
    """The first run's street markers a hand writes with no second run's, before its second
    run's first street (see above), each to the plain marker; {} where there is none."""
    texts = [t for _, _, t in buf]

    def written(marker: str) -> bool:
        return any(t.startswith(marker) for t in texts)

    seconds = [i for i, street in enumerate(_FIRST_STREETS) if written(f"*** SECOND {street} ***")]
    if not seconds:
        return {}
    return {f"*** FIRST {street} ***": f"*** {street} ***" for street in _FIRST_STREETS[:seconds[0]]
            if written(f"*** FIRST {street} ***")}
