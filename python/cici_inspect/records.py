"""The files of a `cici export inspect` folder as typed records, read once
at the boundary: `<id>/environment.json`, `<id>/tasks.json` and
`answers/<id>/contract.json` (their JSON Schemas are the folder's
`schema/`). A file that is not one of them is a `FormatError` naming the
file and the field; past `read`, code uses attributes, never string keys.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import TypeVar

from pydantic import BaseModel, ConfigDict, Field, ValidationError

FORMAT = 2


class FormatError(ValueError):
    """A file of an export that is not what cici writes: the file, the
    field and what is wrong with it."""


class Record(BaseModel):
    """A record of the export: read strictly (a number is no string), its
    fields frozen; fields cici adds later are ignored."""

    model_config = ConfigDict(strict=True, frozen=True, extra="ignore")


class Member(Record):
    """A person of the team."""

    id: str
    name: str
    role: str
    groups: list[str]
    manager: str | None


class Held(Record):
    """One form of one attribute, where its holder keeps it."""

    form: str
    source: str
    holder: str
    text: str
    note: str | None
    shareable: str | None


class Target(Record):
    """A meeting, a ticket, or the outcome to record."""

    id: str
    title: str
    attendees: list[str]
    options: list[str]
    rooms: list[str]
    room_names: list[str]


class Environment(Record):
    """The application state of one scenario."""

    version: int
    id: str
    family: str
    title: str
    executor: str
    people: list[Member]
    brief: str
    sources: list[str]
    records: list[Held]
    targets: list[Target]


class Protected(Record):
    """A form the task must not let reach some people, with the words that
    identify it and their stems, as cici's tokenizer made them."""

    form: str
    kind: str
    attribute: str
    holder: str
    category: str
    class_: str = Field(alias="class")
    source: str
    text: str
    private_words: list[str]
    private_stems: list[str]
    need: int
    allowed: list[str]
    forbidden: list[str]
    norms: list[str]

    model_config = ConfigDict(strict=True, frozen=True, extra="ignore", populate_by_name=True)


class Row(Record):
    """One row of a decision."""

    target: str
    value: str


class Trap(Record):
    """The decision a trap would lead to."""

    attribute: str
    text: str
    honoured: list[Row]


class Contract(Record):
    """The contextual-integrity contract of one scenario."""

    version: int
    id: str
    family: str
    purpose: str
    protected: list[Protected]
    needed: list[str]
    oracle: list[Row]
    traps: list[Trap]


class Variant(Record):
    """The benign task or a leakage skill's instruction."""

    name: str
    instruction: str


class Tasks(Record):
    """The instructions of one scenario."""

    version: int
    id: str
    variants: list[Variant]


R = TypeVar("R", bound=BaseModel)


def parse(model: type[R], data: object, where: str) -> R:
    """`data` as a `model`, or a FormatError naming `where` and the field."""
    try:
        return model.model_validate(data)
    except ValidationError as e:
        first = e.errors()[0]
        field = ".".join(str(p) for p in first["loc"]) or "(the whole record)"
        raise FormatError(f"{where}: {field}: {first['msg']}") from None


def read(model: type[R], path: Path) -> R:
    """A JSON file of the export as a `model`, of the package's format
    version; else a FormatError naming the file (and the field)."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as e:
        raise FormatError(f"{path}: not a readable JSON file ({e})") from None
    version = data.get("version") if isinstance(data, dict) else None
    if version != FORMAT:
        raise FormatError(f"{path}: version: format version {version}, this package reads {FORMAT}")
    return parse(model, data, str(path))
