"""The lobby's limits (DESIGN properties 3 and 7): a table left waiting closes, table talk is
bounded text, and a view says whether its deal was chosen (RULES §10, §11)."""

from __future__ import annotations

import msgspec
import pytest

from gcbc.rules import evolve, run, view
from gcbc.rules.state import initial_state
from gcbc_contract import commands as C
from gcbc_contract import events as E
from gcbc_contract.options import Deal, HouseBots
from gcbc_contract.views import View
from tests.support import KP, A, H, K, refused, table


def lobby(seats: int = 4, **kw):
    s, _ = run(initial_state(), C.OpenTable(table_id="t", seats=seats, **kw))
    return s


def test_a_waiting_table_closes_and_nobody_wins():
    s = lobby()
    s, _ = run(s, C.TakeSeat(name="ann"))
    s, events = run(s, C.CloseTable())
    assert events == [E.TableClosed(reason="not_started")]
    v = view(s, None)
    assert v.status == "finished" and v.winners == [] and v.win_reason == "closed_not_started"
    # a client that checks the schema reads it (the reason is one of WinReason's values)
    assert msgspec.json.decode(msgspec.json.encode(v), type=View).win_reason == v.win_reason
    assert refused(s, C.TakeSeat(name="bob")) == "game_already_started"


def test_a_started_table_does_not_close():
    s = table([[A, H, H], [KP, K, K], [H, K, H], [K, H, K]])
    assert refused(s, C.CloseTable()) == "game_already_started"


@pytest.mark.parametrize("text", ["", "   ", "x" * 501, "line\nbreak", "bell\a", "nul\x00"])
def test_table_talk_is_one_to_500_printable_characters(text):
    """RULES §10 table talk; control characters are refused as in names (they could forge
    lines in a terminal or a log)."""
    s = table([[A, H, H], [KP, K, K], [H, K, H], [K, H, K]])
    assert refused(s, C.PostChat(seat=0, text=text)) == "bad_text"


def test_a_view_carries_only_the_latest_chat_messages():
    s = table([[A, H, H], [KP, K, K], [H, K, H], [K, H, K]])
    for i in range(60):
        s, _ = run(s, C.PostChat(seat=i % 4, text=f"m{i}"))
    v = view(s, 1, chat_limit=50)
    assert [m["text"] for m in v.chat] == [f"m{i}" for i in range(10, 60)]
    assert len(view(s, 1).chat) == 60  # no limit: all of them (the history has them all)


def test_a_view_says_when_its_deal_was_chosen():
    """DESIGN property 3: a seed or a deal chosen by the creator is shown in every view."""
    assert view(lobby(), None).seeded is False
    assert view(lobby(random_seed=5), None).seeded is True
    deal = Deal(integrity=((A, H, H), (KP, K, K), (H, K, H), (K, H, K)))
    assert view(lobby(deal=deal), 2).seeded is True


def test_a_seat_posts_at_most_the_tables_chat_limit():
    """One seat cannot fill a table's chat; the limit is the server's, recorded with
    the table (TableOpened.chat_per_seat), so a replay refuses the same messages."""
    s, _ = run(initial_state(), C.OpenTable(table_id="t", seats=4, chat_per_seat=2))
    s, _ = run(s, C.TakeSeat(name="ann"))
    s, _ = run(s, C.TakeSeat(name="bob"))
    for text in ("one", "two"):
        s, _ = run(s, C.PostChat(seat=0, text=text))
    assert refused(s, C.PostChat(seat=0, text="three")) == "chat_full"
    s, _ = run(s, C.PostChat(seat=1, text="mine"))  # another seat has its own
    assert [m["text"] for m in view(s, None).chat] == ["one", "two", "mine"]


def test_a_seat_left_before_the_start_takes_its_messages_with_it():
    """RULES §10 (decision): the chat names seats, so the next to take a seat left in the lobby
    is neither shown as the author of what was said there nor counted for it."""
    s, _ = run(initial_state(), C.OpenTable(table_id="t", seats=4, chat_per_seat=2))
    s, _ = run(s, C.TakeSeat(name="ann"))
    s, _ = run(s, C.TakeSeat(name="bob"))
    for seat, text in ((0, "I am crooked, shoot me"), (1, "hi"), (0, "really")):
        s, _ = run(s, C.PostChat(seat=seat, text=text))
    assert refused(s, C.PostChat(seat=0, text="more")) == "chat_full"
    s, _ = run(s, C.LeaveSeat(seat=0))
    s, _ = run(s, C.TakeSeat(name="cy"))  # seat 0 again
    assert [m["text"] for m in view(s, None).chat] == ["hi"]
    s, _ = run(s, C.PostChat(seat=0, text="cy here"))
    assert [(m["seat"], m["text"]) for m in view(s, 1).chat] == [(1, "hi"), (0, "cy here")]


def test_the_house_takes_its_seats_as_the_table_opens_and_players_take_the_others():
    """The sandbox (docs/api.md ``bots``): the house's seats are taken when the table opens, named
    "House bot N"; players take the free seats in order; views say which seats are the house's."""
    from gcbc_contract.options import HouseBots

    bots = HouseBots(seats=(1, 2), kind="heuristic")
    s = lobby(4, bots=bots)
    assert [st.name if st else None for st in s.seats] == [None, "House bot 1", "House bot 2", None]
    s, events = run(s, C.TakeSeat(name="ann"))
    assert events == [E.SeatTaken(seat=0, name="ann")]
    s, events = run(s, C.TakeSeat(name="bob"))
    assert events == [E.SeatTaken(seat=3, name="bob")]
    assert refused(s, C.TakeSeat(name="cy")) == "table_full"
    assert view(s, None).bots == bots and view(s, 0).bots == bots
    s, _ = run(s, C.StartGame(random_seed=5))
    assert view(s, 1).you is not None and view(s, 1).you.team is not None


@pytest.mark.parametrize("seats", [(), (0, 0), (4,), (-1,)])
def test_the_house_seats_are_distinct_seats_of_the_table(seats):
    from gcbc_contract.options import HouseBots

    command = C.OpenTable(table_id="t", seats=4, bots=HouseBots(seats=seats))
    assert refused(initial_state(), command) == "bad_parameters"


def test_a_player_who_leaves_a_started_game_is_away_and_comes_back_with_any_command():
    """RULES §10: leaving once the game started makes the seat absent: its
    autopilot plays, its cards stay its own; ``resume`` (or any command) brings it back."""
    s = table([[A, H, H], [KP, K, K], [H, K, H], [K, H, K]])
    s, events = run(s, C.LeaveSeat(seat=2))
    assert E.SeatAbsent(seat=2) in events and s.seats[2].absent
    assert s.seats[2].cards and view(s, 2).you.seat == 2  # still seated, still its cards
    assert refused(s, C.LeaveSeat(seat=2)) == "already_away"
    s, events = run(s, C.Resume(seat=2))
    assert events[0] == E.SeatReturned(seat=2) and not s.seats[2].absent


def test_a_seat_left_at_the_turn_is_played_by_its_autopilot_at_once():
    s = table([[A, H, H], [KP, K, K], [H, K, H], [K, H, K]])
    turn = s.turn_seat
    s, events = run(s, C.LeaveSeat(seat=turn))
    assert E.AutopilotActed(seat=turn, missed=False) in events
    assert s.turn_seat != turn or s.step != "action"


def test_a_rematch_keeps_the_seats_of_the_last_game_for_their_players():
    """A rematch holds the last game's seats; each player claims its own; a
    newcomer takes only a seat nobody holds."""
    s = lobby(4, rematch_of="0123456789abcdef", held=(0, 2))
    s, events = run(s, C.TakeSeat(name="new"))
    assert events == [E.SeatTaken(seat=1, name="new")]
    s, events = run(s, C.TakeSeat(name="ann", seat_wanted=2))
    assert events == [E.SeatTaken(seat=2, name="ann")]
    assert refused(s, C.TakeSeat(name="eve", seat_wanted=2)) == "seat_taken"
    s, _ = run(s, C.TakeSeat(name="bob"))  # seat 3
    assert refused(s, C.TakeSeat(name="cy")) == "table_full"  # seat 0 is kept for its player
    s, events = run(s, C.TakeSeat(name="dan", seat_wanted=0))
    assert events == [E.SeatTaken(seat=0, name="dan")] and not s.reserved


def test_invited_seats_are_kept_and_an_invitee_is_a_newcomer_by_its_name():
    """An invitee takes the seat its code keeps (the table service checked the code), under a
    name checked as anyone's; strangers take only the other seats."""
    s = lobby(4, held=(2, 3), invitations=("h2", "h3"))
    s, _ = run(s, C.TakeSeat(name="ann"))
    s, _ = run(s, C.TakeSeat(name="bob"))
    assert refused(s, C.TakeSeat(name="cy")) == "table_full"
    assert refused(s, C.TakeSeat(name="ANN", seat_wanted=3)) == "name_taken"
    s, events = run(s, C.TakeSeat(name="  dee  ", seat_wanted=3))
    assert events == [E.SeatTaken(seat=3, name="dee")] and s.reserved == {2}


def test_invitations_come_one_per_held_seat_and_never_at_a_rematch():
    opening = C.OpenTable(table_id="t", seats=4, held=(2, 3), invitations=("h2",))
    assert refused(initial_state(), opening) == "bad_parameters"
    rematch = C.OpenTable(
        table_id="t", seats=4, rematch_of="0123456789abcdef", held=(3,), invitations=("h",)
    )
    assert refused(initial_state(), rematch) == "bad_parameters"


@pytest.mark.parametrize("other", ["ann", "\u0430nn", "ａｎｎ", "ann\u00a0", "  ann  ", "ANN"])
def test_a_name_that_looks_like_one_at_the_table_is_taken(other):
    s = lobby(8, bots=HouseBots(seats=(7,)))
    s, _ = run(s, C.TakeSeat(name="ann"))
    assert refused(s, C.TakeSeat(name=other)) == "name_taken"


@pytest.mark.parametrize(
    "name", ["House bot 3", "house  bot 7", "ＨＯＵＳＥ ＢＯＴ ３", "Housebot 12"]
)
def test_the_house_names_are_the_houses_at_any_table(name):
    assert refused(lobby(8, bots=HouseBots(seats=(3,))), C.TakeSeat(name=name)) == "name_reserved"
    assert refused(lobby(4), C.TakeSeat(name=name)) == "name_reserved"


@pytest.mark.parametrize("name", ["", " ", "\u00a0\u3000", "\t\n"])
def test_a_name_empty_once_trimmed_is_refused(name):
    assert refused(lobby(), C.TakeSeat(name=name)) == "bad_name"


def test_a_name_is_taken_normalised_and_frees_with_its_seat():
    s = lobby()
    s, events = run(s, C.TakeSeat(name="\u00a0Ｚｏë \u00a0 Ray "))
    assert events == [E.SeatTaken(seat=0, name="Zoë Ray")]
    assert view(s, None).seats[0].name == "Zoë Ray"
    s, _ = run(s, C.LeaveSeat(seat=0))
    s, events = run(s, C.TakeSeat(name="zoë ray"))  # free again once its seat is
    assert events == [E.SeatTaken(seat=0, name="zoë ray")]


def test_a_rematchs_player_comes_back_under_its_name_whatever_the_names_before():
    """A table of older rules may have seated look-alikes (or a house name): their rematch
    seats each player under the name it had."""
    s = lobby(4, rematch_of="0123456789abcdef", held=(0, 1, 2))
    s, _ = run(s, C.TakeSeat(name="ann", seat_wanted=0))
    s, events = run(s, C.TakeSeat(name="Ann", seat_wanted=1))
    assert events == [E.SeatTaken(seat=1, name="Ann")]
    s, events = run(s, C.TakeSeat(name="House bot 9", seat_wanted=2))
    assert events == [E.SeatTaken(seat=2, name="House bot 9")]


def test_seats_recorded_under_any_name_fold_as_they_were():
    """Old logs: a seat taken under a name these rules would refuse still folds as recorded."""
    s = lobby()
    for seat, name in enumerate(["ann", "\u0430nn", "House bot 3", " padded "]):
        s = evolve(s, E.SeatTaken(seat=seat, name=name))
    assert [st.name for st in s.seats] == ["ann", "\u0430nn", "House bot 3", " padded "]
