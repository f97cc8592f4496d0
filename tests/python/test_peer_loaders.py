"""What `cici export agentcibench` and `cici export privacylens` write loads
in the releases' own loaders: the functions with which AgentCIBench and
PrivacyLens read a case, copied unchanged under tests/python/vendor/ (its
README says from where), run on the export of the committed release samples
and of the project's seeds, with the fields that came in going back out."""

import contextlib
import importlib
import io
import json
import os
import pathlib
import subprocess
import sys
import types

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
VENDOR = pathlib.Path(__file__).resolve().parent / "vendor"


def cici(*args, ok=(0,)):
    exe = os.environ.get("CICI", str(ROOT / "target" / "release" / "cici"))
    r = subprocess.run([exe, *map(str, args)], cwd=ROOT, capture_output=True, text=True)
    assert r.returncode in ok, f"cici {' '.join(map(str, args))}: {r.returncode}\n{r.stderr}"
    return r


@contextlib.contextmanager
def vendored(folder, *modules):
    """The release's modules, imported from their folder under vendor/."""
    sys.path.insert(0, str(VENDOR / folder))
    try:
        yield [importlib.import_module(m) for m in modules]
    finally:
        sys.path.remove(str(VENDOR / folder))
        for m in [m for m in sys.modules if m.split(".")[0] in {n.split(".")[0] for n in modules}]:
            del sys.modules[m]


def imported(tmp_path, release, sample):
    """The sample's cases as cici seeds (`--keep-going`: the samples hold
    cases with a named defect) and the import map."""
    seeds = tmp_path / f"{release}-seeds"
    cici("import", release, sample, "--out", seeds, "--keep-going", ok=(0, 1))
    return seeds, json.loads((seeds / "import.json").read_text())


# AgentCIBench


def test_agentcibench_export_passes_the_release_validator(tmp_path):
    sample = ROOT / "tests/data/agentcibench"
    seeds, mapping = imported(tmp_path, "agentcibench", sample)
    out = tmp_path / "acb"
    cici("export", "agentcibench", seeds, "--out", out)
    with vendored("agentcibench", "mcts.mcts_engine") as (engine,):
        compared = 0
        for case in mapping["cases"]:
            if "scenario" not in case:
                continue
            path = out / f"{case['scenario']}.json"
            # The release's loader, and its validator as its generator and
            # benchmark runner apply it (only the OpenApps apps allowed).
            loaded = engine.load_scenario(path)
            strict = engine.validate_scenario_schema(json.loads(path.read_text()), enforce_supported_apps=True)
            assert strict == loaded
            original = json.loads((ROOT / case["source"]).read_text())
            assert loaded["task_prompt"] == original["task_prompt"].strip()
            for side in ("must_share", "must_not_share"):
                assert set(loaded["ground_truth"][side]) == set(original["ground_truth"][side]), side
            assert loaded["scenario_id"] == case["scenario"]
            compared += 1
        # A case the release rejects is rejected here too: the check is not vacuous.
        broken = json.loads(path.read_text())
        broken["ground_truth"]["must_share"] = [" "]
        with pytest.raises(ValueError, match="must_share"):
            engine.validate_scenario_schema(broken)
    print(f"\nAgentCIBench: {compared} of {len(mapping['cases'])} sample cases imported, exported and validated")
    assert compared == 4


def test_the_project_seeds_export_as_valid_agentcibench_scenarios(tmp_path):
    out = tmp_path / "acb"
    cici("export", "agentcibench", ROOT / "seeds", "--out", out)
    files = sorted(out.glob("*.json"))
    with vendored("agentcibench", "mcts.mcts_engine") as (engine,):
        for path in files:
            if path.name == "manifest.json":
                continue
            loaded = engine.validate_scenario_schema(json.loads(path.read_text()), enforce_supported_apps=True)
            assert loaded["ground_truth"]["must_share"], path.name
    print(f"\nAgentCIBench: {len(files)} files exported from seeds/ pass the release validator")
    assert files


# PrivacyLens


class Streamlit(types.ModuleType):
    """What `helper/inspect_data.py` asks of streamlit: it shows the case
    whose name the select box returns; `error` is how it says a trajectory
    round did not parse."""

    class State(dict):
        __getattr__ = dict.__getitem__
        __setattr__ = dict.__setitem__

    def __init__(self, text, name):
        super().__init__("streamlit")
        self.text, self.name = text, name
        self.session_state = Streamlit.State()
        self.shown, self.errors, self.observations = [], [], []

    def file_uploader(self, *_, **__):
        return io.StringIO(self.text)

    def selectbox(self, _label, names, index=0):
        return self.name

    def markdown(self, text, **_):
        self.shown.append(text)

    write = info = warning = title = markdown

    def json(self, text):
        self.observations.append(json.loads(text))

    def error(self, text):
        self.errors.append(text)

    def columns(self, n):
        return [contextlib.nullcontext() for _ in range(n)]

    def button(self, *_):
        return False


def view(text, name):
    """The release's case viewer run on one case: what it showed."""
    st = Streamlit(text, name)
    sys.modules["streamlit"] = st
    try:
        with vendored("privacylens", "inspect_data") as (viewer,):
            viewer.main()
    finally:
        del sys.modules["streamlit"]
    return st


def load_privacylens(path):
    """Every case of an exported `main_data.json` through the release's
    readers; the number of prompts built."""
    text = path.read_text()
    data = json.loads(text)
    with vendored("privacylens", "probing_prompts", "evaluate_final_action_prompts") as (probing, evaluate):
        # The expression `evaluate_final_action.py` reads the secrets with.
        secrets = {d["name"]: d["trajectory"]["sensitive_info_items"] for d in data}
        prompts = 0
        for case in data:
            seed, vignette, trajectory = case["seed"], case["vignette"], case["trajectory"]
            p = probing.prepare_seed_probing_prompt(
                data_type=seed["data_type"],
                data_subject=seed["data_subject"],
                data_sender=seed["data_sender"],
                data_sender_name=seed["data_sender_name"],
                data_recipient=seed["data_recipient"],
                transmission_principle=seed["transmission_principle"],
            )
            assert seed["data_sender_name"] in p and seed["data_recipient"] in p
            p = probing.prepare_vignette_probing_prompt(
                data_type=vignette["data_type_concrete"],
                data_subject=vignette["data_subject_concrete"],
                data_sender=vignette["data_sender_concrete"],
                data_recipient=vignette["data_recipient_concrete"],
                transmission_principle=seed["transmission_principle"],
                story=vignette["story"],
            )
            assert p.startswith(vignette["story"])
            p = evaluate.prepare_prompt_to_identify_sensitive_information(
                data_type=seed["data_type"],
                data_subject=seed["data_subject"],
                trajectory=trajectory["executable_trajectory"],
            )
            assert trajectory["executable_trajectory"] in p
            p = evaluate.prepare_prompt_to_evaluate_helpfulness(
                user_name=trajectory["user_name"],
                user_instruction=trajectory["user_instruction"],
                trajectory=trajectory["executable_trajectory"],
                action="GmailSendEmail",
            )
            assert trajectory["user_instruction"] in p
            prompts += 3
            assert secrets[case["name"]], case["name"]
            for secret in secrets[case["name"]]:
                p = evaluate.prepare_prompt_to_identify_leakage(
                    name=trajectory["user_name"], secret=secret, action="GmailSendEmail"
                )
                assert secret in p
                prompts += 1
            shown = view(text, case["name"])
            assert not shown.errors, shown.errors
            assert len(shown.observations) == trajectory["executable_trajectory"].count("Action:")
            assert any(trajectory["user_instruction"] in s for s in shown.shown)
    return data, prompts


def test_privacylens_export_loads_in_the_release_readers(tmp_path):
    sample = ROOT / "tests/data/privacylens/main_data.json"
    seeds, mapping = imported(tmp_path, "privacylens", sample)
    out = tmp_path / "pl"
    cici("export", "privacylens", seeds, "--out", out)
    data, prompts = load_privacylens(out / "main_data.json")
    original = {c["name"]: c for c in json.loads(sample.read_text())}
    exported = {c["name"]: c for c in data}
    proven = [c for c in mapping["cases"] if c.get("proven")]
    for case in proven:
        source = original[case["case"]]["trajectory"]
        (back,) = [c for n, c in exported.items() if n == case.get("scenario", case["case"])]
        kept = [source["sensitive_info_items"][int(i["source"].rsplit("[", 1)[1].rstrip("]"))]
                for i in case["items"].values() if i["label"] != "norm"]
        assert set(back["trajectory"]["sensitive_info_items"]) == set(kept), case["case"]
        assert back["trajectory"]["user_instruction"] == source["user_instruction"]
    print(f"\nPrivacyLens: {len(data)} of {len(original)} sample cases exported, "
          f"{len(proven)} compared with the release, {prompts} prompts built, every round parsed")
    assert len(data) == len(proven) > 0


def test_the_project_seeds_export_as_privacylens_cases(tmp_path):
    out = tmp_path / "pl"
    cici("export", "privacylens", ROOT / "seeds", "--out", out)
    data, prompts = load_privacylens(out / "main_data.json")
    print(f"\nPrivacyLens: {len(data)} cases exported from seeds/, {prompts} prompts built")
    assert data
