"""What PartyPoker and 888poker (Pacific, Cassava) histories share.

Both sites write one shape, inherited from PartyPoker's client of the 2000s::

    #Game No : 171407432
    ***** Cassava Hand History for Game 171407432 *****
    5$/10$ Blinds No Limit Holdem - *** 04 05 2012 07:59:45
    Table Frisco (Real Money)
    Seat 1 is the button
    Total number of players : 4
    Seat 1: Hero ( 50$ )
    Player0 posts small blind [5$]
    ** Dealing down cards **
    Player2 raises [284,48$]

Amounts are in brackets, in the local number format of the player's client
("1,500", "222,75$", "5 000 $"); a bet, call or raise gives the chips the
player adds, not a raise-to total.  Neither site writes a line for an uncalled
bet, and the win lines of some years include the uncalled chips.  This module
reads the shared lines; :mod:`parsers.partypoker` and :mod:`parsers.pacific`
read the header and the settlement lines that are each site's own.

What the format leaves out but its other lines imply is recorded as an
*inferred* event: its ``inferred_from`` names the lines it follows from, its
``text`` is the line it is placed on (see docs/sites.md).  Nothing is repaired.

>>> family_units("1,500", 1), family_units("222,75$", 100), family_units("5\\xa0000\\xa0$", 1)
(1500, 22275, 5000)
>>> family_units("$0.01 USD", 100), family_units("€0,35 EUR", 100), family_units("1 123 698", 1)
(1, 35, 1123698)
"""

from __future__ import annotations

import datetime as dt
import re
from typing import Any, ClassVar, Final, Iterator, cast

from auditor.schema import EventKind, Street
from parsers.base import (MAX_DECIMALS, Event, HandError, ParsedHand, Reject, Rescale, Seat, content_hash, inferred_from, junk_after,
                          second_seatless, single_payer_ante, text_after, unread_event, unread_from, unread_lines)
from parsers.numbers import SPACE_SPELLINGS


class _Kinds:
    """The event kinds the family's readers write, as typed str attributes (compiled, a
    read is a field of a native object and a compare a str compare; through a
    SimpleNamespace each use was an attribute look-up and a generic compare)."""

    def __init__(self) -> None:
        self.ANTE = EventKind.ANTE.value
        self.BET = EventKind.BET.value
        self.BIG_BLIND = EventKind.BIG_BLIND.value
        self.BRING_IN = EventKind.BRING_IN.value
        self.CALL = EventKind.CALL.value
        self.CASH_OUT = EventKind.CASH_OUT.value
        self.CHECK = EventKind.CHECK.value
        self.COLLECT = EventKind.COLLECT.value
        self.COMPLETE = EventKind.COMPLETE.value
        self.DEAD_BLIND = EventKind.DEAD_BLIND.value
        self.DEAL_BOARD = EventKind.DEAL_BOARD.value
        self.DEAL_HOLE = EventKind.DEAL_HOLE.value
        self.FINISH = EventKind.FINISH.value
        self.FOLD = EventKind.FOLD.value
        self.MUCK = EventKind.MUCK.value
        self.NO_SHOW = EventKind.NO_SHOW.value
        self.OUT_OF_HAND = EventKind.OUT_OF_HAND.value
        self.RAISE = EventKind.RAISE.value
        self.SEAT_RESULT = EventKind.SEAT_RESULT.value
        self.SHOW = EventKind.SHOW.value
        self.SMALL_BLIND = EventKind.SMALL_BLIND.value
        self.STRADDLE = EventKind.STRADDLE.value
        self.TOTAL_POT = EventKind.TOTAL_POT.value
        self.UNCALLED_RETURN = EventKind.UNCALLED_RETURN.value


class _Streets:
    """The streets the family's readers write (as ``_Kinds``)."""

    def __init__(self) -> None:
        self.FIFTH = Street.FIFTH.value
        self.FLOP = Street.FLOP.value
        self.FOURTH = Street.FOURTH.value
        self.PREFLOP = Street.PREFLOP.value
        self.RIVER = Street.RIVER.value
        self.SEVENTH = Street.SEVENTH.value
        self.SHOWDOWN = Street.SHOWDOWN.value
        self.SIXTH = Street.SIXTH.value
        self.SUMMARY = Street.SUMMARY.value
        self.THIRD = Street.THIRD.value
        self.TURN = Street.TURN.value


K: Final = _Kinds()
S: Final = _Streets()
# what a player posts ('posts big blind [20]'), by the words before the amount
_POSTS: Final[tuple[tuple[str, str], ...]] = (("small blind", K.SMALL_BLIND), ("big blind + dead", K.DEAD_BLIND), ("big blind", K.BIG_BLIND),
          ("ante of", K.ANTE), ("ante", K.ANTE), ("dead blind", K.DEAD_BLIND),
          ("button blind", K.BIG_BLIND))  # Party's Short Deck: the one blind, posted by the button
# the streets, by the words of their '** Dealing <words> **' marker (stud's third: '** Dealing **')
_STREETS: Final = {"down cards": S.PREFLOP, "flop": S.FLOP, "turn": S.TURN, "river": S.RIVER}
_STUD_STREETS: Final = {"": S.THIRD, "fourth street": S.FOURTH, "fifth street": S.FIFTH, "sixth street": S.SIXTH, "river": S.SEVENTH}
# the events that put chips on a street, and those that state a raise-to total
_STREET_CHIPS: Final = frozenset({K.SMALL_BLIND, K.BIG_BLIND, K.DEAD_BLIND, K.CALL, K.BET, K.RAISE, K.COMPLETE, K.BRING_IN})
_TO_TOTAL: Final = frozenset({K.RAISE, K.COMPLETE})
_DEAD_BLIND: Final = K.DEAD_BLIND
_UNCALLED_RETURN: Final = K.UNCALLED_RETURN
_ANTE: Final = K.ANTE
_COLLECT: Final = K.COLLECT
_TOTAL_POT: Final = K.TOTAL_POT
_UNREAD: Final = EventKind.UNREAD.value
# the action words that put chips in, and their events
_CHIP_WORDS: Final = {"calls": K.CALL, "bets": K.BET, "raises": K.RAISE, "completes": K.COMPLETE, "bring-ins": K.BRING_IN}
# phrases of more than one word read as one of those words: Party's stud writes a bet of the big
# bet on fourth street, where an open pair allows it, 'Player4 double bets [120]'
_CHIP_PHRASES: Final[tuple[tuple[str, str], ...]] = (("double bets ", "bets"),)
# the events that put chips in the pot or take them back (a total pot is inferred from their lines)
_CHIP_KINDS: Final = frozenset({K.ANTE, K.SMALL_BLIND, K.BIG_BLIND, K.DEAD_BLIND, K.STRADDLE, K.BRING_IN, K.CALL, K.BET,
                         K.RAISE, K.COMPLETE, K.UNCALLED_RETURN})

# the hand-start marker: '***** [888poker |Cassava ]Hand History [fF]or Game <id> *****'; 888 names a
# game kind after its brand ('***** 888.ro BLAST Hand History for Game N *****'): a brand of up to 3 words
# a hand's start anywhere in a line (glued to junk): the marker, or the lines before it
HAND_START_ANYWHERE: Final = re.compile(r"\*{5} (?:\S+ ){0,3}Hand History [Ff]or Game \w+ \*{5}|Game #\w+ starts\.|#Game No : ")
MARKER: Final = re.compile(r"^\s*\*{5} (?:(?P<brand>\S+(?: \S+){0,2}) )?Hand History [Ff]or Game (?P<num>\w+) \*{5}(?: \((?P<origin>[^()]+)\))?\s*$")
# a marker's groups: brand, number, origin
Marker = tuple["str | None", str, "str | None"]


def marker_fields(text: str) -> Marker | None:
    """``MARKER``'s groups in ``text`` (brand, number, origin), or None: the common shape
    ('***** [brand ]Hand History for Game N *****', printable ASCII, nothing around it) read by
    string methods, any other line by the pattern.

    >>> marker_fields("***** Hand History for Game 5 *****"), marker_fields("***** 888poker Hand History For Game 7 *****")
    ((None, '5', None), ('888poker', '7', None))
    >>> marker_fields("***** Hand History for Game 5 ***** (PokerBros)"), marker_fields("***** Hand History for Game 5 ******")
    ((None, '5', 'PokerBros'), None)
    >>> marker_fields("***** 888.ro BLAST Hand History for Game 1008664844 *****")
    ('888.ro BLAST', '1008664844', None)
    """
    if text.endswith(" *****") and text.startswith("***** ") and text.isascii():
        # (a brand holds no space: the first 'Hand History ' follows it, or the stars)
        at = text.find("Hand History ", 6)
        brand = None if at == 6 else text[6:at - 1]
        if ((at == 6 or (at > 7 and text[at - 1] == " " and brand is not None and " " not in brand and brand.isprintable()))
                and text.startswith("or Game ", at + 14) and text[at + 13] in "Ff"):
            num = text[at + 22:-6]
            if num.isalnum():
                return brand, num, None
    m = MARKER.match(text)
    return cast(Marker, m.groups()) if m else None
# lines that belong to the next hand, before its marker

_SEAT: Final = re.compile(r"^\s*[Ss]eat ?(?P<seat>\d+): (?P<name>.*?) ?\( ?(?P<stack>[^()]*?) ?\)(?P<tail>.*)$")
_BRACKET: Final = re.compile(r"^[\[(]\s*(.*?)\s*[\])]\.?$")
# an amount written with no bracket ('calls 8070', the 2024 tournament export): a currency sign, digits and separators
_BARE_AMOUNT: Final = re.compile(r"^[$€£]?\d[\d.,]*$")
_CARDS: Final = frozenset(r + s for r in "23456789TJQKA" for s in "cdhs")
# card names of the clients' languages, a table a language (a new wording is one entry); the
# English rank and suit letters ('Ts', 'Ah') are read everywhere.  The corpus (fpdb/*/PacificPoker,
# English actions and keywords around them) shows the names quoted below; the others of a table
# complete that language's set of four suits or of the ranks it names by letter:
_RANKS_BY_LANGUAGE: Final[dict[str, dict[str, str]]] = {
    # Swedish: knekt, dam, ess ('Kns', 'Dd', 'Eh': file PLO-6max-USD-25-50-201604.Swedish)
    "sv": {"Kn": "J", "D": "Q", "E": "A"},
    # Dutch: boer, vrouw, heer ('Bh', 'Vs', 'Hc': file 888-PLO-USD-10.00-20.00-201405.dutch)
    "nl": {"B": "J", "V": "Q", "H": "K"},
    # Russian: валет, дама, король, туз (written in cp1251: a file read as cp1252 shows them as
    # 'Â', 'Ä', 'Ê', 'Ò', the same bytes: 'Âh', 'Äc', 'Òd' in file 888-NLHE-USD-0.02-0.04-201107.russian.cards,
    # where the showdown and the collect agree with these ranks)
    "ru": {"В": "J", "Д": "Q", "К": "K", "Т": "A", "Â": "J", "Ä": "Q", "Ê": "K", "Ò": "A"},
}
_SUITS_BY_LANGUAGE: Final[dict[str, dict[str, str]]] = {
    # German: Pik, Herz, Karo, Kreuz ('8Pik, QPik': file 888-NLHE-USD-0.01-0.02-201107.non.english.post.both;
    # its ranks are English)
    "de": {"Pik": "s", "Herz": "h", "Karo": "d", "Kreuz": "c"},
    # French: pique, trèfle ('7p, 8t', '2p': file NLHE-6max-SNG-0.10-201206.hands; hearts and
    # diamonds are written 'h' and 'd' there)
    "fr": {"p": "s", "t": "c"},
}


def _one_table(tables: dict[str, dict[str, str]], english: str) -> dict[str, str]:
    """The languages' names in one table (each English letter reads as itself); a name two
    languages read differently would be a guess, and is refused here, at import."""
    out = {c: c for c in english}
    for language, names in tables.items():
        for name, means in names.items():
            if out.get(name, means) != means:
                raise ValueError(f"card name {name!r} of {language!r} reads {means!r}, another language's {out[name]!r}")
            out[name] = means
    return out


_RANK_NAMES: Final = _one_table(_RANKS_BY_LANGUAGE, "23456789TJQKA")
_SUIT_NAMES: Final = _one_table(_SUITS_BY_LANGUAGE, "cdhs")
# the suit names longest first ('Kreuz' before a one-letter suit)
_SUITS_LONGEST: Final[tuple[tuple[str, str], ...]] = tuple(sorted(_SUIT_NAMES.items(), key=lambda kv: -len(kv[0])))


def local_card(tok: str) -> str | None:
    """A card written in one of the clients' languages, as 'Ts', or None.

    >>> local_card("Kns"), local_card("8Pik"), local_card("Hc"), local_card("7p"), local_card("Âh"), local_card("Xy")
    ('Js', '8s', 'Kc', '7s', 'Jh', None)
    """
    for name, suit in _SUITS_LONGEST:
        if len(tok) > len(name) and tok.endswith(name):
            rank = _RANK_NAMES.get(tok[:-len(name)])
            if rank is not None:
                return rank + suit
    return None


_CURRENCY_WORDS: Final = {"USD": "USD", "EUR": "EUR", "GBP": "GBP", "CAD": "CAD"}
_CURRENCY_SYMBOLS: Final = {"$": "USD", "€": "EUR", "£": "GBP"}

# lines that record nothing for the log: table talk, connection and time-bank notices
_IGNORED_ACTOR: Final[tuple[str, ...]] = (
    "is sitting out", "has joined the table", "has left the table", "will be using his time bank",
    "will be using their time bank",  # the wording of 2015 on
    "did not respond in time", "could not respond in time", "opens", "is disconnected", "is connected",
    "has been disconnected", "sits out", "has returned", "does not show cards",
    # Party 2013: a fold chosen ahead of the turn ('Hero Forward Folds'); the fold itself is
    # written again at the player's turn ('Hero folds'), where it is recorded
    "Forward Folds",
    # Double Hold'em: the point card set after the flop ('Player1 - Selects point card'); which
    # card is not written, so there is nothing to record (docs/sites.md, "Game variants")
    "- Selects point card",
)
_IGNORED_LINE: Final = re.compile(
    r"^(?:Your time bank will be activated|>You have options at |There was no qualifying low hand|"
    r"Creating (?:Main|Side) Pot(?: \d+)? with |"
    r"\((?:Hi|Lo): |Board: \[|Trny: ?\d+ Level: ?\d+\s*$|(?:Blinds|Stakes)(?:-Antes)?\(|Player .+ finished in \d+|"
    r".+ has joined the table\.?$|.+ has left the table\.?$|.+ is sitting out$|Congratulations to player |.+ finished in \d+ place\.?$)"
)


def seat_fields(text: str) -> tuple[int, str, str] | None:
    """(seat, name, stack) of a seat line, as ``_SEAT`` reads it; string methods
    read the common shape, the pattern the rest.

    >>> seat_fields("Seat 5: Ann ( 1,500 )"), seat_fields("seat 2: Bo (b) ($5)"), seat_fields("Seat 1: Cy  (7) x")
    ((5, 'Ann', '1,500'), (2, 'Bo', 'b'), (1, 'Cy ', '7'))
    """
    # (the fields' ends found by index, then one slice a field: a slice is a new string)
    t = text.lstrip()
    colon = t.find(": ")
    num = ""
    if colon > 4:
        num = t[5:colon] if t[4] == " " else t[4:colon]
    opened = t.find("(", colon + 2)
    closed = t.find(")", opened + 1) if opened >= 0 else -1
    # (isdigit, not isdecimal: the same on ASCII, and compiled a direct call, not a method's by name)
    if ((t.startswith("Seat") or t.startswith("seat")) and num.isdigit() and num.isascii() and closed > 0
            and t.find("(", opened + 1, closed) < 0):
        name_end = opened - 1 if opened > colon + 2 and t[opened - 1] == " " else opened
        stack_start, stack_end = opened + 1, closed
        if stack_end > stack_start and t[stack_start] == " ":
            stack_start += 1
        if stack_end > stack_start and t[stack_end - 1] == " ":
            stack_end -= 1
        return int(num) if len(num) > 1 else ord(num) - 48, t[colon + 2:name_end], t[stack_start:stack_end]
    sm = _SEAT.match(text)
    return (int(sm.group("seat")), sm.group("name"), sm.group("stack")) if sm else None


def is_prefix_line(text: str) -> bool:
    """Is ``text`` a line that belongs to the next hand, before its marker: 'Game #N starts.' or
    '#Game No : N' alone, spaces around ('^\\s*(?:Game #\\w+ starts\\.|#Game No : \\w+)\\s*$')?

    >>> is_prefix_line(" Game #9864152000 starts. "), is_prefix_line("#Game No : 1_a"), is_prefix_line("Game #1 starts")
    (True, True, False)
    """
    t = text.strip()
    if t.startswith("Game #") and t.endswith(" starts."):
        num = t[6:-8]
    elif t.startswith("#Game No : "):
        num = t[11:]
    else:
        return False
    # \w: a letter, a digit or a number of any script, or '_'
    return num.isalnum() or (num != "" and num.replace("_", "a").isalnum())


def players_fields(text: str) -> tuple[str, str] | None:
    r"""The players and seats of 'Total number of players : 5/6' after the colon and its
    space ('5/6' or '5', nothing around it): what ``(\d+)(?: */ *(\d+))?`` reads of the whole.

    Spaces around the slash are read as none ('6 / 6', a client of 2013).

    >>> players_fields("5/6"), players_fields("8"), players_fields("8/"), players_fields("8 /9"), players_fields("6 / 6")
    (('5', '6'), ('8', ''), None, ('8', '9'), ('6', '6'))
    """
    players, slash, seats = text.partition("/")
    if slash:
        players, seats = players.rstrip(" "), seats.lstrip(" ")
    if players.isdecimal() and (not slash or seats.isdecimal()):
        return players, seats
    return None


def split_number(text: str, chips: bool = False) -> tuple[str, str]:
    """(whole, fraction) digits of an amount in any of the clients' number formats.

    '.' is a decimal point, except between groups of three digits of tournament
    chips ('1.183.764') and of a hand whose amounts are written with a decimal comma
    (``chips`` true: '$ 3.243', '42.797,60 $'); ',' is a thousands separator
    before groups of three digits and a decimal comma before one or two; spaces
    group thousands.

    >>> split_number("$1,492.66"), split_number("26,02"), split_number("332,194,176"), split_number("0,5")
    (('1492', '66'), ('26', '02'), ('332194176', ''), ('0', '5'))
    >>> split_number("1.183.764 $", chips=True), split_number("640 chips"), split_number("42.797,60 $", chips=True)
    (('1183764', ''), ('640', ''), ('42797', '60'))
    """
    s = text
    for space in SPACE_SPELLINGS:  # (the group spaces as files hold them: parsers.numbers)
        if space in s:
            s = s.replace(space, " ")
    s = s.strip().removesuffix(" chips")
    if "USD" in s or "EUR" in s or "GBP" in s or "CAD" in s:
        for word in _CURRENCY_WORDS:
            s = s.replace(word, "")
    s = s.strip().strip("$€£").strip()
    # a currency sign garbled by the file's encoding sits at an end: one non-number character
    if s and not (s[0].isdigit() or s[0] in ",."):
        s = s[1:].strip()
    if s and not (s[-1].isdigit()):
        s = s[:-1].strip()
    s = s.replace(" ", "")
    if not s or s.strip("0123456789,."):
        raise ValueError(f"not an amount: {text!r}")
    frac = ""
    if "." in s and chips and "," not in s and all(len(g) == 3 for g in s.split(".")[1:]):
        groups = s.split(".")
    elif "." in s and chips and s.rfind(",") > s.rfind("."):  # '42.797,60': '.' groups, ',' the decimal comma
        whole, _, frac = s.rpartition(",")
        groups = whole.split(".")
    elif "." in s:
        whole, _, frac = s.partition(".")
        if "." in frac or "," in frac:
            raise ValueError(f"not an amount: {text!r}")
        groups = whole.split(",")
    else:
        groups = s.split(",")
        if len(groups) == 2 and 1 <= len(groups[1]) <= 2:
            groups, frac = [groups[0]], groups[1]
    if any(not g.isdigit() for g in groups) or any(len(g) != 3 for g in groups[1:]) or (frac and not frac.isdigit()):
        raise ValueError(f"not an amount: {text!r}")
    return "".join(groups), frac


# amounts read so far, by scale and chips (scale * 2 + chips), then text: a table's amounts repeat
# (keyed by the text alone within: a key of three made a tuple and its hash an amount)
_UNITS: dict[int, dict[str, int]] = {}


def family_units(text: str, scale: int, chips: bool = False) -> int:
    """An amount as written, in stored units (integers only: no float touches it)."""
    if text.isdigit():  # the common case: tournament chips
        return int(text) * scale
    kind = scale * 2 + chips
    known = _UNITS.get(kind)
    if known is None:
        known = _UNITS[kind] = {}
    units = known.get(text)
    if units is not None:
        return units
    whole, frac = split_number(text, chips)
    frac = frac.rstrip("0")
    digits = len(str(scale)) - 1
    if len(frac) > digits:
        raise Rescale(len(frac))
    units = int(whole) * scale + (int(frac) * 10 ** (digits - len(frac)) if frac else 0)
    if len(known) >= 1 << 16:
        known.clear()
    known[text] = units
    return units


_DECIMAL_COMMA: Final = re.compile(r"\d,\d{1,2}(?!\d)")


def decimal_comma(text: str) -> bool:
    """Does ``text`` write an amount with a decimal comma ('552,72', '0,5 $')?  Its '.'
    between groups of three digits then groups thousands ('$ 3.243': a Dutch client).

    >>> decimal_comma("( $ 552,72 )"), decimal_comma("( 1,500 )"), decimal_comma("[ 9d, 8d ]")
    (True, False, False)
    """
    return _DECIMAL_COMMA.search(text) is not None


def currency_of(text: str) -> str | None:
    for word, cur in _CURRENCY_WORDS.items():
        if word in text:
            return cur
    for sym, cur in _CURRENCY_SYMBOLS.items():
        if sym in text:
            return cur
    return None


def bracket(text: str) -> str | None:
    """The inside of '[ $1 USD ]' or '(70000)' (a trailing '.' allowed)."""
    t = text.strip()
    # the common cases, as the pattern reads them (its lazy inside ends where only spaces are left before the end)
    if t[:1] == "[" and t[-1:] == "]":
        return t[1:-1].strip()
    if t[:1] == "(" and t[-1:] == ")" and "\n" not in t:  # ('.' in the pattern reads no newline)
        return t[1:-1].strip()
    m = _BRACKET.match(t)
    return m.group(1) if m else None


_MONTHS: Final = {m: i for i, m in enumerate(("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"), 1)}
_DATE_LONG: Final = re.compile(r"(?:\w+, ?)?([A-Za-z]{3})[a-z]* (\d{1,2}),? (\d{1,2}):(\d{2}):(\d{2})(?: \w+)?\s+(\d{4})")
_DATE_NUMERIC: Final = re.compile(r"(\d{2}) (\d{2}) (\d{4}) (\d{1,2}):(\d{2}):(\d{2})")


def _numeric_19(text: str) -> bool:
    """Is ``text`` exactly 888's 'DD MM YYYY HH:MM:SS', in ASCII digits?"""
    return (len(text) == 19 and text.isascii() and text[2] == " " and text[5] == " " and text[10] == " "
            and text[13] == ":" and text[16] == ":" and (text[:2] + text[3:5] + text[6:10] + text[11:13]
                                                         + text[14:16] + text[17:]).isdigit())


def date_plan(text: str) -> tuple[int, ...]:
    """Where ``parse_date`` reads a date's parts in ``text``: (month, then the start and end of
    the year, month, day, hour, minute and second), the month a number where it is named (its
    span then unread); () where no date is found.

    The same for every text that differs from ``text`` only in which ASCII digits it holds
    (the patterns read any digit alike and name none): a text with its digits masked keys it.

    >>> date_plan("Tuesday, May 24, 22:06:44 EDT 2011"), date_plan("no date")
    ((5, 30, 34, 0, 0, 13, 15, 17, 19, 20, 22, 23, 25), ())
    """
    if _numeric_19(text):
        return (0, 6, 10, 3, 5, 0, 2, 11, 13, 14, 16, 17, 19)
    m = _DATE_LONG.search(text)
    month = _MONTHS.get(m.group(1).lower()) if m else None
    if m is not None and month is not None:
        y0, y1 = m.span(6)
        d0, d1 = m.span(2)
        h0, h1 = m.span(3)
        mi0, mi1 = m.span(4)
        s0, s1 = m.span(5)
        return (month, y0, y1, 0, 0, d0, d1, h0, h1, mi0, mi1, s0, s1)
    m = _DATE_NUMERIC.search(text)
    if m is not None:
        d0, d1 = m.span(1)
        mo0, mo1 = m.span(2)
        y0, y1 = m.span(3)
        h0, h1 = m.span(4)
        mi0, mi1 = m.span(5)
        s0, s1 = m.span(6)
        return (0, y0, y1, mo0, mo1, d0, d1, h0, h1, mi0, mi1, s0, s1)
    return ()


def date_at(text: str, plan: tuple[int, ...]) -> dt.datetime | None:
    """The date ``plan`` (``date_plan``) finds in ``text``; None where none, or not a date."""
    if not plan:
        return None
    try:
        month = plan[0] or number(text[plan[3]:plan[4]])
        return dt.datetime(int(text[plan[1]:plan[2]]), month, number(text[plan[5]:plan[6]]), number(text[plan[7]:plan[8]]),
                           number(text[plan[9]:plan[10]]), number(text[plan[11]:plan[12]]))
    except ValueError:
        return None


# a date's one- and two-digit numbers, by their text: a look-up, where int() parses (compiled or not)
_SMALL_NUMBERS: Final = {**{str(n): n for n in range(100)}, **{f"{n:02d}": n for n in range(10)}}


def number(text: str) -> int:
    """``int(text)`` of a date's part.

    >>> number("07"), number("7"), number("2012"), number("\u0663")
    (7, 7, 2012, 3)
    """
    known = _SMALL_NUMBERS.get(text)
    return known if known is not None else int(text)


def parse_date(text: str) -> dt.datetime | None:
    """The start time, naive in the zone written ('Tuesday, May 24, 22:06:44 EDT 2011',
    'Mon Apr 26 20:17:29 EDT 2021', '04 05 2012 07:59:45' day first)."""
    if _numeric_19(text):  # 888's, read by position (what the numeric pattern finds in it; the long one needs letters)
        try:
            return dt.datetime(int(text[6:10]), number(text[3:5]), number(text[:2]), number(text[11:13]),
                               number(text[14:16]), number(text[17:]))
        except ValueError:
            return None
    return date_at(text, date_plan(text))


def _chip_phrase(action: str) -> tuple[str, str] | None:
    """The chip word and its argument of an action that opens with a phrase of ``_CHIP_PHRASES``.

    >>> _chip_phrase("double bets [120]"), _chip_phrase("double checks")
    (('bets', '[120]'), None)
    """
    for phrase, word in _CHIP_PHRASES:
        if action.startswith(phrase):
            return word, action[len(phrase):].strip()
    return None


class FamilyParser:
    """Cuts a file into hands at the marker (with the 'Game #N starts.' and
    '#Game No :' lines before it) and reads each with ``reader``."""

    # class attributes (ClassVar: mypyc keeps them on the class, where ``reader.id_prefix`` reads them)
    name: ClassVar[str] = ""
    reader: ClassVar[type[FamilyReader]]

    def __init__(self) -> None:
        # the lines after the hand _hand returned last that are no hand's (see _before_unread),
        # for iter_hands to yield after it
        self.unread: list[HandError] = []

    def accepts_marker(self, m: Marker) -> bool:  # pragma: no cover - each site says
        raise NotImplementedError

    def detect(self, head: str, path: str) -> bool:
        for line in head.lstrip("\ufeff").replace("\x00", "").splitlines()[:200]:
            m = marker_fields(line)
            if m and self.accepts_marker(m):
                return True
        return False

    def iter_hands(self, lines: Iterator[tuple[int, int, str]], path: str) -> Iterator[ParsedHand | HandError]:
        # each line is kept as the tuple it comes as (compiled, a line read as tuple[int, int, str]
        # is unboxed, and boxed anew when appended: a tuple and two ints made a line)
        buf: list[Any] = []
        prefix: list[Any] = []
        marker: Marker | None = None  # the current hand's marker, read once: its reader is given it
        marker_at = 0
        stray: tuple[int, int] | None = None
        for item in cast("Iterator[tuple[Any, ...]]", lines):
            text: str = item[2]  # (typed, not cast: a cast is a call a line in pure Python)
            if "\x00" in text or text.startswith("\ufeff"):
                text = text.replace("\x00", "").lstrip("\ufeff")
                item = (item[0], item[1], text)
            if "Game" not in text:  # neither a prefix line nor a marker (both name the game)
                if marker is not None:
                    buf.append(item)
                elif prefix:
                    prefix.append(item)
                elif text.strip():
                    no: int = item[0]
                    stray = (stray[0], no) if stray else (no, no)
            elif is_prefix_line(text):
                if marker is not None:
                    yield self._hand(buf, marker_at, marker)
                    if self.unread:
                        yield self.unread.pop()
                    buf, marker = [], None
                prefix.append(item)
            elif "*****" in text and (m := marker_fields(text)) is not None:
                if marker is not None:
                    yield self._hand(buf, marker_at, marker)
                    if self.unread:
                        yield self.unread.pop()
                    buf = []
                elif stray:
                    yield _stray(stray, self.name)
                    stray = None
                # no prefix line matches the marker: it is the first in the hand that does
                prefix.append(item)
                buf, marker_at, marker, prefix = prefix, len(prefix) - 1, m, []
            elif marker is not None:
                buf.append(item)
            elif prefix:
                prefix.append(item)
            elif text.strip():
                no = item[0]
                stray = (stray[0], no) if stray else (no, no)
        if marker is not None:
            yield self._hand(buf, marker_at, marker)
            if self.unread:
                yield self.unread.pop()
        elif stray or any(t.strip() for _, _, t in prefix):
            first = stray[0] if stray else cast(int, prefix[0][0])
            last = max(stray[1] if stray else 0, cast(int, prefix[-1][0]) if prefix else 0)
            # 'Game #N starts.' with nothing after it names the hand that was not written
            num = next((pm.group(1) for _, _, t in prefix if (pm := re.match(r"^\s*(?:Game #|#Game No : )(\w+)", t))), None)
            yield _stray((first, last), self.name, f"{self.reader.id_prefix}-{num}" if num else None)

    def _hand(self, buf: list[tuple[int, int, str]], marker_at: int, marker: Marker) -> ParsedHand | HandError:
        while len(buf) > 1 and not buf[-1][2].strip():
            buf.pop()
        got = self._read(buf, marker_at, marker)
        if isinstance(got, ParsedHand) and (line_no := unread_from(got)) is not None and (found := text_after(
                buf, line_no, HAND_START_ANYWHERE, lambda lines: self._read(lines, marker_at, marker), marker_at)) is not None:
            # text after the hand and a blank line (a mail's footer): no hand's lines (parsers.base.text_after)
            got, error = found
            self.unread.append(error)
            return got
        if isinstance(got, HandError) and got.reason_code == "parse-error":
            kept = self._before_unread(buf, marker_at, marker, got.line_no)
            if kept is not None:
                return kept  # a whole hand, then lines that are no hand's (self.unread)
        return got

    def _read(self, buf: list[tuple[int, int, str]], marker_at: int, marker: Marker) -> ParsedHand | HandError:
        """One reading of a hand's lines: the hand, or where and why it cannot be read."""
        scale = 0
        reader: FamilyReader | None = None
        try:
            while True:
                reader = self.reader(buf, marker_at, scale, marker)
                try:
                    return reader.read()
                except Rescale as r:
                    if r.digits > MAX_DECIMALS:
                        raise Reject("amount-out-of-range", buf[marker_at][0], f"hand at line {buf[marker_at][0]}: an amount has {r.digits} decimal places")
                    scale = 10**r.digits
        except Reject as rej:
            return HandError(rej.line_no, rej.code, rej.reason, self.reader.hand_id_of(marker))
        except (ValueError, KeyError, IndexError, AttributeError, TypeError) as e:  # a line misread ('1x,500': no amount)
            first = buf[marker_at][0]
            no = reader.line_being_read() if reader is not None else None
            if no is None:  # (the hand's, read whole: its settling)
                return HandError(first, "parse-error", f"hand at line {first}: {e}", self.reader.hand_id_of(marker))
            return HandError(no, "parse-error", f"hand at line {first}: line {no}: {e}", self.reader.hand_id_of(marker))

    def _before_unread(self, buf: list[tuple[int, int, str]], marker_at: int, marker: Marker, line_no: int) -> ParsedHand | None:
        """The hand in ``buf`` before the lines from ``line_no`` on (the first its reading
        could not read), where those lines are none of a hand's (``parsers.base.junk_after``:
        they hold a character no history writes, as binary junk appended to a file) and the
        hand before them is whole: read again without them, it is not cut (a win, collect or
        balance line: ``record_cut``), and a blank line comes before them (the family's hands
        hold none after their marker) or the pot is awarded to the chip (``pot_awarded``).  It
        is returned, and those lines are ``self.unread``, an ``unread-lines`` error that is no
        hand.  Else None: the hand is rejected as it was (a hand cut or garbled before its end
        stays so, whatever follows).  Only a hand that could not be read comes here."""
        found = junk_after(buf, line_no, HAND_START_ANYWHERE)
        if found is None or found[1] <= marker_at + 1:
            return None
        k, end = found
        hand = self._read(buf[:end], marker_at, marker)
        if not isinstance(hand, ParsedHand) or hand.record_cut is not None:
            return None
        if end == k and not pot_awarded(hand):
            return None
        self.unread.append(unread_lines(buf, k, hand))
        return hand


def ascending(lines: list[int]) -> list[int]:
    """``inferred_from(*lines)`` of lines all known: each once, ascending (a call with a list,
    where a call with ``*`` packs the arguments anew, through the function's Python entry);
    ``lines`` itself where it is so already (the events' lines mostly are).

    >>> ascending([17, 12, 17]), ascending([3, 5])
    ([12, 17], [3, 5])
    """
    for k in range(1, len(lines)):
        if lines[k] <= lines[k - 1]:
            return sorted(set(lines))
    return lines


def chips_in_pot(events: list[Event], big_blind: int | None) -> int:
    """The chips put in less those returned (a dead blind's part over the big blind is
    dead: it counts in the pot, not toward the poster's street commitment)."""
    put, street = 0, None
    committed: dict[int, int] = {}
    for e in events:
        if e.amount is None or e.seat is None:
            continue
        if e.kind == K.UNCALLED_RETURN:
            put -= e.amount
        elif e.kind == K.ANTE:
            put += e.amount
        elif e.kind in (K.SMALL_BLIND, K.BIG_BLIND, K.DEAD_BLIND, K.STRADDLE, K.BRING_IN, K.CALL, K.BET, K.RAISE, K.COMPLETE):
            if e.street != street:
                street, committed = e.street, {}
            chips = cast(int, e.to_amount) - committed.get(e.seat, 0) if e.kind in (K.RAISE, K.COMPLETE) else e.amount
            put += chips
            live = min(chips, big_blind or chips) if e.kind == K.DEAD_BLIND else chips
            committed[e.seat] = committed.get(e.seat, 0) + live
    return put


def pot_awarded(hand: ParsedHand) -> bool:
    """Does ``hand`` award every chip in its pot: a tournament's wins are the chips put in
    (less those returned), or a written total pot is, and its wins and rake add up to it?
    Then no win line of it is missing, and a line after its last is none of its results.
    (A cash hand with no written total says no: its rake is inferred from its wins.)"""
    in_pot = chips_in_pot(hand.events, hand.big_blind)
    won = 0
    total: Event | None = None
    for e in hand.events:
        if e.kind == K.COLLECT:
            won += cast(int, e.amount)
        elif e.kind == K.TOTAL_POT and e.inferred_from is None:
            total = e
    if total is not None:
        return total.amount == in_pot and won + (total.to_amount or 0) == in_pot
    return hand.is_tournament and in_pot > 0 and won == in_pot


def _stray(span: tuple[int, int], name: str, hand_id: str | None = None) -> HandError:
    return HandError(span[0], "truncated", f"lines {span[0]}-{span[1]} come before any {name} hand marker "
                     "(a hand cut off at its start, or announced and not written)", hand_id)


class FamilyReader:
    """Reads one hand.  Sites override the hooks: ``header`` (the game line and
    what follows the marker up to the seats), ``site_line`` (settlement and other
    lines of their own), ``site_action`` (those of a seated player) and ``normalise_card``."""

    site: ClassVar[str] = ""
    format: ClassVar[str] = ""
    id_prefix: ClassVar[str] = ""

    @classmethod
    def hand_id_of(cls, m: Marker | None) -> str | None:
        if not m:
            return None
        origin = m[2]
        tag = "".join(c for c in origin if c.isalnum()) + "-" if origin else ""
        return f"{cls.id_prefix}-{tag}{m[1]}"

    def __init__(self, buf: list[tuple[int, int, str]], marker_at: int, scale: int, marker: Marker | None = None) -> None:
        self.buf = buf
        self.text = ""  # the hand's lines joined (read): a word not in it is in none of them
        self.marker_at = marker_at
        self.marker_fields = marker if marker is not None else marker_fields(buf[marker_at][2])  # the hand's marker line, read
        self.scale = scale
        self.events: list[Event] = []
        self.names: dict[str, int | None] = {}  # None: the player with no seat line (one a hand)
        self.by_first: dict[str, list[str]] = {}  # the seated names by their first word
        self.committed: dict[int | None, int] = {}  # None: the player with no seat line
        self.current_bet = 0
        self.street = S.PREFLOP
        self.raw = ""
        self.antes: list[tuple[int | None, int]] = []
        self.stacks: dict[int | None, int] = {}
        self.settled = False  # a win, collect or balance line was read
        self.chips = False  # tournament chips: no fractions
        # the cards have been dealt: '** Dealing down cards **' (stud's '** Dealing **'), or,
        # in a record with no such line (an observer's), the first bet, call, raise or check
        self.dealt_in = False
        self.posters: set[int | None] = set()  # the seats that posted a blind or an ante
        # the folds read before the cards were dealt by seats that posted nothing: folds as
        # written, until a '** Dealing down cards **' line after them says they came before the deal
        self.folds_before_deal: list[Event] = []
        self.unread_count = 0  # lines not understood, kept as unread events

    # -- helpers -------------------------------------------------------------------
    def line_being_read(self) -> int | None:
        """The number of the line being read (``self.raw``, set a line by the header, seat
        and body loops: found by identity, for an error the reading raised); None once the
        lines are read (the hand's settling) or before.  Error path only."""
        raw = self.raw
        if raw.strip():
            for no, _, text in self.buf:
                if text is raw:
                    return no
        return None

    def amt(self, text: str) -> int:
        return family_units(text, self.scale, self.chips)

    def fail(self, no: int, text: str, why: str = "line not understood") -> Reject:
        return Reject("parse-error", no, f"line {no}: {why}: {text!r}")

    def add(self, street: str, kind: str, no: int, seat: int | None = None, player: str | None = None,
            amount: int | None = None, to_amount: int | None = None, all_in: bool = False, cards: str | None = None,
            pot_label: str | None = None, half: str | None = None, text: str | None = None) -> Event:
        e = Event(len(self.events), street, kind, no, seat, player, amount, to_amount, all_in, cards, pot_label, half,
                  self.raw if text is None else text)
        self.events.append(e)
        return e

    def cards(self, text: str, no: int) -> str:
        """'[ 9d, 8d, Tc ]' or '[  As 5d ]' as 'As 5d'."""
        inner = text.strip()
        if inner.startswith("["):
            inner = inner[1:]
        if inner.endswith("]"):
            inner = inner[:-1]
        # the common shape, 'As 5d' or '9d, 8d, Tc' within spaces: the cards as they stand (what
        # the tokens joined by single spaces give), each card a look-up, no list made and joined
        shown = (inner.replace(", ", " ") if "," in inner else inner).strip()
        for tok in shown.split(" "):
            if tok not in _CARDS:
                break
        else:
            return shown
        out = []
        for tok in inner.replace(",", " ").split():
            card = tok if tok in _CARDS else self.normalise_card(tok)
            if card not in _CARDS:
                raise Reject("unreadable-cards", no, f"line {no}: card {tok!r} is not a card this parser can read: {text!r}")
            out.append(card)
        if not out:
            raise self.fail(no, text, "no cards")
        return " ".join(out)

    def normalise_card(self, tok: str) -> str:
        """A card in a client language's names (``_RANKS_BY_LANGUAGE``, ``_SUITS_BY_LANGUAGE``)."""
        card = local_card(tok)
        return card if card is not None else tok

    def actor(self, text: str) -> tuple[str | None, str]:
        """'<seated name> <action>' (longest name first: one name may start another).
        Only the names whose first word is the line's are tried."""
        sp = text.find(" ")
        # (a list or None: compiled, a list is walked natively, where 'get(key, ())' is any iterable)
        names = self.by_first.get(text[:sp] if sp >= 0 else text)
        if names is not None:
            for name in names:
                n = len(name)  # 'name ' without building it: a line is tried against a name or two
                if n and len(text) > n and text[n] == " " and text.startswith(name):
                    return name, text[n + 1:]
        if "" in self.names and text.startswith(" "):
            return "", text[1:]
        return None, ""

    # -- the hand ------------------------------------------------------------------
    def read(self) -> ParsedHand:
        buf = self.buf
        m = self.marker_fields
        assert m is not None
        # (a list: a generator is a call a line; no '_' for the numbers: compiled, '_' is an object,
        # and each int read into it is boxed anew)
        self.text = "\n".join([line[2] for line in buf])
        hand = ParsedHand(
            hand_id=self.hand_id_of(m) or "",
            site=self.site_of(m),
            format=self.format,
            variant="",
            betting="",
            first_line=buf[0][0],
            last_line=buf[-1][0],
            byte_offset=buf[0][1],
            content_hash=content_hash(self.text),
            hand_number=m[1],
        )
        i = self.header(hand, self.marker_at + 1)
        i = self.seats(hand, i)
        hand.amount_scale = self.scale
        self.body(hand, i)
        self.raw = ""  # the lines are read: an error from here on is the hand's (line_being_read)
        self.settle(hand)
        for k, e in enumerate(self.events):
            e.seq = k
        hand.events = self.events
        if self.antes:
            ante = self.antes[0][1]
            for _, a in self.antes:  # (a loop: max() of a generator is a call an item)
                if a > ante:
                    ante = a
            hand.ante = ante
            hand.bb_ante = single_payer_ante(self.events)
        return hand

    def site_of(self, m: Marker) -> str:
        return self.site

    def header(self, hand: ParsedHand, i: int) -> int:  # pragma: no cover - each site says
        raise NotImplementedError

    def seats(self, hand: ParsedHand, i: int) -> int:
        buf = self.buf
        while i < len(buf):
            no, off, raw = buf[i]
            self.raw = raw
            stripped = raw.strip()
            if not stripped:
                i += 1
                continue
            seat_line = stripped.startswith("Seat") or stripped[:4].lower() == "seat"
            # 'Seat 4 is the button' and 'Total number of players : 5/6' read by slices (the line
            # stripped: nothing around them), where a pattern each was a call a hand
            if (seat_line and stripped.endswith(" is the button") and stripped.startswith("Seat ")
                    and (button := stripped[5:-14]).isdecimal()):
                hand.button_seat = int(button)
            elif (not seat_line and stripped.startswith("Total number of players : ")
                    and (players := players_fields(stripped[26:])) is not None):
                if players[1]:
                    hand.max_seats = int(players[1])
            elif seat_line and (fields := seat_fields(stripped)):
                seat, name, stack = fields
                if name in self.names:
                    raise Reject("ambiguous-names", no, f"line {no}: two seats hold players named {name!r}: their actions cannot be told apart")
                self.names[name] = seat
                chips = self.amt(stack)
                self.stacks[seat] = chips
                hand.seats.append(Seat(seat, name, chips, None, False, None, no))
            elif self.header_line(hand, no, raw.rstrip()):
                pass
            else:
                break
            i += 1
        if not hand.seats:
            raise self.fail(buf[min(i, len(buf) - 1)][0], buf[min(i, len(buf) - 1)][2], "no seat lines")
        # the names by first word, longest first within each (as sorted by length, longest
        # first, would order them): only a first word that two names share is sorted
        by_first = self.by_first
        shared = False
        for name in self.names:
            sp = name.find(" ")
            first = name[:sp] if sp >= 0 else name
            names = by_first.get(first)
            if names is None:
                by_first[first] = [name]
            else:
                names.append(name)
                shared = True
        if shared:
            for names in by_first.values():
                if len(names) > 1:
                    names.sort(key=len, reverse=True)
        return i

    def header_line(self, hand: ParsedHand, no: int, text: str) -> bool:
        """A line among the seats that the site writes there (Party: 'Trny:', 'Blinds(')."""
        return False

    def body(self, hand: ParsedHand, i: int) -> None:
        """The lines after the seats.  A line not understood (a parse error of that line, or an
        amount or a word it misreads) is kept, not a rejection of the hand: an unread event on
        the street it was read in, with the seated player it starts with (docs/semantics.md,
        "Lines not understood"); a street marker not understood leaves the streets after it
        unknown and stays a rejection, as do lines that are no history's (binary junk: the
        hand before them is then read whole, ``FamilyParser._before_unread``)."""
        blank_name = "" in self.names  # a seat with no name: its lines start with a space
        buf = self.buf
        for k in range(i, len(buf)):  # (by index: a slice of the lines was a copy)
            no, off, raw = buf[k]
            self.raw = raw
            text = raw.strip()
            if not text:
                continue
            at = len(self.events)
            try:
                self.line(hand, no, raw, text, blank_name)
            except Reject as rejected:
                if rejected.code != "parse-error" or rejected.line_no != no or not self.may_leave_unread(no, text):
                    raise
                self.unread_line(no, raw, text, at)
            except (ValueError, KeyError, IndexError) as e:  # a word or amount misread ('1x,500': no amount)
                if not self.may_leave_unread(no, text):
                    raise
                self.unread_line(no, raw, text, at)

    def may_leave_unread(self, no: int, text: str) -> bool:
        """May line ``no``, not understood, be kept as an unread event?  Not a street marker,
        and not where the lines from it on hold characters no history writes (junk)."""
        return not text.startswith("** ") and junk_after(self.buf, no, HAND_START_ANYWHERE) is None

    def unread_line(self, no: int, raw: str, text: str, at: int) -> None:
        """Line ``no`` was not understood: the events its reading added from ``at`` on are
        taken back and one unread event keeps it verbatim, with the seated player it starts
        with, if any."""
        del self.events[at:]
        name, _ = self.actor(text)
        seat = self.names.get(name) if name is not None else None
        self.events.append(unread_event(at, self.street, no, raw, seat, name))
        self.unread_count += 1

    def line(self, hand: ParsedHand, no: int, raw: str, text: str, blank_name: bool) -> None:
        """One line after the seats (``text``: ``raw`` stripped, not blank)."""
        # the hooks called as methods, not bound to locals: compiled (mypyc), a method call is direct
        if text.startswith("** "):
            self.marker(hand, no, text)
            return
        if text.startswith("Dealt to "):
            self.dealt(no, text)
            return
        if self.site_line(hand, no, text):
            return
        plain = not (blank_name and raw.startswith(" "))  # (a nameless seat's line keeps its space)
        name, action = self.actor(text if plain else raw.rstrip())
        if name is not None:
            if plain and self.site_action(hand, no, text, name, action):
                return
            self.action(hand, no, text, name, action.strip())
            return
        if _IGNORED_LINE.match(text):
            return
        self.unseated(hand, no, text)

    # the player who acts with no seat line (a player joining the table who posts at once),
    # once he puts chips in: his lines are read as a seated player's, with seat None
    seatless_name: str | None = None

    def unseated(self, hand: ParsedHand, no: int, text: str) -> None:
        """A line of a player with no seat line: folds and checks are recorded with no
        seat.  One who puts chips in is the hand's seatless player (``seatless``); one who
        wins or shows without having put chips in cannot be followed."""
        word = text.split(" ", 2)
        if len(word) >= 2 and word[1] in ("folds", "folds.", "checks", "checks."):
            self.add(self.street, K.FOLD if word[1].startswith("folds") else K.CHECK, no, None, word[0])
            return
        if len(word) >= 2 and (word[1] in ("posts", "calls", "bets", "raises")
                               or word[1] == "is" and len(word) == 3 and word[2].lower().startswith("all-in")):
            self.seatless(hand, no, text, word[0])
            return
        if len(word) >= 2 and word[1] in ("wins", "collected", "shows", "mucks", "is"):
            raise Reject("unseated-player", no, f"line {no}: {word[0]!r} has no seat line but puts chips in or wins: {text!r}")
        if ": " in text and text.split(": ", 1)[0] in self.names:
            return  # table talk
        raise self.fail(no, text)

    def seatless(self, hand: ParsedHand, no: int, text: str, name: str) -> None:
        """The first chips of a player with no seat line ('Player8 has joined the table.',
        'Player8 posts big blind [$0.04 USD].'): his events are recorded as written, with
        no seat; his seat and stack stay unknown (the replay judges nothing that needs
        them; the seat-unrecorded check names him).  One such player a hand: a second
        could not be told apart in the replay's facts."""
        if self.seatless_name is not None:
            raise second_seatless(self.seatless_name, name, no, text)
        if (hand.max_seats is not None and len(hand.seats) >= hand.max_seats
                and f"{name} has joined the table" not in self.text):
            # 'Total number of players : 2/2', two seat lines and no line of his joining: no seat was
            # free for him (one who joins as another leaves says so: 'Player8 has joined the table.')
            raise Reject("unseated-player", no, f"line {no}: {name!r} has no seat line and puts chips in, but the seat lines "
                         f"fill all {hand.max_seats} seats of the table: the record contradicts itself: {text!r}")
        self.seatless_name = name
        self.names[name] = None
        # his later lines are read as a seated player's (actor(): longest name first)
        self.by_first.setdefault(name.partition(" ")[0], []).append(name)
        self.by_first[name.partition(" ")[0]].sort(key=len, reverse=True)
        self.action(hand, no, text, name, text[len(name) + 1:].strip())

    def marker(self, hand: ParsedHand, no: int, text: str) -> None:
        end = text.find(" **", 3)
        if end < 0:
            raise self.fail(no, text, "street marker not understood")
        head = text[3:end].strip().lower()
        rest = text[end + 3:].strip().lstrip(":").strip()
        if head == "summary":
            self.street = S.SUMMARY
            return
        if not head.startswith("dealing"):
            raise self.fail(no, text, "street marker not understood")
        what = head[7:].strip()
        stud = hand.variant in ("stud", "stud_hilo", "razz")
        table = _STUD_STREETS if stud else _STREETS
        if what not in table:
            raise self.fail(no, text, "street marker not understood")
        new = table[what]
        if not self.dealt_in and new in (S.PREFLOP, S.THIRD):
            # the hole cards' deal: a fold written before it (888: a player who will not post)
            # is a seat not dealt in, a table event like PokerStars' 'out of hand'
            for e in self.folds_before_deal:
                e.street, e.kind = S.SUMMARY, K.OUT_OF_HAND
        self.folds_before_deal = []
        self.dealt_in = True
        if new != self.street:
            self.committed, self.current_bet = {}, 0
        self.street = new
        if not stud and new != S.PREFLOP:
            if not rest.startswith("["):
                raise self.fail(no, text, "board cards missing")
            self.add(new, K.DEAL_BOARD, no, cards=self.cards(rest, no))

    def dealt(self, no: int, text: str) -> None:
        rest = text[9:]
        # the names of the first word, longest first (as actor(): '<name> [' holds it), then
        # the nameless seat's '[' (last, as it was in the list of every name longest first)
        sp = rest.find(" ")
        names = self.by_first.get(rest[:sp] if sp >= 0 else rest)
        for name in names if names is not None else []:
            if rest.startswith(name + " [") or (name == "" and rest.startswith("[")):
                self.add(self.street, K.DEAL_HOLE, no, self.names[name], name, cards=self.cards(rest[len(name):].strip(), no))
                return
        if "" in self.names and rest.startswith("["):
            self.add(self.street, K.DEAL_HOLE, no, self.names[""], "", cards=self.cards(rest.strip(), no))
            return
        raise self.fail(no, text)

    def put(self, seat: int | None, chips: int) -> None:
        self.committed[seat] = self.committed.get(seat, 0) + chips
        self.current_bet = max(self.current_bet, self.committed[seat])

    def action(self, hand: ParsedHand, no: int, text: str, name: str, action: str) -> None:
        seat = self.names[name]
        action = action.rstrip(".").rstrip()
        word, _, arg = action.partition(" ")
        street = self.street
        if word in _CHIP_WORDS:
            self.chips_action(hand, no, text, seat, name, word, arg, False)
        elif word == "double" and (phrase := _chip_phrase(action)) is not None:
            self.chips_action(hand, no, text, seat, name, phrase[0], phrase[1], False)
        elif word == "folds" and not self.dealt_in and seat not in self.posters:
            # a fold before the deal, or before the first bet of an observer's record that writes
            # no deal line, by a seat that posted nothing: a fold unless the deal line follows
            self.folds_before_deal.append(self.add(street, K.FOLD, no, seat, name))
        elif word == "folds":
            self.add(street, K.FOLD, no, seat, name)
        elif word == "checks" and not arg:
            self.dealt_in = True
            self.add(street, K.CHECK, no, seat, name)
        elif word == "posts":
            self.post(hand, no, text, seat, name, arg)
        elif action.startswith(("calls[", "bets[", "raises[")):
            word, arg = action[:action.index("[")], action[action.index("["):]
            self.chips_action(hand, no, text, seat, name, word, arg, all_in=False)
        elif action.startswith("is all-In") or action.startswith("is all-in"):
            arg = action[9:].strip()
            if not arg:  # 'Hero is all-In.' after the bet it goes with: that bet's flag
                for e in reversed(self.events):
                    if e.seat == seat and e.kind in (K.BET, K.RAISE, K.CALL, K.SMALL_BLIND, K.BIG_BLIND, K.ANTE):
                        e.all_in = True
                        break
                else:
                    raise self.fail(no, text, "all-in with no chips put in")
                return
            self.chips_action(hand, no, text, seat, name, "all-in", arg, all_in=True)
        elif action.startswith(_IGNORED_ACTOR):
            return
        elif word == "shows" or word.startswith("shows"):
            rest = action[5:].strip()
            if not rest.startswith("["):
                return  # 'shows8,5,3,2,A  for low.': the low the shown cards make
            self.add(S.SHOWDOWN if street != S.SUMMARY else S.SUMMARY, K.SHOW, no, seat, name,
                     cards=self.cards(rest[: rest.index("]") + 1], no))
        elif word == "mucks" or (action.startswith("doesn't show") and action[12:].lstrip().startswith("[")):
            rest = action[action.index(" ") + 1:].strip().removeprefix("show").strip()
            cards = self.cards(rest[: rest.index("]") + 1], no) if rest.startswith("[") else None
            self.add(S.SHOWDOWN if street != S.SUMMARY else S.SUMMARY, K.MUCK, no, seat, name, cards=cards)
        elif action.startswith("finished in ") and (fm := re.match(r"finished in (\d+)", action)):
            self.add(S.SUMMARY, K.FINISH, no, seat, name, amount=int(fm.group(1)))
        elif action in ("did not show his hand",):
            self.add(S.SHOWDOWN if street != S.SUMMARY else S.SUMMARY, K.NO_SHOW, no, seat, name)
        elif action.startswith("will be allowed"):
            return
        elif action.startswith(":") or text.startswith(name + ":"):
            return  # table talk
        else:
            raise self.fail(no, text)

    def post(self, hand: ParsedHand, no: int, text: str, seat: int | None, name: str, arg: str) -> None:
        for words, kind in _POSTS:
            if arg.startswith(words) and arg[len(words):len(words) + 1] in (" ", "["):
                inner = bracket(arg[len(words):])
                if inner is None:
                    raise self.fail(no, text)
                if kind == K.DEAD_BLIND and "+" in inner:  # '[$0.01 + $0.02]': small and big, one post
                    amount = sum(self.amt(p) for p in inner.split("+"))
                else:
                    amount = self.amt(inner)
                break
        else:
            raise self.fail(no, text)
        self.posters.add(seat)
        if kind == K.ANTE:
            self.antes.append((seat, amount))
        else:
            live = amount if kind != K.DEAD_BLIND else min(amount, hand.big_blind or amount)
            self.committed[seat] = self.committed.get(seat, 0) + live
            self.current_bet = max(self.current_bet, self.committed[seat])
            if kind == K.BIG_BLIND:
                if hand.big_blind is None:
                    hand.big_blind = amount
                    hand.min_bet = hand.min_bet or amount
            elif kind == K.SMALL_BLIND and hand.small_blind is None:
                hand.small_blind = amount
        self.add(self.street, kind, no, seat, name, amount=amount)

    def chips_action(self, hand: ParsedHand, no: int, text: str, seat: int | None, name: str, word: str, arg: str,
                     all_in: bool) -> None:
        """A call, bet, raise, completion or all-in: the amount written is the chips
        the player adds ('raises A to B': A added, B the total; or, in the 2024 tournament
        export, A the raise over the bet faced: either reading agrees with B)."""
        to_total: int | None = None
        self.dealt_in = True  # betting is on dealt cards
        if word == "raises" and " to " in arg and not arg.startswith("["):
            added_text, _, to_text = arg.partition(" to ")
            added, to_total = self.amt(added_text), self.amt(to_text)
        else:
            inner = bracket(arg)
            if inner is None:
                # the 2024 tournament export writes a call's chips bare ('Player2 calls 8070')
                if not _BARE_AMOUNT.match(arg):
                    raise self.fail(no, text)
                inner = arg
            added = self.amt(inner)
        before = self.committed.get(seat, 0)
        to = before + added
        street, facing = self.street, self.current_bet
        if to_total is not None and to_total != to:
            if to_total - facing != added or to_total <= before:
                raise self.fail(no, text, f"raise adds {added} to {before} but says to {to_total}")
            # 'raises 1125 to 2125' over a bet of 1000: the raise's size, then the total (the chips
            # added are the total less what the player had in)
            added, to = to_total - before, to_total
        kind = _CHIP_WORDS.get(word)
        if kind is None:  # all-in: what the chips amount to against the bet faced
            kind = K.CALL if to <= facing else (K.BET if facing == 0 else K.RAISE)
        elif kind == K.BRING_IN and hand.bring_in is None:
            hand.bring_in = added
        self.committed[seat] = to
        if to > facing:
            self.current_bet = to
        events = self.events
        if kind == K.RAISE:  # as PokerStars: the increment over the bet faced, and the total
            events.append(Event(len(events), street, kind, no, seat, name, to - facing, to, all_in, None, None, None, self.raw))
        elif kind == K.COMPLETE:  # as PokerStars: the chips added, and the total
            events.append(Event(len(events), street, kind, no, seat, name, added, to, all_in, None, None, None, self.raw))
        elif kind == K.BET:
            events.append(Event(len(events), street, kind, no, seat, name, added, added, all_in, None, None, None, self.raw))
        else:
            events.append(Event(len(events), street, kind, no, seat, name, added, None, all_in, None, None, None, self.raw))

    def site_line(self, hand: ParsedHand, no: int, text: str) -> bool:
        return False

    def site_action(self, hand: ParsedHand, no: int, text: str, name: str, action: str) -> bool:
        """A seated player's line that the site reads itself (Party's win and balance lines),
        given its actor as found: the line read once, not by the site and again here."""
        return False

    def collect(self, no: int, name: str, amount: int, label: str = "pot", half: str | None = None) -> None:
        self.settled = True
        self.add(self.street if self.street == S.SUMMARY else S.SHOWDOWN, K.COLLECT, no, self.names.get(name), name,
                 amount=amount, pot_label=label, half=half)

    # -- what the format leaves out --------------------------------------------------
    def settle(self, hand: ParsedHand) -> None:
        """Record the uncalled bet the format does not write (inferred), take it out of
        a win line that includes it, and for cash games without a rake line record
        the total pot and the rake the chips imply (inferred)."""
        if not self.settled:
            # the record stops before the hand's results: stored as recorded, marked as cut
            # (hands.record_cut), with nothing inferred from what it lacks
            end = self.buf[-1][0]
            hand.record_cut = (f"the rest of the hand after line {end} and its results (no win or collect line: "
                               "the record stops there)")
            return
        put: dict[int | None, int] = {}
        excess_line: dict[int | None, int] = {}
        returned: dict[int | None, int] = {}
        streets: list[tuple[str, dict[int | None, int], dict[int | None, int]]] = []
        committed: dict[int | None, int] = {}
        last_line: dict[int | None, int] = {}
        street = ""  # (a str, not None: compiled, a compare of two str, not a generic one)
        collects: list[Event] = []
        chip_lines: list[int] = []  # the lines of the events that move chips (a total pot is inferred from them)
        has_total = False
        for e in self.events:
            amount = e.amount
            if amount is None:  # folds, checks, cards: no chips
                continue
            kind, seat = e.kind, e.seat
            if kind in _CHIP_KINDS:
                chip_lines.append(e.line_no)
            if kind in _STREET_CHIPS:
                # seat None: the seatless player's chips (keyed None like his seat), or not followed
                if seat is None and (self.seatless_name is None or e.player != self.seatless_name):
                    continue
                if e.street != street:
                    street, committed, last_line = e.street, {}, {}
                    streets.append((street, committed, last_line))
                chips = cast(int, e.to_amount) - committed.get(seat, 0) if kind in _TO_TOTAL else amount
                put[seat] = put.get(seat, 0) + chips
                live = chips if kind != _DEAD_BLIND else min(chips, hand.big_blind or chips)
                committed[seat] = committed.get(seat, 0) + live
                last_line[seat] = e.line_no
            elif kind == _UNCALLED_RETURN:
                returned[seat] = returned.get(seat, 0) + amount
            elif kind == _ANTE and (seat is not None or (self.seatless_name is not None and e.player == self.seatless_name)):
                put[seat] = put.get(seat, 0) + amount
            elif kind == _COLLECT:
                collects.append(e)
            elif kind == _TOTAL_POT:
                has_total = True
        excess: dict[int | None, int] = {}
        # the streets that hold a line not understood: there, a line unread may be the call that
        # matched a bet, and no return is inferred from the chips it leaves unmatched (the hand's
        # chips then do not reconcile, and the ingest refuses it: parsers.base.unreconciled)
        unread_streets: set[str] = set()
        if self.unread_count:
            for e in self.events:
                if e.kind == _UNREAD:
                    unread_streets.add(e.street)
        for street_name, committed, last_line in streets:
            # the street's top commitment (the first seat to reach it) over the next highest:
            # loops, not max() with a key function and a generator (each a Python call a street)
            # (the top seat told by its place in the street's order: seats are int or None, and
            # compiled, a compare of two such is a generic one)
            top: int | None = None
            top_chips = 0
            top_at = -1
            at = 0
            for s, v in committed.items():
                if top_at < 0 or v > top_chips:
                    top, top_chips, top_at = s, v, at
                at += 1
            if top_at < 0:
                continue
            second = 0
            others = False
            at = 0
            for v in committed.values():
                if at != top_at and (not others or v > second):
                    second, others = v, True
                at += 1
            if top_chips > second and street_name not in unread_streets:
                excess[top] = excess.get(top, 0) + top_chips - second
                excess_line[top] = last_line[top]
        for seat, chips in put.items():
            if (chips > self.stacks.get(seat, chips) and self.stacks[seat] == 0
                    and f"{self.player_of(seat)} has joined the table" in self.text):
                # 'Seat 2: Player8 ( $0 USD )', 'Player8 has joined the table.', then his posts: the
                # seat line shows the chair before his buy-in, and the stack he played is not written
                for joined in hand.seats:
                    if joined.seat == seat:
                        joined.starting_stack = None
                continue
            if chips > self.stacks.get(seat, chips):
                line = max(e.line_no for e in self.events if e.seat == seat and e.amount is not None)
                raise Reject("stack-exceeded", line, f"line {line}: {self.player_of(seat)!r} puts in {chips}, more than "
                             f"the {self.stacks[seat]} the seat line gives: the history does not record the stack played")
        in_pot = 0
        for chips in put.values():  # (loops: sum() is a call by name, compiled too)
            in_pot += chips
        for chips in returned.values():
            in_pot -= chips
        for seat, chips in excess.items():
            chips -= returned.get(seat, 0)
            if chips <= 0:
                continue
            mine = [e for e in collects if e.seat == seat]
            includes = False
            if mine:
                collected = 0
                for e in collects:
                    collected += cast(int, e.amount)
                includes = collected > in_pot - chips
            exact = [e for e in mine if e.amount == chips] if includes else []
            if exact:  # a win line of exactly the unmatched chips ('side pot #1', 888's own line): the return, as written
                exact[0].kind = K.UNCALLED_RETURN
                exact[0].pot_label = exact[0].half = None
                collects = [e for e in collects if e is not exact[0]]
                chip_lines.append(exact[0].line_no)
            else:
                # the unmatched chips of the seat's last commitment; when its win line includes
                # them, that collect less them (both inferred, on the win line)
                where: Event | None = None
                if includes:
                    for e in mine:  # the largest (the first of equals)
                        if where is None or cast(int, e.amount) > cast(int, where.amount):
                            where = e
                elif collects:
                    where = collects[0]
                lines = [excess_line[seat]] + ([where.line_no] if where is not None else [])
                ret = Event(0, S.SHOWDOWN if where is None or where.street != S.SUMMARY else S.SUMMARY, K.UNCALLED_RETURN,
                            lines[-1], seat, self.player_of(seat), chips, text=self.line_text(lines[-1]),
                            inferred_from=ascending(lines))
                if includes:
                    assert where is not None
                    where.amount = cast(int, where.amount) - chips
                    where.inferred_from = ret.inferred_from
                at = len(self.events)
                if where is not None:
                    for k, e in enumerate(self.events):
                        if e is where:
                            at = k
                            break
                self.events.insert(at, ret)
            returned[seat] = returned.get(seat, 0) + chips
            in_pot -= chips
        if not hand.is_tournament and not has_total and self.unread_count:
            # a cash hand whose record writes no total pot: its rake is known only as what its wins
            # leave of the chips put in, so nothing can show that a line not understood moved no chips
            first = next(e for e in self.events if e.kind == _UNREAD)
            raise Reject("unreconciled", first.line_no, f"line {first.line_no} not understood ({first.text!r}) in a cash hand "
                         "that writes no total pot: its rake is unknown, so its chips cannot show that the line moved none")
        if not hand.is_tournament and not has_total:
            # the format writes no total pot or rake: the chips that stayed in the pot (put in
            # less returned) and, less what was won, the rake (the returns inferred above rest
            # on bet and win lines already among these).  Not where a line was not understood:
            # a rake inferred would take up whatever chips that line moved, and the hand's
            # collects are then held to its chips put in (parsers.base.unreconciled)
            won = 0
            for e in collects:
                won += cast(int, e.amount)
            collect_lines = ascending([e.line_no for e in collects])
            last = collect_lines[-1] if collect_lines else self.buf[-1][0]
            rake = in_pot - won
            self.events.append(Event(0, S.SUMMARY, K.TOTAL_POT, last, amount=in_pot, to_amount=max(rake, 0),
                                     text=self.line_text(last), inferred_from=ascending(chip_lines + collect_lines)))

    def line_text(self, no: int) -> str | None:
        """The hand's source line ``no``, verbatim (the text of an inferred event placed on it)."""
        buf = self.buf
        k = no - buf[0][0]  # the hand's lines follow one another: the line is found where it should be
        if 0 <= k < len(buf) and buf[k][0] == no:
            return buf[k][2]
        for n, _, t in buf:
            if n == no:
                return t
        return None

    def player_of(self, seat: int | None) -> str | None:
        for name, s in self.names.items():
            if s == seat:
                return name
        return None
