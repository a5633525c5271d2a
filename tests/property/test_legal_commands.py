"""``legal_commands`` and ``decide`` agree both ways, at random points of random games:

- every listed command of every seat is accepted by ``run`` (templates: a few random concrete
  commands expanded from each);
- unlisted commands are refused with a ``RuleViolation`` whose code is in ``errors.CODES``
  (nothing else may escape): the waiting seats' commands handed to seats not waited for, listed
  commands with another target / position / card / ..., and commands of every type for seats not
  waited for (and for seats that do not exist). Any such candidate that *is* listed (e.g. a
  SetAutoPass that changes the setting), or is a listed one's pair of seats named the other way
  (RULES §7.3 decision: the same play), must be accepted instead.
"""

from __future__ import annotations

import random
from itertools import permutations
from typing import Any

import msgspec
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from msgspec.structs import replace

from gcbc.rules import RuleViolation, current_wait, is_terminal, legal_commands, run
from gcbc.rules.equipment.registry import CARDS
from gcbc.rules.errors import CODES
from gcbc.rules.legal import expand, is_template
from gcbc.rules.state import State
from gcbc_contract import codec
from gcbc_contract import commands as C
from gcbc_contract.cards import EQUIPMENT_CARDS
from gcbc_contract.options import TableOptions
from tests.property.strategies import (
    OPTION_SAMPLE,
    OPTION_SAMPLE_IDS,
    OPTION_SETS,
    PLAYER_COUNTS,
    Plan,
    Step,
    options_id,
    plans,
    play,
)

SETTINGS = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])

CHECK_RATE = 0.1  # the share of a game's states checked
EXPANSIONS = 3  # concrete commands tried per template
CANDIDATES = 40  # unlisted candidates tried per checked state
LIST_FIELDS = ("targets", "positions")


def arranged(c: Any) -> Any:
    """``c`` as its card reads it: seats named in any order (``Card.targets_in_any_order``) put
    in increasing order, each with its card (the order the listed commands name them in)."""
    if not isinstance(c, C.PlayEquipment) or c.card not in CARDS:
        return c
    return CARDS[c.card].arranged(c)


def builtins(c: Any) -> dict[str, Any]:
    return msgspec.to_builtins(c)


def matches(template: dict[str, Any], d: dict[str, Any]) -> bool:
    """Whether the concrete command ``d`` (builtins) is one the template allows."""
    choose = template["choose"]
    fixed = msgspec.to_builtins({k: v for k, v in template.items() if k != "choose"})
    if {k: v for k, v in d.items() if k not in choose} != fixed:
        return False
    for name, allowed in choose.items():
        value = d.get(name)
        if allowed and isinstance(allowed[0], list):
            if not isinstance(value, (list, tuple)) or len(value) != len(allowed):
                return False
            if any(x not in a for x, a in zip(value, allowed, strict=True)):
                return False
        elif value not in allowed:
            return False
    return True


class Listed:
    """The listed commands of each seat of one state."""

    def __init__(self, s: State) -> None:
        self.s = s
        self.cache: dict[int, tuple[list[dict[str, Any]], list[dict[str, Any]]]] = {}

    def of(self, seat: int) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
        if seat not in self.cache:
            entries = legal_commands(self.s, seat)
            self.cache[seat] = (
                [builtins(c) for c in entries if not is_template(c)],
                [c for c in entries if is_template(c)],
            )
        return self.cache[seat]

    def __contains__(self, c: Any) -> bool:
        seat = getattr(c, "seat", -1)
        if not isinstance(seat, int) or not 0 <= seat < len(self.s.seats):
            return False
        concrete, templates = self.of(seat)
        d = builtins(c)
        return d in concrete or any(matches(t, d) for t in templates)


def well_typed(c: Any) -> bool:
    """Only commands that could come off the wire (the codec refuses e.g. a null target)."""
    try:
        return codec.decode_command(codec.encode(c)) == c
    except msgspec.ValidationError:
        return False


def accepted(s: State, c: Any) -> bool:
    try:
        run(s, c)
    except RuleViolation as v:
        assert v.code in CODES, f"{c}: unknown code {v.code}"
        return False
    return True


def concrete_listed(s: State, seat: int, rng: random.Random) -> list[Any]:
    out = []
    for entry in legal_commands(s, seat):
        if is_template(entry):
            out += [expand(entry, rng.choice) for _ in range(EXPANSIONS)]
        else:
            out.append(entry)
    return out


def mutations(c: Any, n: int, rng: random.Random) -> list[Any]:
    """``c`` with one parameter changed (target, position, card, ...)."""
    seats = list(range(-1, n + 1))
    positions = [None, 0, 1, 2, 3, 4]
    cards = [*EQUIPMENT_CARDS, "bogus"]
    out = []
    fields = msgspec.structs.asdict(c)
    for name, value in fields.items():
        if name in ("seat", "command_id"):
            continue
        if name in ("target", "aim"):
            out += [replace(c, **{name: t}) for t in [None, *seats] if t != value]
        elif name == "position":
            out += [replace(c, position=p) for p in positions if p != value]
        elif name == "card":
            out += [replace(c, card=x) for x in cards if x != value]
        elif name in LIST_FIELDS:
            if name == "positions" and isinstance(c, C.Arrange):
                values = [(1, 1, 2), (1, 2), (1, 2, 3, 4), (0, 1, 2), *permutations((1, 2, 3))]
                out += [replace(c, positions=v) for v in values]
                continue
            pool = seats if name == "targets" else positions[1:]
            out.append(replace(c, **{name: ()}))
            for _ in range(4):
                k = rng.choice([1, 2, 2, 3])
                out.append(replace(c, **{name: tuple(rng.choice(pool) for _ in range(k))}))
            if len(value) >= 2:
                out.append(replace(c, **{name: tuple(reversed(value))}))
        elif name == "choice":
            choices = (None, "hand", "bogus", "agent", "kingpin", *EQUIPMENT_CARDS)
            out += [replace(c, choice=x) for x in choices]
        elif name == "enabled":
            out.append(replace(c, enabled=not value))
    return out


def any_command(seat: int, n: int, rng: random.Random) -> list[Any]:
    """Commands of every game type for ``seat``, with random parameters."""
    t = rng.randrange(-1, n + 1)
    p = rng.choice([None, 0, 1, 2, 3, 4])
    card = rng.choice([*EQUIPMENT_CARDS, "bogus"])
    targets = tuple(rng.randrange(-1, n + 1) for _ in range(rng.choice([0, 1, 2, 2])))
    positions = tuple(rng.randrange(0, 5) for _ in range(rng.choice([0, 1, 2, 2])))
    return [
        C.Arrange(seat=seat, positions=rng.choice(list(permutations((1, 2, 3))) + [(1, 1, 1)])),
        C.Investigate(seat=seat, target=t, position=p if p is not None else 1),
        C.Equip(seat=seat, position=p),
        C.Arm(seat=seat, target=t, position=p),
        C.Shoot(seat=seat),
        C.Bite(seat=seat),
        C.Aim(seat=seat, target=t),
        C.PlayEquipment(seat=seat, card=card),
        C.PlayEquipment(seat=seat, card=card, target=t),
        C.PlayEquipment(seat=seat, card=card, targets=targets, positions=positions),
        C.PlayEquipment(seat=seat, card=card, targets=targets, choice="hand"),
        C.Pass(seat=seat),
        C.Choose(seat=seat, target=t),
        C.Choose(seat=seat, position=p),
        C.Choose(seat=seat),
        C.Discard(seat=seat, card=card),
        C.SetAutoPass(seat=seat, enabled=rng.random() < 0.5),
        C.Resume(seat=seat),
    ]


def never_accepted(s: State, seat: int) -> list[Any]:
    """System and lobby commands a started game refuses, whoever sends them (leaving is not
    one: a seat that leaves a started game is away)."""
    w = current_wait(s)
    stale = (w.id if w is not None else 0) + 1
    return [
        C.OpenTable(table_id="t", seats=len(s.seats)),
        C.TakeSeat(name="late"),
        C.StartGame(random_seed=1),
        C.DeadlinePassed(wait=stale),
    ]


def check_state(s: State, rng: random.Random) -> int:
    """Both directions at ``s``; returns how many commands were tried."""
    n = len(s.seats)
    listed = Listed(s)
    w = current_wait(s)
    assert w is not None
    waited = set(w.seats)
    others = [i for i in range(n) if i not in waited]
    tried = 0
    # every listed command is accepted
    for seat in range(n):
        for c in concrete_listed(s, seat, rng):
            assert c in listed, f"{c} expanded from a template does not match it"
            assert accepted(s, c), f"listed {c} refused"
            tried += 1
    # unlisted candidates are refused (and listed ones accepted)
    candidates: list[Any] = []
    for seat in waited:
        for c in concrete_listed(s, seat, rng):
            candidates += [replace(c, seat=o) for o in others]  # (a)
            candidates += mutations(c, n, rng)  # (b)
    for seat in [*others, -1, n]:
        candidates += any_command(seat, n, rng)  # (c)
    candidates = [c for c in candidates if well_typed(c)]
    for c in rng.sample(candidates, min(CANDIDATES, len(candidates))):
        if c in listed or arranged(c) in listed:
            assert accepted(s, c), f"{c} is listed (as a mutation) but refused"
        else:
            assert not accepted(s, c), f"unlisted {c} accepted at step {s.step}, wait {w}"
        tried += 1
    for c in never_accepted(s, rng.randrange(n)):
        assert not accepted(s, c), f"{c} accepted during the game"
    return tried


def check_game(plan: Plan) -> None:
    rng = random.Random(plan.choices ^ 0x5EED)
    stats = {"states": 0, "tried": 0}

    def observe(step: Step) -> None:
        s = step.after
        if is_terminal(s) or not s.identities:
            return
        first = len(step.before.identities) == 0  # the deal: the arrange step
        if first or rng.random() < CHECK_RATE:
            stats["states"] += 1
            stats["tried"] += check_state(s, rng)

    play(plan, observe)
    assert stats["states"] >= 1 and stats["tried"] > 0


@pytest.mark.parametrize("n", PLAYER_COUNTS)
@settings(SETTINGS, max_examples=12)
@given(data=st.data())
def test_listed_commands_accepted_unlisted_refused(n: int, data: st.DataObject) -> None:
    check_game(data.draw(plans(n, TableOptions()), label="plan"))


@pytest.mark.slow
@pytest.mark.parametrize("n", PLAYER_COUNTS)
@SETTINGS
@given(data=st.data())
def test_listed_commands_accepted_unlisted_refused_in_more_games(
    n: int, data: st.DataObject
) -> None:
    check_game(data.draw(plans(n, TableOptions()), label="plan"))


@pytest.mark.parametrize(("options", "n"), OPTION_SAMPLE, ids=OPTION_SAMPLE_IDS)
@settings(SETTINGS, max_examples=1)  # 32 games: each combination once, the counts in turn
@given(data=st.data())
def test_legal_commands_each_option_combination(options: Any, n: int, data: st.DataObject) -> None:
    """legal_commands and decide agree for every combination of options, and at every count."""
    check_game(data.draw(plans(n, options), label="plan"))


@pytest.mark.slow
@pytest.mark.parametrize("n", PLAYER_COUNTS)
@pytest.mark.parametrize("options", OPTION_SETS, ids=options_id)
@settings(SETTINGS, max_examples=1)  # 160 games: 32 combinations (both wounds), 5 counts
@given(data=st.data())
def test_legal_commands_every_option_combination(options: Any, n: int, data: st.DataObject) -> None:
    """legal_commands and decide agree for every combination of options (§7.2, §8, §9)."""
    check_game(data.draw(plans(n, options), label="plan"))


@settings(SETTINGS, max_examples=30)
@given(plan=plans())
def test_legal_commands_any_player_count(plan: Plan) -> None:
    check_game(plan)
