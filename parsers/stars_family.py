"""The PokerStars family: text hand histories written in PokerStars' shape.

PokerStars, GGPoker, Run It Once Poker and the 2016 Full Tilt client (and, on
this base, any other room that copied the shape) write a hand as: a header line
naming the hand, the game and the stakes; a table line; one line a seat;
``<player>: <action>`` lines between ``*** STREET ***`` markers; a
``*** SUMMARY ***`` with ``Total pot ...`` and one line a seat.  What differs
from site to site is a handful of line patterns and words: those are one
:class:`StarsSite` per site (its module, e.g. ``parsers/ggpoker.py``, holds only
that); :class:`StarsFamilyParser` reads every site from its description.

The parser (this module) streams ``(line_no, byte_offset, text)`` tuples, cuts
them into hands at each header line and turns each hand into a
:class:`~parsers.base.ParsedHand` whose events are the recorded lines, in order,
verbatim.  A hand it does not fully understand is a
:class:`~parsers.base.HandError` naming the line; it never repairs or guesses.
Only one hand's lines are held at a time.

The family in six modules, each read on its own:

- ``parsers/stars_site.py``: what a site declares (``StarsSite``) and the words all share;
- ``parsers/stars_tables.py``: a site's words made ready to read, once a site;
- ``parsers/stars_hand.py``: one hand's lines read into events (header, seats, body, summary);
- ``parsers/stars_returns.py``: the uncalled bet a site leaves out, inferred;
- ``parsers/stars_languages.py``: a client's other languages, each line read as its English form;
- this module: a file cut into hands, and a hand's rejection when it cannot be read.
"""

from __future__ import annotations

from typing import Any, Iterator

from parsers.base import MAX_DECIMALS, HandError, ParsedHand, content_hash, has_unread, junk_after, text_after, unread_from, unread_lines
from parsers.base import Reject as _Reject
from parsers.base import Rescale as _Rescale
from parsers.stars_languages import language_of, translate_line
from parsers.stars_site import StarsSite
from parsers.stars_hand import _HandReader, cut_where

try:  # present where mypyc compiles this module (setup.py); a no-op elsewhere
    from mypy_extensions import mypyc_attr
except ImportError:  # pragma: no cover - pure-Python installs

    def mypyc_attr(*attrs: str, **kwattrs: object) -> Any:  # type: ignore[misc]
        return lambda cls: cls


# compiled, it stays a base for the sites' parser classes in modules that are not
@mypyc_attr(allow_interpreted_subclasses=True)
class StarsFamilyParser:
    """Reads one Stars-shaped site's text histories, as its :class:`StarsSite` says."""

    def __init__(self, site: StarsSite) -> None:
        self.site = site
        self.name = site.name
        self.showdown_listed_by_site = site.showdown_listed_by_site
        self.records_rebuys = site.records_rebuys
        # a site that writes no return reads its total line less the uncalled chips it counts (infer_return)
        self.total_less_uncalled = site.implied_returns
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
            elif text.strip() and not (site.ignored_line_pattern and site.ignored_line_pattern.match(text)) \
                    and not (site.between_hands and site.between_hands.match(text)):
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
        between = self.site.between_hands  # (an export's separator before the next hand: no line of this one)
        while len(buf) > 1 and (not buf[-1][2].strip().strip(blank) or between is not None and between.match(buf[-1][2])):
            buf.pop()
        first, reader = self._read(buf, cut_by)
        if isinstance(first, ParsedHand) and (line_no := unread_from(first)) is not None \
                and (kept := self._before_text(buf, cut_by, line_no)) is not None:
            return kept  # a whole hand, then text that is no hand's (self.unread)
        if isinstance(first, ParsedHand) or first.reason_code == "amount-out-of-range" or not hasattr(reader, "seated"):
            return first
        if first.reason_code == "parse-error" and ((kept := self._before_unread(buf, cut_by, first.line_no)) is not None
                                                   or (kept := self._before_text(buf, cut_by, first.line_no)) is not None):
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

    def _before_text(self, buf: list[tuple[int, int, str]], cut_by: int | None, line_no: int) -> ParsedHand | None:
        """The hand in ``buf`` before the lines from ``line_no`` on, where they are text after it
        (``parsers.base.text_after``: a mail's footer after an exported history); those lines
        are then ``self.unread``, an ``unread-lines`` error that is no hand.  Else None: they
        stay the hand's.  Not where a site's hands hold blank lines."""
        if self.site.blank_lines:
            return None
        found = text_after(buf, line_no, self.site.header_start, lambda lines: self._read(lines, cut_by)[0])
        if found is None:
            return None
        hand, error = found
        self.unread.append(error)
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
            reason = rejected.reason
            if isinstance(reader, _HandReader) and reader.translated:
                reason = reader.as_written_reason(rejected.line_no, reason)  # the line as written, not its translation
            return HandError(rejected.line_no, rejected.code, reason, self._hand_id(buf)), reader
        except (ValueError, KeyError, IndexError, AttributeError, TypeError) as e:  # a line we misread
            no = reader.raw_no  # the line being read ('raises -6.10€ to 18.90€': not an amount)
            return HandError(no, "parse-error", f"hand at line {buf[0][0]}: line {no}: {e}", self._hand_id(buf)), reader

    def reader(self, buf: list[tuple[int, int, str]], cut_by: int | None, scale: int) -> Any:
        """The reader of one hand's lines: a site whose frame is Stars' but whose lines
        are not (Bovada) gives its own, with ``read()`` and ``raw_no``."""
        return _HandReader(self.site, buf, cut_by, scale)

    def _hand_id(self, buf: list[tuple[int, int, str]]) -> str | None:
        """The id of a hand that could not be read, if its header can be."""
        header = buf[0][2]
        if self.site.languages and (lang := language_of(header, self.site.languages)) is not None:
            header = translate_line(lang, header) or header  # a header in another language
        m = self.site.header.match(header)
        return f"{self.site.id_prefix}{m.group('num')}" if m else None

    def _stray_error(self, stray: tuple[int, int]) -> HandError:
        return HandError(
            stray[0],
            "truncated",
            f"lines {stray[0]}-{stray[1]} come before any {self.site.label} hand header (a hand cut off at its start)",
        )
