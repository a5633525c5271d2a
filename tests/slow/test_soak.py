"""Long simulator runs (``make bench``): many complete games, every invariant checked."""

import pytest

from gcbc.simulate import simulate


@pytest.mark.slow
@pytest.mark.parametrize("bot", ["random", "heuristic"])
def test_thousand_games_finish_without_violations(bot):
    result = simulate(1000, [4, 5, 6, 7, 8], 11, bot, check=True, miss_rate=0.02)
    assert result["finished"] == result["games"]
    assert result["invariant_violations"] == 0, result["violation_examples"]
