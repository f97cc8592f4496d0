"""Reading a `cici build --layout packed` folder: one `artifacts.json` per
scenario holding every text of the file layout once. The folder's
`manifest.json` lists the files, so nothing walks the tree."""

from __future__ import annotations

import json
import pathlib
from dataclasses import dataclass
from typing import Any, Iterator

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


def artifacts(folder: str | pathlib.Path) -> Iterator[dict[str, Any]]:
    """Every scenario's packed artifacts, in the manifest's order."""
    folder = pathlib.Path(folder)
    manifest = json.loads((folder / "manifest.json").read_text(encoding="utf-8"))
    if manifest.get("generator") != "cici":
        raise ValueError(f"{folder}: manifest.json was not written by cici")
    root = folder.resolve()
    for path in manifest["files"]:
        if path.endswith("/artifacts.json"):
            file = (folder / path).resolve()
            if not file.is_relative_to(root):
                raise ValueError(f"{folder}: manifest.json lists {path!r}, outside the folder")
            packed = json.loads(file.read_text(encoding="utf-8"))
            if packed.get("format") != FORMAT:
                raise ValueError(f"{folder / path}: format {packed.get('format')!r}, not {FORMAT}")
            yield packed


def conditions(folder: str | pathlib.Path) -> Iterator[Condition]:
    """Every condition of every scenario of a packed build."""
    for packed in artifacts(folder):
        for c in packed["conditions"]:
            yield Condition(
                scenario_id=packed["scenario_id"],
                name=c["name"],
                cue=c["cue"],
                rule=c["rule"],
                brief=packed["brief"],
                task=packed["tasks"][c["rule"]],
                knowledge=packed["knowledge"][c["cue"]],
            )
