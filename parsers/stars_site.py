"""What a Stars-shaped site writes: the words the PokerStars family shares (its games
and limits, how an amount is written, the lines every site writes alike, the lines that
record nothing) and :class:`StarsSite`, the handful of lines and words one site writes
its own way.  A site's module (``parsers/ggpoker.py``, ...) is one ``StarsSite`` made of
these; ``parsers/stars_family.py`` reads every site from it.

>>> to_units('$1,492.66', 100), to_units('1,500', 1), to_units('€0.5', 100), to_units('$60.00', 1)
(149266, 1500, 50, 60)
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from types import SimpleNamespace
from typing import Any

from auditor.schema import Betting, EventKind, Street, Variant
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
# a draw: 'discards 2 cards [9s Jd]' (the count, the cards where the player's are shown)
DISCARD = re.compile(r"^discards (\d+) cards?(?: \[([^\]]*)\])?$")

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


# chips put in on a street (the ante is not a commitment of the street)
STREET_CHIPS = frozenset({K.SMALL_BLIND, K.BIG_BLIND, K.STRADDLE, K.DEAD_BLIND, K.BRING_IN, K.CALL, K.BET, K.RAISE,
                           K.COMPLETE})

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
    # a draw's line (groups: 1 the count, 2 the cards; either may be missing where the site's
    # words leave it out: the count is then the cards counted, or not known)
    discard: re.Pattern[str] = DISCARD
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
    # capped tables (a house's cap on what one player may put in a hand, hands.cap): the limit
    # words of a capped game whose header names no amount ('cap nl': Full Tilt's 'CAP NL'); the
    # header's group 'cap' or the stakes' group 'cap' give the amount where it is written
    capped_limits: tuple[str, ...] = ()
    # the end of an action line saying its player has put in the cap (' and has reached the $10
    # cap', ', and is capped'): taken off; where the header names no amount, the first such
    # line's total is the cap
    cap_reached: re.Pattern[str] | None = None
    # the action word of a player putting in the cap ('caps $0.55' at WPN: the chips he adds,
    # a bet, raise or call by what is in front of him); its total is the cap where none is known
    cap_word: str | None = None
    # a tag the header carries that states no fact of the game, taken out before the header
    # is read (PokerStars.it's regulator session id, ' [ADM ID: M2BCE3000C59C5PF]' before the
    # date; ' [AAMS ID: ...]' before 2019): docs/sites.md
    header_tag: re.Pattern[str] | None = None
    # the languages its client writes whole histories in (parsers/stars_languages.py): a hand
    # whose header is in one of them is read through it
    languages: tuple[Any, ...] = ()
    # lines a file holds between hands that are none of a hand's (an export's separators and
    # title): neither a hand cut off before the first header nor an unread line of the hand before
    between_hands: re.Pattern[str] | None = None


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


# the ante a site names inside the blinds' brackets ('(175/350(45))', '($0.02/$0.05($0.01))')
_ANTE_IN_BRACKETS = r"(?:\((?P<ante>[^()]+)\))?"
# a cash header's stakes that name it so: '$0.02/$0.05($0.01)'
STAKES_ANTE_IN_BRACKETS = re.compile(r"^(?P<sb>[^/ ]+)/(?P<bb>[^/ (]+)\((?P<ante>[^()]+)\)$")


def tourney_header(middle: str, ante: bool = False) -> re.Pattern[str]:
    """A tournament header after the hand number: 'Tournament #<tid>, ' + ``middle``
    (the site's buy-in, name, game and level) + ' (<sb>/<bb>) - <date>'; ``ante``: the
    brackets may name the ante after the big blind ('(175/350(45))')."""
    return re.compile(
        rf"^Tournament #(?P<tid>\d+), {middle}\((?P<sb>[^/()]+)/(?P<bb>[^/()]+){_ANTE_IN_BRACKETS if ante else ''}\) - (?P<date>.+)$",
        re.IGNORECASE,
    )


def cash_header(game: str, ante: bool = False) -> re.Pattern[str]:
    """The most common cash header after the hand number: '<game> (<stakes>) - <date>';
    ``ante``: the stakes may name the ante in brackets ('($0.02/$0.05($0.01))')."""
    stakes = r"[^()]*(?:\([^()]*\))?" if ante else r"[^()]*"
    return re.compile(rf"^{game} \((?P<stakes>{stakes})\) - (?P<date>.+)$", re.IGNORECASE)


GAME = game_pattern(GAMES)  # the games and limits as PokerStars names them


def stars_site(name: str, label: str, id_prefix: str, prefixes: tuple[str, ...], marker: str, tourney: str,
               game: str = GAME, ante_in_brackets: bool = False, **fields: Any) -> StarsSite:
    """A site whose header reads '<marker> Tournament #<tid>, <tourney> (<sb>/<bb>) - <date>'
    or '<marker> <game> (<stakes>) - <date>' (see :func:`hand_headers`, :func:`tourney_header`,
    :func:`cash_header`; ``ante_in_brackets``: both may name the ante in brackets, and the
    cash stakes are read so before the site's other ``stakes``); ``fields``: the rest of its
    :class:`StarsSite`."""
    if ante_in_brackets:
        fields["stakes"] = (STAKES_ANTE_IN_BRACKETS, *fields.get("stakes", (STAKES,)))
    return StarsSite(name=name, label=label, id_prefix=id_prefix, **hand_headers(prefixes, marker),
                     tourney=tourney_header(tourney, ante_in_brackets), cash=cash_header(game, ante_in_brackets), **fields)


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
