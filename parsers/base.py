"""What every parser produces, and the small interface each format implements.

A parser reads one decoded source text and yields, hand by hand, either a
:class:`ParsedHand` (the hand, its seats and its events exactly as recorded)
or a :class:`HandError` (why that hand could not be read, with its line).  It
never repairs or guesses: a hand it does not fully understand is an error.

>>> e = Event(seq=0, street="preflop", kind="fold", line_no=12, seat=3, player="Bob")
>>> e.all_in
False
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass, field
from typing import Callable, Final, Iterator, Protocol

from auditor.schema import EventKind, Street


@dataclass(slots=True, init=False)
class Event:
    seq: int
    street: str
    kind: str
    line_no: int
    seat: int | None = None
    player: str | None = None
    amount: int | None = None
    to_amount: int | None = None
    all_in: bool = False
    cards: str | None = None
    pot_label: str | None = None
    half: str | None = None
    text: str | None = None  # the source line verbatim: never a parser's note
    # None: recorded.  An event the format leaves out but its other lines imply: the lines
    # it is inferred from (see :func:`inferred_from`); its text stays the line it is placed on
    inferred_from: list[int] | None = None
    run: int = 1  # run it twice: the run a board card, show or collect belongs to (auditor.schema EVENTS)

    # written out (init=False): mypyc compiles it, where a dataclass's generated __init__
    # runs as interpreted Python (a seventh of a compiled parse)
    def __init__(self, seq: int, street: str, kind: str, line_no: int, seat: int | None = None,
                 player: str | None = None, amount: int | None = None, to_amount: int | None = None,
                 all_in: bool = False, cards: str | None = None, pot_label: str | None = None, half: str | None = None,
                 text: str | None = None, inferred_from: list[int] | None = None, run: int = 1) -> None:
        self.seq = seq
        self.street = street
        self.kind = kind
        self.line_no = line_no
        self.seat = seat
        self.player = player
        self.amount = amount
        self.to_amount = to_amount
        self.all_in = all_in
        self.cards = cards
        self.pot_label = pot_label
        self.half = half
        self.text = text
        self.inferred_from = inferred_from
        self.run = run


@dataclass(slots=True, init=False)
class Seat:
    seat: int
    player: str
    starting_stack: int | None  # None: the record does not know it (PHH writes an unknown stack as ``inf``)
    position: int | None = None
    sitting_out: bool = False
    bounty: str | None = None
    line_no: int | None = None

    # written out, as Event's is
    def __init__(self, seat: int, player: str, starting_stack: int | None, position: int | None = None,
                 sitting_out: bool = False, bounty: str | None = None, line_no: int | None = None) -> None:
        self.seat = seat
        self.player = player
        self.starting_stack = starting_stack
        self.position = position
        self.sitting_out = sitting_out
        self.bounty = bounty
        self.line_no = line_no


@dataclass(slots=True, init=False)
class ParsedHand:
    """One hand as recorded.  Field names are the ``hands`` columns."""

    hand_id: str
    site: str
    format: str
    variant: str
    betting: str
    first_line: int
    last_line: int
    byte_offset: int
    content_hash: str
    hand_number: str | None = None
    tournament_id: str | None = None
    tournament_name: str | None = None
    buy_in: str | None = None
    table_name: str | None = None
    max_seats: int | None = None
    button_seat: int | None = None
    level: str | None = None
    small_blind: int | None = None
    big_blind: int | None = None
    ante: int | None = None
    bb_ante: bool | None = None
    bring_in: int | None = None
    small_bet: int | None = None
    big_bet: int | None = None
    min_bet: int | None = None
    cap: int | None = None  # capped tables: the most a player may put in the hand
    game_label: str | None = None
    started_at_text: str | None = None
    started_at: object | None = None  # datetime.datetime
    currency: str | None = None
    amount_scale: int = 1
    chip_unit: int = 1
    is_tournament: bool = False
    seats: list[Seat] = field(default_factory=list)
    events: list[Event] = field(default_factory=list)
    # None: the record holds the whole hand.  Else the record stops early and this says
    # what it lacks from there: the hand is stored as recorded, never completed
    record_cut: str | None = None

    # written out, as Event's is
    def __init__(self, hand_id: str, site: str, format: str, variant: str, betting: str, first_line: int,
                 last_line: int, byte_offset: int, content_hash: str, hand_number: str | None = None,
                 tournament_id: str | None = None, tournament_name: str | None = None, buy_in: str | None = None,
                 table_name: str | None = None, max_seats: int | None = None, button_seat: int | None = None,
                 level: str | None = None, small_blind: int | None = None, big_blind: int | None = None,
                 ante: int | None = None, bb_ante: bool | None = None, bring_in: int | None = None,
                 small_bet: int | None = None, big_bet: int | None = None, min_bet: int | None = None,
                 cap: int | None = None, game_label: str | None = None, started_at_text: str | None = None, started_at: object | None = None,
                 currency: str | None = None, amount_scale: int = 1, chip_unit: int = 1, is_tournament: bool = False,
                 seats: list[Seat] | None = None, events: list[Event] | None = None,
                 record_cut: str | None = None) -> None:
        self.hand_id = hand_id
        self.site = site
        self.format = format
        self.variant = variant
        self.betting = betting
        self.first_line = first_line
        self.last_line = last_line
        self.byte_offset = byte_offset
        self.content_hash = content_hash
        self.hand_number = hand_number
        self.tournament_id = tournament_id
        self.tournament_name = tournament_name
        self.buy_in = buy_in
        self.table_name = table_name
        self.max_seats = max_seats
        self.button_seat = button_seat
        self.level = level
        self.small_blind = small_blind
        self.big_blind = big_blind
        self.ante = ante
        self.bb_ante = bb_ante
        self.bring_in = bring_in
        self.small_bet = small_bet
        self.big_bet = big_bet
        self.min_bet = min_bet
        self.cap = cap
        self.game_label = game_label
        self.started_at_text = started_at_text
        self.started_at = started_at
        self.currency = currency
        self.amount_scale = amount_scale
        self.chip_unit = chip_unit
        self.is_tournament = is_tournament
        self.seats = [] if seats is None else seats
        self.events = [] if events is None else events
        self.record_cut = record_cut


@dataclass(slots=True)
class HandError:
    """A hand (or a stretch of a file) that could not be read.  One whose ``reason_code`` is
    in :data:`NOT_HANDS` is a stretch of a file that holds no hand: reported, not counted."""

    line_no: int
    reason_code: str
    reason: str
    hand_id: str | None = None


# The reason codes of a HandError that is no hand: lines of a history file that belong to
# no hand (binary junk after a whole hand, text after it and a blank line: junk_after, text_after).  Ingest records them in
# ingest_errors but counts them neither as hands seen nor as rejected, so that
# hands seen = stored + duplicates + rejected counts hands.
NOT_HANDS: frozenset[str] = frozenset({"unread-lines"})

# A character no hand history writes: one that did not decode (U+FFFD), a control character
# other than a tab or a carriage return (NUL, ESC, ...), DEL.  Binary junk holds some in
# almost every line; a history's text, none.  (Tested only on a hand that cannot be read.)
NOT_TEXT: Final = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f\ufffd]")


def junk_after(buf: list[tuple[int, int, str]], line_no: int, header: re.Pattern[str]) -> tuple[int, int] | None:
    """Where lines that may be no hand's begin in a hand's lines ``buf`` (a reader's that
    could not read line ``line_no``): (k, end), k the index of that line and end that of the
    blank lines before it (k where none), when a line from k on holds a character no history
    writes (``NOT_TEXT``: binary junk appended to a file).  Else None, and the hand is
    rejected as it was; None too when a line from k on holds ``header``, the start of a
    hand anywhere in it (a hand glued to the junk: it must not be taken for junk, and a
    format that cannot split it there rejects the hand before, as it did).  The reader then reads ``buf[:end]`` again and says whether it is
    whole (the Stars and Party families: ``_before_unread``); only then is ``unread_lines``
    the error of the lines from k on.  Error path only: run for a hand that cannot be read.

    >>> buf = [(1, 0, "Hand #1"), (2, 0, "Seat 1: A (5)"), (3, 0, ""), (4, 0, "\\x02junk"), (5, 0, "more")]
    >>> hand = re.compile(r"Hand #\\d+")
    >>> junk_after(buf, 4, hand), junk_after(buf, 1, hand), junk_after(buf[:3] + [(4, 0, "Seat 2: B (x)")], 4, hand)
    ((3, 2), None, None)
    >>> junk_after(buf[:3] + [(4, 0, "\\x02junkHand #2: ..."), (5, 0, "Seat 1: A (5)")], 4, hand) is None
    True
    """
    k = len(buf) - 1
    while k > 0 and buf[k][0] != line_no:
        k -= 1
    if k == 0 or not any(NOT_TEXT.search(t) is not None for _, _, t in buf[k:]):
        return None
    if any(header.search(t) is not None for _, _, t in buf[k:]):
        return None
    end = k
    while end > 1 and not buf[end - 1][2].strip():
        end -= 1
    return k, end


def text_after(buf: list[tuple[int, int, str]], line_no: int, header: re.Pattern[str],
               read: Callable[[list[tuple[int, int, str]]], ParsedHand | HandError],
               start: int = 0) -> tuple[ParsedHand, HandError] | None:
    """The hand in a hand's lines ``buf`` before the lines from ``line_no`` on (the first its
    reading did not understand, or could not read), and the ``unread_lines`` error of those
    lines, when they are text after the hand, such as the mail's footer after an exported
    history: a blank line comes before them (in a family whose hands hold none), none of
    them holds ``header``, and ``read`` (the family's reading of lines) reads the lines
    before them, from ``buf[start]`` on at least two, as a whole hand it understands.  Else
    None, and they stay the hand's (not understood, or where it cannot be read), as any.

    >>> buf = [(1, 0, "Hand #1"), (2, 0, "Seat 1: A (5)"), (3, 0, ""), (4, 0, "Sent by mail."), (5, 0, "")]
    >>> read = lambda lines: ParsedHand("h", "x", "x", "holdem", "no-limit", 1, 1, 0, "")
    >>> hand, error = text_after(buf, 4, re.compile(r"Hand #"), read)
    >>> error.line_no, error.reason_code, text_after(buf[:2] + buf[3:], 4, re.compile(r"Hand #"), read)
    (4, 'unread-lines', None)
    """
    k = next((i for i, (no, _, _) in enumerate(buf) if no == line_no), 0)
    if k < 2 or buf[k - 1][2].strip() or any(header.search(t) is not None for _, _, t in buf[k:]):
        return None
    end = k
    while end > 1 and not buf[end - 1][2].strip():
        end -= 1
    if end <= start + 1:
        return None
    hand = read(buf[:end])
    if not isinstance(hand, ParsedHand) or hand.record_cut is not None or has_unread(hand):
        return None
    return hand, unread_lines(buf, k, hand, text=True)


def unread_from(hand: ParsedHand) -> int | None:
    """The line from which ``hand`` understood nothing: its first line not understood, where no
    other of its events comes from that line on; else None.

    >>> h = ParsedHand("h", "x", "x", "holdem", "no-limit", 1, 1, 0, "", events=[unread_event(0, "summary", 4, "?")])
    >>> unread_from(h)
    4
    """
    unread = [e.line_no for e in hand.events if e.kind == UNREAD]
    if not unread:
        return None
    first = min(unread)
    if any(e.kind != UNREAD and e.line_no is not None and e.line_no >= first for e in hand.events):
        return None
    return first


def unread_lines(buf: list[tuple[int, int, str]], k: int, hand: ParsedHand, text: bool = False) -> HandError:
    """The ``unread-lines`` error (no hand: ``NOT_HANDS``) of the lines of ``buf`` from index
    ``k`` on, which follow ``hand``, whole: junk (``junk_after``) or, ``text``, text after a
    blank line (``text_after``)."""
    first, last = buf[k][0], buf[-1][0]
    where = f"line {first}" if first == last else f"lines {first}-{last}"
    what = ("follow it after a blank line and are no hand's lines" if text
            else "hold characters no hand history writes")
    return HandError(first, "unread-lines",
                     f"{where}, after hand {hand.hand_id} (lines {hand.first_line}-{hand.last_line}, whole), {what} "
                     f"({buf[k][2][:40]!r}...): not read, and not counted as a hand", None)


def seat_columns(hands: list[ParsedHand]) -> dict[str, list]:
    """The ``seats`` columns of ``hands`` (their seats in order), in one pass, and
    ``_hand_ix``: the index in ``hands`` of each row's hand.  Compiled, a field read
    here is a load from the object: a worker's Arrow columns cost a third of what a
    ``map(attrgetter(...))`` per column did.

    >>> h = ParsedHand("h", "x", "x", "holdem", "no-limit", 1, 1, 0, "", seats=[Seat(2, "Ann", 100)])
    >>> seat_columns([h, h])["player"], seat_columns([h, h])["_hand_ix"]
    (['Ann', 'Ann'], [0, 1])
    """
    hand_ix: list[int] = []
    seat: list[int] = []
    player: list[str] = []
    starting_stack: list[int | None] = []
    position: list[int | None] = []
    sitting_out: list[bool] = []
    bounty: list[str | None] = []
    line_no: list[int | None] = []
    for i, h in enumerate(hands):
        for s in h.seats:
            hand_ix.append(i)
            seat.append(s.seat)
            player.append(s.player)
            starting_stack.append(s.starting_stack)
            position.append(s.position)
            sitting_out.append(s.sitting_out)
            bounty.append(s.bounty)
            line_no.append(s.line_no)
    return {"_hand_ix": hand_ix, "seat": seat, "player": player, "starting_stack": starting_stack,
            "position": position, "sitting_out": sitting_out, "bounty": bounty, "line_no": line_no}


def event_columns(hands: list[ParsedHand]) -> dict[str, list]:
    """The ``events`` columns of ``hands`` in one pass, as :func:`seat_columns`.

    >>> h = ParsedHand("h", "x", "x", "holdem", "no-limit", 1, 1, 0, "", events=[Event(0, "preflop", "fold", 3)])
    >>> c = event_columns([h]); c["kind"], c["seat"], c["run"], c["_hand_ix"]
    (['fold'], [None], [1], [0])
    """
    hand_ix: list[int] = []
    seq: list[int] = []
    street: list[str] = []
    kind: list[str] = []
    seat: list[int | None] = []
    player: list[str | None] = []
    amount: list[int | None] = []
    to_amount: list[int | None] = []
    all_in: list[bool] = []
    cards: list[str | None] = []
    pot_label: list[str | None] = []
    half: list[str | None] = []
    line_no: list[int] = []
    text: list[str | None] = []
    inferred: list[list[int] | None] = []
    run: list[int] = []
    for i, h in enumerate(hands):
        for e in h.events:
            hand_ix.append(i)
            seq.append(e.seq)
            street.append(e.street)
            kind.append(e.kind)
            seat.append(e.seat)
            player.append(e.player)
            amount.append(e.amount)
            to_amount.append(e.to_amount)
            all_in.append(e.all_in)
            cards.append(e.cards)
            pot_label.append(e.pot_label)
            half.append(e.half)
            line_no.append(e.line_no)
            text.append(e.text)
            inferred.append(e.inferred_from)
            run.append(e.run)
    return {"_hand_ix": hand_ix, "seq": seq, "street": street, "kind": kind, "seat": seat, "player": player,
            "amount": amount, "to_amount": to_amount, "all_in": all_in, "cards": cards, "pot_label": pot_label,
            "half": half, "line_no": line_no, "text": text, "inferred_from": inferred, "run": run}


class Parser(Protocol):
    """One module per format implements this.

    ``detect`` looks at the first few KiB of decoded text (and the file name)
    and says whether this parser reads the file.  ``iter_hands`` streams the
    hands of one source; ``lines`` yields ``(line_no, byte_offset, text)``
    with 1-based line numbers and lines without their line ending.
    """

    name: str

    def detect(self, head: str, path: str) -> bool: ...

    def iter_hands(self, lines: Iterator[tuple[int, int, str]], path: str) -> Iterator[ParsedHand | HandError]: ...


class Reject(Exception):
    """A hand a parser will not store: it becomes a :class:`HandError` with this reason
    code and line (the text parsers raise it from deep in a hand's reading)."""

    def __init__(self, code: str, line_no: int, reason: str) -> None:
        super().__init__(reason)
        self.code, self.line_no, self.reason = code, line_no, reason


class Rescale(Exception):
    """An amount has more decimals than the hand's amount scale holds: the parser reads
    the hand again at a finer scale."""

    def __init__(self, digits: int) -> None:
        self.digits = digits


def inferred_from(*lines: int | None) -> list[int]:
    """The ``inferred_from`` of an inferred event: the source lines it rests on, once
    each, ascending (``None`` for a line not known is left out).

    >>> inferred_from(17, 12, None, 17)
    [12, 17]
    """
    return sorted({n for n in lines if n is not None})


INT64_MAX = 2**63 - 1
SEAT_MAX: Final = 2**15 - 1  # seat numbers are SMALLINT in the store
# decimal places an amount may have: the hand's amount_scale, 10 to their number, is an INTEGER
# in the store (10**9 the largest such power), and the amounts keep 64-bit room beside it
MAX_DECIMALS = 9
INT32_MAX: Final = 2**31 - 1


def out_of_range(hand: ParsedHand) -> str | None:
    """Why a parsed hand cannot be stored exactly, if it cannot: an amount beyond a
    64-bit integer (the store keeps amounts as BIGINT, exact, never rounded), or
    stacks and amounts whose total is (the replay's sums of them would be), a seat
    number, table size or button beyond SMALLINT.

    >>> h = ParsedHand("h", "x", "x", "holdem", "no-limit", 1, 1, 0, "")
    >>> h.events.append(Event(0, "preflop", "bet", 3, seat=1, amount=10**20))
    >>> out_of_range(h)
    'line 3: amount 100000000000000000000 is too large to store exactly'
    >>> h.events[0] = Event(0, "preflop", "bet", 3, seat=1, amount=2**62)
    >>> h.events.append(Event(1, "preflop", "call", 4, seat=2, amount=2**62))
    >>> out_of_range(h)
    "line 1: the hand's stacks and amounts add up to 9223372036854775808, too large to store exactly"
    """
    # every amount the replay derives (a seat's chips in, a pot, a stack at the end) is a sum
    # of the hand's stacks and amounts: their total must fit as well
    total = 0
    for s in hand.seats:
        if not 0 <= s.seat <= SEAT_MAX:
            return f"line {s.line_no}: seat number {s.seat} is out of range"
        if s.starting_stack is not None:
            if abs(s.starting_stack) > INT64_MAX:
                return f"line {s.line_no}: stack {s.starting_stack} is too large to store exactly"
            total += abs(s.starting_stack)
    for e in hand.events:
        for v in (e.amount, e.to_amount):
            if v is not None:
                if abs(v) > INT64_MAX:
                    return f"line {e.line_no}: amount {v} is too large to store exactly"
                total += abs(v)
    if total > INT64_MAX:
        return f"line {hand.first_line}: the hand's stacks and amounts add up to {total}, too large to store exactly"
    for name in ("small_blind", "big_blind", "ante", "bring_in", "small_bet", "big_bet", "min_bet", "cap", "chip_unit"):
        v = getattr(hand, name)
        if v is not None and abs(v) > INT64_MAX:
            return f"line {hand.first_line}: {name} {v} is too large to store exactly"
    if not 0 < hand.amount_scale <= INT32_MAX:
        return f"line {hand.first_line}: amount_scale {hand.amount_scale} is out of range"
    for name in ("max_seats", "button_seat"):  # the table's size and its button, from its header
        v = getattr(hand, name)
        if v is not None and not 0 <= v <= SEAT_MAX:
            return f"line {hand.first_line}: {name} {v} is out of range"
    return None


# the forced and voluntary kinds that add their amount to the seat's chips in on the street
_ADDS: Final = frozenset({"small_blind", "big_blind", "straddle", "bring_in", "call", "bet"})
# the kinds that put a seat's chips in on a street: only these open a street's commitments
_COMMITS: Final = _ADDS | {"dead_blind", "raise", "complete"}


def hand_total(events: list[Event], seat: int) -> int:
    """What ``seat`` has put in the hand by ``events``' end: antes, and each street's last
    commitment (posts and calls add to it, a bet or raise is to its ``to_amount``); the
    cap of a capped table whose header names no amount is the total of the first line
    saying its player reached it (hands.cap).

    >>> hand_total([Event(0, "preflop", "big_blind", 1, 2, amount=10), Event(1, "preflop", "raise", 2, 2, amount=20, to_amount=30),
    ...             Event(2, "flop", "bet", 3, 2, amount=40, to_amount=40), Event(3, "flop", "call", 4, 3, amount=40)], 2)
    70

    A top-up written among a street's actions (a rebuy event, street 'summary') ends no street:

    >>> hand_total([Event(0, "preflop", "small_blind", 1, 2, amount=10), Event(1, "summary", "rebuy", 2, 2, amount=600),
    ...             Event(2, "preflop", "raise", 3, 2, amount=40, to_amount=60)], 2)
    60
    """
    total = street_in = 0
    street: str | None = None
    for e in events:
        if e.seat != seat:
            continue
        kind, amount = e.kind, e.amount or 0
        if kind != "ante" and kind not in _COMMITS:
            continue
        if e.street != street:
            total, street_in, street = total + street_in, 0, e.street
        if kind == "ante":
            total += amount
        elif kind in ("small_blind", "big_blind", "dead_blind", "straddle", "bring_in", "call"):
            street_in += amount
        elif kind in ("bet", "raise", "complete"):
            street_in = e.to_amount if e.to_amount is not None else street_in + amount
    return total + street_in


# -- lines not understood: reconcile, don't reject (docs/semantics.md, "Lines not understood") --

UNREAD: Final = "unread"  # auditor.schema.EventKind.UNREAD


def single_payer_ante(events: list[Event]) -> bool:
    """Whether a hand's ante is a big-blind ante: one player posted it for the table, and he
    posted the big blind too or, posting none, went all in on the ante alone (he had nothing
    left for the blind: the site put his chips into the ante first).

    >>> posts = [Event(0, "preflop", "ante", 3, 2, "Bob", 200), Event(1, "preflop", "big_blind", 4, 2, "Bob", 200)]
    >>> single_payer_ante(posts)
    True
    >>> single_payer_ante([Event(0, "preflop", "ante", 3, 2, "Bob", 150, all_in=True)])
    True
    >>> single_payer_ante([Event(0, "preflop", "ante", 3, 2, "Bob", 150)])
    False
    """
    antes = [e for e in events if e.kind == EventKind.ANTE.value]
    if len(antes) != 1:
        return False
    blind = next((e.seat for e in events if e.kind == EventKind.BIG_BLIND.value), None)
    return antes[0].seat == blind if blind is not None else antes[0].all_in


def unread_event(seq: int, street: str, line_no: int, text: str, seat: int | None = None,
                 player: str | None = None) -> Event:
    """A line of the hand the parser did not understand, kept as written.

    >>> e = unread_event(7, "flop", 20, "Bob: juggles chips", 3, "Bob")
    >>> (e.kind, e.street, e.line_no, e.seat, e.amount)
    ('unread', 'flop', 20, 3, None)
    """
    return Event(seq, street, UNREAD, line_no, seat, player, None, None, False, None, None, None, text)


def second_seatless(first: str, name: str, no: int, text: str) -> Reject:
    """The rejection of a hand in which a second player acts with no seat line (``first``,
    then ``name``): the replay keeps one such player a hand (seat NULL), and two could not
    be told apart in its facts (docs/semantics.md, "A player with no seat line")."""
    return Reject("unseated-player", no, f"line {no}: a second player with no seat line "
                  f"({first!r}, then {name!r}): their chips could not be told apart: {text!r}")


def has_unread(hand: ParsedHand) -> bool:
    for e in hand.events:
        if e.kind == UNREAD:
            return True
    return False


def chip_ledger(hand: ParsedHand) -> tuple[int, int, int | None, int, int]:
    """What the hand's understood events say of its chips: (put in, less what was
    returned and with what the house added; collected; the recorded total pot, None
    where the record states none; the house's recorded take, rake and fees; what may
    have been returned where the record writes no return).

    A raise or completion is counted to its total (``to_amount``) over what the seat
    had in on the street; a dead blind puts in its amount, of which at most a big blind
    counts as in on the street (the rest is dead).  Where the record writes no return at
    all, the last street's top commitment over the next highest may have been returned
    (the return the replay infers where a format leaves it out; some formats count it in
    the pot, as PokerStars' converted walks do).

    >>> h = ParsedHand("h", "x", "x", "holdem", "no-limit", 1, 9, 0, "", big_blind=2)
    >>> h.events = [Event(0, "preflop", "small_blind", 2, 1, amount=1), Event(1, "preflop", "big_blind", 3, 2, amount=2),
    ...             Event(2, "preflop", "raise", 4, 1, amount=5, to_amount=6), Event(3, "preflop", "fold", 5, 2),
    ...             Event(4, "preflop", "uncalled_return", 6, 1, amount=4), Event(5, "preflop", "collect", 7, 1, amount=4),
    ...             Event(6, "summary", "total_pot", 8, amount=4, to_amount=0)]
    >>> chip_ledger(h)
    (4, 4, 4, 0, 0)
    """
    put_in = 0
    collected = 0
    total: int | None = None
    house = 0
    committed: dict[int, int] = {}
    last: dict[int, int] = {}  # the commitments of the last street chips went in on
    returns = False  # the record writes a return
    street = ""
    for e in hand.events:
        kind = e.kind
        # a new street's chips start its commitments afresh; an event of another street written
        # among a street's (a top-up between hands, 'Cal adds $0.30' mid-hand: street 'summary')
        # ends none
        if e.street != street and kind in _COMMITS:
            street = e.street
            if committed:
                last = committed
            committed = {}
        a = e.amount or 0
        seat = -1 if e.seat is None else e.seat
        if kind in _ADDS:
            put_in += a
            committed[seat] = committed.get(seat, 0) + a
        elif kind == "ante":
            put_in += a
        elif kind == "dead_blind":
            put_in += a
            committed[seat] = committed.get(seat, 0) + min(a, hand.big_blind or a)
        elif kind == "raise" or kind == "complete":
            to = e.to_amount or 0
            put_in += to - committed.get(seat, 0)
            committed[seat] = to
        elif kind == "uncalled_return":
            put_in -= a
            returns = True
        elif kind == "house_added":
            put_in += a
        elif kind == "collect":
            collected += a
        elif kind == "total_pot":
            total = a
            house = e.to_amount or 0
    if committed:
        last = committed
    implied = 0
    if not returns and last:
        # a format that writes no return (PokerStars before 2008): the last street's top
        # commitment over the next may have been returned, as the replay infers it
        ranked = sorted(last.values())
        implied = ranked[-1] - (ranked[-2] if len(ranked) > 1 else 0)
    return put_in, collected, total, house, implied


def unreconciled(hand: ParsedHand) -> str | None:
    """Why a hand's understood events do not account for every amount its record
    states, or None when they do: the chips put in (less returns) are the recorded
    total pot, and the collects plus the house's take are that total too (where the
    record states no total, the collects are the chips put in).  Where the record writes
    no return, the pot may or may not hold the last bet's uncalled excess
    (``chip_ledger``).  A hand with lines not understood is stored only when this is
    None: the lines then moved no chips the record counts.  A record cut short states no
    totals to reconcile with.

    >>> h = ParsedHand("h", "x", "x", "holdem", "no-limit", 1, 9, 0, "")
    >>> h.events = [Event(0, "preflop", "bet", 3, 1, amount=10), Event(1, "preflop", "call", 4, 2, amount=10),
    ...             Event(2, "preflop", "unread", 5, 3, text="Cy: ?"), Event(3, "preflop", "collect", 6, 1, amount=30)]
    >>> unreconciled(h)
    'the understood events put 20 in the pot, but 30 was collected'
    """
    if hand.record_cut is not None:
        return "the record stops before the hand ends, so no total accounts for its chips"
    put_in, collected, total, house, implied = chip_ledger(hand)
    why: list[str] = []
    if total is not None:
        if total != put_in and total != put_in - implied:
            why.append(f"the understood events put {put_in - implied} in the pot, but the record's total pot is {total}")
        if collected + house != total:
            why.append(f"{collected} collected and {house} taken by the house, but the record's total pot is {total}")
    elif collected != put_in and collected != put_in - implied:
        why.append(f"the understood events put {put_in - implied} in the pot, but {collected} was collected")
    return "; ".join(why) or None


def settle(item: ParsedHand | HandError) -> ParsedHand | HandError:
    """A parser's item as ingest stores it: a hand that cannot be stored exactly
    (``out_of_range``), or whose lines not understood leave its chips unreconciled
    (``unreconciled``), becomes the rejection it is.  Ingest and the tests that read
    parsers directly both go through here."""
    if not isinstance(item, ParsedHand):
        return item
    why = out_of_range(item)
    if why is not None:
        return HandError(item.first_line, "amount-out-of-range", why, item.hand_id)
    if has_unread(item):
        why = unreconciled(item)
        if why is not None:
            first = next(e.line_no for e in item.events if e.kind == UNREAD)
            return HandError(first, "unreconciled", f"hand at line {item.first_line}: {unread_summary(item)}, and its "
                             f"chips do not reconcile without them: {why}", item.hand_id)
    return item


def unread_summary(hand: ParsedHand, most: int = 3) -> str:
    """The hand's lines not understood, for a rejection or a finding: their numbers and
    the first few as written.

    >>> h = ParsedHand("h", "x", "x", "holdem", "no-limit", 1, 9, 0, "")
    >>> h.events = [unread_event(0, "flop", 12, "Bo: juggles"), unread_event(1, "flop", 14, "Al: sings")]
    >>> unread_summary(h)
    "lines 12, 14 not understood ('Bo: juggles', 'Al: sings')"
    """
    lines = [e for e in hand.events if e.kind == UNREAD]
    nos = ", ".join(str(e.line_no) for e in lines)
    shown = ", ".join(repr((e.text or "").strip()) for e in lines[:most])
    more = f" and {len(lines) - most} more" if len(lines) > most else ""
    return f"line{'s' if len(lines) > 1 else ''} {nos} not understood ({shown}{more})"


# The ASCII characters, other than " " and "\n", that str.rstrip() strips or
# str.splitlines() splits at (every character splitlines splits at is whitespace).
_ASCII_SPACE_OTHER = ("\t", "\r", "\x0b", "\x0c", "\x1c", "\x1d", "\x1e", "\x1f")


# a sha256 object to copy: hashlib.sha256() looks its algorithm up in OpenSSL by name on
# every call, a copy does not (bench/README.md, 2026-12-07)
_SHA256 = hashlib.sha256()


def sha256_hex(data: bytes) -> str:
    """``hashlib.sha256(data).hexdigest()``, from a copy of one object made at import.

    >>> sha256_hex(b"abc") == hashlib.sha256(b"abc").hexdigest()
    True
    """
    digest = _SHA256.copy()
    digest.update(data)
    return digest.hexdigest()


def content_hash(text: str) -> str:
    """The identity of a hand's content: sha256 of its text with line endings and
    trailing spaces normalised, so the same hand saved by another tool is the same hand.

    >>> content_hash("a \\r\\nb") == content_hash("a\\nb") == content_hash("\\na\\nb\\n\\n")
    True
    >>> content_hash("2.50\u20ac\\nb") == content_hash("2.50\u20ac \\r\\nb\u3000") != content_hash("2.50\\nb")
    True
    """
    # (a euro sign, the one character beyond ASCII in most of a euro site's hands, is
    # no whitespace: where every other character is ASCII, the same few scans tell)
    if text.isascii():
        data = None
    else:
        # the UTF-8 bytes are hashed anyway: a euro is 3 of them, an ASCII character 1 and any
        # other more than 1, so their count says whether every other character is ASCII
        # (a copy of the text without its euros would cost more: a scan for its widest character)
        data = text.encode("utf-8")
        if len(data) != len(text) + 2 * text.count("\u20ac"):
            return sha256_hex(_normalised(text).encode("utf-8"))
    if " \n" not in text and not text.endswith(" ") and not any(c in text for c in _ASCII_SPACE_OTHER):
        # The common case, found with a few scans in C: lines end at "\n" only and no
        # line ends in whitespace, so the normalised text is the text itself.
        if data is None:
            return sha256_hex(text.strip("\n").encode("utf-8"))
        return sha256_hex(data.strip(b"\n"))
    return sha256_hex(_normalised(text).encode("utf-8"))


def content_hash_stood_in(text: str, stand_in: str, written: str) -> str:
    """``content_hash`` of the text that ``text`` was read from: ``text`` with each
    ``stand_in`` (an ASCII character, neither whitespace nor a line break, that the text
    as written does not hold) put back as ``written`` (a character, neither whitespace nor
    a line break).  Where ``text`` is ASCII, its scans and its encoding cost a byte a
    character; the normalisation moves neither character, so the bytes hashed are the
    written text's.

    >>> content_hash_stood_in("2.50\\x1a \\r\\nb", "\\x1a", "\u20ac") == content_hash("2.50\u20ac\\nb")
    True
    >>> content_hash_stood_in("2.50\\x1a\\nb\u3000", "\\x1a", "\u20ac") == content_hash("2.50\u20ac\\nb\u3000")
    True
    """
    if not text.isascii():
        return content_hash(text.replace(stand_in, written))
    if " \n" not in text and not text.endswith(" ") and not any(c in text for c in _ASCII_SPACE_OTHER):
        data = text.strip("\n").encode("ascii")  # the common case: the normalised text is the text (content_hash)
    else:
        data = _normalised(text).encode("ascii")
    return sha256_hex(data.replace(stand_in.encode("ascii"), written.encode("utf-8")))


def _normalised(text: str) -> str:
    """A hand's text with line endings and trailing spaces normalised (``content_hash``)."""
    return "\n".join([line.rstrip() for line in text.splitlines()]).strip("\n")


__all__ = ["Event", "Seat", "ParsedHand", "HandError", "NOT_HANDS", "NOT_TEXT", "junk_after", "text_after", "unread_from", "unread_lines", "Reject", "Rescale", "second_seatless", "Parser", "content_hash", "content_hash_stood_in", "sha256_hex",
           "out_of_range", "inferred_from", "unread_event", "has_unread", "chip_ledger", "unreconciled",
           "unread_summary", "settle", "UNREAD",
           "seat_columns", "event_columns", "EventKind", "Street"]
