"""The edge's strict body: each way a body can be wrong is named (the type first, then a key given
twice), and what is right is decoded as its type."""

from __future__ import annotations

import pytest

from gcbc_contract.http import Chat, CreateTable
from services.table.edge import strict
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
