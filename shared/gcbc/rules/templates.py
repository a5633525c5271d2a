"""Templates: where a card's choices multiply past TEMPLATE_LIMIT, its legal commands are listed
as commands with choices left open (``choose``), which a client fills (docs/api.md)."""

from __future__ import annotations

from typing import Any

from gcbc_contract import commands as C

TEMPLATE_LIMIT = 200  # past this many options, a move lists templates instead


def is_template(entry: Any) -> bool:
    return isinstance(entry, dict)


def template(card: str, seat: int, fixed: dict[str, Any], choose: dict[str, Any]) -> dict[str, Any]:
    """A command with choices left open: ``choose`` maps a parameter to its allowed values; for a
    list parameter, a list of per-element allowed values."""
    return {"type": "play_equipment", "seat": seat, "card": card, **fixed, "choose": choose}


def expand(entry: dict[str, Any], pick: Any) -> C.PlayEquipment:
    """A concrete command from a template; ``pick(values)`` chooses one value."""
    fields = {k: v for k, v in entry.items() if k not in ("type", "choose")}
    for name, allowed in entry["choose"].items():
        if allowed and isinstance(allowed[0], list):
            fields[name] = tuple(pick(a) for a in allowed)
        else:
            fields[name] = pick(allowed)
    for k in ("targets", "positions"):
        if k in fields:
            fields[k] = tuple(fields[k])
    return C.PlayEquipment(**fields)
