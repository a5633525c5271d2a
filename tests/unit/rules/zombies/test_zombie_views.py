"""RULES §11 (public: 'wounds, eliminations, zombies and Arms'), §8: every view shows which seats
are zombies, where their Arms aim, and the Arms left in the centre; a zombie's own view names its
team Zombie and offers it Bite."""

from __future__ import annotations

import msgspec

from gcbc.rules import public_view, view
from tests.support import ZOMBIES, C, act, table
from tests.unit.rules.equipment.scenario import FOUR
from tests.unit.rules.zombies.given import arms_at, risen, zdeal


def seat_json(s, viewer, seat):
    return msgspec.to_builtins(view(s, viewer, log=False))["seats"][seat]


def test_the_public_view_shows_zombies_and_their_arms():
    """RULES §11, §8: zombie: true and arms.aimed_at for a zombie; no Arms for the others."""
    s = zdeal(zombies={2: 1, 3: 3})
    for viewer in (None, 0, 2):
        v = view(s, viewer, log=False)
        assert v.arms_in_centre == 0
        assert [st.zombie for st in v.seats] == [False, False, True, True]
        assert [st.arms.aimed_at if st.arms else None for st in v.seats] == [None, None, 1, 3]
        assert seat_json(s, viewer, 2)["zombie"] is True
        assert seat_json(s, viewer, 2)["arms"] == {"aimed_at": 1}
        assert seat_json(s, viewer, 0)["zombie"] is False
        assert seat_json(s, viewer, 0)["arms"] is None
        # a zombie's cards are all face up: everyone sees them
        assert [c.card for c in v.seats[2].cards] == ["honest", "crooked", "honest"]


def test_arms_in_centre_counts_down_as_seats_rise():
    """RULES §8 (N-2 Arms in the centre, each new zombie takes one), §11 (Arms are public)."""
    s = table(FOUR, options=ZOMBIES)
    assert public_view(s, log=False).arms_in_centre == 2
    assert msgspec.to_builtins(public_view(s, log=False))["arms_in_centre"] == 2
    s = risen(s, 2)
    assert public_view(s, log=False).arms_in_centre == 1
    s = risen(s, 3)
    assert public_view(s, log=False).arms_in_centre == 0


def test_the_arms_aim_is_updated_in_the_view():
    """RULES §8, §11: an Arms aim is public as soon as it changes."""
    s = zdeal(zombies={2: 2})
    assert public_view(s, log=False).seats[2].arms.aimed_at == 2
    s = arms_at(s, 2, 0)
    assert public_view(s, log=False).seats[2].arms.aimed_at == 0


def test_the_zombie_sees_its_team_and_its_bite():
    """RULES §8 (team Zombie), §11 (its own team): the zombie's own view, and its legal
    commands as sent (a bite has no field but its type)."""
    s = zdeal(zombies={2: 3}, first_seat=2)
    v = view(s, 2, log=False)
    assert v.you.team == "zombie"
    assert {"type": "bite"} in v.legal_commands
    assert {"type": "equip"} in v.legal_commands
    assert not any(c["type"] in ("investigate", "arm", "shoot") for c in v.legal_commands)


def test_becoming_a_zombie_a_bite_and_an_aim_are_public_in_the_log():
    """RULES §11 (the log of public events): became_zombie, seat_bitten and arms_aimed are shown
    to everyone, the spectator included."""
    s = zdeal(zombies={2: 3}, first_seat=2)
    s, _ = act(s, C.Bite(seat=2))
    s, _ = act(s, C.Aim(seat=2, target=0))
    for viewer in (None, 0, 1):
        kinds = [e["type"] for e in view(s, viewer).log]
        assert "seat_bitten" in kinds and "arms_aimed" in kinds
        entry = [e for e in view(s, viewer).log if e["type"] == "became_zombie"][-1]
        assert entry["seat"] == 3 and entry["by"] == 2
    v = public_view(s, log=False)
    assert v.seats[3].zombie and v.seats[2].arms.aimed_at == 0
