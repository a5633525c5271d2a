"""Long simulator runs (``make bench``): many complete games, every invariant checked, with the
default options and with every combination of the table options."""

import pytest

from gcbc.sim.simulate import simulate
from tests.property.strategies import OPTION_SETS, options_id


@pytest.mark.slow
@pytest.mark.parametrize("bot", ["random", "heuristic"])
def test_thousand_games_finish_without_violations(bot):
    result = simulate(1000, [4, 5, 6, 7, 8], 11, bot, check=True, miss_rate=0.02)
    assert result["finished"] == result["games"]
    assert result["invariant_violations"] == 0, result["violation_examples"]


@pytest.mark.slow
@pytest.mark.parametrize("options", OPTION_SETS, ids=options_id)
@pytest.mark.parametrize("bot", ["random", "heuristic"])
def test_every_option_combination_finishes_without_violations(bot, options):
    """RULES §7-§9: 300 games of 4-8 seats per option combination, the autopilot playing too."""
    result = simulate(300, [4, 5, 6, 7, 8], 12, bot, check=True, miss_rate=0.02, options=options)
    assert result["finished"] == result["games"]
    assert result["invariant_violations"] == 0, result["violation_examples"]
