"""Encoders and decoders, built once per process."""

from __future__ import annotations

from typing import Any

import msgspec

from gcbc_contract.commands import AnyCommand
from gcbc_contract.events import AnyEvent

_json_encoder = msgspec.json.Encoder()
_event_decoder = msgspec.json.Decoder(AnyEvent)
_events_decoder = msgspec.json.Decoder(list[AnyEvent])
_command_decoder = msgspec.json.Decoder(AnyCommand)


def encode(value: Any) -> bytes:
    return _json_encoder.encode(value)


def decode_event(data: bytes) -> Any:
    return _event_decoder.decode(data)


def decode_events(data: bytes) -> list[Any]:
    return _events_decoder.decode(data)


def decode_command(data: bytes) -> Any:
    return _command_decoder.decode(data)


def command_from_json_object(obj: dict[str, Any]) -> Any:
    """A command from its JSON object form (validated like a request body).

    (``msgspec.convert`` against the union rebuilds its type info on every call: ~50x slower.)
    """
    return _command_decoder.decode(_json_encoder.encode(obj))
