"""The compiled modules (setup.py, parsers/_native.py): mypyc compiles the parsers'
and the replay engine's hot modules when the build can.  They must behave exactly
as their source, and a compiled copy must never run once its source was edited.

These tests need an install that compiled them (``TDA_AUDIT_COMPILE=1 pip install -e .``
with a C compiler: CI's); on a pure-Python install, the default, there is nothing to
compare, and they skip saying so.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from auditor.pipeline import audit
from conftest import CORPUS, SAMPLES
from parsers._native import MANIFEST, ROOT, SHARED_LIBRARY, compiled_from, running_compiled, source_path
from tests.native_doctests import doctests_of

COMPILED = running_compiled()
needs_compiled = pytest.mark.skipif(
    not COMPILED, reason="this install runs pure Python, the default: nothing was compiled (install with "
                         "TDA_AUDIT_COMPILE=1 and a C compiler to compile; TDA_AUDIT_PURE=1 runs pure Python)")

# columns that say when, not what
_WHEN = {"ingested_at", "recorded_at", "value"}


def _tables(db: str) -> dict[str, list[tuple]]:
    """Every table of the schema (the segment tables through their views), but meta."""
    from auditor import schema, store

    con = store.connect(db, read_only=True)
    try:
        out = {}
        for t in sorted(table.name for table in schema.TABLES if table.name != "meta"):
            cols = [c for c in next(x for x in schema.TABLES if x.name == t).column_names if c not in _WHEN]
            out[t] = con.execute(f"SELECT {', '.join(cols)} FROM {t} ORDER BY ALL").fetchall()
        return out
    finally:
        con.close()


def test_a_compiled_build_asked_for_compiled():
    """``TDA_AUDIT_COMPILE=1`` (CI's .ci/run) asks the install to compile; a build that fell
    back to pure Python (a type error mypyc refused, no compiler) fails here rather than
    leaving the compiled tests to skip."""
    if os.environ.get("TDA_AUDIT_COMPILE") != "1":
        pytest.skip("this install was not asked to compile (TDA_AUDIT_COMPILE=1 at pip install and here)")
    assert COMPILED, "TDA_AUDIT_COMPILE=1 but nothing runs compiled: pip install -v -e . shows why the build fell back"


@needs_compiled
def test_the_hot_modules_run_compiled():
    import parsers.base
    import parsers.phh
    import parsers.pokerstars
    import replay.engine

    assert set(COMPILED) == set(compiled_from()) == {
        "parsers.base", "parsers.ipoker", "parsers.phh", "parsers.pokerstars", "parsers.stars_family", "replay.engine",
        "parsers.fulltilt", "parsers.fulltilt_stars", "parsers.ggpoker", "parsers.runitonce", "parsers.winamax",
        "parsers.wpn", "parsers.bovada", "parsers.party_family", "parsers.partypoker", "parsers.pacific",
        "parsers.stars_site", "parsers.stars_tables", "parsers.stars_hand", "parsers.stars_returns"}
    for module in (parsers.base, parsers.phh, parsers.pokerstars, replay.engine):
        assert not module.__file__.endswith(".py"), module.__file__


@needs_compiled
def test_compiled_and_source_store_the_same(tmp_path):
    """The same audit, once compiled (this process) and once from source
    (``TDA_AUDIT_PURE=1`` in a fresh process), stores the same rows in every table:
    events, facts, findings and rejections."""
    corpus = [CORPUS / "fpdb" / "tour" / "Stars", CORPUS / "phh" / "wsop", CORPUS / "phh" / "pluribus" / "100"]
    corpus += [CORPUS / "fpdb" / kind / site for kind in ("tour", "cash") for site in ("PartyPoker", "PacificPoker", "Bovada")]
    paths = [SAMPLES] + (corpus if CORPUS.is_dir() else [])
    compiled_db, source_db = str(tmp_path / "compiled.duckdb"), str(tmp_path / "source.duckdb")
    audit(paths, db=compiled_db, jobs=1)
    code = ("import sys; from auditor.pipeline import audit; from parsers._native import running_compiled\n"
            "assert running_compiled() == [], running_compiled()\n"
            f"audit({[str(p) for p in paths]!r}, db={source_db!r}, jobs=1)")
    subprocess.run([sys.executable, "-c", code], check=True, cwd=ROOT, env={**os.environ, "TDA_AUDIT_PURE": "1"})
    compiled, source = _tables(compiled_db), _tables(source_db)
    assert compiled.keys() == source.keys()
    assert len(compiled["hands"]) >= 50 and len(compiled["findings"]) >= 10
    for table in compiled:
        assert compiled[table] == source[table], table


@needs_compiled
@pytest.mark.parametrize("module", [m for m in COMPILED if ">>>" in source_path(m).read_text()])
def test_doctests_of_compiled_modules(module):
    """Their examples run against the compiled copy (``--doctest-modules`` leaves them
    out: it would import the .py by path and find the compiled copy)."""
    result = doctests_of(module)
    assert result.attempted > 0 and result.failed == 0


@needs_compiled
@pytest.mark.parametrize("edited", ["replay/engine.py", "parsers/base.py"])
def test_an_edited_module_runs_all_from_source(tmp_path, edited):
    """Once a compiled module's source changed after the build, every compiled
    module runs from its source (they share one library and import one another
    compiled: an edited parsers.base beside a compiled parsers.pokerstars would be
    two sets of classes), with a warning that says why and how to compile again."""
    for package in ("parsers", "replay"):
        shutil.copytree(ROOT / package, tmp_path / package, ignore=shutil.ignore_patterns("__pycache__"))
    for lib in ROOT.glob(SHARED_LIBRARY + ".*"):
        shutil.copy(lib, tmp_path)
    probe = ("import warnings; warnings.simplefilter('always')\n"
             "import parsers, parsers.base, parsers.phh, parsers.pokerstars, parsers.stars_family, replay.engine\n"
             "print(parsers.base.__file__, parsers.phh.__file__, parsers.pokerstars.__file__, replay.engine.__file__)\n"
             "print(parsers.ParsedHand is parsers.base.ParsedHand is parsers.stars_family.ParsedHand)")
    env = {**os.environ, "PYTHONPATH": str(tmp_path)}
    env.pop("TDA_AUDIT_PURE", None)

    def run():
        r = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, cwd=tmp_path, env=env, check=True)
        *files, same_classes = r.stdout.split()
        return files, same_classes == "True", r.stderr

    files, same, err = run()
    assert all(f.startswith(str(tmp_path)) and not f.endswith(".py") for f in files) and same and not err
    with open(tmp_path / edited, "a") as f:
        f.write("\n# an edit after the build\n")
    files, same, err = run()
    assert files == [str(tmp_path / m) for m in ("parsers/base.py", "parsers/phh.py", "parsers/pokerstars.py", "replay/engine.py")]
    assert same  # one set of classes
    assert f"{edited} changed since it was compiled" in err and "pip install -e ." in err


@needs_compiled
def test_compiled_copies_without_their_record_or_library_are_not_run(tmp_path):
    for package in ("parsers", "replay"):
        shutil.copytree(ROOT / package, tmp_path / package, ignore=shutil.ignore_patterns("__pycache__"))
    probe = "import replay.engine, parsers.pokerstars; print(replay.engine.__file__, parsers.pokerstars.__file__)"
    env = {**os.environ, "PYTHONPATH": str(tmp_path)}
    env.pop("TDA_AUDIT_PURE", None)
    # the library they share is missing (not copied)
    r = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, cwd=tmp_path, env=env, check=True)
    assert all(f.endswith(".py") for f in r.stdout.split()) and f"({SHARED_LIBRARY}, for this Python) is missing" in r.stderr
    # the library is there, one recorded module's compiled copy is not (the others
    # would load its compiled code from the library, unchecked against its source)
    for lib in ROOT.glob(SHARED_LIBRARY + ".*"):
        shutil.copy(lib, tmp_path)
    for base in (tmp_path / "parsers").glob("base.*.so"):
        base.unlink()
    r = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, cwd=tmp_path, env=env, check=True)
    assert all(f.endswith(".py") for f in r.stdout.split()) and "compiled copy of parsers.base is missing" in r.stderr
    # the build's record of what it compiled is missing
    (tmp_path / "parsers" / MANIFEST.name).unlink()
    r = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, cwd=tmp_path, env=env, check=True)
    assert all(f.endswith(".py") for f in r.stdout.split()) and "recorded no source" in r.stderr


def test_version_says_which_modules_run_compiled():
    """The speed depends on it, so ``tda-audit --version`` says it."""
    from auditor import __version__

    def version(**env):
        r = subprocess.run([sys.executable, "-m", "auditor.cli", "--version"], capture_output=True, text=True,
                           check=True, cwd=ROOT, env={**os.environ, **env})
        return r.stdout.strip()

    expected = f"compiled: {', '.join(COMPILED)}" if COMPILED else "pure Python"
    assert version() == f"tda-audit {__version__} ({expected})"
    assert version(TDA_AUDIT_PURE="1") == f"tda-audit {__version__} (pure Python)"
