"""Metal Detector (RULES §7.1): investigate one face-down card (your choice) of each seat holding a
gun. ``targets`` lists every other armed seat that can be investigated, in any order (taken in
seat order); ``positions`` one face-down card each. Past 200 combinations legal_commands lists a template."""

from __future__ import annotations

import pytest

from gcbc.rules import legal_commands, view
from gcbc.rules.legal import TEMPLATE_LIMIT, expand, is_template
from gcbc_contract import events as E
from tests.support import C, act, run
from tests.unit.rules.equipment.scenario import (
    EIGHT,
    WINDOWS,
    accept_all,
    cid,
    deal,
    known,
    legal_plays,
    of,
    one,
    open_window,
    play,
    refused_unchanged,
    shot_earlier,
)


def test_own_turn_views_one_card_of_each_other_armed_seat():
    """RULES §7.1 Metal Detector: seat 0 (armed itself) sees one chosen card of seats 1 and 2, the
    other armed seats; seat 3 (unarmed) is not investigated. Everyone sees which card was seen."""
    s = deal({0: "metal_detector"}, guns={0: 1, 1: 0, 2: 0})
    s, events = act(s, play(0, "metal_detector", targets=(1, 2), positions=(1, 3)))
    assert of(events, E.CardViewed) == [
        E.CardViewed(
            viewer=0, seat=1, position=1, card_id=cid(1, 1), card="kingpin", means="metal_detector"
        ),
        E.CardViewed(
            viewer=0, seat=2, position=3, card_id=cid(2, 3), card="honest", means="metal_detector"
        ),
    ]
    assert known(s, 0, 1, 1) == "kingpin" and known(s, 0, 2, 3) == "honest"
    assert known(s, 3, 1, 1) is None and known(s, None, 2, 3) is None
    public = view(s, None, log=False).seats
    assert [(x.seat, x.by) for x in public[1].cards[0].seen] == [(0, "metal_detector")]
    assert s.step == "action" and s.turn_seat == 0


def test_the_armed_seats_may_be_named_in_any_order():
    """RULES §7.1 ("each seat holding a gun (you choose which)"), §7.3: the seats are a set.
    Decision: named in any order, each with its own card, they are the same play, with the same
    events and state as in seat order (the order the options list them in). Before, only seat
    order was accepted (``invalid_target``)."""
    s = deal({0: "metal_detector"}, guns={0: 1, 1: 0, 2: 0, 3: 0})
    listed, listed_events = act(
        s, play(0, "metal_detector", targets=(1, 2, 3), positions=(1, 3, 2))
    )
    other, other_events = act(s, play(0, "metal_detector", targets=(3, 1, 2), positions=(2, 1, 3)))
    assert other_events == listed_events and other == listed
    assert refused_unchanged(s, play(0, "metal_detector", targets=(3, 1), positions=(2, 1))) == (
        "invalid_target"
    )


@pytest.mark.parametrize("window", WINDOWS)
def test_in_a_window(window):
    """RULES §7.1 Metal Detector (any window): seat 3 (unarmed) investigates the armed seats 0, 1."""
    s = deal({3: "metal_detector"}, guns={0: 1, 1: 2})
    s = open_window(s, window, avoid=(1,))
    s, events = act(s, play(3, "metal_detector", targets=(0, 1), positions=(2, 2)))
    viewed = [(e.seat, e.position, e.means) for e in of(events, E.CardViewed) if e.viewer == 3]
    assert viewed == [(0, 2, "metal_detector"), (1, 2, "metal_detector")]


def test_only_face_down_cards_and_seats_with_one():
    """RULES §7.1 Metal Detector: only face-down cards can be chosen."""
    s = deal({3: "metal_detector"})
    s, _ = act(s, C.Arm(seat=0, target=1, position=2))  # seat 0's position 2 is now face up
    s, _ = act(s, C.Aim(seat=0, target=1))
    assert s.window.kind == "end_of_turn"
    cmd = play(3, "metal_detector", targets=(0,), positions=(2,))
    assert refused_unchanged(s, cmd) == "card_not_face_down"
    assert [c.positions for c in legal_plays(s, 3, "metal_detector")] == [(1,), (3,)]


def test_disguised_armed_seats_are_left_out():
    """RULES §7.1 Disguise blocks Metal Detector: the disguised armed seat 2 is not investigated;
    naming it is refused."""
    s = deal(
        {0: "metal_detector", 3: "disguise"},
        setup=[play(3, "disguise", target=2)],
        guns={1: 0, 2: 0},
    )
    assert {c.targets for c in legal_plays(s, 0, "metal_detector")} == {(1,)}
    cmd = play(0, "metal_detector", targets=(1, 2), positions=(1, 1))
    assert refused_unchanged(s, cmd) == "invalid_target"
    s, events = act(s, play(0, "metal_detector", targets=(1,), positions=(2,)))
    assert [(e.seat, e.position) for e in of(events, E.CardViewed)] == [(1, 2)]


def test_triggers_surveillance_camera():
    """RULES §7.1 Metal Detector and Surveillance Camera: investigating the armed camera owner
    prompts it to view one face-down card of the investigator."""
    s = deal(
        {0: "metal_detector", 1: "surveillance_camera"},
        setup=[play(1, "surveillance_camera")],
        guns={1: 0},
    )
    s, events = act(s, play(0, "metal_detector", targets=(1,), positions=(3,)))
    assert one(events, E.PromptOpened) == E.PromptOpened(
        seat=1, kind="surveillance_camera", options=(1, 2, 3), about=0
    )
    s, events = act(s, C.Choose(seat=1, position=1))
    assert one(events, E.CardViewed) == E.CardViewed(
        viewer=1, seat=0, position=1, card_id=cid(0, 1), card="agent", means="surveillance_camera"
    )
    assert known(s, 1, 0, 1) == "agent" and s.step == "action" and s.turn_seat == 0


@pytest.mark.parametrize(
    ("kw", "code"),
    [
        ({"targets": (1,), "positions": (1,)}, "invalid_target"),  # seat 2 left out
        ({"targets": (1, 1), "positions": (1, 1)}, "invalid_target"),  # one seat twice
        ({"targets": (0, 1, 2), "positions": (1, 1, 1)}, "invalid_target"),  # itself
        ({"targets": (1, 2, 3), "positions": (1, 1, 1)}, "invalid_target"),  # unarmed 3
        ({"targets": (1, 2), "positions": (1,)}, "bad_parameters"),
        ({"targets": (1, 2), "positions": (1, 1, 1)}, "bad_parameters"),
        ({"targets": (1, 2)}, "bad_parameters"),
        ({"positions": (1, 1)}, "bad_parameters"),
        ({"targets": (1, 2), "positions": (1, 1), "target": 1}, "bad_parameters"),
        ({"targets": (1, 2), "positions": (1, 4)}, "invalid_position"),
    ],
)
def test_bad_targets_are_refused(kw, code):
    """RULES §7.1 Metal Detector, §7.3: every other armed seat, once, one position each."""
    s = deal({0: "metal_detector"}, guns={0: 3, 1: 0, 2: 0})
    assert refused_unchanged(s, play(0, "metal_detector", **kw)) == code


def test_no_other_armed_seat():
    """RULES §7.3 (the effect must be able to happen): only the player armed, or an armed seat
    eliminated: not listed, refused with no_effect."""
    s = deal({0: "metal_detector"}, guns={0: 1})
    assert legal_plays(s, 0, "metal_detector") == []
    assert refused_unchanged(s, play(0, "metal_detector", targets=(0,), positions=(1,))) == (
        "no_effect"
    )
    e = shot_earlier(deal({0: "metal_detector"}, guns={2: 0}), 2)
    assert refused_unchanged(e, play(0, "metal_detector", targets=(2,), positions=(1,))) == (
        "no_effect"
    )


def test_template_when_choices_exceed_the_limit():
    """RULES §7.3, legal_commands: 8 seats all armed, 3 face-down cards each: 3**7 = 2187 ways, so
    a template with a "choose" key is listed; its expansions are accepted."""
    guns = {i: (i + 1) % 8 for i in range(8)}
    s = deal({0: "metal_detector"}, integrity=EIGHT, guns=guns)
    plays = legal_plays(s, 0, "metal_detector")
    assert len(plays) == 1 and is_template(plays[0])
    entry = plays[0]
    assert 3**7 > TEMPLATE_LIMIT
    assert entry["card"] == "metal_detector" and entry["seat"] == 0
    assert list(entry["targets"]) == [1, 2, 3, 4, 5, 6, 7]
    assert entry["choose"] == {"positions": [[1, 2, 3]] * 7}
    assert entry in legal_commands(s, 0)
    for pick in (lambda v: v[0], lambda v: v[-1], lambda v: v[len(v) // 2]):
        cmd = expand(entry, pick)
        _, events = run(s, cmd)
        assert [(e.seat, e.position) for e in of(events, E.CardViewed)] == [
            (t, p) for t, p in zip(cmd.targets, cmd.positions, strict=True)
        ]
        assert len(of(events, E.CardViewed)) == 7
    assert accept_all(s, 0, "metal_detector") == 2


def test_concrete_plays_under_the_limit():
    """RULES §7.3, legal_commands: 2 other armed seats with 3 face-down cards: 9 concrete plays."""
    s = deal({0: "metal_detector"}, guns={1: 0, 2: 0})
    plays = legal_plays(s, 0, "metal_detector")
    assert len(plays) == 9 and not any(is_template(p) for p in plays)
    assert accept_all(s, 0, "metal_detector") == 9
