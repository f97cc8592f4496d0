"""The packed layout read back by `cici_inspect.packed` gives, condition by
condition, the texts the file layout writes as Markdown files."""

import json
import pathlib
import subprocess

import pytest

from cici_inspect.packed import conditions
from test_agents import ROOT, cici


def build(out, *flags):
    subprocess.run([cici(), "build", str(ROOT / "seeds"), "--out", str(out), *flags],
                   check=True, capture_output=True)


def test_every_condition_of_the_packed_build_matches_the_files(tmp_path):
    files, packed = tmp_path / "files", tmp_path / "packed"
    build(files)
    build(packed, "--layout", "packed")
    seen = 0
    for c in conditions(packed):
        folder = files / c.scenario_id / c.name
        assert (folder / "task.md").read_text(encoding="utf-8") == c.task
        written = {p.stem: p.read_text(encoding="utf-8") for p in (folder / "knowledge").iterdir()}
        assert written == c.knowledge, c.name
        assert (files / c.scenario_id / "brief.md").read_text(encoding="utf-8") == c.brief
        seen += 1
    scenarios = len(list((ROOT / "seeds").glob("*.cici")))
    assert seen == 12 * scenarios


def test_chosen_conditions_are_the_only_ones_packed(tmp_path):
    build(tmp_path, "--layout", "packed", "--conditions", "none-strict,combined-none")
    names = {c.name for c in conditions(tmp_path)}
    assert names == {"none-strict", "combined-none"}
    assert not any(pathlib.Path(tmp_path).glob("*/none-strict"))


def test_a_manifest_that_points_outside_the_folder_is_refused(tmp_path):
    outside = tmp_path / "elsewhere" / "artifacts.json"
    outside.parent.mkdir()
    outside.write_text("{}", encoding="utf-8")
    folder = tmp_path / "build"
    folder.mkdir()
    manifest = {"generator": "cici", "files": ["../elsewhere/artifacts.json"]}
    (folder / "manifest.json").write_text(json.dumps(manifest), encoding="utf-8")
    with pytest.raises(ValueError, match="outside the folder"):
        list(conditions(folder))
