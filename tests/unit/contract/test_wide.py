"""Integers a JavaScript number cannot hold (gcbc_contract.wide): the seed is an integer in the
log and a decimal string in the API's views and history, and a history's events fold back."""

from __future__ import annotations

import msgspec

from gcbc.rules.log import render
from gcbc_contract import events as E
from gcbc_contract.entries import OutcomeEntry, decode_entry, encode_entry
from gcbc_contract.http import History, recorded_event, shown_event

SEED = 2**62 + 3


def test_the_log_keeps_the_seed_an_integer():
    started = [E.GameStarted(random_seed=SEED, first_seat=0)]
    entry = OutcomeEntry(answers=1, events=started, at=1, prev=1)
    data = encode_entry(entry)
    assert f'"random_seed":{SEED}'.encode() in data
    assert decode_entry(data).events[0].random_seed == SEED


def test_views_and_the_history_show_it_as_a_string_and_it_folds_back():
    events = [
        E.TableOpened(table_id="t", seats=4, random_seed=SEED),
        E.TableOpened(table_id="t", seats=4),
        E.GameStarted(random_seed=SEED, first_seat=0),
        E.SeatTaken(seat=0, name="ann"),
    ]
    for e in events[:1] + events[2:3]:
        assert render(e, None, everything=True, number=1)["random_seed"] == str(SEED)
        assert "random_seed" not in render(e, 0, number=1)  # secret before the end
    body = msgspec.json.encode(History(table_id="t", events=[shown_event(e) for e in events]))
    assert f'"random_seed":"{SEED}"'.encode() in body and b'"random_seed":null' not in body
    shown = msgspec.json.decode(body, type=History).events
    assert [recorded_event(e) for e in shown] == events
    assert [type(recorded_event(e)) for e in shown] == [type(e) for e in events]
