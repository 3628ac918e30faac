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


def architecture_names() -> tuple[list[str], list[tuple[str, str]], list[str]]:
    """What docs/architecture.md names in backticks: paths (a ``<name>`` in one stands
    for any name), names given after a module's path ("`auditor/units.py` `write_unit`"),
    and dotted names in the packages (``auditor.store.macros_sql``)."""
    import re

    text = (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")
    ticked = re.findall(r"`([^`\s]+)`", text)
    paths = [t for t in ticked if "/" in t or re.search(r"\.(py|md|toml|sql)$", t)]
    defined = re.findall(r"`([\w/]+\.py)` `(\w+)`", text)
    dotted = [t for t in ticked if re.fullmatch(r"(auditor|parsers|replay|reports)(\.\w+)+", t)]
    return paths, defined, dotted


def test_every_path_the_architecture_names_exists():
    import importlib
    import re

    paths, defined, dotted = architecture_names()
    assert len(paths) > 40 and len(defined) > 10 and dotted
    for p in paths:
        if "<" in p:  # a pattern: some file or folder must match it
            assert list(ROOT.glob(re.sub(r"<[^>]+>", "*", p).rstrip("/"))), f"docs/architecture.md names {p}: nothing matches"
        else:
            assert (ROOT / p).exists(), f"docs/architecture.md names {p}, which does not exist"
    for path, name in defined:
        source = (ROOT / path).read_text(encoding="utf-8")
        assert re.search(rf"^\s*(def|class) {name}\b|^{name}\b.*=", source, re.M), f"{path} defines no {name}"
    for name in dotted:
        parts = name.split(".")
        for i in range(len(parts), 0, -1):
            try:
                obj = importlib.import_module(".".join(parts[:i]))
            except ImportError:
                continue
            for attr in parts[i:]:
                assert hasattr(obj, attr), f"docs/architecture.md names {name}: {'.'.join(parts[:i])} has no {attr}"
                obj = getattr(obj, attr)
            break
        else:
            raise AssertionError(f"docs/architecture.md names {name}, which is no module")
