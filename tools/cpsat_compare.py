#!/usr/bin/env python3
"""Run cici's analyses with OR-Tools CP-SAT on the same models, check that
the answers agree, and print how much faster `cici check` is.

For every seed file given, `cici export model` writes the lowered model and
the findings cici proved over it. This script rebuilds each model in
CP-SAT and answers the same questions (docs/design.md, "Analyses"):

- unique: P u F allows the oracle and nothing else, and P alone allows more;
- relevant(f): P allows a decision that violates f (for models whose
  decisions leave variables open, decision by decision);
- necessary(f): P u F minus f allows a decision other than the oracle;
- trap(s): what honouring s does (docs/language.md, "Traps that lead
  somewhere"): P u F u {s} keeps the oracle, or allows another decision,
  or P u {s} allows nothing; else the fewest facts of F given up (`drops`)
  for a decision to be allowed, and whether exactly one decision
  (`leads_to`) is then allowed (`leads`) or more (`unclear`);
- the reader who honours every claim and inappropriate fact at once, the
  same way.

Time is wall time, best of --repeat runs, in two ways:

- analyses: what cici's own clock says of lowering and proving each
  scenario (`cici check --timings`: compiling the solver sessions, then
  uniqueness, triviality, relevance, necessity and traps) against CP-SAT's
  model building and solving (JSON loading excluded): the same work on
  both sides;
- whole process: `cici check FILE` as a process (start-up, parsing, text
  lints and fix-it search included) against the same CP-SAT figure, a
  lower bound on cici's advantage;
- one run: `cici check` of every file given, in one process, as a corpus
  is checked (start-up paid once, files checked on every core), against
  CP-SAT's total over the same files.

Exit status 1 when an answer differs.

    python tools/cpsat_compare.py seeds/
    python tools/cpsat_compare.py --cici target/release/cici --repeat 3 big.cici
"""

from __future__ import annotations

import argparse
import json
import math
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from ortools.sat.python import cp_model


class Cpsat:
    """One scenario's model in CP-SAT; queries are solves under assumptions."""

    def __init__(self, m: dict, workers: int):
        self.m = m
        self.model = cp_model.CpModel()
        self.x = [self.model.NewBoolVar(f"x{i}") for i in range(m["num_vars"])]
        self.solver = cp_model.CpSolver()
        self.solver.parameters.num_workers = workers
        for group in m["decision_groups"] + m["aux_groups"]:
            self.model.AddExactlyOne([self.lit(v) for v in group])
        for c in m["public"]:
            self.add(c, None)
        for f in m["facts"]:
            for c in f["holds"]:
                self.add(c, self.lit(f["indicator"]))

    def lit(self, i: int):
        return self.x[i - 1] if i > 0 else self.x[-i - 1].Not()

    def linear(self, terms):
        return sum(w * self.lit(l) for l, w in terms)

    def add(self, c: dict, guard):
        if "clause" in c:
            ct = self.model.AddBoolOr([self.lit(l) for l in c["clause"]])
        else:
            a = c["at_most"]
            ct = self.model.Add(self.linear(a["terms"]) <= a["bound"])
        if guard is not None:
            ct.OnlyEnforceIf(guard)

    def guard(self):
        return self.model.NewBoolVar("")

    def choice_lits(self, choice):
        return [self.lit(g[c]) for g, c in zip(self.m["decision_groups"], choice)]

    def differ_from(self, choice):
        g = self.guard()
        self.model.AddBoolOr([l.Not() for l in self.choice_lits(choice)]).OnlyEnforceIf(g)
        return g

    def violation(self, ways):
        v = self.guard()
        options = []
        for way in ways:
            w = self.guard()
            if "all" in way:
                self.model.AddBoolAnd([self.lit(l) for l in way["all"]]).OnlyEnforceIf(w)
            else:
                a = way["at_least"]
                self.model.Add(self.linear(a["terms"]) >= a["bound"]).OnlyEnforceIf(w)
            options.append(w)
        self.model.AddBoolOr(options).OnlyEnforceIf(v)
        return v

    def at_most_off(self, facts, k):
        """A guard that, assumed, lets at most k of the facts be off."""
        g = self.guard()
        self.model.Add(sum(1 - self.lit(self.m["facts"][f]["indicator"]) for f in facts) <= k
                       ).OnlyEnforceIf(g)
        return g

    def solve(self, in_force, extra=(), free=()):
        """The choice per decision group of an allowed decision, or None.
        Facts in `free` are neither assumed on nor off."""
        on, free = set(in_force), set(free)
        assumptions = [
            self.lit(f["indicator"]) if i in on else self.lit(f["indicator"]).Not()
            for i, f in enumerate(self.m["facts"])
            if i not in free
        ]
        self.model.ClearAssumptions()
        self.model.AddAssumptions(assumptions + list(extra))
        status = self.solver.Solve(self.model)
        if status in (cp_model.OPTIMAL, cp_model.FEASIBLE):
            return [
                next(i for i, v in enumerate(g) if self.solver.BooleanValue(self.lit(v)))
                for g in self.m["decision_groups"]
            ]
        if status == cp_model.INFEASIBLE:
            return None
        raise RuntimeError(f"CP-SAT gave status {self.solver.StatusName(status)}")


def analyse(m: dict, workers: int) -> dict:
    """The findings of every fact, computed with CP-SAT."""
    s = Cpsat(m, workers)
    facts = m["facts"]
    ids = lambda status: [i for i, f in enumerate(facts) if f["status"] == status]
    appropriate, inappropriate, soft = ids("appropriate"), ids("inappropriate"), ids("soft")
    oracle = m["oracle"]
    oracle_lits = s.choice_lits(oracle)
    not_oracle = s.differ_from(oracle)
    found = {i: {} for i in range(len(facts))}
    unique = s.solve(appropriate, oracle_lits) is not None and s.solve(appropriate, [not_oracle]) is None
    trivial = s.solve([], [not_oracle]) is None
    relevance(s, appropriate, appropriate + inappropriate, found)
    for f in appropriate:
        if found[f]["relevant"] is False:
            found[f]["necessary"] = False
            continue
        rest = [g for g in appropriate if g != f]
        found[f]["necessary"] = s.solve(rest, [not_oracle]) is not None
    claims = ids("claim")
    guards = {}
    for t in soft + inappropriate + claims:
        found[t].update(honour(s, appropriate, [t], oracle_lits, guards))
    reader = honour(s, appropriate, inappropriate + claims, oracle_lits, guards)
    return {"unique": unique, "trivial": trivial, "facts": found, "reader": reader}


MAX_DROPS = 3


def honour(s: Cpsat, appropriate, honoured, oracle_lits, guards) -> dict:
    """What a reader reaches who takes `honoured` as binding and gives up as
    few appropriate facts as it must."""
    found = {"trap": None, "leads_to": None, "drops": None}
    with_t = appropriate + honoured
    if s.solve(with_t, oracle_lits) is not None:
        return found | {"trap": "keeps"}
    other = s.solve(with_t)
    if other is not None:
        return found | {"trap": "changes", "leads_to": other}
    if s.solve(honoured) is None:
        return found | {"trap": "no_decision"}
    for k in range(1, MAX_DROPS + 1):
        if k not in guards:
            guards[k] = s.at_most_off(appropriate, k)
        first = s.solve(honoured, [guards[k]], free=appropriate)
        if first is None:
            continue
        second = s.solve(honoured, [guards[k], s.differ_from(first)], free=appropriate)
        if second is None:
            return {"trap": "leads", "leads_to": first, "drops": k}
        return found | {"trap": "unclear", "drops": k}
    return found | {"trap": "unclear"}


def relevance(s: Cpsat, appropriate, hard, found):
    facts = s.m["facts"]
    if all(f["violated"] is not None for f in facts):
        for f in hard:
            ways = facts[f]["violated"]
            found[f]["relevant"] = bool(ways) and s.solve([], [s.violation(ways)]) is not None
        return
    public = enumerate_decisions(s, [])
    for f in hard:
        forbids = any(s.solve([f], s.choice_lits(c)) is None for c in public)
        if not forbids and f in appropriate:
            others = [g for g in appropriate if g != f]
            forbids = any(
                s.solve(appropriate, s.choice_lits(c)) is None for c in enumerate_decisions(s, others)
            )
        found[f]["relevant"] = forbids


def enumerate_decisions(s: Cpsat, in_force):
    found, blocks = [], []
    while (c := s.solve(in_force, blocks)) is not None:
        blocks.append(s.differ_from(c))
        found.append(c)
    return found


def disagreements(m: dict, ours: dict) -> list[str]:
    out = []
    if not m["unique"] or not ours["unique"]:
        out.append(f"unique: cici {m['unique']}, CP-SAT {ours['unique']}")
    for key in ("trap", "leads_to", "drops"):
        theirs = (m.get("reader") or {}).get(key)
        if m.get("reader") is not None and theirs != ours["reader"][key]:
            out.append(f"reader: {key} is {theirs} for cici, {ours['reader'][key]} for CP-SAT")
    for i, f in enumerate(m["facts"]):
        for key in ("relevant", "necessary", "trap", "leads_to", "drops"):
            if key in ours["facts"][i] and f[key] != ours["facts"][i][key]:
                out.append(f"fact {i} of `{f['attribute']}`: {key} is {f[key]} for cici, "
                           f"{ours['facts'][i][key]} for CP-SAT")
    return out


def best_of(repeat: int, run) -> float:
    best = math.inf
    for _ in range(repeat):
        t0 = time.perf_counter()
        run()
        best = min(best, time.perf_counter() - t0)
    return best


def analyses_time(cici: str, path: Path) -> float:
    """Seconds cici's analyses took on every scenario of a file, by its own
    clock: lowering and proofs (`check --timings`)."""
    out = subprocess.run([cici, "-q", "check", "--format", "json", "--timings", str(path)],
                         check=True, capture_output=True, text=True).stdout
    scenarios = json.loads(out)["scenarios"]
    return sum(s["timings"]["lower_ms"] + s["timings"]["prove_ms"] for s in scenarios) / 1e3


def summary(what: str, cici: float, cpsat: float, ratios: list[float]) -> None:
    geo = math.exp(sum(map(math.log, ratios)) / len(ratios))
    print(f"  {what}: cici {cici * 1e3:.1f} ms; CP-SAT takes {cpsat / cici:.1f}x as long "
          f"(ratio of totals), geometric mean {geo:.1f}x, lowest {min(ratios):.1f}x")


def seed_files(paths: list[str]) -> list[Path]:
    files = []
    for p in map(Path, paths):
        files.extend(sorted(p.rglob("*.cici")) if p.is_dir() else [p])
    return files


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("paths", nargs="+", help="seed files, or folders searched for *.cici")
    ap.add_argument("--cici", default=os.environ.get("CICI", "cici"), help="the cici binary")
    ap.add_argument("--repeat", type=int, default=3, help="best of this many runs (default 3)")
    ap.add_argument("--workers", type=int, default=1, help="CP-SAT search workers (default 1)")
    args = ap.parse_args(argv)
    total_cici = total_cpsat = total_proofs = 0.0
    ratios, proof_ratios, failed = [], [], 0
    checked: list[Path] = []
    print(f"{'seed':40} {'cici ms':>9} {'process':>9} {'CP-SAT ms':>10} {'ratio':>8} {'process':>8}")
    for path in seed_files(args.paths):
        with tempfile.TemporaryDirectory() as out:
            subprocess.run([args.cici, "-q", "export", "model", "--out", out, str(path)],
                           check=True, stdout=subprocess.DEVNULL)
            models = [json.loads(p.read_text()) for p in sorted(Path(out).glob("*.json"))
                      if not p.name.startswith(".")]
        if not models:
            print(f"{str(path):40} no proven scenario, skipped")
            continue
        cici = best_of(args.repeat, lambda: subprocess.run(
            [args.cici, "-q", "check", str(path)], check=True, stdout=subprocess.DEVNULL))
        proofs = min(analyses_time(args.cici, path) for _ in range(args.repeat))
        answers = []
        cpsat = best_of(args.repeat, lambda: answers.append([analyse(m, args.workers) for m in models]))
        for m, ours in zip(models, answers[-1]):
            for d in disagreements(m, ours):
                failed += 1
                print(f"DISAGREE {m['id']}: {d}")
        total_cici, total_cpsat = total_cici + cici, total_cpsat + cpsat
        checked.append(path)
        total_proofs += proofs
        ratios.append(cpsat / cici)
        proof_ratios.append(cpsat / proofs)
        print(f"{str(path):40} {proofs * 1e3:9.1f} {cici * 1e3:9.1f} {cpsat * 1e3:10.1f} "
              f"{cpsat / proofs:7.1f}x {cpsat / cici:7.1f}x")
    if ratios:
        print(f"{len(ratios)} files: CP-SAT {total_cpsat * 1e3:.0f} ms")
        summary("analyses", total_proofs, total_cpsat, proof_ratios)
        summary("whole process", total_cici, total_cpsat, ratios)
        one_run = best_of(args.repeat, lambda: subprocess.run(
            [args.cici, "-q", "check", *map(str, checked)], check=True,
            stdout=subprocess.DEVNULL))
        print(f"  one run: cici {one_run * 1e3:.1f} ms for the {len(checked)} files in one "
              f"process; CP-SAT takes {total_cpsat / one_run:.1f}x as long")
    print("answers agree" if not failed else f"{failed} answers differ")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
