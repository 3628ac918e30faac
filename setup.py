"""Build of tda-auditor: the metadata is in pyproject.toml; this file only adds the
optional compiled modules.

The hot modules (``NATIVE_MODULES``: the PokerStars parser, the parsed-hand types
and the replay engine) are compiled by mypyc when the build can: mypyc turns their
annotated Python, unchanged, into C extensions that run the same code about 1.5
times as fast.  There is one source: the .py files.  When the build cannot compile
(no C compiler, or ``TDA_AUDIT_PURE_BUILD=1``) it warns and installs pure Python,
which behaves the same.  At import, ``parsers._native`` loads a module's source
instead of its compiled copy when that copy no longer matches the source (an edit
after the build) or when ``TDA_AUDIT_PURE=1``.
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
NATIVE_MODULES = ["parsers/base.py", "parsers/pokerstars.py", "replay/engine.py"]
MANIFEST = "parsers/_native.json"  # read by parsers/_native.py: what was compiled, from which source


def _warn(why: str) -> None:
    print(f"tda-auditor: installing pure Python, without the compiled modules ({why})", file=sys.stderr)


def _native_extensions() -> list:
    if os.environ.get("TDA_AUDIT_PURE_BUILD") == "1":
        _warn("TDA_AUDIT_PURE_BUILD=1")
        return []
    try:
        from mypyc.build import mypycify

        # the modules they import are type-checked only as far as these use them
        flags = ["--follow-imports=silent", "--ignore-missing-imports"]
        return mypycify([*flags, *NATIVE_MODULES], opt_level="3", group_name="tda_auditor_native")
    except BaseException as e:  # mypyc missing, or the sources do not type-check (it exits)
        _warn(f"mypyc could not prepare them: {e!r}")
        return []


class OptionalBuildExt(build_ext):
    """Build every compiled module or none (a module without the shared library it
    links to would fail at import); on success, record each compiled module's source
    hash so a stale copy is never run."""

    def run(self) -> None:
        manifest = HERE / MANIFEST
        manifest.unlink(missing_ok=True)
        if not self.extensions:
            return
        try:
            super().run()
        except Exception as e:  # noqa: BLE001 - no compiler, a compile error: pure Python still works
            for ext in self.extensions:
                for where in {self.get_ext_fullpath(ext.name), str(HERE / self.get_ext_filename(ext.name))}:
                    Path(where).unlink(missing_ok=True)
            _warn(f"compiling failed: {e}")
            return
        hashes = {m.removesuffix(".py").replace("/", "."): hashlib.sha256((HERE / m).read_bytes()).hexdigest()
                  for m in NATIVE_MODULES}
        manifest.write_text(json.dumps({"modules": hashes}, indent=1, sort_keys=True) + "\n")
        if not self.inplace:  # a regular (non-editable) install: ship the manifest beside the modules
            target = Path(self.build_lib) / MANIFEST
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(manifest.read_text())


setup(ext_modules=_native_extensions(), cmdclass={"build_ext": OptionalBuildExt})
