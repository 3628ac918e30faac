"""Rebuild the replay facts for everything in the store, reading the event log
(never re-parsing sources).  Idempotent: an edition's facts are replaced whole,
in one transaction, so running it twice gives identical tables.  The batches are
replayed in worker processes or on Dask (``auditor.execution``); the replay itself
is ``replay.runner``'s."""

from __future__ import annotations

import itertools
import time
from dataclasses import dataclass
from typing import Callable, Iterator

import duckdb
import pyarrow as pa

from auditor import schema, segments
from auditor.execution import default_jobs, worker_map
from auditor.store import segments_root, set_replay_state, transaction
from replay.editions import DEFAULT_EDITION, edition
from replay.engine import DEFAULT_RAISE_CAP
from replay.runner import EVENT_RUN_COLS, SEAT_COLS, replay_hands, rows_from_arrow

BATCH_HANDS = 1000  # per committed batch: bounds memory, costs no speed
HAND_COLS = list(schema.HANDS.column_names)


@dataclass
class ReplaySummary:
    edition: str
    hands: int = 0
    decisions: int = 0
    pots: int = 0
    notes: int = 0
    seconds: float = 0.0


def read_batches(con: duckdb.DuckDBPyConnection, batch: int = BATCH_HANDS) -> Iterator[tuple[pa.Table, pa.Table, pa.Table]]:
    """The stored hands, seats and events as Arrow tables, ``batch`` hands at a time,
    in hand_id order."""
    ids = [r[0] for r in con.execute("SELECT hand_id FROM hands ORDER BY hand_id").fetchall()]
    for i in range(0, len(ids), batch):
        lo, hi = ids[i], ids[min(i + batch, len(ids)) - 1]
        rng = "WHERE hand_id BETWEEN ? AND ?"
        yield (
            con.sql(f"SELECT {', '.join(HAND_COLS)} FROM hands {rng} ORDER BY hand_id", params=[lo, hi]).to_arrow_table(),
            con.sql(f"SELECT {', '.join(SEAT_COLS)} FROM seats {rng} ORDER BY hand_id, seat", params=[lo, hi]).to_arrow_table(),
            con.sql(f"SELECT {', '.join(EVENT_RUN_COLS)} FROM events {rng} ORDER BY hand_id, seq", params=[lo, hi]).to_arrow_table(),
        )


def _replay_batch(job: tuple[str, tuple[pa.Table, pa.Table, pa.Table]], edition_name: str, raise_cap: int,
                  root: str) -> tuple[str, int, dict[str, int]]:
    """Replay one batch of stored hands and write its facts as pending segments named
    ``job[0]`` (runs in a worker process when jobs > 1); the hands and the rows of
    each table written."""
    name, tables = job
    facts = replay_hands(rows_from_arrow(*tables), edition_name, raise_cap)
    return name, tables[0].num_rows, write_fact_segments(root, name, facts)


def write_fact_segments(root: str, name: str, facts: dict[str, pa.Table]) -> dict[str, int]:
    """The facts of ``replay_hands`` as pending segments; rows by table (tables
    without rows get no segment)."""
    return {t.name: segments.write_pending(root, t, name, facts[t.name])
            for t in schema.REPLAY_TABLES if facts[t.name].num_rows}


def replay_store(con: duckdb.DuckDBPyConnection, edition_name: str = DEFAULT_EDITION, *,
                 raise_cap: int = DEFAULT_RAISE_CAP, progress: Callable[[int], None] | None = None,
                 jobs: int | None = None, cluster=None) -> ReplaySummary:
    """Replace the replay facts of ``edition_name`` for every stored hand.

    Each batch of hands is committed on its own, so memory stays bounded; the
    edition's state in ``meta`` is 'in-progress' until the last batch is in, and
    the checks refuse facts that are not 'complete' (an interrupted replay is
    simply run again).  Hands are replayed in ``jobs`` worker processes (default:
    all cores; the store is read and written by this process only), or on the
    workers of ``cluster``, a ``distributed.Client`` (``auditor.execution``)."""
    edition(edition_name)  # fail early on an unknown edition
    t0 = time.perf_counter()
    summary = ReplaySummary(edition_name)
    root = segments_root(con)
    with transaction(con):
        set_replay_state(con, edition_name, "in-progress")
        # the edition's segments are retired (their files deleted once this commits)
        retired = con.execute("DELETE FROM segments WHERE edition = ? RETURNING table_name, file", [edition_name]).fetchall()
        # the findings judged the facts replaced here: gone until 'check' runs again
        con.execute("DELETE FROM findings WHERE edition = ?", [edition_name])
        con.execute("DELETE FROM meta WHERE key = ?", [f"checks:{edition_name}"])
    segments.remove_live(root, retired)
    (n_hands,) = con.execute("SELECT count(*) FROM hands").fetchone()
    # worker processes only pay off with several batches
    jobs = max(1, min(jobs or default_jobs(), -(-n_hands // BATCH_HANDS)))
    token = segments.new_token()
    names = (f"r{i:09d}-{token}" for i in itertools.count(1))
    with worker_map(_replay_batch, jobs, edition_name, raise_cap, root, cluster=cluster) as run:
        # a segment per batch of 1,000 hands and table: the workers merge them as they go
        merger = segments.Merger(con, root, run.submit)
        try:
            for name, n, rows in run(zip(names, read_batches(con))):
                staged = [segments.Staged(t, name, k, edition_name) for t, k in rows.items()]
                try:
                    with transaction(con):
                        segments.register(con, staged)
                except BaseException:
                    for st in staged:
                        segments.discard(root, st.table, st.name)
                    raise
                segments.publish(root, staged)
                merger.add(staged)
                merger.collect()
                summary.hands += n
                summary.decisions += rows.get("decisions", 0)
                summary.pots += rows.get("pots", 0)
                summary.notes += rows.get("replay_notes", 0)
                if progress:
                    progress(n)
            merger.collect(wait=True)
        except BaseException:
            merger.abandon()
            raise
    with transaction(con):
        set_replay_state(con, edition_name, "complete", raise_cap)
    summary.seconds = time.perf_counter() - t0
    return summary


def replay_totals(con: duckdb.DuckDBPyConnection, edition_name: str, seconds: float = 0.0) -> ReplaySummary:
    """What the edition's facts hold for the whole store."""
    (hands,) = con.execute("SELECT count(*) FROM hands").fetchone()
    counts = [con.execute(f"SELECT count(*) FROM {t} WHERE edition = ?", [edition_name]).fetchone()[0]
              for t in ("decisions", "pots", "replay_notes")]
    return ReplaySummary(edition_name, hands, *counts, seconds=seconds)
