"""The package's layering holds: data flows one way, with no cycles and no private imports.

Every import of every module of ``solo_analysis`` is read from the source (imports inside
functions and under ``TYPE_CHECKING`` included) and checked against three rules:

* a module imports only from its own layer's package or a lower layer (:data:`LAYERS`);
* the modules import each other in no cycle;
* no module imports an underscore name of another module, nor a private module of another
  package, except a private kernel module (``solver._kernels`` and the like), which is
  imported for its public kernels only.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1] / "solo_analysis"
PACKAGE = "solo_analysis"

#: the layers, lowest first; a module may import from its own package and from lower layers.
#: Packages on one line are side by side: neither may import the other.
LAYERS: list[set[str]] = [
    {"", "errors"},  # the package face (version, lazy names, cache check) and the exceptions
    {"cards"},
    {"hand"},
    {"deal"},
    {"rules"},
    {"bidding"},
    {"sampler"},
    {"solver"},
    {"play"},
    {"stats"},
    {"report"},
    {"advice", "tables"},
    {"cli"},
]
LEVEL = {name: i for i, layer in enumerate(LAYERS) for name in layer}


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


MODULES = {_module_name(p): p for p in sorted(ROOT.rglob("*.py"))}


def _is_package(module: str) -> bool:
    return MODULES[module].name == "__init__.py"


def _resolve(module: str, level: int, target: str | None) -> str:
    """The absolute name of a relative import ``from <level dots><target>`` inside ``module``."""
    if level == 0:
        return target or ""
    base = module.split(".")
    if not _is_package(module):
        base = base[:-1]
    base = base[: len(base) - (level - 1)]
    return ".".join(base + ([target] if target else []))


def _imports(module: str) -> Iterator[tuple[str, str | None, int]]:
    """(imported module, name taken from it or None, line) for each import in ``module``."""
    tree = ast.parse(MODULES[module].read_text(encoding="utf-8"))
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.split(".")[0] == PACKAGE:
                    yield alias.name, None, node.lineno
        elif isinstance(node, ast.ImportFrom):
            source = _resolve(module, node.level, node.module)
            if source.split(".")[0] != PACKAGE:
                continue
            for alias in node.names:
                sub = f"{source}.{alias.name}"
                if sub in MODULES:  # "from package import module"
                    yield sub, None, node.lineno
                else:
                    yield source, alias.name, node.lineno


def _area(module: str) -> str:
    """The top-level part of the package a module belongs to.

    "" for the package face: ``__init__`` and its private helpers at the top level
    (``_kernel_cache``, which the face runs on import).
    """
    parts = module.split(".")
    if len(parts) == 1 or (len(parts) == 2 and parts[1].startswith("_")):
        return ""
    return parts[1]


def _is_kernel(module: str) -> bool:
    """A private numba kernel module (imported for its public kernels)."""
    return module.split(".")[-1].startswith("_") and _area(module) in (
        "solver",
        "sampler",
        "play",
        "stats",
    )


def test_every_module_is_in_a_layer():
    assert {_area(m) for m in MODULES} <= set(LEVEL)


def test_no_upward_or_sideways_import():
    bad = []
    for module in MODULES:
        here = _area(module)
        for target, _, line in _imports(module):
            there = _area(target)
            if there == here:
                continue
            if LEVEL[there] >= LEVEL[here] and not (there == "" and here != ""):
                bad.append(
                    f"{module}:{line} imports {target} (layer {there!r} is not below {here!r})"
                )
            if there == "" and target != PACKAGE:
                bad.append(f"{module}:{line} imports {target}")
    assert not bad, "\n".join(bad)


def test_no_private_import_across_modules():
    bad = []
    for module in MODULES:
        for target, name, line in _imports(module):
            if name is not None and name.startswith("_") and name != "__version__":
                bad.append(f"{module}:{line} imports {name} from {target}")
            private = [p for p in target.split(".")[1:] if p.startswith("_")]
            inside = _area(target) == _area(module)  # a private helper of its own package
            if private and not inside and not _is_kernel(target):
                bad.append(f"{module}:{line} imports the private module {target}")
    assert not bad, "\n".join(bad)


def _graph() -> dict[str, set[str]]:
    graph: dict[str, set[str]] = {m: set() for m in MODULES}
    for module in MODULES:
        for target, _, _ in _imports(module):
            if target in MODULES and target != module:
                graph[module].add(target)
    return graph


def _cycle(graph: dict[str, set[str]]) -> list[str] | None:
    state: dict[str, int] = {}
    stack: list[str] = []

    def visit(node: str) -> list[str] | None:
        state[node] = 1
        stack.append(node)
        for nxt in sorted(graph[node]):
            if state.get(nxt) == 1:
                return [*stack[stack.index(nxt) :], nxt]
            if nxt not in state:
                found = visit(nxt)
                if found:
                    return found
        stack.pop()
        state[node] = 2
        return None

    for node in sorted(graph):
        if node not in state:
            found = visit(node)
            if found:
                return found
    return None


def test_no_import_cycle():
    cycle = _cycle(_graph())
    assert cycle is None, " -> ".join(cycle or [])


@pytest.mark.parametrize(
    ("graph", "has_cycle"),
    [
        ({"a": {"b"}, "b": {"c"}, "c": set()}, False),
        ({"a": {"b"}, "b": {"c"}, "c": {"a"}}, True),
        ({"a": {"a2"}, "a2": set(), "b": {"a", "b"}}, True),
    ],
)
def test_the_cycle_finder_finds_cycles(graph, has_cycle):
    assert (_cycle(graph) is not None) == has_cycle


def test_the_import_reader_sees_function_level_and_relative_imports(tmp_path):
    names = {(t, n) for t, n, _ in _imports("solo_analysis.advice.result")}
    assert ("solo_analysis.report.charts", "advice_chart") in names  # inside a method
    assert ("solo_analysis.hand", "Hand") in names  # a relative import at the top
