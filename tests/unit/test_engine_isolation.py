"""The engine is pure (RULES-independent architecture rule): ``gcbc.rules`` and ``gcbc_contract``
import no service, broker, store, web framework, clock, randomness, thread or socket module, and
nothing of ``gcbc`` outside themselves."""

from __future__ import annotations

import ast
import json
import subprocess
import sys
from pathlib import Path

import pytest

import gcbc

FORBIDDEN = frozenset(
    {"services", "nats", "redis", "litestar", "asyncio", "time", "random", "threading", "socket"}
)
ENGINE_PACKAGES = ("rules", "contract")
ROOT = Path(gcbc.__file__).resolve().parent
FILES = sorted(p for pkg in ENGINE_PACKAGES for p in (ROOT / pkg).rglob("*.py"))


def imported_modules(path: Path) -> list[str]:
    """Every module a file imports (absolute names; relative imports resolved)."""
    tree = ast.parse(path.read_text(), filename=str(path))
    package = ".".join(("gcbc", *path.relative_to(ROOT).with_suffix("").parts[:-1]))
    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out += [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[: len(base) - node.level + 1]
                module = ".".join([*base, node.module] if node.module else base)
            else:
                module = node.module or ""
            out.append(module)
            out += [f"{module}.{alias.name}" for alias in node.names]
        elif isinstance(node, ast.Call):
            f = node.func
            name = (
                f.id if isinstance(f, ast.Name) else f.attr if isinstance(f, ast.Attribute) else ""
            )
            if name in ("__import__", "import_module"):
                out.append("<dynamic import>")
    return out


def test_engine_files_found() -> None:
    assert len(FILES) > 10
    assert {p.relative_to(ROOT).parts[0] for p in FILES} == set(ENGINE_PACKAGES)


@pytest.mark.parametrize("path", FILES, ids=lambda p: str(p.relative_to(ROOT)))
def test_engine_file_imports_nothing_impure(path: Path) -> None:
    for module in imported_modules(path):
        top = module.split(".")[0]
        assert module != "<dynamic import>", f"{path.name}: dynamic import"
        assert top not in FORBIDDEN, f"{path.name} imports {module}"
        if top == "gcbc":
            parts = module.split(".")
            assert len(parts) == 1 or parts[1] in ENGINE_PACKAGES, (
                f"{path.name} imports {module}: outside gcbc.rules / gcbc_contract"
            )


def test_importing_the_engine_loads_no_service_module() -> None:
    code = (
        "import sys, json\n"
        "import gcbc.rules, gcbc_contract.codec, gcbc_contract.views\n"
        "print(json.dumps(sorted(sys.modules)))\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        check=True,
        timeout=60,
        cwd=ROOT.parent,
    )
    loaded = json.loads(out.stdout)
    tops = {m.split(".")[0] for m in loaded}
    assert not tops & {"nats", "redis", "litestar", "services"}, sorted(
        tops & {"nats", "redis", "litestar", "services"}
    )
    ours = [m for m in loaded if m.split(".")[0] == "gcbc"]
    assert "gcbc.rules" in ours
    stray = [m for m in ours if m != "gcbc" and m.split(".")[1] not in ENGINE_PACKAGES]
    assert not stray, f"importing the engine loads {stray}"
