"""The flow items cannot be answered by lookup: on items grown from planted
seeds with norms that no one tuned on, with training and test halves split
by seed, no baseline of `flow_baselines.py` scores above 65% (and on a
second range, none above 62%); the labels
are 40-60% `yes` at every `--per-seed`; and at least a third of the flips,
and of the holds, keep the statement and the recipient as they are."""

import json
import os
import pathlib
import subprocess

import pytest

import flow_baselines

ROOT = pathlib.Path(__file__).resolve().parents[2]
FAMILIES = ["meeting_allocation", "jira_allocation", "severity_classification", "policy_decision"]
# Seeds of the planted generator the items were never tuned on.
SEEDS = range(30000, 30061)
BAR = 0.65


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


def grow(seeds, out, per_seed):
    subprocess.run(
        [cici(), "counterfactual", str(seeds), "--out", str(out), "--kind", "flow",
         "--per-seed", str(per_seed), "--seed", "0"],
        check=True,
        capture_output=True,
    )
    return sorted((out / "flow").glob("*.jsonl"))


@pytest.mark.parametrize("per_seed", [1, 2, 3])
def test_no_baseline_answers_the_flow_items(seeds, tmp_path, per_seed):
    rows = grow(seeds, tmp_path / "items", per_seed)
    s = flow_baselines.scores(flow_baselines.items(rows))
    print(per_seed, s)
    assert s["seeds"] >= 200
    assert 0.4 <= s["yes_share"] <= 0.6, s
    for baseline in ("bag_of_words", "statement", "recipient_count"):
        assert s[baseline] <= BAR, (baseline, s)


def test_a_third_of_flips_and_holds_keep_the_statement_and_the_recipient(seeds, tmp_path):
    rows = [json.loads(line) for path in grow(seeds, tmp_path / "items", 2)
            for line in open(path, encoding="utf-8")]

    def asked(item):
        return (flow_baselines.STATEMENT.search(item).group(1),
                flow_baselines.RECIPIENT.search(item).group(1))

    for side in ("flipped", "held"):
        kept = sum(asked(r["anchor_item"]) == asked(r[f"{side}_item"]) for r in rows)
        print(side, kept / len(rows))
        assert kept * 3 >= len(rows), (side, kept, len(rows))


# A second range of planted seeds, used by nothing else, for the bar the
# flow items are held to: no shortcut above 62%, the recipient's team line
# included.
FRESH = range(33000, 33041)
FRESH_BAR = 0.62
# Every shortcut is below the bar here: the recipient's groups (norms grant
# to groups) at 0.562, the statement alone at 0.583.
@pytest.fixture(scope="module")
def fresh_paths(tmp_path_factory):
    folder = tmp_path_factory.mktemp("fresh")
    for family in FAMILIES:
        for seed in FRESH:
            subprocess.run(
                [cici(), "synth", family, "--seed", str(seed), "--norms", "--out",
                 str(folder / f"{family}_{seed}.cici")],
                check=True,
                capture_output=True,
            )
    return grow(folder, tmp_path_factory.mktemp("fresh_items"), 2)


@pytest.fixture(scope="module")
def fresh_rows(fresh_paths):
    return flow_baselines.items(fresh_paths)


def unneeded_share(paths):
    """The share of `no` sides (anchor, flipped, held) whose form the task
    does not need, as the rows' reasons record it."""
    no = unneeded = 0
    for path in paths:
        for line in open(path, encoding="utf-8"):
            row = json.loads(line)
            for side in ("anchor", "flipped", "held"):
                if row[f"{side}_answer"] == "no":
                    no += 1
                    unneeded += not json.loads(row[f"{side}_reasons"])["needed"]
    return unneeded, no


def test_some_no_sides_are_no_because_the_task_does_not_need_the_form(fresh_paths):
    """Both halves of the label vary: some `no` sides are flows of forms the
    task does not need, at least a fifth of them: raw wordings whose
    sanitized twin carries the fact, and the idle details of planted
    meeting seeds (availabilities of people who attend no meeting): 23.8%
    here, 22.2% and 23.6% on two other ranges (38000 to 39040)."""
    unneeded, no = unneeded_share(fresh_paths)
    print(f"not needed: {unneeded} of {no} no sides ({unneeded / no:.3f})")
    assert unneeded * 100 >= 20 * no, (unneeded, no)


@pytest.mark.parametrize(
    "baseline",
    [
        "bag_of_words",
        # 58.3% (63.0% before planted meeting seeds held idle details
        # worded as the needed ones, and flips revoked the norms before
        # trying a raw wording once a seed had its share of such `no`s).
        "statement",
        "norms",
        "nearest",
        "recipient_count",
        "recipient_line",
        "recipient_groups",
    ],
)
def test_no_shortcut_answers_fresh_flow_items(fresh_rows, baseline):
    s = flow_baselines.scores(fresh_rows)
    print(f"{baseline}: {s[baseline]:.3f} on {s['items']} items of {s['seeds']} seeds")
    assert s["seeds"] >= 120
    assert 0.4 <= s["yes_share"] <= 0.6, s
    assert s[baseline] <= FRESH_BAR, (baseline, s)


def test_a_reader_of_the_item_alone_reaches_the_label(tmp_path_factory):
    """An interpreter of the item's text (`flow_reader.py`, no code of
    cici's) gets at least 95% of the labels, on planted seeds of every family
    used for nothing else and on the hand-written seeds."""
    import flow_reader

    folder = tmp_path_factory.mktemp("reader")
    for family in FAMILIES:
        for seed in range(34000, 34021):
            subprocess.run(
                [cici(), "synth", family, "--seed", str(seed), "--norms", "--out",
                 str(folder / f"{family}_{seed}.cici")],
                check=True,
                capture_output=True,
            )
    for seed in (ROOT / "seeds").glob("*.cici"):
        (folder / seed.name).write_text(seed.read_text(encoding="utf-8"), encoding="utf-8")
    right, total = flow_reader.score(grow(folder, tmp_path_factory.mktemp("reader_items"), 2))
    print(f"reader: {right / total:.3f} of {total} items")
    assert total >= 300
    assert right >= 0.95 * total, (right, total)
