"""The typed client installs without the server: the contract (clients/contract) and the client
(clients/python), each built as a wheel from its own folder, installed into a fresh virtual
environment with the repository's pins, hold nothing of the server, and bots play a whole table
through them against the real services (``lone_client_bot.py``)."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PROJECTS = ("clients/contract", "clients/python")
SERVER_ONLY = ("gcbc", "litestar", "nats", "redis", "uvicorn", "hiredis", "limits")
# what the venv brings itself, and the two wheels under test: not the pins' business
OURS = {"gcbc-contract", "gcbc-client", "pip", "setuptools"}


def run(*args: object, timeout: float, cwd: Path | None = None) -> str:
    done = subprocess.run(
        [str(a) for a in args], capture_output=True, text=True, timeout=timeout, cwd=cwd
    )
    assert done.returncode == 0, f"{args}:\n{done.stdout}\n{done.stderr}"
    return done.stdout


def normalized(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


@pytest.fixture(scope="module")
def lone_python(tmp_path_factory) -> Path:
    """The python of a fresh virtual environment holding the two wheels and their dependencies
    (pip's cache is reused, so only the first run downloads)."""
    tmp = tmp_path_factory.mktemp("client-alone")
    # each project is copied alone: it builds from its own folder, leaving no build/ in the repo
    sources = []
    for project in PROJECTS:
        sources.append(tmp / "src" / Path(project).name)
        shutil.copytree(
            ROOT / project,
            sources[-1],
            ignore=shutil.ignore_patterns("build", "dist", "*.egg-info", "__pycache__"),
        )
    wheels = tmp / "wheels"
    run(
        sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "-w", wheels, *sources, timeout=300
    )
    built = sorted(wheels.glob("*.whl"))
    assert [w.name.split("-")[0] for w in built] == ["gcbc_client", "gcbc_contract"]
    venv = tmp / "venv"
    run(sys.executable, "-m", "venv", venv, timeout=120)
    python = venv / "bin" / "python"
    run(python, "-m", "pip", "install", "-q", "-c", ROOT / "constraints.txt", *built, timeout=300)
    return python


def test_the_two_wheels_install_nothing_of_the_server(lone_python):
    code = (
        "import importlib.util, json\n"
        f"print(json.dumps([m for m in {SERVER_ONLY!r} if importlib.util.find_spec(m)]))\n"
    )
    assert json.loads(run(lone_python, "-I", "-c", code, timeout=60)) == []
    run(lone_python, "-I", "-c", "import gcbc_client, gcbc_contract.views", timeout=60)


def test_every_package_installed_is_pinned_by_the_constraints(lone_python):
    pins = {}
    for line in (ROOT / "constraints.txt").read_text().splitlines():
        if line and not line.startswith("#"):
            name, version = line.split("==")
            pins[normalized(name)] = version
    code = (
        "import importlib.metadata as m, json\n"
        "print(json.dumps({d.metadata['Name']: d.version for d in m.distributions()}))\n"
    )
    installed = {
        normalized(k): v
        for k, v in json.loads(run(lone_python, "-I", "-c", code, timeout=60)).items()
    }
    assert {"gcbc-contract", "gcbc-client", "msgspec", "httpx"} <= set(installed)
    unpinned = {k: v for k, v in installed.items() if k not in OURS and pins.get(k) != v}
    assert not unpinned, f"installed but not pinned so in constraints.txt: {unpinned}"


def test_bots_play_a_whole_table_through_the_lone_client(lone_python, stack, tmp_path):
    bot = ROOT / "tests" / "e2e" / "lone_client_bot.py"
    out = run(lone_python, "-I", bot, stack.api, 7, timeout=120, cwd=tmp_path)
    played = json.loads(out.splitlines()[-1])
    assert played["status"] == "finished", played
    assert played["winners"] and played["commands"] > 0 and played["history_events"] > 0
    venv = lone_python.parent.parent
    for module, file in played["modules"].items():
        assert Path(file).is_relative_to(venv), f"{module} from {file}, not the lone venv"
    assert played["server_modules"] == []
