"""Rebuild the replay facts for everything in the store, reading the event log
(never re-parsing sources).  Idempotent: an edition's facts are replaced whole,
in one transaction, so running it twice gives identical tables."""

from __future__ import annotations

import dataclasses
import itertools
import time
from dataclasses import dataclass
from typing import Callable, Iterator

import duckdb
import pyarrow as pa

from auditor import schema, segments
from auditor.parallel import default_jobs, worker_map
from auditor.store import segments_root, transaction, tuples_to_arrow
from parsers.base import Event, ParsedHand, Seat
from replay.editions import DEFAULT_EDITION, edition
from replay.engine import DEFAULT_RAISE_CAP, replay_hand

BATCH_HANDS = 1000  # per committed batch: bounds memory, costs no speed
HAND_COLS = list(schema.HANDS.column_names)


def _fields_to(cls, last: str) -> list[str]:
    """``cls``'s field names up to ``last``: the columns read back, in the order the
    dataclass takes them positionally."""
    names = [f.name for f in dataclasses.fields(cls)]
    return names[: names.index(last) + 1]


# hand_id, then the leading fields of parsers.base Seat and Event (the engine reads
# those); the hands columns in the order of ParsedHand's fields (every column but
# source_id is one)
SEAT_COLS = ["hand_id", *_fields_to(Seat, "position")]
EVENT_COLS = ["hand_id", *_fields_to(Event, "half")]
EVENT_RUN_COLS = [*EVENT_COLS, "run"]  # the run is the Event's last field: set apart, after the positional ones
_HAND_COLS = [f.name for f in dataclasses.fields(ParsedHand) if f.name in schema.HANDS.column_names]
HAND_IX = "_hand_ix"  # which hand of a batch a fact row belongs to (facts of duplicates are dropped)


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


def _rows(table: pa.Table, cols: list[str]) -> Iterator[tuple]:
    return zip(*(table.column(c).to_pylist() for c in cols))


def rows_from_arrow(hands: pa.Table, seats: pa.Table, events: pa.Table) -> list[tuple[ParsedHand, list[Seat], list[Event]]]:
    """(hand, seats, events) per hand, as the engine reads them: the objects the
    parser made (``parsers.base``), rebuilt from the stored columns."""
    by_seats: dict[str, list[Seat]] = {}
    for hand_id, *row in _rows(seats, SEAT_COLS):
        by_seats.setdefault(hand_id, []).append(Seat(*row))
    by_events: dict[str, list[Event]] = {}
    for hand_id, *row, run in _rows(events, EVENT_RUN_COLS):
        e = Event(*row)
        if run != 1:
            e.run = run
        by_events.setdefault(hand_id, []).append(e)
    out = []
    for row in _rows(hands, _HAND_COLS):
        h = ParsedHand(**dict(zip(_HAND_COLS, row)))
        out.append((h, by_seats.get(h.hand_id, []), by_events.get(h.hand_id, [])))
    return out


# the engine's fact lists and the tables they fill
FACT_TABLES = (("decisions", schema.DECISIONS), ("pots", schema.POTS), ("pot_shares", schema.POT_SHARES),
               ("hand_results", schema.HAND_RESULTS), ("notes", schema.REPLAY_NOTES))


def replay_hands(rows: list[tuple[ParsedHand, list[Seat], list[Event]]], edition_name: str, raise_cap: int) -> dict[str, pa.Table]:
    """Replay hands given as rows; the facts as Arrow tables by table name, each row
    tagged with the index of its hand in ``rows``."""
    rules = edition(edition_name)
    facts: dict[str, list[tuple]] = {t.name: [] for _, t in FACT_TABLES}
    ix: dict[str, list[int]] = {t.name: [] for _, t in FACT_TABLES}
    for i, (hand, seats, events) in enumerate(rows):
        f = replay_hand(hand, seats, events, rules, raise_cap=raise_cap)
        for attr, table in FACT_TABLES:
            got = getattr(f, attr)
            facts[table.name] += got
            ix[table.name] += [i] * len(got)
    return {t.name: tuples_to_arrow(t, facts[t.name]).append_column(HAND_IX, pa.array(ix[t.name], pa.int32()))
            for _, t in FACT_TABLES}


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


def replay_state(con: duckdb.DuckDBPyConnection, edition_name: str) -> str | None:
    """'complete' when the edition's facts cover the store, 'in-progress' while (or if
    interrupted while) they are rebuilt, 'stale' when hands were stored since, None
    when never replayed."""
    row = con.execute("SELECT value FROM meta WHERE key = ?", [f"replay:{edition_name}"]).fetchone()
    return row[0] if row else None


def replay_raise_cap(con: duckdb.DuckDBPyConnection, edition_name: str) -> int | None:
    """The fixed-limit raise cap the edition's facts were built with."""
    row = con.execute("SELECT value FROM meta WHERE key = ?", [f"replay_cap:{edition_name}"]).fetchone()
    return int(row[0]) if row else None


def facts_cover(con: duckdb.DuckDBPyConnection, edition_name: str, raise_cap: int) -> bool:
    """Whether the edition's facts cover every stored hand, built with ``raise_cap``."""
    return replay_state(con, edition_name) == "complete" and replay_raise_cap(con, edition_name) == raise_cap


def set_replay_state(con: duckdb.DuckDBPyConnection, edition_name: str, state: str, raise_cap: int | None = None) -> None:
    con.execute("INSERT OR REPLACE INTO meta VALUES (?, ?)", [f"replay:{edition_name}", state])
    if raise_cap is not None:
        con.execute("INSERT OR REPLACE INTO meta VALUES (?, ?)", [f"replay_cap:{edition_name}", str(raise_cap)])


def replay_store(con: duckdb.DuckDBPyConnection, edition_name: str = DEFAULT_EDITION, *,
                 raise_cap: int = DEFAULT_RAISE_CAP, progress: Callable[[int], None] | None = None,
                 jobs: int | None = None, cluster=None) -> ReplaySummary:
    """Replace the replay facts of ``edition_name`` for every stored hand.

    Each batch of hands is committed on its own, so memory stays bounded; the
    edition's state in ``meta`` is 'in-progress' until the last batch is in, and
    the checks refuse facts that are not 'complete' (an interrupted replay is
    simply run again).  Hands are replayed in ``jobs`` worker processes (default:
    all cores; the store is read and written by this process only), or on the
    workers of ``cluster``, a ``distributed.Client`` (``auditor.distributed``)."""
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


