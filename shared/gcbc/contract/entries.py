"""Entries: the messages of a table's subject in the event log (JetStream).

A table's log alternates: a command (appended by the table service or, for deadlines, by the rules
worker), then the rules worker's answer to it, an outcome (the events, all or nothing) or a
refusal. A command is only appended when the table is settled (its last entry is an answer), so
each answer directly follows its command.
"""

from __future__ import annotations

import msgspec

from gcbc.contract.commands import AnyCommand
from gcbc.contract.events import AnyEvent


class Entry(msgspec.Struct, frozen=True, kw_only=True, tag_field="kind", omit_defaults=True):
    at: int = 0  # milliseconds since the epoch, stamped by the writer (the engine never reads it)
    prev: int = 0  # the sequence of the table's entry this one was appended after (0: the first)


class CommandEntry(Entry, tag="command"):
    command: AnyCommand
    token_hash: str | None = None  # take_seat: the hash of the seat's bearer token (operators only)


class OutcomeEntry(Entry, tag="outcome"):
    answers: int  # the sequence of the command entry it answers
    events: list[AnyEvent]


class RefusalEntry(Entry, tag="refusal"):
    answers: int
    code: str
    message: str


AnyEntry = CommandEntry | OutcomeEntry | RefusalEntry

_encoder = msgspec.json.Encoder()
_decoder = msgspec.json.Decoder(AnyEntry)


def encode_entry(entry: AnyEntry) -> bytes:
    return _encoder.encode(entry)


def decode_entry(data: bytes) -> AnyEntry:
    return _decoder.decode(data)
