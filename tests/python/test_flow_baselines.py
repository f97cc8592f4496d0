"""The flow items cannot be answered by lookup: on items grown from planted
seeds with norms that no one tuned on, with training and test halves split
by seed, the statement alone scores no more than 65%, and the labels are
40-60% `yes` at every `--per-seed`.

Two baselines are not yet at the 65% the items aim for, and are held to
bounds that keep them from growing: the bag-of-words model on the whole
item (63-69% on these seeds: a flip that changes a norm adds or removes
the words of a recipient) and the count of the recipient's name (60-65%:
a manager's name stands once more in the reporting lines)."""

import os
import pathlib
import subprocess

import pytest

import flow_baselines

ROOT = pathlib.Path(__file__).resolve().parents[2]
FAMILIES = ["meeting_allocation", "jira_allocation", "severity_classification", "policy_decision"]
# Seeds of the planted generator the items were never tuned on.
SEEDS = range(9000, 9061)
BAR = 0.65
BOUNDS = {"bag_of_words": 0.75, "recipient_count": 0.70}


def cici():
    return os.environ.get("CICI", str(ROOT / "target" / "release" / "cici"))


@pytest.fixture(scope="module")
def seeds(tmp_path_factory):
    folder = tmp_path_factory.mktemp("seeds")
    for family in FAMILIES:
        for seed in SEEDS:
            out = folder / f"{family}_{seed}.cici"
            subprocess.run(
                [cici(), "synth", family, "--seed", str(seed), "--norms", "--out", str(out)],
                check=True,
                capture_output=True,
            )
    return folder


@pytest.mark.parametrize("per_seed", [1, 2, 3])
def test_no_baseline_answers_the_flow_items(seeds, tmp_path, per_seed):
    out = tmp_path / "items"
    subprocess.run(
        [cici(), "counterfactual", str(seeds), "--out", str(out), "--kind", "flow",
         "--per-seed", str(per_seed), "--seed", "0"],
        check=True,
        capture_output=True,
    )
    s = flow_baselines.scores(flow_baselines.items([out / "flow.jsonl"]))
    print(per_seed, s)
    assert s["seeds"] >= 200
    assert 0.4 <= s["yes_share"] <= 0.6, s
    assert s["statement"] <= BAR, s
    assert s["bag_of_words"] <= BOUNDS["bag_of_words"], s
    assert s["recipient_count"] <= BOUNDS["recipient_count"], s
