"""Bovada, Ignition and Bodog hand histories (one site: ``hands.site`` 'bovada').

Bodog's client, later sold as Bovada and Ignition (and Bodog UK), writes one
format under four header words (``Bovada Hand #``, ``Ignition Hand #``, ``Bodog
Hand #``, ``Bodog UK Hand #``).  Its frame is PokerStars' (a header, seat lines,
``*** HOLE CARDS ***``, board markers, ``*** SUMMARY ***``), so hands are cut from
a file by :class:`~parsers.stars_family.StarsFamilyParser` (headers glued to a
cut-off line or after a byte-order mark included); its lines are not, and are
read here.  What the record says, and how each oddity is settled:

- Players are named by their position, not a name: ``UTG+2``, ``Dealer``, ``Big
  Blind [ME]`` (the history's owner; written ``Big Blind  [ME]`` with two spaces in
  some action lines).  The position is the player's name for the hand, and it
  gives the acting order (``Seat.position``: small blind 1, big blind 2, ``UTG``
  3, ``UTG+n`` 3+n, the dealer last): the seat numbers do not (tournaments write
  player ids, ``Seat 1243:``, or seats out of order).  A seat line whose name is
  no position rejects the hand (``unnamed-position``).
- ``Raises X to Y``: X the chips added, Y the total; ``Raises Y`` (2012 files):
  the total.  A raise whose chips added do not reach its total is a parse error.
- ``All-in X`` (X the chips added: it must be the player's whole remaining stack,
  else ``all-in-unclear``) does not say whether it bets, calls or raises; the kind
  follows from the bet faced (none: a bet; X within it: a call; beyond it: a raise
  to his total).  ``All-in(raise) X to Y`` says it.  Before the deal an all-in is a
  post: the blind of the player named ``Small Blind`` or ``Big Blind``, else an ante.
- A walk writes no return: the big blind's collect holds his uncalled chips, and the
  return is inferred (``parsers.stars_returns.infer_return``, as Winamax's).
- A line written again right after itself (``repeat.actions.ok``: an all-in four
  times, ``Hand Result`` three times) records one event: a player cannot act twice
  in a row, and the summary counts the chips once.
- ``Showdown [...]`` gives the best five cards, not the hole cards: the ``show``
  event's cards are the hole cards of the player's ``Card dealt to a spot`` line
  (the summary's ``[hole-best five]`` says the same).  ``Hand Result`` /
  ``Hand Result-Side Pot`` are the collects (main pot / the unnumbered side pot:
  with two side pots the award checks cannot tell them apart, and say so).
- The 2012 fixed-limit files write no street markers: ``Card dealt to table [...]``
  deals the board, and the street is the board's size (3 the flop, 4 the turn, 5
  the river).  Where no line deals the board at all and only the summary writes it
  (other 2012 files), the streets begin where the betting rounds close, by the
  betting rules alone (:meth:`_BovadaHand.place_board`: the board's deal events are
  inferred); cards the betting never reaches, or a line written twice just where a
  round closes (a repeat, or the next street's first action?), leave the streets
  unknown (``streets-unrecorded``).  A summary board that is not the hand's board is
  another hand's summary (``summary-mismatch``).
- The house's take where the summary writes none (cash after 2012: a total and no
  rake; Zone Poker: an empty summary) is inferred, as the party family's
  (``inferred_from``: the lines of the total and the collects).
- The header's limit: ``No Limit``, ``Pot Limit``, ``Fixed Limit``.  Ignition
  tournament headers (and a 2012 Bovada one) write the speed there (``Turbo-``,
  ``Normal-``): the structure is not recorded, and the hand is stored with betting
  ``unrecorded``, as WPN's 2016 format is (no size is judged).
- Seven card stud (``7CARD``, ``7CARD HiLo``): seats are named by number (``Seat+4
  [ME]: 1,500 in chips``).  ``Card dealt to a spot [9d Td 5c]`` does not say which
  cards are face up; stud's dealing order does, and the deal events say so as
  inferred (:meth:`_BovadaHand.stud_deal`; a deal that breaks the order:
  ``stud-deal-order``; a community card: ``stud-community-card``).  The headers say
  ``Fixed Limit`` and state no bet sizes: betting ``unrecorded``.  The bring-in
  recorded is judged against the up cards by the ``bring-in`` check.
- Lines of the table, not of the hand, record nothing: ``Table enter user``,
  ``Enter(Auto)``, ``Leave(Auto)``, ``Seat sit out``, ``Re-join``, ``Table
  deposit``, ``Rebuyin``, ``Addon``, ``Ranking``, ``Prize Cash``, ``Draw for
  dealer``, ``Set dealer`` (an index into the seat list, or into ``Seating
  Info``), and the ``Table Info`` / ``Player Info`` / ``Seating Info`` lines.
- No table name is stored: the table checks (stack continuity, dead button) follow a
  player from hand to hand, and a position name is not a player.
- The summary numbers the seats its own way (``Seat+1..9`` where the seat lines
  wrote player ids): a summary seat line is matched to its seat by position name.

``docs/sites.md`` ("Bovada / Ignition / Bodog") gives each decision with the files
that show it.
"""

from __future__ import annotations

import datetime as dt
import re
from typing import Any, Final

from auditor.schema import Betting, Variant
from parsers.base import Event, ParsedHand, Reject, Seat, content_hash, inferred_from
from parsers.stars_family import StarsFamilyParser
from parsers.stars_hand import cut_in_line, cut_short
from parsers.stars_returns import infer_return
from parsers.stars_site import K, S, StarsSite, amount_units

# the event kinds and streets this reader writes, typed: compiled, each is a C static compared as
# a str (``K.FOLD`` is a lookup in the module's dict, then one in the namespace's, at every use)
K_ANTE: Final[str] = K.ANTE
K_BET: Final[str] = K.BET
K_BIG_BLIND: Final[str] = K.BIG_BLIND
K_BRING_IN: Final[str] = K.BRING_IN
K_CALL: Final[str] = K.CALL
K_CHECK: Final[str] = K.CHECK
K_COLLECT: Final[str] = K.COLLECT
K_DEAD_BLIND: Final[str] = K.DEAD_BLIND
K_DEAL_BOARD: Final[str] = K.DEAL_BOARD
K_DEAL_HOLE: Final[str] = K.DEAL_HOLE
K_FOLD: Final[str] = K.FOLD
K_MUCK: Final[str] = K.MUCK
K_NO_SHOW: Final[str] = K.NO_SHOW
K_RAISE: Final[str] = K.RAISE
K_SEAT_RESULT: Final[str] = K.SEAT_RESULT
K_SHOW: Final[str] = K.SHOW
K_SMALL_BLIND: Final[str] = K.SMALL_BLIND
K_TOTAL_POT: Final[str] = K.TOTAL_POT
K_UNCALLED_RETURN: Final[str] = K.UNCALLED_RETURN
S_FIFTH: Final[str] = S.FIFTH
S_FLOP: Final[str] = S.FLOP
S_FOURTH: Final[str] = S.FOURTH
S_PREFLOP: Final[str] = S.PREFLOP
S_RIVER: Final[str] = S.RIVER
S_SEVENTH: Final[str] = S.SEVENTH
S_SIXTH: Final[str] = S.SIXTH
S_SUMMARY: Final[str] = S.SUMMARY
S_THIRD: Final[str] = S.THIRD
S_TURN: Final[str] = S.TURN

# the header's first words, one per brand the client was sold under (the longer first: 'Bodog UK'
# before 'Bodog'); a new brand is one entry
BRAND_NAMES: Final = ("Bovada", "Ignition", "Bodog UK", "Bodog.com", "Bodog.eu", "Bodog")
BRAND: Final = "|".join(re.escape(name) for name in BRAND_NAMES)
BRANDS: Final = rf"(?:{BRAND}) Hand #"
BRANDS_ANYWHERE: Final = re.compile(BRANDS)
GLUED_HEADER: Final = re.compile(rf"^\ufeff*{BRANDS}")  # a header after byte-order marks, at a line's start
HEADER: Final = re.compile(rf"^(?P<brand>{BRAND}) Hand #(?P<num>\d+):? +(?P<rest>.*)$")
GAME: Final = r"(?P<game>[0-9A-Z]+?(?: HiLo)?)"
TOURNEY: Final = re.compile(
    rf"^{GAME} Tournament #(?P<tid>[\w-]+) TBL#(?P<table>\d+), (?P<limit>[A-Za-z ]+)- Level (?P<level>\d+) "
    r"\((?P<sb>[\d,]+)/(?P<bb>[\d,]+)\)(?: \[MVS\])? - (?P<date>.+)$"
)
CASH: Final = re.compile(
    rf"^(?:TBL#(?P<table>\d+)|Zone Poker ID#(?P<zone>\d+)) {GAME}(?:ZonePoker)? +(?P<limit>[A-Za-z ]+?)"
    r"(?: \[MVS\])? - (?P<date>.+)$"
)
DATE: Final = re.compile(r"(\d{4})-(\d{2})-(\d{2}) (\d{2}):(\d{2}):(\d{2})")
GAMES: Final = {"HOLDEM": Variant.HOLDEM.value, "OMAHA": Variant.OMAHA.value, "OMAHA HiLo": Variant.OMAHA_HILO.value}
# seven card stud: the header's 'Fixed Limit' and, in tournaments, '(0/0)' state no bet sizes
STUD_GAMES: Final = {"7CARD": Variant.STUD.value, "7CARD HiLo": Variant.STUD_HILO.value}
LIMITS: Final = {"No Limit": Betting.NO_LIMIT.value, "Pot Limit": Betting.POT_LIMIT.value,
                 "Fixed Limit": Betting.FIXED_LIMIT.value,
                 # the tournament's speed written where the limit would be (Ignition): the structure
                 # is not recorded (docs/semantics.md, 'Betting structure not recorded')
                 "Normal": Betting.UNRECORDED.value, "Turbo": Betting.UNRECORDED.value}

SEAT: Final = re.compile(r"^Seat (?P<seat>\d+): (?P<name>.+?)(?P<me> +\[ME\])? \((?P<stack>\S+) in chips\)$")
# stud seats are named by their number: 'Seat+4 [ME]: 1,500 in chips' (the player 'Seat+4')
STUD_SEAT: Final = re.compile(r"^(?P<name>Seat\+(?P<seat>\d+))(?P<me> +\[ME\])?: (?P<stack>\S+) in chips$")
# an action line (in the summary, another hand's line: the hand was cut and another glued on)
ACTOR: Final = re.compile(r"^(?P<name>Small Blind|Big Blind|Dealer|UTG(?:\+\d)?|Seat\+\d+)(?P<me> +\[ME\])? : "
                          r"(?P<action>.*)$")
# '<verb>(<note>) <args>': the note is the client's ('timeout', 'auth', 'Blind Disconnected'),
# save All-in's '(raise)'
VERBS: Final = ("All-in", "Raises", "Bets chip info", "Bets", "Double bets", "D bets", "Calls", "Call", "Checks",
                "Folds", "Fold")  # tried in this order: the longer first
ACTION: Final = re.compile(rf"^(?P<verb>{'|'.join(VERBS)})(?: ?\((?P<note>[^)]*)\))?(?: (?P<args>.*))?$")
# the verbs most action lines write, with no note: '<verb>' or '<verb> <args>', read by a split
# (ACTION reads the rest: a note, 'Bets chip info', 'Double bets')
PLAIN_VERBS: Final = frozenset({"All-in", "Raises", "Bets", "Calls", "Call", "Checks", "Folds", "Fold"})
ACTION_INITIALS: Final = frozenset(verb[0] for verb in VERBS)
RAISE_TO: Final = re.compile(r"^(\S+) to (\S+)$")  # 'Raises X to Y', 'All-in(raise) X to Y'
BOARD: Final = re.compile(r"\[([^\]]*)\]")  # cards: each bracket group

# the summary: 'Total Pot($112) | Rake ($1)'; 'Seat+3: Big Blind 1085  with ...' (the seat
# renumbered: matched by position name), 'Seat 1: Small Blind $111 [Does not show]'
TOTAL_POT: Final = re.compile(r"^Total Pot\((?P<total>[^)]+)\)(?: \| Rake \((?P<rake>[^)]+)\))?$")
WON: Final = re.compile(r"^ (\$?[\d,]+(?:\.\d+)?)(?: |$)")  # after the seat's name: the chips won

POSTS: Final = {
    "Ante chip": K_ANTE,
    "Small blind": K_SMALL_BLIND,
    "Small Blind": K_SMALL_BLIND,
    "Ante/Small blind": K_SMALL_BLIND,
    "Ante/Small Blind": K_SMALL_BLIND,
    "Big blind": K_BIG_BLIND,
    "Big Blind": K_BIG_BLIND,
    "Big blind/Bring in": K_BIG_BLIND,
    "Posts chip": K_BIG_BLIND,  # a big blind posted by a player entering the game
    "Posts dead chip": K_DEAD_BLIND,  # both blinds, the small one dead
}
# table lines, not the hand's: they record nothing for the log
IGNORED_ACTIONS: Final = ("Set dealer", "Table enter user", "Table leave user", "Enter(Auto)", "Leave(Auto)",
                          "Seat sit out", "Sit out", "Sitout", "Re-join", "Seat re-join", "Seat stand", "Stand",
                          "Table deposit", "Rebuyin", "Double rebuys", "Addon", "Ranking", "Prize", "Draw for dealer",
                          "Seat sit down",
                          "BOUNTY PRIZE")  # a knockout's bounty, paid outside the pot ('BOUNTY PRIZE [$5]')
# the same written with no player (the 'corrupted.lines' files): as much nothing
IGNORED_LINES: Final = ("Table enter user", "Table leave user", "Enter(Auto)", "Leave(Auto)", "Table deposit",
                        "Table Info:", "Player Info:", "Seating Info:", "Seat sit out", "Seat sit down", "Seat stand",
                        "Seat re-join", "Set dealer", "Sit out", "Re-join")
SHOWDOWN_WORDS: Final = ("Showdown", "Mucks ", "Does not show", "Hand Result", "Hand result")
STREETS: Final = {"*** HOLE CARDS ***": S_PREFLOP, "*** FLOP ***": S_FLOP, "*** TURN ***": S_TURN,
                  "*** RIVER ***": S_RIVER}
STUD_STREETS: Final = (S_THIRD, S_FOURTH, S_FIFTH, S_SIXTH, S_SEVENTH)  # a player's street: his cards less 3
# stud's markers, where written (2014: '*** 3RD STREET ***' ... '*** RIVER ***'; before, only '*** HOLE CARDS ***')
STUD_MARKERS: Final = {"*** HOLE CARDS ***": S_THIRD, "*** 3RD STREET ***": S_THIRD,
                       "*** 4TH STREET ***": S_FOURTH, "*** 5TH STREET ***": S_FIFTH, "*** 6TH STREET ***": S_SIXTH,
                       "*** RIVER ***": S_SEVENTH}
BETTING_STREETS: Final = frozenset(STREETS.values()) | frozenset(STUD_STREETS)
MIN_BET_BETTING: Final = (Betting.NO_LIMIT.value, Betting.POT_LIMIT.value)  # the big blind is the least bet
BOARD_STREETS: Final = {3: S_FLOP, 4: S_TURN, 5: S_RIVER}
# the summary's stud seat line of a split pot: 'Seat+5:  HI $73.50  with ...', '... LO $73.50 [...]'
HALF_WON: Final = re.compile(r"\b(?:HI|LO) (\$?[\d,]+(?:\.\d+)?)")


# the acting order a position name gives: small blind 1, big blind 2, UTG 3, UTG+n 3+n, the dealer last
POSITION_ORDER: Final = {"Small Blind": 1, "Big Blind": 2, "Dealer": 20, "UTG": 3,
                         **{f"UTG+{n}": 3 + n for n in range(10)}}


def _position(label: str) -> int | None:
    """The acting order a position name gives (1 the small blind ... the dealer last).

    >>> [_position(p) for p in ("Small Blind", "Big Blind", "UTG", "UTG+2", "Dealer", "Seat+3")]
    [1, 2, 3, 5, 20, None]
    """
    return POSITION_ORDER.get(label)


def _highest(committed: dict[int, int]) -> int:
    """The street's highest commitment, 0 before any: ``max(committed.values(), default=0)``,
    as a loop (compiled, a ``max`` with a default is a generic call).

    >>> _highest({}), _highest({1: 5, 2: 10, 3: 10}), _highest({4: -2})
    (0, 10, -2)
    """
    level = 0
    first = True
    for chips in committed.values():
        if first or chips > level:
            level = chips
            first = False
    return level


# a header's rest as the patterns read it: (a tournament's, game, limit, tournament id, level, small
# blind, big blind: '' where cash), and where its date starts; None where neither pattern reads it
HeaderFields = tuple[bool, str, str, str, str, str, str, int]
_HEADERS_KEPT: Final[dict[str, HeaderFields | None]] = {}  # by the text before the date (_header_fields)
_KEPT_MAX: Final = 4096  # entries kept before the table starts again
# amounts as read, by scale: a table's amounts repeat (blinds, antes, stacks), and reading one
# costs an int() of its text and, with a '$' or commas, more
_AMOUNTS_KEPT: Final[dict[int, dict[str, int]]] = {}


def _amounts_at(scale: int) -> dict[str, int]:
    found = _AMOUNTS_KEPT.get(scale)
    if found is None:
        found = _AMOUNTS_KEPT[scale] = {}
    return found


def _read_header(rest: str) -> HeaderFields | None:
    """TOURNEY's groups of a header's rest, else CASH's (a cash header has no ' Tournament #',
    which TOURNEY needs: it is not tried there)."""
    t = TOURNEY.match(rest) if " Tournament #" in rest else None
    if t is not None:
        game, limit, tid, level, sb, bb = t.group("game", "limit", "tid", "level", "sb", "bb")
        return True, game, limit, tid, level, sb, bb, t.start("date")
    c = CASH.match(rest)
    if c is None:
        return None
    game, limit = c.group("game", "limit")
    return False, game, limit, "", "", "", "", c.start("date")


def _header_fields(rest: str) -> tuple[HeaderFields | None, str]:
    """``_read_header`` of a header's rest, and its date.

    Both patterns end ``' - (?P<date>.+)$'``, and nothing before the date can look past it:
    a rest matches or not, and by the same way, by its text up to its last ' - ' alone (any
    non-empty remainder is a date, and no way through the pattern can reach the date past
    the last ' - ').  That text repeats from hand to hand (the table, the game, the
    tournament's level and blinds), so what the patterns read of it (with a one-letter date)
    is kept, and the date is the rest's own.

    >>> _header_fields("HOLDEM Tournament #4 TBL#8, Normal- Level 13 (300/600) - 2021-06-06 18:25:22")
    ((True, 'HOLDEM', 'Normal', '4', '13', '300', '600', 57), '2021-06-06 18:25:22')
    >>> _header_fields("TBL#951467 HOLDEM  Fixed Limit - 2012-04-03 16:25:23"), _header_fields("HOLDEM - ")
    (((False, 'HOLDEM', 'Fixed Limit', '', '', '', '', 33), '2012-04-03 16:25:23'), (None, ''))
    """
    cut = rest.rfind(" - ") + 3
    if 3 <= cut < len(rest):
        key = rest[:cut]
        if key in _HEADERS_KEPT:
            found = _HEADERS_KEPT[key]
        else:
            found = _read_header(key + "x")
            if len(_HEADERS_KEPT) >= _KEPT_MAX:
                _HEADERS_KEPT.clear()
            _HEADERS_KEPT[key] = found
    else:
        found = _read_header(rest)
    return found, (rest[found[7]:] if found is not None else "")


def _seat_fields(text: str, stud: bool) -> tuple[str, str, bool, str] | None:
    """A seat line's number, position name, whether it is the history's owner's ([ME]) and
    stack, or None where it is no seat line: ``SEAT``'s groups (``STUD_SEAT``'s in stud).
    The common shape (``Seat 3: UTG+1 [ME] ($25 in chips)``) is read by slices: its stack
    (``\\S+``) is the text after the last ' (', a run of digits, commas, dots and '$' (no
    space in it, so no other ' (' can start it), and the lazy name is what precedes it, less
    a ``' +[ME]'`` ending; every other line is SEAT's to read (compiled, two regex method
    calls and the match cost several times these slices).

    >>> _seat_fields("Seat 1243: UTG+2  [ME] (25,000 in chips)", False), _seat_fields("Seat 3: A ((5 in chips)", False)
    (('1243', 'UTG+2', True, '25,000'), ('3', 'A', False, '(5'))
    >>> _seat_fields("Seat 3: Dealer ($1.5 in chips) ", False), _seat_fields("Seat+4 [ME]: 1,500 in chips", True)
    (None, ('4', 'Seat+4', True, '1,500'))
    """
    if not stud and text.startswith("Seat ") and text.endswith(" in chips)"):
        colon = text.find(": ", 5)
        end = len(text) - 10  # before ' in chips)'
        cut = text.rfind(" (", colon + 2, end)
        number = text[5:colon]
        if colon > 5 and colon + 2 < cut < end - 2 and number.isdecimal():  # SEAT's r'\d+': Unicode's decimals
            stack = text[cut + 2:end]
            if not stack.strip("$0123456789,."):  # no whitespace in it (nor anything an amount does not hold)
                name = text[colon + 2:cut]
                if not name.endswith("[ME]"):
                    return number, name, False, stack
                owner = name[:-4].rstrip(" ")
                if owner and len(owner) < len(name) - 4:  # r' +\[ME\]' after a name (an empty one: SEAT's to read)
                    return number, owner, True, stack
    sm = (STUD_SEAT if stud else SEAT).match(text)
    if sm is None:
        return None
    number, name, me, stack = sm.group("seat", "name", "me", "stack")  # one call, not four
    return number, name, me is not None, stack


def _summary_seat(text: str) -> tuple[str, str] | None:
    """A summary seat line's number and what follows it ('Seat+3: ', 'Seat 1: ', 'Seat 10: ',
    and a knockout's winner 'Seat 7:Dealer 8680 ...' with no space): the pattern
    ``^Seat\\+? ?(\\d+): ?(.*)$``, read by slices.

    >>> _summary_seat("Seat+3: Big Blind 1085  with"), _summary_seat("Seat 10: UTG Folded"), _summary_seat("Seat: x")
    (('3', 'Big Blind 1085  with'), ('10', 'UTG Folded'), None)
    >>> _summary_seat("Seat 7:Dealer 8680  with")
    ('7', 'Dealer 8680  with')
    """
    if not text.startswith("Seat"):
        return None
    start = 4  # slices, not startswith(x, start): compiled, that is a generic method call
    if text[start:start + 1] == "+":
        start += 1
    if text[start:start + 1] == " ":
        start += 1
    colon = text.find(":", start)
    if colon <= start or not text[start:colon].isdecimal():
        return None
    rest = colon + 2 if text[colon + 1:colon + 2] == " " else colon + 1
    return text[start:colon], text[rest:]


class _BovadaHand:
    """One hand's lines read into a ParsedHand; raises Reject for what it cannot read."""

    def __init__(self, site: StarsSite, buf: list[tuple[int, int, str]], cut_by: int | None, scale: int) -> None:
        self.site = site
        self.buf = buf
        self.cut_by = cut_by
        self.scale = scale
        self.amounts = _amounts_at(scale)  # the amounts read before at this scale (errors are not kept)
        self.raw_no = buf[0][0]
        self.raw = ""
        self.events: list[Event] = []
        self.seats: dict[str, Seat] = {}  # by position name (no [ME])
        self.committed: dict[int, int] = {}  # chips in on the street, by seat
        self.left: dict[int, int] = {}  # chips behind, by seat
        self.holes: dict[int, str] = {}
        self.board_line: tuple[int, str] | None = None  # the summary's 'Board [...]'
        self.bb_posted: int | None = None  # the big blind's post
        self.dealt = False  # past '*** HOLE CARDS ***'
        self.added: dict[int, int] = {}  # chips a voluntary action added, by line
        self.collects: list[Event] = []
        self.labels_longest: list[str] = []  # position names, longest first (summary lines)
        # a record cut short (no summary): what it lacks (hands.record_cut); the line the
        # record stops in when it cannot be read; the seat lines read (see StarsFamilyParser._hand)
        self.cut: str | None = None
        self.fragment: tuple[int, str] | None = None
        self.seated = False
        self.stud = False  # seven card stud: seats named by number, cards dealt to each seat street by street
        self.stud_held: dict[int, list[str]] = {}  # stud: each seat's cards so far, in the order dealt
        self.cards_seen: set[str] = set()  # stud: every card dealt (a card dealt twice contradicts the deck)
        # a board only the summary writes (2012 files: no marker, no 'Card dealt to table'): its
        # line and cards, dealt street by street where each betting round closes (place_board)
        self.board_unplaced: tuple[int, list[str]] | None = None
        self.board_placed = 0  # of its cards, how many are dealt so far
        self.acted: set[int] = set()  # seats that acted on the street since its last bet or raise
        self.folded: set[int] = set()

    @property
    def listed(self) -> set[int]:
        """The seats the summary lists: one seat-result event each (every summary seat line adds
        one).  Read off the events by the reader of junk after a hand only
        (``StarsFamilyParser._before_unread``, on a hand that could not be read): nothing is
        kept a line, where Stars' own reader keeps the set as it reads."""
        return {e.seat for e in self.events if e.kind == K_SEAT_RESULT and e.street == S_SUMMARY and e.seat is not None}

    def amt(self, text: str) -> int:
        amounts = self.amounts
        units = amounts.get(text)
        if units is None:
            # tournament chips (most amounts), else "$0.25", "1,500", ...
            units = int(text) * self.scale if text.isdigit() else amount_units(text, self.scale)
            if len(amounts) >= _KEPT_MAX:
                amounts.clear()
            amounts[text] = units
        return units

    def fail(self, no: int, text: str, why: str = "line not understood", code: str = "parse-error") -> Reject:
        return Reject(code, no, f"line {no}: {why}: {text!r}")

    def add(self, street: str, kind: str, no: int, seat: Seat | None = None, amount: int | None = None,
            to_amount: int | None = None, all_in: bool = False, cards: str | None = None,
            pot_label: str | None = None) -> Event:
        e = Event(len(self.events), street, kind, no, seat.seat if seat else None, seat.player if seat else None,
                  amount, to_amount, all_in, cards, pot_label, None, self.raw)
        self.events.append(e)
        return e

    # -- header and seats --------------------------------------------------------------

    def read(self) -> ParsedHand:
        buf = self.buf
        # a header glued to this hand's last line, or after a byte-order mark: that line is the next hand's
        while len(buf) > 1 and (not buf[-1][2].strip("\ufeff \t")
                                or " Hand #" in buf[-1][2] and BRANDS_ANYWHERE.search(buf[-1][2])):
            if buf[-1][2].strip("\ufeff \t") and not GLUED_HEADER.match(buf[-1][2]):
                break
            buf = buf[:-1]
        self.buf = buf
        # the hand's text, once: its hash, and what the scans for the summary and the board look for
        # (no line holds a line break: a line after the first starts where '\n' is)
        texts = [t for _, _, t in buf]
        joined = "\n".join(texts)
        first_no, offset, header = buf[0]
        m = HEADER.match(header.rstrip())
        if not m:
            raise self.fail(first_no, header, "hand header not understood")
        num, rest = m.group("num", "rest")  # one call, not two
        hand = ParsedHand(hand_id=f"{self.site.id_prefix}{num}", site="bovada", format="bovada", variant="",
                          betting="", first_line=first_no, last_line=buf[-1][0], byte_offset=offset,
                          content_hash=content_hash(joined), hand_number=num)
        if "\n*** SUMMARY ***" not in joined:  # no line after the header starts the summary
            # stored as recorded if its seats are (else rejected 'truncated': StarsFamilyParser._hand)
            self.cut = cut_short(self.fragment[0] if self.fragment else buf[-1][0], self.cut_by)
            if self.fragment is not None:
                no, text = self.fragment
                glued = re.search(BRANDS, text)
                text = text[: glued.start()] if glued and glued.start() > 0 else text  # the next hand's header
                self.cut = cut_in_line(no, text, self.cut)
        fields, date_text = _header_fields(rest)
        if fields is None:
            raise self.fail(first_no, header, "hand header not understood")
        tourney, game, limit, tid, level, sb, bb, _ = fields
        limit = limit.strip()
        if game in STUD_GAMES:
            # 'Fixed Limit' with no bet sizes anywhere (tournaments write '(0/0)'): no size can be
            # judged, as where the structure is not written (docs/semantics.md)
            if limit != "Fixed Limit":
                raise self.fail(first_no, header, f"stud limit {limit!r} not known")
            self.stud = True
            hand.variant, hand.betting = STUD_GAMES[game], Betting.UNRECORDED.value
        elif game not in GAMES:
            raise self.fail(first_no, header, f"game {game!r} not known")
        elif limit not in LIMITS:
            raise self.fail(first_no, header, f"limit {limit!r} not known")
        else:
            hand.variant, hand.betting = GAMES[game], LIMITS[limit]
        hand.game_label = f"{game} {limit}"
        hand.started_at_text = date_text
        d = DATE.search(hand.started_at_text)
        if d:  # 'YYYY-MM-DD hh:mm:ss', ISO's form
            hand.started_at = dt.datetime.fromisoformat(d.group())
        # no table name: the table checks follow players and seats from hand to hand, and this
        # record names players by their position in each hand (tournament seats are player ids or
        # out of order), so no sequence of hands at a table can be followed (the header keeps 'TBL#')
        hand.table_name = None
        stud = self.stud
        money = False  # a seat line among the first lines holds a '$'
        for k in range(1, min(len(buf), 12)):
            x = buf[k][2]
            if x.startswith("Seat") and "$" in x and _seat_fields(x, stud) is not None:
                money = True
                break
        if self.scale == 0:
            self.scale = 100 if money else 1
            self.amounts = _amounts_at(self.scale)
        hand.amount_scale = self.scale
        hand.currency = "USD" if money else None
        if tourney:
            hand.is_tournament = True
            hand.tournament_id = tid
            hand.level = level
            if not self.stud:  # stud headers write '(0/0)': no blinds
                hand.small_blind, hand.big_blind = self.amt(sb), self.amt(bb)
        i = 1
        while i < len(buf) and not buf[i][2].startswith("Seat"):
            i += 1
        while i < len(buf) and (seat_fields := _seat_fields(buf[i][2].rstrip(), stud)) is not None:
            self.raw_no = buf[i][0]
            number, label, me, stack = seat_fields
            # stud acts by the cards showing, not by position: the seat number is the clockwise order
            pos = int(number) if stud else _position(label)
            if pos is None:
                raise self.fail(buf[i][0], buf[i][2], "the seat names no position", "unnamed-position")
            if label in self.seats:
                raise self.fail(buf[i][0], buf[i][2], "two seats name the same position")
            player = label + (" [ME]" if me else "")
            chips = self.amt(stack)
            seat = Seat(int(number), player, chips, pos, line_no=buf[i][0])
            if seat.seat in self.left:
                raise self.fail(buf[i][0], buf[i][2], "two seat lines for one seat")
            self.seats[label] = seat
            self.left[seat.seat] = chips
            if label == "Dealer":
                hand.button_seat = seat.seat
            i += 1
        if not self.seats:
            raise self.fail(buf[min(i, len(buf) - 1)][0], buf[min(i, len(buf) - 1)][2], "no seat lines")
        hand.seats = sorted(self.seats.values(), key=lambda s: s.position or 0)
        self.seated = True
        # stud has no board (each seat's cards give its streets: stud_deal); a hand with no 'Board [' line
        # has no summary board to check
        if not self.stud and "\nBoard [" in joined:
            self.streets_recorded(i, texts)
        self.body(hand, i)
        hand.events = self.events
        hand.record_cut = self.cut
        if hand.big_blind is None:  # cash: the stakes are the blinds posted
            hand.big_blind = next((e.amount for e in self.events if e.kind == K_BIG_BLIND and e.text
                                   and not e.all_in and "Posts" not in e.text), None)
            hand.small_blind = next((e.amount for e in self.events if e.kind == K_SMALL_BLIND), None)
        if hand.betting in MIN_BET_BETTING:
            hand.min_bet = hand.big_blind
        return hand

    # -- the hand's lines ---------------------------------------------------------------

    def body(self, hand: ParsedHand, i: int) -> None:
        street = S_THIRD if self.stud else S_PREFLOP
        board: list[str] = []
        previous = ""
        summary = False
        seats = self.seats
        stud = self.stud
        infer_board = self.board_unplaced is not None  # a board only the summary writes (place_board)
        board_size = len(self.board_unplaced[1]) if self.board_unplaced is not None else 0
        for no, _, raw in self.buf[i:]:
            text = raw.rstrip()
            self.raw, self.raw_no = raw, no
            # most lines are '<position>[ [ME]] : <action>': they are told apart first
            label, sep, action = text.partition(" : ")
            if sep and not summary:
                if text == previous:
                    if infer_board and self.board_placed < board_size \
                            and ACTION.match(action.strip()) and self.round_closed():
                        raise Reject("streets-unrecorded", no, f"line {no}: a line written again where the "
                                     f"betting round has closed, in a hand whose lines deal no board: the same "
                                     f"action written twice, or the next street's first action, the record does "
                                     f"not say: {text!r}")
                    continue  # the same line again: one event (a player cannot act twice in a row)
                previous = text
                if label.endswith("[ME]"):
                    label = label[:-4].rstrip()
                action = action.strip()
                seat = seats.get(label)
                if seat is None:
                    if action.startswith(IGNORED_ACTIONS):
                        continue  # the dealer's 'Set dealer' where no seat is the dealer's (MVS tables)
                    raise self.fail(no, text, "no seat line for this player")
                if stud and action.startswith("Card dealt to a spot ["):
                    street = self.stud_deal(street, no, text, seat, action)
                    continue
                if infer_board:
                    if self.dealt:
                        street = self.place_board(street, no, text, action)
                    n_before = len(self.events)
                    self.action(hand, street, no, text, seat, action)
                    if len(self.events) > n_before:
                        self.round_state(self.events[-1], seat)
                    continue
                self.action(hand, street, no, text, seat, action)
                continue
            if not text:
                continue
            previous = text
            if text.startswith("*** "):
                head = text[: text.index("***", 4) + 3] if "***" in text[4:] else text
                if head == "*** HOLE CARDS ***":
                    self.dealt = True
                    self.blind_or_ante(no)
                if head == "*** SUMMARY ***":
                    summary = True
                    street = S_SUMMARY
                    continue
                if self.stud:
                    new = STUD_MARKERS.get(head)
                    if new is None or STUD_STREETS.index(new) not in (STUD_STREETS.index(street),
                                                                       STUD_STREETS.index(street) + 1):
                        raise self.fail(no, text, "stud street marker not understood or out of order")
                    self.dealt = True
                    self.new_street(street, new)
                    street = new
                    continue
                if head not in STREETS:
                    raise self.fail(no, text, "street marker not understood")
                new = STREETS[head]
                if new != S_PREFLOP:
                    cards = BOARD.findall(text)
                    if not cards:
                        raise self.fail(no, text, "board cards missing")
                    dealt = cards[-1].split()
                    board.extend(dealt)
                    self.new_street(street, new)
                    street = new
                    self.add(street, K_DEAL_BOARD, no, cards=" ".join(dealt))
                continue
            if summary:
                self.summary_line(no, text)
                continue
            if text.startswith(("Card dealt to table [", "Card to the table [")):
                if self.stud:
                    # the one departure from stud's dealing order: a community card where the
                    # deck runs short (the record does not say which of a seat's cards it stands for)
                    raise Reject("stud-community-card", no, f"line {no}: a community card in seven card stud "
                                 f"(the deck ran short): {text.rstrip()!r}")
                dealt = BOARD.findall(text)[-1].split()
                board.extend(dealt)
                size = BOARD_STREETS.get(len(board))
                if size is None or (size == S_FLOP and len(dealt) != 3):
                    raise self.fail(no, text, "board cards not understood")
                self.new_street(street, size)
                street = size
                self.add(street, K_DEAL_BOARD, no, cards=" ".join(dealt))
                continue
            if not text.startswith(IGNORED_LINES):
                raise self.fail(no, text)
        if self.board_unplaced is not None and self.board_placed < len(self.board_unplaced[1]):
            no = self.board_unplaced[0]
            raise Reject("streets-unrecorded", no, f"line {no}: the summary's board has cards no street of the "
                         f"hand reached by its betting (the last round did not close, or no one was left to see "
                         f"them): {' '.join(self.board_unplaced[1])}")
        collects = self.collects
        side_collects = any(e.pot_label == "side" for e in collects)
        if not summary:
            if self.cut is None:
                raise Reject("truncated", self.buf[0][0], f"hand at line {self.buf[0][0]} has no *** SUMMARY ***")
            return  # a record cut short: nothing to settle or infer
        for e in collects:
            if e.pot_label is None:
                e.pot_label = "main" if side_collects else "pot"
        if not any(e.kind == K_UNCALLED_RETURN for e in self.events):
            infer_return(self.events, hand)  # a walk: the big blind's uncalled chips are in his collect
        self.house_take(hand, collects)

    def house_take(self, hand: ParsedHand, collects: list[Event]) -> None:
        """The house's take where the summary does not write it (inferred: ``inferred_from``
        names the total's and the collects' lines): a cash hand's total with
        no rake beside it (the total is what went in; less was won), or a summary with no
        total at all (Zone Poker, 2021): the chips put in, less returns, and what was won."""
        won = sum(e.amount or 0 for e in collects)
        lines = sorted({e.line_no for e in collects})
        total = next((e for e in self.events if e.kind == K_TOTAL_POT), None)
        if total is None:
            posts = (K_ANTE, K_SMALL_BLIND, K_BIG_BLIND, K_DEAD_BLIND)
            put = sum(e.amount or 0 for e in self.events if e.kind in posts)
            put += sum(self.added.values()) - sum(e.amount or 0 for e in self.events if e.kind == K_UNCALLED_RETURN)
            last_no, _, last_text = self.buf[-1]  # placed on the hand's last line, as the total's line would be
            self.events.append(Event(len(self.events), S_SUMMARY, K_TOTAL_POT, last_no, amount=put,
                                     to_amount=max(put - won, 0), text=last_text,
                                     inferred_from=inferred_from(last_no, *lines)))
        elif total.to_amount is None and not hand.is_tournament and total.amount is not None and total.amount > won:
            total.to_amount = total.amount - won
            total.inferred_from = inferred_from(total.line_no, *lines)

    def streets_recorded(self, i: int, texts: list[str]) -> None:
        """Reject a hand whose summary board holds cards its lines never dealt: where
        each street began (and so what each bet faced) is not recorded.  ``texts``: the
        hand's lines' text (``self.buf``'s)."""
        dealt: list[str] = []
        for k in range(i, len(texts)):
            text = texts[k]
            first = text[:1]
            if first != "*" and first != "C" and first != "B":
                continue
            no = self.buf[k][0]
            if first != "B":  # a street's marker or a card dealt to the table
                if text.startswith(("*** FLOP ***", "*** TURN ***", "*** RIVER ***", "Card dealt to table [",
                                    "Card to the table [")):
                    dealt += BOARD.findall(text)[-1].split()
                continue
            if not text.startswith("Board ["):  # 'Big Blind : ...'
                continue
            summary_board = BOARD.findall(text)[0].split()  # read once
            if dealt and summary_board[:len(dealt)] != dealt:
                raise Reject("summary-mismatch", no, f"line {no}: the summary's board is not the board the hand "
                             f"dealt ({' '.join(dealt)}): the summary is another hand's: {text.rstrip()!r}")
            elif not dealt and not any(
                    t.startswith("*** ") and t[4:].startswith(("FLOP", "TURN", "RIVER")) for t in texts[i:]):
                # no line deals the board at all: the streets begin where the betting rounds close
                self.board_unplaced = (no, summary_board)
            elif len(summary_board) > len(dealt):
                raise Reject("streets-unrecorded", no, f"line {no}: the summary's board has cards the hand's lines "
                             f"never dealt (no street marker, no 'Card dealt to table'): where each street began, "
                             f"and so what each bet faced, is not recorded: {text.rstrip()!r}")

    def round_state(self, e: Event, seat: Seat) -> None:
        """Who has acted on the street since its last bet or raise, and who has folded (the
        betting rounds of a hand whose board only the summary writes)."""
        if e.kind in (K_BET, K_RAISE):
            self.acted = {seat.seat}
        elif e.kind in (K_CALL, K_CHECK, K_FOLD):
            self.acted.add(seat.seat)
            if e.kind == K_FOLD:
                self.folded.add(seat.seat)

    def round_closed(self) -> bool:
        """The betting round is over: one player left, or every player who can still act
        has acted since the last bet or raise and matched it (or no one can act)."""
        live = [s for s in self.holes if s not in self.folded]
        level = max((self.committed.get(s, 0) for s in live), default=0)
        able = [s for s in live if self.left[s] > 0]
        if len(live) <= 1 or not able:
            return True
        if len(able) == 1 and self.committed.get(able[0], 0) >= level:
            return True  # the others are all in: no one to bet against
        return all(s in self.acted and self.committed.get(s, 0) == level for s in able)

    def place_board(self, street: str, no: int, text: str, action: str) -> str:
        """Before an action, or the showdown: where the betting round has closed, the next
        street's board cards, from the summary's board, are dealt (``deal_board``, inferred
        from the summary's board line and the line it is placed on, the first of the new
        street).  A round is closed by the betting rules alone (who has acted, who has
        matched), so no bet's street is chosen: the only reading in which every action is
        someone's.  At the showdown every card left is dealt (an all-in's run-out)."""
        unplaced = self.board_unplaced
        assert unplaced is not None  # called only for a hand whose board only the summary writes
        board_no, cards = unplaced
        showdown = action.startswith(SHOWDOWN_WORDS)
        if not showdown and not ACTION.match(action):
            return street  # a line that is no bet: ignored, or a post
        while self.board_placed < len(cards) and self.round_closed():
            new = {S_PREFLOP: S_FLOP, S_FLOP: S_TURN, S_TURN: S_RIVER}.get(street)
            size = 3 if new == S_FLOP else 1
            if new is None or self.board_placed + size > len(cards):
                break
            if sum(1 for s in self.holes if s not in self.folded) <= 1:
                break  # the hand is over: no card is dealt to one player (an action now is judged as it stands)
            self.new_street(street, new)
            street = new
            self.acted = set()
            e = self.add(street, K_DEAL_BOARD, no, cards=" ".join(cards[self.board_placed:self.board_placed + size]))
            e.inferred_from = inferred_from(board_no, no)
            self.board_placed += size
            if not showdown:
                break
        return street

    def stud_deal(self, street: str, no: int, text: str, seat: Seat, action: str) -> str:
        """A stud deal line ('Card dealt to a spot [9d Td 5c]', then one card a street): the
        street it deals is the seat's cards less three.  The line does not say which cards
        are face up; stud's dealing order does (third street: two down, the third up;
        fourth to sixth: up; seventh: down), and the event carries them as PokerStars'
        do (third street's last card up), marked inferred (``inferred_from``: the header
        naming the game, and the line).  A line that breaks the order (not three cards
        first and one a street after, a street skipped or gone back to, a folded seat
        dealt to, a card dealt twice) rejects the hand (``stud-deal-order``)."""
        end = action.find("]", 22)
        cards = action[22:end].split() if end > 0 else []
        held = self.stud_held.setdefault(seat.seat, [])
        n = len(held) + len(cards)
        why = None
        if len(cards) != (1 if held else 3) or n > 7:
            why = f"{len(cards)} cards dealt to a seat holding {len(held)}"
        elif any(e.kind == K_FOLD and e.seat == seat.seat for e in self.events):
            why = "cards dealt to a seat that folded"
        elif any(c in self.cards_seen for c in cards):
            why = "a card dealt twice"
        else:
            new = STUD_STREETS[n - 3]
            if new != street and STUD_STREETS.index(new) != STUD_STREETS.index(street) + 1:
                why = f"a {new} street card dealt on {street} street"
        if why is not None:
            raise Reject("stud-deal-order", no, f"line {no}: the deal breaks seven card stud's dealing order "
                         f"({why}): {text.rstrip()!r}")
        self.dealt = True
        held += cards
        self.cards_seen.update(cards)
        self.holes[seat.seat] = " ".join(held)
        if new != street:
            self.new_street(street, new)
        e = self.add(new, K_DEAL_HOLE, no, seat, cards=" ".join(cards))
        e.inferred_from = inferred_from(self.buf[0][0], no)
        return new

    def blind_or_ante(self, no: int) -> None:
        """A blind's all-in before the deal, read as his blind, where others then post
        antes and he posts none ('ante.all.in'): it may as well have been his ante."""
        antes = {e.seat for e in self.events if e.kind == K_ANTE}
        for e in self.events:
            if antes and e.kind in (K_SMALL_BLIND, K_BIG_BLIND) and e.all_in and e.seat not in antes and \
                    (e.text or "").split(" : ", 1)[-1].startswith("All-in"):
                raise Reject("all-in-unclear", e.line_no, f"line {e.line_no}: an all-in before the deal by a blind "
                             f"who posts no ante where others do: his blind or his ante, the record does not say: "
                             f"{e.text!r}")

    def new_street(self, street: str, new: str) -> None:
        if new == street:
            return
        self.committed = {}

    def collect(self, street: str, no: int, text: str, seat: Seat, action: str) -> Event:
        word, _, amount = action.rpartition(" ")
        if word in ("Hand Result", "Hand result"):
            label = None
        elif word.lower() == "hand result-side pot":
            label = "side"
        else:
            raise self.fail(no, text)
        return self.add(street, K_COLLECT, no, seat, amount=self.amt(amount), pot_label=label)

    def showdown(self, street: str, no: int, text: str, seat: Seat, action: str) -> None:
        if action.startswith("Showdown"):  # the cards shown are those dealt: the line's are not read
            hole = self.holes.get(seat.seat)
            if hole is None:
                raise self.fail(no, text, "a showdown by a player whose cards were not dealt in the record")
            self.add(street, K_SHOW, no, seat, cards=hole)
        elif action.startswith("Mucks"):
            cards = BOARD.findall(action)
            self.add(street, K_MUCK, no, seat, cards=cards[0] if cards else None)
        elif action.startswith("Does not show"):
            cards = BOARD.findall(action)
            self.add(street, K_NO_SHOW, no, seat, cards=cards[0] if cards else None)
        else:
            raise self.fail(no, text)

    def put(self, seat: Seat, chips: int, no: int, text: str) -> None:
        left = self.left[seat.seat] - chips
        if left < 0:
            raise self.fail(no, text, "more chips than the player has")
        self.left[seat.seat] = left

    def action(self, hand: ParsedHand, street: str, no: int, text: str, seat: Seat, action: str) -> None:
        if action.startswith("Card dealt to a spot ["):
            end = action.find("]", 22)
            hole = action[22:end].strip() if end > 0 else ""
            if not hole:
                raise self.fail(no, text, "a deal with no cards")
            self.holes[seat.seat] = hole
            self.add(street, K_DEAL_HOLE, no, seat, cards=hole)
            return
        if action == "Folds":  # the commonest action: no pattern needed
            self.add(street, K_FOLD, no, seat)
            return
        post, _, amount_text = action.rpartition(" ")
        kind = POSTS.get(post)
        if self.stud and post.startswith(("Big blind/Bring in", "Bring_in chip")):
            kind = K_BRING_IN  # 'Big blind/Bring in(timeout) 5': posted for a player who timed out
        committed = self.committed
        if kind == K_BRING_IN:
            amount = self.amt(amount_text)
            self.put(seat, amount, no, text)
            committed[seat.seat] = committed.get(seat.seat, 0) + amount
            if hand.bring_in is None:
                hand.bring_in = amount
            self.add(street, kind, no, seat, amount=amount, all_in=self.left[seat.seat] == 0)
            return
        if kind is not None:
            amount = self.amt(amount_text)
            if post == "Posts chip" and amount != self.bb_posted:
                # a live post other than the big blind (a returning player's small one: 'Posts chip $5' at $5/$10)
                if self.bb_posted is None or amount > self.bb_posted:
                    raise self.fail(no, text, "a post that is no blind of the hand")
                kind = K_SMALL_BLIND
            if post.startswith("Big blind") or post == "Big Blind":
                self.bb_posted = amount
            self.put(seat, amount, no, text)
            if kind != K_ANTE:
                # the dead part of both blinds is the small one: the live part is the big blind posted
                live = min(amount, hand.big_blind or self.bb_posted or amount) if kind == K_DEAD_BLIND else amount
                committed[seat.seat] = committed.get(seat.seat, 0) + live
            self.add(street, kind, no, seat, amount=amount, all_in=self.left[seat.seat] == 0)
            return
        if action.startswith("Return uncalled portion of bet "):
            amount = self.amt(action[31:])
            self.left[seat.seat] += amount
            committed[seat.seat] = committed.get(seat.seat, 0) - amount
            self.add(street, K_UNCALLED_RETURN, no, seat, amount=amount)
            return
        verb, _, args = action.partition(" ")
        note: str | None = None
        if verb not in PLAIN_VERBS or args.startswith("(") or (verb == "Bets" and args.startswith("chip info")):
            # ACTION's verbs begin with one of its initials: a line that does not (the showdown's,
            # the table's) is not tried
            m = ACTION.match(action) if action[:1] in ACTION_INITIALS else None
            if m is None:
                self.other_line(street, no, text, seat, action)
                return
            verb, note, args_read = m.group("verb", "note", "args")  # one call, not three
            args = args_read or ""
        if verb == "All-in" and not self.dealt:
            # before the deal only antes and blinds are posted, the antes first: 'Big Blind : All-in $8'
            # is the big blind's post, all in; 'UTG : All-in 12' (no blind), or a blind's all-in while
            # others post antes and he has posted none, is the ante
            kind = {"Small Blind": K_SMALL_BLIND, "Big Blind": K_BIG_BLIND}.get(seat.player.split(" [")[0])
            antes = any(e.kind == K_ANTE for e in self.events)
            if kind is None or (antes and not any(e.kind == K_ANTE and e.seat == seat.seat for e in self.events)):
                if kind is not None and any(e.kind in (K_SMALL_BLIND, K_BIG_BLIND) for e in self.events):
                    raise self.fail(no, text, "an all-in before the deal after the blinds by a blind", "all-in-unclear")
                kind = K_ANTE
            if note:
                raise self.fail(no, text)
            amount = self.amt(args)
            self.put(seat, amount, no, text)
            if kind != K_ANTE:
                committed[seat.seat] = committed.get(seat.seat, 0) + amount
            self.add(street, kind, no, seat, amount=amount, all_in=self.left[seat.seat] == 0)
            return
        if verb == "Checks":
            self.add(street, K_CHECK, no, seat)
            return
        if verb == "Fold" or verb == "Folds":
            self.add(street, K_FOLD, no, seat)
            return
        level = _highest(committed)
        mine = committed.get(seat.seat, 0)
        to_amount: int | None
        if verb == "All-in" and note and note.startswith("raise"):
            rm = RAISE_TO.match(args)
            if rm is not None:
                added_text, to_text = rm.group(1, 2)
                added, to_amount = self.amt(added_text), self.amt(to_text)
                if added != to_amount - mine:
                    raise self.fail(no, text, "the chips added do not reach the total raised to")
                amount = added
            else:  # 'All-in(raise) Y' (2012): Y the total, as in 'Raises Y'; all in: his whole stack
                to_amount = self.amt(args)
                added, amount = to_amount - mine, to_amount - level
                if added != self.left[seat.seat]:
                    raise self.fail(no, text, f"all-in raise to {to_amount} with {mine} in and "
                                    f"{self.left[seat.seat]} behind", "all-in-unclear")
            kind = K_RAISE
        elif verb == "All-in":
            added = self.amt(args)
            if added != self.left[seat.seat]:
                raise self.fail(no, text, f"all-in for {added} with {self.left[seat.seat]} behind", "all-in-unclear")
            to_amount = mine + added
            if level == 0:
                kind, amount = K_BET, added
            elif to_amount <= level:
                kind, amount, to_amount = K_CALL, added, None
            else:
                kind, amount = K_RAISE, added
        elif verb == "Raises":
            rm = RAISE_TO.match(args)
            if rm is not None:  # 'Raises X to Y': X the chips added
                added_text, to_text = rm.group(1, 2)
                amount, to_amount = self.amt(added_text), self.amt(to_text)
                if amount != to_amount - mine:
                    raise self.fail(no, text, "the chips added do not reach the total raised to")
            else:  # 'Raises Y': the total
                to_amount = self.amt(args)
                amount = to_amount - level
            added = to_amount - mine
            kind = K_RAISE
        elif verb in ("Bets", "Bets chip info", "Double bets", "D bets"):  # stud: a double bet on an open pair
            kind, amount = K_BET, self.amt(args)
            added = to_amount = amount
        elif verb in ("Calls", "Call"):
            kind, amount, to_amount = K_CALL, self.amt(args), None
            added = amount
        else:
            raise self.fail(no, text)
        self.put(seat, added, no, text)
        self.added[no] = added
        committed[seat.seat] = mine + added
        self.add(street, kind, no, seat, amount=amount, to_amount=to_amount, all_in=self.left[seat.seat] == 0)

    def other_line(self, street: str, no: int, text: str, seat: Seat, action: str) -> None:
        """A player's line that is no post, return or bet: the showdown, a collect, or the table's."""
        if action.startswith(SHOWDOWN_WORDS) and street in BETTING_STREETS:
            if action.startswith(("Hand Result", "Hand result")):
                self.collects.append(self.collect(street, no, text, seat, action))
            else:
                self.showdown(street, no, text, seat, action)
        elif not action.startswith(IGNORED_ACTIONS):
            raise self.fail(no, text)

    # -- summary ------------------------------------------------------------------------

    def summary_line(self, no: int, text: str) -> None:
        # each pattern is tried only on a line that can match it (the most of a summary's lines
        # are seats' with no amount and no cards: 'Seat+3: UTG Folded before the FLOP')
        if text.startswith("Total Pot("):
            tm = TOTAL_POT.match(text)
            if tm:
                total, rake = tm.group("total", "rake")
                self.add(S_SUMMARY, K_TOTAL_POT, no, amount=self.amt(total),
                         to_amount=self.amt(rake) if rake else None)
                return
        if text.startswith("Board ["):
            self.board_line = (no, text)
            return
        if (" : " in text and ACTOR.match(text)) or (" in chips)" in text and SEAT.match(text)) or \
                ("Hand #" in text and HEADER.match(text)):
            raise Reject("truncated", no, f"line {no}: another hand's line in the summary (a hand cut off, the "
                         f"rest of another glued on): {text!r}")
        number_rest = _summary_seat(text)
        if number_rest is None:
            raise self.fail(no, text)
        number, rest = number_rest
        if self.stud:
            # 'Seat 5:  97 [Does not show]', 'Seat+5:  HI $73.50  with Straight [<seven>-<best five>]':
            # the seat by its number (the player 'Seat+5')
            stud_seat = self.seats.get(f"Seat+{number}")
            if stud_seat is None:
                raise self.fail(no, text, "summary seat line for a player not in the hand")
            halves = HALF_WON.findall(rest)
            won = WON.match(rest)
            amount = sum(self.amt(x) for x in halves) if halves else self.amt(won.group(1)) if won else None
            cards = BOARD.findall(rest)
            self.add(S_SUMMARY, K_SEAT_RESULT, no, stud_seat, amount=amount,
                     cards=cards[0].split("-")[0] if cards else None)
            return
        if not self.labels_longest:
            self.labels_longest = sorted(self.seats, key=len, reverse=True)
        for label in self.labels_longest:
            if rest.startswith(label):
                break
        else:
            raise self.fail(no, text, "summary seat line for a player not in the hand")
        seat = self.seats[label]
        tail = rest[len(label):]
        if tail.startswith(" [ME]"):
            tail = tail[5:]
        first = tail[1:2]  # WON's first character after the space
        won = WON.match(tail) if first == "$" or first == "," or first.isdecimal() else None
        cards = BOARD.findall(tail) if "[" in tail else []
        self.add(S_SUMMARY, K_SEAT_RESULT, no, seat, amount=self.amt(won.group(1)) if won else None,
                 cards=cards[-1] if cards else None)

SITE: Final = StarsSite(
    name="bovada",
    label="Bovada",
    id_prefix="BOV-",
    # every line is tested for these, each in turn (PokerStars: two): enough to rule out a
    # line that header_start cannot match ('Board [' is the one line a hand that passes)
    header_prefixes=("Bo", "Ig"),
    header_start=re.compile(BRANDS),
    hand_start=re.compile(rb"^(?:\xef\xbb\xbf)?(?:" + BRAND.encode() + rb") Hand #", re.M),
    header=HEADER,
    tourney=TOURNEY,
    cash=CASH,
    header_anywhere=re.compile(BRANDS + r"\d+"),
    glued_key=" Hand #",
    site="bovada",
)


class BovadaParser(StarsFamilyParser):
    """Bovada / Ignition / Bodog text histories: the family cuts the hands, :class:`_BovadaHand` reads them."""

    def __init__(self) -> None:
        super().__init__(SITE)

    def reader(self, buf: list[tuple[int, int, str]], cut_by: int | None, scale: int) -> Any:
        return _BovadaHand(self.site, buf, cut_by, scale)
