"""Hand-history parsers, one module per format, and reading of source files.

``open_source`` decodes a file (UTF-8 with or without BOM, UTF-16, cp1252) and
``detect_parser`` picks the parser that reads it.
"""

from __future__ import annotations

import codecs
import hashlib
import importlib
import io
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


def file_sha256(path: Path) -> tuple[int, str]:
    h = hashlib.sha256()
    size = 0
    with open(path, "rb") as f:
        while chunk := f.read(1 << 20):
            h.update(chunk)
            size += len(chunk)
    return size, h.hexdigest()


def sniff_encoding(head: bytes) -> str:
    """Pick the text encoding from the first bytes.

    >>> sniff_encoding(b"\\xef\\xbb\\xbfPokerStars")
    'utf-8-sig'
    >>> sniff_encoding("Seat 1: Jos\\u00e9".encode("cp1252"))
    'cp1252'
    >>> sniff_encoding("P\\x00o\\x00".encode("latin-1"))
    'utf-16-le'
    >>> sniff_encoding("Seat 1: Jos\\u00e9\\n".encode("utf-8") + bytes([0x9c, 0xff, 0x00]))  # then binary junk
    'utf-8'
    """
    if head.startswith(codecs.BOM_UTF8):
        return "utf-8-sig"
    if head.startswith(codecs.BOM_UTF16_LE):
        return "utf-16"
    if head.startswith(codecs.BOM_UTF16_BE):
        return "utf-16"
    if len(head) >= 4 and head[1] == 0 and head[3] == 0 and head[0] != 0:
        return "utf-16-le"
    if len(head) >= 4 and head[0] == 0 and head[2] == 0 and head[1] != 0:
        return "utf-16-be"
    try:
        head.decode("utf-8")
        return "utf-8"
    except UnicodeDecodeError as e:
        # a multi-byte character cut at the end of a full sample is still UTF-8
        if len(head) >= HEAD_BYTES and e.start >= len(head) - 3 and e.reason == "unexpected end of data":
            return "utf-8"
        # UTF-8 text (a character of more than one byte) before bytes that are not UTF-8: a
        # UTF-8 file with a stretch that is not (binary junk appended, a line written in
        # cp1252), which decode_lines reads as cp1252 line by line.  Read whole as cp1252, its
        # text would be misread ('Jos\u00c3\u00a9'); text all ASCII before it reads alike either way
        if not head[: e.start].isascii():
            return "utf-8"
        return "cp1252"


def open_source(path: Path) -> SourceInfo:
    size, sha = file_sha256(path)
    with open(path, "rb") as f:
        head = f.read(HEAD_BYTES)
    return _info(path, size, sha, head)


def read_source(path: Path) -> tuple[SourceInfo, bytes]:
    """``open_source`` and the whole content in one read: for small files, where
    opening a file three times costs more than reading it."""
    data = path.read_bytes()
    return _info(path, len(data), hashlib.sha256(data).hexdigest(), data[:HEAD_BYTES]), data


def _info(path: Path, size: int, sha: str, head: bytes) -> SourceInfo:
    enc = sniff_encoding(head)
    return SourceInfo(str(path), size, sha, enc, head.decode(enc, errors="replace"))


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
        # UTF-16 cannot be split on b"\n" safely; such files are small (Full Tilt exports)
        text = data.decode(encoding, errors="replace")
        offset = 0
        for i, line in enumerate(text.splitlines(keepends=True), 1):
            yield i, offset, line.rstrip("\r\n")
            offset += len(line.encode("utf-16-le"))
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
        try:
            line = raw.decode(encoding)
        except UnicodeDecodeError:
            line = raw.decode("cp1252", errors="replace")
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
    """

    showdown_listed_by_site: bool
    records_rebuys: bool
    bba_split_by_format: bool
    outcomes_net_of_unwritten_rake: bool


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
