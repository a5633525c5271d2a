"""The bench's no-op rules (tools/noop_rules.py): game commands neither checked nor decided, the
lobby's commands as the engine has them."""

from __future__ import annotations

import pytest

from gcbc import rules
from gcbc.rules.errors import RuleViolation
from gcbc_contract import commands as C
from tools.noop_rules import NOOP


def _opened() -> rules.State:
    s = rules.initial_state()
    for e in rules.decide(s, C.OpenTable(table_id="0123456789abcdef", seats=4)):
        s = rules.evolve(s, e)
    return s


def test_a_game_command_is_neither_checked_nor_decided():
    s = _opened()
    with pytest.raises(RuleViolation):
        rules.check(s, C.Pass(seat=2))  # the engine: the game has not started
    NOOP.check(s, C.Pass(seat=2))
    assert NOOP.decide(s, C.Pass(seat=2)) == []


def test_the_lobby_commands_are_the_engines():
    s = _opened()
    assert NOOP.decide(s, C.TakeSeat(name="ann")) == rules.decide(s, C.TakeSeat(name="ann"))
    with pytest.raises(RuleViolation):
        NOOP.check(s, C.StartGame(seat=0, random_seed=1))  # no seat is taken yet
