"""Reading a `cici build --layout packed` folder: one `artifacts.json` per
scenario holding every text of the file layout once. The folder's
`manifest.json` lists the files, so nothing walks the tree."""

from __future__ import annotations

import json
import pathlib
from collections.abc import Iterator
from dataclasses import dataclass

from .records import FormatError, Record, parse

FORMAT = "cici-artifacts/1"


@dataclass(frozen=True)
class Condition:
    """One cue x rule condition of one scenario: the executor's task and
    what each person holds, with the brief everyone sees."""

    scenario_id: str
    name: str
    cue: str
    rule: str
    brief: str
    task: str
    knowledge: dict[str, str]


class Manifest(Record):
    """The folder's manifest, as far as this module reads it."""

    generator: str
    files: list[str]


class Packed(Record):
    """One scenario's `artifacts.json`, as far as this module reads it."""

    class Entry(Record):
        name: str
        cue: str
        rule: str

    format: str
    scenario_id: str
    brief: str
    tasks: dict[str, str]
    knowledge: dict[str, dict[str, str]]
    conditions: list[Entry]


def _json(path: pathlib.Path) -> object:
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as e:
        raise FormatError(f"{path}: not a readable JSON file ({e})") from None


def artifacts(folder: str | pathlib.Path) -> Iterator[Packed]:
    """Every scenario's packed artifacts, in the manifest's order."""
    folder = pathlib.Path(folder)
    data = _json(folder / "manifest.json")
    if not isinstance(data, dict) or data.get("generator") != "cici":
        raise FormatError(f"{folder}: manifest.json was not written by cici")
    manifest = parse(Manifest, data, str(folder / "manifest.json"))
    root = folder.resolve()
    for path in manifest.files:
        if path.endswith("/artifacts.json"):
            file = (folder / path).resolve()
            if not file.is_relative_to(root):
                raise FormatError(f"{folder}: manifest.json lists {path!r}, outside the folder")
            raw = _json(file)
            if not isinstance(raw, dict) or raw.get("format") != FORMAT:
                found = raw.get("format") if isinstance(raw, dict) else None
                raise FormatError(f"{folder / path}: format {found!r}, not {FORMAT}")
            yield parse(Packed, raw, str(folder / path))


def conditions(folder: str | pathlib.Path) -> Iterator[Condition]:
    """Every condition of every scenario of a packed build."""
    for packed in artifacts(folder):
        for c in packed.conditions:
            yield Condition(
                scenario_id=packed.scenario_id,
                name=c.name,
                cue=c.cue,
                rule=c.rule,
                brief=packed.brief,
                task=packed.tasks[c.rule],
                knowledge=packed.knowledge[c.cue],
            )
