"""The typed client's helpers for bot authors: legal commands as typed commands ready to send (a
template filled by ``filled``), a play loop that acts only on the latest view and looks again
after a 409 from a stale one, a seat attached from its saved token, and log entries and commands
that say their ``type``."""

from __future__ import annotations

import asyncio
import random
import re
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from gcbc_client import AsyncClient, Client, filled
from gcbc_client.problems import Forbidden

from gcbc_contract import commands as C
from gcbc_contract.views import View


def _random(rng: random.Random):
    def decide(v: View):
        return rng.choice(v.legal_commands)

    return decide


def test_seats_playing_with_the_play_loop_finish_the_game(stack):
    """Four seats, each in its own thread with its own loop (two by long polls, two by their
    streams), race for the same windows: the 409s of stale views are looked at again."""
    with Client(stack.api) as client:
        table = client.create_table(4)
        seats = [client.join(table.table_id, f"loop{i}") for i in range(4)]
        seats[0].start()
        finals: dict[int, View] = {}
        failures: dict[int, BaseException] = {}

        def play(i: int) -> None:
            try:
                finals[i] = seats[i].play(_random(random.Random(i)), stream=i % 2 == 1, wait=5)
            except BaseException as e:  # noqa: BLE001 (named in the assertion below)
                failures[i] = e

        threads = [threading.Thread(target=play, args=(i,)) for i in range(4)]
        for t in threads:
            t.start()
        for t in threads:
            t.join(timeout=240)
        assert sorted(finals) == [0, 1, 2, 3], f"seats that did not finish: {failures!r}"
        assert all(v.status == "finished" for v in finals.values())
        assert finals[0].winners is not None
        entries = client.history(table.table_id).events
        assert entries


def test_an_async_play_loop_finishes_the_game_with_house_bots(stack):
    async def go() -> View:
        async with AsyncClient(stack.api, timeout=60) as client:
            table = await client.create_table(
                4, bots={"seats": [1, 2, 3], "kind": "random", "think": 0}
            )
            me = await client.join(table.table_id, "me")
            await me.start()
            rng = random.Random(2)

            async def decide(v: View):
                await asyncio.sleep(0)
                return rng.choice(v.legal_commands)

            return await me.play(decide)

    final = asyncio.run(go())
    assert final.status == "finished" and final.winners is not None
    assert {e.type for e in final.log} >= {"turn_began"}
    assert all(isinstance(e.type, str) for e in final.log)


def test_a_seat_is_attached_from_its_saved_token(stack):
    with Client(stack.api) as client:
        table = client.create_table(4)
        ann = client.join(table.table_id, "ann")
        bea = client.join(table.table_id, "bea")
    with Client(stack.api) as elsewhere:  # another process, another device
        again = elsewhere.attach(table.table_id, bea.token)
        assert again.seat == bea.seat == 1 and again.view().you.seat == 1
        with pytest.raises(Forbidden):
            elsewhere.attach(table.table_id, "not-a-token-" + ann.token[:8])


def test_legal_commands_are_typed_commands_ready_to_send(stack):
    with Client(stack.api) as client:
        table = client.create_table(4)
        seats = [client.join(table.table_id, f"t{i}") for i in range(4)]
        seats[0].start()
        v = seats[0].view()
        assert v.must_act and v.legal_commands
        arrange = v.legal_commands[0]
        assert arrange.type == "arrange" and isinstance(arrange, C.CLIENT_COMMANDS[C.Arrange])
        assert [c.type for c in v.seat_commands] == ["set_auto_pass"]
        answer = seats[0].send(arrange)  # as listed
        assert isinstance(answer, View) and not answer.must_act


def test_a_template_is_filled_before_it_is_sent():
    template = C.PlayEquipmentOffered(
        card="metal_detector", targets=(0, 1), choose={"positions": [[1, 2], [3]]}
    )
    play = filled(template, pick=lambda values: values[-1])
    assert play == C.CLIENT_COMMANDS[C.PlayEquipment](
        card="metal_detector", targets=(0, 1), positions=(2, 3)
    )
    assert play.type == "play_equipment" and filled(play) is play
    from gcbc_client._core import command_body

    with pytest.raises(ValueError, match="template"):
        command_body(template, None)


def test_the_readmes_bots_play_a_whole_game(stack, tmp_path):
    """Each bot of the client's README, as printed there (the server's address aside), plays a
    game to its end in under twenty lines."""
    readme = (Path(__file__).parents[2] / "clients/python/README.md").read_text()
    part = readme.split("## A bot in twenty lines", 1)[1].split("\n## ", 1)[0]
    bots = re.findall(r"```python\n(.*?)```", part, re.S)
    assert len(bots) == 2
    for i, code in enumerate(bots):
        assert len(code.strip().splitlines()) < 20
        script = tmp_path / f"bot{i}.py"
        script.write_text(code.replace("http://127.0.0.1:8000", stack.api))
        done = subprocess.run(
            [sys.executable, str(script)], capture_output=True, text=True, timeout=180
        )
        assert done.returncode == 0, done.stderr[-2000:]
        assert done.stdout.split()[0] in ("honest", "crooked", "solo"), done.stdout


def test_a_seat_may_say_a_program_plays_it_and_everyone_sees_it(stack):
    with Client(stack.api) as client:
        table = client.create_table(4, bots={"seats": [3], "think": 0})
        ann = client.join(table.table_id, "ann")
        robo = client.join(table.table_id, "robo", bot=True)
        client.join(table.table_id, "cy")
        for v in (ann.view(), robo.view(), client.table(table.table_id)):
            assert [s.bot for s in v.seats] == [False, True, False, True]
        log = client.table(table.table_id).log
        taken = [e for e in log if e.type == "seat_taken"]
        assert [e["bot"] for e in taken if e["name"] == "robo"] == [True]


def test_a_bot_waits_for_a_table_on_the_lobby_stream(stack):
    """The lobby's changes come as events: a table listed, its seats taken, filled, started."""
    with Client(stack.api) as client:
        seen: list[tuple[str, int | None]] = []
        ready = threading.Event()
        table_id: list[str] = []

        def follow() -> None:
            with Client(stack.api) as watcher:
                for event in watcher.lobby():
                    ready.set()
                    if table_id and event.table_id == table_id[0]:
                        taken = event.listing.taken if event.listing else None
                        seen.append((event.type, taken))
                        if event.type == "started":
                            return

        thread = threading.Thread(target=follow, daemon=True)
        thread.start()
        table = client.create_table(4)  # (the stream lists what waits now, then each change)
        table_id.append(table.table_id)
        ready.wait(10)
        seats = []
        for i in range(4):  # apart: the lobby is read about twice a second
            seats.append(client.join(table.table_id, f"w{i}"))
            time.sleep(1.2)
        seats[0].start()
        thread.join(timeout=30)
        assert not thread.is_alive(), seen
        assert seen[-1] == ("started", None)
        assert seen[:-1] == [("listed", 0), ("seats", 1), ("seats", 2), ("seats", 3), ("filled", 4)]
