"""The decision items cannot be answered from their words: per family, on
items grown from planted seeds nothing was tuned on, with training and test
halves split by seed, a bag-of-words model beats the majority answer of the
training half by at most 10 points. A decision model that scores well has
to read the rules and the facts, and leave aside what it may not use."""

import hashlib
import json
import os
import pathlib
import subprocess

import pytest
from sklearn.feature_extraction.text import CountVectorizer
from sklearn.linear_model import LogisticRegression

ROOT = pathlib.Path(__file__).resolve().parents[2]
FAMILIES = ["meeting_allocation", "jira_allocation", "severity_classification", "policy_decision"]
# Seeds of the planted generator the items were never tuned on.
SEEDS = range(32000, 32080)
MARGIN = 0.10


def cici():
    return os.environ.get("CICI", str(ROOT / "target" / "release" / "cici"))


@pytest.fixture(scope="module")
def rows(tmp_path_factory):
    folder = tmp_path_factory.mktemp("decision-seeds")
    for family in FAMILIES:
        for seed in SEEDS:
            norms = ["--norms"] if seed % 2 else []
            subprocess.run(
                [cici(), "synth", family, "--seed", str(seed), *norms,
                 "--out", str(folder / f"{family}_{seed}.cici")],
                check=True, capture_output=True)
    out = tmp_path_factory.mktemp("decision-items")
    subprocess.run(
        [cici(), "counterfactual", str(folder), "--out", str(out), "--kind", "decision",
         "--per-seed", "1", "--seed", "0"],
        check=True, capture_output=True)
    return [json.loads(line) for path in sorted((out / "decision").glob("*.jsonl"))
            for line in open(path, encoding="utf-8")]


def halves(items):
    """Training and test halves by seed, the seeds ordered by a hash."""
    seeds = sorted({s for s, _, _ in items}, key=lambda s: hashlib.sha256(s.encode()).hexdigest())
    train = set(seeds[: len(seeds) // 2])
    return ([i for i in items if i[0] in train], [i for i in items if i[0] not in train])


def accuracy(predicted, wanted):
    return sum(int(p == w) for p, w in zip(predicted, wanted)) / len(wanted)


@pytest.mark.parametrize("family", FAMILIES)
def test_bag_of_words_beats_the_majority_by_at_most_ten_points(rows, family):
    items = [(r["scenario"], r[f"{side}_item"], r[f"{side}_answer"])
             for r in rows if r["family"] == family
             for side in ("anchor", "flipped", "held")]
    train, test = halves(items)
    assert len({s for s, _, _ in test}) >= 8, (family, len(test))
    answers = [a for _, _, a in train]
    majority = max(set(answers), key=answers.count)
    base = accuracy([majority] * len(test), [a for _, _, a in test])
    if len(set(answers)) < 2:
        bow = base
    else:
        vec = CountVectorizer(lowercase=True, token_pattern=r"(?u)\b\w+\b")
        model = LogisticRegression(max_iter=2000)
        model.fit(vec.fit_transform([i for _, i, _ in train]), answers)
        bow = accuracy(model.predict(vec.transform([i for _, i, _ in test])), [a for _, _, a in test])
    print(f"{family}: {len(items)} items, majority {base:.3f}, bag of words {bow:.3f}")
    assert bow <= base + MARGIN, (family, bow, base)
