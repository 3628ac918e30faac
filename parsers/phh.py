"""Reader for PHH, the Poker Hand History format (TOML; https://phh.readthedocs.io).

A ``.phh`` file holds one hand; a ``.phhs`` file holds several, each under its
own top-level table (``[1]``, ``[2]``, ...).  Every hand becomes one
:class:`~parsers.base.ParsedHand` or one :class:`~parsers.base.HandError`.

Events follow the conventions shared with the site parsers, so the replay
engine reads one log:

* forced bets first: one ``ante`` per player with a non-zero ante, then the
  blinds in ``blinds_or_straddles`` order (first positive ``small_blind``,
  second ``big_blind``, further ones ``straddle``; a lone positive blind, as in
  short-deck's button blind, is the ``big_blind``), then each negative entry -x
  as x posted dead, a ``small_blind`` out of position (NEGATIVE_FORCED_BET);
* then exactly one event per entry of ``actions``, in order, with ``text`` the
  action string verbatim (forced-bet and outcome events have ``text`` None);
* then one ``finishing_stack`` and one ``winnings`` event per player when those
  fields exist, on street ``summary``, and a ``total_pot`` event that states no total
  (amount None) with the rake (``to_amount``) when the hand writes ``rake``; without it,
  winnings are net of a rake the record does not give (the spec).

An unknown starting stack (``inf``, as the spec writes it) is stored as None (NULL):
the reader and the replay follow such a player as unbounded, never all in by his stack,
and every judgement that needs the stack is left unjudged.

Player order is by position: p1 is the small blind, the last player the
button.  Heads-up, the spec reverse-assigns antes and blinds ("the antes,
blinds, and straddles are reverse-assigned for heads-up situations"), so p1
posts the *big* blind and p2 posts the small blind and has the button: the
button is the last position in every button game, heads-up included.

To classify ``cc`` (check or call) and ``cbr`` (complete, bet or raise *to*)
the reader keeps a minimal betting state: stacks, per-street commitments and
the current bet.  Rules (turn order, bet sizes) are the replay engine's job.

>>> text = '''variant = "NT"
... antes = [0, 0, 0]
... blinds_or_straddles = [1, 2, 0]
... min_bet = 2
... starting_stacks = [100, 100, 100]
... actions = ["d dh p1 AsKd", "d dh p2 ????", "d dh p3 ????", "p3 cbr 6", "p1 f", "p2 cc"]
... '''
>>> lines = [(i, 0, s) for i, s in enumerate(text.splitlines(), 1)]
>>> [h] = PhhParser().iter_hands(iter(lines), "x/y/hand.phh")
>>> h.hand_id, h.variant, h.betting, h.button_seat
('PHH-x/y/hand', 'holdem', 'no-limit', 3)
>>> [(e.kind, e.seat, e.amount, e.to_amount) for e in h.events if e.kind not in ("deal_hole",)]
[('small_blind', 1, 1, None), ('big_blind', 2, 2, None), ('raise', 3, 4, 6), ('fold', 1, None, None), ('call', 2, 4, None)]
"""

from __future__ import annotations

import datetime as dt
import re
import tomllib
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation
from pathlib import PurePath
from types import SimpleNamespace
from typing import Any, Iterator

from auditor.schema import Betting, EventKind, Street, Variant
from parsers.base import MAX_DECIMALS, Event, HandError, ParsedHand, Seat, content_hash, single_payer_ante

# plain-string kinds and streets: enum attribute access is slow in the per-action loop
_K = SimpleNamespace(**{k.name: k.value for k in EventKind})
_S = SimpleNamespace(**{s.name: s.value for s in Street})

# variant code -> (Variant, Betting, street family of BETTING_STREETS)
VARIANTS: dict[str, tuple[Variant, Betting, str]] = {
    "NT": (Variant.HOLDEM, Betting.NO_LIMIT, "board"),
    "NS": (Variant.SIX_PLUS_HOLDEM, Betting.NO_LIMIT, "board"),
    "PO": (Variant.OMAHA, Betting.POT_LIMIT, "board"),
    "FT": (Variant.HOLDEM, Betting.FIXED_LIMIT, "board"),
    "FO/8": (Variant.OMAHA_HILO, Betting.FIXED_LIMIT, "board"),
    "F7S": (Variant.STUD, Betting.FIXED_LIMIT, "stud"),
    "F7S/8": (Variant.STUD_HILO, Betting.FIXED_LIMIT, "stud"),
    "FR": (Variant.RAZZ, Betting.FIXED_LIMIT, "stud"),
    "N2L1D": (Variant.DRAW_2_7_SINGLE, Betting.NO_LIMIT, "single_draw"),
    "F2L3D": (Variant.DRAW_2_7_TRIPLE, Betting.FIXED_LIMIT, "triple_draw"),
    "FB": (Variant.BADUGI, Betting.FIXED_LIMIT, "triple_draw"),
}

STREETS: dict[str, tuple[str, ...]] = {
    "board": (_S.PREFLOP, _S.FLOP, _S.TURN, _S.RIVER),
    "stud": (_S.THIRD, _S.FOURTH, _S.FIFTH, _S.SIXTH, _S.SEVENTH),
    "single_draw": (_S.PREDRAW, _S.FIRST_DRAW),
    "triple_draw": (_S.PREDRAW, _S.FIRST_DRAW, _S.SECOND_DRAW, _S.THIRD_DRAW),
}
BOARD_CARDS = (0, 3, 1, 1)  # board cards dealt at the start of preflop, flop, turn, river
STUD_CARDS = (3, 1, 1, 1, 1)  # cards each player receives on third..seventh street

# a top-level key at the start of a line (bare or quoted)
_KEY = re.compile(r"""\s*(?:([A-Za-z0-9_-]+)|"([^"]*)"|'([^']*)')\s*=""")
# a table header of a .phhs file: [1], [hand-2], ... (not [[arrays]])
_HEADER = re.compile(r"""\s*\[\s*([^\[\]]+?)\s*\](?:\s*#.*)?\s*$""")
# tokens inside the actions array: strings (all four TOML kinds), comments, newlines, the closing bracket
_TOKEN = re.compile(r'"""[\s\S]*?"""|\'\'\'[\s\S]*?\'\'\'|"(?:[^"\\\n]|\\.)*"|\'[^\'\n]*\'|#[^\n]*|\n|\]')
_CARDS = re.compile(r"(?:[2-9TJQKA?][cdhs?])+")
_TOML_LINE = re.compile(r"line (\d+)")
_SIGNIFICANT = re.compile(r"\s*(?:#.*)?$")  # matches blank and comment-only lines

_BETTING_ACTS = frozenset({"pb", "f", "cc", "cbr"})

# the reader's working stack for a player whose stack the record does not know (``inf``):
# larger than any amount a hand can hold, so no action is capped by it and nobody is all in
# by it; never stored (the seat's starting_stack is None)
UNBOUNDED = 1 << 62

# Negative forced bets (the spec asks for non-negative ones).  HandHQ's Ongame conversions
# write a player who posts a blind dead (a player entering, or returning, posts the small
# blind into the pot, not toward his call) as a negative entry of blinds_or_straddles:
# [5, 10, -5, 0, 0] and p3's finishing stack 5 below what his calls and bets put in.  So
# -x reads as x posted dead, where the hand still has its small and big blind, is not
# heads-up and x is at most the small blind (dead money is the small blind's part); it is
# recorded as a small blind posted out of position, after the blinds, which the replay keeps
# dead.  Any other negative forced bet (an ante, a hand left without its two blinds, more
# than the small blind) says nothing the record shows: that hand alone is rejected, with
# this reason.
NEGATIVE_FORCED_BET = (
    "{field} gives p{player} {value}: a forced bet must not be negative (the PHH spec); a negative blind is read as "
    "a small blind posted dead only beside a small and a big blind, not heads-up and at most the small blind, and "
    "no other reading is in the record, so the chips of this hand cannot be followed"
)

# The flat TOML most PHH writers emit, one ``key = value`` per line, is read without
# tomllib (otherwise most of the time spent on a hand).  A scalar: a literal or basic
# string without escapes or control characters (TOML allows a tab), a decimal integer or
# float without underscores, a boolean, ``inf``.  A value: a scalar or a one-line array of them.
# Anything else (comments, tables, multi-line arrays, dates, ...) goes to tomllib.
_FLAT_SCALAR = (
    r"'[^'\x00-\x08\x0a-\x1f\x7f]*'"
    r'|"[^"\\\x00-\x08\x0a-\x1f\x7f]*"'
    r"|[+-]?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?"
    r"|true|false"
    r"|inf"  # positive infinity: PHH's unknown stack
)
# a bare key, "=" and the rest of the line: the value and any spaces after it
_FLAT_KEY = re.compile(r"([A-Za-z0-9_-]+)[ \t]*=[ \t]*(.*)")
_FLAT_VALUE = re.compile(
    rf"{_FLAT_SCALAR}|\[[ \t]*(?:(?:{_FLAT_SCALAR})[ \t]*,[ \t]*)*(?:(?:{_FLAT_SCALAR})[ \t]*,?[ \t]*)?\]"
)
_FLAT_ITEM = re.compile(_FLAT_SCALAR)
# the arrays of literal strings and of whole numbers exactly as PHH writers print them,
# ['a', 'b'] and [1, 2]: split at the separators (no item can hold one)
_STRING_LIST = re.compile(r"\[(?:'[^'\x00-\x08\x0a-\x1f\x7f]*', )*'[^'\x00-\x08\x0a-\x1f\x7f]*'\]")
_INT_LIST = re.compile(r"\[(?:(?:0|[1-9][0-9]*), )*(?:0|[1-9][0-9]*)\]")


class Reject(Exception):
    """A hand that cannot be followed: becomes a HandError."""

    def __init__(self, code: str, reason: str, line_no: int | None = None):
        super().__init__(reason)
        self.code, self.reason, self.line_no = code, reason, line_no


@dataclass(slots=True)
class _Action:
    """One parsed entry of ``actions``."""

    text: str
    line_no: int
    actor: int | None  # 0-based player index, None for the dealer
    verb: str  # db, dh, sd, pb, f, cc, cbr, sm
    arg: str | None  # cards or the cbr amount as written
    amount: Decimal | int | None = None


class PhhParser:
    name = "phh"
    # a seat's ante and blind are amounts in the header, in no order of posting (the parser
    # posts the antes first): a short big-blind-ante payer's split is no dealer's
    bba_split_by_format = True
    # the actions as made, live play too: no site software kept the turn
    actions_in_play_order = True
    # winnings are "post-rake values" (the spec) and the rake has a field of its own that
    # converters leave out (HandHQ): outcomes short of the pot are a rake not written
    outcomes_net_of_unwritten_rake = True
    hand_start = None  # files are small (one hand, or a few hundred in a .phhs): read whole

    def detect(self, head: str, path: str) -> bool:
        """A ``.phh``/``.phhs`` file, or TOML text with ``variant =`` and ``actions =``.

        >>> PhhParser().detect("", "a/b.phhs"), PhhParser().detect("variant = 'NT'\\nactions = []", "x.txt")
        (True, True)
        >>> PhhParser().detect("PokerStars Hand #1", "x.txt")
        False
        """
        if path.lower().endswith((".phh", ".phhs")):
            return True
        return bool(re.search(r"(?m)^\s*variant\s*=", head) and re.search(r"(?m)^\s*actions\s*=", head))

    def iter_hands(self, lines: Iterator[tuple[int, int, str]], path: str) -> Iterator[ParsedHand | HandError]:
        base_id = "PHH-" + "/".join(PurePath(path).with_suffix("").parts[-3:])
        buf = list(lines)  # PHH files are small (one hand, or a few hundred in a .phhs)
        if not buf:
            return
        multi = path.lower().endswith(".phhs")
        if not multi:
            # a hand file without the extension may still be a .phhs: its first content is a table header
            first = next((t for _, _, t in buf if not _SIGNIFICANT.match(t)), None)
            multi = first is not None and _HEADER.match(first) is not None and not path.lower().endswith(".phh")
        if not multi:
            yield _hand(buf, base_id)
            return
        # split into sections at table headers whose first dotted name part changes
        sections: list[tuple[str, list[tuple[int, int, str]]]] = []
        preamble: list[tuple[int, int, str]] = []
        for item in buf:
            m = _HEADER.match(item[2])
            if m:
                top = m.group(1).split(".")[0].strip().strip("\"'")
                if not sections or sections[-1][0] != top:
                    sections.append((top, [item]))
                    continue
            (sections[-1][1] if sections else preamble).append(item)
        stray = next((ln for ln, _, t in preamble if not _SIGNIFICANT.match(t)), None)
        if stray is not None:
            yield HandError(stray, "parse-error", "a .phhs file must hold hands under [N] tables; this line is outside any table")
        for n, (_, sec) in enumerate(sections, 1):
            yield _hand(sec, f"{base_id}:{n}", table=True)


def _hand(sec: list[tuple[int, int, str]], hand_id: str, table: bool = False) -> ParsedHand | HandError:
    # trailing blank/comment lines are not part of the hand
    end = len(sec)
    while end > 1 and not sec[end - 1][2].strip():
        end -= 1
    sec = sec[:end]
    first_line = sec[0][0]
    text = "\n".join(t for _, _, t in sec)
    try:
        return _build(sec, text, hand_id, table)
    except Reject as r:
        return HandError(r.line_no or first_line, r.code, r.reason, hand_id)
    except tomllib.TOMLDecodeError as e:
        m = _TOML_LINE.search(str(e))
        line = first_line + int(m.group(1)) - 1 if m else sec[-1][0] if "end of document" in str(e) else first_line
        return HandError(line, "bad-toml", f"not valid TOML: {e}", hand_id)
    except RecursionError:  # pathological nesting in TOML
        return HandError(first_line, "bad-toml", "not valid TOML: nesting too deep", hand_id)
    except ValueError as e:  # Python will not read an integer of more than 4,300 digits
        if "integer string conversion" not in str(e):
            raise
        return HandError(first_line, "amount-out-of-range", f"a number too large to read: {str(e).split(':')[0]}", hand_id)


def _key_lines(sec: list[tuple[int, int, str]]) -> dict[str, int]:
    """1-based line of each top-level key (first occurrence)."""
    out: dict[str, int] = {}
    for ln, _, t in sec:
        m = _KEY.match(t)
        if m:
            out.setdefault(m.group(1) or m.group(2) or m.group(3) or "", ln)
    return out


def _action_lines(sec: list[tuple[int, int, str]], start: int | None, count: int) -> list[int]:
    """Line of each string in the ``actions`` array, found by scanning its raw text."""
    if start is None:
        return []
    idx = next(i for i, (ln, _, _) in enumerate(sec) if ln == start)
    first = sec[idx][2]
    body = first[first.index("=") + 1 :]
    body = body[body.index("[") + 1 :] if "[" in body else body
    text = "\n".join([body] + [t for _, _, t in sec[idx + 1 :]])
    out: list[int] = []
    line = start
    for m in _TOKEN.finditer(text):
        tok = m.group()
        if tok == "\n":
            line += 1
        elif tok == "]":
            break
        elif tok[0] in "\"'":
            out.append(line)
            line += tok.count("\n")  # multi-line strings
            if len(out) == count:
                break
    if len(out) != count:  # the scanner lost its way (exotic TOML); the field's line is still right
        return [start] * count
    return out


def _negative(v: Any) -> bool:
    """A number below 0 (not a bool, not NaN).

    >>> _negative(-5), _negative(Decimal("-0.50")), _negative(0), _negative(True), _negative(Decimal("nan"))
    (True, True, False, False, False)
    """
    return isinstance(v, (int, Decimal)) and not isinstance(v, bool) and not (isinstance(v, Decimal) and v.is_nan()) and v < 0


def _unknown(v: Any) -> bool:
    """An amount PHH writes as not known: ``inf`` (TOML's positive infinity).

    >>> _unknown(Decimal("inf")), _unknown(Decimal("-inf")), _unknown(7)
    (True, False, False)
    """
    return isinstance(v, Decimal) and v.is_infinite() and v > 0


def _num(v: Any, what: str, line: int | None) -> Decimal | int:
    """A TOML number as an exact value (floats arrive as Decimal via parse_float)."""
    if isinstance(v, bool) or not isinstance(v, (int, Decimal)):
        raise Reject("parse-error", f"{what} must be a number, not {v!r}", line)
    if isinstance(v, Decimal) and not v.is_finite():
        written = "nan" if v.is_nan() else "-inf" if v < 0 else "inf"
        raise Reject("unknown-amount", f"{what} is unknown ({written}); only a starting stack may be unknown", line)
    if v < 0:
        raise Reject("parse-error", f"{what} must not be negative ({v})", line)
    if isinstance(v, Decimal) and v.adjusted() > 18:  # 10**19 and more: beyond a 64-bit amount, however scaled
        raise Reject("amount-out-of-range", f"{what} {v} is too large to store exactly", line)
    return v


def _decimals(v: Decimal | int) -> int:
    """Decimal places needed to write v exactly (0 for whole numbers), counted on
    its digits, not through a decimal context (which rounds to 28 digits).

    >>> [_decimals(Decimal(x)) for x in ("9775.0", "0.000", "1.50", "1.00000000000000000000000000001")]
    [0, 0, 1, 29]
    """
    if isinstance(v, int):
        return 0
    _, digits, exponent = v.as_tuple()
    significant = "".join(map(str, digits)).rstrip("0")
    if not significant:
        return 0
    return max(0, -(int(exponent) + len(digits) - len(significant)))


def _scaled(v: Decimal | int, places: int) -> int:
    """v * 10**places exactly, as an int (v has at most ``places`` decimals).

    >>> _scaled(Decimal("1.00000000000000000000000000001"), 29), _scaled(Decimal("152.5"), 2), _scaled(7, 2)
    (100000000000000000000000000001, 15250, 700)
    """
    if isinstance(v, int):
        return v * 10**places
    sign, digits, exponent = v.as_tuple()
    n, shift = int("".join(map(str, digits))), int(exponent) + places
    exact = n * 10**shift if shift >= 0 else n // 10**-shift
    return -exact if sign else exact


def _cards(s: str, line: int) -> str:
    if len(s) % 2 or not _CARDS.fullmatch(s):
        raise Reject("parse-error", f"{s!r} is not a card list (rank+suit pairs, ?? for unknown)", line)
    return " ".join([s[i : i + 2] for i in range(0, len(s), 2)])


def _flat_scalar(tok: str) -> str | bool | int | Decimal:
    """A _FLAT_SCALAR token as tomllib reads it (floats as Decimal)."""
    if tok[0] in "'\"":
        return tok[1:-1]  # no escapes to undo
    if tok == "true" or tok == "false":
        return tok == "true"
    if tok == "inf":
        return Decimal("Infinity")
    if "." in tok or "e" in tok or "E" in tok:
        return Decimal(tok)
    return int(tok)


def _flat_toml(text: str) -> dict[str, Any] | None:
    """The document when every line is blank or a bare key = a _FLAT_VALUE (the
    same dict as tomllib's); None for any other document.

    >>> _flat_toml("a = 1\\nb = ['x', \\"y\\", 2.50, true]\\n")
    {'a': 1, 'b': ['x', 'y', Decimal('2.50'), True]}
    >>> _flat_toml("a = 1 # comment") is None, _flat_toml("a = 1\\na = 2") is None
    (True, True)
    """
    doc: dict[str, Any] = {}
    for line in text.split("\n"):
        m = _FLAT_KEY.fullmatch(line)
        if m is None:
            if line.strip(" \t"):
                return None
            continue  # a blank line
        key, value = m.groups()
        if key in doc:
            return None  # a key given twice: tomllib's error
        value = value.rstrip(" \t")  # no value ends in a space or a tab
        if _STRING_LIST.fullmatch(value):
            doc[key] = value[2:-2].split("', '")
        elif _INT_LIST.fullmatch(value):
            doc[key] = [int(x) for x in value[1:-1].split(", ")]
        elif not _FLAT_VALUE.fullmatch(value):
            return None
        elif value[0] == "[":
            # the value matched, so between the brackets findall finds exactly the items
            doc[key] = [_flat_scalar(t) for t in _FLAT_ITEM.findall(value)]
        else:
            doc[key] = _flat_scalar(value)
    return doc


def _build(sec: list[tuple[int, int, str]], text: str, hand_id: str, table: bool) -> ParsedHand:
    doc = _flat_toml(text)
    flat = doc is not None  # every value on its key's line
    if doc is None:  # floats exact; the newline keeps error lines in the text
        doc = tomllib.loads(text + "\n", parse_float=Decimal)
    first_line, last_line, byte_offset = sec[0][0], sec[-1][0], sec[0][1]
    if table:
        if len(doc) != 1 or not isinstance(next(iter(doc.values())), dict):
            raise Reject("parse-error", "a .phhs hand must be one table", first_line)
        doc = next(iter(doc.values()))
    keys = _key_lines(sec)

    def line_of(k: str) -> int:
        return keys.get(k, first_line)

    def need(k: str) -> Any:
        if k not in doc:
            raise Reject("missing-field", f"required field {k!r} is missing", first_line)
        return doc[k]

    code = need("variant")
    if not isinstance(code, str) or code not in VARIANTS:
        raise Reject("unsupported-variant", f"variant {code!r} is not one this tool reads ({', '.join(VARIANTS)})", line_of("variant"))
    variant, betting, family = VARIANTS[code]
    streets = STREETS[family]
    stud = family == "stud"

    stacks_raw = need("starting_stacks")
    if not isinstance(stacks_raw, list) or len(stacks_raw) < 2:
        raise Reject("parse-error", "starting_stacks must list at least two players", line_of("starting_stacks"))
    n = len(stacks_raw)

    def num_list(k: str, required: bool) -> list[Decimal | int] | None:
        if k not in doc:
            if required:
                raise Reject("missing-field", f"required field {k!r} is missing for variant {code}", first_line)
            return None
        v, ln = doc[k], line_of(k)
        if not isinstance(v, list) or len(v) != n:
            raise Reject("parse-error", f"{k} must be a list of {n} numbers (one per player)", ln)
        if all(type(x) is int and x >= 0 for x in v):  # the common case, checked cheaply
            return v
        if k == "blinds_or_straddles":  # a negative entry: a dead post (see NEGATIVE_FORCED_BET), checked below
            return [-_num(-x, k, ln) if _negative(x) else _num(x, k, ln) for x in v]
        for i, x in enumerate(v):
            if k == "antes" and _negative(x):
                raise Reject("negative-forced-bet", NEGATIVE_FORCED_BET.format(field=k, player=i + 1, value=x), ln)
        return [_num(x, k, ln) for x in v]

    def num_field(k: str, required: bool) -> Decimal | int | None:
        if k not in doc:
            if required:
                raise Reject("missing-field", f"required field {k!r} is missing for variant {code}", first_line)
            return None
        return _num(doc[k], k, line_of(k))

    # an unknown stack is written ``inf`` (the spec: "Unknown stack values can be denoted as
    # inf"): None here, NULL in the store; the hand is judged on what needs no stack
    stack_line = line_of("starting_stacks")
    starting: list[Decimal | int | None]
    if all(type(x) is int and x >= 0 for x in stacks_raw):  # the common case, checked cheaply
        starting = list(stacks_raw)
    else:
        starting = [None if _unknown(x) else _num(x, "starting_stacks", stack_line) for x in stacks_raw]
    antes = num_list("antes", True)
    blinds = num_list("blinds_or_straddles", not stud) or [0] * n
    if stud and "blinds_or_straddles" in doc and any(blinds):
        raise Reject("parse-error", "a stud hand has no blinds (blinds_or_straddles must be absent or zero)", line_of("blinds_or_straddles"))
    bring_in = num_field("bring_in", stud)
    small_bet = num_field("small_bet", False)
    big_bet = num_field("big_bet", False)
    min_bet = num_field("min_bet", False)
    finishing = num_list("finishing_stacks", False)
    winnings = num_list("winnings", False)
    rake = num_field("rake", False)  # pokerkit's field: the house's take; without it winnings are net of a rake not recorded
    assert antes is not None
    if any(s == 0 for s in starting):
        raise Reject("parse-error", "starting stacks must be positive", line_of("starting_stacks"))

    players_raw = doc.get("players")
    if players_raw is None:
        players = [f"p{i + 1}" for i in range(n)]
    elif not isinstance(players_raw, list) or len(players_raw) != n or not all(isinstance(p, str) for p in players_raw):
        raise Reject("parse-error", f"players must be a list of {n} names", line_of("players"))
    else:
        players = list(players_raw)
    seats_raw = doc.get("seats")
    if seats_raw is None:
        seat_no = list(range(1, n + 1))
    elif (
        not isinstance(seats_raw, list)
        or len(seats_raw) != n
        or not all(isinstance(s, int) and not isinstance(s, bool) and s > 0 for s in seats_raw)
        or len(set(seats_raw)) != n
    ):
        raise Reject("parse-error", f"seats must be {n} distinct positive seat numbers", line_of("seats"))
    else:
        seat_no = list(seats_raw)

    # --- the actions, parsed once; cbr amounts kept exact for the scale ---------------
    acts_raw = need("actions")
    if not isinstance(acts_raw, list) or not all(isinstance(a, str) for a in acts_raw):
        raise Reject("parse-error", "actions must be a list of strings", line_of("actions"))
    if flat:  # a one-line array: every action is on the line of ``actions =``
        act_lines = [keys["actions"]] * len(acts_raw)
    else:
        act_lines = _action_lines(sec, keys.get("actions"), len(acts_raw))
    actions: list[_Action] = []
    for a, ln in zip(acts_raw, act_lines):
        body = a[: a.index("#")] if "#" in a else a  # drop the commentary
        w = body.split()
        if not w:
            raise Reject("unsupported-action", f"no-op action {a!r}: the event log has no kind for it", ln)
        if w[0] == "d":
            if len(w) == 3 and w[1] == "db":
                actions.append(_Action(a, ln, None, "db", w[2]))
                continue
            if len(w) == 4 and w[1] == "dh":
                actions.append(_Action(a, ln, _player(w[2], n, a, ln), "dh", w[3]))
                continue
            raise Reject("parse-error", f"unknown dealer action {a!r}", ln)
        who = _player(w[0], n, a, ln)
        verb = w[1] if len(w) > 1 else ""
        if verb in ("f", "cc", "pb", "sd", "sm") and len(w) == 2:
            actions.append(_Action(a, ln, who, verb, None))
        elif verb in ("sd", "sm") and len(w) == 3:
            actions.append(_Action(a, ln, who, verb, w[2]))
        elif verb == "cbr" and len(w) == 3:
            try:
                amt: Decimal | int = int(w[2])
            except ValueError:
                try:
                    amt = Decimal(w[2])
                except InvalidOperation:
                    raise Reject("parse-error", f"{w[2]!r} in {a!r} is not an amount", ln) from None
            actions.append(_Action(a, ln, who, verb, w[2], _num(amt, f"the amount of {a!r}", ln)))
        else:
            raise Reject("parse-error", f"unknown action {a!r}", ln)

    # --- exact integer amounts -------------------------------------------------------------
    every: list[Decimal | int] = [*[x for x in starting if x is not None], *antes, *blinds, *(finishing or ()), *(winnings or ())]
    every += [x for x in (bring_in, small_bet, big_bet, min_bet, rake) if x is not None]
    every += [x.amount for x in actions if x.amount is not None]
    # only non-int values can need a scale (whole floats like 9775.0 do not)
    places = max(map(_decimals, [v for v in every if type(v) is not int]), default=0)
    if places > MAX_DECIMALS:
        raise Reject("amount-out-of-range", f"an amount has {places} decimal places: more than {MAX_DECIMALS} cannot be stored exactly",
                     line_of("starting_stacks"))
    scale = 10**places

    def si(v: Decimal | int | None) -> int | None:
        return None if v is None else _scaled(v, places)

    # ints even at scale 1: a whole float (100000.0) arrives as Decimal; a stack not known is
    # followed as unbounded (UNBOUNDED, never stored: its seat's starting_stack is None)
    stack = [UNBOUNDED if v is None else _scaled(v, places) for v in starting]
    hand = ParsedHand(
        hand_id=hand_id,
        site="phh",
        format="phh",
        variant=variant.value,
        betting=betting.value,
        first_line=first_line,
        last_line=last_line,
        byte_offset=byte_offset,
        content_hash=content_hash(text),
        game_label=code,
        amount_scale=scale,
        chip_unit=scale,
        bring_in=si(bring_in),
        small_bet=si(small_bet),
        big_bet=si(big_bet),
        min_bet=si(min_bet),
    )
    for key, attr in (("hand", "hand_number"), ("level", "level"), ("table", "table_name"), ("event", "tournament_name"), ("currency", "currency")):
        v = doc.get(key)
        if isinstance(v, (str, int)) and not isinstance(v, bool):
            setattr(hand, attr, str(v))
    # a named event or level without a currency is a tournament; a currency means the chips are money (cash game)
    hand.is_tournament = ("event" in doc or "level" in doc) and "currency" not in doc
    seat_count = doc.get("seat_count")
    hand.max_seats = seat_count if isinstance(seat_count, int) and not isinstance(seat_count, bool) else n
    if not stud:  # button games: the last position has the button (heads-up too, see the module doc)
        hand.button_seat = seat_no[-1]
    hand.started_at_text, hand.started_at = _started_at(doc)
    hand.seats = [Seat(seat_no[i], players[i], None if starting[i] is None else stack[i], i + 1, line_no=stack_line)
                  for i in range(n)]

    # --- forced bets ---------------------------------------------------------------------------
    ev = hand.events
    street0 = streets[0]
    # heads-up, antes and blinds are reverse-assigned: player i posts entry 1 - i
    poster = (lambda j: 1 - j) if n == 2 else (lambda j: j)
    commit = [0] * n
    ante_line = line_of("antes")
    for j in range(n):
        a = si(antes[j]) or 0
        if a:
            i = poster(j)
            a = min(a, stack[i])
            stack[i] -= a
            ev.append(Event(len(ev), street0, _K.ANTE, ante_line, seat_no[i], players[i], a, all_in=stack[i] == 0))
    hand.ante = max((si(a) or 0 for a in antes), default=0)
    blind_line = line_of("blinds_or_straddles")
    nonzero = [j for j in range(n) if blinds[j] > 0]
    dead = [j for j in range(n) if blinds[j] < 0]
    over = [j for j in dead if nonzero and -blinds[j] > blinds[nonzero[0]]]
    if dead and (n == 2 or len(nonzero) < 2 or over):
        j = (over or dead)[0]
        raise Reject("negative-forced-bet", NEGATIVE_FORCED_BET.format(field="blinds_or_straddles", player=j + 1, value=blinds[j]),
                     blind_line)
    for k, j in enumerate(nonzero):
        i = poster(j)
        b = min(si(blinds[j]) or 0, stack[i])
        if len(nonzero) == 1 or k == 1:
            kind = _K.BIG_BLIND
            hand.big_blind = si(blinds[j])
        elif k == 0:
            kind = _K.SMALL_BLIND
            hand.small_blind = si(blinds[j])
        else:
            kind = _K.STRADDLE
        stack[i] -= b
        commit[i] += b
        ev.append(Event(len(ev), street0, kind, blind_line, seat_no[i], players[i], b, all_in=stack[i] == 0))
    for j in dead:  # posted dead: in the pot, not toward the poster's call (NEGATIVE_FORCED_BET)
        d = min(si(-blinds[j]) or 0, stack[j])
        stack[j] -= d
        ev.append(Event(len(ev), street0, _K.SMALL_BLIND, blind_line, seat_no[j], players[j], d, all_in=stack[j] == 0))
    hand.bb_ante = single_payer_ante(ev)

    # --- the actions ---------------------------------------------------------------------------
    last_betting = max((k for k, x in enumerate(actions) if x.verb in _BETTING_ACTS), default=-1)
    st = 0  # index into streets
    current = max(commit)  # highest commitment on the street
    completed = False  # stud: the bring-in has been completed on third street
    folded = [False] * n
    dealt = [""] * n  # every hole card dealt, for 'sm -'
    street_cards = [0] * n  # stud: cards dealt to each player on this street
    board_cards = 0  # board games: board cards dealt on this street
    drawing = False  # draw games: inside a draw round (no betting since the last sd)
    drew: set[int] = set()  # draw games: players who drew in this draw round

    def advance(ln: int, what: str) -> None:
        nonlocal st, current, commit
        if st + 1 >= len(streets):
            raise Reject("parse-error", f"{what}: more streets than {code} has", ln)
        st += 1
        commit = [0] * n
        current = 0

    for k, x in enumerate(actions):
        i, ln = x.actor, x.line_no
        if i is not None and x.verb in _BETTING_ACTS and folded[i]:
            raise Reject("invalid-action", f"{x.text!r}: player p{i + 1} has already folded", ln)
        # seq, street, kind, line_no, seat, player, amount, to_amount, all_in, cards, pot_label, half, text
        # (positional: cheaper than keywords, once per action)
        e = Event(len(ev), streets[st], "", ln, None if i is None else seat_no[i], None if i is None else players[i],
                  None, None, False, None, None, None, x.text)
        v = x.verb
        if v == "db":
            if family != "board":
                raise Reject("invalid-action", f"{x.text!r}: {code} has no board", ln)
            c = _cards(x.arg or "", ln)
            if st == 0 or board_cards >= BOARD_CARDS[st]:
                advance(ln, x.text)
                board_cards = 0
            board_cards += len(x.arg or "") // 2
            e.street, e.kind, e.cards = streets[st], _K.DEAL_BOARD, c
        elif v == "dh":
            assert i is not None
            c = _cards(x.arg or "", ln)
            cnt = len(x.arg or "") // 2
            if stud:
                if street_cards[i] >= STUD_CARDS[st]:  # this player already has this street's card(s)
                    advance(ln, x.text)
                    street_cards = [0] * n
                street_cards[i] += cnt
            dealt[i] += x.arg or ""
            e.street, e.kind, e.cards = streets[st], _K.DEAL_HOLE, c
        elif v == "sd":
            assert i is not None
            if not family.endswith("draw"):
                raise Reject("invalid-action", f"{x.text!r}: {code} is not a draw game", ln)
            if not drawing or i in drew:  # the first draw of a new draw round
                advance(ln, x.text)
                drawing, drew = True, set()
            drew.add(i)
            e.street = streets[st]
            if x.arg:
                e.kind, e.cards, e.amount = _K.DRAW, _cards(x.arg, ln), len(x.arg) // 2
            else:
                e.kind = _K.STAND_PAT
        elif v == "sm":
            assert i is not None
            if k > last_betting:
                e.street = _S.SHOWDOWN
            if x.arg is None:
                e.kind = _K.MUCK
            else:
                if x.arg == "-":  # "the cards dealt": the spec's shorthand
                    if not dealt[i]:
                        raise Reject("invalid-action", f"{x.text!r}: no hole cards were dealt to p{i + 1}", ln)
                    e.cards = _cards(dealt[i], ln)
                else:
                    e.cards = _cards(x.arg, ln)
                e.kind = _K.SHOW
        else:  # betting: pb, f, cc, cbr
            assert i is not None
            drawing = False
            if v == "f":
                folded[i] = True
                e.kind = _K.FOLD
            elif v == "cc":
                to_call = current - commit[i]
                if to_call <= 0:
                    e.kind = _K.CHECK
                else:
                    add = min(to_call, stack[i])
                    stack[i] -= add
                    commit[i] += add
                    e.kind, e.amount, e.all_in = _K.CALL, add, stack[i] == 0
            elif v == "pb":
                if not stud or bring_in is None:
                    raise Reject("invalid-action", f"{x.text!r}: {code} has no bring-in", ln)
                add = min(si(bring_in) or 0, stack[i])
                stack[i] -= add
                commit[i] += add
                current = max(current, commit[i])
                e.kind, e.amount, e.all_in = _K.BRING_IN, add, stack[i] == 0
            else:  # cbr: the street commitment becomes X
                to = _scaled(x.amount, places)  # type: ignore[arg-type]
                add = to - commit[i]
                if add <= 0 or add > stack[i]:
                    raise Reject(
                        "invalid-action",
                        f"{x.text!r}: p{i + 1} cannot bet to {x.arg} with {commit[i] / scale:g} committed and "
                        f"{'a stack not recorded' if starting[i] is None else f'{stack[i] / scale:g}'} behind",
                        ln,
                    )
                if to <= current:
                    raise Reject("invalid-action", f"{x.text!r}: {x.arg} does not exceed the current bet", ln)
                if stud and st == 0 and not completed:
                    completed = True
                    e.kind, e.amount, e.to_amount = _K.COMPLETE, to - current, to
                elif current == 0:
                    e.kind, e.amount, e.to_amount = _K.BET, to, to
                else:
                    e.kind, e.amount, e.to_amount = _K.RAISE, to - current, to
                stack[i] -= add
                commit[i] = to
                current = to
                e.all_in = stack[i] == 0
        ev.append(e)

    # --- the history's outcome claims -------------------------------------------------------------
    for field_name, kind, values in (("finishing_stacks", _K.FINISHING_STACK, finishing), ("winnings", _K.WINNINGS, winnings)):
        if values is not None:
            ln = line_of(field_name)
            for i in range(n):
                ev.append(Event(len(ev), _S.SUMMARY, kind, ln, seat_no[i], players[i], si(values[i])))
    if rake is not None:  # the rake as a total-pot claim that states no total: amount None, to_amount the rake
        ev.append(Event(len(ev), _S.SUMMARY, _K.TOTAL_POT, line_of("rake"), None, None, None, si(rake)))
    return hand


def _player(tok: str, n: int, action: str, line: int) -> int:
    if tok[:1] == "p" and tok[1:].isdigit():
        i = int(tok[1:]) - 1
        if 0 <= i < n:
            return i
        raise Reject("unknown-player", f"{action!r}: there is no player {tok} (the hand has p1..p{n})", line)
    raise Reject("parse-error", f"{action!r}: {tok!r} is not an actor (d, p1, p2, ...)", line)


def _started_at(doc: dict[str, Any]) -> tuple[str | None, dt.datetime | None]:
    """Start time as recorded (year, month, day, time, time_zone) and, when the date
    is complete, as a naive datetime in its own zone (midnight if no time is given)."""
    y, m, d, t = doc.get("year"), doc.get("month"), doc.get("day"), doc.get("time")
    if not isinstance(y, int):
        return None, None
    parts = [f"{y:04d}"]
    if isinstance(m, int):
        parts.append(f"{m:02d}")
        if isinstance(d, int):
            parts.append(f"{d:02d}")
    txt = "-".join(parts)
    if isinstance(t, dt.time):
        txt += f" {t.isoformat()}"
    tz = doc.get("time_zone") or doc.get("time_zone_abbreviation")
    if isinstance(tz, str):
        txt += f" {tz}"
    when = None
    if len(parts) == 3:
        try:
            when = dt.datetime.combine(dt.date(y, m, d), t if isinstance(t, dt.time) else dt.time()).replace(tzinfo=None)  # type: ignore[arg-type]
        except (ValueError, OverflowError):  # a recorded date that is no calendar date
            when = None
    return txt, when
