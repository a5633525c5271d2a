"""The OpenAPI document's closed sets of names, each one component (``Phase``, ``IntegrityCard``...)
that every field using it references, a nullable one as ``oneOf [$ref, null]``: a client generator
then makes one type per vocabulary, not one per field (nor three for ``X | None``). It also
describes each tagged Struct's tag (``type``: which command, which event), which no field
annotation can carry, and the seeds (their fields carry their type only)."""

from __future__ import annotations

import enum
import types
from typing import Annotated, Any, Literal, Union, get_args, get_origin

import msgspec
from litestar.openapi.spec import OpenAPIType, Schema
from litestar.plugins import OpenAPISchemaPlugin
from litestar.typing import FieldDefinition

from gcbc_contract import fields as F
from gcbc_contract import vocabulary as V
from gcbc_contract.commands import Sendable
from gcbc_contract.events import Event
from gcbc_contract.http import Problem
from gcbc_contract.log import LogEntry

# each vocabulary's component: its name and what its values are
VOCABULARIES: dict[Any, tuple[str, str]] = {
    V.Status: ("Status", "A table's status."),
    V.Phase: ("Phase", "Where the game is (RULES §3, §6)."),
    V.Direction: ("Direction", "The order of play round the table."),
    V.Step: ("Step", "The order of play as an event records it: 1 clockwise, -1 not."),
    V.WaitKind: ("WaitKind", "What the table waits for (RULES §10)."),
    V.WindowKind: ("WindowKind", "A reaction window: what it follows (RULES §6; bite: §8)."),
    V.ActionName: ("ActionName", "A turn's action (RULES §3.1; bite: §8)."),
    V.CancelReason: ("CancelReason", "Why a declared action did not resolve (RULES §6)."),
    V.Means: ("Means", "How a card was looked at (RULES §11)."),
    V.SeenBy: ("SeenBy", "How a seat knows a card: how it looked, or held (it gave it away)."),
    V.Team: ("Team", "A seat's team (RULES §2, §8, §9)."),
    V.Winners: ("Winners", "The team that wins (bomber_traitor: both, RULES §9.3a)."),
    V.WinReason: ("WinReason", "Why the game ended."),
    V.Edition: ("Edition", "The game's edition (docs/api.md, Table options)."),
    V.Wounds: ("Wounds", "Where a wound lives (RULES §4)."),
    V.BotKind: ("BotKind", "How a house bot plays."),
    V.Pool: ("Pool", "A rating pool: the expansions played."),
    V.QueueStatus: ("QueueStatus", "A player's place in the queue (quick play)."),
    F.IntegrityName: ("IntegrityCard", "An integrity card's name (docs/rules.md)."),
    F.EquipmentName: ("EquipmentCard", "An equipment card's name (docs/rules.md)."),
    F.PromptKind: ("PromptKind", "What asks a prompt: the card, or discard (hand limit)."),
}


# fields described by their name wherever they are
BY_NAME = {
    "random_seed": "the table's random seed: the creator's (a scenario table) or drawn by the"
    " server; secret until the game is over",
    "seed": "a scenario table's random seed (scenario servers only); null: the server draws one",
}


def _component(literal: Any, name: str, doc: str) -> type[enum.Enum]:
    """The vocabulary as an Enum, for Litestar to make it a component (only in the document)."""
    values = get_args(literal)
    base = int if isinstance(values[0], int) else str
    members = {f"v{i}": v for i, v in enumerate(values)}
    made = enum.Enum(name, members, type=base, module=V.__name__)  # type: ignore[misc]
    made.__doc__ = doc
    return made


def _bare(annotation: Any) -> Any:
    return annotation.__origin__ if get_origin(annotation) is Annotated else annotation


class Vocabularies(OpenAPISchemaPlugin):
    """Vocabularies as components, tags described, and the codes a Problem may carry."""

    def __init__(self, problem_codes: list[str]) -> None:
        self.enums = {lit: _component(lit, *about) for lit, about in VOCABULARIES.items()}
        self.problem_code = _component(
            Literal[tuple(problem_codes)], "ProblemCode", "A problem's stable code."
        )

    def _vocabulary(self, annotation: Any) -> tuple[type[enum.Enum], bool] | None:
        """The vocabulary a field's type names, and whether it may be null."""
        annotation = _bare(annotation)
        if annotation in self.enums:
            return self.enums[annotation], False
        if get_origin(annotation) in (Union, types.UnionType):
            args = [_bare(a) for a in get_args(annotation)]
            rest = [a for a in args if a not in (type(None), msgspec.UnsetType)]
            if len(rest) == 1 and rest[0] in self.enums:
                return self.enums[rest[0]], type(None) in args
        return None

    def is_plugin_supported_field(self, field_definition: FieldDefinition) -> bool:
        return self._vocabulary(field_definition.annotation) is not None or _tagged(
            field_definition
        )

    def to_openapi_schema(self, field_definition: FieldDefinition, schema_creator: Any) -> Any:
        found = self._vocabulary(field_definition.annotation)
        if found is not None:
            made, nullable = found
            ref = schema_creator.for_field_definition(FieldDefinition.from_annotation(made))
            return Schema(one_of=[ref, Schema(type=OpenAPIType.NULL)]) if nullable else ref
        struct = next(
            p
            for p in schema_creator.plugins
            if p is not self
            and isinstance(p, OpenAPISchemaPlugin)
            and p.is_plugin_supported_field(field_definition)
        )
        schema = struct.to_openapi_schema(field_definition, schema_creator)
        cls = field_definition.annotation
        config = cls.__struct_config__
        if config.tag_field is not None:
            schema.properties[config.tag_field].description = _tag_description(cls, config.tag)
        for name, text in BY_NAME.items():
            if name in schema.properties and not schema.properties[name].description:
                schema.properties[name].description = text
        if cls is Problem:
            code = schema_creator.for_field_definition(
                FieldDefinition.from_annotation(self.problem_code)
            )
            schema.properties["code"] = Schema(
                all_of=[code], description=schema.properties["code"].description
            )
        return schema


def _tagged(field_definition: FieldDefinition) -> bool:
    """A Struct this plugin completes: tagged, a Problem, or with a field described by name."""
    cls = field_definition.annotation
    if not (isinstance(cls, type) and issubclass(cls, msgspec.Struct)):
        return False
    names = {f.name for f in msgspec.structs.fields(cls)}
    return (
        cls is Problem
        or cls.__struct_config__.tag_field is not None
        or bool(names & BY_NAME.keys())
    )


def _tag_description(cls: type, tag: str) -> str:
    if issubclass(cls, Sendable):
        return f"the command: {tag} (what a command's body is, by its type)"
    if issubclass(cls, (Event, LogEntry)):
        return f"what happened: {tag} (which event this is)"
    return f"which kind of object this is: {tag}"
