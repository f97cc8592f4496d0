"""How well leaks are read, on a labelled set of writes: the word match's
precision, recall and false-positive rate, and a grader's agreement with
the labels, each with a Wilson 95% interval.

    cici-calibrate ROWS [--grader MODEL] [--retries N] [--json]

ROWS is a JSONL file, or a folder of them (the package's own set is
`python/tests/data/leak_calibration/`). Each row holds one protected form
as the contract writes it (its text, private words and stems, the
recipients its norms exclude), one write (tool, argument, recipients,
text), a hand-written label (`leak` or `clean`) and a category.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
from collections import defaultdict
from pathlib import Path
from typing import Any

from inspect_ai.model import Model

from .environment import Scenario, Write, channel, leaks
from .judge import CLEAN, LEAK, UNKNOWN, judge_writes, reached
from .metrics import Rate, _rate
from .records import FORMAT, Contract, Environment, FormatError, Member, Protected, Record, Tasks, parse

# The fields of a contract's protected form that a row keeps.
KEYS = ("form", "kind", "holder", "category", "class", "source", "text", "private_words",
        "private_stems", "need", "allowed", "forbidden", "norms")


class Written(Record):
    """A row's write: the tool, the argument, to whom, and its text."""

    tool: str
    field: str
    to: list[str]
    text: str


class Row(Record):
    """A labelled write of the calibration set, with the one protected form
    it is about (a contract's, without its attribute)."""

    id: str
    category: str
    label: str
    scenario: str
    executor: str
    team: list[str]
    form: Protected
    write: Written


def _row(data: object, where: str) -> Row:
    if isinstance(data, dict) and isinstance(data.get("form"), dict):
        data = {**data, "form": {"attribute": data["form"].get("form"), **data["form"]}}
    return parse(Row, data, where)


def read(path: str | Path) -> list[Row]:
    """The rows of a JSONL file, or of every JSONL file of a folder; a row
    that is not one is a FormatError naming the file, the line and the field."""
    path = Path(path)
    files = sorted(path.glob("*.jsonl")) if path.is_dir() else [path]
    rows = []
    for f in files:
        for n, line in enumerate(f.read_text(encoding="utf-8").splitlines(), 1):
            if line.strip():
                try:
                    data = json.loads(line)
                except json.JSONDecodeError as e:
                    raise FormatError(f"{f}:{n}: not a JSON row ({e})") from None
                rows.append(_row(data, f"{f}:{n}"))
    if not rows:
        raise ValueError(f"{path}: no calibration row")
    return rows


def scenario_of(row: Row) -> Scenario:
    """A scenario holding just the row's form and executor."""
    people = [Member(id=p, name=p, role="", groups=[], manager=None) for p in row.team]
    env = Environment(version=FORMAT, id=row.id, family="", title="", executor=row.executor, people=people,
                      brief="", sources=[], records=[], targets=[])
    contract = Contract(version=FORMAT, id=row.id, family="", purpose="", protected=[row.form], needed=[],
                        oracle=[], traps=[])
    return Scenario(Path("."), env, contract, Tasks(version=FORMAT, id=row.id, variants=[]))


def write_of(row: Row) -> Write:
    """The row's write, with its recipients as the tool would resolve them
    (a chat to no one goes to the whole team)."""
    w = row.write
    to = channel(w.to, row.team) if w.tool == "post_chat" else list(w.to)
    return Write(w.tool, w.tool, to, w.text, {w.field: w.text})


def reached_by(row: Row) -> bool:
    """Whether the row's write reaches someone its form's norms exclude
    (only such a write is put to a grader)."""
    return bool(reached(scenario_of(row), write_of(row)))


def lexical(row: Row) -> str:
    """The word match's verdict on a row."""
    return LEAK if leaks(scenario_of(row), [write_of(row)]) else CLEAN


async def _graded(rows: list[Row], grader: Model, retries: int) -> list[str]:
    async def one(row: Row) -> str:
        judged = await judge_writes(scenario_of(row), [write_of(row)], grader, retries)
        # A form the write reaches nobody excluded with is clean by the contract.
        return judged[0].verdict if judged else CLEAN

    # The rows are asked concurrently, within the model's connection limit.
    return list(await asyncio.gather(*(one(r) for r in rows)))


def graded(rows: list[Row], grader: str | Model, retries: int = 2) -> list[str]:
    """The grader's verdict on each row: leak, clean or unknown."""
    from inspect_ai.model import get_model

    model = get_model(grader) if isinstance(grader, str) else grader
    return asyncio.run(_graded(rows, model, retries))


def _scores(labels: list[str], verdicts: list[str]) -> dict[str, Rate]:
    """Precision, recall and the false-positive rate of verdicts, each a
    Wilson rate; unknown verdicts are left out of all three."""
    pairs = [(l, v) for l, v in zip(labels, verdicts) if v != UNKNOWN]
    tp = sum(l == LEAK and v == LEAK for l, v in pairs)
    fp = sum(l == CLEAN and v == LEAK for l, v in pairs)
    positives = sum(l == LEAK for l, _ in pairs)
    negatives = sum(l == CLEAN for l, _ in pairs)
    return {"precision": _rate(tp, tp + fp), "recall": _rate(tp, positives),
            "false_positive_rate": _rate(fp, negatives)}


def _by_category(rows: list[Row], verdicts: list[str]) -> dict[str, Rate]:
    """Per category, how many rows were read as a leak."""
    counts: defaultdict[str, list[int]] = defaultdict(lambda: [0, 0])
    for row, v in zip(rows, verdicts):
        counts[row.category][0] += v == LEAK
        counts[row.category][1] += 1
    return {k: _rate(*v) for k, v in sorted(counts.items())}


def calibrate(path: str | Path, grader: str | Model | None = None, retries: int = 2) -> dict[str, Any]:
    """The word match's figures on the rows, and when a grader model is
    given (a name or a Model), its agreement with the labels; the leaks
    the word match misses are listed with the grader's verdict."""
    rows = read(path)
    labels = [r.label for r in rows]
    words = [lexical(r) for r in rows]
    judged: list[str | None] = list(graded(rows, grader, retries)) if grader is not None else [None] * len(rows)
    out: dict[str, Any] = {
           "rows": len(rows), "lexical": {**_scores(labels, words), "by_category": _by_category(rows, words)},
           "grader": None,
           "lexical_misses": [{"id": r.id, "category": r.category, "grader": g}
                              for r, l, w, g in zip(rows, labels, words, judged) if l == LEAK and w != LEAK]}
    if grader is not None:
        known = sum(g != UNKNOWN for g in judged)
        verdicts = [g or UNKNOWN for g in judged]
        out["grader"] = {"agreement": _rate(sum(g == l for g, l in zip(verdicts, labels)), len(rows)),
                         "unknown": _rate(len(rows) - known, len(rows)), **_scores(labels, verdicts),
                         "by_category": _by_category(rows, verdicts)}
    return out


def text(report: dict[str, Any]) -> str:
    """The report as lines of text: rate, [low, high], k/n."""
    def row(label: str, r: dict[str, Any]) -> str:
        return f"  {label:<36} {r['rate']:6.1%}  [{r['low']:.1%}, {r['high']:.1%}]  {r['k']}/{r['n']}"

    out = [f"{report['rows']} labelled writes", "word match:"]
    for who in ("lexical", "grader"):
        part = report[who]
        if part is None:
            continue
        if who == "grader":
            out.append("grader:")
        out += [row(k, v) for k, v in part.items() if k != "by_category"]
        out += ["  read as a leak, by category:"] + [row(k, v) for k, v in part["by_category"].items()]
    out.append("leaks the word match misses:")
    out += [f"  {m['id']} ({m['category']}): grader {m['grader'] or 'not run'}" for m in report["lexical_misses"]]
    return "\n".join(out) + "\n"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="cici-calibrate", description=(__doc__ or "").splitlines()[0])
    ap.add_argument("rows", help="a JSONL file of labelled writes, or a folder of them")
    ap.add_argument("--grader", help="a grader model for inspect's get_model, e.g. openai/gpt-4o-mini")
    ap.add_argument("--retries", type=int, default=2, help="times an unreadable reply is asked again")
    ap.add_argument("--json", action="store_true", help="print the report as JSON")
    args = ap.parse_args(argv)
    try:
        report = calibrate(args.rows, args.grader, args.retries)
    except (OSError, ValueError, KeyError) as e:
        print(f"error: {args.rows}: {e}", file=sys.stderr)
        return 1
    sys.stdout.write(json.dumps(report, indent=2) + "\n" if args.json else text(report))
    return 0


if __name__ == "__main__":
    sys.exit(main())
