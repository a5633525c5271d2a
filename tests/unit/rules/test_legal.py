"""``legal_groups``: the groups ``legal_commands`` lists, one kind of command each, that say
whether they have any command without listing them, and draw one of them as likely as any other
(the simulator's random bots draw a kind, then one of its commands)."""

from __future__ import annotations

import random

import pytest

from gcbc.rules.legal import is_template, legal_commands, legal_groups
from gcbc_contract.options import TableOptions
from tests.unit.rules.test_moves import OPTIONS, check_draws, states


def kind(command) -> str:  # noqa: ANN001
    return command["type"] if is_template(command) else type(command).__struct_config__.tag


@pytest.mark.parametrize("options", OPTIONS, ids=lambda o: str(o))
def test_groups_list_the_legal_commands_one_kind_each(options: TableOptions) -> None:
    checked = 0
    rng = random.Random(0)
    for seed in (4, 5):
        for s in states(options, seed):
            for seat in range(-1, len(s.seats) + 1):
                groups = legal_groups(s, seat)
                assert len({g.kind for g in groups}) == len(groups)
                listed = []
                for g in groups:
                    commands = g.options(s, seat)
                    assert g.possible(s, seat) == bool(commands), g.kind
                    assert all(kind(c) == g.kind for c in commands), g.kind
                    check_draws(lambda choose: g.draw(s, seat, choose), commands, rng, g.kind)  # noqa: B023
                    listed += commands
                    checked += bool(commands)
                assert listed == legal_commands(s, seat)
    assert checked > 100
