"""Golden tests: the TDA 2019 Illustration Addendum examples, replayed under tda-2019.

Each ``tests/fixtures/addendum/*.phh`` hand encodes one numbered example
(Rules 43, 47, 20, 51, 52; see ``tests/fixtures/addendum/INDEX.md``) and
carries its expected facts:

* ``_expect = [{action = I, to_call = ..., min_raise_to = ..., may_raise = ...,
  action_class = ...}]``: I is the 0-based index into the file's ``actions``;
  the decisions row of that action must hold exactly these values.
* ``_expect_won = [{seat, amount}]`` (Rule 20): the chips each seat wins,
  compared with the per-seat sum of ``pot_shares.expected`` and with
  ``hand_results.won_expected``.

An action is found in the event log by its text: PHH events made from actions
carry the action string verbatim in ``events.text``, in order, so the I-th
action is the k-th event whose text equals it, where k counts the equal
strings among ``actions[:I]``.
"""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest

from auditor.ingest import ingest
from auditor.store import connect
from replay.runner import replay_store

EDITION = "tda-2019"
ADDENDUM = Path(__file__).resolve().parent / "fixtures" / "addendum"
FILES = sorted(ADDENDUM.glob("*.phh"))
FIELDS = ("to_call", "min_raise_to", "may_raise", "action_class")

# Known engine departures from the Addendum text: {(file stem, action index): reason}.
# Each is marked xfail(strict=True), so the test flips to a failure once the engine is fixed.
KNOWN_BUGS: dict[tuple[str, int], str] = {}


def _spec(path: Path) -> dict:
    with path.open("rb") as fh:
        return tomllib.load(fh)


def _expect_params() -> list:
    out = []
    for f in FILES:
        spec = _spec(f)
        for exp in spec.get("_expect", []):
            i = exp["action"]
            marks = []
            if (f.stem, i) in KNOWN_BUGS:
                marks.append(pytest.mark.xfail(strict=True, reason=KNOWN_BUGS[f.stem, i]))
            label = f"{f.stem}-a{i}-{spec['actions'][i].replace(' ', '_')}"
            out.append(pytest.param(f.stem, exp, id=label, marks=marks))
    return out


def _won_params() -> list:
    return [
        pytest.param(f.stem, w["seat"], w["amount"], id=f"{f.stem}-seat{w['seat']}")
        for f in FILES
        for w in _spec(f).get("_expect_won", [])
    ]


@pytest.fixture(scope="module")
def store():
    """All addendum hands ingested into one in-memory store and replayed once."""
    con = connect(":memory:")
    s = ingest([str(f) for f in FILES], con=con)
    assert s.stored == len(FILES), con.execute("SELECT * FROM ingest_errors").fetchall()
    replay_store(con, EDITION)
    yield con
    con.close()


def _hand_id(con, stem: str) -> str:
    row = con.execute(
        "SELECT h.hand_id FROM hands h JOIN sources s USING (source_id) WHERE s.path = ?",
        [str(ADDENDUM / f"{stem}.phh")],
    ).fetchone()
    assert row, f"{stem}.phh not stored"
    return row[0]


def _seq_of_action(con, hand_id: str, actions: list[str], i: int) -> int:
    text = actions[i]
    k = actions[:i].count(text)
    seqs = [r[0] for r in con.execute("SELECT seq FROM events WHERE hand_id = ? AND text = ? ORDER BY seq",
                                      [hand_id, text]).fetchall()]
    assert len(seqs) == actions.count(text), f"events with text {text!r}: {seqs}"
    return seqs[k]


def test_every_fixture_has_expectations():
    assert len(FILES) == 17
    for f in FILES:
        spec = _spec(f)
        assert spec.get("_expect") or spec.get("_expect_won"), f.name
        for exp in spec.get("_expect", []):
            assert set(exp) - {"action"} <= set(FIELDS), (f.name, exp)
            assert 0 <= exp["action"] < len(spec["actions"]), (f.name, exp)


def test_no_replay_notes(store):
    assert store.execute("SELECT hand_id, seq, code, message FROM replay_notes").fetchall() == []


@pytest.mark.parametrize(("stem", "exp"), _expect_params())
def test_decision(store, stem, exp):
    spec = _spec(ADDENDUM / f"{stem}.phh")
    hand_id = _hand_id(store, stem)
    seq = _seq_of_action(store, hand_id, spec["actions"], exp["action"])
    fields = [k for k in FIELDS if k in exp]
    row = store.execute(
        f"SELECT {', '.join(fields)} FROM decisions WHERE hand_id = ? AND seq = ? AND edition = ?",
        [hand_id, seq, EDITION],
    ).fetchone()
    assert row is not None, f"no decision for action {exp['action']} ({spec['actions'][exp['action']]!r}, seq {seq})"
    assert dict(zip(fields, row)) == {k: exp[k] for k in fields}


@pytest.mark.parametrize(("stem", "seat", "amount"), _won_params())
def test_won(store, stem, seat, amount):
    hand_id = _hand_id(store, stem)
    shares = store.execute(
        "SELECT sum(expected), count(*) FILTER (WHERE expected IS NULL) FROM pot_shares "
        "WHERE hand_id = ? AND edition = ? AND seat = ?",
        [hand_id, EDITION, seat],
    ).fetchone()
    won = store.execute(
        "SELECT won_expected FROM hand_results WHERE hand_id = ? AND edition = ? AND seat = ?",
        [hand_id, EDITION, seat],
    ).fetchone()
    assert shares[1] == 0, "a pot's winners were not determined"
    assert (shares[0], won[0]) == (amount, amount)


@pytest.mark.parametrize("stem", [f.stem for f in FILES if "finishing_stacks" in _spec(f)])
def test_finishing_stacks(store, stem):
    """Every file's recorded finishing_stacks (the TDA's outcome) is what the replay computes."""
    hand_id = _hand_id(store, stem)
    rows = store.execute(
        "SELECT seat, end_stack_expected, end_stack_recorded FROM hand_results "
        "WHERE hand_id = ? AND edition = ? ORDER BY seat",
        [hand_id, EDITION],
    ).fetchall()
    assert rows and all(exp == rec for _, exp, rec in rows), rows
