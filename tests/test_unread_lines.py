"""Lines not understood: reconcile, don't reject (docs/semantics.md, "Lines not understood").

A line a parser does not understand is kept as an ``unread`` event; the hand is stored
when its understood events account for its recorded totals, else rejected
``unreconciled`` naming the line; the ``unread-lines`` check reports it once a hand;
and no violation that such a line could change is reported as a violation.

The written hands here always run; the mutation test over real PokerStars hands runs
where the external corpus is present (README, "The external corpus").
"""

from __future__ import annotations

import random
import re
from pathlib import Path

import duckdb
import pytest

from auditor.pipeline import audit
from conftest import CORPUS, needs_corpus
from parsers import iter_lines
from parsers.base import HandError, ParsedHand, chip_ledger, unreconciled
from parsers.pokerstars import PokerStarsParser

FIXTURE = Path(__file__).resolve().parent / "fixtures" / "checks" / "unread-lines" / "passing.txt"
CLEAN = FIXTURE.read_text(encoding="utf-8")
# the same hand with an underraise on the flop: checkmate_jo's raise to 450 over a bet of 300
# (the minimum is 600), called; the pot and the summary re-add
UNDERRAISE = (CLEAN.replace("checkmate_jo: calls 300", "checkmate_jo: raises 150 to 450\nRafferty: calls 150")
              .replace("collected 1150", "collected 1450").replace("Total pot 1150", "Total pot 1450")
              .replace("won (1150)", "won (1450)"))


def _audit(tmp_path: Path, name: str, text: str):
    path = tmp_path / f"{name}.txt"
    path.write_text(text, encoding="utf-8")
    result = audit([path], db=tmp_path / f"{name}.duckdb", edition_name="tda-2024")
    return result, duckdb.connect(str(tmp_path / f"{name}.duckdb"), read_only=True)


def _parse(text: str) -> list[ParsedHand | HandError]:
    lines = ((i + 1, 0, t) for i, t in enumerate(text.splitlines()))
    return list(PokerStarsParser().iter_hands(lines, "x.txt"))


def _insert_after(text: str, after: str, line: str) -> str:
    assert after in text
    return text.replace(after, after + "\n" + line, 1)


def test_a_line_not_understood_is_an_unread_event_on_its_street():
    (hand,) = _parse(_insert_after(CLEAN, "Rafferty: bets 300", "checkmate_jo: drums on the table"))
    assert isinstance(hand, ParsedHand)
    (e,) = [e for e in hand.events if e.kind == "unread"]
    assert (e.street, e.seat, e.player, e.amount) == ("flop", 2, "checkmate_jo", None)
    assert e.text == "checkmate_jo: drums on the table" and e.line_no == 15
    assert unreconciled(hand) is None  # the line moved no chip the record counts


def test_the_ledger_re_adds_the_record():
    (hand,) = _parse(CLEAN)
    assert chip_ledger(hand) == (1150, 1150, 1150, 0, 0)  # put in, collected, total pot, rake, a return implied


def test_a_stored_hand_with_an_unread_line_has_one_record_finding_and_no_violation(tmp_path):
    text = _insert_after(CLEAN, "Rafferty: bets 300", "checkmate_jo: drums on the table")
    text = _insert_after(text, "checkmate_jo: checks", "Vesna K: says hello")  # a folded player too
    result, con = _audit(tmp_path, "unread", text)
    assert (result.ingest.stored, result.ingest.rejected) == (1, 0)
    rows = con.execute("SELECT check_id, category, line_no, message FROM findings").fetchall()
    assert [(c, cat, line) for c, cat, line, _ in rows] == [("unread-lines", "record", 14)]
    assert "lines 14, 16 were not understood" in rows[0][3], rows[0][3]


def test_explain_shows_the_lines_not_understood(tmp_path):
    from click.testing import CliRunner

    from auditor.cli import main

    text = _insert_after(CLEAN, "Rafferty: bets 300", "checkmate_jo: drums on the table")
    result, con = _audit(tmp_path, "explain", text)
    con.close()
    for fmt, head in (("text", "Lines not understood"), ("md", "## Lines not understood")):
        out = CliRunner().invoke(main, ["explain", "770000009502", "--db", str(tmp_path / "explain.duckdb"), "--format", fmt])
        assert out.exit_code == 0, out.output
        assert head in out.output
        assert "line 15 (flop, seat 2 (checkmate_jo)): 'checkmate_jo: drums on the table'" in out.output, out.output


def test_a_violation_an_unread_line_could_change_is_a_record_finding(tmp_path):
    # the underraise alone is a violation
    result, con = _audit(tmp_path, "underraise", UNDERRAISE)
    assert con.execute("SELECT check_id, category FROM findings").fetchall() == [("illegal-underraise", "violation")]
    con.close()
    # a line naming a seated player before it on its street: a record finding, naming the line
    text = _insert_after(UNDERRAISE, "Rafferty: bets 300", "checkmate_jo: asks for a count")
    result, con = _audit(tmp_path, "underraise-unread", text)
    rows = dict(con.execute("SELECT check_id, category FROM findings").fetchall())
    assert rows == {"illegal-underraise": "record", "unread-lines": "record"}
    (basis,) = con.execute("SELECT category_basis FROM findings WHERE check_id = 'illegal-underraise'").fetchone()
    assert basis.startswith("line 15 was not understood ('checkmate_jo: asks for a count')"), basis
    con.close()
    # after it on a later street, or naming no seated player: the violation stands
    for name, after, line in (("later", "Rafferty: checks\n*** RIVER", "checkmate_jo: asks for a count"),
                              ("nobody", "Rafferty: bets 300", "The table is paused")):
        text = UNDERRAISE.replace(after, after.replace("\n", "\n" + line + "\n", 1) if "\n" in after else after + "\n" + line, 1)
        assert line in text
        result, con = _audit(tmp_path, f"underraise-{name}", text)
        rows = dict(con.execute("SELECT check_id, category FROM findings").fetchall())
        assert rows == {"illegal-underraise": "violation", "unread-lines": "record"}, (name, rows)
        con.close()


def test_a_line_that_moved_chips_makes_the_hand_unreconciled(tmp_path):
    # a garbled call: the chips it put in are counted by the total pot but by no event read
    text = CLEAN.replace("checkmate_jo: calls 300", "checkmate_jo: callz 300")
    good = CLEAN.replace("770000009502", "770000009503")
    result, con = _audit(tmp_path, "garbled", text + "\n\n\n" + good)
    ing = result.ingest
    assert (ing.hands_seen, ing.stored, ing.rejected) == (2, 1, 1)  # the good hand still goes in
    (code, line, reason), = con.execute("SELECT reason_code, line_no, reason FROM ingest_errors").fetchall()
    assert (code, line) == ("unreconciled", 15)
    assert "line 15 not understood ('checkmate_jo: callz 300')" in reason
    assert "the record's total pot is 1150" in reason, reason


# --- the policy over real hands: mutations of PokerStars tournament hands ------------------

STARS = CORPUS / "fpdb" / "tour" / "Stars" / "Flop"
HEADER = re.compile(r"^PokerStars (?:Game|Hand) #(\d+)")
ACTION = re.compile(r"^(?P<who>.+?): (?:folds|checks|calls \d+|bets \d+|raises \d+ to \d+)(?: and is all-in)?$")
CHIP_ACTION = re.compile(r"^(?P<who>.+?): (?P<verb>calls|bets|raises) (?P<rest>\d+(?: to \d+)?)(?P<ai> and is all-in)?$")
SAMPLE = 120  # hands a class


def _hands(paths: list[Path]) -> list[list[str]]:
    """The hands of the files, as lines (a hand starts at its 'PokerStars Hand #' line)."""
    hands: list[list[str]] = []
    for p in paths:
        cur: list[str] | None = None
        for _, _, line in iter_lines(p, "utf-8-sig"):
            if HEADER.match(line):
                cur = [line]
                hands.append(cur)
            elif cur is not None:
                cur.append(line)
    return [h for h in hands if "Hold'em No Limit" in h[0] and "Tournament #" in h[0] and any(ACTION.match(x) for x in h)]


def _findings(db: Path) -> dict[str, set[tuple[str, str]]]:
    con = duckdb.connect(str(db), read_only=True)
    try:
        out: dict[str, set[tuple[str, str]]] = {}
        for hand, check, category in con.execute("SELECT hand_id, check_id, category FROM findings").fetchall():
            out.setdefault(hand, set()).add((check, category))
        return out
    finally:
        con.close()


def _run(tmp_path: Path, name: str, hands: list[list[str]]):
    path = tmp_path / f"{name}.txt"
    path.write_text("\n\n\n".join("\n".join(h) for h in hands) + "\n", encoding="utf-8")
    result = audit([path], db=tmp_path / f"{name}.duckdb", edition_name="tda-2024")
    return result, _findings(tmp_path / f"{name}.duckdb")


@pytest.fixture(scope="module")
def stars_sample(tmp_path_factory):
    if not STARS.is_dir():
        pytest.skip("needs the external corpus (README, 'The external corpus')")
    hands = _hands(sorted(STARS.glob("*.txt")))
    rng = random.Random(33)
    sample = rng.sample(hands, min(len(hands), 3 * SAMPLE))
    tmp = tmp_path_factory.mktemp("unread-originals")
    result, findings = _run(tmp, "originals", sample)
    con = duckdb.connect(str(tmp / "originals.duckdb"), read_only=True)
    stored = {hid for (hid,) in con.execute("SELECT hand_number FROM hands").fetchall()}
    con.close()
    kept = [h for h in sample if HEADER.match(h[0]).group(1) in stored]
    return kept, findings


def _hand_id(hand: list[str]) -> str:
    return "PS-" + HEADER.match(hand[0]).group(1)


def _violations(found: set[tuple[str, str]]) -> set[str]:
    return {c for c, cat in found if cat == "violation"}


@needs_corpus
def test_an_invented_line_that_moves_no_chips_leaves_the_hand_stored_with_one_record_finding(stars_sample, tmp_path):
    sample, before = stars_sample
    rng = random.Random(1)
    mutants = []
    for hand in sample[:SAMPLE]:
        k = rng.choice([i for i, x in enumerate(hand) if ACTION.match(x)])
        who = ACTION.match(hand[k]).group("who")
        mutants.append(hand[: k + 1] + [f"{who}: taps the table"] + hand[k + 1 :])
    result, after = _run(tmp_path, "invented", mutants)
    assert result.ingest.rejected == 0, result.ingest.errors[:3]
    assert result.ingest.stored == len(mutants) >= 100
    for hand in mutants:
        hid = _hand_id(hand)
        got = after.get(hid, set())
        assert ("unread-lines", "record") in got, hid
        assert sum(1 for c, _ in got if c == "unread-lines") == 1
        assert _violations(got) <= _violations(before.get(hid, set())), (hid, got, before.get(hid))


@needs_corpus
def test_a_garbled_line_that_moves_chips_is_unreconciled_or_caught(stars_sample, tmp_path):
    sample, before = stars_sample
    mutants = []
    for hand in sample:
        ks = [i for i, x in enumerate(hand) if CHIP_ACTION.match(x)]
        if ks:
            k = ks[len(ks) // 2]
            mutants.append(hand[:k] + [hand[k].replace(": ", ": quietly ", 1)] + hand[k + 1 :])
    mutants = mutants[:SAMPLE]
    result, after = _run(tmp_path, "garbled", mutants)
    rejected = {e["hand"] for e in result.ingest.errors}
    assert {e["reason_code"] for e in result.ingest.errors} <= {"unreconciled"}
    assert len(rejected) >= 0.9 * len(mutants), f"only {len(rejected)} of {len(mutants)} unreconciled"
    for hand in mutants:
        hid = _hand_id(hand)
        if hid in rejected:
            continue
        got = after.get(hid, set())
        assert got - before.get(hid, set()), f"{hid}: a garbled chip line neither unreconciled nor caught"
        assert _violations(got) <= _violations(before.get(hid, set())), (hid, got)


@needs_corpus
def test_a_deleted_line_that_moves_chips_is_caught(stars_sample, tmp_path):
    sample, before = stars_sample
    mutants = []
    for hand in sample:
        ks = [i for i, x in enumerate(hand) if CHIP_ACTION.match(x) and not CHIP_ACTION.match(x).group("ai")]
        if ks:
            k = ks[len(ks) // 2]
            mutants.append(hand[:k] + hand[k + 1 :])
    mutants = mutants[:SAMPLE]
    result, after = _run(tmp_path, "deleted", mutants)
    rejected = {e["hand"] for e in result.ingest.errors}
    caught = new_violations = 0
    for hand in mutants:
        hid = _hand_id(hand)
        if hid in rejected:
            caught += 1
            continue
        got = after.get(hid, set())
        caught += bool(got - before.get(hid, set()))
        if not _violations(got) <= _violations(before.get(hid, set())):
            new_violations += 1
    assert caught == len(mutants), f"{len(mutants) - caught} of {len(mutants)} deletions went unnoticed"
    # A deleted line whose chips a later line's total covers (an intermediate raise: the next
    # raise writes the total it went to) leaves a record whose chips add up and that reads as
    # a player acting twice: such a hand can show an out-of-turn violation the whole hand
    # lacks. Measured: 5 of 120 (the 2026-12-07 session note); bounded here, not hidden.
    assert new_violations <= 0.05 * len(mutants), f"{new_violations} of {len(mutants)} deletions made a new violation"
