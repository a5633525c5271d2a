"""The house drawn from imports: across the whole product (the contract, the shared package, the
typed client, the services and the tools) no module imports itself back through others, and no
import points back up the layers:

0. ``gcbc_contract``: the public types;
1. ``gcbc`` (the engine, the ports and their adapters) and ``gcbc_client`` (the typed client);
2. ``services.common``: what the services share;
3. ``services.<name>``: each service (``test_service_structure``: none imports another);
4. ``tools``: the bench, load and chaos tools.

Every import counts, one inside a function too (a composition root's): it runs sooner or later.
``test_structure`` holds the finer rules of the engine's own modules."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from tests.unit.test_structure import find_cycle

ROOT = Path(__file__).resolve().parents[2]
# each top-level package, and the folder it is found in
HOMES = {
    "gcbc_contract": ROOT / "clients/contract",
    "gcbc": ROOT / "shared",
    "gcbc_client": ROOT / "clients/python",
    "services": ROOT,
    "tools": ROOT,
}


def _modules() -> dict[str, Path]:
    out = {}
    for top, home in HOMES.items():
        for path in sorted((home / top).rglob("*.py")):
            parts = path.relative_to(home).with_suffix("").parts
            out[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    return out


MODULES = _modules()


def _ours(name: str) -> str | None:
    """The product module an imported name is in (a name from a package: the package), if any."""
    while name and name not in MODULES:
        name = name.rpartition(".")[0]
    return name or None


def _imports(name: str, path: Path) -> set[str]:
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    named: list[str] = []
    for node in ast.walk(ast.parse(path.read_text(), filename=str(path))):
        if isinstance(node, ast.Import):
            named += [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*parts, *([base] if base else [])])
            named += [f"{base}.{alias.name}" for alias in node.names]
    return {m for m in map(_ours, named) if m is not None and m != name}


GRAPH = {name: _imports(name, path) for name, path in MODULES.items()}


def layer(module: str) -> int:
    top = module.split(".")[0]
    if top == "gcbc_contract":
        return 0
    if top in ("gcbc", "gcbc_client"):
        return 1
    if top == "services":
        return 2 if module.split(".")[1:2] in (["common"], []) else 3
    return 4


def test_every_package_is_found() -> None:
    tops = {m.split(".")[0] for m in GRAPH}
    assert tops == set(HOMES)
    assert "services.table.app" in GRAPH["services.table.__main__"]
    assert "gcbc.eventlog.jetstream" in GRAPH["services.table.app"]  # a composition root's


def test_no_import_cycle_in_the_product() -> None:
    cycle = find_cycle(GRAPH)
    assert cycle is None, "import cycle: " + " -> ".join(cycle or [])


@pytest.mark.parametrize("top", sorted(HOMES))
def test_no_import_points_back_up(top: str) -> None:
    up = [
        f"{a} ({layer(a)}) -> {b} ({layer(b)})"
        for a, imported in GRAPH.items()
        if a.split(".")[0] == top
        for b in sorted(imported)
        if layer(b) > layer(a)
    ]
    assert not up, "imports back up the layers: " + "; ".join(up)


def test_the_client_and_the_engine_know_nothing_of_each_other() -> None:
    """The typed client installs alone (its package needs only the contract), and the engine and
    its adapters never call the public API through it."""
    crossing = [
        f"{a} -> {b}"
        for a, imported in GRAPH.items()
        for b in imported
        if {a.split(".")[0], b.split(".")[0]} == {"gcbc", "gcbc_client"}
    ]
    assert not crossing, crossing


def test_the_layers_are_told_apart() -> None:
    assert [layer(m) for m in ("gcbc_contract.views", "gcbc.rules", "services.common.folded")] == [
        0,
        1,
        2,
    ]
    assert [layer(m) for m in ("services.table.app", "tools.bench.cli")] == [3, 4]
