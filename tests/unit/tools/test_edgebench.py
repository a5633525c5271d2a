"""tools/edgebench.py's refused bodies: each fills the largest body the table service reads, and
each is refused (what its figure measures is a refusal's cost)."""

from __future__ import annotations

from tools import edgebench


def test_each_body_is_at_most_the_largest_read_and_each_is_refused():
    assert all(len(body) <= edgebench.BODY for body in edgebench.BODIES.values())
    assert all(len(body) > edgebench.BODY * 0.9 for body in edgebench.BODIES.values())
    ms = edgebench.refusals(rounds=1)  # (it raises for a body accepted)
    assert set(ms) == set(edgebench.BODIES) and all(v >= 0 for v in ms.values())
