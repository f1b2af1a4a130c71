"""The shape of the code, enforced: no import cycles, layers that only import downwards, small modules.

Imports are read from the source with ``ast`` (every ``import`` statement, including the ones
inside functions: a lazy import that goes back up is still a cycle, only hidden until run time).
"""

from __future__ import annotations

import ast
from collections import defaultdict
from pathlib import Path

SRC = Path(__file__).resolve().parents[1] / "src"
MAX_MODULE_LINES = 450

# Lower layers never import higher ones. Within a layer packages may import each other, without cycles.
LAYERS = [
    # medfig/__init__.py imports nothing at load time (its exports are looked up on first use)
    ("base", {"medfig", "medfig.records", "medfig.geometry", "medfig.io", "medfig.schema", "medfig.dataset", "medfig.ledger",
              "medfig.images"}),
    ("domain", {"medfig.text", "medfig.jats", "medfig.sources", "medfig.pdf", "medfig.vision", "medfig.compound",
                "medfig.concepts", "medfig.induce", "medfig.demo"}),
    ("orchestration", {"medfig.pipeline", "medfig.curate", "medfig.export", "medfig.search", "medfig.evaluate",
                       "medfig.train"}),
    ("interfaces", {"medfig.web", "medfig.commands", "medfig.cli"}),
]


def _modules() -> dict[str, Path]:
    modules = {}
    for path in SRC.rglob("*.py"):
        parts = list(path.relative_to(SRC).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts = parts[:-1]
        modules[".".join(parts)] = path
    return modules


def _import_graph() -> dict[str, set[str]]:
    modules = _modules()
    graph: dict[str, set[str]] = defaultdict(set)
    for name, path in modules.items():
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if isinstance(node, ast.Import):
                targets = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                if node.level:
                    base = package.split(".")[: len(package.split(".")) - node.level + 1]
                    module = ".".join(base + ([node.module] if node.module else []))
                else:
                    module = node.module or ""
                # `from pkg import mod` imports the module mod; `from mod import name` imports mod
                targets = [f"{module}.{alias.name}" if f"{module}.{alias.name}" in modules else module
                           for alias in node.names]
            else:
                continue
            for target in targets:
                while target and target not in modules:  # `from pkg import name`: the module that holds it
                    target = target.rpartition(".")[0]
                if target.startswith("medfig") and target != name:
                    graph[name].add(target)
    return graph


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components with more than one node (Tarjan)."""
    index, low, on_stack, stack, found, counter = {}, {}, set(), [], [], [0]

    def visit(node: str) -> None:
        index[node] = low[node] = counter[0]
        counter[0] += 1
        stack.append(node)
        on_stack.add(node)
        for nxt in graph.get(node, ()):
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in on_stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            component = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                component.append(member)
                if member == node:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for node in list(graph):
        if node not in index:
            visit(node)
    return found


def _package(module: str) -> str:
    return ".".join(module.split(".")[:2])


def test_graph_reader_sees_lazy_imports():
    graph = _import_graph()
    # medfig.pipeline.article imports the JATS parser inside a step's run(): it must still be an edge
    assert "medfig.jats.parse" in graph["medfig.pipeline.article"]
    assert "medfig.compound.table" in graph["medfig.pipeline.figure_images"]  # inside the split step's run()


def test_no_import_cycle_between_modules():
    assert _cycles(_import_graph()) == []


def test_no_import_cycle_between_packages():
    packages: dict[str, set[str]] = defaultdict(set)
    for module, targets in _import_graph().items():
        for target in targets:
            if _package(module) != _package(target):
                packages[_package(module)].add(_package(target))
    assert _cycles(packages) == []


def test_layers_only_import_downwards():
    rank = {pkg: i for i, (_, members) in enumerate(LAYERS) for pkg in members}
    modules = _modules()
    unplaced = sorted({_package(m) for m in modules} - set(rank))
    assert unplaced == [], f"place these packages in a layer: {unplaced}"
    upward = sorted(f"{module} -> {target}" for module, targets in _import_graph().items() for target in targets
                    if rank[_package(target)] > rank[_package(module)])
    assert upward == []


def test_no_module_is_longer_than_the_limit():
    long = {str(path.relative_to(SRC)): n for path in SRC.rglob("*.py")
            if (n := len(path.read_text().splitlines())) > MAX_MODULE_LINES}
    assert long == {}
