"""Restraining Order on a classic table (RULES §7.2: shoot window only, when **another** seat
shoots; the shooter must aim at and shoot a different seat; not usable with only two living
seats): the fourth edition's card, but never on one's own shot."""

from __future__ import annotations

from gcbc.rules import legal_commands
from gcbc_contract import events as E
from tests.support import C, act, pass_window
from tests.unit.rules.equipment.classic import CLASSIC
from tests.unit.rules.equipment.scenario import (
    accept_all,
    deal,
    legal_plays,
    one,
    open_window,
    play,
    refused_unchanged,
    shot_earlier,
)


def test_the_shooter_shoots_a_different_seat():
    """RULES §7.2 Restraining Order: seat 0 shoots seat 1; seat 2 plays it; seat 0 chooses seat 3,
    which is shot."""
    s = open_window(deal({2: "restraining_order"}, guns={0: 1}, options=CLASSIC), "shoot")
    s, events = act(s, play(2, "restraining_order"))
    assert one(events, E.PromptOpened).options == (2, 3)
    s, events = act(s, C.Choose(seat=0, target=3))
    assert one(events, E.ShotRedirected) == E.ShotRedirected(target=3)
    s = pass_window(s)
    assert s.seat(3).eliminated and not s.seat(1).eliminated


def test_not_with_only_two_living_seats():
    """RULES §7.2 Restraining Order (not usable with only two living seats)."""
    s = deal({1: "restraining_order"}, guns={0: 1}, options=CLASSIC)
    s = shot_earlier(shot_earlier(s, 2), 3)
    s = open_window(s, "shoot")
    assert legal_plays(s, 1, "restraining_order") == []
    assert refused_unchanged(s, play(1, "restraining_order")) == "not_enough_seats"


def test_only_in_the_shoot_window_and_listed_plays():
    """RULES §7.2 Restraining Order (shoot window only), §7.3."""
    s = deal({2: "restraining_order"}, guns={0: 1}, options=CLASSIC)
    s, _ = act(s, C.Investigate(seat=0, target=1, position=1))
    assert refused_unchanged(s, play(2, "restraining_order")) == "not_playable_now"
    s = open_window(deal({2: "restraining_order"}, guns={0: 1}, options=CLASSIC), "shoot")
    assert accept_all(s, 2, "restraining_order") == 1


def test_the_shooter_may_not_play_it_on_its_own_shot():
    """RULES §7.2 Restraining Order (when **another** seat shoots): seat 0, holding it, shoots
    seat 1: it is not listed for seat 0 and refused; seat 0 may only pass."""
    s = open_window(deal({0: "restraining_order"}, guns={0: 1}, options=CLASSIC), "shoot")
    assert 0 in s.window.pending
    assert legal_plays(s, 0, "restraining_order") == []
    assert refused_unchanged(s, play(0, "restraining_order")) == "not_playable_now"
    assert legal_commands(s, 0) == [C.Pass(seat=0), C.SetAutoPass(seat=0, enabled=True)]


def test_the_fourth_edition_card_may_still_be_played_by_the_shooter():
    """RULES §7.1 Restraining Order (no such limit in the fourth edition): the same hand on a
    fourth-edition table: played plainly (its prompt asks the shooter), or naming the new
    target with the play (§7.3: the choice is the shooter's own), seat 2 or 3."""
    s = open_window(deal({0: "restraining_order"}, guns={0: 1}), "shoot")
    assert accept_all(s, 0, "restraining_order") == 3
