"""Restraining Order on a classic table (RULES §7.2: shoot window only; the shooter must aim at and
shoot a different seat; not usable with only two living seats): the fourth edition's module."""

from __future__ import annotations

from gcbc.contract import events as E
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
    s = deal({0: "restraining_order"}, guns={0: 1}, options=CLASSIC)
    assert refused_unchanged(s, play(0, "restraining_order")) == "not_playable_now"
    s = open_window(s, "shoot")
    assert accept_all(s, 0, "restraining_order") == 1
