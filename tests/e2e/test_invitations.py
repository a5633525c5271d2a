"""A table opened with invitations: each kept seat has a code its creator hands to whom it
chooses; only that code takes the seat, once, and strangers take only the others."""

from __future__ import annotations

import pytest
from gcbc_client import Client
from gcbc_client.problems import Conflict, Forbidden, Invalid

pytestmark = pytest.mark.timeout(120)


def test_invited_players_take_the_seats_kept_for_them_and_strangers_the_others(stack, http):
    with Client(stack.api) as client:
        table = client.create_table(4, invitations=2)
        table_id = table.table_id
        assert [i.seat for i in table.invitations] == [2, 3]
        codes = {i.seat: i.code for i in table.invitations}
        assert len(set(codes.values())) == 2

        listed = next(t for t in http.get("/tables").json() if t["table_id"] == table_id)
        assert (listed["taken"], listed["reserved"]) == (2, 2)

        ann = client.join(table_id, "ann")
        assert ann.seat == 0
        client.join(table_id, "bob")
        with pytest.raises(Conflict) as full:
            client.join(table_id, "carl")
        assert full.value.code == "table_full"

        with pytest.raises(Forbidden) as wrong:
            client.join(table_id, "dee", invitation="not-a-code")
        assert (wrong.value.code, wrong.value.field) == ("bad_invitation", "invitation")
        with pytest.raises(Conflict) as clash:
            client.join(table_id, "ANN", invitation=codes[3])
        assert clash.value.code == "name_taken"  # an invitee's name is checked as anyone's

        dee = client.join(table_id, "dee", invitation=codes[3])
        assert dee.seat == 3
        with pytest.raises(Conflict) as used:
            client.join(table_id, "eve", invitation=codes[3])
        assert (used.value.code, used.value.field) == ("invitation_used", "invitation")
        listed = next(t for t in http.get("/tables").json() if t["table_id"] == table_id)
        assert (listed["taken"], listed["reserved"]) == (4, 1)

        client.join(table_id, "fay", invitation=codes[2])
        view = ann.start()
        assert view.status == "playing"
        assert [s.name for s in view.seats] == ["ann", "bob", "fay", "dee"]


def test_a_code_opens_only_its_own_table(stack):
    with Client(stack.api) as client:
        first = client.create_table(4, invitations=1)
        other = client.create_table(4, invitations=1)
        with pytest.raises(Forbidden) as wrong:
            client.join(other.table_id, "gus", invitation=first.invitations[0].code)
        assert wrong.value.code == "bad_invitation"


def test_invitations_keep_only_seats_the_house_does_not_play(stack, http):
    with Client(stack.api) as client:
        table = client.create_table(4, bots={"seats": [0, 1], "think": 0}, invitations=2)
        assert [i.seat for i in table.invitations] == [2, 3]
        with pytest.raises(Invalid) as over:
            client.create_table(4, bots={"seats": [0, 1], "think": 0}, invitations=3)
        assert (over.value.code, over.value.field) == ("invalid_body", "invitations")
    r = http.post("/tables", json={"seats": 4, "invitations": -1})
    assert r.status_code == 422 and "invitations" in r.text
    assert http.post("/tables", json={"seats": 4}).json()["invitations"] == []
