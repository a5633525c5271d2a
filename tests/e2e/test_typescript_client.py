"""TypeScript types generated from /schema/openapi.json by a standard generator (openapi-typescript,
pinned in clients/typescript) come with no warning, and a bot written on them (type-checked by
tsc, run by Node) plays a whole game against the server."""

from __future__ import annotations

import json
import secrets
import shutil
import subprocess
from pathlib import Path

import httpx

TYPESCRIPT = Path(__file__).resolve().parents[2] / "clients" / "typescript"
BIN = TYPESCRIPT / "node_modules" / ".bin"


def _run(*args: str | Path, cwd: Path, timeout: float = 300) -> str:
    done = subprocess.run(
        [str(a) for a in args], cwd=cwd, capture_output=True, text=True, timeout=timeout
    )
    out = done.stdout + done.stderr
    assert done.returncode == 0, out
    return out


def test_generated_typescript_types_play_a_game(stack, tmp_path):
    assert (BIN / "openapi-typescript").exists(), "run make setup (npm ci in clients/typescript)"
    schema = tmp_path / "openapi.json"
    schema.write_bytes(httpx.get(f"{stack.api}/schema/openapi.json").content)
    for name in ("package.json", "tsconfig.json", "src"):
        source = TYPESCRIPT / name
        copy = shutil.copytree if source.is_dir() else shutil.copy
        copy(source, tmp_path / name)
    generated = _run(
        BIN / "openapi-typescript",
        schema,
        # a field with a default is one a client may leave out (the generator's default makes
        # it required in request bodies too)
        "--default-non-nullable",
        "false",
        "-o",
        tmp_path / "src" / "schema.d.ts",
        cwd=tmp_path,
    )
    assert "warn" not in generated.lower() and "error" not in generated.lower(), generated
    _run(BIN / "tsc", "-p", tmp_path, cwd=tmp_path)
    # the server deals each table at random and a game may end after a few commands: tables
    # are played until the bot has sent more than 20 commands
    sent = 0
    for seed in range(7, 13):
        out = _run(
            "node", tmp_path / "dist" / "bot.js", stack.api, str(seed), cwd=tmp_path, timeout=600
        )
        result = json.loads(out.strip().splitlines()[-1])
        assert result["status"] == "finished", result
        assert result["winners"], result
        sent += result["sent"]
        if sent > 20:
            break
    assert sent > 20
    # a player's games exported, each line typed as the document names it (none yet: no line)
    player = httpx.post(f"{stack.api}/players", json={"name": f"ts{secrets.token_hex(4)}"}).json()
    out = _run("node", tmp_path / "dist" / "games.js", stack.api, player["player_id"], cwd=tmp_path)
    assert json.loads(out.strip().splitlines()[-1]) == {"games": 0, "tables": []}
