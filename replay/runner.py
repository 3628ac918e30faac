"""Rebuild the replay facts for everything in the store, reading the event log
(never re-parsing sources).  Idempotent: an edition's facts are replaced whole,
in one transaction, so running it twice gives identical tables."""

from __future__ import annotations

import multiprocessing
import os
import time
from collections import deque
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from typing import Callable, Iterator

import duckdb

from auditor import schema
from auditor.store import insert_arrow, rows_to_arrow
from replay.editions import DEFAULT_EDITION, edition
from replay.engine import DEFAULT_RAISE_CAP, HandFacts, replay_hand

BATCH_HANDS = 1000  # per committed batch: bounds memory (about 350 MiB peak), costs no speed
_HAND_COLS = [c.name for c in schema.HANDS.columns]
_SEAT_COLS = ["hand_id", "seat", "position", "player", "starting_stack"]
_EVENT_COLS = ["hand_id", "seq", "street", "kind", "seat", "player", "amount", "to_amount", "all_in", "cards",
               "pot_label", "half", "line_no"]


@dataclass
class ReplaySummary:
    edition: str
    hands: int = 0
    decisions: int = 0
    pots: int = 0
    notes: int = 0
    seconds: float = 0.0


def iter_hand_batches(con: duckdb.DuckDBPyConnection, where: str = "", params: list | None = None,
                      batch: int = BATCH_HANDS) -> Iterator[list[tuple[dict, list[dict], list[dict]]]]:
    """Yield lists of (hand, seats, events) read back from the store, in hand_id order."""
    ids = [r[0] for r in con.execute(f"SELECT hand_id FROM hands {where} ORDER BY hand_id", params or []).fetchall()]
    for i in range(0, len(ids), batch):
        chunk = ids[i : i + batch]
        lo, hi = chunk[0], chunk[-1]
        rng = "hand_id BETWEEN ? AND ?"
        hands = con.execute(f"SELECT {', '.join(_HAND_COLS)} FROM hands WHERE {rng} ORDER BY hand_id", [lo, hi]).fetchall()
        seats = con.execute(f"SELECT {', '.join(_SEAT_COLS)} FROM seats WHERE {rng} ORDER BY hand_id, seat", [lo, hi]).fetchall()
        events = con.execute(f"SELECT {', '.join(_EVENT_COLS)} FROM events WHERE {rng} ORDER BY hand_id, seq", [lo, hi]).fetchall()
        wanted = set(chunk)
        by_seats: dict[str, list[dict]] = {}
        for r in seats:
            by_seats.setdefault(r[0], []).append(dict(zip(_SEAT_COLS, r)))
        by_events: dict[str, list[dict]] = {}
        for r in events:
            by_events.setdefault(r[0], []).append(dict(zip(_EVENT_COLS, r)))
        yield [
            (dict(zip(_HAND_COLS, h)), by_seats.get(h[0], []), by_events.get(h[0], []))
            for h in hands
            if h[0] in wanted
        ]


def _replay_batch(args: tuple[list, str, int]) -> tuple[int, HandFacts]:
    """Replay one batch of hands (runs in a worker process when jobs > 1)."""
    batch, edition_name, raise_cap = args
    rules = edition(edition_name)
    acc = HandFacts()
    for hand, seats, events in batch:
        f = replay_hand(hand, seats, events, rules, raise_cap=raise_cap)
        acc.decisions += f.decisions
        acc.pots += f.pots
        acc.pot_shares += f.pot_shares
        acc.hand_results += f.hand_results
        acc.notes += f.notes
    return len(batch), acc


def replay_state(con: duckdb.DuckDBPyConnection, edition_name: str) -> str | None:
    """'complete' when the edition's facts cover the store, 'in-progress' while (or if
    interrupted while) they are rebuilt, None when never replayed."""
    row = con.execute("SELECT value FROM meta WHERE key = ?", [f"replay:{edition_name}"]).fetchone()
    return row[0] if row else None


def _set_state(con: duckdb.DuckDBPyConnection, edition_name: str, state: str) -> None:
    con.execute("INSERT OR REPLACE INTO meta VALUES (?, ?)", [f"replay:{edition_name}", state])


def _bounded_map(pool: ProcessPoolExecutor, fn, items, window: int):
    """Like pool.map, in order, but with at most ``window`` batches in flight, so
    memory stays bounded however many hands the store holds."""
    pending = deque()
    for item in items:
        pending.append(pool.submit(fn, item))
        if len(pending) >= window:
            yield pending.popleft().result()
    while pending:
        yield pending.popleft().result()


def replay_store(con: duckdb.DuckDBPyConnection, edition_name: str = DEFAULT_EDITION, *,
                 raise_cap: int = DEFAULT_RAISE_CAP, progress: Callable[[int], None] | None = None,
                 jobs: int | None = None) -> ReplaySummary:
    """Replace the replay facts of ``edition_name`` for every stored hand.

    Each batch of hands is committed on its own, so memory stays bounded; the
    edition's state in ``meta`` is 'in-progress' until the last batch is in, and
    the checks refuse facts that are not 'complete' (an interrupted replay is
    simply run again).  Hands are replayed in ``jobs`` worker processes (default:
    all cores; the store is read and written by this process only)."""
    edition(edition_name)  # fail early on an unknown edition
    t0 = time.perf_counter()
    summary = ReplaySummary(edition_name)
    con.execute("BEGIN TRANSACTION")
    _set_state(con, edition_name, "in-progress")
    for t in schema.REPLAY_TABLES:
        con.execute(f"DELETE FROM {t.name} WHERE edition = ?", [edition_name])
    con.execute("COMMIT")
    (n_hands,) = con.execute("SELECT count(*) FROM hands").fetchone()
    # worker processes only pay off with several batches; a forkserver keeps them clear
    # of this process's DuckDB threads
    jobs = max(1, min(jobs or os.cpu_count() or 1, -(-n_hands // BATCH_HANDS)))
    pool = ProcessPoolExecutor(jobs, mp_context=multiprocessing.get_context("forkserver")) if jobs > 1 else None
    try:
        batches = iter_hand_batches(con)
        work = ((b, edition_name, raise_cap) for b in batches)
        results = _bounded_map(pool, _replay_batch, work, 2 * jobs) if pool else map(_replay_batch, work)
        for n, acc in results:
            con.execute("BEGIN TRANSACTION")
            write_facts(con, acc)
            con.execute("COMMIT")
            summary.hands += n
            summary.decisions += len(acc.decisions)
            summary.pots += len(acc.pots)
            summary.notes += len(acc.notes)
            if progress:
                progress(n)
        _set_state(con, edition_name, "complete")
    finally:
        if pool:
            pool.shutdown()
    summary.seconds = time.perf_counter() - t0
    return summary


def write_facts(con: duckdb.DuckDBPyConnection, facts: HandFacts) -> None:
    for table, rows in (
        (schema.DECISIONS, facts.decisions),
        (schema.POTS, facts.pots),
        (schema.POT_SHARES, facts.pot_shares),
        (schema.HAND_RESULTS, facts.hand_results),
        (schema.REPLAY_NOTES, facts.notes),
    ):
        if rows:
            cols = dict(zip(table.column_names, map(list, zip(*rows))))
            insert_arrow(con, table, rows_to_arrow(table, cols))
