"""The fixture histories audited many files to a store (issue 36): an audit's fixed cost (a
store, the checks planned) is paid once per edition and batch of files, not once per file
and edition. tests/test_checks.py, test_blinds.py, test_table_checks.py and
test_categories.py read a file's share of its batch's audit (``audit_file``).

Files in one store meet only where they hold the same hand (stored once) or the same
sequence the cross-hand checks read: a tournament (blind-level compares its tables' levels,
stack-continuity follows players moved between its tables), a table (the table checks,
uncalled-bet's next stack at the table). ``batches`` puts no two files sharing one in the
same batch, and ``audit_file`` checks in the store that none met, so that each file's
share is what an audit of it alone gives."""

from __future__ import annotations

import atexit
import functools
import shutil
import tempfile
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

import duckdb

from auditor.ingest import FileResult
from auditor.pipeline import audit

FIXTURES = Path(__file__).resolve().parent / "fixtures"
HISTORY_EXTS = ("txt", "phh")


def fixture_files() -> tuple[Path, ...]:
    """Every fixture history in a batch: the check pairs, the edition files, the blind pairs
    and the table-check gap sequence."""
    return tuple(sorted(p for ext in HISTORY_EXTS for p in [
        *FIXTURES.glob(f"checks/*/*.{ext}"), *FIXTURES.glob(f"editions/*.{ext}"),
        *FIXTURES.glob(f"blinds/*/*.{ext}"), *FIXTURES.glob(f"table_checks/*.{ext}")]))


def meeting_keys(path: Path) -> set[tuple]:
    """What another file's hands would share with this file's in a store: a hand id, a
    tournament (a tournament hand without an id: all such hands, as the checks group
    them), a table of a tournament or outside one."""
    from parsers import detect_parser, iter_lines, open_source

    info = open_source(path)
    keys: set[tuple] = set()
    for h in detect_parser(info.head, str(path)).iter_hands(iter_lines(path, info.encoding), str(path)):
        keys.add(("hand", h.hand_id))
        if h.is_tournament or h.tournament_id is not None:
            keys.add(("tournament", h.tournament_id))
        if h.table_name is not None:
            keys.add(("table", h.tournament_id, h.table_name))
    return keys


@functools.cache
def batches() -> tuple[tuple[Path, ...], ...]:
    """The fixture files in as few batches as keep apart every two that share a key
    (first fit, in path order: the same batches in every process)."""
    out: list[tuple[list[Path], set[tuple]]] = []
    for path in fixture_files():
        keys = meeting_keys(path)
        for files, taken in out:
            if not keys & taken:
                files.append(path)
                taken |= keys
                break
        else:
            out.append(([path], keys))
    return tuple(tuple(files) for files, _ in out)


@dataclass(frozen=True)
class FileAudit:
    """A file's share of its batch's audit under one edition: its ingest line, errors and
    findings, and its hands in the batch's store (which holds the other files' too: read
    it for these hands, never write to it)."""

    path: Path
    edition: str
    db: str
    ingest: FileResult
    errors: tuple[dict, ...]
    findings: list[dict]
    hand_ids: frozenset[str]
    tournament_ids: frozenset[str]
    batch_findings_by_check: dict[str, int]  # the pipeline's counts, every file of the batch

    @property
    def findings_by_check(self) -> Counter:
        return Counter(f["check_id"] for f in self.findings)

    @property
    def findings_by_category(self) -> Counter:
        return Counter(f["category"] for f in self.findings)

    def connect(self) -> duckdb.DuckDBPyConnection:
        return duckdb.connect(self.db, read_only=True)


def audit_file(path: Path | str, edition: str) -> FileAudit:
    """``path`` (a file of ``fixture_files``) as audited under ``edition`` with its batch,
    house rules ``auto`` (``audit``'s defaults)."""
    path = Path(path).resolve()
    [batch] = [b for b in batches() if path in b]
    return _audit_batch(edition, batch)[path]


@functools.cache
def _root() -> Path:
    root = Path(tempfile.mkdtemp(prefix="tda-fixture-audits-"))
    atexit.register(shutil.rmtree, root, True)
    return root


@functools.cache
def _audit_batch(edition: str, batch: tuple[Path, ...]) -> dict[Path, FileAudit]:
    db = str(_root() / f"{edition}-{batches().index(batch)}.duckdb")
    result = audit(batch, db=db, edition_name=edition)
    ing = result.ingest
    by_path = {Path(r.path).resolve(): r for r in ing.file_results}
    assert sorted(by_path) == sorted(batch) and ing.duplicates == 0, (ing.duplicates, ing.files_not_read())
    con = duckdb.connect(db, read_only=True)
    try:
        hands = con.execute("SELECT h.hand_id, s.path, h.tournament_id FROM hands h JOIN sources s USING (source_id)").fetchall()
        # no two files' hands in one tournament, nor at one table (the precondition of batching)
        shared = con.execute(
            """SELECT tournament_id, table_name FROM hands WHERE is_tournament OR table_name IS NOT NULL
               GROUP BY ALL HAVING count(DISTINCT source_id) > 1
               UNION ALL
               SELECT tournament_id, NULL FROM hands WHERE is_tournament GROUP BY ALL HAVING count(DISTINCT source_id) > 1"""
        ).fetchall()
        assert shared == [], f"{edition}: files of one batch share tournaments or tables: {shared}"
    finally:
        con.close()
    files = {p: {"hands": set(), "tournaments": set(), "findings": []} for p in batch}
    owner = {}
    for hand_id, source, tournament_id in hands:
        p = Path(source).resolve()
        files[p]["hands"].add(hand_id)
        if tournament_id is not None:
            files[p]["tournaments"].add(tournament_id)
        owner[hand_id] = p
    for f in result.findings:
        p = Path(f["source_path"]).resolve()
        assert owner.get(f["hand_id"], p) == p, f  # a finding is its own hand's file's
        files[p]["findings"].append(f)
    # the pipeline's count of each check's findings is that of the findings fetched
    assert Counter(f["check_id"] for f in result.findings) == +Counter(result.findings_by_check)
    for p, x in files.items():
        assert len(x["hands"]) == by_path[p].stored, (p, by_path[p])  # every hand stored is its file's
    return {p: FileAudit(p, edition, db, by_path[p], tuple(e for e in ing.errors if Path(e["file"]).resolve() == p),
                         x["findings"], frozenset(x["hands"]), frozenset(x["tournaments"]), dict(result.findings_by_check))
            for p, x in files.items()}
