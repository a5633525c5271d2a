"""The pure rules engine: no I/O, no clock, no threads, no global randomness.

The game as a declaration (boardgame.io / the Decider pattern):
``initial_state``, ``decide(state, command) -> events``, ``evolve(state, event) -> state``,
``is_terminal``; and per seat: ``view``, ``public_view``, ``legal_commands``, ``current_wait``.
``check(state, command)`` runs only a command's guards (who may act, the phase, the move's own
rules): what ``decide`` refuses, without resolving anything.
"""

from gcbc.rules import equipment as _equipment  # noqa: F401  (registers the cards)
from gcbc.rules.decide import check, decide, run
from gcbc.rules.errors import RuleViolation
from gcbc.rules.evolve import evolve, fold
from gcbc.rules.legal import legal_commands
from gcbc.rules.state import State, initial_state, is_terminal
from gcbc.rules.views import public_view, view
from gcbc.rules.waits import Wait, current_wait

__all__ = [
    "RuleViolation",
    "State",
    "Wait",
    "check",
    "current_wait",
    "decide",
    "evolve",
    "fold",
    "initial_state",
    "is_terminal",
    "legal_commands",
    "public_view",
    "run",
    "view",
]
