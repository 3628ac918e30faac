"""Shared test fixtures: the external corpus and rule texts beside the project, and fresh stores."""

from __future__ import annotations

from pathlib import Path

import pytest

# the per-site harness's assertions show their values, as a test module's do
pytest.register_assert_rewrite("site_corpus")

ROOT = Path(__file__).resolve().parent.parent
SHARED = ROOT.parent / "shared"
CORPUS = SHARED / "corpus"
TDA_TEXTS = SHARED / "tda"
SAMPLES = ROOT / "sample_histories"
FIXTURES = Path(__file__).resolve().parent / "fixtures"
# The hands and history files in sample_histories/: one place for every test that counts
# them (tests/test_samples.py counts the hands file by file from each format's markers).
SAMPLE_HANDS = 85
SAMPLE_FILES = 29

needs_corpus = pytest.mark.skipif(
    not CORPUS.is_dir(),
    reason=f"external corpus not found at {CORPUS}: see the README's section 'The external corpus'",
)
needs_tda = pytest.mark.skipif(not TDA_TEXTS.is_dir(), reason=f"TDA rule texts not found at {TDA_TEXTS}")


def audit_written(tmp_path: Path, name: str, text: str):
    """A history written by a test, audited into a store of its own: (the audit's result, the
    store's path); the file is ``<name>.txt`` and the store ``<name>.duckdb`` in ``tmp_path``."""
    from auditor.pipeline import audit

    path = tmp_path / f"{name}.txt"
    path.write_text(text, encoding="utf-8")
    db = tmp_path / f"{name}.duckdb"
    return audit([path], db=str(db)), db


@pytest.fixture
def db_path(tmp_path) -> str:
    return str(tmp_path / "test.duckdb")


# The modules whose tests take longest, longest first (seconds a module, measured over
# one run of the suite: bench/README.md), run before the others.  pyproject.toml has
# pytest-xdist hand out whole files (--dist loadfile: a module's fixtures are built once)
# in collection order (--no-loadscope-reorder); a long module handed out last kept one
# worker busy for minutes after the other had run out of tests.
FIRST = ("test_worker_checks", "test_segments", "test_fuzz", "test_crash_safety", "test_parallel_ingest",
         "test_categories", "test_cli", "test_site_bovada", "test_checks_memory", "test_checks", "test_dask",
         "test_dossier_browser", "test_party_fields", "test_robustness", "test_mutations", "test_verify")


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    rank = {name: i for i, name in enumerate(FIRST)}
    items.sort(key=lambda item: rank.get(item.path.stem, len(FIRST)))  # stable: the rest keep their order
