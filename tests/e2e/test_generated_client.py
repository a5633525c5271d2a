"""A client generated from /schema/openapi.json by a standard generator (openapi-python-client)
reads the server's real answers into its typed models (a schema that tells the truth):
it creates a table, takes the seats, starts, plays commands from `legal_commands` and reads every
view and the lobby, with no answer it cannot parse."""

from __future__ import annotations

import importlib
import json
import os
import random
import subprocess
import sys
from pathlib import Path

import httpx

NDJSON = "application/x-ndjson"
COMMAND_MODELS = {
    "arrange": "Arrange",
    "investigate": "Investigate",
    "equip": "Equip",
    "arm": "Arm",
    "shoot": "Shoot",
    "bite": "Bite",
    "aim": "Aim",
    "play_equipment": "PlayEquipment",
    "pass": "Pass",
    "choose": "Choose",
    "discard": "Discard",
    "set_auto_pass": "SetAutoPass",
    "resume": "Resume",
}


def test_a_generated_client_reads_every_answer(stack, tmp_path, monkeypatch):
    schema = tmp_path / "openapi.json"
    schema.write_bytes(httpx.get(f"{stack.api}/schema/openapi.json").content)
    # JSON lines (a player's games exported, the schema one line's) are a media type this
    # generator knows nothing of: told to take them as bytes, as its documentation says to
    config = tmp_path / "config.json"
    config.write_text(json.dumps({"content_type_overrides": {NDJSON: "application/octet-stream"}}))
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "openapi_python_client",
            "generate",
            "--path",
            str(schema),
            "--meta",
            "none",
            "--output-path",
            str(tmp_path / "generated"),
            "--overwrite",
            "--config",
            str(config),
        ],
        capture_output=True,
        text=True,
        timeout=300,
        # its post-hook runs ruff: the venv's own, found first on PATH
        env={
            **os.environ,
            "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}",
        },
    )
    assert (tmp_path / "generated" / "client.py").exists(), done.stdout + done.stderr
    # the schema generates cleanly: no warning of a type it could not read, no failed post-hook
    assert "warning" not in (done.stdout + done.stderr).lower(), done.stdout + done.stderr
    assert done.returncode == 0, done.stdout + done.stderr
    monkeypatch.syspath_prepend(str(tmp_path))
    gen = importlib.import_module("generated")
    client = importlib.import_module("generated.client")
    models = importlib.import_module("generated.models")

    def op(tag: str, name: str):
        return importlib.import_module(f"generated.api.{tag}.{name}")

    anyone = client.Client(base_url=stack.api, raise_on_unexpected_status=True)
    listed = op("lobby", "list_tables").sync(client=anyone)
    assert isinstance(listed, list)
    rng = random.Random(5)

    def play_one_table() -> int:
        """Plays random legal commands at a new table until it ends; the number sent."""
        table = op("lobby", "create_table").sync(client=anyone, body=models.CreateTable(seats=4))
        assert type(table).__name__ == "TableCreated"
        seats = []
        for i in range(4):
            got = op("seats", "take_seat").sync(
                table.table_id, client=anyone, body=models.TakeSeat(name=f"gen{i}")
            )
            assert type(got).__name__ == "SeatGranted" and got.seat == i
            seats.append(
                client.AuthenticatedClient(
                    base_url=stack.api, token=got.token, raise_on_unexpected_status=True
                )
            )
        started = op("seats", "start_game").sync(table.table_id, client=seats[0])
        assert type(started).__name__ == "View"
        sent = 0
        for step in range(400):
            i = step % 4
            view = op("views", "seat_view").sync(table.table_id, client=seats[i])
            assert type(view).__name__ == "View"
            if view.status == "finished":
                break
            mine = [c.to_dict() for c in view.legal_commands]
            mine = [c for c in mine if "choose" not in c]
            if not mine or not any(w.seat == i for w in view.waiting_for):
                continue
            command = rng.choice(mine)
            body = getattr(models, COMMAND_MODELS[command["type"]]).from_dict(command)
            answer = op("play", "send_command").sync_detailed(
                table.table_id, client=seats[i], body=body
            )
            sent += 1
            assert answer.status_code in (200, 202, 409), answer.content
            if answer.status_code == 200:
                assert type(answer.parsed).__name__ == "View"
            else:
                assert answer.parsed is not None  # a Position or a Problem, parsed
        public = op("views", "public_view").sync(table.table_id, client=anyone)
        assert type(public).__name__ == "View"
        return sent

    # The server deals each table at random, and a game can end after a handful of shots: tables
    # are played until enough answers have been read.
    sent = 0
    for _ in range(6):
        sent += play_one_table()
        if sent > 20:
            break
    assert sent > 20
    del gen
