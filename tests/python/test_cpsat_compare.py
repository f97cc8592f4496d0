"""The comparison script's CP-SAT analyses agree with cici's findings on the
seeds and on planted seeds of every family nothing was tuned on, and a
finding changed in an exported model is caught, so agreement is not
vacuous."""

import importlib.util
import json
import os
import pathlib
import subprocess

import pytest

pytest.importorskip("ortools")

ROOT = pathlib.Path(__file__).resolve().parents[2]
FAMILIES = ["meeting_allocation", "jira_allocation", "severity_classification", "policy_decision"]


def cici():
    return os.environ.get("CICI", str(ROOT / "target" / "release" / "cici"))


def load():
    spec = importlib.util.spec_from_file_location("cpsat_compare", ROOT / "tools" / "cpsat_compare.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def models(tmp_path, paths):
    out = tmp_path / "models"
    subprocess.run([cici(), "-q", "export", "model", "--out", str(out), *map(str, paths)],
                   check=True, capture_output=True)
    return [json.loads(p.read_text()) for p in sorted(out.glob("*.json"))]


def test_seeds_agree(capsys):
    code = load().main(["--cici", cici(), "--repeat", "1", str(ROOT / "seeds")])
    out = capsys.readouterr().out
    assert code == 0, out
    assert "answers agree" in out and "11 files" in out
    # The three yardsticks: cici's analyses by its own clock, a process per
    # file, and the files in one process.
    assert "analyses: cici" in out and "whole process: cici" in out
    assert "one run: cici" in out and "for the 11 files in one process" in out


def test_planted_seeds_of_every_family_agree(tmp_path):
    mod = load()
    for family in FAMILIES:
        for seed in (41001, 41002):
            args = ["--norms"] if family != "jira_allocation" else []
            subprocess.run([cici(), "synth", family, "--seed", str(seed), *args,
                            "--out", str(tmp_path / f"{family}_{seed}.cici")],
                           check=True, capture_output=True)
    found = models(tmp_path, sorted(tmp_path.glob("*.cici")))
    assert len(found) == 8
    for m in found:
        assert mod.disagreements(m, mod.analyse(m, 1)) == [], m["id"]


def test_a_changed_finding_is_caught(tmp_path):
    mod = load()
    m = models(tmp_path, [ROOT / "seeds" / "mobile_release.cici"])[0]
    necessary = [f for f in m["facts"] if f["necessary"] is not None]
    assert any(f["necessary"] for f in necessary) and not all(f["necessary"] for f in necessary)
    for f in necessary:
        f["necessary"] = not f["necessary"]
    problems = mod.disagreements(m, mod.analyse(m, 1))
    assert len(problems) == len(necessary)
    assert all("necessary" in p for p in problems)
