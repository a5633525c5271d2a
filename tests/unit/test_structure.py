"""The engine's structure: the rules modules import each other without a cycle, every
import is at the top of its module (none hidden in a function), and the engine (``gcbc.rules``,
``gcbc_contract``) imports no service, broker, store or web framework (the rest of the engine's
purity: ``test_engine_isolation.py``).

The import graph has an edge for each module an ``import`` or ``from ... import`` statement names
(``from gcbc.rules import guards``: ``gcbc.rules.guards``), wherever it is (an import inside a
function would hold a cycle open), type-checking-only imports left out.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import gcbc
import gcbc_contract

ROOT = Path(gcbc.__file__).resolve().parent
CONTRACT = Path(gcbc_contract.__file__).resolve().parent
RULES = ROOT / "rules"
ENGINE = (ROOT / "rules", CONTRACT)
OFF_LIMITS = frozenset({"services", "nats", "redis", "litestar"})


def module_name(path: Path) -> str:
    home = CONTRACT.parent if path.is_relative_to(CONTRACT) else ROOT.parent
    parts = path.relative_to(home).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


MODULES = {module_name(p): p for p in sorted(RULES.rglob("*.py"))}


def _type_checking(node: ast.If) -> bool:
    test = node.test
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def runtime_imports(tree: ast.Module) -> list[ast.Import | ast.ImportFrom]:
    """Every import that runs: anywhere in the module (a function's too), but those only for
    type checkers (``if TYPE_CHECKING:``)."""
    out: list[ast.Import | ast.ImportFrom] = []
    todo: list[ast.AST] = [tree]
    while todo:
        node = todo.pop()
        if isinstance(node, ast.Import | ast.ImportFrom):
            out.append(node)
        elif isinstance(node, ast.If) and _type_checking(node):
            todo += node.orelse
        else:
            todo += ast.iter_child_nodes(node)
    return out


def imported(path: Path) -> set[str]:
    """The modules a file's imports name (a name imported from a package that is one of its
    modules counts as that module)."""
    tree = ast.parse(path.read_text(), filename=str(path))
    package = (
        module_name(path) if path.name == "__init__.py" else module_name(path).rsplit(".", 1)[0]
    )
    out: set[str] = set()
    for node in runtime_imports(tree):
        if isinstance(node, ast.Import):
            out |= {alias.name for alias in node.names}
            continue
        base = node.module or ""
        if node.level:
            parts = package.split(".")
            base = ".".join([*parts[: len(parts) - node.level + 1], *([base] if base else [])])
        for alias in node.names:
            sub = f"{base}.{alias.name}"
            out.add(sub if sub in MODULES else base)
    return out


GRAPH = {name: {m for m in imported(path) if m in MODULES} for name, path in MODULES.items()}


def find_cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """A cycle of the graph (its modules in order), or None."""
    state: dict[str, int] = {}  # 1: on the current path, 2: done
    path: list[str] = []

    def visit(node: str) -> list[str] | None:
        state[node] = 1
        path.append(node)
        for nxt in sorted(graph[node]):
            if state.get(nxt) == 1:
                return path[path.index(nxt) :] + [nxt]
            if nxt not in state:
                found = visit(nxt)
                if found:
                    return found
        path.pop()
        state[node] = 2
        return None

    for node in sorted(graph):
        if node not in state:
            found = visit(node)
            if found:
                return found
    return None


def test_the_rules_modules_are_found() -> None:
    assert "gcbc.rules.decide" in GRAPH and "gcbc.rules.actions.investigate" in GRAPH
    assert "gcbc.rules.flow" in GRAPH["gcbc.rules.decide"]


def test_no_import_cycle_among_the_rules_modules() -> None:
    cycle = find_cycle(GRAPH)
    assert cycle is None, "import cycle: " + " -> ".join(cycle or [])


def test_the_cycle_finder_finds_a_cycle() -> None:
    assert find_cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert find_cycle({"a": {"b"}, "b": set()}) is None


@pytest.mark.parametrize("path", sorted(RULES.rglob("*.py")), ids=lambda p: module_name(p))
def test_no_import_inside_a_function(path: Path) -> None:
    tree = ast.parse(path.read_text(), filename=str(path))
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda):
            for inner in ast.walk(node):
                assert not isinstance(inner, ast.Import | ast.ImportFrom), (
                    f"{module_name(path)}:{inner.lineno} imports inside {getattr(node, 'name', 'a lambda')}"
                )


ENGINE_FILES = sorted(p for d in ENGINE for p in d.rglob("*.py"))


@pytest.mark.parametrize("path", ENGINE_FILES, ids=lambda p: module_name(p))
def test_the_engine_imports_no_service_broker_store_or_web_framework(path: Path) -> None:
    tree = ast.parse(path.read_text(), filename=str(path))
    for node in ast.walk(tree):  # every import, even one for type checkers only
        names: list[str] = []
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and not node.level:
            names = [node.module or ""]
        for name in names:
            assert name.split(".")[0] not in OFF_LIMITS, f"{module_name(path)} imports {name}"
