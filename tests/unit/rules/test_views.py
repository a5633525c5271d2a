"""RULES §11: what each seat knows (the per-seat and the public view); §10: everything is
revealed when the game ends."""

from __future__ import annotations

from gcbc.rules import public_view, view
from gcbc.rules.state import State
from gcbc.rules.views import views
from tests.support import KP, A, C, E, H, K, act, of_type, table
from tests.unit.rules.conftest import arm, play_turn

FOUR = [[A, H, H], [KP, K, K], [H, K, H], [K, H, K]]


def cards(s: State, viewer: int | None, seat: int) -> list[str | None]:
    return [c.card for c in view(s, viewer).seats[seat].cards]


def test_a_seat_sees_its_own_cards_and_not_the_others_face_down_cards() -> None:
    """RULES §11: private to a seat: its own three cards and their positions; nobody knows the
    identity of unseen face-down cards."""
    s = table(FOUR)
    for me in range(4):
        for seat in range(4):
            expected = FOUR[seat] if seat == me else [None, None, None]
            assert cards(s, me, seat) == expected
    for seat in range(4):
        assert cards(s, None, seat) == [None, None, None]


def test_an_investigated_card_is_known_to_the_investigator_only_but_seen_by_is_public() -> None:
    """RULES §11: the identity of a card it has seen is private to the seat; which card each seat
    has seen, and by what means, is public."""
    s = table(FOUR)
    s, _ = play_turn(s, C.Investigate(seat=0, target=1, position=2))
    assert cards(s, 0, 1) == [None, K, None]
    for viewer in (None, 2, 3):
        assert cards(s, viewer, 1) == [None, None, None]
    for viewer in (None, 0, 1, 2, 3):
        card = view(s, viewer).seats[1].cards[1]
        assert card.seen_by == [0] and not card.face_up
        assert [(x.seat, x.by) for x in card.seen] == [(0, "investigate")]
        assert view(s, viewer).seats[1].cards[0].seen_by == []
    # the log tells the public which card was looked at, and the investigator what it is
    public = [e for e in public_view(s).log if e["type"] == "card_viewed"]
    assert public == [
        {
            "type": "card_viewed",
            "viewer": 0,
            "seat": 1,
            "position": 2,
            "means": "investigate",
            "v": public[0]["v"],
        }
    ]
    mine = [e for e in view(s, 0).log if e["type"] == "card_viewed"]
    assert mine[0]["card"] == K and "card_id" not in mine[0]


def test_a_face_up_card_is_visible_to_everyone() -> None:
    """RULES §11: public: every face-up card."""
    s = table(FOUR)
    s, _ = play_turn(s, C.Equip(seat=0, position=1))
    for viewer in (None, 1, 2, 3):
        assert cards(s, viewer, 0) == [A, None, None]
        assert view(s, viewer).seats[0].cards[0].face_up


def test_knowledge_follows_a_card_moved_by_blackmail() -> None:
    """RULES §11: a seat keeps knowing a card it has seen as the card moves; each receiving seat
    learns the card it received; the seat that played Blackmail sees neither."""
    # given seat 0 investigated seat 1's card 2 (a Crooked)
    s = table(FOUR, equipment=[[], [], ["blackmail"], []])
    s, _ = act(s, C.Investigate(seat=0, target=1, position=2))
    s, _ = act(s, C.Pass(seat=2))
    # when, in the end-of-turn window, seat 2 swaps it with seat 3's card 1
    s, events = act(s, C.PlayEquipment(seat=2, card="blackmail", targets=(1, 3), positions=(2, 1)))
    assert of_type(events, E.CardsExchanged)
    # then seat 0 knows it at its new place, and does not know what replaced it
    assert cards(s, 0, 3) == [K, None, None]
    assert cards(s, 0, 1) == [None, None, None]
    assert view(s, 0).seats[3].cards[0].seen_by == [0, 1]
    # the receivers learned what they got (and still know what they gave away)
    assert cards(s, 1, 1) == [KP, K, K]
    assert cards(s, 3, 3) == [K, H, K]
    assert cards(s, 3, 1) == [None, K, None]
    # the player of the Blackmail and the public learned nothing
    assert cards(s, 2, 1) == [None, None, None] and cards(s, 2, 3) == [None, None, None]
    assert cards(s, None, 1) == [None, None, None] and cards(s, None, 3) == [None, None, None]
    public = [e for e in public_view(s).log if e["type"] == "cards_exchanged"]
    assert "cards" not in public[0] and "received" not in public[0]


def test_own_equipment_hand_is_private_counts_are_public() -> None:
    """RULES §11: a seat's own equipment hand is private; how many each holds is public."""
    s = table(FOUR, equipment=[["coffee"], [], ["k9_unit"], []])
    assert view(s, 0).you.hand == ["coffee"]
    assert view(s, 2).you.hand == ["k9_unit"]
    for viewer in (None, 0, 1, 2, 3):
        assert [sv.equipment_count for sv in view(s, viewer).seats] == [1, 0, 1, 0]
    assert "k9_unit" not in str(view(s, 0)) and "coffee" not in str(public_view(s))


def test_legal_commands_are_ready_to_send_without_a_seat() -> None:
    """RULES §11/API: legal_commands lists what the seat may send; the seat is never part of it
    (the service fills it in)."""
    s = table(FOUR)
    lc = view(s, 0).legal_commands
    assert lc and all("seat" not in c for c in lc)
    assert {"type": "investigate", "target": 1, "position": 2} in lc
    assert view(s, 0).must_act and not view(s, 1).must_act
    # the seat's settings apart from its moves: open whether it must act or not
    assert view(s, 0).seat_commands == [{"type": "set_auto_pass", "enabled": True}]
    assert view(s, 1).legal_commands == []
    assert view(s, 1).seat_commands == [{"type": "set_auto_pass", "enabled": True}]
    assert public_view(s).seat_commands == [] and not public_view(s).must_act


def test_the_public_view_has_no_seat_and_no_commands() -> None:
    """RULES §11: a spectator sees the public part only."""
    s = table(FOUR, equipment=[["coffee"], [], [], []])
    v = public_view(s)
    assert v.you is None and v.legal_commands == []
    assert view(s, None) == v
    assert v.turn == 0 and v.phase == "action" and v.status == "playing"
    assert [sv.name for sv in v.seats] == ["seat0", "seat1", "seat2", "seat3"]


def test_guns_and_aims_are_public() -> None:
    """RULES §11: who holds which gun and where it aims; guns in the centre."""
    s = table(FOUR)
    s = arm(s, 0, 2)
    for viewer in (None, 1, 2, 3):
        v = view(s, viewer)
        assert v.seats[0].gun is not None and v.seats[0].gun.aimed_at == 2
        assert v.guns_in_centre == 3


def test_after_the_game_ends_every_card_is_visible_to_everyone() -> None:
    """RULES §10/§11: when the game ends, every card is revealed to everyone, and the full
    history is public."""
    # given a game that ends with both Leaders in one hand
    s = table(FOUR, equipment=[[], [], [], ["blackmail"]])
    s, _ = act(s, C.Investigate(seat=0, target=1, position=2))
    s, events = act(s, C.PlayEquipment(seat=3, card="blackmail", targets=(0, 1), positions=(2, 1)))
    assert of_type(events, E.AllRevealed)
    assert s.step == "finished"
    # then every seat's cards are known to every viewer
    final = [[A, KP, H], [H, K, K], [H, K, H], [K, H, K]]
    for viewer in (None, 0, 1, 2, 3):
        v = view(s, viewer)
        assert v.status == "finished" and v.winners == [0] and v.win_team == "solo"
        assert [[c.card for c in sv.cards] for sv in v.seats] == final
        assert v.legal_commands == []
        # and the log shows every event with its secrets
        dealt = [e for e in v.log if e["type"] == "cards_dealt"]
        assert dealt and list(dealt[0]["identities"][:3]) == [A, H, H]
        assert [e for e in v.log if e["type"] == "reaction_passed"]
        (revealed,) = [e for e in v.log if e["type"] == "all_revealed"]
        assert revealed["random_seed"] == "7"  # a string: past 2^53 JavaScript cannot hold it


def test_a_prompt_held_in_a_transient_step_shows_the_action_phase(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """A choice asked of a seat mid-action (a wound to place after a shot) holds the table in a
    transient step; views still name a phase of the contract's vocabulary (the strict client
    decodes it): the action phase of the turn. Found by random games with missed deadlines
    (six seats): every view of each game is checked, until one held a transient step."""
    from typing import get_args

    import gcbc.sim.simulate as sim
    from gcbc.rules import run
    from gcbc.rules.state import STABLE_STEPS
    from gcbc_contract.vocabulary import Phase

    transient_seen = False

    def checked_run(state, command, observe=None):  # type: ignore[no-untyped-def]
        nonlocal transient_seen
        state, events = run(state, command, observe)
        transient_seen |= state.step not in STABLE_STEPS
        for viewer in (None, *range(len(state.seats))):
            assert view(state, viewer).phase in get_args(Phase)
        return state, events

    monkeypatch.setattr(sim, "run", checked_run)
    for seed in range(20):
        sim.play_game(6, seed, miss_rate=0.3, check=False)
        if transient_seen:
            break
    assert transient_seen


def test_each_seats_team_and_eliminator_show_once_the_game_is_over_and_not_before(
    monkeypatch,  # type: ignore[no-untyped-def]
) -> None:
    """RULES §10: the end reveals every card, so every view then says each seat's team as the
    rules decide it and who eliminated each eliminated seat; no view says either before. Every
    view of random games with each expansion is checked."""
    import gcbc.sim.simulate as sim
    from gcbc.rules import run
    from gcbc.rules.state import FINISHED
    from gcbc.rules.teams import true_team
    from gcbc_contract.options import TableOptions

    ends: list[list[tuple[str | None, int | None]]] = []

    def checked_run(state, command, observe=None):  # type: ignore[no-untyped-def]
        state, events = run(state, command, observe)
        over = state.step == FINISHED
        for viewer in (None, *range(len(state.seats))):
            shown = [(sv.team, sv.eliminated_by) for sv in view(state, viewer, log=False).seats]
            if not over:
                assert shown == [(None, None)] * len(state.seats), state.version
                continue
            assert shown == [
                (true_team(state, i), st.fallen_by if st.eliminated else None)
                for i, st in enumerate(state.seats)
            ]
            if viewer is None:
                ends.append(shown)
        return state, events

    monkeypatch.setattr(sim, "run", checked_run)
    games = [
        (4, TableOptions()),
        (5, TableOptions(zombies=True)),
        (6, TableOptions(bombers_traitors=True)),
        (8, TableOptions(edition="classic", zombies=True, bombers_traitors=True)),
    ]
    for seed, (seats, options) in enumerate(games):
        sim.play_game(seats, seed, check=False, options=options)
    assert len(ends) == len(games)
    assert any(by is not None for shown in ends for _, by in shown)  # someone was eliminated


def test_each_seat_shows_its_player_to_every_viewer_as_the_services_tell() -> None:
    """A seat's registered player is public, like its profile: the services know it (the engine
    does not), and every viewer's view of one state shows the same."""
    s = table(FOUR)
    players = {1: "ab" * 8, 3: "cd" * 8}
    viewers: list[int | None] = [None, 0, 1, 2, 3]
    for v in [view(s, x, players=players) for x in viewers] + views(s, viewers, players=players):
        assert [seat.player for seat in v.seats] == [None, "ab" * 8, None, "cd" * 8]
    assert [seat.player for seat in view(s, 1).seats] == [None] * 4  # none told: none shown
