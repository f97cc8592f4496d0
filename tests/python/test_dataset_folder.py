"""The committed counterfactual sample runs as it is: the package's tasks
(which its inspect_ai task file points at it) load every config and split, scores a right answer right and a wrong
one wrong, counts a shared anchor once; its Croissant file validates and
loads the same rows; its card names no local path."""

import importlib.util
import json
import pathlib
import re

import mlcroissant as mlc
from cici_inspect import counterfactual
from cici_inspect.answers import normalise
from inspect_ai import eval as inspect_eval
from inspect_ai.model import ModelOutput, ModelUsage, get_model

ROOT = pathlib.Path(__file__).resolve().parents[2]
SAMPLE = ROOT / "generated" / "counterfactuals"
DATA = sorted(SAMPLE.glob("*/*.jsonl"))


def task_module():
    spec = importlib.util.spec_from_file_location("cici_task", SAMPLE / "cici_task.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def rows(kind=None):
    out = []
    for path in DATA:
        for line in open(path, encoding="utf-8"):
            row = json.loads(line)
            if kind is None or row["kind"] == kind:
                out.append(row)
    return out


def answering(answer_of):
    """A mock model that answers each item with `answer_of(item)`, with its
    usage set, so that nothing is counted with a tokenizer."""
    def reply(messages, *_):
        item = messages[-1].text
        out = ModelOutput.from_content(model="mockllm", content=answer_of(item))
        out.usage = ModelUsage(input_tokens=1, output_tokens=1, total_tokens=2)
        return out
    return get_model("mockllm/model", custom_outputs=reply)


def test_every_split_and_side_is_a_sample_with_its_metadata():
    for kind in ("decision", "flow"):
        samples = counterfactual.samples(SAMPLE, kind, split="all", repeated_anchors=True)
        assert len(samples) == 3 * len(rows(kind))
        for s in samples:
            assert s.input and s.target
            for key in ("seed", "family", "kind", "side", "condition", "split"):
                assert key in s.metadata
            assert s.metadata["kind"] == kind
        if kind == "decision":
            assert {s.metadata["condition"] for s in samples} == {"none", "combined"}


def test_a_shared_anchor_is_asked_once():
    for kind in ("decision", "flow"):
        every = counterfactual.samples(SAMPLE, kind, split="all", side="anchor", repeated_anchors=True)
        once = counterfactual.samples(SAMPLE, kind, split="all", side="anchor")
        assert len(every) - len(once) == sum(r["anchor_repeat"] for r in rows(kind))
        assert len({s.input for s in once}) == len(once), "an anchor is asked twice"


def test_right_answers_score_one_and_wrong_answers_zero(tmp_path):
    t = task_module()
    answers = {}
    for r in rows():
        for side in ("anchor", "flipped", "held"):
            answers[r[f"{side}_item"]] = r[f"{side}_answer"]

    def right(item):
        # Reworded as a reader might: bullets, other case, a code fence.
        lines = answers[item].splitlines()
        return "```\n" + "\n".join(f"- {line.upper()}." for line in lines) + "\n```"

    def wrong(item):
        a = answers[item]
        return {"yes": "no", "no": "yes"}.get(a, a.splitlines()[0])

    for task in (t.decision(split="all"), t.flow(split="all")):
        log = inspect_eval(task, model=answering(right), display="none", log_dir=str(tmp_path))[0]
        assert log.status == "success", log.error
        assert log.results.scores[0].metrics["accuracy"].value == 1.0
    logs = inspect_eval(t.flow(split="all"), model=answering(wrong), display="none",
                        log_dir=str(tmp_path))
    assert logs[0].results.scores[0].metrics["accuracy"].value == 0.0


def test_normalise_ignores_form_and_keeps_content():
    assert normalise("MEET-1: Monday 09:00 – 10:00, Elm.\n") == ["meet-1: monday 09:00-10:00, elm"]
    assert normalise("sev 1 critical") != normalise("sev 2 high")


def test_the_croissant_file_validates_and_loads_every_row():
    ds = mlc.Dataset(jsonld=str(SAMPLE / "croissant.json"))
    meta = json.loads((SAMPLE / "croissant.json").read_text(encoding="utf-8"))
    assert meta["rai:dataLimitations"] and meta["rai:personalSensitiveInformation"]
    for record_set in meta["recordSet"]:
        kind, split = record_set["name"].split("-")
        lines = sum(1 for _ in open(SAMPLE / kind / f"{split}.jsonl", encoding="utf-8"))
        assert sum(1 for _ in ds.records(record_set=record_set["name"])) == lines


def test_the_card_names_no_local_path_and_hashes_every_seed():
    card = (SAMPLE / "README.md").read_text(encoding="utf-8")
    assert not re.search(r"(?<![\w.])/(home|root|tmp|Users|work)/", card)
    hashes = re.findall(r"\| `seeds/[a-z_]+\.cici` \| `([0-9a-f]{64})` \|", card)
    assert len(hashes) == len(list((ROOT / "seeds").glob("*.cici")))
    assert "license:\n- apache-2.0\n- mit\n" in card
