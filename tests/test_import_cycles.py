"""No import cycles among Parlour's own modules: the import graph, read with ``ast`` (imports
inside functions included: they are how a cycle hides), has no strongly connected component of
more than one module. Imports under ``if TYPE_CHECKING:`` never run and are left out."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("bot", "games", "render", "storage", "i18n")


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def project_modules() -> dict[str, Path]:
    return {
        module_name(path): path for package in PACKAGES for path in (ROOT / package).rglob("*.py")
    }


def runtime_nodes(tree: ast.AST) -> list[ast.AST]:
    """Every node of ``tree`` except what sits under ``if TYPE_CHECKING:``."""
    found: list[ast.AST] = []
    todo = [tree]
    while todo:
        node = todo.pop()
        found.append(node)
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            todo.extend(node.orelse)
            continue
        todo.extend(ast.iter_child_nodes(node))
    return found


def imports_of(name: str, path: Path, known: set[str]) -> set[str]:
    """The project modules ``name`` imports (``from a import b`` counts ``a.b`` when it is a
    module, else ``a``; a package's ``__init__`` counts as the package)."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: set[str] = set()
    for node in runtime_nodes(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")
                anchor = anchor[: len(anchor) - node.level + 1]
                base = ".".join([*anchor, base] if base else anchor)
            for alias in node.names:
                sub = f"{base}.{alias.name}"
                found.add(sub if sub in known else base)
    return {m for m in found if m in known and m != name} | ({name} & found)


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components of more than one module, and self-imports (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for nxt in sorted(graph[node]):
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in on_stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            component = []
            while True:
                top = stack.pop()
                on_stack.discard(top)
                component.append(top)
                if top == node:
                    break
            if len(component) > 1 or node in graph[node]:
                found.append(sorted(component))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return found


def test_the_cycle_finder_finds_a_cycle():
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert cycles({"a": {"a"}}) == [["a"]]
    assert cycles({"a": {"b"}, "b": set()}) == []


def test_imports_for_type_checkers_only_are_left_out(tmp_path):
    path = tmp_path / "m.py"
    path.write_text(
        "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    import a\nelse:\n    import b\n"
        "def f():\n    import c\n"
    )
    assert imports_of("m", path, {"a", "b", "c"}) == {"b", "c"}


def test_the_graph_sees_the_imports_that_matter():
    modules = project_modules()
    graph = {name: imports_of(name, path, set(modules)) for name, path in modules.items()}
    assert "bot.tables.controller" in graph["bot.tables.service"]
    assert "bot.client.common" in graph["bot.client.app"]
    assert "games.base" in graph["games.quarters"]


def test_no_import_cycles():
    modules = project_modules()
    graph = {name: imports_of(name, path, set(modules)) for name, path in modules.items()}
    assert cycles(graph) == []
