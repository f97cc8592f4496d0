"""The inspect_ai tasks of a `cici counterfactual` folder: the `decision`
and `flow` configs, one sample per side of each triplet row. The folder's
`cici_task.py` (which `cici counterfactual` writes beside the rows) is a
thin file that points these at its folder:

    inspect eval cici_task.py --model <provider/model>

Each sample's `input` is the item and its `target` the answer the cici
prover computed; decisions are scored by exact match after normalisation
(`answers.normalise`), flows by the first word, `yes` or `no`.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

from inspect_ai import Task
from inspect_ai.dataset import MemoryDataset, Sample
from inspect_ai.scorer import CORRECT, INCORRECT, Score, Scorer, Target, accuracy, scorer, stderr
from inspect_ai.solver import TaskState, generate

from .answers import first_word, normalise
from .records import FormatError, Record, parse

__all__ = ["SIDES", "SPLITS", "TripletRow", "decision_match", "decision_task", "flow_task", "normalise",
           "rows", "samples", "yes_no"]

SPLITS = ("train", "validation", "test")
SIDES = ("anchor", "flipped", "held")


class Side(Record):
    """One side of a triplet: the item, its proven answer, its traps (JSON
    text of a list)."""

    item: str
    answer: str
    traps: str = "[]"


class TripletRow(Record):
    """A row of a counterfactual folder, as far as its tasks read it."""

    id: str
    scenario: str
    kind: str
    family: str = ""
    condition: str = ""
    split: str = ""
    anchor_group: str = ""
    anchor_repeat: int = 0
    anchor: Side
    flipped: Side
    held: Side

    def side(self, name: str) -> Side:
        """The side of that name (one of SIDES)."""
        return {"anchor": self.anchor, "flipped": self.flipped, "held": self.held}[name]


def _row(data: object, where: str) -> TripletRow:
    """A row's flat columns (`<side>_item`, ...) gathered per side, parsed."""
    if not isinstance(data, dict):
        raise FormatError(f"{where}: (the whole record): not a JSON object")
    flat = dict(data)
    for s in SIDES:
        flat[s] = {k: data[f"{s}_{k}"] for k in ("item", "answer", "traps") if f"{s}_{k}" in data}
        if not flat[s].get("traps"):
            flat[s].pop("traps", None)
    return parse(TripletRow, flat, where)


def rows(folder: Path, kind: str, split: str) -> Iterator[TripletRow]:
    """The rows of one config and split (every split for `all`)."""
    for s in SPLITS if split == "all" else (split,):
        path = folder / kind / f"{s}.jsonl"
        if not path.is_file():
            continue
        with path.open(encoding="utf-8") as f:
            for n, line in enumerate(f, 1):
                if not line.strip():
                    continue
                try:
                    data = json.loads(line)
                except json.JSONDecodeError as e:
                    raise FormatError(f"{path}:{n}: not a JSON row ({e})") from None
                yield _row(data, f"{path}:{n}")


def _check(split: str, side: str) -> None:
    if split != "all" and split not in SPLITS:
        raise ValueError(f"split is one of {', '.join(SPLITS)} or all, not {split!r}")
    if side != "all" and side not in SIDES:
        raise ValueError(f"side is one of {', '.join(SIDES)} or all, not {side!r}")


def samples(folder: str | Path, kind: str, split: str = "test", side: str = "all", condition: str = "all",
            repeated_anchors: bool = False) -> list[Sample]:
    """The samples of one config: one per side of each row."""
    _check(split, side)
    out = []
    for row in rows(Path(folder), kind, split):
        if condition != "all" and row.condition != condition:
            continue
        for s in SIDES:
            if (side != "all" and s != side) or (s == "anchor" and row.anchor_repeat and not repeated_anchors):
                continue
            this = row.side(s)
            out.append(Sample(
                id=f"{row.id}-{s}", input=this.item, target=this.answer,
                metadata={"seed": row.scenario, "family": row.family, "kind": row.kind, "side": s,
                          "condition": row.condition, "split": row.split,
                          "anchor_group": row.anchor_group, "traps": json.loads(this.traps)},
            ))
    return out


@scorer(metrics=[accuracy(), stderr()])
def decision_match() -> Scorer:
    """Exact match of the decision, line by line, after normalisation."""
    async def score(state: TaskState, target: Target) -> Score:
        got = normalise(state.output.completion)
        want = normalise(target.text)
        return Score(value=CORRECT if got == want else INCORRECT,
                     answer="\n".join(got), explanation=f"expected: {' | '.join(want)}")
    return score


@scorer(metrics=[accuracy(), stderr()])
def yes_no() -> Scorer:
    """The first word of the answer, `yes` or `no`, against the target."""
    async def score(state: TaskState, target: Target) -> Score:
        got = first_word(state.output.completion)
        return Score(value=CORRECT if got == target.text.strip().lower() else INCORRECT,
                     answer=got)
    return score


def _flag(value: object) -> bool:
    return str(value).lower() in ("1", "true", "yes")


def decision_task(folder: str | Path, split: str = "test", side: str = "all", condition: str = "all",
                  repeated_anchors: bool | str = False, epochs: int | str = 1) -> Task:
    """Decision items: the one decision the appropriate information allows."""
    data = samples(folder, "decision", split, side, condition, _flag(repeated_anchors))
    return Task(dataset=MemoryDataset(data, name="decision"), solver=generate(),
                scorer=decision_match(), epochs=int(epochs))


def flow_task(folder: str | Path, split: str = "test", side: str = "all",
              repeated_anchors: bool | str = False, epochs: int | str = 1) -> Task:
    """Flow items: may this statement go to this person for this task?"""
    data = samples(folder, "flow", split, side, "all", _flag(repeated_anchors))
    return Task(dataset=MemoryDataset(data, name="flow"), solver=generate(),
                scorer=yes_no(), epochs=int(epochs))
