"""The engine is pure (RULES-independent architecture rule): ``gcbc.rules`` and ``gcbc_contract``
import no service, broker, store, web framework, clock, randomness, thread or socket module, and
nothing of ``gcbc`` outside themselves; the contract, a distribution of its own, imports nothing of
``gcbc`` at all and nothing but the standard library and msgspec."""

from __future__ import annotations

import ast
import json
import subprocess
import sys
from pathlib import Path

import pytest

import gcbc
import gcbc_contract

FORBIDDEN = frozenset(
    {"services", "nats", "redis", "litestar", "asyncio", "time", "random", "threading", "socket"}
)
ENGINE_PACKAGES = ("rules",)
ROOT = Path(gcbc.__file__).resolve().parent
CONTRACT = Path(gcbc_contract.__file__).resolve().parent
RULES_FILES = sorted(p for pkg in ENGINE_PACKAGES for p in (ROOT / pkg).rglob("*.py"))
CONTRACT_FILES = sorted(CONTRACT.rglob("*.py"))
FILES = RULES_FILES + CONTRACT_FILES
# what the contract's distribution installs with it (clients/contract/pyproject.toml)
CONTRACT_NEEDS = frozenset({"gcbc_contract", "msgspec", *sys.stdlib_module_names})


def package_of(path: Path) -> str:
    """The dotted package a file is in (``gcbc.rules.actions``, ``gcbc_contract``)."""
    if path.is_relative_to(CONTRACT):
        return ".".join(("gcbc_contract", *path.relative_to(CONTRACT).with_suffix("").parts[:-1]))
    return ".".join(("gcbc", *path.relative_to(ROOT).with_suffix("").parts[:-1]))


def file_id(path: Path) -> str:
    return str(path.relative_to(CONTRACT.parent if path.is_relative_to(CONTRACT) else ROOT))


def imported_modules(path: Path) -> list[str]:
    """Every module a file imports (absolute names; relative imports resolved)."""
    tree = ast.parse(path.read_text(), filename=str(path))
    package = package_of(path)
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
    assert len(RULES_FILES) > 10 and len(CONTRACT_FILES) > 10
    assert {p.relative_to(ROOT).parts[0] for p in RULES_FILES} == set(ENGINE_PACKAGES)


@pytest.mark.parametrize("path", FILES, ids=file_id)
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


@pytest.mark.parametrize("path", CONTRACT_FILES, ids=file_id)
def test_the_contract_needs_only_msgspec(path: Path) -> None:
    for module in imported_modules(path):
        top = module.split(".")[0]
        assert top in CONTRACT_NEEDS, f"{path.name} imports {module}: not msgspec or stdlib"


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
    assert "gcbc.rules" in ours and "gcbc_contract.views" in loaded
    stray = [m for m in ours if m != "gcbc" and m.split(".")[1] not in ENGINE_PACKAGES]
    assert not stray, f"importing the engine loads {stray}"
