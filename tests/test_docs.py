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


def editions_table() -> str:
    """The check -> rule numbers table of docs/editions.md, from the catalog and the checks."""
    from auditor.catalog import EDITIONS, citation, load_catalog
    from auditor.checks import load_checks

    severity = {c.check_id: c.severity for c in load_checks()}
    lines = ["| check | severity | " + " | ".join(EDITIONS) + " |", "|---|---|" + "---|" * len(EDITIONS)]
    for check_id in load_catalog():
        cells = ["**missing**" if cs[0].missing else ", ".join(c.ref for c in cs)
                 for cs in (citation(check_id, ed) for ed in EDITIONS)]
        lines.append(f"| `{check_id}` | {severity[check_id]} | " + " | ".join(cells) + " |")
    return "\n".join(lines) + "\n"


def test_editions_doc_table_is_the_catalog():
    """Every edition (2024 included) has its column, with the catalog's rule numbers."""
    doc = (ROOT / "docs" / "editions.md").read_text(encoding="utf-8")
    assert doc.endswith(editions_table()), "docs/editions.md's last table is stale: rebuild it from tests/test_docs.editions_table()"
