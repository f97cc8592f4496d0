"""An audit of the traps of decision items, written apart from cici's code.

It grows decision triplets from fresh planted seeds of every family
(`cici synth FAMILY --norms`), exports the constraint model of every side
(`cici export model`) and re-solves it with OR-Tools CP-SAT. Per family it
measures:

- `everything`: how often a reader that takes every shown detail as binding
  (appropriate facts, claims and soft wishes alike) reaches the oracle. When
  honouring everything leaves no decision, the reader backs off as little as
  it can: it keeps every claim and wish it can and gives up the fewest
  appropriate facts (lexicographically), and answers among the decisions
  then allowed. It is credited 1/|D| when the oracle is one of those D
  decisions (a uniform guess), 0 otherwise.
- `operational_only`: how often a reader that drops every personal detail
  (every detail filed under a category other than `operational`) and
  takes the facts of the rest reaches the oracle as the one decision:
  ignoring privacy altogether must be no shortcut to the answer.
- `consequential`: the share of sides with a claim or wish that, honoured
  (the fewest appropriate facts given up), allows exactly one decision,
  other than the oracle. `disagree` counts the facts where the export's own
  `trap`/`leads_to` says otherwise.
- `diff_clf`: a logistic regression over the textual diff between anchor
  item and variant item, telling flipped from held; trained on half the
  seeds, tested on the other half.
- `notes_kw` / `category`: a bag of words over the privacy notes of the
  `combined` items predicting each detail's class, against the majority
  class of its category; both trained on half the seeds.
- `yield`: the share of seeds that give `--per-seed 2` triplets in every
  cue condition.

Run: python tests/python/trap_audit.py --cici target/release/cici --seeds 61000:61025
"""

import argparse
import collections
import difflib
import hashlib
import json
import pathlib
import re
import subprocess
import sys
import tempfile

from ortools.sat.python import cp_model

FAMILIES = ["meeting_allocation", "jira_allocation", "severity_classification", "policy_decision"]
PER_SEED = 2
CONDITIONS = ["none", "combined"]
BARS = {"everything": ("<=", 0.20), "operational_only": ("<=", 0.20), "consequential": (">=", 0.80), "diff_clf": ("<=", 0.65),
        "notes_kw": ("<=", "category"), "yield": (">=", 0.95)}
# A keyword reader of notes chosen by category alone still lands a little
# above or below the category's majority class by the draw of the split.
NOISE = 0.02
BIG = 1000
MAX_DECISIONS = 16


def run(cmd):
    return subprocess.run([str(c) for c in cmd], check=True, capture_output=True, text=True)


# ---------------------------------------------------------------- corpus

def synth(cici, seeds, folder):
    folder.mkdir(parents=True, exist_ok=True)
    for family in FAMILIES:
        for seed in seeds:
            run([cici, "synth", family, "--norms", "--seed", seed, "-q",
                 "--out", folder / f"{family}_{seed}.cici"])


def grow(cici, seeds_folder, out):
    """Decision rows; a run that accepts nothing exits 1 and gives none."""
    done = subprocess.run([str(cici), "counterfactual", str(seeds_folder), "--out", str(out),
                           "--kind", "decision", "--per-seed", str(PER_SEED), "--seed", "0", "-q"],
                          capture_output=True, text=True)
    if done.returncode not in (0, 1):
        raise RuntimeError(f"counterfactual failed: {done.stderr[-2000:]}")
    return [json.loads(line) for path in sorted((out / "decision").glob("*.jsonl"))
            for line in open(path, encoding="utf-8")]


def checked_seeds(cici, seeds_folder):
    """Scenario id -> (family, {attribute: (class, category)}), from `check`."""
    out = subprocess.run([str(cici), "check", "--format", "json", str(seeds_folder)],
                         capture_output=True, text=True).stdout
    return {s["id"]: (s["family"], {a["id"]: (a["class"], a["category"]) for a in s["attributes"]})
            for s in json.loads(out)["scenarios"]}


# The splits a reader is trained and scored on, each seeds cut in two by a
# salted hash: a figure is the mean over all, so that one lucky cut of a
# small range does not decide a bar.
SALTS = [str(i) for i in range(8)]


def halves(scenarios, salt=""):
    """Seed id -> 0 or 1: the seeds ordered by a salted hash and cut in two."""
    order = sorted(set(scenarios), key=lambda s: hashlib.sha256((salt + s).encode()).hexdigest())
    return {s: int(2 * i >= len(order)) for i, s in enumerate(order)}


# ------------------------------------------------------------- the models

def export_sides(cici, rows, folder):
    """Every distinct side seed, under a fresh id, exported; -> list of models."""
    texts, items = {}, collections.defaultdict(set)
    for r in rows:
        for side in ("anchor", "flipped", "held"):
            texts.setdefault(r[f"{side}_seed"], (r["family"], side, r["scenario"]))
            items[r[f"{side}_seed"]].add(r[f"{side}_item"])
    src = folder / "sides"
    src.mkdir(parents=True, exist_ok=True)
    meta = {}
    for i, (text, info) in enumerate(texts.items()):
        sid = f"side_{i:05d}"
        meta[sid] = (*info, items[text], raw_texts(text), dict(CATEGORY.findall(text)))
        renamed = re.sub(r"^scenario\s+\w+", f"scenario {sid}", text, count=1, flags=re.M)
        (src / f"{sid}.cici").write_text(renamed, encoding="utf-8")
    run([cici, "export", "model", src, "--out", folder / "models", "-q"])
    models = []
    for path in sorted((folder / "models").glob("*.json")):
        model = json.loads(path.read_text(encoding="utf-8"))
        (model["family"], model["side"], model["scenario"], model["items"], model["raws"],
         model["categories"]) = meta[model["id"]]
        models.append(model)
    return models


class Solver:
    """One exported model in CP-SAT, each fact switched by its own literal."""

    def __init__(self, model):
        self.m = model
        self.cp = cp_model.CpModel()
        self.x = [None] + [self.cp.NewBoolVar(f"v{i}") for i in range(1, model["num_vars"] + 1)]
        for group in model["decision_groups"] + model["aux_groups"]:
            self.cp.AddExactlyOne(self.x[v] for v in group)
        for c in model["public"]:
            self._add(c, [])
        self.on = []
        for fact in model["facts"]:
            lit = self.cp.NewBoolVar(fact["attribute"])
            for c in fact["holds"]:
                self._add(c, [lit])
            self.on.append(lit)

    def lit(self, v):
        return self.x[v] if v > 0 else self.x[-v].Not()

    def _add(self, c, when):
        if "clause" in c:
            ct = self.cp.AddBoolOr([self.lit(v) for v in c["clause"]])
        elif "all" in c:
            ct = self.cp.AddBoolAnd([self.lit(v) for v in c["all"]])
        elif "at_most" in c or "at_least" in c:
            spec = c.get("at_most") or c.get("at_least")
            total = sum(k * self.lit(v) for v, k in spec["terms"])
            ct = self.cp.Add(total <= spec["bound"]) if "at_most" in c else self.cp.Add(total >= spec["bound"])
        else:
            raise ValueError(f"unknown constraint {c}")
        if when:
            ct.OnlyEnforceIf(when)

    def decision(self, solver):
        return tuple(next(i for i, v in enumerate(g) if solver.Value(self.x[v]))
                     for g in self.m["decision_groups"])

    def decisions(self, assumptions, objective=None, bound=None, cap=MAX_DECISIONS):
        """Decisions allowed under the assumptions (with objective == bound)."""
        cp = self.cp.Clone()
        cp.AddAssumptions(assumptions)
        if objective is not None:
            cp.Add(objective(cp) == bound)
        found = []
        while len(found) < cap:
            s = cp_model.CpSolver()
            s.parameters.num_workers = 1
            if s.Solve(cp) not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
                break
            d = self.decision(s)
            found.append(d)
            cp.AddBoolOr([self.x[g[i]].Not() for g, i in zip(self.m["decision_groups"], d)])
        return found

    def least_drops(self, forced, weights):
        """Fewest weighted facts to give up with `forced` on; None if none helps."""
        cp = self.cp.Clone()
        cp.AddAssumptions(forced)
        cp.Minimize(sum(w * (1 - lit) for lit, w in weights))
        s = cp_model.CpSolver()
        s.parameters.num_workers = 1
        if s.Solve(cp) != cp_model.OPTIMAL:
            return None
        return round(s.ObjectiveValue())

    def honour(self, forced, soft_weights):
        """Decisions of a reader that keeps `forced` and gives up the least."""
        best = self.least_drops(forced, soft_weights)
        if best is None:
            return None, []
        objective = lambda cp: sum(w * (1 - lit) for lit, w in soft_weights)
        return best, self.decisions(forced, objective, best)


def appropriate(model):
    return [i for i, f in enumerate(model["facts"]) if f["status"] == "appropriate"]


def shown_rest(model):
    return [i for i, f in enumerate(model["facts"]) if f["status"] != "appropriate"]


def analyse(model):
    """Per side: oracle check, every-detail reader, each trap's decision."""
    sv = Solver(model)
    oracle = tuple(model["oracle"])
    app = appropriate(model)
    base = sv.decisions([sv.on[i] for i in app], cap=2)
    out = {"family": model["family"], "scenario": model["scenario"], "oracle_ok": base == [oracle]}
    out["everything"] = everything_reader(sv, model, oracle)
    operational = [sv.on[i] for i in app
                   if model["categories"].get(model["facts"][i]["attribute"]) == "operational"]
    out["operational_only"] = sv.decisions(operational, cap=2) == [oracle]
    out["traps"] = [trap_of(sv, model, i, oracle) for i in shown_rest(model)]
    for t in out["traps"]:
        raw = model["raws"].get(t["attribute"])
        t["shown"] = bool(raw) and all(raw in item for item in model["items"])
    return out


def everything_reader(sv, model, oracle):
    weights = [(sv.on[i], 1) for i in appropriate(model)]
    weights += [(sv.on[i], BIG) for i in shown_rest(model)]
    _, found = sv.honour([], weights)
    credit = 1 / len(found) if oracle in found else 0.0
    infeasible = not sv.decisions([lit for lit, _ in weights], cap=1)
    return {"credit": credit, "decisions": len(found), "infeasible": infeasible,
            "agrees": reader_agrees(sv, model)}


def reader_agrees(sv, model):
    """The export's `reader` (the facts it honours at once) against CP-SAT."""
    claimed = model.get("reader")
    if not claimed:
        return True
    forced = [sv.on[i] for i in claimed["honours"]]
    k, found = sv.honour(forced, [(sv.on[j], 1) for j in appropriate(model)])
    if claimed.get("trap") == "keeps":
        # Honouring them (or nothing, when no shown detail is to be
        # honoured) gives up no appropriate fact and allows one decision,
        # or gives some up and comes back to the oracle alone.
        back = k is not None and k <= 3 and found == [tuple(model["oracle"])]
        return (k == 0 and len(found) == 1) or back
    to = list(found[0]) if k is not None and k <= 3 and len(found) == 1 else None
    return to == claimed.get("leads_to")


def trap_of(sv, model, i, oracle):
    """Where honouring fact i leads, giving up the fewest appropriate facts."""
    fact = model["facts"][i]
    app = appropriate(model)
    kept = sv.decisions([sv.on[j] for j in app] + [sv.on[i]], cap=2)
    if kept:
        kind, to = ("keeps", None) if kept == [oracle] else ("?", None)
    else:
        k, found = sv.honour([sv.on[i]], [(sv.on[j], 1) for j in app])
        if k is None:
            kind, to = "no_decision", None
        elif found == [oracle] and k <= 3:
            # It contradicts an appropriate fact without ruling the oracle
            # out: giving that fact up comes back to the oracle.
            kind, to = "keeps", None
        elif len(found) == 1 and k <= 3:
            kind, to = "leads", list(found[0])
        else:
            kind, to = "unclear", None
    claimed = (fact["trap"], fact["leads_to"])
    return {"attribute": fact["attribute"], "status": fact["status"], "kind": kind, "leads_to": to,
            "agrees": claimed == (kind, to)}


# ------------------------------------------------------------ the readers

def changed_lines(a, b):
    """The lines the diff adds and removes, each with its section header."""
    out, section = [], ""
    for line in difflib.ndiff(a.splitlines(), b.splitlines()):
        if line[2:].startswith("#"):
            section = line[2:].strip("# ").split(" ")[0].lower()
        if line[:1] in "+-" and line[1:2] == " ":
            out.append((line[0], section, line[2:]))
    return out


def diff_features(a, b):
    words = []
    lines = changed_lines(a, b)
    for sign, section, text in lines:
        words.append(f"sec_{sign}_{section}")
        words.append("line_note" if "Privacy note" in text or "Shareable" in text else "line_detail")
        words += [f"{sign}{w}" for w in re.findall(r"[a-z]+|\d+", text.lower())]
    words.append(f"nlines_{min(len(lines), 8)}")
    words.append(f"balance_{sum(s == '+' for s, _, _ in lines) - sum(s == '-' for s, _, _ in lines)}")
    return " ".join(words)


def diff_classifier(rows):
    """Accuracy of telling flipped from held by the diff alone, per half."""
    data = [(r["scenario"], diff_features(r["anchor_item"], r[f"{side}_item"]), side)
            for r in rows for side in ("flipped", "held")]
    return split_score(data)


def split_score(data):
    from sklearn.feature_extraction.text import CountVectorizer
    from sklearn.linear_model import LogisticRegression

    scores = []
    for salt, half in ((salt, half) for salt in SALTS for half in (0, 1)):
        half_of = halves((s for s, _, _ in data), salt)
        train = [(x, y) for s, x, y in data if half_of[s] != half]
        test = [(x, y) for s, x, y in data if half_of[s] == half]
        if not train or not test or len({y for _, y in train}) < 2:
            continue
        vec = CountVectorizer(token_pattern=r"\S+", binary=True)
        clf = LogisticRegression(max_iter=2000).fit(vec.fit_transform([x for x, _ in train]),
                                                    [y for _, y in train])
        pred = clf.predict(vec.transform([x for x, _ in test]))
        scores.append(sum(p == y for p, (_, y) in zip(pred, test)) / len(test))
    return sum(scores) / len(scores) if scores else float("nan")


def raw_texts(seed):
    """Attribute id -> its raw text, as the seed writes it."""
    return {a: json.loads(f'"{t}"') for a, t in RAW.findall(seed)}


CATEGORY = re.compile(r"attribute\s+(\w+)\s*\{[^{}]*?category\s+(\w+)", re.S)
RAW = re.compile(r'attribute\s+(\w+)\s*\{[^{}]*?raw\s+"((?:[^"\\]|\\.)*)"', re.S)


def noted_details(rows, classes):
    """(scenario, note, class, category) for each noted detail of a combined anchor."""
    seen, out = set(), []
    for r in rows:
        if r["condition"] != "combined" or r["anchor_group"] in seen or r["scenario"] not in classes:
            continue
        seen.add(r["anchor_group"])
        raws = {t: a for a, t in raw_texts(r["anchor_seed"]).items()}
        lines = r["anchor_item"].splitlines()
        for n, line in enumerate(lines[:-1]):
            note = re.match(r"\s+- Privacy note: (.*)", lines[n + 1])
            attr = raws.get(line[2:]) if line.startswith("- ") else None
            if note and attr in classes[r["scenario"]][1]:
                cls, category = classes[r["scenario"]][1][attr]
                out.append((r["scenario"], note.group(1), cls, category))
    return out


def notes_readers(details):
    """Keyword reader of the notes vs the better of the category's majority
    class and the same reader given the category's words alone."""
    kw = split_score([(s, " ".join(re.findall(r"[a-z]+", n.lower())), c) for s, n, c, _ in details])
    scores = []
    for salt, half in ((salt, half) for salt in SALTS for half in (0, 1)):
        half_of = halves((s for s, _, _, _ in details), salt)
        votes = collections.defaultdict(collections.Counter)
        for s, _, c, cat in details:
            if half_of[s] != half:
                votes[cat][c] += 1
        overall = collections.Counter(c for s, _, c, _ in details if half_of[s] != half)
        test = [(c, cat) for s, _, c, cat in details if half_of[s] == half]
        if test and overall:
            guess = lambda cat: (votes[cat] or overall).most_common(1)[0][0]
            scores.append(sum(guess(cat) == c for c, cat in test) / len(test))
    majority = sum(scores) / len(scores) if scores else float("nan")
    # The same learner as the notes' reader, given only the category's
    # words: it pools categories that share words as the notes' reader can.
    words = split_score([(s, " ".join(str(cat).lower().split("_")), c)
                         for s, _, c, cat in details])
    return kw, max(majority, words)


# --------------------------------------------------------------- figures

def yields(rows, classes):
    """Share of seeds of each family with PER_SEED triplets in every condition."""
    count = collections.Counter((r["scenario"], r["condition"]) for r in rows)
    per_family = collections.defaultdict(list)
    for sid, (family, _) in classes.items():
        per_family[family].append(all(count[(sid, c)] >= PER_SEED for c in CONDITIONS))
    return {f: sum(v) / len(v) for f, v in per_family.items()}


def side_figures(results):
    figures = {}
    for family in FAMILIES:
        res = [r for r in results if r["family"] == family]
        if not res:
            continue
        traps = [t for r in res for t in r["traps"]]
        figures[family] = {
            "sides": len(res),
            "oracle_ok": sum(r["oracle_ok"] for r in res) / len(res),
            "everything": sum(r["everything"]["credit"] for r in res) / len(res),
            "operational_only": sum(r["operational_only"] for r in res) / len(res),
            "everything_unique": sum(r["everything"]["decisions"] == 1 for r in res) / len(res),
            "everything_infeasible": sum(r["everything"]["infeasible"] for r in res) / len(res),
            "consequential": sum(any(t["kind"] == "leads" and t["shown"] for t in r["traps"])
                                 for r in res) / len(res),
            "unshown": sum(t["kind"] == "leads" and not t["shown"] for t in traps),
            "claims_wishes": len(traps),
            "leading": sum(t["kind"] == "leads" for t in traps),
            "disagree": sum(not t["agrees"] for t in traps),
            "reader_disagree": sum(not r["everything"]["agrees"] for r in res),
        }
    return figures


def audit(cici, seeds, work):
    work = pathlib.Path(work)
    synth(cici, seeds, work / "seeds")
    classes = checked_seeds(cici, work / "seeds")
    rows = grow(cici, work / "seeds", work / "items")
    figures = side_figures([analyse(m) for m in export_sides(cici, rows, work)])
    y = yields(rows, classes)
    for family in FAMILIES:
        fam_rows = [r for r in rows if r["family"] == family]
        f = figures.setdefault(family, {"sides": 0})
        f["yield"] = y.get(family, 0.0)
        f["diff_clf"] = diff_classifier(fam_rows) if fam_rows else float("nan")
        f["notes_kw"], f["category"] = notes_readers(noted_details(fam_rows, classes))
    return figures


def passes(figure, name):
    op, bar = BARS[name]
    value = figure.get(name, float("nan"))
    bar = figure.get(bar, float("nan")) + NOISE if isinstance(bar, str) else bar
    return value <= bar if op == "<=" else value >= bar


COLUMNS = ["sides", "oracle_ok", "everything", "operational_only", "everything_unique",
           "everything_infeasible",
           "consequential", "claims_wishes", "leading", "unshown", "disagree", "reader_disagree", "diff_clf", "notes_kw", "category", "yield"]


def table(figures):
    """One line per figure, one column per family; `x` marks a missed bar."""
    families = list(figures)
    lines = [f"{'figure':<22}" + "".join(f"{f[:18]:>20}" for f in families)]
    lines.append("-" * len(lines[0]))
    for c in COLUMNS:
        cells = []
        for family in families:
            v = figures[family].get(c, float("nan"))
            mark = " x" if c in BARS and not passes(figures[family], c) else "  "
            cells.append(f"{v:>18.3f}{mark}" if isinstance(v, float) else f"{v:>18}{mark}")
        bar = " ".join(str(b) for b in BARS.get(c, ()))
        lines.append(f"{c:<22}" + "".join(cells) + f"   {bar}")
    return "\n".join(lines)


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--cici", default="target/release/cici")
    p.add_argument("--seeds", default="61000:61025", help="first:last (exclusive)")
    args = p.parse_args(argv)
    first, last = (int(x) for x in args.seeds.split(":"))
    with tempfile.TemporaryDirectory() as work:
        figures = audit(pathlib.Path(args.cici).resolve(), range(first, last), work)
    print(table(figures))
    return figures


if __name__ == "__main__":
    main(sys.argv[1:])
