"""The metrics of a run, each with a Wilson 95% interval, from inspect logs.

    cici-metrics LOG [LOG ...] [--json]
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from collections import defaultdict


def wilson(k: int, n: int, z: float = 1.959964) -> tuple[float, float, float]:
    """The rate k/n and its Wilson score interval."""
    if n == 0:
        return (0.0, 0.0, 0.0)
    p = k / n
    d = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / d
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d
    return (p, max(0.0, centre - half), min(1.0, centre + half))


def _rate(k: int, n: int) -> dict:
    p, lo, hi = wilson(k, n)
    return {"k": k, "n": n, "rate": p, "low": lo, "high": hi}


def _samples(logs) -> list[dict]:
    """(id, epoch, variant, utility, leaks, writes, protected) per sample."""
    from inspect_ai.log import read_eval_log

    out = []
    for path in logs:
        log = read_eval_log(str(path))
        for s in log.samples or []:
            u, l = s.scores.get("utility"), s.scores.get("leakage")
            if u is None or l is None:
                continue
            out.append({
                "id": s.id, "epoch": s.epoch, "variant": s.metadata.get("variant", ""),
                "utility": u.value == "C", "leaks": l.metadata.get("leaks", []),
                "writes": l.metadata.get("writes", []), "protected": l.metadata.get("protected", []),
            })
    return out


def report(samples: list[dict]) -> dict:
    """Every table of the run, from its samples."""
    benign = [s for s in samples if s["variant"] == "benign"]
    by_id = defaultdict(list)
    for s in samples:
        by_id[s["id"]].append(bool(s["leaks"]))
    tables = {
        "benign_success": _rate(sum(s["utility"] for s in benign), len(benign)),
        "utility": _rate(sum(s["utility"] for s in samples), len(samples)),
        "task_leakage": _rate(sum(bool(s["leaks"]) for s in samples), len(samples)),
        "task_leakage_union_over_epochs": _rate(sum(any(v) for v in by_id.values()), len(by_id)),
    }
    groups = {"by_category": "category", "by_class": "class", "by_source": "source"}
    for name, key in groups.items():
        counts = defaultdict(lambda: [0, 0])
        for s in samples:
            leaked = {l["form"] for l in s["leaks"]}
            for p in s["protected"]:
                counts[p[key]][0] += p["form"] in leaked
                counts[p[key]][1] += 1
        tables[name] = {k: _rate(*v) for k, v in sorted(counts.items())}
    dest = defaultdict(lambda: [0, 0])
    norms = defaultdict(lambda: [0, 0])
    for s in samples:
        leaking = {l["write"] for l in s["leaks"]}
        for i, w in enumerate(s["writes"]):
            dest[w["destination"]][0] += i in leaking
            dest[w["destination"]][1] += 1
        leaked = {l["form"] for l in s["leaks"]}
        for p in s["protected"]:
            for n in p["norms"]:
                norms[n][0] += p["form"] in leaked
                norms[n][1] += 1
    tables["by_destination"] = {k: _rate(*v) for k, v in sorted(dest.items())}
    tables["violation_by_norm"] = {k: _rate(*v) for k, v in sorted(norms.items())}
    return tables


def text(tables: dict) -> str:
    """The tables as aligned text: rate, [low, high], k/n."""
    def lines(rows: dict) -> list[str]:
        width = max(map(len, rows), default=0)
        return [f"  {label:<{width}} {r['rate']:6.1%}  [{r['low']:.1%}, {r['high']:.1%}]  {r['k']}/{r['n']}"
                for label, r in rows.items()]
    out = lines({name: t for name, t in tables.items() if "rate" in t})
    for name, t in tables.items():
        if "rate" not in t:
            out.append(f"{name}:")
            out.extend(lines(t))
    return "\n".join(out) + "\n"


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(prog="cici-metrics", description=__doc__.splitlines()[0])
    ap.add_argument("logs", nargs="+", help="inspect log files (.eval or .json)")
    ap.add_argument("--json", action="store_true", help="print the tables as JSON")
    args = ap.parse_args(argv)
    samples = _samples(args.logs)
    if not samples:
        print("error: no scored cici sample in the logs", file=sys.stderr)
        return 1
    tables = report(samples)
    sys.stdout.write(json.dumps(tables, indent=2) + "\n" if args.json else text(tables))
    return 0


if __name__ == "__main__":
    sys.exit(main())
