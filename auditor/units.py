"""Units of ingest work, parsed (and, for ``audit``, replayed) in worker processes.

A big file is cut into chunks at lines where a hand starts (its parser's
``hand_start``); each chunk parses exactly as the same lines of the whole file
would.  Small files are parsed whole, many to a unit.  A worker returns Arrow
tables and a little metadata per file part; only the main process touches the
store, and it takes the results in unit order, so what is stored never depends
on how many workers ran.
"""

from __future__ import annotations

import functools
import io
import os
from operator import attrgetter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Iterator

import numpy as np
import pyarrow as pa

from auditor import schema, segments
from auditor.store import rows_to_arrow
from parsers import SourceInfo, all_parsers, bytes_lines, detect_parser, iter_lines, open_source, read_source
from parsers.base import NOT_HANDS, HandError, ParsedHand, event_columns, seat_columns, settle
from auditor.segments import HAND_IX  # the row of a fact's hand in its unit

# A unit pays a fixed cost whatever its hands (a Parquet segment a table, its commit,
# the merges), and a worker holds one unit's hands as Python objects: 4 MiB is where
# larger units stop paying and the audit's processes stay under 1 GiB (bench/README.md, 2026-12-07)
CHUNK_BYTES = 4 << 20  # a file bigger than this is parsed in chunks of about this size
GROUP_BYTES = 4 << 20  # small files are grouped into units of about this size ...
GROUP_FILES = 500  # ... or this many files

# the columns read straight off the parsed objects (hand_id and source_id aside)
_HAND_FIELDS = [c for c in schema.HANDS.column_names if c != "source_id"]


@functools.lru_cache(maxsize=4096)
def _real_dir(d: str) -> str:
    return os.path.realpath(d)


def real_path(f: str | os.PathLike) -> str:
    """``os.path.realpath(f)``, with each folder resolved once: a folder of 10,000
    files would otherwise pay some 70,000 system calls.  String operations, not
    pathlib's (whose objects cost more than the rest of the call at that count).

    >>> real_path("sample_histories/README.md") == str(Path("sample_histories/README.md").resolve())
    True
    """
    s = os.fspath(f)
    folder, name = os.path.split(s)
    if name in ("", os.curdir, os.pardir) or os.path.islink(s):
        return os.path.realpath(s)
    # cached by the absolute folder: a relative one names another after a chdir
    return os.path.join(_real_dir(os.path.abspath(folder)), name)


@dataclass(slots=True)
class FilePart:
    """A whole file (``length`` None: the worker reads it; with ``info``, a big file
    that could not be cut, streamed), or one chunk of a big file: the ``length``
    bytes from ``first_offset``, which the worker reads itself, its ``info`` and
    parser found by the worker that planned the file (``scan_file``)."""

    path: str
    length: int | None = None
    info: SourceInfo | None = None
    parser: str | None = None
    first_line: int = 1
    first_offset: int = 0
    cut_by_end: int | None = None  # the line the next chunk starts at (None: end of file)
    first_part: bool = True
    last_part: bool = True
    read_error: str | None = None  # the file could not be read past this chunk (why)
    # the file's resolved path: a parser that builds hand ids from the path (PHH) sees
    # the same path however the file was named on the command line
    real: str | None = None


@dataclass
class PartResult:
    path: str
    first_part: bool
    last_part: bool
    info: SourceInfo | None = None
    parser: str | None = None
    error: tuple[str, str] | None = None  # file-level (reason code, reason): unreadable, empty, not a history
    seen: int = 0
    errors: list[HandError] = field(default_factory=list)
    real: str | None = None  # the file's resolved path (FilePart.real), stored as its sources.path


@dataclass
class UnitResult:
    """``hands`` has one row per parsed hand (column ``source_id`` holds the index of
    its part in ``parts``); seats, events and facts carry ``_hand_ix``, the row of
    their hand in ``hands``."""

    parts: list[PartResult]
    hands: pa.Table
    seats: pa.Table
    events: pa.Table
    facts: dict[str, pa.Table] | None = None


def file_size(path: Path) -> int:
    try:
        return path.stat().st_size
    except OSError:
        return 0  # the worker reports it unreadable


def plan_units(files: list[Path], sizes: list[int], scan: Callable[..., list[FilePart]] | None = None) -> Iterator[list[FilePart]]:
    """Cut the work into units, in file order: groups of small files, and chunks of
    big files split where a hand starts.  ``sizes``: each file's ``file_size``.
    ``scan(path, real, chunk_bytes)`` plans a big file (``scan_file``; ingest runs it
    in a worker, so this process never reads the text: it names byte ranges)."""
    scan = scan or scan_file
    group: list[FilePart] = []
    size = 0
    for f, n in zip(files, sizes):
        if n <= CHUNK_BYTES:
            group.append(FilePart(str(f), real=real_path(f)))
            size += n
            if size >= GROUP_BYTES or len(group) >= GROUP_FILES:
                yield group
                group, size = [], 0
            continue
        if group:
            yield group
            group, size = [], 0
        yield from ([p] for p in scan(str(f), real_path(f), CHUNK_BYTES))
    if group:
        yield group


def scan_file(path: str, real: str, chunk_bytes: int) -> list[FilePart]:
    """A big file's chunks, as byte ranges cut at lines where a hand starts (a hand
    belongs to the chunk its first line is in), each with the number of its first
    line: one sequential read that hashes the file, finds its format and counts
    lines.  Plain data in and out: a worker runs it (``plan_units``)."""
    try:
        info = open_source(Path(path))
    except OSError:
        return [FilePart(path, real=real)]  # the worker reports it unreadable
    parser = detect_parser(info.head, path)
    start = getattr(parser, "hand_start", None)
    if start is None or info.encoding.startswith("utf-16"):
        return [FilePart(path, info=info, real=real)]  # streamed whole (UTF-16 cannot be split on bytes)
    out: list[FilePart] = []
    line, offset, first = 1, 0, True
    parts: list[bytes] = []  # read since the last cut
    size = 0
    try:
        fh = open(path, "rb")
    except OSError:
        return [FilePart(path, real=real)]  # gone or unreadable since it was hashed: the worker reports it
    with fh:
        while True:
            try:
                block = fh.read(chunk_bytes)
            except OSError as e:
                # what was read still goes in; the rest of the file is one rejection
                out.append(FilePart(path, size, info, parser.name, line, offset, None, first, True,
                                    read_error=e.strerror or str(e), real=real))
                return out
            if not block:
                break
            if len(block) < chunk_bytes:  # the end of the file: the rest is the last chunk
                parts.append(block)
                size += len(block)
                break
            # cut before the last hand start in this block (a header may straddle the
            # previous block, hence a look back), keeping that hand for the next chunk
            back = parts[-1][-256:] if parts else b""
            cut = _last_start(start, back + block)
            if cut is None or cut == 0 and back or size + cut - len(back) <= 0:
                parts.append(block)  # no hand start past the chunk's first byte: read on
                size += len(block)
                continue
            data = b"".join(parts) + block
            at = size + cut - len(back)
            lines = data.count(b"\n", 0, at)
            out.append(FilePart(path, at, info, parser.name, line, offset, line + lines, first, False, real=real))
            parts, size = [data[at:]], len(data) - at
            line, offset, first = line + lines, offset + at, False
    out.append(FilePart(path, size, info, parser.name, line, offset, None, first, True, real=real))
    return out


def _read_range(part: FilePart) -> tuple[bytes, str | None]:
    """A chunk's bytes, and why the file could not be read to its end (None: read).
    ``io.open``: the file's own bytes, however ``open`` is named here."""
    try:
        with io.open(part.real or part.path, "rb") as f:
            f.seek(part.first_offset)
            data = f.read(part.length)
    except OSError as e:
        return b"", e.strerror or str(e)
    if len(data) < part.length:
        return data, "the file is shorter than when it was planned"
    return data, part.read_error


def _last_start(start, buf: bytes) -> int | None:
    """Where the last hand starts in ``buf``: looked for near its end first (a hand
    is a few KiB), then anywhere."""
    for lo in (max(0, len(buf) - (64 << 10)), 0):
        last = None
        for m in start.finditer(buf, lo):
            last = m.start()
        if last is not None or lo == 0:
            return last
    return None


def _parser(name: str):
    return next(p for p in all_parsers() if p.name == name)


def _parse_part(part: FilePart, data: bytes | None) -> tuple[PartResult, Iterator]:
    res = PartResult(part.path, part.first_part, part.last_part, part.info, part.parser, real=part.real)
    if data is not None:
        lines = bytes_lines(data, part.info.encoding, part.first_line, part.first_offset)
        return res, _parser(part.parser).iter_hands(lines, part.real or part.path, cut_by_end=part.cut_by_end)
    # read by the resolved, absolute path: a Dask worker on another machine has
    # another working folder (auditor.execution)
    path = Path(part.real or part.path)
    try:
        # a small file is read once; a big one the main process has hashed is streamed
        info, data = (part.info, None) if part.info is not None else read_source(path)
    except OSError as e:
        res.error = ("unreadable", f"unreadable: {e.strerror or e}")
        return res, iter(())
    res.info = info
    parser = detect_parser(info.head, part.path) if info.size else None
    if parser is None:
        res.error = ("empty-file", "empty file") if info.size == 0 else (
            "not-a-history", "not a hand history this tool reads (no hand of a format in docs/sites.md found)")
        return res, iter(())
    res.parser = parser.name
    lines = bytes_lines(data, info.encoding) if data is not None else iter_lines(path, info.encoding)
    return res, parser.iter_hands(lines, part.real or part.path)


def parse_unit(parts: list[FilePart], replay: tuple[str, int] | None = None) -> UnitResult:
    """Parse one unit; with ``replay`` (edition, raise cap) also replay its hands."""
    results: list[PartResult] = []
    hands: list[ParsedHand] = []
    part_of: list[int] = []  # the part of the unit each hand came from
    for pi, part in enumerate(parts):
        data, read_error = _read_range(part) if part.length is not None else (None, None)
        res, items = _parse_part(part, data)
        results.append(res)
        for item in _guarded(items, res, part.first_line):
            res.seen += 1
            # an amount too large to store exactly, lines not understood whose chips do not add up
            item = settle(item)
            if isinstance(item, HandError):
                res.errors.append(item)
                if item.reason_code in NOT_HANDS:
                    res.seen -= 1  # lines that hold no hand: recorded, not a hand seen
                continue
            hands.append(item)
            part_of.append(pi)
        if read_error:
            last = part.first_line + data.count(b"\n")
            res.seen += 1
            res.errors.append(HandError(last, "unreadable", f"the file could not be read past line {last}: {read_error}"))
    # source_id holds the part index here; the main process puts the file's id in
    hands_table = _columns(schema.HANDS, hands, _HAND_FIELDS, {"source_id": part_of})
    hand_ids = hands_table.column("hand_id")
    out = UnitResult(results, hands_table, _by_hand(schema.SEATS, seat_columns(hands), hand_ids),
                     _by_hand(schema.EVENTS, event_columns(hands), hand_ids))
    if replay is not None:
        from replay.runner import replay_hands  # here: the coordinator, which plans units, needs no engine

        # the engine reads the parser's own objects
        out.facts = replay_hands([(h, h.seats, h.events) for h in hands], *replay)
    return out


def _guarded(items: Iterator, res: PartResult, first_line: int) -> Iterator:
    """The parser's items; should it fail (a bug: parsers turn bad input into
    HandError), the rest of the file part is one rejection naming the line after the
    last hand read, and the other files of the unit still go in."""
    line = first_line
    try:
        for item in items:
            line = getattr(item, "last_line", None) or item.line_no
            yield item
    except Exception as exc:  # noqa: BLE001 - reported as an ingest error, never lost
        res.seen += 1
        # its own code: a rejection of the hand before, at the same line, is another row
        res.errors.append(HandError(line, "parser-failed",
                                    f"the {res.parser} parser failed after line {line}: {type(exc).__name__}: {exc}"))


def _columns(table: schema.Table, objs: list, fields: list[str], extra: dict[str, list]) -> pa.Table:
    """``table`` as Arrow: each of ``fields`` a column read off ``objs`` (a pass per
    column, in C: no row tuples to build and transpose, half the cost), and the
    ``extra`` columns."""
    return rows_to_arrow(table, {f: list(map(attrgetter(f), objs)) for f in fields} | extra)


def _by_hand(table: schema.Table, cols: dict[str, list], hand_ids: pa.ChunkedArray) -> pa.Table:
    """``table`` from the columns of ``parsers.base.seat_columns`` or ``event_columns``:
    the ``hand_id`` column taken from the hands' by each row's ``HAND_IX`` (in C, no
    Python string per row), ``HAND_IX`` kept as a last column."""
    ix = pa.array(cols[HAND_IX], pa.int32())
    arrow = table.arrow_schema()
    arrays = [hand_ids.take(ix) if name == "hand_id" else pa.array(cols[name], type=arrow.field(name).type)
              for name in table.column_names]
    return pa.Table.from_arrays([*arrays, ix], schema=arrow.append(pa.field(HAND_IX, pa.int32())))


@dataclass(slots=True)
class UnitJob:
    """A unit of ingest work: its id in the store (``unit_sources``), the name its
    segments take, and its file parts."""

    unit_id: int
    name: str
    parts: list[FilePart]


@dataclass
class UnitManifest:
    """What a worker tells the coordinator about a unit whose segments it wrote to
    ``pending/``: the files' parts and errors, each hand's key and its 64-bit hashes
    (for the duplicate check: ``segments.key_hashes``), and the rows of each table's
    segment (tables without rows have none)."""

    unit_id: int
    name: str
    parts: list[PartResult]
    hand_ids: pa.Array  # strings
    content_hashes: pa.Array
    id_keys: np.ndarray  # uint64, segments.key_hashes of hand_ids
    content_keys: np.ndarray  # ... of content_hashes
    part_of: list[int]  # the part of the unit each hand came from
    first_lines: list[int]
    rows: dict[str, int]  # table name -> rows of its pending segment


def write_unit(job: UnitJob, replay: tuple[str, int] | None, root: str) -> UnitManifest:
    """Parse (and with ``replay``, replay) one unit and write its segments under
    ``root/pending``: the worker function of ingest.  Plain data in and out, so any
    process that sees ``root`` (a Dask worker on another machine) can run it."""
    unit = parse_unit(job.parts, replay)
    n = unit.hands.num_rows
    hands = unit.hands.append_column(HAND_IX, pa.array(np.arange(n, dtype=np.int32)))
    hands = hands.append_column(segments.UNIT, pa.array(np.full(n, job.unit_id, dtype=np.int64)))
    tables = [(schema.HANDS, hands), (schema.SEATS, unit.seats), (schema.EVENTS, unit.events)]
    if unit.facts is not None:
        tables += [(t, unit.facts[t.name]) for t in schema.REPLAY_TABLES]
    rows = {t.name: segments.write_pending(root, t, job.name, data) for t, data in tables if data.num_rows}
    ids = unit.hands.column("hand_id").combine_chunks()
    contents = unit.hands.column("content_hash").combine_chunks()
    return UnitManifest(job.unit_id, job.name, unit.parts, ids, contents, segments.key_hashes(ids.to_pylist()),
                        segments.key_hashes(contents.to_pylist()), unit.hands.column("source_id").to_pylist(),
                        unit.hands.column("first_line").to_pylist(), rows)
