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
