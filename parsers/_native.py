"""Which copy of a compiled module runs: its compiled copy, or its source.

The build (``setup.py``) compiles the hot modules with mypyc when it can, and
records in ``_native.json`` the hash of each source it compiled.  Python would
import a compiled copy before its ``.py``, even after the ``.py`` was edited, so a
finder placed first runs the source of a module instead when:

- its source, or another compiled module's, no longer matches the hash it was
  compiled from (an edit since the build: a warning says so, and
  ``pip install -e .`` compiles them again), or
- ``TDA_AUDIT_PURE=1`` asks for pure Python everywhere.

Nothing changes when every compiled copy is current, or when nothing was
compiled (a build without a C compiler: pure Python throughout).
"""

from __future__ import annotations

import hashlib
import importlib.machinery
import importlib.util
import json
import os
import sys
import warnings
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
MANIFEST = Path(__file__).with_name("_native.json")
SHARED_LIBRARY = "tda_auditor_native__mypyc"  # setup.py's group_name + "__mypyc"


def source_path(module: str) -> Path:
    """The .py of one of our modules: ``parsers.base`` -> ROOT/parsers/base.py."""
    return ROOT / (module.replace(".", "/") + ".py")


def _compiled_copy(module: str) -> Path | None:
    base = ROOT / module.replace(".", "/")
    for suffix in importlib.machinery.EXTENSION_SUFFIXES:
        if (p := base.with_name(base.name + suffix)).exists():
            return p
    return None


def compiled_from() -> dict[str, str]:
    """Module name -> hash of the source the build compiled it from ({} if none)."""
    try:
        return json.loads(MANIFEST.read_text())["modules"]
    except (OSError, ValueError, KeyError):
        return {}


def stale_or_unwanted() -> dict[str, str]:
    """Module name -> why its source must run although a compiled copy is there.

    All or none: the compiled modules share one library and import one another
    compiled, so a compiled parsers.pokerstars would bring back the compiled
    parsers.base its edited source replaced (two sets of classes).  One reason to
    run a source is a reason to run them all."""
    recorded = compiled_from()
    compiled = sorted(m for m in {*recorded, *_candidates()} if _compiled_copy(m) is not None)
    if not compiled:
        return {}
    why = None
    if os.environ.get("TDA_AUDIT_PURE") == "1":
        why = "TDA_AUDIT_PURE=1"
    elif not any((ROOT / (SHARED_LIBRARY + suffix)).exists() for suffix in importlib.machinery.EXTENSION_SUFFIXES):
        why = f"the library they share ({SHARED_LIBRARY}, for this Python) is missing"
    elif missing := sorted(set(recorded) - set(compiled)):
        # the others would load its compiled code from the shared library, unchecked
        why = f"the compiled copy of {missing[0]} is missing"
    else:
        for module in compiled:
            if module not in recorded:
                why = f"the build recorded no source for {module}"
            elif hashlib.sha256(source_path(module).read_bytes()).hexdigest() != recorded[module]:
                why = f"{source_path(module).relative_to(ROOT)} changed since it was compiled"
            if why:
                break
    return dict.fromkeys(compiled, why) if why else {}


def _candidates() -> set[str]:
    """Modules with a compiled copy beside their source, whether or not recorded."""
    found = set()
    for package in ("parsers", "replay"):
        for p in (ROOT / package).glob("*.py"):
            module = f"{package}.{p.stem}"
            if _compiled_copy(module) is not None:
                found.add(module)
    return found


class _SourceFirst:
    """Meta-path finder: the listed modules load from their .py files."""

    def __init__(self, modules: dict[str, str]):
        self.modules = modules

    def find_spec(self, fullname: str, path=None, target=None):
        if fullname not in self.modules:
            return None
        return importlib.util.spec_from_file_location(fullname, source_path(fullname))


_finder: _SourceFirst | None = None


def use_source_where_stale() -> None:
    """Install the finder once, before the compiled modules are first imported."""
    global _finder
    if _finder is not None:
        return
    modules = stale_or_unwanted()
    _finder = _SourceFirst(modules)
    if modules:
        sys.meta_path.insert(0, _finder)
        why = next(iter(modules.values()))
        if why != "TDA_AUDIT_PURE=1":
            warnings.warn(f"running the source of {', '.join(modules)} ({why}), slower than the compiled copies: "
                          "`pip install -e .` compiles them again", stacklevel=2)


def running_compiled() -> list[str]:
    """The modules whose compiled copy is what runs (imported or not yet)."""
    use_source_where_stale()
    assert _finder is not None
    return sorted(m for m in compiled_from() if _compiled_copy(m) is not None and m not in _finder.modules)


def running_description() -> str:
    """What runs, as ``tda-audit --version`` and the benchmark say it:
    'compiled: parsers.base, ...' or 'pure Python'."""
    compiled = running_compiled()
    return "compiled: " + ", ".join(compiled) if compiled else "pure Python"
