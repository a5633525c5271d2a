"""The architecture, enforced: no service imports another service (they share only
``services.common``); ``nats`` and ``redis`` are imported only by the adapters and by each
service's composition root (``main_async``/``create_app``); tools are not imported by services."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SERVICES = ROOT / "services"
SERVICE_NAMES = ("table", "rules", "projection", "ops")
ADAPTERS = {
    *(ROOT / "shared/gcbc/eventlog/jetstream").glob("*.py"),
    ROOT / "shared/gcbc/eventlog/jetstream_leases.py",
    ROOT / "shared/gcbc/readmodel/redis.py",
    ROOT / "shared/gcbc/readmodel/rediscluster.py",
    ROOT / "shared/gcbc/readmodel/pipelined.py",
    ROOT / "shared/gcbc/readmodel/redisbase.py",
    ROOT / "shared/gcbc/readmodel/wakeups.py",
    ROOT / "shared/gcbc/readmodel/clusterwakeups.py",
    ROOT / "shared/gcbc/keyvalue/jetstream.py",
    ROOT / "shared/gcbc/playermodel/redis.py",
}
COMPOSITION_ROOTS = {"main_async", "create_app", "main"}
DRIVERS = ("nats", "redis")
PRODUCTION = sorted(
    p
    for d in (SERVICES, ROOT / "shared/gcbc", ROOT / "clients/contract/gcbc_contract")
    for p in d.rglob("*.py")
    if ".venv" not in p.parts
)


def imports(path: Path) -> list[tuple[str, str | None]]:
    """(module, the function it is imported in, or None at module level)."""
    tree = ast.parse(path.read_text(), filename=str(path))
    out: list[tuple[str, str | None]] = []

    def visit(node: ast.AST, function: str | None) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef):
                visit(child, function or child.name)
            elif isinstance(child, ast.Import):
                out.extend((alias.name, function) for alias in child.names)
            elif isinstance(child, ast.ImportFrom) and not child.level:
                out.append((child.module or "", function))
            else:
                visit(child, function)

    visit(tree, None)
    return out


def service_of(path: Path) -> str | None:
    parts = path.relative_to(ROOT).parts
    return parts[1] if parts[0] == "services" and parts[1] in SERVICE_NAMES else None


@pytest.mark.parametrize("path", PRODUCTION, ids=lambda p: str(p.relative_to(ROOT)))
def test_no_service_imports_another_and_nothing_imports_the_tools(path: Path):
    mine = service_of(path)
    for module, _ in imports(path):
        assert not module.startswith("tools"), f"{path}: imports the tools ({module})"
        parts = module.split(".")
        if parts[0] == "services" and len(parts) > 1 and parts[1] in SERVICE_NAMES:
            assert parts[1] == mine, f"{path} ({mine}) imports another service: {module}"


@pytest.mark.parametrize("path", PRODUCTION, ids=lambda p: str(p.relative_to(ROOT)))
def test_nats_and_redis_only_in_adapters_and_composition_roots(path: Path):
    for module, function in imports(path):
        if module.split(".")[0] not in DRIVERS:
            continue
        assert path in ADAPTERS or function in COMPOSITION_ROOTS, (
            f"{path} imports {module} outside an adapter or a composition root"
        )


def test_the_adapters_are_imported_only_by_composition_roots():
    """The services work through the ports; only a composition root picks the adapters."""
    adapters = (
        "gcbc.eventlog.jetstream",
        *(
            f"gcbc.eventlog.jetstream.{p.stem}"
            for p in (ROOT / "shared/gcbc/eventlog/jetstream").glob("*.py")
        ),
        "gcbc.eventlog.jetstream_leases",
        "gcbc.readmodel.redis",
        "gcbc.readmodel.rediscluster",
        "gcbc.readmodel.pipelined",
        "gcbc.readmodel.redisbase",
        "gcbc.readmodel.wakeups",
        "gcbc.readmodel.clusterwakeups",
        "gcbc.keyvalue.jetstream",
    )
    for path in PRODUCTION:
        if path in ADAPTERS:
            continue
        for module, function in imports(path):
            if module in adapters:
                assert function in COMPOSITION_ROOTS, (
                    f"{path} imports {module} outside a composition root"
                )
