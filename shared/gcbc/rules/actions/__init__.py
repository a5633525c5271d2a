"""The turn's actions (RULES §3.1; a zombie's, §8): one module each, behind one contract
(``base.Action``, a ``moves.Move``: what it requires, its parameters, what it resolves to).
"Change Investigate" means opening ``investigate.py``: its command's refusals, its options in
``legal_commands`` and whether it still resolves all come from its declaration there."""

from gcbc.rules.actions.arm import ARM
from gcbc.rules.actions.base import Action
from gcbc.rules.actions.bite import BITE
from gcbc.rules.actions.equip import EQUIP
from gcbc.rules.actions.investigate import INVESTIGATE
from gcbc.rules.actions.shoot import SHOOT

# in the order a seat's options list them (legal_commands)
ACTIONS: tuple[Action, ...] = (INVESTIGATE, ARM, SHOOT, BITE, EQUIP)
BY_COMMAND: dict[type, Action] = {a.command: a for a in ACTIONS}
BY_NAME: dict[str, Action] = {a.name: a for a in ACTIONS}

__all__ = ["ACTIONS", "ARM", "BITE", "BY_COMMAND", "BY_NAME", "EQUIP", "INVESTIGATE", "SHOOT"]
