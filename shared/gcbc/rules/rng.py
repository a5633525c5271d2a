"""Deterministic randomness from the table's seed (SplitMix64): no global random, stable forever."""

from __future__ import annotations

_MASK = (1 << 64) - 1


def _mix(z: int) -> int:
    z = (z + 0x9E3779B97F4A7C15) & _MASK
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
    return z ^ (z >> 31)


# the limit below which ``below(n)`` keeps a draw (the multiples of n that fit in 64 bits), found
# once for the small n drawn (seats, cards)
_SMALL = 64
_LIMITS = (0, *(_MASK - (_MASK % n) for n in range(1, _SMALL)))


class Rng:
    """A small seeded generator. ``Rng(seed, stream)`` gives independent reproducible streams."""

    __slots__ = ("_state",)

    def __init__(self, seed: int, stream: int = 0) -> None:
        self._state = _mix((seed & _MASK) ^ _mix(stream & _MASK))

    def next64(self) -> int:
        # the state advanced, and _mix of it spelt out (one call less per draw); the state is kept
        # unmasked (only its low 64 bits count: masked once, where mixed)
        self._state += 0x9E3779B97F4A7C15
        z = (self._state + 0x9E3779B97F4A7C15) & _MASK
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
        return z ^ (z >> 31)

    def below(self, n: int) -> int:
        """Uniform in [0, n) without modulo bias."""
        if n <= 0:
            raise ValueError("n must be positive")
        limit = _LIMITS[n] if n < _SMALL else _MASK - (_MASK % n)
        while True:
            # next64(), spelt out: the simulator draws a seat per command
            self._state += 0x9E3779B97F4A7C15
            z = (self._state + 0x9E3779B97F4A7C15) & _MASK
            z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
            z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
            x = z ^ (z >> 31)
            if x < limit:
                return x % n

    def choice(self, items):  # noqa: ANN001, ANN201
        return items[self.below(len(items))]

    def shuffle(self, items: list) -> None:
        for i in range(len(items) - 1, 0, -1):
            j = self.below(i + 1)
            items[i], items[j] = items[j], items[i]
