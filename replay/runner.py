"""Replay hands: the engine's input rebuilt from the event log's columns
(``rows_from_arrow``) and its facts as Arrow tables (``replay_hands``).  Events in,
facts out: writing them to the store, and running batches in workers, is
``auditor.facts`` (and, for hands replayed as they are stored, ``auditor.units``)."""

from __future__ import annotations

import dataclasses
from typing import Iterator

import pyarrow as pa

from auditor import schema
from auditor.segments import HAND_IX  # which hand of a batch a fact row belongs to (facts of duplicates are dropped)
from auditor.store import tuples_to_arrow
from parsers.base import Event, ParsedHand, Seat
from replay.editions import edition
from replay.engine import replay_hand


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
