"""inspect_ai tasks for a cici counterfactual folder.

Run every config of the folder this file sits in (the file has a task for
each config that has rows, so a folder of one kind runs that kind alone):

    inspect eval cici_task.py --model <provider/model>

One task per config: `decision` (the one decision the appropriate
information allows, scored by exact match after normalisation) and `flow`
(may this statement go to this person for this task, scored `yes`/`no`).
Each sample is one side of a triplet: its `input` is the item and its
`target` the answer the cici prover computed. Task options (`-T name=value`):

- `split`: `train`, `validation`, `test` or `all` (default `test`);
- `side`: `anchor`, `flipped`, `held` or `all` (default `all`);
- `condition`: a decision cue condition (`none`, `privacy`, `sanitized`,
  `combined`) or `all` (default `all`);
- `repeated_anchors`: `true` keeps an anchor shared by several rows once per
  row (default `false`: each anchor is asked once);
- `epochs`: runs per sample (default 1; `--epochs` works too).

Written by `cici counterfactual`; it needs inspect_ai and nothing else.
"""

import json
import re
from pathlib import Path

from inspect_ai import Task, task
from inspect_ai.dataset import MemoryDataset, Sample
from inspect_ai.scorer import CORRECT, INCORRECT, Score, Target, accuracy, scorer, stderr
from inspect_ai.solver import TaskState, generate

HERE = Path(__file__).resolve().parent
SPLITS = ("train", "validation", "test")
SIDES = ("anchor", "flipped", "held")


def _rows(kind: str, split: str):
    splits = SPLITS if split == "all" else (split,)
    for s in splits:
        path = HERE / kind / f"{s}.jsonl"
        if not path.is_file():
            continue
        with path.open(encoding="utf-8") as f:
            for line in f:
                if line.strip():
                    yield json.loads(line)


def samples(kind: str, split: str = "test", side: str = "all", condition: str = "all",
            repeated_anchors: bool = False) -> list:
    """The samples of one config: one per side of each row."""
    if split != "all" and split not in SPLITS:
        raise ValueError(f"split is one of {', '.join(SPLITS)} or all, not {split!r}")
    if side != "all" and side not in SIDES:
        raise ValueError(f"side is one of {', '.join(SIDES)} or all, not {side!r}")
    out = []
    for row in _rows(kind, split):
        if condition != "all" and row.get("condition", "") != condition:
            continue
        for s in SIDES:
            if side != "all" and s != side:
                continue
            if s == "anchor" and row.get("anchor_repeat", 0) and not repeated_anchors:
                continue
            traps = row.get(f"{s}_traps") or "[]"
            out.append(Sample(
                id=f"{row['id']}-{s}",
                input=row[f"{s}_item"],
                target=row[f"{s}_answer"],
                metadata={
                    "seed": row["scenario"],
                    "family": row.get("family", ""),
                    "kind": row["kind"],
                    "side": s,
                    "condition": row.get("condition", ""),
                    "split": row.get("split", ""),
                    "anchor_group": row.get("anchor_group", ""),
                    "traps": json.loads(traps),
                },
            ))
    return out


def normalise(text: str) -> list:
    """An answer as comparable lines: code fences, bullets, backticks, case,
    spacing, dashes and final full stops do not count."""
    text = text.replace("\u2013", "-").replace("\u2014", "-")
    lines = []
    for line in text.splitlines():
        line = line.strip().strip("`").strip()
        if not line or line.startswith("```"):
            continue
        line = re.sub(r"^[-*]\s+", "", line)
        line = re.sub(r"\s*-\s*", "-", line)
        line = re.sub(r"\s+", " ", line).rstrip(".").lower()
        lines.append(line)
    return lines


@scorer(metrics=[accuracy(), stderr()])
def decision_match():
    """Exact match of the decision, line by line, after normalisation."""
    async def score(state: TaskState, target: Target) -> Score:
        got = normalise(state.output.completion)
        want = normalise(target.text)
        return Score(value=CORRECT if got == want else INCORRECT,
                     answer="\n".join(got), explanation=f"expected: {' | '.join(want)}")
    return score


@scorer(metrics=[accuracy(), stderr()])
def yes_no():
    """The first word of the answer, `yes` or `no`, against the target."""
    async def score(state: TaskState, target: Target) -> Score:
        words = re.findall(r"[a-z]+", state.output.completion.lower())
        got = words[0] if words else ""
        return Score(value=CORRECT if got == target.text.strip().lower() else INCORRECT,
                     answer=got)
    return score


def _flag(value) -> bool:
    return str(value).lower() in ("1", "true", "yes")


# config: decision
@task
def decision(split: str = "test", side: str = "all", condition: str = "all",
             repeated_anchors: bool = False, epochs: int = 1):
    """Decision items: the one decision the appropriate information allows."""
    return Task(dataset=MemoryDataset(samples("decision", split, side, condition,
                                              _flag(repeated_anchors)), name="decision"),
                solver=generate(), scorer=decision_match(), epochs=int(epochs))


# config: flow
@task
def flow(split: str = "test", side: str = "all", repeated_anchors: bool = False, epochs: int = 1):
    """Flow items: may this statement go to this person for this task?"""
    return Task(dataset=MemoryDataset(samples("flow", split, side, "all",
                                              _flag(repeated_anchors)), name="flow"),
                solver=generate(), scorer=yes_no(), epochs=int(epochs))
