"""Hand-history parsers, one module per format, and reading of source files.

``open_source`` decodes a file (UTF-8 with or without BOM, UTF-16 LE or BE with or
without one, cp1252), the encoding told from the bytes of the whole file
(``sniff_encoding``), and ``detect_parser`` picks the parser that reads it.
"""

from __future__ import annotations

import codecs
import hashlib
import importlib
import io
import re
from dataclasses import dataclass
from itertools import accumulate, count, repeat
from operator import add
from pathlib import Path
from typing import Iterable, Iterator

from parsers._native import use_source_where_stale

use_source_where_stale()  # before the compiled modules load: an edited one runs from its source

from parsers.base import Event, HandError, ParsedHand, Parser, Seat  # noqa: E402

HEAD_BYTES = 64 * 1024


@dataclass(frozen=True)
class SourceInfo:
    path: str
    size: int
    sha256: str
    encoding: str
    head: str  # first decoded KiB, for format detection


# A byte no text line holds: a control character other than tab, CR, LF, form feed and
# vertical tab, or one of the five bytes cp1252 leaves undefined.  A line not UTF-8 that
# holds one is binary junk (appended, or a garbled record), not text of another encoding.
_NOT_TEXT = re.compile(rb"[\x00-\x08\x0e-\x1f\x7f\x81\x8d\x8f\x90\x9d]")


def _utf16_by_zeros(sample: bytes) -> str | None:
    """UTF-16 without a BOM, told by where its zero bytes fall: the text of a history is
    mostly ASCII, whose every character is one byte and one zero byte; in LE the zeros are
    the odd bytes, in BE the even ones.  Text in an 8-bit encoding or UTF-8 has no zero byte."""
    pairs = len(sample) // 2
    if pairs < 2:
        return None
    odd, even = sample[1 : 2 * pairs : 2].count(0), sample[0 : 2 * pairs : 2].count(0)
    if odd * 4 >= pairs * 3 and even * 8 <= pairs:  # three in four characters ASCII, no more
        return "utf-16-le"                            # than one in eight bytes a zero otherwise
    if even * 4 >= pairs * 3 and odd * 8 <= pairs:
        return "utf-16-be"
    return None


def _bom_or_utf16(head: bytes) -> str | None:
    if head.startswith(codecs.BOM_UTF8):
        return "utf-8-sig"
    if head.startswith(codecs.BOM_UTF16_LE) or head.startswith(codecs.BOM_UTF16_BE):
        return "utf-16"  # the codec reads the BOM and its byte order
    return _utf16_by_zeros(head[:4096])


def _utf8_or_cp1252(lines: Iterable[bytes]) -> str:
    """The verdict for bytes that are not UTF-8 as a whole, line by line: a line that is
    not ASCII is UTF-8 (it decodes, and holds a character of more than one byte), text of an
    8-bit encoding (it does not, and holds no byte text lacks) or junk.  More UTF-8 lines
    than 8-bit ones: 'utf-8', each line that is not read as cp1252 (``decode_lines``): a
    UTF-8 file with a line written by another program, or junk appended, keeps its own
    text.  Else 'cp1252' for the whole: an 8-bit file where a line's bytes happen to form
    UTF-8 ('\u00c3\u00a9') is read as written."""
    utf8 = eight_bit = 0
    for raw in lines:
        if raw.isascii():
            continue
        try:
            raw.decode("utf-8")
            utf8 += 1
        except UnicodeDecodeError:
            if not _NOT_TEXT.search(raw):
                eight_bit += 1
    return "utf-8" if utf8 >= eight_bit and utf8 else "cp1252"


def sniff_encoding(data: bytes, whole: bool = True) -> str:
    """Pick the text encoding from the bytes: a BOM (UTF-8, UTF-16 LE or BE); UTF-16
    without one by its zero bytes; else UTF-8 if the bytes decode as UTF-8, strictly, all
    of them; else the lines decide (``_utf8_or_cp1252``).  ``whole``: ``data`` is the whole
    file; a sample (``whole=False``) may end in a cut character, which is no evidence.

    >>> sniff_encoding(b"\\xef\\xbb\\xbfPokerStars")
    'utf-8-sig'
    >>> sniff_encoding("Seat 1: Jos\\u00e9".encode("cp1252"))
    'cp1252'
    >>> sniff_encoding("P\\x00o\\x00".encode("latin-1"))
    'utf-16-le'
    >>> sniff_encoding("Seat 1: Jos\\u00e9\\n".encode("utf-8") + bytes([0x9c, 0xff, 0x00]))  # then binary junk
    'utf-8'
    >>> sniff_encoding(b"x" * 70000 + "3\\u00a0023,50 $".encode("utf-8"))  # the first 64 KiB ASCII
    'utf-8'
    >>> sniff_encoding("Seat 1: \\u00c3\\u00a9\\nSeat 2: Jos\\u00e9\\nSeat 3: Ren\\u00e9e\\n".encode("cp1252"))
    'cp1252'
    """
    if enc := _bom_or_utf16(data):
        return enc
    if data.isascii():
        return "utf-8"
    if not whole:
        data = data[: _last_whole_character(data)]
    try:
        data.decode("utf-8")
        return "utf-8"
    except UnicodeDecodeError:
        return _utf8_or_cp1252(data.split(b"\n"))


def _last_whole_character(data: bytes) -> int:
    """Where a sample cut inside a UTF-8 character would end if cut before it."""
    for back in range(1, min(4, len(data)) + 1):
        b = data[-back]
        if b < 0x80:
            return len(data)
        if b >= 0xC0:  # a lead byte: its character is cut if it needs more than ``back`` bytes
            need = 2 if b < 0xE0 else 3 if b < 0xF0 else 4
            return len(data) - back if need > back else len(data)
    return len(data)


def _sniff_file(path: Path) -> tuple[int, str, bytes, str]:
    """A file's size, SHA-256, first ``HEAD_BYTES`` and encoding, in one read of the file
    (a second one, line by line, only for a file that is not UTF-8 and not all ASCII): the
    UTF-8 check runs over every byte, so a file whose first non-ASCII character comes late
    is judged by it, and the incremental decoder keeps a character cut between two reads."""
    h = hashlib.sha256()
    size = 0
    head = b""
    utf8 = codecs.getincrementaldecoder("utf-8")()
    ok = True
    with open(path, "rb") as f:
        while chunk := f.read(1 << 20):
            h.update(chunk)
            size += len(chunk)
            if len(head) < HEAD_BYTES:
                head += chunk[: HEAD_BYTES - len(head)]
            if ok:
                try:
                    utf8.decode(chunk)
                except UnicodeDecodeError:
                    ok = False
    if enc := _bom_or_utf16(head):
        return size, h.hexdigest(), head, enc
    if ok:
        try:
            utf8.decode(b"", final=True)  # a file ending inside a character is not UTF-8
        except UnicodeDecodeError:
            ok = False
    if not ok:
        with open(path, "rb") as f:
            return size, h.hexdigest(), head, _utf8_or_cp1252(f)
    return size, h.hexdigest(), head, "utf-8"


def open_source(path: Path) -> SourceInfo:
    size, sha, head, enc = _sniff_file(path)
    return SourceInfo(str(path), size, sha, enc, _decode_head(head, enc))


def read_source(path: Path) -> tuple[SourceInfo, bytes]:
    """``open_source`` and the whole content in one read: for small files, where
    opening a file three times costs more than reading it."""
    data = path.read_bytes()
    enc = sniff_encoding(data)
    head = data[:HEAD_BYTES]
    return SourceInfo(str(path), len(data), hashlib.sha256(data).hexdigest(), enc, _decode_head(head, enc)), data


def _decode_head(head: bytes, enc: str) -> str:
    """The head as text for format detection: a character cut at its end is left out."""
    return codecs.getincrementaldecoder(enc)(errors="replace").decode(head)


def iter_lines(path: Path, encoding: str) -> Iterator[tuple[int, int, str]]:
    """Yield ``(line_no, byte_offset, text)`` for every line, streaming.

    A UTF-8 file with a stray undecodable line is read on: that line is decoded
    as cp1252 rather than failing the whole file.
    """
    if encoding.startswith("utf-16"):
        yield from bytes_lines(path.read_bytes(), encoding)
        return
    with open(path, "rb") as f:
        yield from decode_lines(f, encoding)


def bytes_lines(data: bytes, encoding: str, first_line: int = 1, first_offset: int = 0) -> Iterator[tuple[int, int, str]]:
    """``iter_lines`` of a whole file's content already read, or of a chunk of a file
    (numbered as in ``decode_lines``).

    >>> list(bytes_lines(b"a\\nbc\\n\\nd", "utf-8", 7, 100))
    [(7, 100, 'a'), (8, 102, 'bc'), (9, 105, ''), (10, 106, 'd')]
    """
    if not encoding.startswith("utf-16") and data.isascii() and b"\r" not in data:
        # the common case, without a Python step per line: ASCII reads the same in every
        # encoding decode_lines takes, and "\n" alone ends lines (so nothing to strip)
        lines = data.decode("ascii").split("\n")
        if lines[-1] == "":  # the data ends with a line ending (or is empty): no line after it
            lines.pop()
        offsets = accumulate(map(add, map(len, lines), repeat(1)), initial=first_offset)
        return zip(count(first_line), offsets, lines)
    return _bytes_lines(data, encoding, first_line, first_offset)


def _bytes_lines(data: bytes, encoding: str, first_line: int, first_offset: int) -> Iterator[tuple[int, int, str]]:
    if encoding.startswith("utf-16"):
        # UTF-16 cannot be split on b"\n" safely; such files are small (Full Tilt exports).
        # Lines end at "\n" alone, as in every other encoding (not str.splitlines, which
        # also cuts at U+0085, U+2028 and other characters), and a BOM is not a line's text
        bom = data[:2] in (codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)
        text = data.decode(encoding, errors="replace")
        if bom and text.startswith("\ufeff"):
            text = text[1:]
        # offsets in bytes, the first line's at the file's start (its BOM with it, as in UTF-8)
        offset = first_offset
        lines = text.split("\n")
        if lines[-1] == "":
            lines.pop()
        for i, line in enumerate(lines, first_line):
            yield i, offset, line.rstrip("\r")
            # two bytes a character, four a surrogate pair, and the BOM's two with the first line
            offset += 2 * (len(line) + 1) + 2 * sum(1 for c in line if c > "\uffff") + (2 if bom and i == first_line else 0)
        return
    yield from decode_lines(io.BytesIO(data), encoding, first_line, first_offset)


def decode_lines(raw_lines: Iterable[bytes], encoding: str, first_line: int = 1,
                 first_offset: int = 0) -> Iterator[tuple[int, int, str]]:
    """``iter_lines`` for raw lines (each ending in ``b"\\n"`` but the last) of an
    ASCII-compatible encoding, numbered from ``first_line`` at byte ``first_offset``:
    a chunk of a file reads exactly as the same lines of the whole file.

    >>> list(decode_lines([b"a\\r\\n", b"caf\\xe9\\n", b"z"], "utf-8", 7, 100))
    [(7, 100, 'a'), (8, 103, 'café'), (9, 108, 'z')]
    """
    offset = first_offset
    for i, raw in enumerate(raw_lines, first_line):
        text = raw[3:] if i == 1 and raw.startswith(codecs.BOM_UTF8) else raw  # the BOM is no line's
        try:
            line = text.decode(encoding)
        except UnicodeDecodeError:
            # a line that is not UTF-8 in a file that is (sniff_encoding): another
            # program's line, or junk; cp1252 reads any byte (undefined ones as U+FFFD)
            line = text.decode("cp1252", errors="replace")
        if i == 1 and line.startswith("\ufeff"):
            line = line[1:]
        yield i, offset, line.rstrip("\r\n")
        offset += len(raw)


# Every format the auditor reads, as "module:class", one a line; detection tries them
# in this order.  A new site adds its line here (its parser recognises its files by
# content: the order matters only where one format's header could open another's).
PARSERS = [
    "parsers.pokerstars:PokerStarsParser",
    "parsers.ggpoker:GGPokerParser",
    "parsers.runitonce:RunItOnceParser",
    "parsers.fulltilt_stars:FullTiltStarsParser",
    "parsers.winamax:WinamaxParser",
    "parsers.wpn:WpnParser",
    "parsers.wpn:WpnLegacyParser",
    "parsers.bovada:BovadaParser",
    "parsers.fulltilt:FullTiltParser",
    "parsers.phh:PhhParser",
    "parsers.ipoker:IPokerParser",
    "parsers.partypoker:PartyPokerParser",
    "parsers.pacific:PacificParser",
]


def all_parsers() -> list[Parser]:
    parsers = []
    for entry in PARSERS:
        module, _, cls = entry.partition(":")
        parsers.append(getattr(importlib.import_module(module), cls)())
    return parsers


@dataclass(frozen=True)
class FormatFacts:
    """What the checks must know of a format (``hands.format``, a parser's name) that its
    hands do not say.  Declared by its parser (attributes of the same names, False where
    absent); the store makes them SQL macros (``auditor.store.macros_sql``), so no check
    names a format.

    ``showdown_listed_by_site``: the showdown lines are the site's listing of the hands it
    tabled, in its own order, not an order in which players chose to show.
    ``records_rebuys``: re-buys and add-ons are written and read, so a busted player
    back with chips and no re-buy line is chips appearing, not a re-buy left unwritten.
    ``bba_split_by_format``: the format writes no order of posting (PHH: a seat's ante
    and blind are amounts), so a short big-blind-ante payer's split is no dealer's.
    ``outcomes_net_of_unwritten_rake``: the format's outcomes (PHH winnings and finishing
    stacks) are net of a rake it need not write, so, with none written, outcomes short of
    the chips put in are a record that leaves the rake out, not chips gone.
    ``actions_in_play_order``: the record's action lines are the order the actions were
    made in, with no site software behind them that takes an action only in its seat's
    turn (PHH, which writes live play too): a run of folds written out of turn order is
    out of turn there, and the record's order on a site's history.
    ``total_less_uncalled``: the format's total pot line counts the uncalled chips it
    writes no return for, and the parser reads it less them (inferred, the line among
    those it rests on: Winamax, a Stars-shaped site's ``implied_returns``): that total is
    still the one the history states.  Elsewhere a total inferred and placed on a line
    it rests on is made up from other lines (Party's and 888's cash hands, Bovada's Zone
    Poker, put on a collect or the last line) and states nothing; so does Bovada's total
    line in a walk, read less the big blind's uncalled chips, which one fact of the format
    cannot tell from its Zone totals.
    """

    showdown_listed_by_site: bool
    records_rebuys: bool
    bba_split_by_format: bool
    outcomes_net_of_unwritten_rake: bool
    actions_in_play_order: bool
    total_less_uncalled: bool


FACTS = tuple(FormatFacts.__dataclass_fields__)


def format_facts() -> dict[str, FormatFacts]:
    """Each format's facts, by parser name.

    >>> facts = format_facts()
    >>> facts["winamax"].showdown_listed_by_site, facts["pokerstars"].showdown_listed_by_site
    (True, False)
    >>> sorted(name for name, f in facts.items() if f.records_rebuys)
    ['fulltilt', 'fulltilt-stars', 'pokerstars']
    >>> [name for name, f in facts.items() if f.bba_split_by_format]
    ['phh']
    >>> [name for name, f in facts.items() if f.total_less_uncalled]
    ['winamax']
    """
    return {p.name: FormatFacts(*(bool(getattr(p, fact, False)) for fact in FACTS)) for p in all_parsers()}


def detect_parser(head: str, path: str) -> Parser | None:
    for p in all_parsers():
        if p.detect(head, path):
            return p
    return None


__all__ = [
    "Event",
    "FormatFacts",
    "HandError",
    "ParsedHand",
    "Parser",
    "Seat",
    "SourceInfo",
    "PARSERS",
    "all_parsers",
    "bytes_lines",
    "read_source",
    "decode_lines",
    "detect_parser",
    "format_facts",
    "iter_lines",
    "open_source",
]
