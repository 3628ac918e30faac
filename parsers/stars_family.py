"""The PokerStars family: text hand histories written in PokerStars' shape.

PokerStars, GGPoker, Run It Once Poker and the 2016 Full Tilt client (and, on
this base, any other room that copied the shape) write a hand as: a header line
naming the hand, the game and the stakes; a table line; one line a seat;
``<player>: <action>`` lines between ``*** STREET ***`` markers; a
``*** SUMMARY ***`` with ``Total pot ...`` and one line a seat.  What differs
from site to site is a handful of line patterns and words: those are one
:class:`StarsSite` per site (its module, e.g. ``parsers/ggpoker.py``, holds only
that); :class:`StarsFamilyParser` reads every site from its description.

The parser streams ``(line_no, byte_offset, text)`` tuples, cuts them into
hands at each header line and turns each hand into a
:class:`~parsers.base.ParsedHand` whose events are the recorded lines, in order,
verbatim.  A hand it does not fully understand is a
:class:`~parsers.base.HandError` naming the line; it never repairs or guesses.

Only one hand's lines are held at a time.  Lines are dispatched on cheap
prefix / keyword tests; the few regexes are precompiled.

>>> to_units('$1,492.66', 100), to_units('1,500', 1), to_units('€0.5', 100), to_units('$60.00', 1)
(149266, 1500, 50, 60)
"""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass, field
from types import SimpleNamespace
from typing import Any, Final, Iterator

from auditor.schema import Betting, EventKind, Street, Variant

try:  # present where mypyc compiles this module (setup.py); a no-op elsewhere
    from mypy_extensions import mypyc_attr
except ImportError:  # pragma: no cover - pure-Python installs

    def mypyc_attr(*attrs: str, **kwattrs: object) -> Any:  # type: ignore[misc]
        return lambda cls: cls

from parsers.base import (MAX_DECIMALS, NOT_TEXT, Event, HandError, ParsedHand, Seat, content_hash, content_hash_stood_in,
                          has_unread, junk_after, unread_event, unread_lines)
from parsers.base import Reject as _Reject
from parsers.base import Rescale as _Rescale

# plain str values: events and hands carry strings, not enum members
K = SimpleNamespace(**{k.name: k.value for k in EventKind})
S = SimpleNamespace(**{k.name: k.value for k in Street})

# --- what the family shares: games, limits, the header's game and stakes ------------

GAMES: dict[str, str] = {
    "hold'em": Variant.HOLDEM.value,
    "6+ hold'em": Variant.SIX_PLUS_HOLDEM.value,
    "omaha": Variant.OMAHA.value,
    "omaha hi/lo": Variant.OMAHA_HILO.value,
    "5 card omaha": Variant.OMAHA5.value,
    "5 card omaha hi/lo": Variant.OMAHA5_HILO.value,
    "6 card omaha": Variant.OMAHA6.value,
    "courchevel": Variant.COURCHEVEL.value,
    "courchevel hi/lo": Variant.COURCHEVEL_HILO.value,
    "7 card stud": Variant.STUD.value,
    "7 card stud hi/lo": Variant.STUD_HILO.value,
    "razz": Variant.RAZZ.value,
    "single draw 2-7 lowball": Variant.DRAW_2_7_SINGLE.value,
    "triple draw 2-7 lowball": Variant.DRAW_2_7_TRIPLE.value,
    "triple draw a-5 lowball": Variant.DRAW_A_5_TRIPLE.value,
    "5 card draw": Variant.DRAW_5_CARD.value,
    "badugi": Variant.BADUGI.value,
}
LIMITS: dict[str, str] = {
    "no limit": Betting.NO_LIMIT.value,
    "pot limit": Betting.POT_LIMIT.value,
    "limit": Betting.FIXED_LIMIT.value,
    "fixed limit": Betting.FIXED_LIMIT.value,
    # pot-limit rules before the flop, no-limit after (PokerStars' 'PLNL' tournaments)
    "pot limit pre-flop, no limit post-flop": Betting.POT_LIMIT_PREFLOP.value,
}
LIMIT_ALT = r"Pot Limit Pre-Flop, No Limit Post-Flop|No Limit|Pot Limit|Fixed Limit|Limit"
# mixed-game names written around the game: '8-Game (Razz Limit)', 'Mixed Omaha (Omaha Pot Limit)'
MIXED_ALT = r"\d+-Game|HORSE|HOSE|Triple Stud|Mixed [A-Za-z'/ ]+?"


def game_pattern(games: dict[str, str], unsupported: tuple[str, ...] = (), limits: str = LIMIT_ALT,
                 limit_optional: bool = False) -> str:
    """The header's game as a regex: named groups ``mixed``, ``base`` and ``limit``."""
    alt = "|".join(re.escape(g) for g in sorted(list(games) + list(unsupported), key=len, reverse=True))
    limit = rf"(?: (?P<limit>{limits}))?" if limit_optional else rf" (?P<limit>{limits})"
    return rf"(?:(?P<mixed>{MIXED_ALT}) \()?(?P<base>{alt}){limit}"


STAKES = re.compile(r"^(?P<sb>[^/ ]+)/(?P<bb>[^/ ]+)(?: (?P<cur>[A-Z]{3}))?$")
DATE = re.compile(r"(\d{4})/(\d{1,2})/(\d{1,2})(?: -)? (\d{1,2}):(\d{2})(?::(\d{2}))?")
CURRENCY_SYMBOLS = {"$": "USD", "€": "EUR", "£": "GBP", "₹": "INR", "¥": "CNY"}
_SIGNS = frozenset(CURRENCY_SYMBOLS)  # what to_units strips before an amount


def amount_units(text: str, scale: int) -> int:
    """``to_units(text, scale)``, with the shapes most amounts take read without its
    call: a currency sign before (``'$0.02'``), thousands' commas (``'1,500'``), cents
    written with both decimals (``'2.50'``); anything else, and every error, is
    to_units' own.

    >>> amount_units("$1,250.50", 100), amount_units("1,500", 1), amount_units("0.5", 100)
    (125050, 1500, 50)
    """
    bare = text[1:] if text[:1] in _SIGNS else text
    if "," in bare:
        bare = bare.replace(",", "")
    if bare.isdigit():
        return int(bare) * scale
    if scale == 100:
        whole, _, cents = bare.partition(".")
        if len(cents) == 2 and whole.isdigit() and cents.isdigit():
            return int(whole) * 100 + int(cents)
    return to_units(text, scale)
SEAT = re.compile(r"^Seat (?P<seat>\d+): (?P<name>.+) \((?P<stack>\S+) in chips(?:, (?P<bounty>[^()]+ bounty))?\)(?P<tail>.*)$")
# groups: 1 player, 2 amount, 3 the pot as written, 4 the half of a hi/lo pot
COLLECT = re.compile(r"^(.+) collected (\S+) from (pot|main pot|side pot(?:-\d+)?)(?: \((hi|lo|high|low)\))?$")
# one pot of the total pot line (' Main pot 100.'): 1 the pot as written, 2 its amount
POT_CLAIM = re.compile(r" (Main pot|Side pot(?:-\d+)?) (\S+?)\.(?= |$)")
TOTAL_POT = re.compile(r"^Total pot (?P<total>\S+)(?P<pots>.*?) \| Rake (?P<rake>\S+)$")

# lines that record nothing for the log (chat, connection, table moves, notices)
IGNORED_SUFFIXES = (
    " is connected",
    " is disconnected",
    " has timed out",
    " has timed out while disconnected",
    " has timed out while being disconnected",
    " has returned",
    " is sitting out",
    " leaves the table",
    " will be allowed to play after the button",
    " was removed from the table for failing to post",
    " sits out",
)
IGNORED_EXACT = frozenset(
    {"Betting is capped", "No low hand qualified", "The deck is reshuffled", "Pair on board - a double bet is allowed"}
)
IGNORED_INFIX = (" joins the table at seat #", " for eliminating ", " for splitting the elimination of ")


# StarsSite.raise_amounts: how a raise line gives its amounts
RAISE_BY = "by"  # 'raises <by> to <to>' (PokerStars)
RAISE_ADDED = "added"  # 'raises <chips added> to <to>' (WPN)
RAISE_TO_ADDED = "to-added"  # 'raises <x> to <chips put in by the action>' (Run It Once)
RAISE_TO = "to"  # 'raises to <to>' (classic Full Tilt)


@dataclass(frozen=True)
class StarsSite:
    """What one Stars-shaped format writes its own way.  Every other line is read
    as PokerStars writes it.

    Regex groups the family reads: ``header``: ``num``, ``rest`` (and ``club``, ``rest_end``);
    ``tourney``: ``tid``, ``buyin``, ``mixed``, ``base``, ``limit``, ``level``,
    ``sb``, ``bb``, ``date``; ``cash``: ``mixed``, ``base``, ``limit``,
    ``stakes``, ``date``; ``stakes`` (each tried in turn): ``sb``, ``bb``,
    ``ante``, ``cur``; ``table``: ``name``, ``max``, ``btn``; ``total_pot``:
    ``total``, ``pots``, ``rake`` and any ``fee_*`` (jackpot and other house
    fees, added to the rake: the chips that leave the pot to the house).
    """

    name: str  # the parser's name and hands.format
    label: str  # how messages name the format: 'PokerStars'
    id_prefix: str  # hand_id = prefix + the header's hand number
    header_prefixes: tuple[str, ...]  # a header line starts with one of these (a cheap test first)
    header_start: re.Pattern[str]  # matched at a line's start: a hand begins
    hand_start: re.Pattern[bytes]  # the same in raw bytes (multi-line): where a big file is cut into chunks
    header: re.Pattern[str]
    tourney: re.Pattern[str]
    cash: re.Pattern[str]
    # a header glued to the end of a cut-off line; found only in lines holding `glued_key`
    header_anywhere: re.Pattern[str] | None = None
    glued_key: str = ""
    tourney_starts: tuple[str, ...] = ("tournament",)  # the header's rest, lower-cased, starts so for a tournament
    games: dict[str, str] = field(default_factory=lambda: GAMES)
    unsupported_games: tuple[str, ...] = ()  # dealt by the site, no variant in the schema: rejected by name
    limits: dict[str, str] = field(default_factory=lambda: LIMITS)
    game_betting: dict[str, str] = field(default_factory=dict)  # a game whose name alone says its betting ('plo')
    stakes: tuple[re.Pattern[str], ...] = (STAKES,)
    table_prefix: str = "Table '"
    table: re.Pattern[str] = re.compile(
        r"^Table '(?P<name>.*)'(?: (?P<max>\d+)-max)?(?: \((?:Play|Real) Money\))?(?: Seat #(?P<btn>\d+) is the button)?$"
    )
    seat: re.Pattern[str] = SEAT
    total_pot: re.Pattern[str] = TOTAL_POT
    markers: dict[str, str] = field(default_factory=dict)  # street markers of its own: '*** SHOWDOWN ***'
    bare_dealt: bool = False  # 'Dealt to <player>' without cards (GGPoker: a line for every player)
    ignored_actions: tuple[str, ...] = ()  # '<player>: <words>' lines that record nothing for the log
    # starts of lines no player starts that record nothing for the log, whatever else they hold
    # (tested before the family's other lines of no player)
    ignored_lines: tuple[str, ...] = ()
    summary_ignored: tuple[str, ...] = ()  # summary line starts that repeat what the body recorded
    bare_posts: tuple[str, ...] = ()  # posts written without 'posts ': GGPoker's 'Ann: straddle $2'
    straddle_to: bool = False  # a straddle's amount is the player's total so far (GGPoker re-straddles)
    # how a raise line gives its amounts (RAISE_BY, the default, is PokerStars' 'raises <by> to <to>'):
    #   RAISE_ADDED     'raises <added> to <to>': the first is the chips the player adds (WPN: 'Ann
    #                   posts the small blind $10', 'Ann raises $30 to $40'); it must reach the total
    #   RAISE_TO_ADDED  'raises <x> to <y>': y leaves out the player's own earlier bets on the street,
    #                   though not his blind (Run It Once)
    #   RAISE_TO        'raises to <to>' (classic Full Tilt): the increment is over the bet faced
    raise_amounts: str = RAISE_BY
    # (text in a line, reason code, why): a line the log cannot record rejects its hand
    rejected_lines: tuple[tuple[str, str, str], ...] = ()
    # lines of the site's own shape that are one event each: (pattern with the groups
    # 'player' (none: a table event, no seat's) and, where they apply, 'amount' and 'cards'; the event kind)
    line_events: tuple[tuple[re.Pattern[str], str], ...] = ()
    extra_posts: dict[str, str] = field(default_factory=dict)  # 'missed blind ' -> small_blind (dead when out of turn)
    collect: re.Pattern[str] = COLLECT
    pot_claim: re.Pattern[str] = POT_CLAIM
    main_pot_words: tuple[str, ...] = ("main pot",)  # how a collect line names the main pot ('pot' too, at some sites)
    house_pot_words: tuple[str, ...] = ()  # how the summary's pot list names money the house added (pot_label 'house')
    site: str = ""  # hands.site when several formats come from one site ('' : the name)
    won: re.Pattern[str] = re.compile(r"(?:won|collected) \(([^)]+)\)")  # a summary seat line's award
    # between a player's name and the action: ': ' ('Ann: folds', names may hold ': '), or
    # ' ' (Winamax, WPN, classic Full Tilt: 'Ann folds'), where the actor is the longest
    # seated name that starts the line followed by the separator
    actor_sep: str = ": "
    amount_suffix: str = ""  # a currency written after amounts ('2.50€'): stripped, and it names the currency
    suffix_currency: str = ""  # the currency that suffix names
    # a currency sign beyond ASCII written before amounts ('€0.05': Run It Once): its lines are
    # read with SUFFIX_STAND_IN in its place, as a suffix's are (the sign names the currency)
    amount_sign: str = ""
    # (first words, pattern, replacement) for actions the site words its own way, rewritten
    # into the family's words before they are read ('discard 2 cards' -> 'discards 2 cards',
    # 'antes 5' -> 'posts the ante 5'); events keep the raw line.  The pattern is tried on
    # actions starting with those words; every alias whose pattern matches applies, in order.
    action_aliases: tuple[tuple[str, re.Pattern[str], str], ...] = ()
    summary_lists_every_seat: bool = True  # False: the summary lists only some seats (a cut hand cannot be told)
    # 'Total pot' is what is left after the house's take (Winamax: 'Total pot 16.35€ | Rake 0.65€';
    # WPN: 'Total pot $199.00 | Rake $0.96 | JP Fee $0.04' when $200 went in): the
    # total_pot event adds the rake and fees back, so every site's total is what went in
    total_after_rake: bool = False
    rounded_amount: re.Pattern[str] | None = None  # a total written rounded ('15.52k'): no exact amount is stored
    # (first words, pattern on the action, reason code, why): an action the log cannot record rejects its hand
    rejected_actions: tuple[tuple[str, re.Pattern[str], str, str], ...] = ()
    implied_returns: bool = False  # no 'Uncalled bet' line: the return is inferred (infer_return)
    forced_marker: str = ""  # the marker of a section of forced bets only: a voluntary action there rejects the hand
    # found in the header's rest, wherever it stands, it makes the hand a tournament's
    # ('$5,000 GTD Tournament #27099516 - ...'); None: the rest starts with tourney_starts
    tourney_find: re.Pattern[str] | None = None
    # what the checks must know of the format that its hands do not say (parsers.format_facts):
    # its showdown lines are the site's listing of the hands it tabled, in the site's order,
    # not an order in which players chose to show (Winamax)
    showdown_listed_by_site: bool = False
    # a player's re-buys and add-ons are written, and read: a busted player back with chips
    # and no re-buy line is chips appearing, not a re-buy the format leaves out
    records_rebuys: bool = False
    # further header patterns tried in turn (a site whose header puts the game and the
    # stakes in either order): the same groups as tourney and cash
    tourney_more: tuple[re.Pattern[str], ...] = ()
    cash_more: tuple[re.Pattern[str], ...] = ()
    # the header's date (groups y, mo, d, h, mi and optional s); None: PokerStars' order
    date_pattern: re.Pattern[str] | None = None
    # no table line: the table's name and size are the header's groups 'table' and 'max',
    # the button is the line button_line (group 'btn') among the actions
    table_line: bool = True
    button_line: re.Pattern[str] | None = None
    all_in_suffixes: tuple[str, ...] = (" and is all-in",)
    action_suffixes_ignored: tuple[str, ...] = ()  # ' and is capped': the limit's cap, nothing to record
    ignored_action_pattern: re.Pattern[str] | None = None  # actions that record nothing ('shows a pair of Tens')
    # the pattern is tried only on actions that start so ('': on every action; a cheap test first)
    ignored_action_starts: tuple[str, ...] = ("",)
    chat_lines: bool = False  # '<seated player>: text' and '<name> (Observer): text' are chat
    # '<name> <words>' lines, written without a colon, that are no action ('Ann adds $5')
    not_actions: tuple[str, ...] = ()
    # a collect line holds it ('Ann wins the pot (600)' at Full Tilt); where actions have
    # no colon, a line holding it is read as a collect (StarsSite.collect) before as an action
    collect_word: str = " collected "
    # the first words, after a seated player's name, of other collect lines the collect pattern
    # reads too ('ties for ': Full Tilt's share of a split pot, 'Ann ties for the pot (240) ...')
    collect_also: tuple[str, ...] = ()
    uncalled: re.Pattern[str] | None = None  # the uncalled-bet line: groups 1 amount, 2 player
    # chips a player adds to his stack between hands ('Ann adds $5'; groups player, amount):
    # a rebuy event (street 'summary', as PokerStars' re-buys)
    topup: re.Pattern[str] | None = None
    # other lines that record nothing ('Ann deny BB 0€' at Winamax: a player declining
    # to post, at times with no seat line; 'Ann sits down' at Full Tilt)
    ignored_line_pattern: re.Pattern[str] | None = None
    marker_aliases: dict[str, str] = field(default_factory=dict)  # '*** FLOPET ***' -> '*** PRE-FLOP ***'
    # run it twice written with the run after the street ('*** TURN 2 ***', '*** SHOW DOWN 1 ***',
    # '*** SUMMARY 2 ***': Full Tilt); groups street and run.  PokerStars' '*** SECOND TURN ***' is read always
    run_markers: re.Pattern[str] | None = None
    # blank lines inside a hand (UTF-16 exports put one after every line), and lines
    # between the header and the seats that record nothing ('Seats: 9'), are skipped
    blank_lines: bool = False
    # a hand whose body has no collect line (Full Tilt's and WPN's walks): the summary
    # seat lines' awards are its collects (the same line: 'collected (30)', 'won $0.07')
    summary_collects: bool = False
    # '<player> mucks' by the one player left (everyone else folded) is no showdown's muck:
    # a no_show, as PokerStars' "doesn't show hand" (Full Tilt writes 'mucks' for both)
    uncontested_muck_is_no_show: bool = False
    thousands_k: bool = False  # header stakes may be written in thousands: '50K/100K'
    before_seats_ignored: tuple[str, ...] = ()
    # a hand with no seat line, by how the line after its header starts ('' : any): the reason
    # code and why ((start, code, why), the first that fits; none fits: a parse error)
    no_seats: tuple[tuple[str, str, str], ...] = ()
    # a summary seat line written on from another's start with no line end between them: the
    # group 'line' is the seat line read (the one before it names no result)
    summary_glued: re.Pattern[str] | None = None
    # a summary's words that a seat folded, and the street ('folded before the Flop': preflop): the
    # fold the body leaves out, inferred (_HandReader.summary_fold)
    summary_folds: dict[str, str] = field(default_factory=dict)
    # line starts ignored before the first '*** ' marker (WPN deals one card a seat to
    # draw for the button, before the antes: not the hand's cards)
    predeal_ignored: tuple[str, ...] = ()
    # seat line endings of a player at the table but not dealt in, written with no stack (WPN:
    # 'Seat 6: Fay will be allowed to play after the button'): nothing is recorded for them
    seat_not_in_hand: tuple[str, ...] = ()
    # the hand number stands inside the header's game text (Winamax: '... level: 11 - HandId:
    # #1-2-3 - Holdem no limit ...'): ``header``'s group ``rest_end``, the text after it, is read
    # as one with ``rest``, so that the text before the date repeats from hand to hand
    # (``_SiteTables.tourney_match`` keeps its match)
    header_rest_end: bool = False

# --- body --------------------------------------------------------------------------


_STUD = frozenset({Variant.STUD, Variant.STUD_HILO, Variant.RAZZ})
_SINGLE_DRAW = frozenset({Variant.DRAW_2_7_SINGLE, Variant.DRAW_5_CARD})
_TRIPLE_DRAW = frozenset({Variant.DRAW_2_7_TRIPLE, Variant.DRAW_A_5_TRIPLE, Variant.BADUGI})
_DRAW = _SINGLE_DRAW | _TRIPLE_DRAW
_ALL_IN = " and is all-in"
_UNCALLED = re.compile(r"^Uncalled bet \(([^)]+)\) returned to (.+)$")
_FINISH = re.compile(r"^(.+) finished the tournament in (\d+)(?:st|nd|rd|th) place(?: and received .*)?$")
_WINS_TOURNEY = re.compile(r"^(.+) wins the tournament(?: and receives .*)?$")
_RAISE = re.compile(r"^raises (\S+) to (\S+)$")
_RAISE_TO = re.compile(r"^raises to (\S+)$")
_DISCARD = re.compile(r"^discards (\d+) cards?(?: \[([^\]]*)\])?$")
_STREET_COUNT = re.compile(r"\*\*\* (\d)(?:st|nd|rd|th) STREET \*\*\*")

# chips bought during the event: 'Player7 re-buys and receives 600 chips for 2 FPPs',
# 'Hero takes the add-on and receives 3000 chips for $10.00'
_REBUY = re.compile(r"^(.+) (re-buys|takes the add-on) and receives (\S+) chips(?: for .*)?$")

_BOARD_STREETS = {
    "*** FLOP ***": S.FLOP,
    "*** TURN ***": S.TURN,
    "*** RIVER ***": S.RIVER,
    "*** PRE-FLOP ***": S.PREFLOP,  # Courchevel: one board card before the flop
}
_STUD_STREETS = {"3": S.THIRD, "4": S.FOURTH, "5": S.FIFTH, "6": S.SIXTH, "7": S.SEVENTH}
_DRAW_STREETS = {"*** FIRST DRAW ***": S.FIRST_DRAW, "*** SECOND DRAW ***": S.SECOND_DRAW, "*** THIRD DRAW ***": S.THIRD_DRAW}
# what a player posts ('Ann: posts small blind 10'), by the words before the amount
_POSTS = {
    "the ante ": K.ANTE,
    "small blind ": K.SMALL_BLIND,
    "big blind ": K.BIG_BLIND,
    "small & big blinds ": K.DEAD_BLIND,
    "button blind ": K.BIG_BLIND,  # 6+ hold'em: the one blind, posted by the button
    "straddle ": K.STRADDLE,
}
# run-it-twice boards: '*** FIRST FLOP ***', '*** SECOND RIVER ***', '*** FIRST SHOW DOWN ***', ...
# chips put in on a street (the ante is not a commitment of the street)
_STREET_CHIPS = frozenset({K.SMALL_BLIND, K.BIG_BLIND, K.STRADDLE, K.DEAD_BLIND, K.BRING_IN, K.CALL, K.BET, K.RAISE,
                           K.COMPLETE})


def cut_where(cut_by: int | None) -> str:
    """What cut a hand's record: the next hand's start at line ``cut_by``, or the file's end."""
    return f"the next hand starts at line {cut_by}" if cut_by else "the file ends"


def cut_short(stop: int, cut_by: int | None) -> str:
    """``hands.record_cut`` of a hand whose record stops after line ``stop`` with no
    summary: cut by the next hand's start at ``cut_by``, or by the file's end (None).

    >>> cut_short(12, None)
    'the rest of the hand after line 12, its summary and its results (the file ends)'
    """
    return f"the rest of the hand after line {stop}, its summary and its results ({cut_where(cut_by)})"


def cut_in_line(no: int, text: str, cut: str) -> str:
    """``cut`` when the record stops inside line ``no`` (``text``, the next hand's
    header already taken off): that line is not read."""
    return f"line {no} as a whole ({text.strip()!r}: the record stops in it, unreadable), {cut}"


# kinds a loop over a hand's events compares with: K's attributes are looked up on every
# use, compiled too (a dict and an attribute lookup an event)
_COLLECT: str = EventKind.COLLECT.value
_SEAT_RESULT: str = EventKind.SEAT_RESULT.value


def _has_collect(events: list[Event]) -> bool:
    """Is there a collect (scanned from the end, where they are; a loop, not a generator)?"""
    collect = _COLLECT
    for e in reversed(events):
        if e.kind == collect:
            return True
    return False


def _highest(committed: dict[int, int]) -> int:
    """The most chips a seat has in on the street (0: none), as ``max(committed.values(), default=0)``
    (a loop: compiled, max() with a default is a generic call)."""
    top = 0
    found = False
    for chips in committed.values():
        if not found or chips > top:
            top, found = chips, True
    return top


def _holds_any(text: str, parts: tuple[str, ...]) -> bool:
    """Does ``text`` hold one of ``parts``?  (A loop: a generator in ``any`` is an object
    made for each line that reaches the test, compiled too.)"""
    for part in parts:
        if part in text:
            return True
    return False


def _pot_height(e: Event) -> int:
    """A collect's pot, bottom up: the main pot 0, side pot N at N."""
    label = e.pot_label or ""
    return int(label[5:]) if label.startswith("side-") and label[5:].isdigit() else 1 if label == "side" else 0


# run it twice (or three times): '*** FIRST FLOP ***', '*** SECOND RIVER ***', '*** FIRST SHOW DOWN ***'
# (GGPoker: '*** FIRST SHOWDOWN ***'); the word is the run, the rest the street marker
_RUN_TWICE = re.compile(r"^\*\*\* (FIRST|SECOND|THIRD) ((?:FLOP|TURN|RIVER|SHOW ?DOWN) \*\*\*)")
_RUN_NUMBER = {"FIRST": 1, "SECOND": 2, "THIRD": 3}
# the summary's account of the runs: 'Hand was run twice' (GGPoker: 'run two times', 'run three
# times'), then each run's board: 'FIRST Board [..]' (GGPoker's ShortDeck: 'FIRST' alone, then 'Board [..]')
_RUN_COUNT = {"Hand was run twice": 2, "Hand was run two times": 2, "Hand was run three times": 3}
_RUN_BOARD_LINES = ("FIRST Board [", "SECOND Board [", "THIRD Board [")
_RUN_POT_LINE = re.compile(r"^Pot [123] \S+$")  # Full Tilt's summary of a run: 'Pot 2 $1,859'
_RUN_WORD_LINES = frozenset(_RUN_NUMBER)
# what a run-it-twice hand may record once its runs have begun: the runs' cards and their settlement
_NOT_TAKING_PART = frozenset({K.DEAL_HOLE, K.SHOW, K.MUCK, K.NO_SHOW})  # cards dealt or shown: no part in the betting
_RUN_KINDS = frozenset({K.DEAL_BOARD, K.SHOW, K.MUCK, K.NO_SHOW, K.COLLECT, K.UNCALLED_RETURN, K.FINISH, K.HOUSE_ADDED})


def hand_headers(prefixes: tuple[str, ...], marker: str, flags: int = 0) -> dict[str, Any]:
    """A site's header fields for :class:`StarsSite`, from the words a header starts with
    and ``marker``: a regex for the header up to its colon with the group ``num``.

    >>> h = hand_headers(("Poker Hand #",), r"Poker Hand #(?P<num>[A-Z]*\\d+):")
    >>> h["header"].match("Poker Hand #TM12: Hold'em No Limit ($1/$2) - 2021/04/04 16:06:27").group("num", "rest")
    ('TM12', "Hold'em No Limit ($1/$2) - 2021/04/04 16:06:27")
    >>> bool(h["hand_start"].search(b"x\\nPoker Hand #TM12: Hold'em"))
    True
    """
    plain = re.sub(r"\(\?P<\w+>", "(?:", marker)  # the marker without its group, to find, not read
    return {
        "header_prefixes": prefixes,
        "header_start": re.compile(plain, flags),
        "hand_start": re.compile(b"^" + plain.encode(), re.M | flags),
        "header": re.compile(rf"^{marker} +(?P<rest>.*)$", flags),
        "header_anywhere": re.compile(plain + " "),
        "glued_key": prefixes[0],
    }


def tourney_header(middle: str) -> re.Pattern[str]:
    """A tournament header after the hand number: 'Tournament #<tid>, ' + ``middle``
    (the site's buy-in, name, game and level) + ' (<sb>/<bb>) - <date>'."""
    return re.compile(
        rf"^Tournament #(?P<tid>\d+), {middle}\((?P<sb>[^/()]+)/(?P<bb>[^/()]+)\) - (?P<date>.+)$", re.IGNORECASE
    )


def cash_header(game: str) -> re.Pattern[str]:
    """The most common cash header after the hand number: '<game> (<stakes>) - <date>'."""
    return re.compile(rf"^{game} \((?P<stakes>[^()]*)\) - (?P<date>.+)$", re.IGNORECASE)


GAME = game_pattern(GAMES)  # the games and limits as PokerStars names them


def stars_site(name: str, label: str, id_prefix: str, prefixes: tuple[str, ...], marker: str, tourney: str,
               game: str = GAME, **fields: Any) -> StarsSite:
    """A site whose header reads '<marker> Tournament #<tid>, <tourney> (<sb>/<bb>) - <date>'
    or '<marker> <game> (<stakes>) - <date>' (see :func:`hand_headers`, :func:`tourney_header`,
    :func:`cash_header`); ``fields``: the rest of its :class:`StarsSite`."""
    return StarsSite(name=name, label=label, id_prefix=id_prefix, **hand_headers(prefixes, marker),
                     tourney=tourney_header(tourney), cash=cash_header(game), **fields)


def to_units(text: str, scale: int) -> int:
    """An amount as written ('$1,492.66', '€0.05', '1,500', '2') in stored units.

    Integer arithmetic only: no float ever touches an amount.

    >>> to_units('$1,492.66', 100), to_units('1,500', 1), to_units('€0.5', 100), to_units('$60.00', 1)
    (149266, 1500, 50, 60)
    """
    if text.isdigit():  # the common case: tournament chips
        return int(text) * scale
    s = text.lstrip("$€£₹¥").replace(",", "")
    whole, _, frac = s.partition(".")
    if not whole.isdigit() and not (whole == "" and frac):
        raise ValueError(f"not an amount: {text!r}")
    if frac and not frac.isdigit():
        raise ValueError(f"not an amount: {text!r}")
    frac = frac.rstrip("0")
    digits = len(str(scale)) - 1
    if len(frac) > digits:
        raise _Rescale(len(frac))
    return int(whole or 0) * scale + (int(frac) * 10 ** (digits - len(frac)) if frac else 0)


# a header's stake written with a magnitude after it ('50K'; '2B' in Full Tilt's Flipout of 2014)
_MAGNITUDES: Final = {"K": 1000, "M": 1000_000, "B": 1000_000_000}


def _thousands(text: str | None) -> str | None:
    """A header's stake written in thousands ('50K'), millions or billions in units ('50000');
    others as written.  (A function, not a generator over the two stakes: compiled, a generator
    is an object a header.)"""
    if not text:
        return text
    times = _MAGNITUDES.get(text[-1])
    return str(to_units(text[:-1], 1) * times) if times is not None else text


def _cards(text: str) -> str | None:
    """The last bracket group of a line ('[Ah Kd] [7c]' -> '7c')."""
    i = text.rfind("[")
    j = text.rfind("]")
    if i < 0 or j < i:
        return None
    return text[i + 1 : j]


def _side_label(pot: str) -> str:
    """A side pot's label: 'side pot' -> 'side'; 'side pot-2', 'Side pot 2' -> 'side-2'."""
    number = pot[8:].lstrip("- ")
    return f"side-{number}" if number else "side"


def _parse_date(text: str, pattern: re.Pattern[str] | None = None, groups: tuple[int, ...] = ()) -> dt.datetime | None:
    """``groups``: where the pattern's groups y, mo, d, h, mi, s are in its ``groups()``
    (``_SiteTables.date_groups``; each name is a look-up a call)."""
    m = (pattern or DATE).search(text)
    if not m:
        return None
    if groups:
        found = m.groups()
        y, mo, d, h, mi, s = found[groups[0]], found[groups[1]], found[groups[2]], found[groups[3]], found[groups[4]], found[groups[5]]
    elif pattern is not None:
        y, mo, d, h, mi, s = m.group("y", "mo", "d", "h", "mi", "s")
    else:
        y, mo, d, h, mi, s = m.groups()
    return dt.datetime(int(y), int(mo), int(d), int(h), int(mi), int(s or 0))


# compiled, it stays a base for the sites' parser classes in modules that are not
@mypyc_attr(allow_interpreted_subclasses=True)
class StarsFamilyParser:
    """Reads one Stars-shaped site's text histories, as its :class:`StarsSite` says."""

    def __init__(self, site: StarsSite) -> None:
        self.site = site
        self.name = site.name
        self.showdown_listed_by_site = site.showdown_listed_by_site
        self.records_rebuys = site.records_rebuys
        self.hand_start = site.hand_start  # lines where a hand begins: a big file is parsed in chunks split there
        # the lines after the hand _hand returned last that are no hand's (see _before_unread),
        # for iter_hands to yield after it
        self.unread: list[HandError] = []

    def detect(self, head: str, path: str) -> bool:
        """A hand header of this site starting a line in the first KiB of text."""
        prefixes, start = self.site.header_prefixes, self.site.header_start
        for line in head.lstrip("\ufeff").splitlines()[:200]:
            if line.startswith(prefixes) and start.match(line):
                return True
        return False

    def iter_hands(self, lines: Iterator[tuple[int, int, str]], path: str,
                   cut_by_end: int | None = None) -> Iterator[ParsedHand | HandError]:
        """``cut_by_end``: for a chunk of a file, the line where the next chunk's
        first hand starts (None: the chunk ends the file)."""
        site = self.site
        prefixes, start = site.header_prefixes, site.header_start
        glued_key, anywhere = site.glued_key, site.header_anywhere
        buf: list[tuple[int, int, str]] = []
        stray: tuple[int, int] | None = None  # non-blank lines before the first header
        for item in lines:
            text = item[2]
            if text.startswith(prefixes) and start.match(text):
                if buf:
                    yield self._hand(buf, cut_by=item[0])
                    if self.unread:
                        yield self.unread.pop()
                elif stray:
                    yield self._stray_error(stray)
                    stray = None
                buf = [item]
            elif anywhere is not None and glued_key in text and (m := anywhere.search(text)) and m.start() > 0:
                # a hand cut off mid-line with the next header glued to it: the cut hand
                # is truncated; the next hand starts at its header
                if buf:
                    buf.append(item)
                    yield self._hand(buf, cut_by=item[0])
                    if self.unread:
                        yield self.unread.pop()
                elif stray:
                    yield self._stray_error(stray)
                    stray = None
                line_no, offset, _ = item
                head = text[: m.start()]
                buf = [(line_no, offset + len(head.encode("utf-8")), text[m.start() :])]
            elif buf:
                buf.append(item)
            elif text.strip() and not (site.ignored_line_pattern and site.ignored_line_pattern.match(text)):
                stray = (stray[0], item[0]) if stray else (item[0], item[0])
        if buf:
            yield self._hand(buf, cut_by=cut_by_end)
            if self.unread:
                yield self.unread.pop()
        elif stray:
            yield self._stray_error(stray)

    # -- one hand ---------------------------------------------------------------------

    def _hand(self, buf: list[tuple[int, int, str]], cut_by: int | None) -> ParsedHand | HandError:
        blank = "\ufffd" if self.site.blank_lines else ""
        # trailing blank lines; for a UTF-16 export, also the replacement character of
        # an odd last byte after the last hand (nothing of the hand is lost with it)
        while len(buf) > 1 and not buf[-1][2].strip().strip(blank):
            buf.pop()
        first, reader = self._read(buf, cut_by)
        if isinstance(first, ParsedHand) or first.reason_code == "amount-out-of-range" or not hasattr(reader, "seated"):
            return first
        if first.reason_code == "parse-error" and (kept := self._before_unread(buf, cut_by, first.line_no)) is not None:
            return kept  # a whole hand, then lines that are no hand's (self.unread)
        if not reader.seated:
            if reader.cut is None:
                return first
            # a hand start with nothing after it (no seat line): no hand to store
            where = cut_where(cut_by)
            return HandError(buf[0][0], "truncated", f"hand at line {buf[0][0]} has no *** SUMMARY ***: {where} "
                             f"(line {buf[-1][0]} is its last), and no seat line before it", self._hand_id(buf))
        if reader.cut is None or first.line_no != buf[-1][0] or len(buf) < 2:
            return first  # a line that cannot be read before the last, or in a summary: as in any hand
        # A hand with no summary whose last line cannot be read: the record stops in that
        # line (cut off mid-line).  The lines before it are the record, and that line is
        # named as where it stops.
        second, _ = self._read(buf[:-1], cut_by, fragment=(buf[-1][0], buf[-1][2]))
        if isinstance(second, ParsedHand) and second.record_cut is not None:
            second.last_line = buf[-1][0]
            second.content_hash = content_hash("\n".join([t for _, _, t in buf]))
            return second
        return first

    def _before_unread(self, buf: list[tuple[int, int, str]], cut_by: int | None, line_no: int) -> ParsedHand | None:
        """The hand in ``buf`` before the lines from ``line_no`` on (the first its reading
        could not read), where those lines are none of a hand's: they hold a character no
        history writes (``parsers.base.NOT_TEXT``: bytes that did not decode, control
        characters, as binary junk appended to a file), and they come after the hand is whole, a blank line
        after it (where a site's hands hold none) or its summary listing every seat.  The hand
        is read again without them: whole (summary and all), it is returned and those lines
        are ``self.unread``, an ``unread-lines`` error that is no hand.  Else None: the hand
        is rejected as it was (a hand cut or garbled before its end stays so, whatever
        follows).  Only a hand that could not be read comes here."""
        site = self.site
        found = junk_after(buf, line_no, site.header_start)
        if found is None:
            return None
        k, end = found
        after_blank = not site.blank_lines and not buf[k - 1][2].strip()
        hand, reader = self._read(buf[:end], cut_by)
        if not isinstance(hand, ParsedHand) or hand.record_cut is not None:
            return None
        if not after_blank:
            listed = getattr(reader, "listed", None)  # (a site's own reader may not keep it: Bovada's)
            if not (site.summary_lists_every_seat and listed is not None and all(s.seat in listed for s in hand.seats)):
                return None
        self.unread.append(unread_lines(buf, k, hand))
        return hand

    def _read(self, buf: list[tuple[int, int, str]], cut_by: int | None,
              fragment: tuple[int, str] | None = None) -> tuple[ParsedHand | HandError, Any]:
        """One reading of a hand's lines, and the reader that made it."""
        read = self._read_once(buf, cut_by, fragment, True)
        if isinstance(read[1], _HandReader) and read[1].stood_in and (isinstance(read[0], HandError) or has_unread(read[0])):
            # a hand that cannot be read, or has lines not understood, is read again with its
            # lines as written (see SUFFIX_STAND_IN): what is wrong is found, and named, as always
            again = self._read_once(buf, cut_by, fragment, False)
            if isinstance(read[0], HandError) or isinstance(again[0], ParsedHand):
                return again
        return read

    def _read_once(self, buf: list[tuple[int, int, str]], cut_by: int | None,
                   fragment: tuple[int, str] | None, stand_in: bool) -> tuple[ParsedHand | HandError, Any]:
        try:
            scale = 0  # the header's: cents for money, units for chips
            while True:  # each re-read holds more decimals, up to what a 64-bit amount can
                reader = self.reader(buf, cut_by, scale)
                if fragment is not None:
                    reader.fragment = fragment
                if not stand_in and isinstance(reader, _HandReader):
                    reader.stand_in = False
                try:
                    return reader.read(), reader
                except _Rescale as r:
                    if r.digits > MAX_DECIMALS:
                        raise _Reject("amount-out-of-range", buf[0][0], f"hand at line {buf[0][0]}: an amount has "
                                      f"{r.digits} decimal places: more than {MAX_DECIMALS} cannot be stored exactly")
                    scale = 10**r.digits
        except _Reject as rejected:
            return HandError(rejected.line_no, rejected.code, rejected.reason, self._hand_id(buf)), reader
        except (ValueError, KeyError, IndexError, AttributeError, TypeError) as e:  # a line we misread
            no = reader.raw_no  # the line being read ('raises -6.10€ to 18.90€': not an amount)
            return HandError(no, "parse-error", f"hand at line {buf[0][0]}: line {no}: {e}", self._hand_id(buf)), reader

    def reader(self, buf: list[tuple[int, int, str]], cut_by: int | None, scale: int) -> Any:
        """The reader of one hand's lines: a site whose frame is Stars' but whose lines
        are not (Bovada) gives its own, with ``read()`` and ``raw_no``."""
        return _HandReader(self.site, buf, cut_by, scale)

    def _hand_id(self, buf: list[tuple[int, int, str]]) -> str | None:
        """The id of a hand that could not be read, if its header can be."""
        m = self.site.header.match(buf[0][2])
        return f"{self.site.id_prefix}{m.group('num')}" if m else None

    def _stray_error(self, stray: tuple[int, int]) -> HandError:
        return HandError(
            stray[0],
            "truncated",
            f"lines {stray[0]}-{stray[1]} come before any {self.site.label} hand header (a hand cut off at its start)",
        )


_K_COLLECT: Final[str] = K.COLLECT
_K_RAISE: Final[str] = K.RAISE
_K_COMPLETE: Final[str] = K.COMPLETE
_K_DEAD_BLIND: Final[str] = K.DEAD_BLIND
_K_TOTAL_POT: Final[str] = K.TOTAL_POT
_K_UNCALLED_RETURN: Final[str] = K.UNCALLED_RETURN


def infer_return(events: list[Event], hand: ParsedHand, last: dict[int, int] | None = None) -> None:
    """The uncalled part of the last street's biggest commitment, for a site that writes
    no 'Uncalled bet' line and counts those chips in its total pot and in the bettor's
    collect (Winamax; Bovada's walks).  Recorded as inferred (``inferred_from``: the lines
    of the last street's two biggest commitments and of the collect), on the collect line
    that holds the chips: an uncalled_return event, the collect less it (a collect of
    exactly those chips from a side pot is the return itself), the total pot less it (and
    its line).

    ``last``: the chips each seat put in on the last street chips went in on, in the order of
    each seat's first commitment there, as a reader that followed them has them (the family's:
    its committed chips, see ``_HandReader.left_commitments``); None: read here from the events."""
    # (compiled, a K.<kind> is a module dict lookup and an attribute lookup, and its
    # comparison a generic one: the kinds are Final constants (C statics), the events
    # walked in loops, not generators, and no call takes a key or *args: this runs for
    # every hand of a site)
    collect_kind = _K_COLLECT
    if last is None:
        last = _last_commitments(events, hand)
        if last is None:
            return
    if not last:
        raise ValueError("max() arg is an empty sequence")  # (as the max(...) this loop replaces)
    top = 0
    top_chips = 0
    found = False
    for seat, chips_in in last.items():  # the first of the biggest, as max gives
        if not found or chips_in > top_chips:
            top, top_chips, found = seat, chips_in, True
    second: int | None = None
    second_chips = 0
    for seat, chips_in in last.items():
        if seat != top and (second is None or chips_in > second_chips):
            second, second_chips = seat, chips_in
    uncalled = top_chips - second_chips
    if uncalled <= 0:
        return
    # the uncalled chips lie above every pot the bettor is in: in his collect from the
    # highest; the pots the others collect, and the total pot lines, in the same pass
    collects: list[Event] = []
    others_pots: list[str | None] = []
    totals: list[Event] = []
    total_kind = _K_TOTAL_POT
    for e in events:
        kind = e.kind
        if kind == collect_kind:
            if e.seat == top:
                collects.append(e)
            else:
                others_pots.append(e.pot_label)
        elif kind == total_kind:
            totals.append(e)
    if not collects:
        return  # no collect holds the chips: nothing is inferred, the checks see the record as written
    if len(collects) > 1:
        collects.sort(key=_pot_height)
    highest = collects[-1]
    shared = highest.pot_label in others_pots
    whole = highest if highest.pot_label not in ("pot", "main") and not shared and highest.amount == uncalled else None
    part = highest if (highest.amount or 0) > uncalled else None
    # what the inference rests on: the two biggest commitments and the collect holding the chips
    basis = _commitment_lines(events, top, second)
    # (inferred_from(*basis) without its *args call: the lines are ints)
    if whole is not None:
        whole.kind, whole.pot_label, whole.half = _K_UNCALLED_RETURN, None, None
        basis.append(whole.line_no)
        whole.inferred_from = sorted(set(basis))
    elif part is not None:
        part.amount = (part.amount or 0) - uncalled
        basis.append(part.line_no)
        part.inferred_from = sorted(set(basis))
        returned = Event(0, part.street, _K_UNCALLED_RETURN, part.line_no, top, part.player, uncalled,
                         text=part.text, inferred_from=part.inferred_from)
        # found by identity, from the end where the collects are: list.index would
        # compare the dataclasses field by field
        at = len(events) - 1
        while events[at] is not part:
            at -= 1
        events.insert(at, returned)
        for n in range(at, len(events)):
            events[n].seq = n
    else:
        return  # no collect holds the chips: nothing is inferred, the checks see the record as written
    for e in totals:
        if e.amount is not None:
            e.amount -= uncalled
            total_lines = set(basis)
            total_lines.add(e.line_no)
            e.inferred_from = sorted(total_lines)


def _last_street(events: list[Event]) -> tuple[int, int]:
    """The first and last index of the events of the last street chips went in on (they lie
    together; the last is -1 where none went in)."""
    chips = _STREET_CHIPS
    end = len(events) - 1
    while end >= 0 and events[end].kind not in chips:
        end -= 1
    if end < 0:
        return 0, -1
    street = events[end].street
    start = end
    while start > 0 and events[start - 1].street == street:
        start -= 1
    return start, end


def _last_commitments(events: list[Event], hand: ParsedHand) -> dict[int, int] | None:
    """What each seat put in on the last street chips went in on, in the order of each seat's
    first commitment there (None: chips never went in)."""
    chips = _STREET_CHIPS
    raise_kind = _K_RAISE
    complete_kind = _K_COMPLETE
    dead_kind = _K_DEAD_BLIND
    start, end = _last_street(events)
    if end < 0:
        return None
    last: dict[int, int] = {}
    for k in range(start, end + 1):
        e = events[k]
        kind = e.kind
        seat = e.seat
        if seat is None or kind not in chips:
            continue
        if kind == raise_kind or kind == complete_kind:
            last[seat] = e.to_amount or 0
        elif kind == dead_kind:
            last[seat] = last.get(seat, 0) + min(e.amount or 0, hand.big_blind or e.amount or 0)
        else:
            last[seat] = last.get(seat, 0) + (e.amount or 0)
    return last


def _commitment_lines(events: list[Event], top: int, second: int | None) -> list[int]:
    """The lines of the commitments of seats ``top`` and ``second`` on the last street chips
    went in on (read only for a hand whose return is inferred)."""
    chips = _STREET_CHIPS
    start, end = _last_street(events)
    lines: list[int] = []
    for k in range(start, end + 1):
        e = events[k]
        seat = e.seat
        if seat is not None and (seat == top or seat == second) and e.kind in chips:
            lines.append(e.line_no)
    return lines


_REGEX_SPECIAL = frozenset(".^$*+?{}[]\\|()")


def _template_parts(words: str, groups: int) -> tuple[tuple[str, int], ...] | None:
    """A sub's replacement as (literal text, group number or -1) parts, where it holds no
    backslash but before a group reference of one digit, 1 to ``groups`` (``\\1``, not
    ``\\12``, ``\\g<1>``, ``\\n`` or ``\\0``); None for any other replacement (read by the sub).

    >>> _template_parts(r"discards \\1 now", 1)
    (('discards ', 1), (' now', -1))
    >>> _template_parts(r"\\1", 1), _template_parts(r"\\2", 1), _template_parts(r"\\12", 9), _template_parts(r"a\\n", 1)
    ((('', 1),), None, None, None)
    """
    parts: list[tuple[str, int]] = []
    literal = ""
    k = 0
    while k < len(words):
        c = words[k]
        if c != "\\":
            literal += c
            k += 1
            continue
        digit = words[k + 1 : k + 2]
        if not ("1" <= digit <= "9" and int(digit) <= groups) or words[k + 2 : k + 3].isdigit():
            return None
        parts.append((literal, int(digit)))
        literal = ""
        k += 2
    if literal or not parts:
        parts.append((literal, -1))
    return tuple(parts)


def _substituted(text: str, m: re.Match[str], parts: tuple[tuple[str, int], ...]) -> str:
    """What ``m.re.sub(words, text, count=1)`` gives where ``m`` is the pattern's first match
    in ``text`` and ``parts`` are ``_template_parts(words)``: the match replaced by the
    parts, each group as matched (an unmatched group: '')."""
    done = text[: m.start()]
    for literal, group in parts:
        done += literal
        if group >= 0:
            done += m.group(group) or ""
    return done + text[m.end() :]

# A suffix beyond ASCII after amounts (Winamax's '2.50€') makes every line holding it a str
# of 2 bytes a character, where the others are 1: every slice, search and match of such a line
# costs more, and so does each str cut from it.  A hand's lines (header, table, seats and body)
# are read with this ASCII character in its place, one for one, made by one replace over the
# hand's text (amt takes it off as it takes the suffix off; what the hand stores of those lines,
# names, cards, buy-ins, is given back as written), unless the hand writes it itself; a hand that
# cannot be read so (a seated name holding the suffix too) is read again as written, so that what
# a line lacks is found, and named, as in the site's own words.  Events keep the raw line, and
# the content hash is the text's as written.
# (A site's pattern for a body line that names the suffix names this too: Winamax's zero blind.)
# A sign beyond ASCII before amounts (StarsSite.amount_sign: Run It Once's '€0.05') is stood in for
# alike; amt takes the stand-in off an amount's start, where amount_units takes the sign off.
# (Final: compiled, a constant; a module global is a dict lookup at each use, some 95 a euro hand)
SUFFIX_STAND_IN: Final = "\x1a"


class _SiteTables:
    """What a reader derives from its site's description: made once a site, not once a hand."""

    def __init__(self, site: StarsSite) -> None:
        self.site = site
        self.posts = {**_POSTS, **site.extra_posts} if site.extra_posts else _POSTS
        self.alias_firsts = tuple(a[0] for a in site.action_aliases)
        self.rejected_firsts = tuple(r[0] for r in site.rejected_actions)
        self.special_firsts = self.alias_firsts + self.rejected_firsts
        # the same first words by their first character: most actions (folds, calls, checks,
        # raises) start with a character none of them starts with, told by one lookup, where
        # the tuple's startswith tries every first words in turn (Winamax: eight, on every
        # action).  None: some first words are '' (every action starts so)
        by_initial: dict[str, tuple[str, ...]] = {}
        for first in self.special_firsts:
            by_initial[first[:1]] = by_initial.get(first[:1], ()) + (first,)
        self.specials_by_initial: dict[str, tuple[str, ...]] | None = None if "" in self.special_firsts else by_initial
        # names without a colon (actor_sep ' '): a line is tested for a collect (collect_word
        # searched in it, then the pattern) where no seated player starts it, or where the one who
        # does is followed by this verb ('collected '), as a collect's player is: its pattern reads
        # him as all the text before collect_word ('^(.+) collected ').  A longer seated name that
        # started such a line would hold the verb's word (collect_key): a hand seating one tests
        # every line.  '' : every line is tested (the pattern reads its player otherwise)
        word, pattern = site.collect_word, site.collect
        reads_before = (pattern.pattern.startswith("^(.+)" + word) and not pattern.groupindex) or \
            pattern.pattern.startswith("^(?P<player>.+)" + word)
        self.collect_key = word.strip()
        self.collect_verb = word[1:] if (site.actor_sep == " " and word.startswith(" ") and reads_before
                                         and self.collect_key and " " not in self.collect_key
                                         and not pattern.flags & re.IGNORECASE) else ""
        # infer_return may take the commitments the reader follows as it reads (see
        # _HandReader.left_commitments) where every event of a street's chips is one of its
        # actions that count in them: the site has no line events of its own, and posts
        # nothing but a street's chips or an ante
        self.commitments_followed = not site.line_events and all(
            kind == K.ANTE or kind in _STREET_CHIPS for kind in self.posts.values())
        # a suffix beyond ASCII after amounts (Winamax's euro), or a sign before them (Run It
        # Once's): the one character SUFFIX_STAND_IN stands for (see there)
        suffix, sign = site.amount_suffix, site.amount_sign
        self.stood_for = suffix if suffix and not suffix.isascii() else \
            sign if not suffix and len(sign) == 1 and not sign.isascii() else ""
        self.stand_in = bool(self.stood_for)
        # (first words, pattern, replacement, swap): swap when the pattern is '^' and the
        # first words alone (no flag, no regex syntax) and the replacement plain text, so
        # that its sub only puts the replacement in place of the first words
        # ...and the replacement's parts where it is plain text or holds group references ('\\1')
        # and nothing else a template may (see _template_parts), put together from the search's
        # match: the sub would search again, and prepares a replacement with references in
        # Python on every call (re._subx, expand_template)
        self.aliases = tuple(
            (first, pattern, words, pattern.pattern == "^" + first and not pattern.flags & (re.I | re.M)
             and not _REGEX_SPECIAL.intersection(first) and "\\" not in words,
             _template_parts(words, pattern.groups))
            for first, pattern, words in site.action_aliases)
        # the first characters of the words body tests a seated player's action for before
        # reading it (not_actions, ignored_actions, the ignored pattern's starts): an action
        # starting with none of them is none of those (classic Full Tilt tested seven starts on
        # every fold, call, ...).  action_tests False: the site has none; initials None: one is
        # '' (every action is tested)
        starts = (*site.not_actions, *site.ignored_actions,
                  *(site.ignored_action_starts if site.ignored_action_pattern is not None else ()))
        self.action_tests = bool(starts)
        self.action_initials: frozenset[str] | None = None if "" in starts else frozenset(s[:1] for s in starts)
        # run_markers' matches by the marker's text (a hand's markers repeat from hand to hand;
        # the pattern was tried on every one: Full Tilt's 3.5 a hand, 2% of them runs)
        self.run_markers_kept: dict[str, re.Match[str] | None] = {}
        # whether ignored_action_pattern matches an action, by its text ('has 15 seconds left to
        # act', 'is dealt 2 cards', 'has reconnected': the same few, many times a table)
        self.ignored_actions_kept: dict[str, bool] = {}
        # a button line that is words, then the seat's digits ('^The button is in seat #(?P<btn>\\d+)$'):
        # read by the words and str.isdecimal (what '\\d' matches), not the pattern
        self.button_words = _literal_head(site.button_line, r"(?P<btn>\d+)$") if site.button_line is not None else ""
        self.collect_run = "run" in site.collect.groupindex  # ('wins pot 2 (x)': Full Tilt's run's pot)
        # where a collect pattern's named groups (player, amount, pot, half, then run or -1) are in
        # its groups(), each name a look-up a call (); () where it names none (groups 1 to 4) or
        # lacks one (looked up by name, as before)
        index = site.collect.groupindex
        names = ("player", "amount", "pot", "half")
        self.collect_groups: tuple[int, ...] = \
            (*(index[name] - 1 for name in names), index["run"] - 1 if "run" in index else -1) \
            if index and all(name in index for name in names) else ()
        # amounts as read, by scale and by whether the suffix was read as SUFFIX_STAND_IN
        # (amt takes off the one it reads with): a table's amounts repeat ('$0.02', '1,500',
        # '0.05€'), and one written with a sign, commas or decimals costs several string
        # operations to read
        self.amounts: dict[tuple[int, bool], dict[str, int]] = {}
        # the tournament and cash headers' matches, by the text before the date (see tourney_match)
        self.date_sep = _date_sep(site.tourney)
        self.tourneys: dict[str, re.Match[str] | None] = {}
        # (a cash header whose date is written time first is kept too, classic Full Tilt's: its
        # pattern, a lazy table name then the games tried case-blind, costs more than the cut)
        self.cash_date_sep = _date_sep(site.cash)
        self.cashes: dict[str, re.Match[str] | None] = {}
        # the other header patterns' (classic Full Tilt's, the game before the stakes), kept alike,
        # and the last rest's time-first cut (the same rest is cut for each of them)
        self.tourneys_more = tuple((pattern, _date_sep(pattern), _kept_dict()) for pattern in site.tourney_more)
        self.cashes_more = tuple((pattern, _date_sep(pattern), _kept_dict()) for pattern in site.cash_more)
        self.cut_rest = ""
        self.cut_at = -1
        # a cash header's stakes' groups by their text (site.stakes' first match; None: none
        # matches): a table's stakes repeat, the groups read only
        self.stakes_found: dict[str, dict[str, str | None] | None] = {}
        # where site.date_pattern's groups are in its groups(), in _parse_date's order
        date_pattern = site.date_pattern
        self.date_groups = tuple(date_pattern.groupindex[name] - 1 for name in ("y", "mo", "d", "h", "mi", "s")) \
            if date_pattern is not None else ()

    def run_marker(self, head: str) -> re.Match[str] | None:
        """``site.run_markers``' match of a marker's text, kept."""
        kept = self.run_markers_kept
        if head in kept:
            return kept[head]
        pattern = self.site.run_markers
        m = pattern.match(head) if pattern is not None else None
        if len(kept) >= _KEPT:
            kept.clear()
        kept[head] = m
        return m

    def ignored_action(self, action: str) -> bool:
        """Does ``site.ignored_action_pattern`` match ``action`` (kept)?"""
        kept = self.ignored_actions_kept
        found = kept.get(action)
        if found is None:
            pattern = self.site.ignored_action_pattern
            found = pattern is not None and pattern.match(action) is not None
            if len(kept) >= _KEPT:
                kept.clear()
            kept[action] = found
        return found

    def amounts_at(self, scale: int, stood_in: bool = False) -> dict[str, int]:
        key = (scale, stood_in)
        found = self.amounts.get(key)
        if found is None:
            found = self.amounts[key] = {}
        return found

    def tourney_match(self, rest: str) -> tuple[re.Match[str] | None, str | None]:
        """``site.tourney``'s match of a header's rest (after the hand number), and its date.

        A pattern ending ``\\) - (?P<date>.+)$`` (:func:`tourney_header`, PokerStars',
        Winamax's; WPN's ``\\)- ``: ``_DATE_LAST``) matches a rest or not by the text up
        to its last ') - ' alone, and takes the same way through the pattern: every way
        ends at one of those ') - ',
        and any non-empty remainder without a newline is a date (so nothing before may
        look ahead: ``_LOOKS_AHEAD``).  That text repeats from hand to hand (the
        tournament, its level and blinds), and finding where the game starts in a long
        tournament name tries every game at every position (GGPoker's: 12 to 40 us a
        header, PokerStars' 4 to 12), so the match of that text (with a one-letter date)
        is kept, and the date is the rest's own."""
        # (the cut asked for only where the date is written time first: a call a header, pure Python)
        return _kept_match(self.site.tourney, self.date_sep, self.tourneys, rest,
                           self.time_first_cut(self.date_sep, rest) if self.date_sep == _TIME_FIRST else -2)

    def cash_match(self, rest: str) -> tuple[re.Match[str] | None, str | None]:
        """``site.cash``'s match of a header's rest, and its date, as ``tourney_match``: a
        table's cash header repeats but for its date (Winamax's; PokerStars' and GGPoker's
        cash tables)."""
        return _kept_match(self.site.cash, self.cash_date_sep, self.cashes, rest,
                           self.time_first_cut(self.cash_date_sep, rest) if self.cash_date_sep == _TIME_FIRST else -2)

    def more_match(self, more: tuple[tuple[re.Pattern[str], str, dict[str, re.Match[str] | None]], ...],
                   rest: str) -> tuple[re.Match[str] | None, str | None]:
        """The first match of ``tourneys_more`` or ``cashes_more``, kept as ``tourney_match``'s."""
        for pattern, sep, kept in more:
            m, date = _kept_match(pattern, sep, kept, rest, self.time_first_cut(sep, rest))
            if m is not None:
                return m, date
        return None, None

    def time_first_cut(self, sep: str, rest: str) -> int:
        """``_time_first_cut(rest)`` where ``sep`` is a time-first date's (else -2: not asked), the
        last rest's kept (a header the first pattern does not match is cut again for the others)."""
        if sep != _TIME_FIRST:
            return -2
        if rest is not self.cut_rest:
            self.cut_at = _time_first_cut(rest)
            self.cut_rest = rest
        return self.cut_at

    def stakes(self, stakes: str) -> dict[str, str | None] | None:
        """The groups of the first of ``site.stakes`` to match a cash header's stakes (kept)."""
        kept = self.stakes_found
        if stakes in kept:
            return kept[stakes]
        found: dict[str, str | None] | None = None
        for pattern in self.site.stakes:
            if (sm := pattern.match(stakes)) is not None:
                found = sm.groupdict()
                break
        if len(kept) >= _KEPT:
            kept.clear()
        kept[stakes] = found
        return found


def _literal_head(pattern: re.Pattern[str], tail: str) -> str:
    """The words ``pattern`` is, where it is '^', plain words (no regex syntax, no flag but
    the default), then ``tail``; else ''.

    >>> _literal_head(re.compile(r"^Button: #(?P<btn>\\d+)$"), r"(?P<btn>\\d+)$"), _literal_head(re.compile(r"^B.(\\d+)$"), r"(\\d+)$")
    ('Button: #', '')
    """
    text = pattern.pattern
    head = text[1 : len(text) - len(tail)]
    if not (text.startswith("^") and text.endswith(tail) and head) or _REGEX_SPECIAL.intersection(head) \
            or pattern.flags & (re.I | re.M | re.S | re.X | re.A):
        return ""
    return head


def _date_sep(pattern: re.Pattern[str]) -> str:
    """What ends a header pattern's text before the date ('': its matches are not kept)."""
    sep = next((sep for sep, end in _DATE_LAST if pattern.pattern.endswith(end)), "")
    # (an empty negative lookahead never matches and reads nothing: WPN's never-written group)
    if pattern.flags & (re.S | re.M) or any(look in pattern.pattern.replace("(?!)", "") for look in _LOOKS_AHEAD):
        return ""
    return sep


def _kept_dict() -> dict[str, re.Match[str] | None]:
    return {}


def _kept_match(pattern: re.Pattern[str], sep: str, kept: dict[str, re.Match[str] | None],
                rest: str, time_first_cut: int = -2) -> tuple[re.Match[str] | None, str | None]:
    """``pattern``'s match of ``rest`` and its date, the match kept by the text before the
    date (``_SiteTables.tourney_match``); ``time_first_cut``: ``_time_first_cut(rest)`` if
    known (-2: not)."""
    if sep and "\n" not in rest:
        if sep == _TIME_FIRST:
            cut = _time_first_cut(rest) if time_first_cut == -2 else time_first_cut
            stand_in = "0:00 x - x"  # a date of the pattern's shape (so the match's way is the rest's)
        else:
            cut = rest.rfind(sep) + len(sep)
            stand_in = "x"
        if len(sep) <= cut < len(rest):
            key = rest[:cut]
            if key in kept:
                m = kept[key]
            else:
                m = pattern.match(key + stand_in)
                if len(kept) >= _KEPT:
                    kept.clear()
                kept[key] = m
            return m, (rest[m.start("date") :] if m is not None else None)
    m = pattern.match(rest)
    return m, (m.group("date") if m is not None else None)


# how a header pattern whose date is written time first ends (classic Full Tilt's '11:37:56 ET -
# 2010/03/03', at times the Eastern time after it in brackets): the date group's own shape
TIME_FIRST_END = r" - (?P<date>\d{1,2}:\d{2}(?::\d{2})? \w+ - .+)$"
_TIME_FIRST = " - "  # _date_sep's answer for it (no other ending's)
# (what ends the text before the date, how a pattern ends): tourney_header's and PokerStars',
# WPN's ('(250.00/500.00)- 2019/07/21 17:44:50 UTC'), Full Tilt's
_DATE_LAST = ((") - ", r"\) - (?P<date>.+)$"), (")- ", r"\)- (?P<date>.+)$"), (_TIME_FIRST, TIME_FIRST_END))
# the last ' - ' before a time ('\\d{1,2}:', greedy '.*' backtracking from the end), and whether
# the date group's shape (time, zone, ' - ', one character) is there: 'bad' None when it is (the
# lookahead's second way, taken where the first fails, holds the time alone).  Its first
# cost some 7k instructions a header: no group around '.* - ' (a repeat followed by a literal
# backtracks from space to space), '.' as any character (a rest holding a line break is matched whole) and
# ASCII classes (only an ASCII rest is cut), the shape one way of the lookahead, not an
# optional group's: some 1.3k less (callgrind)
_TIME_FIRST_AT = re.compile(r"(?s:.*) - (?=\d{1,2}:(?:\d{2}(?::\d{2})? \w+ - .|(?P<bad>)))", re.A)


def _time_first_cut(rest: str) -> int:
    """Where a TIME_FIRST_END date starts in a header's rest (-1: not found so).

    A date group can start only after ' - ' and at a time ('\\d{1,2}:'); the last such
    place in an ASCII rest is the only one the pattern can take there, and when the date's
    own shape (time, zone, ' - ', one character) is there, the text before it decides the
    match and its way as the text before ') - ' does (``_SiteTables.tourney_match``): every
    way that ends with a date starting before it reads the same text in both.  (Branch
    s8-ftrio's reasoning and test; found by one match, where its loop of string operations
    cost more than the header's pattern, pure Python.)  A rest holding a line break is not
    cut where this says (``_kept_match`` matches it whole)."""
    if not rest.isascii():
        return -1
    m = _TIME_FIRST_AT.match(rest)
    return m.end() if m is not None and m.group("bad") is None else -1
# what could read past the text before the date, or commit to a choice by it (lookahead,
# atomic groups, possessive repeats): a pattern holding one is matched on every header
_LOOKS_AHEAD = ("(?=", "(?!", "(?>", "*+", "++", "?+", "}+")
_KEPT = 4096  # entries a cache of _SiteTables holds before it starts again


_SITE_TABLES: dict[int, _SiteTables] = {}  # by id(site); each holds its site, so the id stays its own


def _site_tables(site: StarsSite) -> _SiteTables:
    tables = _SITE_TABLES.get(id(site))
    if tables is None or tables.site is not site:
        tables = _SITE_TABLES[id(site)] = _SiteTables(site)
    return tables


class _HandReader:
    """Reads one hand's lines into a ParsedHand; raises _Reject for what it cannot read."""

    def __init__(self, site: StarsSite, buf: list[tuple[int, int, str]], cut_by: int | None, scale: int) -> None:
        self.site = site
        tables = self.tables = _site_tables(site)
        self.amounts = tables.amounts_at(scale)
        self.posts = tables.posts
        self.aliases = tables.aliases
        self.special_firsts = tables.special_firsts
        self.suffix = site.amount_suffix  # what amt takes off an amount's end
        self.sign = ""  # what amt takes off an amount's start: the stand-in for the site's amount_sign
        self.stood_for = tables.stood_for  # what SUFFIX_STAND_IN stands for
        self.stand_in = tables.stand_in  # the lines read with SUFFIX_STAND_IN for the suffix
        self.stood_in = False  # the hand's lines are
        self.buf = buf
        self.texts: list[str] = []  # buf's texts as read: with SUFFIX_STAND_IN where the hand's stood in
        self.cut_by = cut_by
        self.scale = scale  # 0: decide from the header (1 for chips, 100 for money)
        self.events: list[Event] = []
        self.names: dict[str, int] = {}
        self.committed: dict[int, int] = {}  # chips in on the current street, by seat
        self.antes: list[tuple[int, int]] = []  # (seat, amount) of each ante posted
        self.bb_poster: int | None = None  # the seat that posted the big blind
        self.blinds: dict[int, tuple[str, int]] = {}  # seat -> (street, live chips posted on it)
        self.listed: set[int] = set()  # seats with a line in the summary
        self.names_by_seat: dict[int, list[str]] = {}  # a summary seat line names its seat's player
        self.raw_no = buf[0][0]  # the line being read, for an error the reading raises
        self.in_forced = False  # in the site's section of forced bets (StarsSite.forced_marker)
        self.run = 0  # run it twice: the run being read (0: the board has not been run more than once)
        self.runs = 0  # the highest run seen
        self.names_longest: list[str] = []
        # actor_sep ' ': first word -> the names of more than one word starting with it, longest first
        self.names_by_first: dict[str, list[str]] = {}
        # a record cut short (no summary, or a summary cut off): what it lacks (hands.record_cut)
        self.cut: str | None = None
        # the line the record stops in, when it cannot be read (a line cut off mid-way):
        # (line, text), set by the parser before it reads the lines before it
        self.fragment: tuple[int, str] | None = None
        self.seated = False  # the seat lines are read: a cut before them leaves no hand to store
        # for infer_return: the commitments of the last street left on which chips went in, and
        # whether the reader's commitments are what infer_return would read from the events (its
        # street is the events' last run of one street holding chips: not so where a street
        # with no event lies between two, where an event of another street is recorded among a
        # street's (a re-buy), or where a dead blind's live part was read before the big blind
        # was known); the first event of the current street
        self.left_commitments: dict[int, int] | None = None
        self.commitments_exact = True
        self.street_start = 0

    def amt(self, text: str) -> int:
        if text.isdigit():  # to_units' own first test, without the call (most amounts are chips)
            return int(text) * self.scale
        amounts = self.amounts  # the amounts read before at this scale and suffix (errors are not kept)
        units = amounts.get(text)
        if units is None:
            units = self.read_amount(text)
            if len(amounts) >= _KEPT:
                amounts.clear()
            amounts[text] = units
        return units

    def read_amount(self, text: str) -> int:
        """An amount with a sign, commas, decimals or the site's suffix (or the stand-in
        read for it), in units of ``scale``."""
        suffix = self.suffix
        if suffix and text.endswith(suffix):
            text = text[: -len(suffix)]
        elif self.sign and text.startswith(self.sign):
            text = text[1:]  # (the sign as written, '€', is one amount_units takes off: the same amount)
        return amount_units(text, self.scale)

    def fail(self, line_no: int, text: str, why: str = "line not understood") -> _Reject:
        """The rejection of a line: one the site's description names (a cash-out), else a parse error."""
        for key, code, reason in self.site.rejected_lines:
            if key in text:
                return _Reject(code, line_no, f"line {line_no}: {reason}: {text!r}")
        return _Reject("parse-error", line_no, f"line {line_no}: {why}: {text!r}")

    def unread_line(self, street: str, no: int, at: int) -> None:
        """Line ``no`` (``self.raw``) was not understood: the events its reading added from
        ``at`` on are taken back and one unread event keeps it, with the seated player it
        starts with, if any."""
        del self.events[at:]
        text = self.raw
        player, _ = self.split_actor(text.strip())
        seat = self.names.get(player) if player is not None else None
        e = unread_event(at, street, no, text, seat, player)
        e.run = self.run or 1
        self.events.append(e)

    def add(self, street: str, kind: str, line_no: int, seat: int | None = None, player: str | None = None,
            amount: int | None = None, to_amount: int | None = None, all_in: bool = False, cards: str | None = None,
            pot_label: str | None = None, half: str | None = None) -> Event:
        """Append an event for the current line (``self.raw``, verbatim).

        The Event is built with positional arguments: this runs once per event, and
        keyword arguments (worse, a ``**kw`` dict passed on) cost more than the rest."""
        events = self.events
        if cards is not None and self.stood_in and SUFFIX_STAND_IN in cards:
            cards = cards.replace(SUFFIX_STAND_IN, self.stood_for)  # cards are kept as the line writes them
        e = Event(len(events), street, kind, line_no, seat, player, amount, to_amount, all_in, cards, pot_label, half, self.raw)
        if self.run:
            if street != S.SUMMARY and kind not in _RUN_KINDS:
                # the runs are dealt once betting is over: betting between them is another game
                raise _Reject("run-it-twice", line_no, f"line {line_no}: {kind} after the board was run more than once "
                                                       f"(the runs are dealt when betting is over): {self.raw!r}")
            e.run = self.run
        events.append(e)
        return e

    def as_written(self, part: str) -> str:
        """A part of a line read with SUFFIX_STAND_IN, as the line writes it."""
        return part.replace(SUFFIX_STAND_IN, self.stood_for) if self.stood_in else part

    # -- header, table, seats ----------------------------------------------------------

    def read(self) -> ParsedHand:
        buf = self.buf
        first_no, offset, _ = buf[0]
        site = self.site
        texts = [t for _, _, t in buf]
        hashed: str | None = None
        if self.stand_in:
            # the hand's lines read with the stand-in (see SUFFIX_STAND_IN): a line holding the
            # suffix (or the sign before amounts) is a str of 2 bytes a character, replaced (a
            # 1-byte copy); a line without it is a str of a byte a character, and the suffix's
            # test of it is one of widths.
            # Each line is tested for the stand-in written and the suffix, but where a hand's third
            # line (its first seat's) holds no suffix (a tournament: chips, the euro in its name or
            # buy-in, in the header and table line), the lines after the first two are tested as
            # one text, the text the content hash reads anyway (a copy a byte a character where
            # they are ASCII): some 9k instructions less a tournament hand, compiled.  (Tried: the
            # lines after the first two read from one replace of their text, 1-byte slices of it for
            # the lines holding the suffix: 3k instructions less a cash hand, no faster by time,
            # and slower in pure Python, the slices' loop interpreted)
            suffix = self.stood_for  # (the suffix, or the sign before amounts)
            count = len(texts)
            apart = 2 if count > 2 and suffix not in texts[2] else count  # the lines tested one by one
            read_lines: list[str] | None = None
            for k in range(apart):
                line = texts[k]
                if SUFFIX_STAND_IN in line:
                    self.stand_in = False  # the hand writes the stand-in itself: its lines are read as written
                    read_lines = None
                    break
                if suffix in line:
                    if read_lines is None:
                        read_lines = list(texts)
                    read_lines[k] = line.replace(suffix, SUFFIX_STAND_IN)
            text: str | None = None
            if self.stand_in and apart < count:
                text = "\n".join(read_lines if read_lines is not None else texts)
                after = len(texts[0]) + len(texts[1]) + 2  # where the lines after the first two start in it
                if text.find(SUFFIX_STAND_IN, after) >= 0:
                    self.stand_in = False
                    read_lines = None
                    text = None
                elif suffix in text:  # a line after them holds the suffix too: each is read as above
                    if read_lines is None:
                        read_lines = list(texts)
                    for k in range(apart, count):
                        line = texts[k]
                        if suffix in line:
                            read_lines[k] = line.replace(suffix, SUFFIX_STAND_IN)
                    text = None
            if read_lines is not None:
                self.stood_in = True
                if site.amount_suffix:
                    self.suffix = SUFFIX_STAND_IN
                else:
                    self.sign = SUFFIX_STAND_IN
                hashed = content_hash_stood_in(text if text is not None else "\n".join(read_lines), SUFFIX_STAND_IN, suffix)
                texts = read_lines
            elif text is not None:
                hashed = content_hash(text)  # (no line holds the suffix: the text as written)
        self.texts = texts
        header = texts[0].rstrip()
        m = site.header.match(header)
        if not m:
            raise self.fail(first_no, header, "hand header not understood")
        num, rest = m.group("num"), m.group("rest")
        if site.header_rest_end:
            rest += m.group("rest_end")
        hand = ParsedHand(
            hand_id=f"{site.id_prefix}{num}",
            site=site.site or site.name,
            format=site.name,
            variant="",
            betting="",
            first_line=first_no,
            last_line=buf[-1][0],
            byte_offset=offset,
            content_hash=hashed if hashed is not None else content_hash("\n".join(texts)),
            hand_number=num,
            tournament_name=m.groupdict().get("club"),
        )
        # the last '*** ' marker must be the summary (scanning back: the summary is short)
        for k in range(len(buf) - 1, 0, -1):
            if buf[k][2].startswith("*** "):
                summary = buf[k][2].startswith("*** SUMMARY ***") or (
                    site.run_markers is not None and buf[k][2].startswith("*** SUMMARY ")
                    and (rs := site.run_markers.match(buf[k][2].rstrip())) is not None and rs.group("street") == "SUMMARY")
                if not summary and site.rejected_lines:  # a marker the site's description rejects ('*** SUMMARY 2 ***')
                    rejected = self.fail(buf[k][0], buf[k][2])
                    if rejected.code != "parse-error":
                        raise rejected
                break
        else:
            summary = False
        if not summary:
            where = cut_where(self.cut_by)
            if not any(t.startswith("Seat ") for _, _, t in buf[1:]):
                # a hand start with no seat line after it: no hand to store (its header is not
                # read: it may be all the file holds, on one line)
                raise _Reject("truncated", first_no, f"hand at line {first_no} has no *** SUMMARY ***: {where} "
                              f"(line {buf[-1][0]} is its last), and no seat line")
            # stored as recorded if its seats are (else rejected 'truncated', see _hand)
            self.cut = cut_short(self.fragment[0] if self.fragment else buf[-1][0], self.cut_by)

        is_tourney = (site.tourney_find.search(rest) is not None) if site.tourney_find else rest[:10].lower().startswith(site.tourney_starts)
        t = c = None
        date_text: str | None = None
        if is_tourney:
            t, date_text = self.tables.tourney_match(rest)
            if t is None and site.tourney_more:
                t, date_text = self.tables.more_match(self.tables.tourneys_more, rest)
        if t is None:
            c, date_text = self.tables.cash_match(rest)
            if c is None and site.cash_more:
                c, date_text = self.tables.more_match(self.tables.cashes_more, rest)
        g = t or c
        if not g:
            raise _Reject("unsupported-game" if "Tournament" not in rest else "parse-error", first_no,
                          f"line {first_no}: game or stakes not understood: {header!r}")
        base, limit_text = g.group("base").lower(), g.group("limit")
        limit = limit_text.lower() if limit_text is not None else None
        betting = site.limits.get(limit) if limit is not None else site.game_betting.get(base)
        if base in site.unsupported_games or betting is None:
            raise _Reject("unsupported-game", first_no, f"line {first_no}: game not supported: {g.group('base')} {limit_text}")
        hand.variant = site.games[base]
        hand.betting = betting
        begin = g.start("mixed") if g.group("mixed") else min(g.start("base"), g.start("limit") if limit_text else len(rest))
        game_text = rest[begin : max(g.end("limit"), g.end("base")) if limit_text else g.end("base")]
        hand.game_label = game_text + (")" if g.group("mixed") else "")
        if date_text is None:  # (a kept match's date is the rest's)
            date_text = g.group("date")
        hand.started_at_text = date_text
        hand.started_at = _parse_date(date_text, site.date_pattern, self.tables.date_groups)
        sb_text = bb_text = None
        if t:
            hand.is_tournament = True
            found = t.groupdict()  # a site's header may lack a buy-in, a name or a level
            hand.tournament_id = found.get("tid")  # else the table line's (Winamax)
            hand.buy_in = (found.get("buyin") or "").strip().removesuffix(" -").strip() or None
            if found.get("name") is not None:
                hand.tournament_name = found["name"]
            hand.level = found.get("level")
            sb_text, bb_text = t.group("sb"), t.group("bb")
            hand.currency = None  # tournament amounts are chips, whatever the buy-in
            if not self.scale:
                self.scale = 1
        else:
            assert c is not None  # g is t or c
            stakes = c.group("stakes")
            if " Cap " in stakes:
                raise _Reject("unsupported-game", first_no, f"line {first_no}: capped no-limit is not supported: {stakes!r}")
            stake_groups = self.tables.stakes(stakes)
            if stake_groups is None:
                raise self.fail(first_no, header, "stakes not understood")
            sb_text, bb_text, cur = stake_groups.get("sb"), stake_groups.get("bb"), stake_groups.get("cur")
            ante_text = stake_groups.get("ante")
            sym = (bb_text or ante_text or "?")[0]
            if sym == SUFFIX_STAND_IN and self.stood_in:
                sym = self.stood_for  # (the sign as written names the currency)
            hand.currency = cur or CURRENCY_SYMBOLS.get(sym) or (
                site.suffix_currency if site.amount_suffix and self.suffix in stakes else None)
            if not self.scale:
                self.scale = 100 if hand.currency or "." in stakes else 1
        hand.amount_scale = self.scale
        self.amounts = self.tables.amounts_at(self.scale, self.stood_in)
        hand.chip_unit = 1
        if site.thousands_k:  # '50K/100K': thousands, exactly
            sb_text, bb_text = _thousands(sb_text), _thousands(bb_text)
        if hand.betting == Betting.FIXED_LIMIT:
            # fixed-limit headers give the small and big bet, not the blinds
            hand.small_bet = self.amt(sb_text) if sb_text else None
            hand.big_bet = self.amt(bb_text) if bb_text else None
        else:
            hand.small_blind = self.amt(sb_text) if sb_text else None
            hand.big_blind = self.amt(bb_text) if bb_text else None  # None: the posts say (an ante-only header)
            hand.min_bet = hand.big_blind
            if c and ante_text:  # 6+ hold'em: the button blind is the one blind, beside the ante
                hand.ante = self.amt(ante_text)

        i = 1
        if site.blank_lines or site.before_seats_ignored:
            while i < len(buf) and (not texts[i].strip() or
                                    (site.before_seats_ignored and texts[i].startswith(site.before_seats_ignored))):
                i += 1
        if not site.table_line:
            groups = g.re.groupindex  # (a group looked up, not every group's dict made)
            hand.table_name = g.group("table") if "table" in groups else None
            max_text = g.group("max") if "max" in groups else None
            hand.max_seats = int(max_text) if max_text else None
        elif i < len(buf) and texts[i].startswith(site.table_prefix):
            tm = site.table.match(texts[i].rstrip())
            if not tm:
                raise self.fail(buf[i][0], texts[i], "table line not understood")
            hand.table_name = tm.group("name")
            hand.max_seats = int(tm.group("max")) if tm.group("max") else None
            hand.button_seat = int(tm.group("btn")) if tm.group("btn") else None
            if hand.is_tournament and hand.tournament_id is None:
                hand.tournament_id = tm.groupdict().get("tid")
            i += 1
        else:
            raise self.fail(buf[i][0] if i < len(buf) else first_no, texts[i] if i < len(buf) else "", "expected the Table line")
        try:
            while i < len(buf) and (texts[i].startswith("Seat ") or site.blank_lines and not texts[i].strip()):
                if not texts[i].strip():
                    i += 1
                    continue
                no = buf[i][0]
                text = texts[i].rstrip()
                sm2 = site.seat.match(text)
                if not sm2:
                    if site.seat_not_in_hand and text.endswith(site.seat_not_in_hand):
                        i += 1
                        continue
                    raise self.fail(no, text, "seat line not understood")
                seat_text, player, stack, bounty, tail = sm2.groups()
                if self.stood_in and bounty is not None:
                    bounty = self.as_written(bounty)
                if not (tail in ("", " is sitting out") or tail.startswith(" out of hand (")):
                    raise self.fail(no, text, "seat line not understood")
                seat = int(seat_text)
                if player in self.names:
                    raise self.fail(no, text, "player seated twice")
                if self.stood_in and SUFFIX_STAND_IN in player:
                    # a name holding the suffix: the hand is read as written (see SUFFIX_STAND_IN)
                    raise self.fail(no, text, "seat line not understood")
                self.names[player] = seat
                self.names_by_seat.setdefault(seat, []).append(player)
                if tail.startswith(" out of hand ("):
                    # moved in between the small blind and the button: waits for the button
                    self.raw = buf[i][2]
                    self.add(S.SUMMARY, K.OUT_OF_HAND, no, seat, player)
                # seat, player, starting_stack, position, sitting_out, bounty, line_no
                hand.seats.append(Seat(seat, player, self.amt(stack), None, bool(tail), bounty, no))
                i += 1
        except (ValueError, KeyError, IndexError, AttributeError, TypeError):
            # a seat line misread (a stack that is no amount): the error names that line, where
            # raw_no, set per line of the body only, still names the header.  (Here, not a
            # store of raw_no a seat line: nothing is added to the reading of a hand that reads)
            self.raw_no = buf[i][0]
            raise
        if not hand.seats:
            at_no, at_text = (buf[i][0], texts[i]) if i < len(buf) else (first_no, "")
            for start, code, why in site.no_seats:  # a record the site writes without seat lines
                if at_text.startswith(start):
                    raise _Reject(code, at_no, f"line {at_no}: no seat lines: {why}: {at_text!r}")
            raise self.fail(at_no, at_text, "no seat lines")
        self.seated = True
        if self.stood_in:
            self.header_as_written(hand)
        for names in self.names_by_seat.values():
            if len(names) > 1:  # one seat, two players: the longest name first (a stable sort)
                names.sort(key=len, reverse=True)
        self.names_longest = sorted(self.names, key=len, reverse=True)
        if site.actor_sep == " ":
            # a name followed by ' ' starts the line with its own first word: the names
            # split_actor tries for a line are those of more than one word starting with the
            # line's first word, then that word (most names are one word: nothing to key for them)
            # (a dict's get and set, not setdefault, which is a generic call compiled)
            by_first = self.names_by_first
            for name in self.names_longest:
                space = name.find(" ")
                if space < 0:
                    continue
                first = name[:space]
                same_first = by_first.get(first)
                if same_first is None:
                    by_first[first] = [name]
                else:
                    same_first.append(name)
        self.body(hand, i)
        if self.site.implied_returns and self.cut is None:
            if self.commitments_exact and self.tables.commitments_followed:
                # the commitments of the last street chips went in on, as followed (none: no chips went in)
                last = self.committed if self.committed else self.left_commitments
                if last is not None:
                    infer_return(self.events, hand, last)
            else:
                infer_return(self.events, hand)
        if self.cut is not None and self.fragment is not None:
            no, text = self.fragment
            if no == self.cut_by and self.site.header_anywhere is not None and (g := self.site.header_anywhere.search(text)):
                text = text[: g.start()]  # the next hand's header glued to the cut line is that hand's
            self.cut = cut_in_line(no, text, self.cut)
        hand.record_cut = self.cut
        hand.events = self.events
        return hand

    def header_as_written(self, hand: ParsedHand) -> None:
        """The hand's fields cut from its header and table lines read with SUFFIX_STAND_IN,
        as the lines write them (a buy-in's '18€ + 2€', a tournament named '100€ GTD')."""
        # (written out, not by getattr: compiled, each field is a load and a store; and
        # tested in line: most hold no stand-in)
        suffix, stand_in = self.stood_for, SUFFIX_STAND_IN
        if stand_in in hand.hand_id:
            hand.hand_id = hand.hand_id.replace(stand_in, suffix)
        if hand.hand_number is not None and stand_in in hand.hand_number:
            hand.hand_number = hand.hand_number.replace(stand_in, suffix)
        if hand.tournament_id is not None and stand_in in hand.tournament_id:
            hand.tournament_id = hand.tournament_id.replace(stand_in, suffix)
        if hand.tournament_name is not None and stand_in in hand.tournament_name:
            hand.tournament_name = hand.tournament_name.replace(stand_in, suffix)
        if hand.buy_in is not None and stand_in in hand.buy_in:
            hand.buy_in = hand.buy_in.replace(stand_in, suffix)
        if hand.table_name is not None and stand_in in hand.table_name:
            hand.table_name = hand.table_name.replace(stand_in, suffix)
        if hand.level is not None and stand_in in hand.level:
            hand.level = hand.level.replace(stand_in, suffix)
        if hand.game_label is not None and stand_in in hand.game_label:
            hand.game_label = hand.game_label.replace(stand_in, suffix)
        if hand.started_at_text is not None and stand_in in hand.started_at_text:
            hand.started_at_text = hand.started_at_text.replace(stand_in, suffix)

    # -- actions -----------------------------------------------------------------------

    def body(self, hand: ParsedHand, i: int) -> None:
        variant = hand.variant
        if variant in _STUD:
            street = S.THIRD
        elif variant in _SINGLE_DRAW or variant in _TRIPLE_DRAW:
            street = S.PREDRAW
        else:
            street = S.PREFLOP
        stud = variant in _STUD
        single_draw = variant in _SINGLE_DRAW
        saw_total = False
        buf = self.buf
        summary = S.SUMMARY
        site = self.site
        bare_dealt, ignored_actions, ignored_lines = site.bare_dealt, site.ignored_actions, site.ignored_lines
        action_tests, action_initials = self.tables.action_tests, self.tables.action_initials
        button_words = self.tables.button_words
        # names written without a colon ('Ann collected 5'): the collect line would read as Ann's action
        collect_first = site.actor_sep != ": "
        collect_verb = self.tables.collect_verb if collect_first else ""  # (see _SiteTables)
        if collect_verb:
            collect_key = self.tables.collect_key
            for name in self.names:
                if collect_key in name:
                    collect_verb = ""  # a seated name holds the collect's word: every line is tested
                    break
        collect_also = site.collect_also
        summary_ignored = ("Board [", *site.summary_ignored)
        predeal_ignored = site.predeal_ignored
        predeal = bool(predeal_ignored)  # until the first street marker
        texts = self.texts  # the lines as read (see SUFFIX_STAND_IN)
        self.street_start = len(self.events)
        # Lines are tested from the most specific start to the least; most lines are
        # '<player>: <action>' and reach split_actor after four quick prefix tests.
        for k in range(i, len(buf)):
            no, _, raw = buf[k]
            at = len(self.events)  # (a line not understood leaves no event of its own but its unread one)
            try:
                text = texts[k].rstrip()  # exports may add trailing spaces; events keep the raw line
                self.raw = raw
                self.raw_no = no
                if not text:
                    continue
                if text.startswith("*** "):
                    street = self.marker(hand, street, no, text, stud)
                    predeal = False
                    continue
                if predeal and text.startswith(predeal_ignored):
                    continue
                if street == summary:
                    if text.startswith("Total pot "):
                        self.total_pot(no, text)
                        saw_total = True
                    elif text.startswith("Seat "):
                        glued = site.summary_glued
                        if glued is not None and (gm := glued.match(text)) is not None:
                            text = gm.group("line")  # (the event keeps the line whole, self.raw)
                        self.seat_result(no, text)
                    elif text.startswith(summary_ignored) or text in IGNORED_EXACT:
                        pass  # the board again (already recorded as deal_board events)
                    elif self.runs and (text.startswith(_RUN_BOARD_LINES) or text in _RUN_WORD_LINES or _RUN_POT_LINE.match(text)):
                        pass  # a run's board again
                    elif self.runs and text in _RUN_COUNT:
                        if _RUN_COUNT[text] != self.runs:
                            raise self.fail(no, text, f"the hand shows {self.runs} runs")
                    elif site.ignored_line_pattern and site.ignored_line_pattern.match(text):
                        pass
                    else:
                        raise self.fail(no, text)
                    continue
                if text.startswith("Dealt to "):
                    if not (bare_dealt and text[9:] in self.names):  # a bare line names who was dealt in: no cards
                        self.dealt(street, no, text)
                    continue
                if text.startswith("Uncalled bet "):
                    um = (site.uncalled or _UNCALLED).match(text)
                    if not um or um.group(2) not in self.names:
                        raise self.fail(no, text)
                    player = um.group(2)
                    self.add(street, K.UNCALLED_RETURN, no, self.names[player], player, amount=self.amt(um.group(1)))
                    continue
                player, action = self.split_actor(text)
                # (a line a seated player starts with an action's verb is no collect: see _SiteTables)
                if collect_first and (player is None or action.startswith(collect_verb)) and site.collect_word in text \
                        and self.collect(street, no, text):
                    continue
                if player is not None and collect_also and action.startswith(collect_also) and self.collect(street, no, text):
                    continue
                # (tested only where the action starts with one of the tests' first characters)
                tested = player is not None and action_tests and (action_initials is None or action[:1] in action_initials)
                if player is not None and not (tested and site.not_actions and action.startswith(site.not_actions)):
                    if tested:
                        if ignored_actions and action.startswith(ignored_actions):
                            continue
                        if site.ignored_action_pattern and action.startswith(site.ignored_action_starts) \
                                and self.tables.ignored_action(action):
                            continue
                    if single_draw and street == S.PREDRAW and action.startswith(("discards ", "stands pat")):
                        # single-draw games have no draw marker: the first draw line ends predraw
                        street = S.FIRST_DRAW
                        self.committed = {}
                        self.commitments_exact = False  # (the street changes here: infer_return reads the events)
                    self.action(hand, street, no, text, player, action)
                    continue
                if ignored_lines and text.startswith(ignored_lines):
                    continue  # (tested first of the lines no player starts: WPN writes 2.5 'Main pot' lines a hand)
                if " re-buys and receives " in text or " takes the add-on" in text:
                    self.rebuy(no, text)
                    continue
                if button_words:
                    if text.startswith(button_words) and text[len(button_words) :].isdecimal():
                        hand.button_seat = int(text[len(button_words) :])
                        continue
                elif site.button_line and (bm := site.button_line.match(text)):
                    hand.button_seat = int(bm.group("btn"))
                    continue
                if site.chat_lines and self.chat(text):
                    continue
                if site.topup and (tm := site.topup.match(text)):
                    who = tm.group("player")
                    if who in self.names:
                        self.commitments_exact = False  # (an event of another street among the street's)
                        self.add(S.SUMMARY, K.REBUY, no, self.names[who], who, amount=self.amt(tm.group("amount")))
                    continue  # a player not in this hand (seated after it began): nothing of this hand
                if site.ignored_line_pattern and site.ignored_line_pattern.match(text):
                    continue
                if text in IGNORED_EXACT or ' said, "' in text or text.endswith(IGNORED_SUFFIXES) or _holds_any(text, IGNORED_INFIX):
                    continue
                if site.collect_word in text:
                    if not self.collect(street, no, text):
                        raise self.fail(no, text)
                    continue
                if " finished the tournament in " in text or " wins the tournament" in text:
                    fm = _FINISH.match(text)
                    if fm and fm.group(1) in self.names:
                        who, place = fm.group(1), int(fm.group(2))
                    else:
                        fm = _WINS_TOURNEY.match(text)
                        if not fm or fm.group(1) not in self.names:
                            raise self.fail(no, text)
                        who, place = fm.group(1), 1
                    self.add(street, K.FINISH, no, self.names[who], who, amount=place)
                    continue
                if site.line_events and self.line_event(street, no, text):
                    continue
                if text == "Hand cancelled":
                    raise _Reject("cancelled", no, f"line {no}: the site cancelled the hand: {text!r}")
                if " cashed out the hand for " in text:
                    raise _Reject("cash-out", no, f"line {no}: the pot was settled by a cash-out, which the log cannot record: {text!r}")
                if " wins the " in text and " bounty" in text:
                    continue  # bounty prizes are paid outside the pot
                raise self.fail(no, text)
            except _Reject as rejected:
                # a line not understood is kept, not a rejection of the hand: an unread event on the
                # street it was read in (docs/semantics.md, "Lines not understood"). Not so: a street
                # marker (the streets after it would be unknown), binary junk (no hand's: see
                # _before_unread), and the last line of a hand with no summary (a record cut off
                # in that line: see _hand)
                if rejected.code != "parse-error" or rejected.line_no != no or raw.lstrip().startswith("*** ") \
                        or NOT_TEXT.search(raw) is not None or (k == len(buf) - 1 and street != summary):
                    raise
                self.unread_line(street, no, at)
        antes, bb_poster = self.antes, self.bb_poster
        if antes:
            hand.ante = max(a for _, a in antes)
            hand.bb_ante = len(antes) == 1 and antes[0][0] == bb_poster
        elif hand.ante is None:
            hand.bb_ante = None
        if self.cut is not None:
            return  # a record with no summary: nothing to settle or compare
        if site.summary_folds:
            self.summary_fold()
        if site.summary_collects and not _has_collect(self.events):
            # a walk: the body names no winner; the summary's seat line records the award
            seat_result = _SEAT_RESULT
            for e in [e for e in self.events if e.kind == seat_result and e.amount]:
                self.raw = e.text or ""
                self.add(S.SUMMARY, K.COLLECT, e.line_no, e.seat, e.player, amount=e.amount, pot_label="pot")
        if self.runs == 1:
            raise _Reject("run-it-twice", buf[-1][0], f"hand at line {buf[0][0]}: the board's first run has no second")
        if not saw_total:
            # a summary cut off: the hand's play is recorded, its summary is not whole
            self.cut = f"its summary's 'Total pot' line and whatever followed line {buf[-1][0]} ({cut_where(self.cut_by)})"
            return
        if not site.summary_lists_every_seat:
            return  # (Winamax: a summary of some seats tells nothing of a cut)
        # the summary lists every seat that took part; a hand cut inside its summary misses some
        played = {e.seat for e in self.events if e.street != summary and e.seat is not None}  # not board cards
        missing = sorted(played - self.listed)
        if missing:
            self.cut = (f"its summary lines of seat{'s' if len(missing) > 1 else ''} {', '.join(map(str, missing))} "
                        f"and whatever followed line {buf[-1][0]} ({cut_where(self.cut_by)})")

    def marker(self, hand: ParsedHand, street: str, no: int, text: str, stud: bool) -> str:
        """A '*** ... ***' line: the new street (and a deal_board event for board cards)."""
        at = len(self.events)  # the new street's first event, if it changes
        end = text.find("***", 4)
        head = text[: end + 3] if end >= 0 else text
        head = self.site.marker_aliases.get(head, head)
        run_markers = self.site.run_markers
        if head.startswith(("*** FIRST ", "*** SECOND ", "*** THIRD ")) and (rm := _RUN_TWICE.match(head)):
            # a run's street: its cards and its showdown belong to that run (Event.run)
            head = self.enter_run(_RUN_NUMBER[rm.group(1)], "*** " + rm.group(2), no, text)
        elif run_markers is not None and (fm := self.tables.run_marker(head)) is not None:
            head = self.enter_run(int(fm.group("run")), f"*** {fm.group('street')} ***", no, text)
        if head == "*** SUMMARY ***":
            self.run = 0
        new: str | None = None
        site_markers = self.site.markers
        self.in_forced = head == self.site.forced_marker
        if site_markers and head in site_markers:
            # a site's own marker; '' marks a section of the current street ('*** ANTE/BLINDS ***')
            new = site_markers[head] or street
        elif head == "*** HOLE CARDS ***":  # (Full Tilt's draw games too: their first round is predraw)
            new = S.THIRD if stud else S.PREDRAW if hand.variant in _DRAW else S.PREFLOP
        elif head == "*** SUMMARY ***":
            new = S.SUMMARY
        elif head == "*** SHOW DOWN ***":
            new = S.SHOWDOWN
        elif head == "*** DEALING HANDS ***":
            new = S.PREDRAW
        elif head in _DRAW_STREETS:
            new = _DRAW_STREETS[head]
        elif stud:
            sm = _STREET_COUNT.match(head)
            if sm:
                new = _STUD_STREETS[sm.group(1)]
            elif head == "*** RIVER ***":
                new = S.SEVENTH
        elif head in _BOARD_STREETS:
            new = _BOARD_STREETS[head]
            cards = _cards(text)
            if not cards:
                raise self.fail(no, text, "board cards missing")
            self.add(new, K.DEAL_BOARD, no, cards=cards)
        if new is None:
            raise self.fail(no, text, "street marker not understood")
        if new != street:
            committed = self.committed
            if committed:
                self.left_commitments = committed
            elif at == self.street_start:
                self.commitments_exact = False  # a street with no event: the streets around it lie together
            self.street_start = at
            self.committed = {}
        return new

    def summary_fold(self) -> None:
        """The fold of a seat the summary says folded ('folded before the Flop', ``StarsSite.summary_folds``)
        where the body writes none: inferred from that summary line, placed after the last action of
        its street, where it is the one such seat, the hand's betting ended on that street and his
        fold leaves one player in (the fold that ended the hand: Full Tilt's Matrix exports leave it
        out once the others have folded)."""
        events = self.events
        folded: set[int] = set()
        in_hand: set[int] = set()
        last_street = ""
        for e in events:
            at = e.seat
            if e.street == S.SUMMARY or at is None:
                continue
            if e.kind == K.FOLD:
                folded.add(at)
            if e.kind not in _NOT_TAKING_PART:
                in_hand.add(at)
                last_street = e.street
        found: list[tuple[Event, str]] = []
        for e in events:
            if e.kind == K.SEAT_RESULT and e.seat is not None and e.seat in in_hand and e.seat not in folded:
                for words, street in self.site.summary_folds.items():
                    if words in (e.text or ""):
                        found.append((e, street))
                        break
        if len(found) != 1 or len(in_hand - folded) != 2:
            return
        result, street = found[0]
        if street != last_street:
            return
        at = 1 + max((k for k, e in enumerate(events)
                      if e.street == street and e.seat is not None and e.kind not in _NOT_TAKING_PART
                      and e.kind != K.UNCALLED_RETURN and e.kind != K.COLLECT), default=-1)
        if at == 0:
            return
        fold = Event(at, street, K.FOLD, result.line_no, result.seat, result.player, text=result.text,
                     inferred_from=[result.line_no])
        events.insert(at, fold)
        for k in range(at + 1, len(events)):
            events[k].seq = k

    def enter_run(self, run: int, head: str, no: int, text: str) -> str:
        """A run's street marker: the run its cards, shows and collects belong to from here
        (``Event.run``), and the street's plain marker."""
        if head == "*** SUMMARY ***":
            if self.runs < 2 or run > self.runs:
                raise self.fail(no, text, "a run's summary for a run not dealt")
            return head  # a run's summary: its seat lines again (summary events are the hand's)
        if run > self.runs + 1 or (run < self.run and not head.startswith("*** SHOW")):
            raise self.fail(no, text, "runs out of order")
        self.run, self.runs = run, max(self.runs, run)
        return self.site.marker_aliases.get(head, head)

    def collect(self, street: str, no: int, text: str) -> bool:
        """'<player> collected <amount> from <pot>' (``StarsSite.collect``), if the line is one."""
        cm = self.site.collect.match(text)
        if not cm:
            return False
        # groups: named player, amount, pot, half where a site's order differs; else 1 to 4
        at = self.tables.collect_groups
        if at:  # (by number: see _SiteTables)
            found = cm.groups()
            who, paid, pot, half = found[at[0]], found[at[1]], found[at[2]], found[at[3]]
            run = found[at[4]] if at[4] >= 0 else None
        else:
            who, paid, pot, half = cm.group("player", "amount", "pot", "half") if cm.re.groupindex else cm.group(1, 2, 3, 4)
            run = cm.group("run") if self.tables.collect_run else None
        if who not in self.names:
            return False
        if run is not None:  # the run's pot, named by its run ('wins pot 2 (x)': Full Tilt)
            if not 1 <= int(run) <= self.runs:
                return False
            label = "pot"
        else:
            label = "main" if pot in self.site.main_pot_words else "pot" if pot == "pot" else _side_label(pot)
        half = None if half is None else "hi" if half.lower().startswith("hi") else "lo"
        e = self.add(street, K.COLLECT, no, self.names[who], who, amount=self.amt(paid), pot_label=label, half=half)
        if run is not None:
            e.run = int(run)
        return True

    def line_event(self, street: str, no: int, text: str) -> bool:
        """A line of the site's own shape (``StarsSite.line_events``), if it is one."""
        for pattern, kind in self.site.line_events:
            m = pattern.match(text)
            if m is None:
                continue
            groups = pattern.groupindex  # (the groups looked up, not every group's dict made)
            player = m.group("player") if "player" in groups else None
            amount = m.group("amount") if "amount" in groups else None
            if player is not None and player not in self.names:
                continue
            self.add(street, kind, no, self.names[player] if player is not None else None, player,
                     amount=self.amt(amount) if amount else None, cards=m.group("cards") if "cards" in groups else None)
            return True
        return False

    def uncontested(self, seat: int) -> bool:
        """Has every other player who took part folded?"""
        # one pass, the kinds read once (a namespace look-up a use: classic Full Tilt asks
        # this of most hands), the seats as bits of an int (a set's add cost more than the rest;
        # a seat beyond a machine word's bits makes the int a long, compiled too: the same answer)
        took_part = 0
        folded = 0
        summary: str = S.SUMMARY
        fold: str = K.FOLD
        not_taking_part = _NOT_TAKING_PART  # (a module global is a dict lookup at each use, compiled)
        for e in self.events:
            at = e.seat
            if at is None:
                continue  # (a fold without a seat is no seat's: took_part - folded never held it)
            kind = e.kind
            if kind == fold:
                folded |= 1 << at
            if e.street != summary and kind not in not_taking_part:
                took_part |= 1 << at
        return took_part & ~folded == 1 << seat

    def chat(self, text: str) -> bool:
        """A chat line: '<seated player>: text' or '<anyone> (Observer): text'."""
        i = text.find(": ")
        return i > 0 and (text[:i] in self.names or text[:i].endswith(" (Observer)"))

    def split_actor(self, text: str) -> tuple[str | None, str]:
        """'<name>: <action>' with a seated name (names may hold ': ')."""
        sep = self.site.actor_sep
        if sep == " ":
            space = text.find(" ")
            if space < 0:
                return None, ""
            first = text[:space]
            if self.names_by_first:  # the longer names first: a seated 'Ann Lee' is not 'Ann'
                for name in self.names_by_first.get(first, ()):
                    size = len(name)
                    if text.startswith(name) and text[size : size + 1] == " ":
                        return name, text[size + 1 :]
            if first in self.names:
                return first, text[space + 1 :]
            return None, ""
        if sep != ": ":
            # '<name> <action>': the longest seated name followed by the separator
            for name in self.names_longest:
                if text.startswith(name) and text.startswith(sep, len(name)):
                    return name, text[len(name) + len(sep) :]
            return None, ""
        i = text.find(sep)
        while i > 0:
            name = text[:i]
            if name in self.names:
                return name, text[i + len(sep) :]
            i = text.find(sep, i + 1)
        return None, ""

    def dealt(self, street: str, no: int, text: str) -> None:
        rest = text[9:]
        i = rest.find(" [")
        while i > 0:
            if rest[:i] in self.names:
                player = rest[:i]
                cards = _cards(rest[i:])
                if cards is None or not rest.endswith("]"):
                    break
                self.add(street, K.DEAL_HOLE, no, self.names[player], player, cards=cards)
                return
            i = rest.find(" [", i + 1)
        raise self.fail(no, text)

    def action(self, hand: ParsedHand, street: str, no: int, text: str, player: str, action: str) -> Event | None:
        """'<player>: <action>': one event (None for a player sitting out).

        Every branch is chosen by the first word, so their order is only that of how
        often they occur (folds and posts are most of a tournament's lines)."""
        seat = self.names[player]
        site = self.site
        # one lookup for the common actions, before the aliases' and the rejected actions' own
        # tests (an action starting with neither's first words is neither rewritten nor rejected)
        firsts = self.special_firsts
        if firsts:
            by_initial = self.tables.specials_by_initial
            if by_initial is not None:  # (the first words starting with the action's first character)
                firsts = by_initial.get(action[:1], ())
            if firsts and action.startswith(firsts):
                # (each alias and rejected action tested in turn: a post, mostly, reaches here)
                for first, pattern, words, swap, parts in self.aliases:
                    if not action.startswith(first):
                        continue
                    if swap:  # the pattern is the first words alone: the same as its sub, without the regex
                        action = words + action[len(first) :]
                    # searched first: a sub whose replacement holds a group reference ('\\1')
                    # prepares it in Python on every call, matching or not
                    elif (m := pattern.search(action)) is not None:
                        if parts is None:
                            action = pattern.sub(words, action, count=1)
                        else:
                            action = _substituted(action, m, parts)
                for first, pattern, code, why in site.rejected_actions:
                    if action.startswith(first) and pattern.match(action):
                        raise _Reject(code, no, f"line {no}: {why}: {text!r}")
        if self.in_forced and action.startswith(("raises ", "bets ", "calls ", "checks")):
            raise _Reject("action-before-blinds", no, f"line {no}: a voluntary action in the section of forced bets "
                          f"({self.site.forced_marker}), before the deal: the betting cannot be followed: {text!r}")
        bare_posts = self.site.bare_posts
        if bare_posts and action.startswith(bare_posts):
            action = "posts " + action
        if self.site.action_suffixes_ignored and action.endswith(self.site.action_suffixes_ignored):
            action = action[: action.rfind(" and ")]
        all_in = False
        for suffix in self.site.all_in_suffixes:
            if action.endswith(suffix):
                all_in = True
                action = action[: -len(suffix)]
                break
        word, _, arg = action.partition(" ")
        kind: str
        amount = to_amount = None
        cards = None
        committed = self.committed
        if word == "folds":
            kind = K.FOLD
            cards = _cards(arg) if arg else None
        elif word == "posts":
            kind, amount = self.post(no, text, arg)
            if kind == K.STRADDLE and self.site.straddle_to:
                to_amount = amount  # 'straddle $0.08' after 'straddle $0.04': 0.04 more, to 0.08
                amount = to_amount - committed.get(seat, 0)
            if kind == K.ANTE:
                self.antes.append((seat, amount))
            else:
                if kind != K.DEAD_BLIND:
                    live = amount
                else:
                    live = min(amount, hand.big_blind or amount)
                    if hand.big_blind is None:
                        self.commitments_exact = False  # (infer_return reads the big blind the hand ends with)
                committed[seat] = committed.get(seat, 0) + live
                self.blinds[seat] = (street, self.blinds.get(seat, (street, 0))[1] + live)
                if kind == K.BIG_BLIND:
                    self.bb_poster = seat
                    if hand.big_blind is None:  # fixed limit, ante-only headers: the blinds come from the posts
                        hand.big_blind = amount
                        if hand.betting != Betting.FIXED_LIMIT:
                            hand.min_bet = amount
                elif kind == K.SMALL_BLIND and hand.small_blind is None:
                    hand.small_blind = amount
        elif word == "calls":
            kind, amount = K.CALL, self.amt(arg)
            committed[seat] = committed.get(seat, 0) + amount
        elif word == "checks" and not arg:
            kind = K.CHECK
        elif word == "raises":
            amounts = self.site.raise_amounts
            rm = (_RAISE_TO if amounts == RAISE_TO else _RAISE).match(action)
            if not rm:
                raise self.fail(no, text)
            if amounts == RAISE_TO:  # 'raises to 300': the increment is over the bet faced
                kind, to_amount = K.RAISE, self.amt(rm.group(1))
                amount = to_amount - _highest(committed)
            else:
                kind, amount, to_amount = K.RAISE, self.amt(rm.group(1)), self.amt(rm.group(2))
            if amounts == RAISE_ADDED and amount != to_amount - committed.get(seat, 0):
                raise self.fail(no, text, "the chips added do not reach the total raised to")
            if amounts == RAISE_TO_ADDED:
                # 'raises X to Y' where Y leaves out the player's own earlier bets on the
                # street, though not his blind (Run It Once): his total is Y plus those bets;
                # the raise is over the level
                level = _highest(committed)
                blind_street, blind = self.blinds.get(seat, (None, 0))
                to_amount += committed.get(seat, 0) - (blind if blind_street == street else 0)
                amount = to_amount - level
            committed[seat] = to_amount
        elif word == "bets":
            kind, amount = K.BET, self.amt(arg)
            # the player's total on the street: a big blind's 'bets' over his own blind (Winamax,
            # 2010: 'bets 292.50' where a raise was made) adds to the chips he has in
            to_amount = committed.get(seat, 0) + amount
            committed[seat] = to_amount
        elif action.startswith("brings in for "):
            kind, amount = K.BRING_IN, self.amt(action[14:])
            committed[seat] = committed.get(seat, 0) + amount
            if hand.bring_in is None:
                hand.bring_in = amount
        elif action.startswith("completes it to "):
            kind, to_amount = K.COMPLETE, self.amt(action[16:])
            amount = to_amount - committed.get(seat, 0)
            committed[seat] = to_amount
        elif word == "discards":
            dm = _DISCARD.match(action)
            if not dm:
                raise self.fail(no, text)
            kind, amount, cards = K.DRAW, int(dm.group(1)), dm.group(2)
        elif action == "stands pat" or action.startswith("stands pat on ["):
            kind = K.STAND_PAT
            cards = _cards(action)
        elif word == "shows" and arg.startswith("["):
            kind, cards = K.SHOW, _cards(arg[: arg.index("]") + 1])
        elif word == "mucks":
            kind = K.MUCK
            cards = _cards(arg) if arg.startswith("[") else None
            if not cards and arg != "hand":
                raise self.fail(no, text)
            if not cards and self.site.uncontested_muck_is_no_show and self.uncontested(seat):
                kind = K.NO_SHOW  # everyone else folded: no showdown, the winner only keeps his cards
        elif action == "doesn't show hand":
            kind = K.NO_SHOW
        elif action in ("sits out", "is sitting out"):
            return None
        else:
            raise self.fail(no, text)
        return self.add(street, kind, no, seat, player, amount, to_amount, all_in, cards)

    def post(self, no: int, text: str, arg: str) -> tuple[str, int]:
        # 'the ante 10': the words before the last space name the post (no prefix of
        # _POSTS is a prefix of another, so a dict lookup finds what a startswith scan would)
        cut = arg.rfind(" ") + 1
        posts = self.posts
        kind = posts.get(arg[:cut])
        if kind is not None:
            return kind, self.amt(arg[cut:])
        for prefix, kind in posts.items():  # an amount holding a space ('10 USD'): amt rejects it, as it always did
            if arg.startswith(prefix):
                return kind, self.amt(arg[len(prefix) :])
        raise self.fail(no, text)

    def rebuy(self, no: int, text: str) -> None:
        """A re-buy or add-on line: a table event (street 'summary', so the replay does
        not deal the player in); amount = chips received."""
        self.commitments_exact = False  # (an event of another street among the street's)
        rm = _REBUY.match(text)
        if not rm:
            raise self.fail(no, text)
        who = self.as_written(rm.group(1))  # a name not in the hand's seats, kept as written
        kind = K.REBUY if rm.group(2) == "re-buys" else K.ADDON
        self.add(S.SUMMARY, kind, no, self.names.get(who), who, amount=self.amt(rm.group(3)))

    # -- summary -----------------------------------------------------------------------

    def total_pot(self, no: int, text: str) -> None:
        tm = self.site.total_pot.match(text)
        if not tm:
            raise self.fail(no, text)
        # the house's take: the rake and any fee the site names beside it (a jackpot fee)
        took = [v for k, v in tm.groupdict().items() if v is not None and (k == "rake" or k.startswith("fee_"))]
        house = sum(self.amt(v) for v in took) if took else None
        total_text = tm.group("total")
        rounded = self.site.rounded_amount
        if rounded is not None and rounded.match(total_text):
            total = None  # written rounded ('15.52k'): the line is kept, no exact amount is claimed
        else:
            total = self.amt(total_text)
            if self.site.total_after_rake and house:
                total += house
        self.add(S.SUMMARY, K.TOTAL_POT, no, amount=total, to_amount=house)
        pots = tm.group("pots")
        if pots:
            found = list(self.site.pot_claim.finditer(pots))
            if "".join(m.group(0) for m in found) != " " + pots.strip():  # the claims, one after the other
                raise self.fail(no, text, "pot list not understood")
            for m in found:
                label, amount = m.group(1), m.group(2)
                lab = "main" if label == "Main pot" else "house" if label in self.site.house_pot_words else _side_label(label)
                self.add(S.SUMMARY, K.POT_CLAIM, no, amount=self.amt(amount), pot_label=lab)

    def seat_result(self, no: int, text: str) -> None:
        colon = text.find(": ")
        seat_text = text[5:colon]
        if colon < 0 or not seat_text.isdigit():
            raise self.fail(no, text)
        seat = int(seat_text)
        rest = text[colon + 2 :]
        for player in self.names_by_seat.get(seat, ()):
            if rest.startswith(player):
                break
        else:
            raise self.fail(no, text, "summary seat line for a seat not in the hand")
        self.listed.add(seat)
        tail = rest[len(player) :]
        # most seats won nothing and showed nothing: skip the searches that would find nothing
        won = self.site.won.findall(tail) if "won " in tail or "collected (" in tail else None
        amount = sum(self.amt(w) for w in won) if won else None
        cards = None
        if "[" in tail:
            for key in (" showed [", " mucked ["):
                k = tail.find(key)
                if k >= 0:
                    cards = tail[k + len(key) : tail.index("]", k)]
                    break
        self.add(S.SUMMARY, K.SEAT_RESULT, no, seat, player, amount=amount, cards=cards)
