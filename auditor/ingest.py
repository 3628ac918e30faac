"""Ingest: read history files into the append-only event log.

Each file goes in inside one transaction: an interrupted ingest leaves no
partial hand behind.  A hand already stored (same content hash) is a
duplicate; the same hand id with different content is a conflict, reported
and never overwritten.  The totals always reconcile::

    hands seen = stored + duplicates + rejected
"""

from __future__ import annotations

import datetime as dt
import glob
import os
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Iterable, Iterator

import duckdb

from auditor import schema
from auditor.store import connect, insert_arrow, rows_to_arrow
from parsers import detect_parser, iter_lines, open_source
from parsers.base import HandError, ParsedHand

BATCH_HANDS = 2000


class InputError(Exception):
    """A path that does not exist or holds nothing to read."""


@dataclass
class FileResult:
    path: str
    format: str | None
    seen: int = 0
    stored: int = 0
    duplicates: int = 0
    rejected: int = 0
    error: str | None = None  # file-level problem (not a history, unreadable)


@dataclass
class IngestSummary:
    files: int = 0
    hands_seen: int = 0
    stored: int = 0
    duplicates: int = 0
    rejected: int = 0
    seconds: float = 0.0
    file_results: list[FileResult] = field(default_factory=list)
    errors: list[dict] = field(default_factory=list)

    def as_json(self) -> dict:
        return {
            "files": self.files,
            "hands_seen": self.hands_seen,
            "hands": self.stored,
            "duplicates": self.duplicates,
            "rejected": self.rejected,
            "seconds": round(self.seconds, 3),
            "files_not_read": [{"path": r.path, "reason": r.error} for r in self.file_results if r.error],
            "errors": self.errors,
        }


def expand_paths(paths: Iterable[str | os.PathLike]) -> list[Path]:
    """Files, folders (recursively) and globs, in a stable order.  Hidden files
    (``.DS_Store``) are left out.  A path that matches nothing is an error."""
    out: list[Path] = []
    for p in paths:
        s = str(p)
        matches = [Path(m) for m in sorted(glob.glob(s, recursive=True))] if glob.has_magic(s) else [Path(s)]
        if not matches or not all(m.exists() for m in matches):
            raise InputError(f"{s}: no such file or folder")
        for m in matches:
            if m.is_dir():
                found = sorted(
                    f for f in m.rglob("*") if f.is_file() and not any(part.startswith(".") for part in f.relative_to(m).parts)
                )
                out.extend(found)
            else:
                out.append(m)
    seen: set[Path] = set()
    unique = []
    for f in out:
        r = f.resolve()
        if r not in seen:
            seen.add(r)
            unique.append(f)
    return unique


def ingest(
    paths: Iterable[str | os.PathLike],
    db: str | os.PathLike | None = None,
    *,
    con: duckdb.DuckDBPyConnection | None = None,
    progress: Callable[[FileResult], None] | None = None,
) -> IngestSummary:
    """Ingest files, folders or globs into the store and return the totals.

    >>> import tempfile, os
    >>> d = tempfile.mkdtemp()
    >>> s = ingest(["sample_histories/"], db=os.path.join(d, "a.duckdb"))
    >>> s.hands_seen == s.stored + s.duplicates + s.rejected
    True
    """
    files = expand_paths(paths)
    t0 = time.perf_counter()
    own = con is None
    con = con or connect(db)
    summary = IngestSummary()
    try:
        for f in files:
            r = ingest_file(con, f, summary)
            summary.files += 1
            summary.file_results.append(r)
            summary.hands_seen += r.seen
            summary.stored += r.stored
            summary.duplicates += r.duplicates
            summary.rejected += r.rejected
            if progress:
                progress(r)
    finally:
        if own:
            con.close()
    summary.seconds = time.perf_counter() - t0
    return summary


def ingest_file(con: duckdb.DuckDBPyConnection, path: Path, summary: IngestSummary) -> FileResult:
    now = dt.datetime.now(dt.UTC).replace(tzinfo=None)
    try:
        info = open_source(path)
    except OSError as e:
        r = FileResult(str(path), None, error=f"unreadable: {e.strerror or e}")
        _record_errors(con, str(path), None, [HandError(0, "unreadable", r.error)], now, summary)
        return r
    parser = detect_parser(info.head, str(path)) if info.size else None
    if parser is None:
        why = "empty file" if info.size == 0 else "not a hand history this tool reads (no PokerStars or PHH hand found)"
        r = FileResult(str(path), None, error=why)
        _record_errors(con, str(path), info.sha256, [HandError(0, "empty-file" if info.size == 0 else "not-a-history", why)], now, summary)
        return r

    result = FileResult(str(path), parser.name)
    con.execute("BEGIN TRANSACTION")
    try:
        source_id = _source_id(con, info, parser.name, now)
        errors: list[HandError] = []
        batch: list[ParsedHand] = []
        for item in parser.iter_hands(iter_lines(path, info.encoding), str(path)):
            result.seen += 1
            if isinstance(item, HandError):
                errors.append(item)
                continue
            batch.append(item)
            if len(batch) >= BATCH_HANDS:
                _store_batch(con, batch, source_id, result, errors)
                batch = []
        if batch:
            _store_batch(con, batch, source_id, result, errors)
        result.rejected = len(errors)
        _record_errors(con, str(path), info.sha256, errors, now, summary)
        con.execute("COMMIT")
    except BaseException:
        con.execute("ROLLBACK")
        raise
    return result


def _source_id(con: duckdb.DuckDBPyConnection, info, fmt: str, now) -> int:
    row = con.execute("SELECT source_id FROM sources WHERE sha256 = ?", [info.sha256]).fetchone()
    if row:
        return row[0]
    (next_id,) = con.execute("SELECT coalesce(max(source_id), 0) + 1 FROM sources").fetchone()
    con.execute(
        "INSERT INTO sources VALUES (?, ?, ?, ?, ?, ?, ?)",
        [next_id, str(Path(info.path).resolve()), info.size, info.sha256, fmt, info.encoding, now],
    )
    return next_id


def _store_batch(con, batch: list[ParsedHand], source_id: int, result: FileResult, errors: list[HandError]) -> None:
    # duplicates and conflicts against the store (earlier batches of this file are
    # already in it, inside the same transaction) and within the batch
    ids = [h.hand_id for h in batch]
    hashes = [h.content_hash for h in batch]
    known_hash = {
        row[0]
        for row in con.execute(
            "SELECT content_hash FROM hands WHERE content_hash IN (SELECT unnest(?::VARCHAR[]))", [hashes]
        ).fetchall()
    }
    known_id = dict(
        con.execute("SELECT hand_id, content_hash FROM hands WHERE hand_id IN (SELECT unnest(?::VARCHAR[]))", [ids]).fetchall()
    )
    keep: list[ParsedHand] = []
    for h in batch:
        if h.content_hash in known_hash:
            result.duplicates += 1
        elif h.hand_id in known_id:
            errors.append(
                HandError(
                    h.first_line,
                    "conflict",
                    f"hand {h.hand_id} is already stored with different content; the stored hand is kept",
                    h.hand_id,
                )
            )
        else:
            known_hash.add(h.content_hash)
            known_id[h.hand_id] = h.content_hash
            keep.append(h)
    if not keep:
        return
    hand_cols = {c: [] for c in schema.HANDS.column_names}
    seat_cols = {c: [] for c in schema.SEATS.column_names}
    event_cols = {c: [] for c in schema.EVENTS.column_names}
    hand_fields = [c for c in schema.HANDS.column_names if c != "source_id"]
    seat_fields = [c for c in schema.SEATS.column_names if c != "hand_id"]
    event_fields = [c for c in schema.EVENTS.column_names if c != "hand_id"]
    for h in keep:
        for c in hand_fields:
            hand_cols[c].append(getattr(h, c))
        hand_cols["source_id"].append(source_id)
        for s in h.seats:
            seat_cols["hand_id"].append(h.hand_id)
            for c in seat_fields:
                seat_cols[c].append(getattr(s, c))
        for e in h.events:
            event_cols["hand_id"].append(h.hand_id)
            for c in event_fields:
                event_cols[c].append(getattr(e, c))
    insert_arrow(con, schema.HANDS, rows_to_arrow(schema.HANDS, hand_cols))
    insert_arrow(con, schema.SEATS, rows_to_arrow(schema.SEATS, seat_cols))
    insert_arrow(con, schema.EVENTS, rows_to_arrow(schema.EVENTS, event_cols))
    result.stored += len(keep)


def _record_errors(con, path: str, sha: str | None, errors: list[HandError], now, summary: IngestSummary) -> None:
    """Append errors not already recorded for this file content (re-ingest adds no rows)."""
    for e in errors:
        summary.errors.append(
            {"file": path, "line": e.line_no, "hand": e.hand_id, "reason_code": e.reason_code, "reason": e.reason}
        )
        exists = con.execute(
            "SELECT 1 FROM ingest_errors WHERE sha256 IS NOT DISTINCT FROM ? AND coalesce(line_no, -1) = ? "
            "AND reason_code = ? AND (sha256 IS NOT NULL OR source_path = ?)",
            [sha, e.line_no if e.line_no is not None else -1, e.reason_code, path],
        ).fetchone()
        if not exists:
            con.execute(
                "INSERT INTO ingest_errors VALUES (?, ?, ?, ?, ?, ?, ?)",
                [path, sha, e.line_no, e.hand_id, e.reason_code, e.reason, now],
            )


def iter_stored_hand_ids(con) -> Iterator[str]:
    for (hid,) in con.execute("SELECT hand_id FROM hands ORDER BY hand_id").fetchall():
        yield hid
