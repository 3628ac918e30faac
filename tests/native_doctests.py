"""pytest plugin (``-p tests.native_doctests`` in pyproject.toml): doctests of the
modules that run compiled (``parsers/_native.py``).

``--doctest-modules`` imports each ``.py`` by its path and, for a compiled module,
finds the compiled copy instead ("import file mismatch"); a compiled function also
keeps no docstring examples that doctest can find.  So those ``.py`` files are left
to ``doctests_of``, which reads the examples from the source text and runs them in
the namespace of the module that runs: the compiled copy.
"""

from __future__ import annotations

import doctest
import functools
import importlib
import importlib.util
import sys
from pathlib import Path

from parsers._native import running_compiled, source_path


def _compiled_sources() -> set[Path]:
    return {source_path(m) for m in running_compiled()}


def pytest_ignore_collect(collection_path, config):
    if config.getoption("doctestmodules") and Path(collection_path).resolve() in _compiled_sources():
        return True
    return None


@functools.lru_cache(maxsize=None)
def source_copy(module_name: str):
    """``module_name`` loaded from its .py under a private name, beside the module
    that runs (compiled or not): the same code, interpreted, for comparisons.  A
    parser's copy is built on a source copy of ``parsers.base`` too: the compiled
    classes would check their fields' types in both copies alike."""
    spec = importlib.util.spec_from_file_location(f"_source_of_{module_name.replace('.', '_')}", source_path(module_name))
    source = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = source  # dataclasses look their module up there
    if module_name == "parsers.base":
        spec.loader.exec_module(source)
        return source
    running_base = sys.modules["parsers.base"]
    sys.modules["parsers.base"] = source_copy("parsers.base")  # what the copy's imports bind
    try:
        spec.loader.exec_module(source)
    finally:
        sys.modules["parsers.base"] = running_base
    return source


def doctests_of(module_name: str, optionflags: int = 0) -> doctest.TestResults:
    """Run the docstring examples of ``module_name``'s source against the module
    that runs (compiled or not)."""
    running = importlib.import_module(module_name)
    runner = doctest.DocTestRunner(optionflags=optionflags)
    # the source copy only to find the examples; they run against ``running``
    for test in doctest.DocTestFinder().find(source_copy(module_name), module_name):
        test.globs = dict(vars(running))
        runner.run(test)
    return runner.summarize(verbose=False)
