"""The simulator (a short run; ``make bench`` runs the long ones)."""

import json

from gcbc.sim.simulate import main, play_game, simulate


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
