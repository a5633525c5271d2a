"""A heuristic player, from its view only: it investigates, remembers what it saw (the view keeps
knowledge of seen cards), shoots seats it believes are on the other team, and plays equipment
when it clearly helps."""

from __future__ import annotations

from typing import Any

from gcbc.bots.base import Bot, Observation, concrete
from gcbc_contract.views import View

SURE = 2.0  # belief strength needed to shoot


def beliefs(v: View) -> dict[int, float]:
    """Per other seat: > 0 believed on my team, < 0 on the other; magnitude = confidence."""
    me = v.you
    assert me is not None
    mine = me.team
    out: dict[int, float] = {}
    for s in v.seats:
        if s.seat == me.seat:
            continue
        if mine == "zombie" or s.zombie:  # RULES §8: zombies and the living are foes
            out[s.seat] = 5.0 if mine == "zombie" and s.zombie else -5.0
            continue
        # icons do not change a card's side (RULES §9): "honest_bomb" counts as honest
        cards = [c.card.split("_")[0] if c.card else None for c in s.cards]
        if mine in ("bomber", "traitor"):  # RULES §9: they win when a Leader falls
            out[s.seat] = -5.0 if "agent" in cards or "kingpin" in cards else 0.0
            continue
        flip = -1 if "planted_evidence" in s.in_play else 1
        if "agent" in cards or "kingpin" in cards:
            team = "honest" if "agent" in cards else "crooked"
            out[s.seat] = 5.0 if team == mine else -5.0
            continue
        score = flip * (cards.count("honest") - cards.count("crooked"))
        if s.wounded:  # a wounded seat is a Leader whose card is face up: handled above
            score *= 2
        honest_score = float(score)
        if mine == "honest":
            out[s.seat] = honest_score
        elif mine == "crooked":
            out[s.seat] = -honest_score
        else:
            out[s.seat] = 0.0
    return out


def _leader_position(v: View) -> set[int]:
    me = v.you
    assert me is not None
    mine = next(s for s in v.seats if s.seat == me.seat)
    return {c.position for c in mine.cards if c.card in ("agent", "kingpin")}


class HeuristicBot(Bot):
    name = "heuristic"

    def act(self, obs: Observation) -> dict[str, Any]:
        v = obs.view
        legal = obs.legal_commands
        by_type: dict[str, list[dict[str, Any]]] = {}
        for c in legal:
            by_type.setdefault(c["type"], []).append(c)
        b = beliefs(v)
        choice = (
            self._prompt(v, by_type, b)
            or self._arrange(by_type)
            or self._reaction(v, by_type, b)
            or self._turn(v, by_type, b)
            or self._aim(v, by_type, b)
        )
        if choice is None:
            options = [c for c in legal if c["type"] != "set_auto_pass"] or legal
            choice = self.rng.choice(options)
        return concrete(choice, self.rng)

    # --- pieces -------------------------------------------------------------------------------
    def _arrange(self, by_type):
        for c in by_type.get("arrange", []):
            if c["positions"] == [1, 2, 3]:
                return c
        return None

    def _prompt(self, v: View, by_type, b):
        if "discard" in by_type:
            value = {
                "riot_shield": 5,
                "restraining_order": 5,
                "k9_unit": 4,
                "med_kit": 4,
                "wiretap": 3,
                "metal_detector": 3,
                "truth_serum": 3,
                "taser": 3,
            }
            return min(by_type["discard"], key=lambda c: value.get(c["card"], 1))
        if "choose" in by_type:
            options = by_type["choose"]
            if "target" in options[0]:
                return min(options, key=lambda c: b.get(c["target"], 10.0))
            unknown = self._unknown_positions(v, v.prompt.about if v.prompt else None)
            for c in options:
                if c.get("position") in unknown:
                    return c
            return options[0]
        return None

    def _unknown_positions(self, v: View, seat: int | None) -> set[int]:
        if seat is None:
            return set()
        return {c.position for c in v.seats[seat].cards if c.card is None and not c.face_up}

    def _reaction(self, v: View, by_type, b):
        if "pass" not in by_type:
            return None
        me = v.you
        assert me is not None
        plays = by_type.get("play_equipment", [])
        d = v.declared
        threatened = (
            d is not None
            and d.action == "shoot"
            and (d.target == me.seat or b.get(d.target if d.target is not None else -1, 0) >= SURE)
        )
        for c in plays:
            card = c["card"]
            if threatened and card in ("riot_shield", "restraining_order"):
                return c
            if threatened and card == "k9_unit" and c.get("target") == d.seat:
                return c
            if card == "med_kit" and (c["target"] == me.seat or b.get(c["target"], 0) >= SURE):
                return c
        return by_type["pass"][0]

    def _turn(self, v: View, by_type, b):
        me = v.you
        assert me is not None
        if not any(t in by_type for t in ("investigate", "equip", "arm", "shoot", "bite")):
            return None
        if "bite" in by_type:  # RULES §8: a zombie bites whenever its Arms aim at someone
            return by_type["bite"][0]
        enemies = sorted(
            (s for s, x in b.items() if x <= -SURE and not v.seats[s].eliminated),
            key=lambda s: b[s],
        )
        play = self._equipment(v, by_type.get("play_equipment", []), b, enemies)
        if play is not None:
            return play
        reveal_ok = self._reveal_positions(v)
        mine = v.seats[me.seat]
        if "shoot" in by_type and mine.gun is not None and b.get(mine.gun.aimed_at, 0) <= -SURE:
            return by_type["shoot"][0]
        if "arm" in by_type and enemies:
            arms = [c for c in by_type["arm"] if c["target"] == enemies[0]]
            arms = [c for c in arms if c.get("position") in reveal_ok] or arms
            if arms:
                return arms[0]
        investigations = by_type.get("investigate", [])
        if investigations:
            return self._investigation(v, investigations, b)
        equips = by_type.get("equip", [])
        if equips:
            good = [c for c in equips if c.get("position") in reveal_ok] or equips
            return self.rng.choice(good)
        if "arm" in by_type:
            return self.rng.choice(by_type["arm"])
        return None

    def _equipment(self, v: View, plays, b, enemies: list[int]):
        """The equipment worth playing on its turn, if any."""
        me = v.you
        assert me is not None
        for c in plays:
            card = c["card"]
            if card in ("wiretap", "metal_detector", "polygraph") and self.rng.random() < 0.7:
                return c
            if card == "med_kit" and (c["target"] == me.seat or b.get(c["target"], 0) >= SURE):
                return c
            if card == "disguise" and c["target"] == me.seat and _leader_position(v):
                return c
            if card == "defibrillator" and b.get(c["target"], 0) >= SURE:
                return c
            if (
                card == "taser"
                and enemies
                and c["aim"] == enemies[0]
                and b.get(c["target"], 0) <= 0
            ):
                return c
            if card == "truth_serum" and b.get(c["target"], 0) < 0 and self.rng.random() < 0.5:
                return c
        return None

    def _investigation(self, v: View, investigations, b):
        """The seat it knows least about, that it does not already trust or fear."""

        def unknown(c):
            return sum(1 for x in v.seats[c["target"]].cards if x.card is None)

        # a card already seen may be looked at again (RULES §3.1), but tells it nothing new
        unseen = [
            c for c in investigations if v.seats[c["target"]].cards[c["position"] - 1].card is None
        ]
        uncertain = [c for c in unseen if abs(b.get(c["target"], 0)) < SURE]
        pool = uncertain or unseen or investigations
        best = max(unknown(c) for c in pool)
        return self.rng.choice([c for c in pool if unknown(c) == best])

    def _reveal_positions(self, v: View) -> set[int | None]:
        """Own face-down cards that are not a Leader: reveal those first."""
        leaders = _leader_position(v)
        me = v.you
        assert me is not None
        down = {c.position for c in v.seats[me.seat].cards if not c.face_up}
        return (down - leaders) or down or {None}

    def _aim(self, v: View, by_type, b):
        aims = by_type.get("aim")
        if not aims:
            return None
        return min(aims, key=lambda c: (b.get(c["target"], 0.0), self.rng.random()))
