"""The simulator (a short run; ``make bench`` runs the long ones)."""

import json
from collections import Counter

from gcbc.bots import Observation, RandomBot
from gcbc.rules.decide import check
from gcbc.rules.legal import legal_commands, legal_groups
from gcbc.rules.state import initial_state
from gcbc.rules.templates import template
from gcbc.rules.views import commands_json
from gcbc.sim import simulate as simulate_module
from gcbc.sim.simulate import main, play_game, simulate
from gcbc_contract import commands as C
from gcbc_contract.codec import command_from_json_object
from tests.property.strategies import OPTION_SETS


def test_games_finish_at_every_player_count_with_no_violation():
    result = simulate(25, [4, 5, 6, 7, 8], 3, "random", check=True, miss_rate=0.05)
    assert result["games"] == 25
    assert result["finished"] == 25
    assert result["invariant_violations"] == 0, result["violation_examples"]
    assert sum(result["wins"].values()) == 25


def test_heuristic_bots_finish_their_games():
    result = simulate(15, [4, 6, 8], 5, "heuristic", check=True)
    assert result["finished"] == 15
    assert result["invariant_violations"] == 0


def test_same_seed_same_game():
    a, sa = play_game(6, 42, "random", check=False, miss_rate=0.1)
    b, sb = play_game(6, 42, "random", check=False, miss_rate=0.1)
    assert a == b
    assert list(sa.log) == list(sb.log)


def test_processes_share_the_games_and_the_figures_do_not_change():
    def figures(workers: int) -> dict:
        result = simulate(9, [4, 6, 8], 7, "random", check=True, miss_rate=0.05, workers=workers)
        assert result["workers"] == workers
        return {
            k: v
            for k, v in result.items()
            if k not in ("games_per_second", "cpu_ms_per_game", "workers")
        }

    one = figures(1)
    assert one["finished"] == 9
    assert figures(2) == one
    assert figures(3) == one


def test_cli_prints_one_json_object_last(capsys):
    code = main(["--games", "3", "--players", "5", "--seed", "2", "--games", "4"])
    out = capsys.readouterr().out.strip().splitlines()
    result = json.loads(out[-1])
    assert code == 0
    assert result["games"] == 4  # a later --games wins
    for key in (
        "games",
        "finished",
        "wins",
        "mean_turns",
        "max_turns",
        "invariant_violations",
        "games_per_second",
    ):
        assert key in result


def _twin(bot: RandomBot) -> RandomBot:
    twin = RandomBot(0)
    twin.rng.setstate(bot.rng.getstate())
    return twin


def _as_from_json(bot: RandomBot, s, seat: int):
    """What the bot answers from the JSON a client sees (``act``), as a command."""
    answer = bot.act(simulate_module._observation(s, seat))
    return command_from_json_object({**answer, "seat": seat})


def _kind(command) -> str:
    return command["type"] if isinstance(command, dict) else command.__struct_config__.tag


def test_random_bots_pick_from_the_engine_commands_with_the_law_of_json_bots(monkeypatch):
    """The simulator hands random bots the engine's commands, without the JSON round trip, and
    lists only the kinds it draws: its picks follow the law of ``RandomBot.pick`` over the JSON a
    client sees (a kind drawn among those with commands, set_auto_pass aside, then one of its
    commands, each uniformly): every pick is a legal command, and over many draws in one state
    every kind and every command of a kind comes up about as often as the law says."""
    waits = []
    real = simulate_module._random_move

    def recorded(bot, s, seat, groups=None):
        waits.append((s, seat, groups))
        return real(bot, s, seat, groups)

    monkeypatch.setattr(simulate_module, "_random_move", recorded)
    for i, options in enumerate(OPTION_SETS[::3]):
        play_game(4 + i % 5, 100 + i, "random", check=False, miss_rate=0.02, options=options)
    assert len(waits) > 1000
    draws = 240
    tried = 0
    for s, seat, groups in waits[::40]:
        legal = legal_commands(s, seat)
        kinds = {_kind(c) for c in legal} - {"set_auto_pass"}
        picks = Counter()
        for seed in range(draws):
            command = real(RandomBot(seed), s, seat, groups)
            assert not isinstance(command, dict)
            check(s, command)  # a legal command (a template filled in is one too)
            picks[command] += 1
        by_kind = Counter()
        for command, n in picks.items():
            by_kind[_kind(command)] += n
        assert set(by_kind) == kinds or not kinds
        for kind in kinds:
            assert abs(by_kind[kind] / draws - 1 / len(kinds)) < 0.12, (kind, by_kind)
            listed = [c for c in legal if _kind(c) == kind]
            if len(listed) > 1 and not any(isinstance(c, dict) for c in listed):
                expected = by_kind[kind] / len(listed)
                assert all(abs(picks[c] - expected) < 6 * expected**0.5 + 2 for c in listed)
        tried += 1
    assert tried > 25


def test_a_random_bot_picking_a_template_fills_it_as_from_json(monkeypatch):
    open_choice = template("metal_detector", 2, {"targets": (0, 1)}, {"positions": [[1, 2], [3]]})
    legal = [C.Pass(seat=2), open_choice, C.SetAutoPass(seat=2, enabled=True)]
    monkeypatch.setattr(simulate_module, "legal_commands", lambda s, seat: legal)
    s = initial_state()
    for seed in range(12):
        bot = RandomBot(seed)
        twin = _twin(bot)
        answer = twin.act(Observation(2, lambda: None, lambda: commands_json(legal)))
        assert simulate_module._random_move(bot, s, 2) == command_from_json_object(
            {**answer, "seat": 2}
        )
        assert bot.rng.getstate() == twin.rng.getstate()


def test_a_game_is_the_same_whether_its_commands_are_checked_again_or_not():
    """Without the invariant checks (an observer of every state), the same game as the checking
    run's."""
    for i, options in enumerate(OPTION_SETS[1::4]):
        n, seed = 4 + i % 5, 200 + i
        checked, s1 = play_game(n, seed, "random", check=True, miss_rate=0.02, options=options)
        fast, s2 = play_game(n, seed, "random", check=False, miss_rate=0.02, options=options)
        assert checked.violations == []
        assert list(s1.log) == list(s2.log)


def test_waiting_groups_are_the_current_waits_seats_and_what_they_may_send():
    """The simulator draws the seat to act among ``waiting_groups``' seats: those of
    ``current_wait``, with the groups each may send in a state the table waits in (``legal_groups``
    of each)."""
    from gcbc.rules import current_wait, fold
    from gcbc.rules.flow import next_events
    from gcbc.rules.legal import waiting_groups

    waited = 0
    for seed, options in enumerate(OPTION_SETS[:8]):
        _, final = play_game(5, 300 + seed, "random", check=False, miss_rate=0.1, options=options)
        s = initial_state()
        for event in final.log:
            s = fold((event,), s)
            if s.step != "lobby" and not next_events(s):  # the table waits here
                wait = current_wait(s)
                seats, groups = waiting_groups(s)
                assert seats == (() if wait is None else wait.seats)
                assert all(legal_groups(s, seat) is groups for seat in seats)
                waited += bool(seats)
    assert waited > 500
