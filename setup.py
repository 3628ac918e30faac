"""Build of tda-auditor: the metadata is in pyproject.toml; this file only adds the
optional compiled modules.

By default ``pip install`` installs pure Python: a first audit starts in seconds.  With
``TDA_AUDIT_COMPILE=1`` the hot modules (``NATIVE_MODULES``: the PokerStars-family
parsers and their sites', PHH, iPoker and Party/888, the parsed-hand types and the
replay engine) are compiled by mypyc: it turns their annotated Python, unchanged, into
C extensions that run the same code about 1.5 times as fast, for a few minutes of
compiling (bench/README.md).  There is one source: the .py files.  When the build
cannot compile (no C compiler, a type error) it warns and installs pure Python, which
behaves the same.  At import, ``parsers._native`` loads a module's source instead of
its compiled copy when that copy no longer matches the source (an edit after the
build) or when ``TDA_AUDIT_PURE=1``.
"""

from __future__ import annotations

import hashlib
import json
import os
import sys
from pathlib import Path

from setuptools import setup
from setuptools.command.build_ext import build_ext

HERE = Path(__file__).resolve().parent
NATIVE_MODULES = ["parsers/base.py", "parsers/stars_family.py", "parsers/pokerstars.py", "parsers/phh.py", "parsers/ipoker.py",
                  # the family's parts: what a site declares, its tables, a hand's reading, the returns inferred
                  "parsers/stars_site.py", "parsers/stars_tables.py", "parsers/stars_hand.py", "parsers/stars_returns.py",
                  # the sites on the Stars family: their parser classes, Run It Once's reading of raises, WPN 2016
                  "parsers/ggpoker.py", "parsers/winamax.py", "parsers/fulltilt.py", "parsers/fulltilt_stars.py",
                  "parsers/wpn.py", "parsers/runitonce.py", "parsers/bovada.py",
                  "parsers/party_family.py", "parsers/partypoker.py", "parsers/pacific.py",
                  "replay/engine.py"]
MANIFEST = "parsers/_native.json"  # read by parsers/_native.py: what was compiled, from which source


GROUP = "tda_auditor_native"  # their shared library: tda_auditor_native__mypyc (parsers/_native.py)
# setup.py also runs for the package's metadata; mypyc (a full type check) only for a build
COMPILING = os.environ.get("TDA_AUDIT_COMPILE") == "1"  # asked for; else pure Python, the default
BUILDING = bool({"build", "build_ext", "bdist_wheel", "editable_wheel", "develop", "install"} & set(sys.argv[1:]))


def _warn(why: str) -> None:
    print(f"tda-auditor: installing pure Python, without the compiled modules ({why})", file=sys.stderr)


def _hashes() -> dict[str, str]:
    """Module name -> sha256 of the source mypyc is given (read before it compiles:
    an edit made during the build is not recorded as compiled)."""
    return {m.removesuffix(".py").replace("/", "."): hashlib.sha256((HERE / m).read_bytes()).hexdigest()
            for m in NATIVE_MODULES}


def _remove_inplace_copies() -> None:
    """The compiled copies an earlier editable build left in the source tree, and
    their manifest: a pure build must not leave them to run."""
    from importlib.machinery import EXTENSION_SUFFIXES

    for stem in [m.removesuffix(".py") for m in NATIVE_MODULES] + [GROUP + "__mypyc"]:
        for suffix in EXTENSION_SUFFIXES:
            (HERE / (stem + suffix)).unlink(missing_ok=True)
    (HERE / MANIFEST).unlink(missing_ok=True)


def _native_extensions() -> tuple[list, dict[str, str]]:
    if not BUILDING:
        return [], {}
    if not COMPILING:
        why = "the default: TDA_AUDIT_COMPILE=1 compiles the hot modules, for large audits"
    else:
        try:
            from mypyc.build import mypycify

            hashes = _hashes()
            # the modules they import are type-checked only as far as these use them; module
            # names from the project's folder (the build's working directory), not from any
            # folder above it holding an __init__.py ('tmp.x.parsers.base' under a /tmp that
            # has one: mypy then finds each source twice and the build fell back to pure Python)
            flags = ["--follow-imports=silent", "--ignore-missing-imports", "--explicit-package-bases"]
            return mypycify([*flags, *NATIVE_MODULES], opt_level="3", group_name=GROUP), hashes
        except BaseException as e:  # mypyc missing, or the sources do not type-check (it exits)
            why = f"mypyc could not prepare them: {e!r}"
    _warn(why)
    _remove_inplace_copies()
    return [], {}


EXTENSIONS, SOURCE_HASHES = _native_extensions()


class OptionalBuildExt(build_ext):
    """Build every compiled module or none (a module without the shared library it
    links to would fail at import); on success, record each compiled module's source
    hash beside it, so that a stale copy is never run."""

    def run(self) -> None:
        if not self.extensions:
            return
        # in place (an editable install) the manifest goes beside the sources; else into the build
        in_tree = self.inplace or getattr(self, "editable_mode", False)
        target = HERE / MANIFEST if in_tree else Path(self.build_lib) / MANIFEST
        target.unlink(missing_ok=True)
        try:
            super().run()
        except Exception as e:  # noqa: BLE001 - no compiler, a compile error: pure Python still works
            for ext in self.extensions:
                for where in {self.get_ext_fullpath(ext.name), str(HERE / self.get_ext_filename(ext.name))}:
                    Path(where).unlink(missing_ok=True)
            _warn(f"compiling failed: {e}")
            return
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(json.dumps({"modules": SOURCE_HASHES}, indent=1, sort_keys=True) + "\n")


# mypy (its mypyc) only for a compiled build: pip asks setuptools for the build's
# requirements before building, and setup_requires is what it answers beyond pyproject's
setup(ext_modules=EXTENSIONS, cmdclass={"build_ext": OptionalBuildExt},
      setup_requires=["mypy>=1.11"] if COMPILING else [])
