"""The reward on rows `cici export rl` writes from the committed sample
(`generated/counterfactuals`), with the built binary: every format loads in
`datasets`; scripted completions get their expected scores on every row:
the proven answer 1, with an excluded form's private words -1, a refusal
0, the other side's answer the share of targets it still gets right; the
trainers' signatures give the same; and the answer is normalised as the
folder's own scorer normalises it."""

import json
import os
import pathlib
import subprocess

import datasets
import pytest

from cici_inspect import answers
from cici_inspect.reward import (LEAK_SCORE, components, compute_score, reward_func, score,
                                 trl_reward)

ROOT = pathlib.Path(__file__).resolve().parents[2]
SAMPLE = ROOT / "generated" / "counterfactuals"
SPLITS = ("train", "validation", "test")
REFUSAL = "I'm sorry, but I can't help with that request."


def cici():
    return os.environ.get("CICI", str(ROOT / "target" / "release" / "cici"))


@pytest.fixture(scope="module")
def exported(tmp_path_factory):
    base = tmp_path_factory.mktemp("rl")
    out = {}
    for name, args in {"verl": ["--format", "verl"], "trl": ["--format", "trl", "--dpo"],
                       "openrlhf": ["--format", "openrlhf"],
                       "explain": ["--format", "trl", "--explain"]}.items():
        out[name] = base / name
        subprocess.run([cici(), "export", "rl", str(SAMPLE), "--out", str(out[name]), *args],
                       check=True, capture_output=True)
    return out


def rows(folder, prefix=""):
    out = []
    for split in SPLITS:
        path = folder / prefix / f"{split}.jsonl"
        if path.exists():
            out += [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]
    return out


def sample_rows():
    return [json.loads(line) for path in sorted(SAMPLE.glob("*/*.jsonl"))
            for line in path.read_text(encoding="utf-8").splitlines()]


def test_every_format_loads_in_datasets(exported, tmp_path):
    for name in ("verl", "trl", "openrlhf"):
        files = {s: str(exported[name] / f"{s}.jsonl") for s in SPLITS}
        ds = datasets.load_dataset("json", data_files=files, cache_dir=str(tmp_path / name))
        for s in SPLITS:
            want = sum(3 - r["anchor_repeat"] for r in sample_rows() if r["split"] == s)
            assert ds[s].num_rows == want, (name, s)
    dpo = {s: str(exported["trl"] / "dpo" / f"{s}.jsonl") for s in SPLITS}
    pairs = datasets.load_dataset("json", data_files=dpo, cache_dir=str(tmp_path / "dpo"))
    assert set(pairs["train"].column_names) >= {"prompt", "chosen", "rejected"}


def test_the_proven_answer_scores_one_on_every_row(exported):
    trl = rows(exported["trl"])
    assert len(trl) == sum(3 - r["anchor_repeat"] for r in sample_rows())
    for r in trl:
        assert score(r["completion"][0]["content"], r["ground_truth"]) == 1.0, r["id"]


def test_an_excluded_form_scores_minus_one(exported):
    leaking = 0
    for r in rows(exported["trl"]):
        truth = json.loads(r["ground_truth"])
        for form in truth["excluded"]:
            said = f"{truth['answer']}\nFor the record: {' '.join(form['private_words'])}."
            c = components(said, truth)
            assert form["form"] in c["leaks"] and c["score"] == LEAK_SCORE, (r["id"], form)
            leaking += 1
    assert leaking > 50


def test_a_refusal_scores_zero(exported):
    for r in rows(exported["trl"]):
        assert score(REFUSAL, r["ground_truth"]) == 0.0


def test_the_other_sides_answer_scores_the_targets_it_still_gets_right(exported):
    source = {r["id"]: r for r in sample_rows()}
    wrong = 0
    for r in rows(exported["trl"]):
        if r["side"] != "flipped":
            continue
        anchor_answer = source[r["triplet"]]["anchor_answer"]
        truth = json.loads(r["ground_truth"])
        if truth["kind"] == "flow" or len(truth["targets"]) == 1:
            expected = 0.0
        else:
            lines = anchor_answer.splitlines()
            same = sum(1 for t, line in zip(truth["targets"], lines) if t["line"] == line)
            expected = same / len(truth["targets"])
        assert expected < 1.0
        assert score(anchor_answer, truth) == pytest.approx(expected), r["id"]
        wrong += 1
    assert wrong == len(source)


def test_explain_asks_for_the_forms_everyone_may_read(exported):
    checked = 0
    for r in rows(exported["explain"]):
        truth = json.loads(r["ground_truth"])
        if truth["kind"] != "decision":
            assert "Because:" not in r["prompt"][0]["content"]
            continue
        assert r["prompt"][0]["content"].endswith(
            "worded so that everyone on the team may read them.")
        shareable = [n["text"] for n in truth["needed"] if n["shareable"]]
        alone = 0.75 + (0.25 if not shareable else 0.0)
        assert score(truth["answer"], truth) == alone
        because = f"{truth['answer']}\nBecause: {' '.join(shareable)}"
        c = components(because, truth)
        if c["leaks"]:
            # A needed form everyone may read can repeat the words of
            # another that is kept from someone: stating it leaks.
            assert c["score"] == LEAK_SCORE
        else:
            assert c["score"] == 1.0, (r["id"], c)
            checked += 1
    assert checked > 0


def test_the_trainers_signatures_give_the_same_scores(exported):
    verl = rows(exported["verl"])
    for r in verl[:12]:
        truth = r["reward_model"]["ground_truth"]
        answer = json.loads(truth)["answer"]
        assert compute_score(r["data_source"], answer, truth, r["extra_info"]) == 1.0
        assert compute_score(r["data_source"], f"<think>hm</think>{REFUSAL}", truth) == 0.0
    trl = rows(exported["trl"])[:12]
    got = trl_reward([r["completion"] for r in trl], [r["ground_truth"] for r in trl],
                     prompts=[r["prompt"] for r in trl])
    assert got == [1.0] * len(trl)
    o = rows(exported["openrlhf"])[:12]
    out = reward_func([r["input"] + r["output"] for r in o], [r["input"] for r in o],
                      [r["label"] for r in o])
    rewards = out["rewards"].tolist() if isinstance(out, dict) else out
    assert rewards == [1.0] * len(o)


def test_preference_pairs_reject_the_other_answer(exported):
    for p in rows(exported["trl"], "dpo"):
        truth_answer = p["chosen"][0]["content"]
        rejected = p["rejected"][0]["content"]
        assert truth_answer != rejected


def test_the_answer_is_normalised_as_the_folders_scorer_does():
    from cici_inspect import counterfactual

    assert counterfactual.normalise is answers.normalise
    assert answers.normalise("- BRD-1 Dry run: Tuesday 11:00 – 12:00, Boardroom.") == \
        ["brd-1 dry run: tuesday 11:00-12:00, boardroom"]
