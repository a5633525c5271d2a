"""RULES §8 (Zombies) and the fourth-edition equipment (§7.1): 'Equipment that acts on guns and
shooting acts on Arms and biting the same way; equipment that would make a zombie drop its gun makes
it aim its Arms at itself; equipment that may pick an eliminated seat may pick a zombie; bringing a
seat "back to life" (Defibrillator) turns a zombie back into an ordinary seat.' 'Taser cannot pick a
zombie.' Decision: 'no card moves a zombie's integrity cards', Blackmail included."""

from __future__ import annotations

from gcbc.rules import legal_commands
from gcbc.rules.effects import get_shot
from gcbc.rules.evolve import fold
from gcbc.rules.invariants import violations
from tests.support import C, E, act, pass_window
from tests.unit.rules.equipment.scenario import (
    accept_all,
    accept_all_prompt,
    legal_plays,
    of,
    one,
    play,
    refused_unchanged,
    team,
)
from tests.unit.rules.zombies.given import earlier, zdeal


def through(s, events=None):
    """Everyone asked passes the open window(s) of this action: the state and all events."""
    events = list(events or [])
    while s.step == "window" and not s.prompts:
        s, more = act(s, C.Pass(seat=min(s.window.pending)))
        events += more
    return s, events


# --- K-9 Unit -----------------------------------------------------------------------------------
def test_k9_unit_turns_a_zombies_arms_on_itself():
    """RULES §8 (what would make a zombie drop its gun makes it aim its Arms at itself), §7.1
    K-9 Unit: the zombie's Arms turn to itself; no gun moves."""
    s = zdeal({0: "k9_unit"}, zombies={2: 1}, guns={1: 0})
    centre = s.guns_in_centre
    s, events = act(s, play(0, "k9_unit", target=2))
    assert events[1:] == [E.ArmsAimed(seat=2, target=2)]
    assert s.seat(2).arms_aim == 2 and s.seat(1).gun and s.guns_in_centre == centre


def test_k9_unit_lists_guns_and_zombies_aiming_elsewhere():
    """RULES §7.3 (only where it has an effect): seat 1's gun and zombie 2 (Arms at seat 1); not
    zombie 3 (Arms at itself), refused with no_effect and the state unchanged."""
    s = zdeal({0: "k9_unit"}, zombies={2: 1, 3: 3}, guns={1: 0})
    assert [c.target for c in legal_plays(s, 0, "k9_unit")] == [1, 2]
    assert refused_unchanged(s, play(0, "k9_unit", target=3)) == "no_effect"
    assert refused_unchanged(s, play(0, "k9_unit", target=0)) == "no_gun"
    assert accept_all(s, 0, "k9_unit") == 2


def test_k9_unit_on_the_biter_makes_the_bite_impossible():
    """RULES §8, §6 (the declared action became impossible: the acting seat chooses again): in the
    bite window, K-9 Unit on the biter turns its Arms on itself; no bite; it may only Equip."""
    s = zdeal({0: "k9_unit"}, zombies={2: 3}, first_seat=2)
    s, _ = act(s, C.Bite(seat=2))
    assert [c.target for c in legal_plays(s, 0, "k9_unit")] == [2]
    s, events = act(s, play(0, "k9_unit", target=2))
    assert one(events, E.ActionCancelled) == E.ActionCancelled(seat=2, reason="impossible")
    assert of(events, E.SeatBitten) == []
    assert s.step == "action" and s.turn_seat == 2
    assert [type(c).__name__ for c in legal_commands(s, 2)] == ["Equip", "SetAutoPass"]


# --- Walkie Talkie ------------------------------------------------------------------------------
def test_walkie_talkie_turns_guns_and_arms_to_the_chosen_seat():
    """RULES §8 (affects Arms the same way), §7.1 Walkie Talkie: seat 1's gun and zombie 2's Arms
    turn to seat 0; zombie 3 already aims at it."""
    s = zdeal({0: "walkie_talkie"}, zombies={2: 1, 3: 0}, guns={1: 3})
    s, events = act(s, play(0, "walkie_talkie", target=0))
    assert events[1:] == [E.GunAimed(seat=1, target=0), E.ArmsAimed(seat=2, target=0)]
    assert [s.seat(1).aim, s.seat(2).arms_aim, s.seat(3).arms_aim] == [0, 0, 0]


def test_walkie_talkie_on_a_zombie_it_keeps_its_own_aim():
    """RULES §7.1 Walkie Talkie (the chosen holder keeps its own aim), §8: zombie 3 is named: the
    gun and zombie 2's Arms turn to it; zombie 3's Arms stay on seat 0."""
    s = zdeal({0: "walkie_talkie"}, zombies={2: 1, 3: 0}, guns={1: 2})
    s, events = act(s, play(0, "walkie_talkie", target=3))
    assert events[1:] == [E.GunAimed(seat=1, target=3), E.ArmsAimed(seat=2, target=3)]
    assert s.seat(3).arms_aim == 0 and violations(s) == []


def test_walkie_talkie_with_only_arms_to_turn():
    """RULES §7.3 (playable if some aim would change), §8: no gun held, one zombie (Arms at seat
    1): seats 0 and 3 may be named; seat 1 (no change) and the zombie itself may not."""
    s = zdeal({0: "walkie_talkie"}, zombies={2: 1})
    assert [c.target for c in legal_plays(s, 0, "walkie_talkie")] == [0, 3]
    assert refused_unchanged(s, play(0, "walkie_talkie", target=1)) == "no_effect"
    assert refused_unchanged(s, play(0, "walkie_talkie", target=2)) == "no_effect"
    assert accept_all(s, 0, "walkie_talkie") == 2


def test_walkie_talkie_leaves_arms_turned_on_their_zombie():
    """Decision (RULES §8, see walkie_talkie.py): a zombie whose Arms aim at itself (shot, like a
    dropped gun) is not turned; with nothing else to turn, the card has no effect."""
    s = zdeal({0: "walkie_talkie"}, zombies={2: 2, 3: 1})
    s, events = act(s, play(0, "walkie_talkie", target=0))
    assert events[1:] == [E.ArmsAimed(seat=3, target=0)]
    assert s.seat(2).arms_aim == 2
    s = zdeal({0: "walkie_talkie"}, zombies={2: 2})
    assert legal_plays(s, 0, "walkie_talkie") == []
    assert refused_unchanged(s, play(0, "walkie_talkie", target=1)) == "no_effect"


# --- Restraining Order --------------------------------------------------------------------------
def test_restraining_order_in_the_bite_window_redirects_the_arms_and_forces_the_bite():
    """RULES §8 (affects biting the same way), §7.1 Restraining Order, §6 (forced): zombie 2 bites
    seat 3; seat 0 plays it; the biter chooses seat 1 among (0, 1), aims its Arms there, and
    bites the Kingpin without a new choice."""
    s = zdeal({0: "restraining_order"}, zombies={2: 3}, first_seat=2)
    s, _ = act(s, C.Bite(seat=2))
    assert len(legal_plays(s, 0, "restraining_order")) == 1
    s, events = act(s, play(0, "restraining_order"))
    assert one(events, E.PromptOpened) == E.PromptOpened(
        seat=2, kind="restraining_order", options=(0, 1)
    )
    assert accept_all_prompt(s) == 2
    s, events = act(s, C.Choose(seat=2, target=1))
    assert events[:3] == [
        E.PromptAnswered(seat=2, kind="restraining_order", target=1),
        E.ArmsAimed(seat=2, target=1),
        E.ShotRedirected(target=1),
    ]
    assert of(events, E.GunAimed) == [] and of(events, E.ActionCancelled) == []
    assert one(events, E.SeatBitten) == E.SeatBitten(biter=2, target=1)
    assert one(events, E.LeaderWounded).seat == 1
    assert not s.seat(3).zombie and s.seat(2).arms_aim == 1


def test_restraining_order_onto_a_zombie_turns_its_arms():
    """Decision (RULES §8, see restraining_order.py): the biter may choose a zombie; the forced
    bite resolves like a shot at a zombie: that zombie's Arms turn to aim at itself."""
    s = zdeal({0: "restraining_order"}, zombies={2: 0, 3: 1}, first_seat=2)
    s, _ = act(s, C.Bite(seat=2))
    s, events = act(s, play(0, "restraining_order"))
    assert one(events, E.PromptOpened).options == (1, 3)
    s, events = act(s, C.Choose(seat=2, target=3))
    i = events.index(E.SeatBitten(biter=2, target=3))
    assert events[i + 1 : i + 4] == [
        E.ArmsAimed(seat=3, target=3),
        E.ActionResolved(seat=2),
        E.AimRequested(seat=2),
    ]
    assert s.seat(3).zombie and s.seat(3).arms_aim == 3 and violations(s) == []


# --- Riot Shield --------------------------------------------------------------------------------
def test_riot_shield_in_the_bite_window_a_neighbour_is_bitten_instead():
    """RULES §8, §7.1 Riot Shield: zombie 2 bites seat 3; seat 3 plays it and names seat 0 (its
    neighbours: 2 and 0): the Agent is bitten (wounded); the biter's Arms do not move."""
    s = zdeal({3: "riot_shield"}, zombies={2: 3}, first_seat=2)
    s, _ = act(s, C.Bite(seat=2))
    assert accept_all(s, 3, "riot_shield") == 3  # plainly, or naming seat 0 or 2 with it
    s, events = act(s, play(3, "riot_shield"))
    assert one(events, E.PromptOpened) == E.PromptOpened(seat=3, kind="riot_shield", options=(0, 2))
    s, events = act(s, C.Choose(seat=3, target=0))
    assert of(events, E.ActionCancelled) == []
    assert one(events, E.SeatBitten) == E.SeatBitten(biter=2, target=0)
    assert one(events, E.LeaderWounded).seat == 0
    assert s.seat(2).arms_aim == 3 and not s.seat(3).zombie


def test_riot_shield_naming_the_biter_turns_its_arms_on_itself():
    """Decision (RULES §8, see riot_shield.py): the bitten seat may name the biter; the zombie
    'bites itself', which resolves like a shot at a zombie: its Arms aim at itself."""
    s = zdeal({3: "riot_shield"}, zombies={2: 3}, first_seat=2)
    s, _ = act(s, C.Bite(seat=2))
    s, _ = act(s, play(3, "riot_shield"))
    s, events = act(s, C.Choose(seat=3, target=2))
    i = events.index(E.SeatBitten(biter=2, target=2))
    assert events[i + 1 : i + 4] == [
        E.ArmsAimed(seat=2, target=2),
        E.ActionResolved(seat=2),
        E.AimRequested(seat=2),
    ]
    assert s.seat(2).zombie and not s.seat(3).zombie


def test_a_forced_bite_on_the_wounded_agent_makes_the_zombies_win():
    """RULES §8 (wounded Leader bitten: the zombies win), §9.3c: the bite redirected by a Riot
    Shield onto the wounded Agent eliminates it; the biter is a zombie: the zombies win."""
    s = zdeal({3: "riot_shield"}, zombies={2: 3}, first_seat=2)
    s = earlier(fold(get_shot(s, 1, 0), s))  # the Agent was wounded earlier (and drew a card)
    s, _ = act(s, C.Bite(seat=2))
    s, _ = act(s, play(3, "riot_shield"))
    s, events = act(s, C.Choose(seat=3, target=0))
    s, events = through(s, events)
    assert one(events, E.SeatEliminated) == E.SeatEliminated(seat=0, by=2)
    assert one(events, E.GameWon) == E.GameWon(
        winners=(2,), team="zombie", reason="agent_eliminated"
    )


# --- Defibrillator ------------------------------------------------------------------------------
def test_defibrillator_cures_a_zombie():
    """RULES §8 (Defibrillator makes a zombie a non-zombie), §7.1 (its cards stay face up): the
    Arms return to the centre; its cards decide its team again; it may Investigate and Arm."""
    s = zdeal({0: "defibrillator"}, zombies={2: 1})
    arms = s.arms_in_centre
    s, events = act(s, play(0, "defibrillator", target=2))
    assert events[1:] == [E.ZombieCured(seat=2)]
    st = s.seat(2)
    assert not st.zombie and st.arms_aim is None and not st.eliminated
    assert st.face_up == (True, True, True)
    assert s.arms_in_centre == arms + 1 and violations(s) == []
    assert team(s, 2) == "honest" and s.winners is None
    s = through(*act(s, C.Investigate(seat=0, target=1, position=2)))[0]
    s = through(*act(s, C.Equip(seat=1, position=2)))[0]
    assert s.turn_seat == 2
    kinds = {type(c).__name__ for c in legal_commands(s, 2)}
    assert {"Investigate", "Arm", "Equip"} <= kinds and "Bite" not in kinds


def test_a_cured_zombie_shot_again_becomes_a_zombie_again():
    """RULES §8: cured, it is a non-Leader seat again: shot, it rises again (an Arms is free)."""
    s = zdeal({0: "defibrillator"}, zombies={2: 1}, guns={0: 2})
    s, _ = act(s, play(0, "defibrillator", target=2))
    s, events = through(*act(s, C.Shoot(seat=0)))
    assert one(events, E.BecameZombie) == E.BecameZombie(seat=2, by=0)
    assert s.seat(2).zombie and s.arms_in_centre == 1


def test_defibrillator_targets():
    """RULES §8, §7.1, §7.3: a zombie or an eliminated non-Leader seat, never yourself (a zombie
    cannot cure itself), never a living non-zombie."""
    s = zdeal({2: "defibrillator"}, zombies={2: 2, 3: 3}, first_seat=2)
    assert [c.target for c in legal_plays(s, 2, "defibrillator")] == [3]
    assert refused_unchanged(s, play(2, "defibrillator", target=2)) == "target_is_self"
    assert refused_unchanged(s, play(2, "defibrillator", target=0)) == "invalid_target"
    assert accept_all(s, 2, "defibrillator") == 1


# --- Taser --------------------------------------------------------------------------------------
def test_a_zombie_cannot_play_the_taser():
    """RULES §8 ('Zombies cannot Investigate, Arm or take a gun'): not listed; refused with
    zombie_cannot."""
    s = zdeal({2: "taser"}, zombies={2: 1}, guns={0: 1}, first_seat=2)
    assert legal_plays(s, 2, "taser") == []
    assert refused_unchanged(s, play(2, "taser", target=0, aim=1)) == "zombie_cannot"


def test_the_taser_cannot_target_a_zombie_but_may_aim_at_one():
    """RULES §8 ('Taser cannot pick a zombie'): refused with target_is_zombie; the gun taken
    may be aimed at a zombie."""
    s = zdeal({0: "taser"}, zombies={2: 1}, guns={1: 0})
    assert refused_unchanged(s, play(0, "taser", target=2, aim=1)) == "target_is_zombie"
    assert [(c.target, c.aim) for c in legal_plays(s, 0, "taser")] == [(1, 1), (1, 2), (1, 3)]
    assert accept_all(s, 0, "taser") == 3
    s, events = act(s, play(0, "taser", target=1, aim=2))
    assert events[1:] == [E.GunTaken(seat=0, aim=2, from_seat=1, locked=True)]


# --- Blackmail ----------------------------------------------------------------------------------
def test_blackmail_cannot_take_a_zombies_card():
    """RULES §8 (Decision: 'no card moves a zombie's integrity cards', Blackmail included): pairs
    without the zombie only; a zombie named is refused with target_is_zombie, the state
    unchanged."""
    s = zdeal({0: "blackmail"}, zombies={2: 2})
    assert {c.targets for c in legal_plays(s, 0, "blackmail")} == {(1, 3)}
    assert accept_all(s, 0, "blackmail") == 9
    assert refused_unchanged(s, play(0, "blackmail", targets=(1, 2), positions=(1, 1))) == (
        "target_is_zombie"
    )
    assert refused_unchanged(s, play(0, "blackmail", targets=(2, 3), positions=(1, 1))) == (
        "target_is_zombie"
    )


def test_blackmail_needs_two_other_seats_that_are_not_zombies():
    """RULES §7.3, §8: with two zombies, seat 0 has only one seat to blackmail: not playable."""
    s = zdeal({0: "blackmail"}, zombies={2: 2, 3: 3})
    assert legal_plays(s, 0, "blackmail") == []
    assert refused_unchanged(s, play(0, "blackmail", targets=(1, 3), positions=(1, 1))) == (
        "not_enough_seats"
    )


def test_a_zombie_may_play_blackmail():
    """RULES §8 (only a zombie's card is protected): zombie 2 makes seats 0 and 1 exchange."""
    s = zdeal({2: "blackmail"}, zombies={2: 2}, first_seat=2)
    s, events = act(s, play(2, "blackmail", targets=(0, 1), positions=(2, 2)))
    assert one(events, E.CardsExchanged).seats == (0, 1)


# --- the other cards ----------------------------------------------------------------------------
def test_investigation_cards_never_reach_a_zombies_face_up_cards():
    """RULES §8 (all of a zombie's cards are revealed): Metal Detector, Wiretap and Truth Serum
    never list a zombie; Polygraph may, and the zombie sees the player's cards."""
    s = zdeal({0: "metal_detector"}, zombies={2: 1}, guns={1: 0})
    assert {c.targets for c in legal_plays(s, 0, "metal_detector")} == {(1,)}
    s = zdeal({0: "wiretap"}, zombies={2: 1})
    assert {c.targets for c in legal_plays(s, 0, "wiretap")} == {(1, 3)}
    assert refused_unchanged(s, play(0, "wiretap", targets=(1, 2), positions=(1, 1))) == (
        "card_not_face_down"
    )
    s = zdeal({0: "truth_serum"}, zombies={2: 1})
    assert 2 not in {c.target for c in legal_plays(s, 0, "truth_serum")}
    s = zdeal({0: "polygraph"}, zombies={2: 1})
    s, events = act(s, play(0, "polygraph", target=2))
    assert [(e.viewer, e.seat) for e in of(events, E.CardViewed)] == [(2, 0)] * 3


def test_a_zombie_may_play_investigation_cards():
    """Decision (RULES §8 bars the Investigate action only): zombie 2 wiretaps seats 0 and 1; a
    Surveillance Camera in front of seat 0 finds no face-down card of the zombie to view."""
    s = zdeal(
        {0: "surveillance_camera", 2: "wiretap"},
        zombies={2: 2},
        first_seat=2,
        setup=[play(0, "surveillance_camera")],
    )
    s, events = act(s, play(2, "wiretap", targets=(0, 1), positions=(2, 2)))
    assert [(e.viewer, e.seat) for e in of(events, E.CardViewed)] == [(2, 0), (2, 1)]
    assert of(events, E.PromptOpened) == [] and not s.prompts


def test_a_zombie_keeps_trading_equipment():
    """RULES §8 (keeps its equipment), §7.1 Evidence Bag: a zombie may receive a card."""
    s = zdeal({0: "evidence_bag", 1: "coffee"}, zombies={2: 2})
    s, events = act(s, play(0, "evidence_bag", targets=(1, 2), choice="hand"))
    assert one(events, E.EquipmentMoved) == E.EquipmentMoved(from_seat=1, to_seat=2, card="coffee")
    assert s.seat(2).hand == ("coffee",)


def test_planted_evidence_on_a_zombie_counts_once_it_is_cured():
    """RULES §8 (team Zombie whatever its cards), §7.1 Planted Evidence: on zombie 2 it changes
    nothing; cured by a Defibrillator, seat 2 (Honest majority) is Crooked."""
    s = zdeal({0: "planted_evidence", 3: "defibrillator"}, zombies={2: 2})
    s, _ = act(s, play(0, "planted_evidence", target=2))
    assert s.seat(2).in_play == ("planted_evidence",) and team(s, 2) == "zombie"
    s, _ = act(s, C.Investigate(seat=0, target=1, position=2))
    s, _ = act(s, play(3, "defibrillator", target=2))
    assert team(s, 2) == "crooked"


def test_a_zombie_may_take_the_next_turn_with_coffee():
    """RULES §7.1 Coffee, §8: zombie 2 plays it in seat 0's turn; seat 2 plays next."""
    s = zdeal({2: "coffee"}, zombies={2: 2})
    s, _ = act(s, C.Investigate(seat=0, target=1, position=2))
    s, _ = act(s, play(2, "coffee"))
    s = pass_window(s)
    assert s.turn_seat == 2 and s.step == "action"


def test_k9_unit_after_a_restraining_order_still_stops_the_forced_bite():
    """RULES §8 (Arms turned on itself: as a dropped gun), §6 (the forced action became
    impossible): the bite forced onto the Agent is cancelled when K-9 Unit turns the biter's Arms
    on itself, as a forced shot is when the shooter's gun is dropped."""
    s = zdeal({0: "restraining_order", 1: "k9_unit"}, zombies={2: 3}, first_seat=2)
    s, _ = act(s, C.Bite(seat=2))
    s, _ = act(s, play(0, "restraining_order"))
    s, events = act(s, C.Choose(seat=2, target=0))
    assert one(events, E.WindowReopened).asked == (1,)
    s, events = act(s, play(1, "k9_unit", target=2))
    assert one(events, E.ActionCancelled) == E.ActionCancelled(seat=2, reason="impossible")
    assert of(events, E.SeatBitten) == [] and s.seat(2).arms_aim == 2
