"""The project's layers read one way: no module imports one of a layer above its own,
and no modules import each other in a circle.

The layers are declared once, in the table under "## Layers" of docs/architecture.md
(lowest first): this test reads them from there.  The import graph is built from the
source with ``ast``: every ``import`` and ``from ... import`` anywhere in a module,
inside functions too (a lazy import is still a dependency)."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("parsers", "auditor", "replay", "reports")
ARCHITECTURE = ROOT / "docs" / "architecture.md"


def project_modules() -> dict[str, Path]:
    """Every module of the packages by dotted name (a package by its ``__init__``)."""
    mods = {}
    for pkg in PACKAGES:
        for path in sorted((ROOT / pkg).rglob("*.py")):
            parts = path.relative_to(ROOT).with_suffix("").parts
            mods[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    return mods


def imported(module: str, path: Path, mods: dict[str, Path]) -> set[str]:
    """The project modules ``module`` imports, anywhere in its text.  ``from p import
    name`` depends on module ``p.name`` where there is one, else on ``p``; an import
    of a name inside a module depends on the module."""
    deps: set[str] = set()
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - node.level + 1]
                source = ".".join(base + ([node.module] if node.module else []))
            else:
                source = node.module or ""
            names = [f"{source}.{a.name}" if f"{source}.{a.name}" in mods else source for a in node.names]
        else:
            continue
        for name in names:
            while name not in mods and "." in name:
                name = name.rpartition(".")[0]
            if name in mods and name != module:
                deps.add(name)
    return deps


def import_graph() -> dict[str, set[str]]:
    mods = project_modules()
    return {m: imported(m, p, mods) for m, p in mods.items()}


def declared_layers() -> list[tuple[str, list[str]]]:
    """(layer, paths) from docs/architecture.md's "## Layers" table, lowest first: a
    path is a module's file or a package's folder (all the modules below it)."""
    text = ARCHITECTURE.read_text(encoding="utf-8")
    section = text.split("\n## Layers", 1)[1].split("\n## ", 1)[0]
    layers = []
    for line in section.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) >= 2 and re.match(r"\d+\.", cells[0]):
            layers.append((cells[0], re.findall(r"`([^`]+)`", cells[1])))
    return layers


def layer_of() -> dict[str, int]:
    """Each project module's layer (its index in the declared order)."""
    out: dict[str, int] = {}
    claims: dict[str, list[str]] = {}
    for module, path in project_modules().items():
        rel = path.relative_to(ROOT).as_posix()
        for i, (name, paths) in enumerate(declared_layers()):
            for p in paths:
                if rel == p or (p.endswith("/") and rel.startswith(p)):
                    claims.setdefault(module, []).append(f"{name} ({p})")
                    out[module] = i
    doubly = {m: c for m, c in claims.items() if len(c) > 1}
    assert not doubly, f"modules declared in more than one layer: {doubly}"
    return out


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in graph[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                found.append(sorted(comp))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return found


def test_the_graph_sees_imports_inside_functions():
    """Lazy imports count: these are made inside functions in the real modules."""
    graph = import_graph()
    assert "parsers" in graph["auditor.store"]  # macros_sql: the formats' facts
    assert "replay.runner" in graph["auditor.units"]  # parse_unit: the engine only where a unit is replayed
    assert "auditor.units" in graph["auditor.execution"]  # _probe: what a Dask worker must import


def test_every_module_has_a_declared_layer():
    layers = layer_of()
    missing = sorted(set(project_modules()) - set(layers))
    assert not missing, f"modules in no layer of docs/architecture.md's '## Layers' table: {missing}"
    assert len(declared_layers()) >= 7


def test_no_import_cycles():
    found = cycles(import_graph())
    assert not found, f"modules that import each other in a circle: {found}"


def test_no_import_upward():
    layers = layer_of()
    names = [name for name, _ in declared_layers()]
    upward = [f"{m} ({names[layers[m]]}) imports {d} ({names[layers[d]]})"
              for m, deps in sorted(import_graph().items()) for d in sorted(deps)
              if m in layers and d in layers and layers[d] > layers[m]]
    assert not upward, "imports upward:\n" + "\n".join(upward)


@pytest.mark.parametrize("package", PACKAGES)
def test_a_package_sits_no_higher_than_its_modules(package):
    """Importing any module runs its package's ``__init__`` first: what that imports
    is imported by every module of the package."""
    layers = layer_of()
    below = [m for m in project_modules() if m.startswith(package + ".") and layers[m] < layers[package]]
    assert not below, f"{package}/__init__.py is in a higher layer than {below}"


def test_cycles_and_upward_imports_are_found():
    """The two checks catch what they look for, on a graph with a circle."""
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert cycles({"a": {"b"}, "b": set()}) == []
