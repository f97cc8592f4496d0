"""cici's inspect_evals register entries are what the register accepts:
they validate against inspect_evals' own schema, their task files hold the
named `@task` as the register's resolver finds it, their sample counts are
what the tasks build, and the repository installs with `uv sync` at its
root as the register asks. A wrong name or count is caught, so the check is
not vacuous."""

import importlib.util
import pathlib
import shutil
import subprocess
import tomllib

import pytest
import yaml

ROOT = pathlib.Path(__file__).resolve().parents[2]
URL = "https://github.com/example/cici"  # a stand-in: the entry takes any repository URL


def load():
    spec = importlib.util.spec_from_file_location("register_entry", ROOT / "tools" / "register_entry.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def test_every_entry_validates_with_the_registers_own_checks(capsys):
    assert load().main(["--repository-url", URL]) == 0
    out = capsys.readouterr().out
    assert "cici_decision: valid" in out and "cici_flow: valid" in out


@pytest.mark.skipif(not (ROOT / ".git").exists(), reason="needs the repository's history")
def test_a_pinned_entry_names_the_full_commit(tmp_path):
    assert load().main(["--repository-url", URL, "--commit", "HEAD", "--out", str(tmp_path)]) == 0
    head = subprocess.run(["git", "-C", str(ROOT), "rev-parse", "HEAD"],
                          capture_output=True, text=True, check=True).stdout.strip()
    for entry in ("cici_decision", "cici_flow"):
        data = yaml.safe_load((tmp_path / entry / "eval.yaml").read_text())
        assert data["source"] == {"repository_url": URL, "repository_commit": head}
        assert len(data["tasks"]) == 1


def broken(tmp_path, **changes):
    shutil.copytree(ROOT / "register" / "cici_decision", tmp_path / "cici_decision")
    path = tmp_path / "cici_decision" / "eval.yaml"
    data = yaml.safe_load(path.read_text())
    data["tasks"][0].update(changes)
    path.write_text(yaml.safe_dump(data))
    return tmp_path


@pytest.mark.parametrize("changes, says", [
    ({"name": "decisions"}, "no @task"),
    ({"dataset_samples": 13}, "the task builds 12"),
    ({"task_path": "generated/counterfactuals/missing.py"}, "missing.py"),
])
def test_a_wrong_entry_is_refused(tmp_path, capsys, changes, says):
    entries = broken(tmp_path, **changes)
    assert load().main(["--repository-url", URL, "--entries", str(entries)]) == 1
    assert says in capsys.readouterr().err


def test_the_root_installs_the_package_with_uv_sync():
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())
    assert any(d.startswith("inspect-ai") for d in project["project"]["dependencies"])
    assert project["tool"]["uv"]["workspace"]["members"] == ["python"]
    member = tomllib.loads((ROOT / "python" / "pyproject.toml").read_text())
    assert member["project"]["name"] in project["project"]["dependencies"]
