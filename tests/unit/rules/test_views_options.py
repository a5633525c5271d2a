"""RULES §11 for the table options: the options in every view, icon cards (§9) shown by name only
where the viewer may know them, roles in `you.team`, classic wounds on the seat (§4), Arms and
zombies (§8)."""

from __future__ import annotations

from gcbc.rules import public_view, view
from gcbc.rules.evolve import fold
from gcbc_contract.options import TableOptions
from tests.support import BOMBERS, CLASSIC, KP, ZOMBIES, A, C, H, K, table
from tests.unit.rules.conftest import play_turn
from tests.unit.rules.equipment.scenario import shot_earlier

HB, HK, HBK = "honest_bomb", "honest_knife", "honest_bomb_knife"
CB, CK, CBK = "crooked_bomb", "crooked_knife", "crooked_bomb_knife"
# RULES §9 at 4 players, per side: 2 bomb, 1 bomb+knife, 2 knife
BT_FOUR = [[A, HB, HK], [KP, CB, CK], [HB, HBK, CB], [HK, CK, CBK]]


def test_every_view_shows_the_table_options() -> None:
    """docs/api.md: a view's `options` are the table's, with where wounds live filled in (RULES §4:
    the edition's default when the table did not say)."""
    options = TableOptions(edition="classic", zombies=True, bombers_traitors=True)
    s = table(BT_FOUR, options=options)
    for viewer in (None, 0, 1, 2, 3):
        assert view(s, viewer).options == TableOptions(
            edition="classic", zombies=True, bombers_traitors=True, wounds="card"
        )


def test_icon_cards_are_named_only_for_those_who_may_know_them() -> None:
    """RULES §9, §11: the icons are part of a card's identity: its holder sees `honest_bomb`, a
    seat that investigated it learns it, everyone else sees null until it is face up."""
    s = table(BT_FOUR, options=BOMBERS)
    assert [c.card for c in view(s, 2).seats[2].cards] == [HB, HBK, CB]
    assert [c.card for c in view(s, 0).seats[2].cards] == [None, None, None]
    s, _ = play_turn(s, C.Investigate(seat=0, target=2, position=2))
    assert [c.card for c in view(s, 0).seats[2].cards] == [None, HBK, None]
    assert [c.card for c in view(s, 1).seats[2].cards] == [None, None, None]
    assert [c.card for c in public_view(s).seats[2].cards] == [None, None, None]


def test_roles_in_you_team() -> None:
    """RULES §9: three bomb icons make a Bomber, three knife icons a Traitor; Leaders decide
    first; otherwise the majority. Each seat sees its own role only."""
    deal = [[A, HB, HK], [KP, CK, CB], [HB, HBK, CB], [HK, CK, CBK]]
    s = table(deal, options=BOMBERS)
    teams = [view(s, i).you.team for i in range(4)]
    assert teams == ["honest", "crooked", "bomber", "traitor"]
    assert public_view(s).you is None


def test_classic_wound_is_shown_on_the_seat() -> None:
    """RULES §4 (classic): the seat takes the Wounded card: the seat shows it; no card does."""
    s = table([[A, H, H], [KP, K, K], [H, K, H], [K, H, K]], options=CLASSIC)
    s = shot_earlier(s, 0, shooter=1)
    assert s.seat(0).wounded and not s.wounds
    for viewer in (None, 0, 2):
        sv = view(s, viewer).seats[0]
        assert sv.wounded and not any(c.wounded for c in sv.cards)


def test_zombies_and_their_arms_are_public() -> None:
    """RULES §8, §11: zombies and Arms (and where they aim) are public; Arms in the centre too."""
    s = table([[A, H, H], [KP, K, K], [H, K, H], [K, H, K]], options=ZOMBIES)
    assert public_view(s).arms_in_centre == 2
    s = shot_earlier(s, 2, shooter=1)
    for viewer in (None, 0, 2):
        v = view(s, viewer)
        assert v.seats[2].zombie and v.seats[2].arms is not None
        assert v.seats[2].arms.aimed_at == 2  # Arms aimed at itself
        assert v.seats[2].gun is None and v.arms_in_centre == 1
        assert all(c.face_up and c.card is not None for c in v.seats[2].cards)
    assert view(s, 2).you.team == "zombie"
    assert fold(list(s.log)) == s
