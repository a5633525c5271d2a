"""Weapon Crate (RULES §8.1): every living seat that has no face-down integrity card may take a
gun (if it holds none and one is in the centre) and aim it, or change its gun's aim; a gun so taken
cannot shoot this turn. A zombie (§8: cards on guns act on Arms; zombies cannot take a gun) may
turn its Arms instead.

Each such seat is asked in turn, in turn order from you (you first), by a "weapon_crate" prompt
whose options are the seats it may aim at: ``Choose(target=t)`` takes a gun aimed at ``t`` (or
turns its gun to ``t``), ``Choose()`` declines. A seat is asked only if it holds a gun or one is
left in the centre when its turn to answer comes (the next prompt opens once the previous one is
answered). Needs at least one such seat.

Decisions: the order and the one-at-a-time prompts above (turn order, as the Alarm Clock's guns
go: the way turns go round the table now, so a Smoke Grenade's reversal counts once it took
effect); an armed seat naming its current aim keeps it (as declining); the turn seat may take a
gun on its own turn (and may not shoot it), but not once a classic K-9 Unit took its gun this turn
(§7.2: then it is not asked)."""

from __future__ import annotations

from gcbc.rules.equipment.base import Answer, Card
from gcbc.rules.equipment.registry import register
from gcbc.rules.evolve import peek
from gcbc.rules.moves import Rule
from gcbc.rules.query import alive, face_down, others_alive, turn_order
from gcbc.rules.timing import ANY
from gcbc_contract.events import ArmsAimed, GunAimed, GunTaken, PromptAnswered, PromptOpened


def may_act(s, seat):
    st = s.seat(seat)
    if not alive(s, seat) or face_down(s, seat):
        return False
    if st.zombie or st.gun:
        return True
    # a seat a classic K-9 Unit disarmed in its own turn may not take a gun this turn (RULES §7.2)
    return s.guns_in_centre > 0 and s.marks.arm_barred != seat


def asked_after(s, player, after=None):
    """The seats, in turn order from ``player``, after ``after`` (None: from the start), that may
    act now."""
    order = turn_order(s, player)
    if after is not None:
        order = order[order.index(after) + 1 :]
    return [i for i in order if may_act(s, i)]


@register
class WeaponCrate(Card):
    name = "weapon_crate"
    timing = ANY
    requires = (
        Rule(
            "no_effect",
            "no seat with all its cards face up can take or aim a gun",
            lambda s, seat: bool(asked_after(s, seat)),
        ),
    )
    answer = Answer(
        "target", "choose a seat among {options} to aim at, or nothing to decline", may_decline=True
    )

    def resolve(self, s, seat, cmd):
        return self._ask_next(s, seat, None)

    def _ask_next(self, s, player, after):
        nxt = asked_after(s, player, after)
        if not nxt:
            return []
        seat = nxt[0]
        return [
            PromptOpened(
                seat=seat, kind=self.name, options=tuple(others_alive(s, seat)), about=player
            )
        ]

    def answered(self, s, prompt, cmd):
        seat = prompt.seat
        events: list = [PromptAnswered(seat=seat, kind=self.name, target=cmd.target)]
        st = s.seat(seat)
        if cmd.target is not None and st.zombie:
            if st.arms_aim != cmd.target:
                events.append(ArmsAimed(seat=seat, target=cmd.target))
        elif cmd.target is not None and not st.gun:
            events.append(GunTaken(seat=seat, aim=cmd.target, locked=True))
        elif cmd.target is not None and st.aim != cmd.target:
            events.append(GunAimed(seat=seat, target=cmd.target))
        return events + self._ask_next(peek(s, events), prompt.about, seat)
