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
from typing import Callable, Iterable

import duckdb

from auditor import schema
from auditor.store import connect, insert_arrow, rows_to_arrow
from parsers import detect_parser, iter_lines, open_source
from parsers.base import HandError, ParsedHand, out_of_range

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
    source: tuple | None = field(default=None, repr=False)  # (path, sha256, read at) for error rows


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
    writer = _Writer(con, summary)
    try:
        for f in files:
            r = writer.add_file(f)
            summary.files += 1
            summary.file_results.append(r)
            if progress:
                progress(r)
        writer.commit()
        for r in summary.file_results:  # counted once every batch is flushed
            summary.hands_seen += r.seen
            summary.stored += r.stored
            summary.duplicates += r.duplicates
            summary.rejected += r.rejected
    except BaseException:
        writer.rollback()
        raise
    finally:
        if own:
            con.close()
    summary.seconds = time.perf_counter() - t0
    return summary


class _Writer:
    """Writes parsed hands in bulk.  Whole files go in together: a transaction spans
    one or more complete files (at least ``BATCH_HANDS`` hands, or one large file),
    so an interrupted ingest leaves no partial hand or file behind, and many small
    files (PHH) do not pay a transaction each."""

    def __init__(self, con: duckdb.DuckDBPyConnection, summary: IngestSummary):
        self.con = con
        self.summary = summary
        self.in_tx = False
        self.pending_hands = 0
        self.sources = dict(con.execute("SELECT sha256, source_id FROM sources").fetchall())
        (self.next_source,) = con.execute("SELECT coalesce(max(source_id), 0) + 1 FROM sources").fetchone()
        self.errors: list[tuple] = []
        self.pending: list[tuple[ParsedHand, int, FileResult]] = []
        self.new_sources: list[tuple] = []

    def _begin(self) -> None:
        if not self.in_tx:
            self.con.execute("BEGIN TRANSACTION")
            self.in_tx = True

    def commit(self) -> None:
        if self.in_tx:
            self._flush_hands()
            self._flush_errors()
            self.con.execute("COMMIT")
            self.in_tx = False
            self.pending_hands = 0

    def rollback(self) -> None:
        if self.in_tx:
            self.con.execute("ROLLBACK")
            self.in_tx = False
        self.new_sources = []
        self.pending = []

    def add_file(self, path: Path) -> FileResult:
        now = dt.datetime.now(dt.UTC).replace(tzinfo=None)
        try:
            info = open_source(path)
        except OSError as e:
            r = FileResult(str(path), None, error=f"unreadable: {e.strerror or e}")
            self._errors(str(path), None, [HandError(0, "unreadable", r.error)], now)
            return r
        parser = detect_parser(info.head, str(path)) if info.size else None
        if parser is None:
            why = "empty file" if info.size == 0 else "not a hand history this tool reads (no PokerStars or PHH hand found)"
            r = FileResult(str(path), None, error=why)
            code = "empty-file" if info.size == 0 else "not-a-history"
            self._errors(str(path), info.sha256, [HandError(0, code, why)], now)
            return r
        result = FileResult(str(path), parser.name)
        result.source = (str(path), info.sha256, now)
        self._begin()
        source_id = self._source_id(info, parser.name, now)
        for item in parser.iter_hands(iter_lines(path, info.encoding), str(path)):
            result.seen += 1
            if isinstance(item, ParsedHand) and (why := out_of_range(item)):
                item = HandError(item.first_line, "amount-out-of-range", why, item.hand_id)
            if isinstance(item, HandError):
                result.rejected += 1
                self._errors(str(path), info.sha256, [item], now)
                continue
            self.pending.append((item, source_id, result))
            if len(self.pending) >= BATCH_HANDS:
                self._flush_hands()
        self.pending_hands += result.seen
        if self.pending_hands >= BATCH_HANDS:
            self.commit()
        return result

    def _flush_hands(self) -> None:
        if self.new_sources:
            cols = {c: [r[i] for r in self.new_sources] for i, c in enumerate(schema.SOURCES.column_names)}
            insert_arrow(self.con, schema.SOURCES, rows_to_arrow(schema.SOURCES, cols))
            self.new_sources = []
        if not self.pending:
            return
        conflicts = _store_batch(self.con, self.pending)
        for h, res in conflicts:
            res.rejected += 1
            path, sha, now = res.source
            self._errors(path, sha, [h], now)
        self.pending = []

    def _source_id(self, info, fmt: str, now) -> int:
        sid = self.sources.get(info.sha256)
        if sid is None:
            sid = self.next_source
            self.next_source += 1
            self.sources[info.sha256] = sid
            self.new_sources.append((sid, str(Path(info.path).resolve()), info.size, info.sha256, fmt, info.encoding, now))
        return sid

    def _errors(self, path: str, sha: str | None, errors: list[HandError], now) -> None:
        for e in errors:
            self.summary.errors.append(
                {"file": path, "line": e.line_no, "hand": e.hand_id, "reason_code": e.reason_code, "reason": e.reason}
            )
            self.errors.append((path, sha, e.line_no, e.hand_id, e.reason_code, e.reason, now))
        if not self.in_tx and self.errors:
            self._begin()

    def _flush_errors(self) -> None:
        """Append errors not already recorded for the same file content, line and
        reason, so re-ingesting adds no rows."""
        if not self.errors:
            return
        cols = {c: [r[i] for r in self.errors] for i, c in enumerate(schema.INGEST_ERRORS.column_names)}
        self.con.register("_new_errors", rows_to_arrow(schema.INGEST_ERRORS, cols))
        try:
            self.con.execute(
                """INSERT INTO ingest_errors
                   SELECT DISTINCT ON (coalesce(n.sha256, n.source_path), coalesce(n.line_no, -1), n.reason_code) n.*
                   FROM _new_errors n
                   WHERE NOT EXISTS (
                     SELECT 1 FROM ingest_errors o
                     WHERE coalesce(o.sha256, o.source_path) = coalesce(n.sha256, n.source_path)
                       AND coalesce(o.line_no, -1) = coalesce(n.line_no, -1) AND o.reason_code = n.reason_code)"""
            )
        finally:
            self.con.unregister("_new_errors")
        self.errors = []


def _store_batch(con, pending: list[tuple[ParsedHand, int, FileResult]]) -> list[tuple[HandError, FileResult]]:
    """Store a batch of parsed hands (from one or more files) in bulk.  Duplicates
    (same content) are counted; the same hand id with other content is a conflict,
    returned as errors.  Earlier batches of the transaction are already visible."""
    ids = [h.hand_id for h, _, _ in pending]
    hashes = [h.content_hash for h, _, _ in pending]
    known_hash = {
        row[0]
        for row in con.execute(
            "SELECT content_hash FROM hands WHERE content_hash IN (SELECT unnest(?::VARCHAR[]))", [hashes]
        ).fetchall()
    }
    known_id = dict(
        con.execute("SELECT hand_id, content_hash FROM hands WHERE hand_id IN (SELECT unnest(?::VARCHAR[]))", [ids]).fetchall()
    )
    keep: list[tuple[ParsedHand, int]] = []
    conflicts: list[tuple[HandError, FileResult]] = []
    for h, source_id, result in pending:
        if h.content_hash in known_hash:
            result.duplicates += 1
        elif h.hand_id in known_id:
            conflicts.append((
                HandError(h.first_line, "conflict",
                          f"hand {h.hand_id} is already stored with different content; the stored hand is kept", h.hand_id),
                result,
            ))
        else:
            known_hash.add(h.content_hash)
            known_id[h.hand_id] = h.content_hash
            keep.append((h, source_id))
            result.stored += 1
    if not keep:
        return conflicts
    hand_cols = {c: [] for c in schema.HANDS.column_names}
    seat_cols = {c: [] for c in schema.SEATS.column_names}
    event_cols = {c: [] for c in schema.EVENTS.column_names}
    hand_fields = [c for c in schema.HANDS.column_names if c != "source_id"]
    seat_fields = [c for c in schema.SEATS.column_names if c != "hand_id"]
    event_fields = [c for c in schema.EVENTS.column_names if c != "hand_id"]
    for h, source_id in keep:
        for c in hand_fields:
            hand_cols[c].append(getattr(h, c))
        hand_cols["source_id"].append(source_id)
        for st in h.seats:
            seat_cols["hand_id"].append(h.hand_id)
            for c in seat_fields:
                seat_cols[c].append(getattr(st, c))
        for e in h.events:
            event_cols["hand_id"].append(h.hand_id)
            for c in event_fields:
                event_cols[c].append(getattr(e, c))
    insert_arrow(con, schema.HANDS, rows_to_arrow(schema.HANDS, hand_cols))
    insert_arrow(con, schema.SEATS, rows_to_arrow(schema.SEATS, seat_cols))
    insert_arrow(con, schema.EVENTS, rows_to_arrow(schema.EVENTS, event_cols))
    return conflicts
