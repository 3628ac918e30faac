"""One hand of the PokerStars family read into a ``ParsedHand`` (:class:`_HandReader`):
its header, table and seat lines (``read``), the body's action lines between the street
markers (``body``, ``marker``, ``action``, ``post``), and the summary (``collect``,
``total_pot``, ``seat_result``, ``summary_fold``).  A line it cannot read raises
``Reject`` naming it; what a line leaves out is inferred only where the other lines
imply it (``parsers/stars_returns.py``), never guessed."""

from __future__ import annotations

import datetime as dt
import re
from typing import Final

from auditor.schema import FORCED_KINDS, VOLUNTARY_KINDS, Betting, EventKind, Variant, betting_streets
from parsers.base import (NOT_TEXT, SEAT_MAX, Event, ParsedHand, Seat, content_hash, content_hash_stood_in, hand_total,
                          second_seatless, single_payer_ante, unread_event)
from parsers.base import Reject as _Reject
from parsers.stars_site import (CURRENCY_SYMBOLS, DATE, IGNORED_EXACT, IGNORED_INFIX, IGNORED_SUFFIXES, K, RAISE_ADDED, RAISE_TO,
                                RAISE_TO_ADDED, S, StarsSite, amount_units, to_units)
from parsers.stars_languages import CompiledLanguage, language_of, translate
from parsers.stars_returns import infer_return
from parsers.stars_tables import _KEPT, SUFFIX_STAND_IN, _site_tables, _substituted


# --- body --------------------------------------------------------------------------


_STUD = frozenset({Variant.STUD, Variant.STUD_HILO, Variant.RAZZ, Variant.FIVE_CARD_STUD})
_SINGLE_DRAW = frozenset({Variant.DRAW_2_7_SINGLE, Variant.DRAW_5_CARD})
_TRIPLE_DRAW = frozenset({Variant.DRAW_2_7_TRIPLE, Variant.DRAW_A_5_TRIPLE, Variant.BADUGI})
_DRAW = _SINGLE_DRAW | _TRIPLE_DRAW
_ALL_IN = " and is all-in"
_UNCALLED = re.compile(r"^Uncalled bet \(([^)]+)\) returned to (.+)$")
_FINISH = re.compile(r"^(.+) finished the tournament in (\d+)(?:st|nd|rd|th) place(?: and received .*)?$")
_WINS_TOURNEY = re.compile(r"^(.+) wins the tournament(?: and receives .*)?$")
_RAISE = re.compile(r"^raises (\S+) to (\S+)$")
_RAISE_TO = re.compile(r"^raises to (\S+)$")
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
_STUD_STREETS = {"2": S.SECOND, "3": S.THIRD, "4": S.FOURTH, "5": S.FIFTH, "6": S.SIXTH, "7": S.SEVENTH}
_DRAW_STREETS = {"*** FIRST DRAW ***": S.FIRST_DRAW, "*** SECOND DRAW ***": S.SECOND_DRAW, "*** THIRD DRAW ***": S.THIRD_DRAW}


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

# the kinds by which a player with no seat line puts chips in: the line that makes him the
# hand's seatless player (a fold or a check alone does not: it stays unread)
_SEATLESS_CHIPS: Final = frozenset(str(k) for k in FORCED_KINDS | VOLUNTARY_KINDS - {EventKind.FOLD, EventKind.CHECK})
# his key in the reader's chips by seat (committed, blinds, antes), where a seat's number is;
# his events have seat None
_NO_SEAT: Final = -1


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
# the events that bet, every forced bet but an ante (a cash-out is on the round the last of them closed)
_BETTING_KINDS = frozenset(str(k) for k in FORCED_KINDS - {EventKind.ANTE} | VOLUNTARY_KINDS)
_NOT_TAKING_PART = frozenset({K.DEAL_HOLE, K.SHOW, K.MUCK, K.NO_SHOW})  # cards dealt or shown: no part in the betting
# what a run-it-twice hand may record once its runs have begun: the runs' cards and their settlement
_RUN_KINDS = frozenset({K.DEAL_BOARD, K.SHOW, K.MUCK, K.NO_SHOW, K.COLLECT, K.UNCALLED_RETURN, K.FINISH, K.HOUSE_ADDED})


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
        self.names: dict[str, int] = {}  # the seated players
        # the player who acts with no seat line (docs/semantics.md, "A player with no seat line"):
        # his events have seat None; one a hand
        self.seatless_name: str | None = None
        self.committed: dict[int, int] = {}  # chips in on the current street, by seat
        self.antes: list[tuple[int, int]] = []  # (seat, amount) of each ante posted
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
        self.capped = False  # a capped table (hands.cap), its amount written or not
        # a hand in another language (parsers/stars_languages.py): the language, and the
        # English form of each line its entries read, by line number
        self.language: CompiledLanguage | None = None
        self.translated: dict[int, str] = {}

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
        player, _ = self.split_actor(self.translated.get(no, text).strip())
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
            # suffix (or the sign before amounts) is replaced by a 1-byte copy.  Where the third
            # line (the first seat's) holds no suffix (a tournament: chips), the lines after the
            # first two are tested as one text, the one the content hash reads anyway (bench/README.md, 2026-12-07)
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
        if site.languages and not self.stood_in and (lang := language_of(texts[0], site.languages)) is not None:
            # a header in another language: the lines its entries read are read as their
            # English form (parsers/stars_languages.py); the hand keeps them as written
            english = translate(lang, texts)
            if english:
                if hashed is None:
                    hashed = content_hash("\n".join(texts))
                texts = list(texts)
                for k, line in english.items():
                    texts[k] = line
                    self.translated[buf[k][0]] = line
                self.language = lang
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
            if texts[k].startswith("*** "):
                summary = texts[k].startswith("*** SUMMARY ***") or (
                    site.run_markers is not None and texts[k].startswith("*** SUMMARY ")
                    and (rs := site.run_markers.match(texts[k].rstrip())) is not None and rs.group("street") == "SUMMARY")
                if not summary and site.rejected_lines:  # a marker the site's description rejects ('*** SUMMARY 2 ***')
                    rejected = self.fail(buf[k][0], buf[k][2])
                    if rejected.code != "parse-error":
                        raise rejected
                break
        else:
            summary = False
        if not summary:
            where = cut_where(self.cut_by)
            if not any(t.startswith("Seat ") for t in texts[1:]):
                # a hand start with no seat line after it: no hand to store (its header is not
                # read: it may be all the file holds, on one line)
                raise _Reject("truncated", first_no, f"hand at line {first_no} has no *** SUMMARY ***: {where} "
                              f"(line {buf[-1][0]} is its last), and no seat line")
            # stored as recorded if its seats are (else rejected 'truncated', see _hand)
            self.cut = cut_short(self.fragment[0] if self.fragment else buf[-1][0], self.cut_by)

        if site.header_tag is not None and (tag := site.header_tag.search(rest)) is not None:
            rest = rest[:tag.start()] + rest[tag.end():]
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
        # a capped table (hands.cap): the amount in the game's words ('$400 Pot Limit'), or none
        cap_text: str | None = g.group("cap") if "cap" in g.re.groupindex else None
        if cap_text is not None and limit is not None:
            limit = limit.replace(cap_text.lower(), "", 1).strip()
        self.capped = cap_text is not None or limit in site.capped_limits
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
            stake_groups = self.tables.stakes(stakes)
            if stake_groups is None:
                raise self.fail(first_no, header, "stakes not understood")
            sb_text, bb_text, cur = stake_groups.get("sb"), stake_groups.get("bb"), stake_groups.get("cur")
            cap_text = stake_groups.get("cap") or cap_text  # PokerStars' '$0.25/$0.50 - $10 Cap - USD'
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
        if cap_text is not None:
            self.capped = True
            hand.cap = self.amt(cap_text)
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
        # re-buys written between the table line and the seats (PokerStars, 2015: 'Ann re-buys
        # and receives 3000 chips for $10.00'): already in the stacks the seat lines give (the
        # checks tell them from a re-buy after the hand by the line before the player's seat
        # line, auditor/views.sql); their seats are set once the seat lines are read (below)
        bought_before: list[Event] = []
        if site.records_rebuys:
            while i < len(buf) and (" re-buys and receives " in texts[i] or " takes the add-on" in texts[i]) \
                    and _REBUY.match(texts[i].rstrip()):
                self.raw, self.raw_no = buf[i][2], buf[i][0]
                self.rebuy(buf[i][0], texts[i].rstrip())
                bought_before.append(self.events[-1])
                i += 1
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
                if seat > SEAT_MAX:  # (before any seat's bit is set: see uncontested)
                    raise self.fail(no, text, "seat number out of range")
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
        for e in bought_before:
            e.seat = self.names.get(e.player or "")
        if not hand.seats:
            at_no, at_text = (buf[i][0], texts[i]) if i < len(buf) else (first_no, "")
            for start, code, why in site.no_seats:  # a record the site writes without seat lines
                if at_text.startswith(start):
                    raise _Reject(code, at_no, f"line {at_no}: no seat lines: {why}: {at_text!r}")
            raise self.fail(at_no, at_text, "no seat lines")
        self.seated = True
        if self.stood_in:
            self.header_as_written(hand)
        if self.language is not None:
            self.language_as_written(hand)
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

    def language_as_written(self, hand: ParsedHand) -> None:
        """The hand's fields cut from a header read in English (``self.language``), as the
        header writes them: its start time (after the header's last ' - ') and its game's name."""
        assert self.language is not None
        header = self.buf[0][2].rstrip()
        if hand.started_at_text is not None and (i := header.rfind(" - ")) >= 0:
            hand.started_at_text = header[i + 3 :]
        if hand.game_label is not None:
            for written, english in self.language.language.games.items():
                if written in header and english in hand.game_label:
                    hand.game_label = hand.game_label.replace(english, written, 1)
                    break

    def as_written_reason(self, line_no: int, reason: str) -> str:
        """A rejection's reason quoting a line read in English, with the line as written."""
        english = self.translated.get(line_no)
        if english is None:
            return reason
        for no, _, raw in self.buf:
            if no == line_no:
                return reason.replace(repr(english.rstrip()), repr(raw.rstrip()))
        return reason

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
            street = betting_streets(variant, "stud")[0].value  # third (5-card stud: second)
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
                    if not um or (um.group(2) not in self.names and um.group(2) != self.seatless_name):
                        raise self.fail(no, text)
                    player = um.group(2)
                    self.add(street, K.UNCALLED_RETURN, no, self.names.get(player), player, amount=self.amt(um.group(1)))
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
                if " wins the " in text and " bounty" in text:
                    continue  # bounty prizes are paid outside the pot
                if player is None and self.seatless_line(hand, street, no, text):
                    continue
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
        antes = self.antes
        if antes:
            hand.ante = max(a for _, a in antes)
            hand.bb_ante = single_payer_ante(self.events)
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
            new = betting_streets(hand.variant, "stud")[0].value if stud else S.PREDRAW if hand.variant in _DRAW else S.PREFLOP
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
                new = betting_streets(hand.variant, "stud")[-1].value  # seventh (5-card stud: fifth)
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
        if who not in self.names and (self.seatless_name is None or who != self.seatless_name):
            return False
        if run is not None:  # the run's pot, named by its run ('wins pot 2 (x)': Full Tilt)
            if not 1 <= int(run) <= self.runs:
                return False
            label = "pot"
        else:
            label = "main" if pot in self.site.main_pot_words else "pot" if pot == "pot" else _side_label(pot)
        half = None if half is None else "hi" if half.lower().startswith("hi") else "lo"
        e = self.add(street, K.COLLECT, no, self.names.get(who), who, amount=self.amt(paid), pot_label=label, half=half)
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
            fee = m.group("fee") if "fee" in groups else None
            if kind == K.CASH_OUT:
                # taken while all in, once the betting was over: on the round the last action closed,
                # wherever the site writes it (PokerStars: after the board is run out)
                street = next((e.street for e in reversed(self.events) if e.kind in _BETTING_KINDS), street)
            self.add(street, kind, no, self.names[player] if player is not None else None, player,
                     amount=self.amt(amount) if amount else None, to_amount=self.amt(fee) if fee else None,
                     cards=m.group("cards") if "cards" in groups else None)
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
        """'<name>: <action>' with a seated name (names may hold ': '), or the seatless player's."""
        sep = self.site.actor_sep
        seatless = self.seatless_name
        if seatless is not None and text.startswith(seatless) and text.startswith(sep, len(seatless)):
            return seatless, text[len(seatless) + len(sep) :]  # (no seated name is told from his: see seatless_line)
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
        # the seatless player's chips are counted under _NO_SEAT; his events have seat None
        seat = self.names.get(player, _NO_SEAT)
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
        capped = False
        if self.capped and self.site.cap_reached is not None and (cm := self.site.cap_reached.search(action)):
            action, capped = action[: cm.start()], True  # the player has put in the cap (below)
        elif self.site.action_suffixes_ignored and action.endswith(self.site.action_suffixes_ignored):
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
        elif word == site.cap_word:
            # 'caps $0.55' (WPN): the chips added, which take him to the table's cap: a call of
            # the bet in front of him, a bet, or a raise over it (its amount the chips added, as
            # the site's raises write it)
            added, level, before = self.amt(arg), _highest(committed), committed.get(seat, 0)
            to_amount = before + added
            if to_amount <= level:
                kind, amount, to_amount = K.CALL, added, None
            else:
                kind, amount = (K.BET if level == 0 else K.RAISE), added
            committed[seat] = before + added
            capped = True
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
            dm = self.site.discard.match(action)  # (the site's words: StarsSite.discard)
            if not dm:
                raise self.fail(no, text)
            kind, cards = K.DRAW, dm.group(2)
            # the count as written, else the cards shown counted; neither written: not known
            amount = int(dm.group(1)) if dm.group(1) else len(cards.split()) if cards else None
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
            if not cards and self.site.uncontested_muck_is_no_show and seat != _NO_SEAT and self.uncontested(seat):
                kind = K.NO_SHOW  # everyone else folded: no showdown, the winner only keeps his cards
        elif action == "doesn't show hand":
            kind = K.NO_SHOW
        elif action in ("sits out", "is sitting out"):
            return None
        else:
            raise self.fail(no, text)
        event = self.add(street, kind, no, None if seat == _NO_SEAT else seat, player, amount, to_amount, all_in, cards)
        if capped and hand.cap is None and seat != _NO_SEAT:
            hand.cap = hand_total(self.events, seat)  # a capped table whose header names no amount
        return event

    def seatless_line(self, hand: ParsedHand, street: str, no: int, text: str) -> bool:
        """A line no seated player starts: is it the action of a player with no seat line who
        puts chips in (a post, call, bet or raise the format writes)?  His name is what comes
        before the separator where the rest reads as such an action.  He becomes the hand's
        seatless player: his events have seat None, his seat and stack stay unknown (the replay
        judges nothing that needs them; the seat-unrecorded check names him).  Not read: a
        line that is no such action (it stays unread), and any line of his on a site whose
        uncalled chips are inferred (the inference needs every commitment's seat).  Rejected
        (``unseated-player``): a second such player, and a name that starts a seated
        player's, or one a seated player's starts (their lines could not be told apart)."""
        if self.site.implied_returns:
            return False
        sep = self.site.actor_sep
        at = len(self.events)
        i = text.find(sep)
        while i > 0:
            name = text[:i]
            action = text[i + len(sep) :]
            i = text.find(sep, i + 1)
            if not action or name in self.names:
                continue
            if self.stood_in and SUFFIX_STAND_IN in name:
                # a name holding the suffix: the hand is read as written (see SUFFIX_STAND_IN; a
                # rejection, not a parse error, which the line's being unread would keep)
                raise _Reject("unseated-player", no, f"line {no}: a name with no seat line holding the amounts' sign: {text!r}")
            committed = dict(self.committed)  # (restored if the line is no chip action of his)
            try:
                e = self.action(hand, street, no, text, name, action)
            except (_Reject, ValueError, KeyError, IndexError):
                del self.events[at:]
                self.committed = committed
                continue
            if e is None or e.kind not in _SEATLESS_CHIPS:
                del self.events[at:]
                self.committed = committed
                return False
            if self.seatless_name is not None:
                raise second_seatless(self.seatless_name, name, no, text)
            for seated in self.names:
                if seated.startswith(name + sep) or name.startswith(seated + sep):
                    raise _Reject("unseated-player", no, f"line {no}: {name!r} has no seat line and puts chips in, but "
                                  f"his name and seated {seated!r}'s could not be told apart: {text!r}")
            if hand.max_seats is not None and len(hand.seats) >= hand.max_seats:
                raise _Reject("unseated-player", no, f"line {no}: {name!r} has no seat line and puts chips in, but the "
                              f"seat lines fill all {hand.max_seats} seats of the table: the record contradicts itself: {text!r}")
            self.seatless_name = name
            return True
        return False

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
        seatless = self.seatless_name
        for player in self.names_by_seat.get(seat, ()):
            if rest.startswith(player):
                break
        else:
            if seatless is None or seat in self.names_by_seat or not rest.startswith(seatless):
                raise self.fail(no, text, "summary seat line for a seat not in the hand")
            # the seatless player's: the summary numbers a seat no seat line holds; his events keep
            # seat None (his stack is still not known), the line's text keeps the number
            player = seatless
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
        self.add(S.SUMMARY, K.SEAT_RESULT, no, None if player == seatless else seat, player, amount=amount, cards=cards)
