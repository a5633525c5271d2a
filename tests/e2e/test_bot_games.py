"""Whole games over HTTP (DESIGN properties 1 and 3): bot tables, with every combination of the
table options (make bench; make test plays a third of them, spread over the combinations), play
to the end concurrently;
each seat's final view is the engine's view of the folded log; the history matches; and every
response a seat received revealed only what that seat had learned (an independent oracle)."""

from __future__ import annotations

import asyncio
from collections import defaultdict

import httpx
import msgspec
import pytest

from gcbc.rules import fold, view
from gcbc_contract.http import AnyShownEvent, recorded_event
from gcbc_contract.views import View
from services.common.settings import LOG_LIMIT
from tests.e2e.audit import check_response
from tests.property.strategies import OPTION_SETS
from tools.demo import play_table

# make bench: one table per combination of the options (both wound placements)
TABLES = [11, pytest.param(len(OPTION_SETS), marks=pytest.mark.slow)]
_history = msgspec.json.Decoder(dict[str, msgspec.Raw])
_events = msgspec.json.Decoder(list[AnyShownEvent])
_view = msgspec.json.Decoder(View)


def history_events(http: httpx.Client, table_id: str) -> list:
    r = http.get(f"/tables/{table_id}/history")
    assert r.status_code == 200, r.text
    return [recorded_event(e) for e in _events.decode(_history.decode(r.content)["events"])]


def options_of(i: int, tables: int):
    """Table ``i``'s options: ``tables`` tables spread evenly over the combinations."""
    return OPTION_SETS[i * len(OPTION_SETS) // tables]


@pytest.mark.parametrize("tables", TABLES)
def test_tables_of_bots_play_to_the_end(stack, tables):
    responses: dict[int, list[tuple[int | None, str, int, bytes]]] = defaultdict(list)

    def recorder(i):
        return lambda seat, what, status, body: responses[i].append((seat, what, status, body))

    async def play_all():
        return await asyncio.gather(
            *(
                play_table(
                    stack.api,
                    4 + i % 3,  # 4 to 6 seats: 7 and 8 are played by the property suites
                    "heuristic" if i % 2 else "random",
                    seed=100 + i,
                    record=recorder(i),
                    options=msgspec.to_builtins(options_of(i, tables)),
                )
                for i in range(tables)
            )
        )

    table_ids = asyncio.run(play_all())
    with httpx.Client(base_url=stack.api, timeout=30) as http:
        checked = 0
        for i, table_id in enumerate(table_ids):
            events = history_events(http, table_id)
            state = fold(events)
            assert state.step == "finished" and state.winners is not None
            assert state.options == options_of(i, tables)  # docs/api.md options
            for seat in range(len(state.seats)):
                r = http.get(
                    f"/tables/{table_id}/view",
                    headers={"Authorization": f"Bearer {_token(responses[i], seat)}"},
                )
                expected = msgspec.json.encode(view(state, seat, log_limit=LOG_LIMIT))
                assert r.content == expected, f"table {table_id} seat {seat}: view != engine view"
            public = http.get(f"/tables/{table_id}").content
            assert public == msgspec.json.encode(view(state, None, log_limit=LOG_LIMIT))
            for seat, what, status, body in responses[i]:
                if status == 200 and what in ("view", "command", "start"):
                    check_response(events, seat, body)
                    checked += 1
                assert status < 500, body
        assert checked > tables * 50


def _token(records, seat):
    for _seat, what, _, body in records:
        if what == "seat":
            got = msgspec.json.decode(body)
            if got["seat"] == seat:
                return got["token"]
    raise AssertionError(f"no token for seat {seat}")
