"""The edge's strict body: each way a body can be wrong is named (the type first, then a key given
twice), and what is right is decoded as its type."""

from __future__ import annotations

import msgspec
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gcbc_contract.http import Chat, CreateTable
from services.table.edge import _json_value, strict
from services.table.problems import ApiError


@pytest.mark.parametrize(
    ("body", "code"),
    [
        (b'{"text": "hi", "text": "ho"}', "duplicate_key"),
        (b'{"text": "x", "a": {"b": 1, "b": 2}}', "invalid_body"),  # the type speaks first
        (b'{"text": "say \\": twice"}', None),  # a quote and a colon inside a string
        (b'{"text": 4}', "invalid_body"),
        (b'{"text": "hi"', "malformed_json"),
        (b"[" * 10_000 + b"]" * 10_000, "json_too_deep"),
    ],
)
def test_a_body_s_problem_is_named(body, code):
    if code is None:
        assert strict(body, Chat) == Chat(text='say ": twice')
        return
    with pytest.raises(ApiError) as e:
        strict(body, Chat)
    assert e.value.code == code


def test_a_key_twice_in_a_nested_object_is_refused():
    body = b'{"seats": 4, "options": {"edition": "fourth", "edition": "classic"}}'
    with pytest.raises(ApiError) as e:
        strict(body, CreateTable)
    assert (e.value.status, e.value.code) == (400, "duplicate_key")


@pytest.mark.parametrize(
    ("body", "field"),
    [
        (b"{}", "seats"),  # missing: the field itself, not the body holding it
        (b'{"seats": 4, "colour": "red"}', "colour"),  # not asked for: the field itself
        (b'{"seats": 4, "options": {"colr": true}}', "options.colr"),
        (b'{"seats": 4, "bots": {"seats": [1], "kind": "random", "kin": 1}}', "bots.kin"),
        (b'{"seats": 4, "options": {"edition": "x"}}', "options.edition"),
        (b'{"seats": "4"}', "seats"),
        (b"[1]", "data"),  # the body itself
    ],
)
def test_the_field_named_is_the_one_at_fault(body: bytes, field: str):
    with pytest.raises(ApiError) as refused:
        strict(body, CreateTable)
    assert refused.value.status == 422 and refused.value.field == field


_NUMBER = st.one_of(
    st.integers(-(10**30), 10**30).map(str),
    st.floats(allow_nan=False, allow_infinity=False).map(repr),
    st.builds(
        "{}{}e{}".format,
        st.integers(0, 10**25),
        st.sampled_from(["", ".5", ".0001", ".17976931348623157"]),
        st.integers(-400, 400),
    ),
)


@settings(max_examples=400, deadline=None)
@given(numbers=st.lists(_NUMBER, max_size=6))
def test_a_refused_body_s_numbers_are_read_as_msgspec_reads_them(numbers):
    """A refused body is read once more to word its problem; one with a large positive exponent
    is read by Python's float (msgspec's own parser is slow near the largest exponent), any other
    by msgspec: either way the same values, and the same refusal of one out of range."""
    body = f"[{', '.join(numbers)}]".encode()
    try:
        expected = msgspec.json.decode(body)
    except msgspec.DecodeError as e:
        with pytest.raises(ApiError) as got:
            _json_value(body)
        assert (got.value.code, got.value.detail) == ("malformed_json", str(e))
        return
    got = _json_value(body)
    assert [(type(x), repr(x)) for x in got] == [(type(x), repr(x)) for x in expected]
