"""iPoker XML hand histories (sessions of many games; cash and tournaments, board games and stud).

The XML is read by a real XML parser, streamed: expat (``xml.parsers.expat``, set up as
``xml.etree.ElementTree.XMLParser`` sets it up) is fed the source line by line and calls the
reader's handlers, so every element knows the line its start tag ends on, and no element
tree is built.  A game is turned
into a :class:`~parsers.base.ParsedHand` when its ``</game>`` is read, then dropped:
memory holds one game and the session's ``<general>`` at a time.

What the format records and what it leaves out (see docs/sites.md):

* the session's ``<general>`` names the game and stakes (``Holdem NL $0.02/$0.04``,
  ``Omaha PL €0,50/€1``), the table and, for tournaments, the tournament;
* each ``<player>`` has its stack (``chips``), the button (``dealer``), what it put in net of
  any return (``bet``) and what it won (``win``, after rake);
* each ``<action>`` has a type code and ``sum``, the chips it added; actions are ordered
  by their ``no`` (some exports list a round's actions by player);
* cards of players who did not show are ``X``: only visible cards become events;
* a seated player with no cards (no ``<cards>`` element at all), no action and ``bet="0"``
  was not dealt in: an ``out_of_hand`` event (street summary, inferred from the
  ``<player>`` element; the seat ``sitting_out``), as for a player who sits out (types 8
  and 9) or PokerStars' 'out of hand'.

The format writes no uncalled-bet return, no collect line and no total pot.  What its
own numbers imply is recorded as inferred events (``inferred_from``: the lines of the
elements they follow from), on the line of the element that implies them:

* ``uncalled_return``: chips a player put in beyond its ``bet`` attribute;
* ``collect``: the ``win`` attribute, from the pot (``pot_label`` ``pot``);
* ``total_pot``: the sum of the ``bet`` attributes less the return; rake = that total less the
  wins in cash games (never below none), none in tournaments;
* ``show``: visible cards of players still in at a showdown.

Amounts are exact integers: cents (or finer, if an amount or the session's totals have more
decimals) for cash, chips (or their hundredths: ``2,697.50``) for tournaments.  The decimal
mark is the session's where its stakes show one (``€0,50``, ``$0.02``); else each amount's
marks say (``parsers.numbers``: the number formats and currencies are its tables).

Games, limits, card spellings and the words an action's sum may hold instead of an amount
are tables (``_GAMES``, ``_LIMITS``, ``_SUITS``/``_RANKS``, ``_SUM_WORDS``): a new wording is
an entry.  An element inside a game that is not understood (an action type, an amount,
cards, a player not seated) is kept as an ``unread`` event on its round's street
(``parsers.base.unread_event``); a game with no players, a seat or a round not understood
is rejected.

>>> xml = '''<session sessioncode="1"><general><gametype>Holdem NL $0.01/$0.02</gametype>
... <tablename>T, 5</tablename></general>
... <game gamecode="42"><general><startdate>2011-01-02 03:04:05</startdate><players>
... <player seat="1" name="Ann" chips="$2" dealer="1" win="$0.07" bet="$0.05"/>
... <player seat="2" name="Bob" chips="$2" dealer="0" win="$0" bet="$0.02"/>
... </players></general>
... <round no="0"><action no="1" player="Ann" type="1" sum="$0.01"/>
... <action no="2" player="Bob" type="2" sum="$0.02"/></round>
... <round no="1"><cards type="Pocket" player="Ann">SA HK</cards><cards type="Pocket" player="Bob">X X</cards>
... <action no="3" player="Ann" type="23" sum="$0.05"/><action no="4" player="Bob" type="0" sum="$0"/></round>
... </game></session>'''
>>> lines = ((i, 0, t) for i, t in enumerate(xml.splitlines(), 1))
>>> [h] = IPokerParser().iter_hands(lines, "x.xml")
>>> h.hand_id, h.variant, h.betting, h.small_blind, h.big_blind, h.amount_scale, h.button_seat
('IP-42', 'holdem', 'no-limit', 1, 2, 100, 1)
>>> [(e.kind, e.seat, e.amount, e.to_amount, e.cards) for e in h.events]  # doctest: +NORMALIZE_WHITESPACE
[('small_blind', 1, 1, None, None), ('big_blind', 2, 2, None, None), ('deal_hole', 1, None, None, 'As Kh'),
 ('raise', 1, 3, 5, None), ('fold', 2, None, None, None), ('uncalled_return', 1, 3, None, None),
 ('collect', 1, 4, None, None), ('total_pot', None, 4, 0, None)]
"""

from __future__ import annotations

import datetime as dt
import xml.parsers.expat as expat
from xml.sax.saxutils import escape, quoteattr
from dataclasses import dataclass
from typing import Final, Iterator

from auditor.schema import Betting, EventKind, Street, Variant, betting_streets
from parsers.base import (MAX_DECIMALS, NOT_TEXT, Event, HandError, ParsedHand, Reject as _Reject, Rescale as _Rescale, Seat, inferred_from,
                          sha256_hex, unread_event)
from parsers.numbers import currency_code, read_amount, split_amount

SITE = "ipoker"

# the words of the session's gametype before its limit, lower case -> variant.  '' (no
# name: 'PL €2/€4', the 5-card Omaha sessions of 2019-2022): the game is the one its
# players' pocket cards say (_NAMELESS_GAMES)
_NAMELESS = ""
_GAMES = {
    "holdem": Variant.HOLDEM.value,
    "six plus holdem": Variant.SIX_PLUS_HOLDEM.value,
    "omaha": Variant.OMAHA.value,
    "omaha hi-lo": Variant.OMAHA_HILO.value,
    "omaha hilow": Variant.OMAHA_HILO.value,
    "7 card stud": Variant.STUD.value,
    "7 card stud hi-lo": Variant.STUD_HILO.value,
    "7 card stud hilow": Variant.STUD_HILO.value,
    "5 card stud": Variant.FIVE_CARD_STUD.value,
    _NAMELESS: _NAMELESS,
}
# a gametype with no game name: the number of cards in each player's <cards type="Pocket">
# -> the variant (iPoker writes the name of every other game it deals)
_NAMELESS_GAMES = {5: Variant.OMAHA5.value}
# the limit word(s), in the languages iPoker's clients write (Spanish 'SL' sin límite,
# Russian 'БЛ' без лимита, Italian 'LP' limite piatto; 'No limit', 'Pot limit' spelt out)
_LIMITS = {
    "nl": Betting.NO_LIMIT.value,
    "no limit": Betting.NO_LIMIT.value,
    "sl": Betting.NO_LIMIT.value,
    "бл": Betting.NO_LIMIT.value,
    "pl": Betting.POT_LIMIT.value,
    "lp": Betting.POT_LIMIT.value,
    "pot limit": Betting.POT_LIMIT.value,
    "l": Betting.FIXED_LIMIT.value,
    "limit": Betting.FIXED_LIMIT.value,
}
_STUD = frozenset({Variant.STUD.value, Variant.STUD_HILO.value, Variant.FIVE_CARD_STUD.value})
# board cards by the <cards type> of their round
_BOARD = {"Flop": Street.FLOP.value, "Turn": Street.TURN.value, "River": Street.RIVER.value}
_STUD_CARDS = {
    "Third Street": Street.THIRD.value,
    "Fourth Street": Street.FOURTH.value,
    "Fifth Street": Street.FIFTH.value,
    "Sixth Street": Street.SIXTH.value,
    "River": Street.SEVENTH.value,
}
_BOARD_ROUNDS = {0: Street.PREFLOP.value, 1: Street.PREFLOP.value, 2: Street.FLOP.value, 3: Street.TURN.value,
                 4: Street.RIVER.value}
_STUD_ROUNDS = {0: Street.THIRD.value, 1: Street.THIRD.value, 2: Street.THIRD.value, 3: Street.FOURTH.value,
                4: Street.FIFTH.value, 5: Street.SIXTH.value, 6: Street.SEVENTH.value}
# 5-card stud: its rounds, its cards' types ('Second Street' is one card down and one up, the 'River' the fifth card)
_STUD5_ROUNDS = {0: Street.SECOND.value, 1: Street.SECOND.value, 2: Street.SECOND.value, 3: Street.THIRD.value,
                 4: Street.FOURTH.value, 5: Street.FIFTH.value}
_STUD5_CARDS = {
    "Second Street": Street.SECOND.value,
    "Third Street": Street.THIRD.value,
    "Fourth Street": Street.FOURTH.value,
    "River": Street.FIFTH.value,
}
# action type codes
FOLD, SMALL_BLIND, BIG_BLIND, CALL, CHECK, BET, RAISE_LIMIT, ALL_IN = "0", "1", "2", "3", "4", "5", "6", "7"
SITS_OUT, WAITS, ANTE, BRING_IN, RAISE = "8", "9", "15", "16", "23"
# a card is written suit first, then rank ('SA', 'H10'; also 'c10', 'DT'): each as written
# -> as the log writes it
_SUITS = {"S": "s", "H": "h", "D": "d", "C": "c", "s": "s", "h": "h", "d": "d", "c": "c"}
_RANKS = {"2": "2", "3": "3", "4": "4", "5": "5", "6": "6", "7": "7", "8": "8", "9": "9", "10": "T", "T": "T", "t": "T",
          "J": "J", "j": "J", "Q": "Q", "q": "Q", "K": "K", "k": "K", "A": "A", "a": "A"}
_HIDDEN = ("X", "x")  # a card the record does not show
# what an action's sum may say instead of an amount, by its type: (type, word) -> event kind.
# 'DP' on an all-in (type 7): the site's disconnect protection played him all in for what
# he had put in, his chips behind kept (the win attributes pay him the pots he was in)
_SUM_WORDS = {("7", "DP"): EventKind.DISCONNECT_ALL_IN.value}

# plain str values (events and hands carry strings, not enum members), as module constants:
# compiled, each is a load where an attribute of a namespace was a lookup
K_ANTE: Final = EventKind.ANTE.value
K_BET: Final = EventKind.BET.value
K_BIG_BLIND: Final = EventKind.BIG_BLIND.value
K_BRING_IN: Final = EventKind.BRING_IN.value
K_CALL: Final = EventKind.CALL.value
K_CHECK: Final = EventKind.CHECK.value
K_COLLECT: Final = EventKind.COLLECT.value
K_COMPLETE: Final = EventKind.COMPLETE.value
K_DEAD_BLIND: Final = EventKind.DEAD_BLIND.value
K_DEAL_BOARD: Final = EventKind.DEAL_BOARD.value
K_DEAL_HOLE: Final = EventKind.DEAL_HOLE.value
K_FOLD: Final = EventKind.FOLD.value
K_OUT_OF_HAND: Final = EventKind.OUT_OF_HAND.value
K_RAISE: Final = EventKind.RAISE.value
K_SHOW: Final = EventKind.SHOW.value
K_SMALL_BLIND: Final = EventKind.SMALL_BLIND.value
K_TOTAL_POT: Final = EventKind.TOTAL_POT.value
K_UNCALLED_RETURN: Final = EventKind.UNCALLED_RETURN.value
S_SHOWDOWN: Final = Street.SHOWDOWN.value
S_SUMMARY: Final = Street.SUMMARY.value


class _Shape:
    """How the elements of one tag and attribute names (in document order) are written, made
    once for each such shape (an element kind writes its names in one order): where each
    name's value is, and the start tag and the game-identity line (the tag and
    ``repr(sorted(attrib.items()))``) as the text between the values, so that writing one
    out is a join, where it was a call a value."""

    def __init__(self, tag: str, names: list[str]) -> None:
        self.tag = tag
        self.names = names
        n = len(names)
        self.index = {name: i for i, name in enumerate(names)}
        self.order = sorted(range(n), key=names.__getitem__)  # the values' places in the names' sorted order
        self.open: list[str] = [f"<{tag}"]  # the start tag: the text before each value, and after the last
        self.identity: list[str] = [f"{tag} ["]
        for i in range(n):
            self.open[-1] += f' {names[i]}="'
            self.open.append('"')
            self.identity[-1] += f"({names[self.order[i]]!r}, '"
            self.identity.append("')" + (", " if i + 1 < n else ""))
        self.identity[-1] += "]"
        self.empty = self.open[:-1] + [self.open[-1] + "/>"]  # the element with no text, whole


def _interleave(pieces: list[str], values: list[str]) -> str:
    """The text of ``pieces`` with ``values`` between them."""
    parts = [pieces[0]]
    for i in range(len(values)):
        parts.append(values[i])
        parts.append(pieces[i + 1])
    return "".join(parts)


# tag -> the shape of its last element (most elements have their tag's last shape), and every
# shape by tag and names; at most _MAX_SHAPES of each (past that, made each time)
_LAST_SHAPE: dict[str, _Shape] = {}
_SHAPES: dict[tuple[str, ...], _Shape] = {}
_MAX_SHAPES = 256


def _shape(tag: str, attrs: list[str]) -> _Shape:
    """The shape of an element of ``tag`` with ``attrs`` (expat's list of names and values)."""
    shape = _LAST_SHAPE.get(tag)
    if shape is not None and len(shape.names) * 2 == len(attrs):
        same = True
        for i, name in enumerate(shape.names):
            if attrs[2 * i] != name:
                same = False
                break
        if same:
            return shape
    names = attrs[0::2]
    key = (tag, *names)
    shape = _SHAPES.get(key)
    if shape is None:
        shape = _Shape(tag, names)
        if len(_SHAPES) < _MAX_SHAPES:
            _SHAPES[key] = shape
    if len(_LAST_SHAPE) < _MAX_SHAPES:
        _LAST_SHAPE[tag] = shape
    return shape


def _attr(attrs: list[str], name: str, default: str) -> str:
    """An attribute's value from expat's list of names and values (``default`` if none)."""
    for i in range(0, len(attrs) - 1, 2):
        if attrs[i] == name:
            return attrs[i + 1]
    return default


@dataclass(slots=True, init=False)
class _Node:
    """An element as read: its tag, attributes, text and the line its start tag ends on."""

    tag: str
    values: list[str]  # the attribute values in document order
    shape: _Shape  # (their names)
    line: int
    text: str
    # no value holds a character that XML or repr() would escape (False: not known, they are
    # checked; the game's hash marks every element of a game whose values need no escape)
    plain: bool

    # written out: mypyc compiles it, where a dataclass's generated __init__ runs interpreted
    def __init__(self, tag: str, attrs: list[str], line: int) -> None:
        """``attrs``: expat's list of attribute names and values, in turn."""
        self.tag = tag
        self.line = line
        self.text = ""
        self.values = attrs[1::2]
        self.shape = _shape(tag, attrs)
        self.plain = False

    def get(self, name: str) -> str | None:
        """The attribute's value, None if the element has none."""
        i = self.shape.index.get(name)
        return None if i is None else self.values[i]

    def attr(self, name: str, default: str = "") -> str:
        """The attribute's value, ``default`` if the element has none."""
        i = self.shape.index.get(name)
        return default if i is None else self.values[i]

    def has(self, name: str) -> bool:
        return name in self.shape.index

    def xml(self) -> str:
        """The element written back as XML (the event's text): its tag, attributes in their
        order and text, escaped where a value needs it.

        >>> n = _Node("cards", ["type", "Pocket", "player", 'A "&"'], 3); n.text = "SA <X>"; n.xml()
        '<cards type="Pocket" player=\\'A "&amp;"\\'>SA &lt;X&gt;</cards>'
        >>> _Node("a", [], 1).xml(), _Node("b", ["x", "1"], 1).xml()
        ('<a/>', '<b x="1"/>')
        """
        values = self.values
        if not self.plain and ("&" in "".join(values) or "<" in "".join(values) or '"' in "".join(values)):
            head = "<" + self.tag + "".join(f" {k}={quoteattr(v)}" for k, v in zip(self.shape.names, values))
        else:
            text = self.text
            if not text:
                return _interleave(self.shape.empty, values)
            head = _interleave(self.shape.open, values)
        text = self.text
        if not text:
            return head + "/>"
        if "&" in text or "<" in text or ">" in text:
            text = escape(text)
        return f"{head}>{text}</{self.tag}>"

    def identity(self) -> str:
        """The element's line of the game's identity: its tag and ``repr(sorted(attrib.items()))``
        (see :func:`_content_hash`).

        >>> _Node("a", ["b", "2", "a", "1"], 1).identity(), _Node("r", [], 1).identity()
        ("a [('a', '1'), ('b', '2')]", 'r []')
        >>> all(_Node("x", [x for kv in d.items() for x in kv], 1).identity() == "x " + repr(sorted(d.items())) for d in (
        ...     {"a": "it's", "b": ""}, {"a": "x\\ny", "c": "{}%s"}, {"%": "1", "b": "%s"}, {"z": "1"}, {"b": "2", "a": "1", "c": "3"}))
        True
        """
        parts: list[str] = []
        self.identity_into(parts)
        return "".join(parts)

    def identity_into(self, parts: list[str]) -> None:
        """:meth:`identity`, its pieces appended to ``parts`` (the game's hash joins them all at once)."""
        shape = self.shape
        values = self.values
        if not self.plain:
            flat = "".join(values)
            if "'" in flat or "\\" in flat or not flat.isprintable():  # repr's escapes or its other quote
                parts.append(self.tag + " " + repr(sorted(zip(shape.names, values))))
                return
        pieces, order = shape.identity, shape.order
        parts.append(pieces[0])
        for i in range(len(order)):
            parts.append(values[order[i]])
            parts.append(pieces[i + 1])


@dataclass(slots=True, init=False)
class _Game:
    code: str
    line: int
    offset: int
    startdate: str | None
    players: list[_Node]
    rounds: list[tuple[_Node, list[_Node]]]  # (round, its cards and actions)
    last_line: int

    # written out, as _Node's is (one a game)
    def __init__(self, code: str, line: int, offset: int) -> None:
        self.code = code
        self.line = line
        self.offset = offset
        self.startdate = None
        self.players = []
        self.rounds = []
        self.last_line = 0


@dataclass(slots=True, init=False)
class _Session:
    general: dict[str, str]
    line: int
    # what every game of the session reads alike, read once: its gametype, and the amounts
    # as written -> their value, by (scale, decimal mark)
    gametype_text: str | None
    gametype: _GameType | str
    amounts: dict[tuple[int, str | None], dict[str | None, int]]
    # the finest amount scale a game of the session was read at: the games after it are read
    # at it too, so that one table's hands keep one unit (a tournament's stacks are written
    # in whole chips until its first half chip, '2,697.50')
    scale: int
    totals_read: bool  # the scale of the session's totals (its <general>'s bets, wins...) is read

    def __init__(self, line: int = 0) -> None:
        self.general = {}
        self.line = line
        self.gametype_text = None
        self.gametype = ""
        self.amounts = {}
        self.scale = 1
        self.totals_read = False


# the session's <general> fields that total its games' amounts
_SESSION_TOTALS = ("bets", "wins", "chipsin", "chipsout")


def _totals_scale(general: dict[str, str], decimal_mark: str | None) -> int:
    """The finest scale the session's totals need (1 if none is written or read), at most
    10 ** MAX_DECIMALS.

    >>> _totals_scale({"bets": "391,605.93", "wins": "N/A"}, None), _totals_scale({"bets": "N/A"}, None)
    (100, 1)
    """
    scale = 1
    for key in _SESSION_TOTALS:
        text = general.get(key)
        if not text:
            continue
        try:
            read_amount(text, scale, decimal_mark)
        except _Rescale as r:
            if r.digits <= MAX_DECIMALS:
                scale = 10**r.digits
        except ValueError:
            continue
    return scale


def parse_amount(text: str, scale: int, decimal_mark: str | None) -> int:
    """An amount as written, in stored units: ``decimal_mark`` None where the session does
    not show it (tournament chips; stakes of whole units), else the session's decimal mark
    (``parsers.numbers``: the number formats and currencies are its tables).

    >>> parse_amount('€1,214.15', 100, '.'), parse_amount('€0,50', 100, ','), parse_amount('1.500', 1, None)
    (121415, 50, 1500)
    >>> parse_amount('RSD2', 100, '.'), parse_amount('2,030', 1, None), parse_amount('$0', 100, '.')
    (200, 2030, 0)
    >>> parse_amount('3,252.50', 100, None), parse_amount('€301,49', 100, None)
    (325250, 30149)
    >>> parse_amount('€12,34', 100, '.')
    Traceback (most recent call last):
    ValueError: not an amount: '€12,34'
    """
    return read_amount(text, scale, decimal_mark)


def _card(text: str) -> str | None:
    """'SK' -> 'Ks', 'C10' -> 'Tc', 'c10' -> 'Tc', 'DT' -> 'Td'; None for a hidden card ('X')."""
    if text in _HIDDEN:
        return None
    suit, rank = _SUITS.get(text[:1]), _RANKS.get(text[1:])
    if suit is None or rank is None:
        raise ValueError(f"not a card: {text!r}")
    return rank + suit


# every card as written -> as the log writes it ('SK' -> 'Ks'; a hidden 'X' -> ''): one lookup a card
_CARD_NAMES = {suit + rank: _RANKS[rank] + _SUITS[suit] for suit in _SUITS for rank in _RANKS}
_CARD_NAMES.update({h: "" for h in _HIDDEN})


def _cards(text: str) -> str | None:
    """The visible cards of a <cards> text, as the log writes them (None if none).

    >>> _cards("SA H10 X"), _cards("X X"), _cards("c10 DT sq")
    ('As Th', None, 'Tc Td Qs')
    """
    names = []
    for t in text.split():
        name = _CARD_NAMES.get(t)
        if name is None:
            name = _card(t) or ""  # not a card: _card says which
        if name:
            names.append(name)
    return " ".join(names) or None


def _parse_date(text: str | None) -> dt.datetime | None:
    if not text:
        return None
    if len(text) == 19 and text[4] == "-":
        try:
            return dt.datetime.fromisoformat(text)  # '2013-07-30 20:33:30', most games: the fast way
        except ValueError:
            pass
    for fmt in ("%Y-%m-%d %H:%M:%S", "%Y/%m/%d %H:%M:%S", "%d/%m/%Y %H:%M", "%d.%m.%Y %H:%M:%S", "%d-%b-%Y %H:%M:%S"):
        try:
            return dt.datetime.strptime(text.strip(), fmt)
        except ValueError:
            continue
    return None


@dataclass(slots=True, init=False)
class _GameType:
    variant: str
    betting: str
    stakes: tuple[str, str] | None  # as written; None for tournaments
    limit_bets: tuple[str, str] | None = None  # 'LH 20/40 x2 Limit ...': the fixed-limit bets, the stakes are the blinds
    currency_symbol: str | None = None

    # written out, as _Node's is
    def __init__(self, variant: str, betting: str, stakes: tuple[str, str] | None,
                 limit_bets: tuple[str, str] | None = None, currency_symbol: str | None = None) -> None:
        self.variant = variant
        self.betting = betting
        self.stakes = stakes
        self.limit_bets = limit_bets
        self.currency_symbol = currency_symbol


def parse_gametype(text: str) -> _GameType | str:
    """The session's gametype, or why it cannot be read.

    >>> g = parse_gametype('Omaha Pot limit $100.00/$200.00 Ante $0.00'); g.variant, g.betting, g.stakes
    ('omaha', 'pot-limit', ('$100.00', '$200.00'))
    >>> g = parse_gametype('PL €0,50/€1'); g.variant, g.betting, g.stakes
    ('', 'pot-limit', ('€0,50', '€1'))
    >>> parse_gametype('Razz L $0.05/$0.10')
    'game not supported: Razz L $0.05/$0.10'
    """
    words = text.split()
    if words[:1] == ["LH"] and "Limit" in words:  # 'LH 20/40 x2 Limit $10.00/$20.00'
        bets = words[1].split("/")
        stakes = words[words.index("Limit") + 1 :]
        if len(bets) != 2 or len(stakes) != 1 or stakes[0].count("/") != 1:
            return f"gametype not understood: {text}"
        sb, bb = stakes[0].split("/")
        return _GameType(Variant.HOLDEM.value, Betting.FIXED_LIMIT.value, (sb, bb), (bets[0], bets[1]), _symbol(sb))
    for i in range(len(words)):
        for n in (2, 1):
            limit = " ".join(words[i : i + n]).lower()
            if limit in _LIMITS and (n == 2 or i + 1 == len(words) or "/" in words[i + 1]):
                game = " ".join(words[:i]).lower()
                if game not in _GAMES:
                    return f"game not supported: {text}"
                rest = words[i + n :]
                if not rest:
                    return _GameType(_GAMES[game], _LIMITS[limit], None)
                if rest[0].count("/") != 1 or not (len(rest) == 1 or rest[1] == "Ante"):
                    return f"stakes not understood: {text}"
                sb, bb = rest[0].split("/")
                return _GameType(_GAMES[game], _LIMITS[limit], (sb, bb), None, _symbol(sb))
    return f"gametype not understood: {text}"


def _symbol(amount: str) -> str:
    """The currency an amount is written with ('' if none)."""
    try:
        return split_amount(amount)[0]
    except ValueError:
        return ""


class IPokerParser:
    """Reads iPoker XML sessions (see the module docstring)."""

    name = "ipoker"

    def detect(self, head: str, path: str) -> bool:
        """An iPoker ``<session sessioncode=`` element near the start, or a ``<root>`` holding games.

        >>> IPokerParser().detect('<?xml version="1.0"?>\\n<session sessioncode="1">', "a.txt")
        True
        >>> IPokerParser().detect("PokerStars Hand #1:", "a.xml")
        False
        >>> IPokerParser().detect('<root><general><mode>real</mode></general><game gamecode="1">', "a.xml")
        True
        """
        start = head[:4096]
        return "<session sessioncode=" in start or ("<root>" in start and "<game gamecode=" in start)

    def iter_hands(self, lines: Iterator[tuple[int, int, str]], path: str,
                   cut_by_end: int | None = None) -> Iterator[ParsedHand | HandError]:
        reader = _StreamReader()
        for line_no, offset, text in lines:
            parser = reader.parser
            if parser is None:  # the file's start, or after an XML error
                yield from reader.feed(line_no, offset, text)
                continue
            # most lines: one call into expat, nothing finished (what feed_rest does, inline)
            reader.line, reader.offset = line_no, offset
            try:
                parser.Parse(text + "\n")
            except expat.ExpatError as e:
                yield from reader._flush()
                yield from reader._xml_error(e, line_no, text)
                continue
            if reader.out:
                yield from reader._flush()
        yield from reader.finish()


# the element a session's games are in: '<session sessioncode="N">', or '<root>' (RedStar's client of 2025-2026,
# a real export of a EUR 2 MYSTERY [7-Max] tournament: the same <general> and <game> elements)
_ROOTS: Final[tuple[str, ...]] = ("session", "root")
_RESYNC = ("<?xml", "<session", "<root>", "<game ", "<game>")


class _StreamReader:
    """Feeds lines to expat (``xml.parsers.expat``) and turns each finished game into a hand.

    expat calls the reader's ``start`` and ``end`` while a line is fed, so an element's line
    is the line being fed, and no element tree is built.  The parser is set up as
    ``xml.etree.ElementTree.XMLParser`` sets up the same expat (namespaces, undefined
    entities), so what it accepts and the errors it reports are ElementTree's.
    After an XML error the game being read is rejected and reading starts again at the
    next session or game start tag, so the games after a damaged one still go in."""

    def __init__(self) -> None:
        self.session = _Session()
        self.parser: expat.XMLParserType | None = None
        self.first_line = 0  # the source line fed to the parser as its line 1
        self.first_col = 0  # the column of line 1 where the parser's input starts
        self.game: _Game | None = None
        self.game_depth = 0  # the open game's depth in the element stack
        self.general_depth = 0  # inside the session's <general>: its depth in the element stack
        self.round: tuple[_Node, list[_Node]] | None = None
        self.stack: list[str] = []
        # the text of an element that is wanted is what expat reads between its start (which
        # empties the list) and the next end: its character data goes straight into this list
        # (the list's append, a C call, is the handler) only then, so the whitespace between
        # the other elements costs no call at all
        self.chunks: list[str] = []
        self.wants_text = False
        self.namespaced = False  # a namespace was declared: names are written as ElementTree writes them
        self.has_doctype = False  # a document type was declared: undefined entities are errors, as in ElementTree
        self.text_node: _Node | None = None  # the cards element that text belongs to
        self.out: list[ParsedHand | HandError] = []  # finished while the line was fed
        self.games_read = 0  # the games this parser finished (since it started: _start_parser)
        self.line = 0
        self.offset = 0

    def _start_parser(self, line_no: int, col: int, wrap: bool) -> None:
        # namespaces on, with '}' between a name's URI and local part, as ElementTree's parser
        # (names not interned: a name is used once, where interning looks each up in a dict)
        parser = self.parser = expat.ParserCreate(namespace_separator="}", intern=None)
        parser.ordered_attributes = True  # a list of names and values, in turn: no dict to build
        parser.StartElementHandler = self.start
        parser.EndElementHandler = self.end
        parser.StartNamespaceDeclHandler = self.namespace_declared
        parser.StartDoctypeDeclHandler = self.doctype_declared
        self.namespaced = self.has_doctype = False
        self.first_line, self.first_col = line_no, col
        self.stack = []
        self.game = None
        self.games_read = 0
        self.game_depth = 0
        self.round = None
        self.general_depth = 0
        self.wants_text = False
        if wrap:  # a game start without its session: give it a root
            parser.Parse("<session>")
            self.first_col -= len("<session>")

    def feed(self, line_no: int, offset: int, text: str) -> Iterator[ParsedHand | HandError]:
        self.line, self.offset = line_no, offset
        if self.parser is None:
            # the file's start, or after an XML error: read on from a session or game start tag
            found = self._resync_point(text, 0)
            if found is None:
                return
            self._start_parser(line_no, found[0], found[1])
            yield from self.feed_rest(line_no, text, found[0])
            return
        yield from self.feed_rest(line_no, text, 0)

    def _resync_point(self, text: str, start: int) -> tuple[int, bool] | None:
        best = None
        for marker in _RESYNC:
            i = text.find(marker, start)
            if i >= 0 and (best is None or i < best[0]):
                best = (i, marker.startswith("<game"))
        return best

    def _xml_error(self, e: expat.ExpatError, line_no: int, text: str) -> Iterator[ParsedHand | HandError]:
        err_line, err_col = e.lineno, e.offset
        src_line = self.first_line + err_line - 1
        col = err_col + (self.first_col if err_line == 1 else 0)
        msg = str(e).split(":")[0]
        game = self.game
        self.parser = None
        if game is not None:
            yield HandError(src_line, "xml-error", f"line {src_line}: the XML of game {game.code} (line {game.line}) is "
                            f"broken ({msg}); the game is not stored", f"IP-{game.code}")
        if src_line == line_no:
            found = self._resync_point(text, max(col, 0))
            if found is not None:
                if game is None and found[0] != max(col, 0):
                    yield self._outside(src_line, msg, text[max(col, 0):found[0]])
                self._start_parser(line_no, found[0], found[1])
                yield from self.feed_rest(line_no, text, found[0])
                return
        if game is None and not text[max(col, 0):].lstrip().startswith(_RESYNC):
            yield self._outside(src_line, msg, text[max(col, 0):] if src_line == line_no else "")

    def _outside(self, src_line: int, msg: str, text: str) -> HandError:
        """The error of text outside any game, from line ``src_line`` to the next session or
        game start (``text``: that line's, from the error on).  After the session's end (its
        root element closed, with a game read), text that holds a character no history writes
        (``parsers.base.NOT_TEXT``) is binary junk appended to the file, as the text families
        read it: an ``unread-lines`` error, no hand (``parsers.base.NOT_HANDS``: ingest counts it
        neither as a hand seen nor as rejected).  Else an ``xml-error``.  (The games are read
        either way: an error outside any game rejects none.)"""
        if not self.stack and self.games_read and NOT_TEXT.search(text) is not None:
            return HandError(src_line, "unread-lines", f"line {src_line}: {msg}: after the session's end, text that holds "
                             f"characters no hand history writes ({text[:40]!r}...): not read, and not counted as a hand")
        return HandError(src_line, "xml-error", f"line {src_line}: {msg}: text outside any game is skipped")

    def feed_rest(self, line_no: int, text: str, col: int) -> Iterator[ParsedHand | HandError]:
        assert self.parser is not None
        try:
            self.parser.Parse(text[col:] + "\n" if col else text + "\n")
        except expat.ExpatError as e:
            yield from self._flush()
            yield from self._xml_error(e, line_no, text)
            return
        if self.out:
            yield from self._flush()

    def _flush(self) -> Iterator[ParsedHand | HandError]:
        out, self.out = self.out, []
        yield from out

    def finish(self) -> Iterator[ParsedHand | HandError]:
        """The end of the source: what the parser still holds, and a game left open."""
        if self.parser is not None:
            try:
                self.parser.Parse("", True)
            except expat.ExpatError as e:
                # 'no element found': a session cut after its last game has no '</session>', nothing
                # is lost; anything else is a token left open (a comment, a declaration) that ran on
                # to the end of the file, over whatever followed it
                if e.code != 3 and self.game is None:
                    err_line = self.first_line + e.lineno - 1
                    self.out.append(HandError(err_line, "xml-error", f"line {err_line}: {str(e).split(':')[0]}: "
                                              "what follows it to the end of the file could not be read"))
        yield from self._flush()
        game = self.game
        if game is not None:
            # the file ends inside a game: stored only when its actions account for every
            # player's bet attribute, the record's own proof that no action is missing
            game.last_line = self.line
            yield _read_game(game, self.session, cut_at=self.line)
        self.game = None

    # -- expat's handlers: called as it reads ----------------------------------------------

    def start(self, tag: str, attrib: list[str]) -> None:
        """``attrib``: the attribute names and values, in turn (expat's ``ordered_attributes``)."""
        if self.namespaced:
            tag, attrib = _universal(tag), [_universal(v) if i % 2 == 0 else v for i, v in enumerate(attrib)]
        stack = self.stack
        parent = stack[-1] if stack else None
        stack.append(tag)
        game = self.game
        if game is not None:
            if tag == "action" or tag == "cards":
                if parent == "round" and self.round is not None:
                    node = _Node(tag, attrib, self.line)
                    self.round[1].append(node)
                    if tag == "cards":
                        self._want_text()
                        self.text_node = node
                return
            if tag == "player":
                if parent == "players":
                    game.players.append(_Node(tag, attrib, self.line))
                return
            if tag == "round":
                if parent == "game":
                    self.round = (_Node(tag, attrib, self.line), [])
                    game.rounds.append(self.round)
                return
            if tag == "startdate":
                self._want_text()
                return
        if tag in _ROOTS:
            if attrib or not self.session.general:  # not the root given to a game read on after an error
                self.session = _Session(line=self.line)
        elif tag == "game":
            if game is not None:
                # XML allows a game inside a game; the record does not: the open one was cut off
                self.out.append(HandError(game.line, "truncated", f"line {game.line}: game {game.code} has no "
                                          f"'</game>': game {_attr(attrib, 'gamecode', '?')} starts inside it at line "
                                          f"{self.line}", f"IP-{game.code}"))
            self.game = _Game(_attr(attrib, "gamecode", ""), self.line, self.offset)
            self.chunks.clear()  # (the whitespace so far: no text is wanted outside an element that wants it)
            self.game_depth = len(stack)
            self.round = None
        elif parent in _ROOTS and tag == "general":
            self.general_depth = len(stack)
        elif self.general_depth and len(stack) == self.general_depth + 1:
            self._want_text()  # a field of the session's <general>

    def _want_text(self) -> None:
        """The character data from here to the next end tag is an element's text."""
        self.chunks.clear()
        self.wants_text = True
        if not self.has_doctype:
            assert self.parser is not None
            self.parser.CharacterDataHandler = self.chunks.append

    def end(self, tag: str) -> None:
        if self.namespaced:
            tag = _universal(tag)
        stack = self.stack
        depth = len(stack)
        stack.pop()
        if self.wants_text:
            text = "".join(self.chunks).strip()
            self.wants_text = False
            if not self.has_doctype:
                assert self.parser is not None
                self.parser.CharacterDataHandler = None
            if self.text_node is not None:
                self.text_node.text = text
                self.text_node = None
            elif tag == "startdate" and self.game is not None:
                self.game.startdate = text
            elif self.general_depth:
                self.session.general[tag] = text
            return
        if tag == "round":
            self.round = None
        elif tag == "game" and depth == self.game_depth and self.game is not None:
            game = self.game
            self.game = None
            self.game_depth = 0
            game.last_line = self.line
            self.chunks.clear()
            self.games_read += 1
            self.out.append(_read_game(game, self.session))
        elif depth == self.general_depth:
            self.general_depth = 0  # the session's </general>

    def namespace_declared(self, prefix: str | None, uri: str | None) -> None:
        self.namespaced = True

    def doctype_declared(self, name: str, system_id: str | None, public_id: str | None, internal_subset: int) -> None:
        """A document type: ElementTree's parser then reports an entity reference that expat
        leaves to it (one the document's DTD does not define) as an error; it sees expat's
        character data all along, so that references to defined entities go there."""
        assert self.parser is not None
        self.has_doctype = True
        self.parser.CharacterDataHandler = self.chunks.append
        self.parser.DefaultHandlerExpand = self.undefined_entity

    def undefined_entity(self, data: str) -> None:
        if len(data) >= 2 and data[0] == "&":
            assert self.parser is not None
            line, col = self.parser.CurrentLineNumber, self.parser.CurrentColumnNumber
            err = expat.ExpatError(f"undefined entity {data.encode()[:100].decode(errors='replace')}: line {line}, "
                                   f"column {col}")
            err.code, err.lineno, err.offset = expat.errors.codes[expat.errors.XML_ERROR_UNDEFINED_ENTITY], line, col
            raise err


def _universal(name: str) -> str:
    """A name in a namespace as ElementTree writes it: expat's 'uri}local' -> '{uri}local'."""
    return "{" + name if "}" in name else name


# -- one game ------------------------------------------------------------------------


def _read_game(game: _Game, session: _Session, cut_at: int | None = None) -> ParsedHand | HandError:
    """The game as a hand; ``cut_at``: the line where the file ends inside the game."""
    hid = f"IP-{game.code}"
    try:
        if not game.code.isdigit():
            raise _Reject("parse-error", game.line, f"line {game.line}: game code not understood: {game.code!r}")
        scale = 0
        while True:
            try:
                return _GameReader(game, session, scale, cut_at).read()
            except _Rescale as r:
                if r.digits > MAX_DECIMALS:
                    raise _Reject("amount-out-of-range", game.line, f"line {game.line}: an amount has {r.digits} "
                                  f"decimal places: more than {MAX_DECIMALS} cannot be stored exactly")
                scale = 10**r.digits
    except _Reject as rej:
        return HandError(rej.line_no, rej.code, rej.reason, hid)
    except (ValueError, KeyError, IndexError, TypeError) as e:
        return HandError(game.line, "parse-error", f"line {game.line}: game {game.code}: {e}", hid)


_MAX_AMOUNTS = 4096  # amounts a session keeps read

# Sessions whose players' win attribute is what they took from the pot, the uncalled
# chips that went back not counted (the bet attribute still counts them): those that say
# '<uncalled_bet_enabled>true' (clients 18-19) and those of clients from version 20 on,
# which write no such element.  Older sessions count the return in the win.  Seen on the
# corpus: a blind walk pays the big blind the pot less the small blind's return
# ('PL €2/€4' of 2019, 'Omaha PL €0.50/€1' of 2020), a bet no one calls pays its maker the
# pot before it (€2.33 of a €3.55 bet, 2021).  A session that names neither (PMU France's
# tournaments) is read net of the return only where that reading alone balances the game.
_UNCALLED_FLAG = ("uncalled_bet_enabled", "true")
_WIN_NET_FROM_CLIENT = 20


def _win_net_of_return(general: dict[str, str]) -> bool | None:
    """Whether the session's win attributes leave out the uncalled return (see above); None
    where the session says neither (no ``uncalled_bet_enabled``, no ``client_version``).

    >>> _win_net_of_return({"client_version": "21.1.1.9"}), _win_net_of_return({"uncalled_bet_enabled": "true"})
    (True, True)
    >>> _win_net_of_return({}), _win_net_of_return({"client_version": "19.3.5.5"})
    (None, False)
    """
    if general.get(_UNCALLED_FLAG[0]) == _UNCALLED_FLAG[1]:
        return True
    version = general.get("client_version")
    if version is None and _UNCALLED_FLAG[0] not in general:
        return None
    major = (version or "").split(".")[0]
    return major.isdigit() and int(major) >= _WIN_NET_FROM_CLIENT


def _balances_net_only(wins: int, top_win: int, pot: int, returned: int, tournament: bool) -> bool:
    """Where the session does not say its convention: whether the game's wins balance its pot
    (the bets less the return) read net of the return and not read with it (the top
    contributor's win counting the return).  Balancing: the wins are the pot (a tournament)
    or no more than it (cash: the rake is not written).  Both or neither: False (read as
    older sessions are).

    >>> _balances_net_only(290, 290, 290, 1210, True), _balances_net_only(1500, 1500, 290, 1210, True)
    (True, False)
    >>> _balances_net_only(4, 4, 4, 3, False), _balances_net_only(0, 0, 4, 3, False)  # both fit; only net (0 < 3)
    (False, True)
    """
    def fits(total: int) -> bool:
        return total == pot if tournament else 0 <= total <= pot
    return fits(wins) and not (top_win >= returned and fits(wins - returned))


class _NotUnderstood(Exception):
    """An action whose type, or whose amount against its street's bets, is not understood:
    the reader keeps it as an unread event."""


class _GameReader:
    def __init__(self, game: _Game, session: _Session, scale: int, cut_at: int | None = None) -> None:
        self.game = game
        self.cut_at = cut_at
        self.amounts: dict[str | None, int] = {}
        self.session = session
        self.scale = scale
        self.decimal_mark: str | None = None
        self.events: list[Event] = []
        self.committed: dict[int, int] = {}  # chips in on the current street (the live part), by seat
        self.street_commits: dict[str, dict[int, int]] = {}  # the same, for every street
        self.put_in: dict[int, int] = {}

    def amt(self, text: str | None, line: int) -> int:
        value = self.amounts.get(text)  # a game writes the same few amounts again and again
        if value is not None:
            return value
        if text is None:
            raise _Reject("parse-error", line, f"line {line}: an amount is missing")
        try:
            value = self.amounts[text] = parse_amount(text, self.scale, self.decimal_mark)
        except ValueError as e:
            raise _Reject("parse-error", line, f"line {line}: {e}") from None
        return value

    def amt_or_none(self, text: str | None) -> int | None:
        """:meth:`amt`, None where the text is not an amount (a finer scale is still asked for)."""
        if text is None:
            return None
        try:
            value = self.amounts[text] = parse_amount(text, self.scale, self.decimal_mark)
        except ValueError:
            return None
        return value

    def unread(self, street: str, node: _Node, seat: int | None, player: str) -> None:
        """An element not understood, kept as written (``parsers.base.unread_event``): with the
        seat and player it names, if he is seated."""
        self.events.append(unread_event(len(self.events), street, node.line, node.xml(), seat,
                                        player if seat is not None else None))

    def add(self, street: str, kind: str, node: _Node | None, line: int, seat: int | None = None,
            player: str | None = None, amount: int | None = None, to_amount: int | None = None, all_in: bool = False,
            cards: str | None = None, pot_label: str | None = None, inferred: list[int] | None = None) -> None:
        self.events.append(Event(len(self.events), street, kind, line, seat, player, amount, to_amount, all_in, cards,
                                 pot_label, None, node.xml() if node else None, inferred))

    def read(self) -> ParsedHand:
        game, session = self.game, self.session
        general = session.general
        gtext = general.get("gametype", "")
        if gtext != session.gametype_text:
            session.gametype, session.gametype_text = parse_gametype(gtext), gtext
        gt = session.gametype
        if isinstance(gt, str):
            raise _Reject("unsupported-game", game.line, f"line {game.line}: game {game.code}: {gt}")
        tournament = gt.stakes is None
        if not tournament:
            assert gt.stakes is not None
            # the stakes show the session's decimal mark: '€0,50' (a comma and 1-2 digits) or
            # '$0.02' (a point); stakes of whole units ('€2/€4') show none: each amount says
            # (parsers.numbers.read_amount with no decimal mark)
            mark: str | None = None
            for s in gt.stakes:
                for m in (",", "."):
                    whole, sep, frac = s.partition(m)
                    if sep and frac.isdigit() and len(frac) <= 2:
                        mark = m
            self.decimal_mark = mark
        if not session.totals_read:
            # the session's totals show the finest unit its amounts take (a tournament's
            # '<bets>391,605.93</bets>': hundredths of a chip, from its first game on)
            session.totals_read = True
            session.scale = max(session.scale, _totals_scale(general, self.decimal_mark))
        if not self.scale:
            self.scale = max(1 if tournament else 100, session.scale)
        amounts = session.amounts.get((self.scale, self.decimal_mark))
        if amounts is None or len(amounts) > _MAX_AMOUNTS:  # (a session may be long: the cache stays small)
            amounts = session.amounts[(self.scale, self.decimal_mark)] = {}
        self.amounts = amounts
        # a partial export (FPDB's sample holds only the seats and the blinds): the players
        # have no 'win' (nor 'bet'), so the game's outcome is not recorded.  The game is
        # stored as recorded and marked as cut; nothing is inferred from what it lacks
        cut = None
        if not any(p.has("win") for p in game.players):
            cut = ("its actions, cards and results (no round; no 'win' or 'bet' on its players)" if not game.rounds else
                   "the rest of the game after its last action, and its results (no 'win' or 'bet' on its players)")
        variant = gt.variant
        if variant == _NAMELESS:
            variant = self._nameless_game(gtext)
        hand = ParsedHand(
            hand_id=f"IP-{game.code}", site=SITE, format="ipoker", variant=variant, betting=gt.betting,
            first_line=game.line, last_line=game.last_line, byte_offset=game.offset, content_hash=_content_hash(game, general),
            hand_number=game.code, table_name=general.get("tablename") or None, game_label=gtext,
            started_at_text=game.startdate, started_at=_parse_date(game.startdate),
        )
        hand.is_tournament = tournament
        hand.amount_scale = self.scale
        hand.chip_unit = 1
        if tournament:
            self._tournament(hand, general)
        else:
            hand.currency = currency_code(gt.currency_symbol or "") or general.get("tablecurrency") or \
                general.get("currency") or None
        # seats
        names: dict[str, int] = {}
        for p in game.players:
            name = p.attr("name")
            seat_text = p.attr("seat")
            if not seat_text.isdigit():
                raise _Reject("parse-error", p.line, f"line {p.line}: seat not understood: {p.xml()}")
            if p.get("dealer") == "1":
                hand.button_seat = int(seat_text)  # may be an empty seat: a dead button
            if not name:
                continue  # an empty seat
            if name in names:
                raise _Reject("parse-error", p.line, f"line {p.line}: player seated twice: {name!r}")
            seat = int(seat_text)
            names[name] = seat
            hand.seats.append(Seat(seat, name, self.amt(p.get("chips"), p.line), None, False, None, p.line))
        if not hand.seats:
            raise _Reject("parse-error", game.line, f"line {game.line}: game {game.code} has no players")
        stud = variant in _STUD
        if gt.betting == Betting.FIXED_LIMIT.value:
            bets = gt.limit_bets or gt.stakes
            if bets is not None:
                hand.small_bet, hand.big_bet = self.amt(bets[0], game.line), self.amt(bets[1], game.line)
            if gt.limit_bets and gt.stakes:
                hand.small_blind, hand.big_blind = self.amt(gt.stakes[0], game.line), self.amt(gt.stakes[1], game.line)
        elif gt.stakes is not None:
            hand.small_blind, hand.big_blind = self.amt(gt.stakes[0], game.line), self.amt(gt.stakes[1], game.line)
            hand.min_bet = hand.big_blind
        self._rounds(hand, names, stud, variant == Variant.FIVE_CARD_STUD.value)
        if hand.min_bet is None and gt.betting != Betting.FIXED_LIMIT.value:
            hand.min_bet = hand.big_blind
        if self.cut_at is not None and not game.rounds:
            # the file ends before the game's first round: its players may not all be read
            raise _Reject("truncated", game.line, f"line {game.line}: game {game.code} is cut off: the file ends at "
                          f"line {self.cut_at}, before its first round")
        if cut is None and self.cut_at is not None:
            # the file ends inside the game: kept whole when its actions account for every
            # player's 'bet' attribute (the '</game>' alone is missing), else cut short
            put_in_written = [(p, p.get("bet")) for p in game.players if p.get("name")]
            if any(b is not None and self.amt(b, p.line) != self.put_in.get(names[p.attr("name")], 0)
                   for p, b in put_in_written):
                last = max((e.line_no for e in self.events), default=game.line)
                cut = (f"the actions after line {last} and its end (the file ends at line {self.cut_at} before its "
                       "'</game>'); its players' 'win' and 'bet' attributes are kept in its text, not read as results")
        if cut is None:
            if game.rounds:
                self._not_dealt(hand, names)
            self._results(hand, names)
        hand.record_cut = cut
        hand.events = self.events
        if self.scale > session.scale:
            session.scale = self.scale
        return hand

    def _nameless_game(self, gtext: str) -> str:
        """The variant of a game whose gametype names none ('PL €2/€4'): the one
        ``_NAMELESS_GAMES`` gives for the number of cards every player's pocket holds."""
        counts = {len(c.text.split()) for _, items in self.game.rounds for c in items
                  if c.tag == "cards" and c.attr("type") == "Pocket"}
        variant = _NAMELESS_GAMES.get(min(counts)) if len(counts) == 1 else None
        if variant is None:
            game = self.game
            raise _Reject("unsupported-game", game.line, f"line {game.line}: game {game.code}: the gametype names no "
                          f"game ({gtext}) and its pocket cards ({', '.join(map(str, sorted(counts))) or 'none'} a "
                          "player) name none iPoker is known to write so")
        return variant

    def _tournament(self, hand: ParsedHand, general: dict[str, str]) -> None:
        name = general.get("tournamentname") or None
        table = general.get("tablename") or ""
        tid = general.get("tournamentcode") or None
        if tid is None:
            for text in (name or "", table):
                i = text.rfind("(#")
                if i >= 0 and text.endswith(")") and text[i + 2 : -1].isdigit():
                    tid = text[i + 2 : -1]
                    break
        if tid is None and ", " in table:
            # older sessions: 'SPF $100 Daily Tournament, 611669111' (the number is the tournament's)
            head, _, tail = table.rpartition(", ")
            first = tail.split()[0] if tail.split() else ""
            if first.isdigit():
                tid = first
                name = name or head
        hand.tournament_id = tid
        hand.tournament_name = name
        hand.buy_in = general.get("buyin") or None
        hand.currency = None

    def _rounds(self, hand: ParsedHand, names: dict[str, int], stud: bool, stud5: bool) -> None:
        streets = _STUD5_ROUNDS if stud5 else _STUD_ROUNDS if stud else _BOARD_ROUNDS
        card_streets = _STUD5_CARDS if stud5 else _STUD_CARDS if stud else _BOARD
        # stud: its betting rounds in order (the bring-in's first; the second's open pair; the big bet's)
        self.stud_rounds: tuple[str, ...] = tuple(s.value for s in betting_streets(hand.variant, "stud")) if stud else ()
        antes: list[int] = []
        bring_in_seen = False
        street: str | None = None
        self.last_street = streets[0]
        self.folded: set[int] = set()
        self.last_action: dict[int, tuple[int, _Node]] = {}
        self.completed = False  # stud: the bring-in was completed
        self.upcards: dict[int, list[str]] = {}  # stud: ranks of the up cards of its first two rounds, by seat
        self.out_of_hand: dict[int, int] = {}  # seat -> line of its sitting-out action
        self.carded: set[str] = set()  # players some <cards> element names
        self.acted: set[int] = set()  # seats with some <action>
        self.shown_lines: dict[int, tuple[str, _Node]] = {}
        rounds = sorted(self.game.rounds, key=lambda r: int(r[0].attr("no", "-1")))
        events, amounts = self.events, self.amounts
        for rnode, items in rounds:
            no_text = rnode.attr("no")
            round_no = int(no_text) if no_text.isdigit() else -1
            if round_no not in streets:
                raise _Reject("parse-error", rnode.line, f"line {rnode.line}: round not understood: {rnode.xml()}")
            new_street = streets[round_no]
            if new_street != street:
                self.committed = self.street_commits.setdefault(new_street, {})
            street = new_street
            # the round's cards first, in document order; then its actions, by their number.  An
            # element not understood is kept as an unread event on its round's street
            for c in items:
                if c.tag != "cards":
                    continue
                ctype = c.attr("type")
                who = c.attr("player")
                self.carded.add(who)
                seat_of = names.get(who)
                try:
                    cards = _cards(c.text)
                except ValueError:
                    self.unread(street, c, seat_of, who)
                    continue
                if ctype == "Pocket" and not stud:
                    if seat_of is None:
                        self.unread(street, c, None, who)  # cards for a player not seated
                        continue
                    if cards:
                        self.add(street, K_DEAL_HOLE, c, c.line, seat_of, who, cards=cards)
                        self.shown_lines[seat_of] = (cards, c)
                elif stud and ctype in card_streets and who:
                    if card_streets[ctype] != street or seat_of is None:
                        self.unread(street, c, seat_of, who)
                        continue
                    last = c.text.split()[-1:] if c.text else []
                    if street in self.stud_rounds[:2] and last and last[0] not in _HIDDEN:
                        # third's last card and fourth's are up (5-card stud: second's and third's): their ranks
                        self.upcards.setdefault(seat_of, []).append(_CARD_NAMES[last[0]][:1])
                    if cards:
                        self.add(street, K_DEAL_HOLE, c, c.line, seat_of, who, cards=cards)
                        prev = self.shown_lines.get(seat_of)
                        self.shown_lines[seat_of] = ((prev[0] + " " if prev else "") + cards, c)
                elif not stud and ctype in card_streets and card_streets[ctype] == street and cards:
                    self.add(street, K_DEAL_BOARD, c, c.line, cards=cards)
                else:
                    self.unread(street, c, seat_of, who)  # board cards missing, or on another round
            # (number, document order, action): sorted by number, in document order among equals;
            # an action with no number has no place among them: unread, after them
            numbered: list[tuple[int, int, _Node]] = []
            unnumbered: list[_Node] = []
            for a in items:
                if a.tag == "action":
                    number = a.attr("no")
                    if number.isdigit():
                        numbered.append((int(number), len(numbered), a))
                    else:
                        unnumbered.append(a)
            numbered.sort()
            for _, _, a in numbered:
                who = a.attr("player")
                if who not in names:
                    self.unread(street, a, None, who)  # an action by a player not seated
                    continue
                seat = names[who]
                self.acted.add(seat)
                kind_code = a.attr("type")
                sum_text = a.get("sum")
                sums = amounts.get(sum_text)  # (amt's own cache, looked up without the call)
                if sums is None:
                    word = _SUM_WORDS.get((kind_code, sum_text or ""))
                    if word is not None:
                        # no amount: the site played him all in (its disconnect protection)
                        self.add(street, word, a, a.line, seat, who, all_in=True)
                        self.last_action[seat] = (a.line, a)
                        continue
                    opt = self.amt_or_none(sum_text)
                    if opt is None:
                        self.unread(street, a, seat, who)  # an amount not understood
                        continue
                    sums = opt
                if kind_code in (SITS_OUT, WAITS):
                    if sums or self.put_in.get(seat):
                        # he sits out with chips in: the record does not say what became of them
                        self.unread(street, a, seat, who)
                        continue
                    self.add(S_SUMMARY, K_OUT_OF_HAND, a, a.line, seat, who)
                    self.out_of_hand[seat] = a.line
                    for s in hand.seats:
                        if s.seat == seat:
                            s.sitting_out = True
                    continue
                in_before = self.committed.get(seat)
                try:
                    kind, amount, to_amount, all_in = self._action(hand, kind_code, sums, seat, street, stud, a,
                                                                   bring_in_seen)
                except _NotUnderstood:
                    # a type not understood, or an amount its street's bets make no sense of
                    if in_before is None:
                        self.committed.pop(seat, None)
                    else:
                        self.committed[seat] = in_before
                    self.unread(street, a, seat, who)
                    continue
                if kind == K_ANTE:
                    antes.append(amount or 0)
                elif kind == K_BRING_IN:
                    bring_in_seen = True
                self.put_in[seat] = self.put_in.get(seat, 0) + self.added
                # what add does, without the call (the event of most elements)
                events.append(Event(len(events), street, kind, a.line, seat, who, amount, to_amount, all_in, None,
                                    None, None, a.xml()))
                self.last_action[seat] = (a.line, a)
                if kind == K_FOLD:
                    self.folded.add(seat)
                if round_no > 0 or kind not in (K_ANTE, K_SMALL_BLIND, K_BIG_BLIND, K_DEAD_BLIND):
                    self.last_street = street
            for a in unnumbered:
                who = a.attr("player")
                self.unread(street, a, names.get(who), who)
        for ev in self.events:
            if ev.kind != K_OUT_OF_HAND and ev.street != S_SUMMARY and ev.seat in self.out_of_hand:
                raise _Reject("sat-out-in-hand", ev.line_no, f"line {ev.line_no}: {ev.player} plays after sitting out "
                              f"(line {self.out_of_hand[ev.seat]}): {ev.text}")
        if antes:
            hand.ante = max(antes)
            hand.bb_ante = False

    def _not_dealt(self, hand: ParsedHand, names: dict[str, int]) -> None:
        """A seated player with no cards (no <cards> element names him, not even ``X X``),
        no action and ``bet="0"`` was not dealt in (a player seated in a tournament who waits
        for the button): out of the hand, as a seat that sits out, the event inferred from
        his <player> element.  All three must hold: a player dealt in has a <cards>
        element, and one who posts or antes has a bet.  A player with neither cards nor an
        action whose ``bet`` is not 0 makes the record contradict itself: the hand is
        rejected (``inconsistent-record``), neither statement preferred."""
        for p in self.game.players:
            name = p.get("name")
            if not name or name in self.carded or names[name] in self.acted:
                continue
            bet = p.get("bet")
            if bet is None:
                continue
            if self.amt(bet, p.line) != 0:
                # chips put in by a player the record neither deals in nor shows acting: the
                # record contradicts itself (no client writes it; an edited history does)
                raise _Reject("inconsistent-record", p.line, f"line {p.line}: {name} has no cards and no action, but "
                              f"a bet attribute of {bet}: {p.xml()}")
            seat = names[name]
            self.add(S_SUMMARY, K_OUT_OF_HAND, p, p.line, seat, name, inferred=inferred_from(p.line))
            self.out_of_hand[seat] = p.line
            for s in hand.seats:
                if s.seat == seat:
                    s.sitting_out = True

    def _action(self, hand: ParsedHand, code: str, sums: int, seat: int, street: str, stud: bool, a: _Node,
                bring_in_seen: bool) -> tuple[str, int | None, int | None, bool]:
        committed = self.committed
        self.added = sums  # chips the action adds (type 23 writes the raise-to total instead)
        before = committed.get(seat, 0)
        current = 0  # the street's largest commitment (what max(..., default=0) gives: amounts are never negative)
        for v in committed.values():
            if v > current:
                current = v
        after = before + sums
        if code == FOLD:
            return K_FOLD, None, None, False
        if code == CHECK:
            return K_CHECK, None, None, False
        if code == ANTE:
            return K_ANTE, sums, None, False
        if code == SMALL_BLIND:
            committed[seat] = after
            if hand.small_blind is None:
                hand.small_blind = sums
            return K_SMALL_BLIND, sums, None, False
        if code == BIG_BLIND:
            if hand.big_blind is None:
                hand.big_blind = sums
            if sums > hand.big_blind:
                # small and big blind posted together (out of position): the big-blind part is live
                committed[seat] = before + hand.big_blind
                return K_DEAD_BLIND, sums, None, False
            committed[seat] = after
            return K_BIG_BLIND, sums, None, False
        if code == BRING_IN:
            committed[seat] = after
            if hand.bring_in is None:
                hand.bring_in = sums
            return K_BRING_IN, sums, None, False
        if code not in (CALL, BET, RAISE, RAISE_LIMIT, ALL_IN):
            raise _NotUnderstood("action type not understood")
        if code == RAISE:
            # type 23 writes the total the raise goes to on the street, not the chips added
            after = sums
            sums = self.added = after - before
            if sums <= 0:
                raise _NotUnderstood("a raise to less than already in")
        committed[seat] = after
        all_in = code == ALL_IN
        rounds = self.stud_rounds
        if stud and street == rounds[0] and bring_in_seen and not self.completed and code != CALL and after > current:
            # the first bet over the bring-in completes it (to the small bet, or all-in for less)
            self.completed = True
            if hand.small_bet is None and not all_in:
                hand.small_bet = after  # tournaments: the session names no stakes
            return K_COMPLETE, sums, after, all_in
        # what the street's bets make no sense of (checked before any limit is taken from it)
        if code == BET and current > 0:
            raise _NotUnderstood("a bet facing a bet")
        if code == CALL and after > current:
            raise _NotUnderstood("a call past the bet")
        if code in (RAISE, RAISE_LIMIT) and current == 0:
            raise _NotUnderstood("a raise with no bet to raise")
        if stud and code == BET and not all_in and hand.small_bet is None and street == rounds[0] and current == 0:
            hand.small_bet = sums  # tournaments, no bring-in (its player all-in on the ante): the opening bet
        if stud and code == BET and not all_in and hand.small_bet is None and street == rounds[1] \
                and not any(len(up) != len(set(up)) for up in self.upcards.values()):
            hand.small_bet = sums  # tournaments: a fourth-street bet with no open pair is the small bet
        if stud and hand.big_bet is None and code == BET and not all_in and street in rounds[2:]:
            hand.big_bet = sums  # tournaments: the first full bet of the late streets
        if code == CALL or (code == ALL_IN and after <= current):
            return K_CALL, sums, None, all_in
        if current == 0:
            return K_BET, sums, sums, all_in
        return K_RAISE, after - current, after, all_in

    def _results(self, hand: ParsedHand, names: dict[str, int]) -> None:
        """The events the record implies but does not write (see the module docstring)."""
        put_in = self.put_in
        street = self.last_street
        # the uncalled part of the last bet: what the largest contributor put in beyond
        # the next largest (the players' bet attributes count it as put in: it is not netted)
        returned = 0
        top_seat = None
        return_lines: list[int] = []  # the last actions of the two biggest commitments
        last = self.street_commits.get(street, {})
        if last:
            ranked = sorted(last.items(), key=lambda kv: kv[1], reverse=True)
            top_seat, top = ranked[0]
            second = ranked[1][1] if len(ranked) > 1 else 0
            if top > second:
                returned = top - second
                line, node = self.last_action[top_seat]
                return_lines = inferred_from(line, self.last_action[ranked[1][0]][0] if len(ranked) > 1 else None)
                self.add(street, K_UNCALLED_RETURN, node, line, top_seat, node.get("player"), returned,
                         inferred=return_lines)
        in_at_end = [s.seat for s in hand.seats if s.seat in put_in and s.seat not in self.folded]
        showdown = len(in_at_end) >= 2
        if showdown:
            for seat in in_at_end:
                if seat in self.shown_lines:
                    cards, node = self.shown_lines[seat]
                    player = next(s.player for s in hand.seats if s.seat == seat)
                    self.add(S_SHOWDOWN, K_SHOW, node, node.line, seat, player, cards=cards, inferred=[node.line])
        total = 0
        player_lines: list[int] = []
        results: list[tuple[_Node, str, int]] = []  # (player element, name, win as written)
        for p in self.game.players:
            name = p.get("name")
            if not name:
                continue
            bet = self.amt(p.get("bet"), p.line)
            if self.cut_at is not None and bet != put_in.get(names[name], 0):
                game = self.game
                raise _Reject("truncated", game.line, f"line {game.line}: game {game.code} is cut off: the file ends at "
                              f"line {self.cut_at} before its '</game>', and the actions read do not account for "
                              f"{name}'s bet attribute ({p.get('bet')})")
            total += bet
            player_lines.append(p.line)
            results.append((p, name, self.amt(p.get("win"), p.line)))
        net = _win_net_of_return(self.session.general)
        if net is None:
            # no client version: read net of the return where only that reading balances the record
            net = bool(returned) and _balances_net_only(
                sum(w for _, _, w in results), next((w for _, n, w in results if names[n] == top_seat), 0),
                total - returned, returned, hand.is_tournament)
        wins = 0
        for p, name, win in results:
            won_from = [p.line]
            if returned and names[name] == top_seat and not net:
                # the win attribute counts the uncalled chips that went back: the rest came from the pot
                if win < returned:
                    raise _Reject("inconsistent-record", p.line, f"line {p.line}: {name} won {p.get('win')}, "
                                  f"less than the {returned} of the last bet no one called: {p.xml()}")
                win -= returned
                won_from = inferred_from(p.line, *return_lines)
            wins += win
            if win:
                self.add(S_SHOWDOWN if showdown else street, K_COLLECT, p, p.line, names[name], name, win,
                         pot_label="pot", inferred=won_from)
        total -= returned
        # the rake is what the pot kept: none in a tournament, never less than none (awards beyond
        # the pot are then found by the chip-conservation check, not hidden in a negative rake)
        rake = 0 if hand.is_tournament else max(0, total - wins)
        # the players' bet attributes less the uncalled return; rake = that less their wins (cash), none (tournaments)
        self.add(S_SUMMARY, K_TOTAL_POT, None, self.game.line, amount=total, to_amount=rake,
                 inferred=inferred_from(*player_lines, *return_lines))


def _content_hash(game: _Game, general: dict[str, str]) -> str:
    """The game's identity from what was read (not its layout): the same game exported
    with other spacing or attribute order is the same game."""
    # one check of all the game's values: where none needs an escape (most games), no element's are checked
    nodes = list(game.players)
    for rnode, items in game.rounds:
        nodes.append(rnode)
        nodes += items
    values: list[str] = []
    for n in nodes:
        values += n.values
    flat = "".join(values)
    if not ("&" in flat or "<" in flat or '"' in flat or "'" in flat or "\\" in flat) and flat.isprintable():
        for n in nodes:
            n.plain = True
    # its lines: the session's fields, the game's, then an element a line (all joined at once)
    parts = [f"gametype={general.get('gametype', '')}\ntablename={general.get('tablename', '')}\n"
             f"tournamentcode={general.get('tournamentcode', '')}\ngame={game.code} {game.startdate}"]
    for p in game.players:
        parts.append("\n")
        p.identity_into(parts)
    for rnode, items in game.rounds:
        parts.append(f"\nround {rnode.get('no')}")
        for n in items:
            parts.append("\n")
            n.identity_into(parts)
            parts.append(" ")
            parts.append(n.text)
    return sha256_hex("".join(parts).encode())
