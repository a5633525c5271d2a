"""Integers a JavaScript number cannot hold are strings in the API (docs/api.md, "Seeds"): a table
opened with a seed past 2^53, given as a string, shows it whole as a string in its history, its
views' logs and its replays once the game is over, while the event log keeps the integer."""

from __future__ import annotations

import asyncio

import pytest

from gcbc_contract.events import AllRevealed, GameStarted, TableOpened
from tests.e2e.audit import log_events
from tools.demo import play_table

pytestmark = pytest.mark.timeout(300)
SEED = 2**62 + 1  # past 2^53: a JavaScript number would round it


def test_a_seed_past_2_53_goes_in_and_comes_out_as_a_string(stack, http):
    table_id = asyncio.run(play_table(stack.api, 4, "random", seed=2, table_seed=str(SEED)))
    history = http.get(f"/tables/{table_id}/history").json()["events"]
    seeds = {e["type"]: e["random_seed"] for e in history if "random_seed" in e}
    assert seeds == dict.fromkeys(("table_opened", "game_started", "all_revealed"), str(SEED))
    view = http.get(f"/tables/{table_id}").json()
    assert view["status"] == "finished"
    revealed = [e for e in view["log"] if e["type"] == "all_revealed"]
    assert revealed and revealed[0]["random_seed"] == str(SEED)
    replay = http.get(f"/tables/{table_id}/replay", params={"step": 10_000, "seat": 1}).json()
    shown = {e["type"]: e["random_seed"] for e in replay["view"]["log"] if "random_seed" in e}
    assert shown["all_revealed"] == str(SEED) and set(shown.values()) == {str(SEED)}
    # the log keeps its integers: stored entries do not change form
    stored = [e for e in log_events(stack.nats_url, table_id) if hasattr(e, "random_seed")]
    assert [type(e) for e in stored] == [TableOpened, GameStarted, AllRevealed]
    assert {e.random_seed for e in stored} == {SEED}


def test_a_seed_is_digits_or_as_before_an_integer(http):
    assert http.post("/tables", json={"seats": 4, "seed": 7}).status_code == 201
    assert http.post("/tables", json={"seats": 4, "seed": "7"}).status_code == 201
    for bad in ("-7", "7.0", "0x7", "", str(2**63), -7, 2**63):
        r = http.post("/tables", json={"seats": 4, "seed": bad})
        assert (r.status_code, r.json()["code"], r.json().get("field")) == (
            422,
            "invalid_body",
            "seed",
        ), bad
