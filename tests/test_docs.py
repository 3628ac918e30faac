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


def readme_queries() -> list[tuple[str, str]]:
    """The README's query examples, '$ tda-audit query "SQL"' (the SQL may run over
    several lines) and the output printed under each, up to the blank line."""
    import re

    text = (ROOT / "README.md").read_text(encoding="utf-8")
    section = text[text.index("## Asking questions with SQL"):]
    section = section[: section.index("\n## ", 1)] if "\n## " in section[1:] else section
    out = []
    for m in re.finditer(r'^    \$ tda-audit query "(.*?)"\n((?:    [^\n]*\n)+)', section, re.S | re.M):
        sql = " ".join(line.strip() for line in m[1].splitlines())
        printed = "\n".join(line[4:] for line in m[2].rstrip("\n").splitlines())
        out.append((sql, printed))
    return out


def test_readme_query_examples_print_what_the_readme_shows(tmp_path):
    """Each query of the README's 'Asking questions with SQL', run on the audited sample
    histories, prints exactly the rows the README shows (regenerate them when the
    samples or the checks change)."""
    from click.testing import CliRunner

    from auditor.cli import main

    examples = readme_queries()
    assert len(examples) == 3
    db = str(tmp_path / "a.duckdb")
    assert CliRunner().invoke(main, ["audit", str(ROOT / "sample_histories"), "--db", db, "-q"]).exit_code == 0
    for sql, printed in examples:
        r = CliRunner().invoke(main, ["query", sql, "--db", db])
        assert r.exit_code == 0, r.output
        assert r.stdout.rstrip("\n") == printed, f"README example is stale:\n{sql}\nprints:\n{r.stdout}"
