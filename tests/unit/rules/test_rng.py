"""The table's randomness is stable forever: the same seed and stream draw the same numbers (the
values below were drawn by the first SplitMix64 written here)."""

from gcbc.rules.rng import Rng


def test_a_stream_draws_what_it_always_drew():
    r = Rng(12345, 7)
    sizes = (1, 2, 3, 5, 6, 7, 8, 100, 1_000_000, 2**40 + 3, 2**63 + 5)
    assert [r.below(n) for n in sizes] == [
        0,
        0,
        1,
        2,
        1,
        2,
        0,
        33,
        563402,
        746073688398,
        316658593096274825,
    ]
    assert r.next64() == 16327174931402948177
    items = list(range(10))
    Rng(99, 1).shuffle(items)
    assert items == SHUFFLED


SHUFFLED = [9, 6, 0, 8, 7, 1, 4, 5, 2, 3]
