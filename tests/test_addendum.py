"""Golden tests: the TDA Illustration Addendum examples, replayed under the editions
whose Addendum has them (2019 and 2024).

Each ``tests/fixtures/addendum/*.phh`` hand encodes one numbered example
(Rules 43, 45, 47, 20, 51, 52; see ``tests/fixtures/addendum/INDEX.md``) and
carries its expected facts, under every edition in its ``_editions`` (the 2024
Addendum has the 2019 examples of Rules 43, 45, 47, 51 and 52-B; Rule 20's
examples went with 20-D, deleted in 2022):

* ``_expect = [{action = I, to_call = ..., min_raise_to = ..., may_raise = ...,
  action_class = ...}]``: I is the 0-based index into the file's ``actions``;
  the decisions row of that action must hold exactly these values;
  ``sa_after_action = J``: action J completed substantial action after action I
  (Rule 36; the 52-B window: ``decisions.sa_after_seq``).
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
from auditor.facts import replay_store

EDITIONS = ("tda-2019", "tda-2024")
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
        for edition in spec["_editions"]:
            for exp in spec.get("_expect", []):
                i = exp["action"]
                marks = []
                if (f.stem, i) in KNOWN_BUGS:
                    marks.append(pytest.mark.xfail(strict=True, reason=KNOWN_BUGS[f.stem, i]))
                label = f"{edition}-{f.stem}-a{i}-{spec['actions'][i].replace(' ', '_')}"
                out.append(pytest.param(edition, f.stem, exp, id=label, marks=marks))
    return out


def _won_params() -> list:
    return [
        pytest.param(edition, f.stem, w["seat"], w["amount"], id=f"{edition}-{f.stem}-seat{w['seat']}")
        for f in FILES
        for edition in _spec(f)["_editions"]
        for w in _spec(f).get("_expect_won", [])
    ]


@pytest.fixture(scope="module")
def store():
    """All addendum hands ingested into one in-memory store and replayed once per edition."""
    con = connect(":memory:")
    s = ingest([str(f) for f in FILES], con=con)
    assert s.stored == len(FILES), con.execute("SELECT * FROM ingest_errors").fetchall()
    for edition in EDITIONS:
        replay_store(con, edition)
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
    assert len(FILES) == 21
    for f in FILES:
        spec = _spec(f)
        assert spec.get("_expect") or spec.get("_expect_won"), f.name
        assert spec["_editions"] and set(spec["_editions"]) <= set(EDITIONS), f.name
        # the Addendum the example is quoted from has it under that edition
        assert any(f"TDA {ed[4:]} Addendum" in spec["_source"] for ed in spec["_editions"]), f.name
        for exp in spec.get("_expect", []):
            assert set(exp) - {"action", "sa_after_action"} <= set(FIELDS), (f.name, exp)
            assert 0 <= exp["action"] < len(spec["actions"]), (f.name, exp)


def test_2024_addendum_examples_are_covered():
    """Every 2024 Addendum example of Rules 43, 45, 47, 51 and 52-B that a hand can express."""
    stems = {f.stem for f in FILES if "tda-2024" in _spec(f)["_editions"]}
    assert {"43-ex1", "43-ex2", "43-ex3", "43-ex4-A", "43-ex4-B", "45-ex1-B", "45-ex2", "45-ex4-A", "45-ex4-B",
            "47-ex1", "47-ex1-A", "47-ex1-B", "47-ex2", "47-ex3-A", "47-ex3-B", "51-ex2", "51-ex3",
            "52-ex1", "52-ex3"} == stems


def test_no_replay_notes(store):
    assert store.execute("SELECT hand_id, seq, code, message FROM replay_notes").fetchall() == []


@pytest.mark.parametrize(("edition", "stem", "exp"), _expect_params())
def test_decision(store, edition, stem, exp):
    spec = _spec(ADDENDUM / f"{stem}.phh")
    hand_id = _hand_id(store, stem)
    seq = _seq_of_action(store, hand_id, spec["actions"], exp["action"])
    fields = [k for k in FIELDS if k in exp]
    row = store.execute(
        f"SELECT {', '.join(fields)}, sa_after_seq FROM decisions WHERE hand_id = ? AND seq = ? AND edition = ?",
        [hand_id, seq, edition],
    ).fetchone()
    assert row is not None, f"no decision for action {exp['action']} ({spec['actions'][exp['action']]!r}, seq {seq})"
    assert dict(zip(fields, row)) == {k: exp[k] for k in fields}
    if "sa_after_action" in exp:
        assert row[-1] == _seq_of_action(store, hand_id, spec["actions"], exp["sa_after_action"])


@pytest.mark.parametrize(("edition", "stem", "seat", "amount"), _won_params())
def test_won(store, edition, stem, seat, amount):
    hand_id = _hand_id(store, stem)
    shares = store.execute(
        "SELECT sum(expected), count(*) FILTER (WHERE expected IS NULL) FROM pot_shares "
        "WHERE hand_id = ? AND edition = ? AND seat = ?",
        [hand_id, edition, seat],
    ).fetchone()
    won = store.execute(
        "SELECT won_expected FROM hand_results WHERE hand_id = ? AND edition = ? AND seat = ?",
        [hand_id, edition, seat],
    ).fetchone()
    assert shares[1] == 0, "a pot's winners were not determined"
    assert (shares[0], won[0]) == (amount, amount)


@pytest.mark.parametrize(("edition", "stem"), [(ed, f.stem) for f in FILES if "finishing_stacks" in _spec(f)
                                               for ed in _spec(f)["_editions"]])
def test_finishing_stacks(store, edition, stem):
    """Every file's recorded finishing_stacks (the TDA's outcome) is what the replay computes."""
    hand_id = _hand_id(store, stem)
    rows = store.execute(
        "SELECT seat, end_stack_expected, end_stack_recorded FROM hand_results "
        "WHERE hand_id = ? AND edition = ? ORDER BY seat",
        [hand_id, edition],
    ).fetchall()
    assert rows and all(exp == rec for _, exp, rec in rows), rows
