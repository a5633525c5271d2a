"""Privacy is declared on the events (RULES §11): every field names its audience, a view's
log shows each field only to it (an allow-list), and a field nobody declared is shown to nobody."""

from __future__ import annotations

import msgspec
import pytest

from gcbc.rules.log import _Rendering, render, sees
from gcbc_contract import events as E
from gcbc_contract.audience import PUBLIC, SECRET, Public, To, declared_audience
from gcbc_contract.log import ENTRY_TYPES, LogEntry

EVENTS = E.AnyEvent.__args__


@pytest.mark.parametrize("event", EVENTS, ids=lambda e: e.__name__)
def test_every_event_field_declares_its_audience(event: type) -> None:
    for f in msgspec.structs.fields(event):
        assert declared_audience(f.type) is not None, (
            f"{event.__name__}.{f.name} has no declared audience: Public[...], Secret[...], "
            "Annotated[..., To(...)] or Annotated[..., Received(...)]"
        )


@pytest.mark.parametrize("event", [e for e in EVENTS if e.logged], ids=lambda e: e.__name__)
def test_each_logged_event_has_an_entry_type_with_its_fields_then_v(event: type) -> None:
    entry = ENTRY_TYPES[event]
    assert issubclass(entry, LogEntry)
    assert entry.__struct_config__.tag == event.__struct_config__.tag
    names = [n for n in entry.__struct_fields__ if n != "received"]
    assert names == [*event.__struct_fields__, "v"]


def test_a_field_nobody_declared_is_shown_to_nobody() -> None:
    class Leaky(E.Event, tag="leaky"):
        seat: Public[int]
        secret: str  # no audience declared

    r = _Rendering(Leaky)
    assert r.public == ("seat",) and r.guarded == () and r.received is None


def test_a_card_viewed_is_named_to_its_viewer_only() -> None:
    e = E.CardViewed(viewer=1, seat=2, position=3, card_id=7, card="kingpin", means="investigate")
    mine = render(e, 1, number=5)
    assert mine == {
        "type": "card_viewed",
        "viewer": 1,
        "seat": 2,
        "position": 3,
        "card": "kingpin",
        "means": "investigate",
        "v": 5,
    }
    for viewer in (0, 2, None):
        assert "card" not in render(e, viewer) and "card_id" not in render(e, viewer)
    assert render(e, None, everything=True)["card_id"] == 7  # the end reveals everything


def test_each_receiver_is_told_what_it_received() -> None:
    e = E.CardsExchanged(seats=(0, 2), positions=(1, 3), card_ids=(4, 9), cards=("agent", "honest"))
    assert render(e, 0)["received"] == "honest"
    assert render(e, 2)["received"] == "agent"
    for viewer in (1, None):
        entry = render(e, viewer)
        assert "received" not in entry and "cards" not in entry and "card_ids" not in entry


def test_a_card_moved_in_play_is_public_from_a_hand_private() -> None:
    hand = E.EquipmentMoved(from_seat=0, to_seat=1, card="coffee")
    shown = E.EquipmentMoved(from_seat=0, to_seat=1, card="disguise", in_play=True)
    assert [("card" in render(hand, v)) for v in (0, 1, 2, None)] == [True, True, False, False]
    assert all("card" in render(shown, v) for v in (0, 1, 2, None))


def test_an_event_seen_by_one_seat_is_not_in_the_others_logs() -> None:
    e = E.ReactionPassed(seat=2)
    assert sees(e, 2) and render(e, 2) is not None
    assert not sees(e, 1) and render(e, 1) is None and render(e, None) is None
    assert render(e, 1, everything=True) is not None


def test_audience_markers() -> None:
    assert declared_audience(Public[int]) is PUBLIC
    assert declared_audience(int) is None
    assert SECRET.sees(None, 0) is False
    assert To("seat").sees(E.SeatAbsent(seat=3), 3) and not To("seat").sees(E.SeatAbsent(seat=3), 1)


def test_chat_is_not_in_the_log() -> None:
    assert render(E.ChatPosted(seat=0, text="hi"), 0) is None
