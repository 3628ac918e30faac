"""Generated documentation stays in step with its single source of truth."""

from pathlib import Path

from auditor import schema

ROOT = Path(__file__).resolve().parent.parent


def test_schema_doc_is_generated_from_schema_module():
    doc = (ROOT / "docs" / "schema.md").read_text(encoding="utf-8")
    assert doc == schema.markdown(), "docs/schema.md is stale: run python -m auditor.schema > docs/schema.md"


def test_every_table_and_column_is_documented():
    for t in schema.TABLES:
        assert t.doc
        for c in t.columns:
            assert c.doc, f"{t.name}.{c.name} has no description"
