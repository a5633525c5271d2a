"""deploy/: the containers' NATS authorization is the one make run and the tests use (generated
from tools.devservers), and nats-server takes it with passwords from the environment."""

from __future__ import annotations

import asyncio
import os
import shutil
from pathlib import Path

import nats
import pytest

from tools import devservers

ROOT = Path(__file__).resolve().parents[2]
AUTH = ROOT / "deploy" / "nats" / "auth.conf"


def _without_comments(text: str) -> str:
    return "".join(line for line in text.splitlines(True) if not line.startswith("#"))


def test_the_committed_authorization_is_the_generated_one():
    variables = {u: f"$GCBC_NATS_{u.upper()}_PASSWORD" for u in devservers.USERS}
    assert _without_comments(AUTH.read_text()) == devservers.nats_authorization(variables)


def test_nats_server_takes_it_with_passwords_from_the_environment(tmp_path: Path):
    port = devservers.free_port()
    shutil.copy(AUTH, tmp_path / "auth.conf")
    conf = tmp_path / "node.conf"
    conf.write_text(
        f'listen: 127.0.0.1:{port}\njetstream {{ store_dir: "{tmp_path / "js"}" }}\n'
        "include auth.conf\n"
    )
    env = {**os.environ, **{f"GCBC_NATS_{u.upper()}_PASSWORD": f"pw-{u}" for u in devservers.USERS}}
    server = devservers.ServerProcess(
        "nats", [devservers.nats_server_binary(), "-c", str(conf)], {}, port, tmp_path / "log", env
    )

    async def go() -> None:
        nc = await nats.connect(
            f"nats://table:pw-table@127.0.0.1:{port}",
            allow_reconnect=False,
            inbox_prefix="_INBOX_table",  # its replies come on its own inbox only
        )
        js = nc.jetstream()
        await js.add_stream(name="GCBC_TABLES", subjects=["gcbc.table.*.*.*"])
        assert (await js.publish("gcbc.table.3.abc.c", b"x")).seq == 1
        await nc.close()
        with pytest.raises(nats.errors.Error, match="Authorization Violation"):
            await nats.connect(f"nats://table:wrong@127.0.0.1:{port}", allow_reconnect=False)

    try:
        asyncio.run(go())
    finally:
        server.stop()


def test_the_image_installs_every_package_the_services_import():
    """The services' image holds what they import: the contract is a distribution of its own, and
    the bot worker plays through the typed client, so the image installs clients/contract and
    clients/python too (the client found missing once)."""
    dockerfile = (ROOT / "deploy" / "Dockerfile").read_text()
    imports_client = any(
        "gcbc_client" in path.read_text() for path in (ROOT / "services").rglob("*.py")
    )
    assert imports_client  # (else this test has nothing left to check)
    installed = dockerfile.split("RUN pip install", 1)[1].splitlines()[0]
    for project in ("clients/contract", "clients/python"):
        assert f"COPY {project} ./{project}" in dockerfile
        assert f"./{project}" in installed
