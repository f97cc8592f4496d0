"""`load_folder` reads a counterfactual folder as it is now: a second run
into the same folder, or another folder of the same name, gives its own
rows, where `datasets.load_dataset(folder, config)` may serve a cache."""

import json
import shutil
from pathlib import Path

import pytest

datasets = pytest.importorskip("datasets")

from cici_inspect.folder import FolderError, load_folder  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
SAMPLE = ROOT / "generated" / "counterfactuals"


def copy_sample(to: Path) -> Path:
    shutil.copytree(SAMPLE, to)
    return to


def first_ids(folder: Path, config: str, split: str) -> list:
    with open(folder / config / f"{split}.jsonl", encoding="utf-8") as f:
        return [json.loads(line)["id"] for line in f if line.strip()]


def rewrite_ids(folder: Path, config: str, split: str, suffix: str) -> None:
    path = folder / config / f"{split}.jsonl"
    rows = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
    for r in rows:
        r["id"] = r["id"] + suffix
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")


def test_a_rerun_into_the_same_folder_gives_the_new_rows(tmp_path):
    folder = copy_sample(tmp_path / "data")
    first = load_folder(folder, "decision", split="test")
    assert list(first["id"]) == first_ids(folder, "decision", "test")
    rewrite_ids(folder, "decision", "test", "-rerun")
    second = load_folder(folder, "decision", split="test")
    assert list(second["id"]) == first_ids(folder, "decision", "test")
    assert all(i.endswith("-rerun") for i in second["id"])


def test_two_folders_of_one_name_give_their_own_rows(tmp_path):
    a = copy_sample(tmp_path / "a" / "data")
    b = copy_sample(tmp_path / "b" / "data")
    rewrite_ids(b, "flow", "train", "-b")
    got_a = load_folder(a, "flow", split="train")
    got_b = load_folder(b, "flow", split="train")
    assert not any(i.endswith("-b") for i in got_a["id"])
    assert all(i.endswith("-b") for i in got_b["id"])


def test_every_split_loads_and_a_missing_config_is_named(tmp_path):
    loaded = load_folder(SAMPLE, "decision")
    assert set(loaded) == {"train", "validation", "test"}
    folder = copy_sample(tmp_path / "data")
    shutil.rmtree(folder / "flow")
    with pytest.raises(FolderError, match="no flow rows"):
        load_folder(folder, "flow")
    with pytest.raises(FolderError, match="config is one of"):
        load_folder(folder, "flows")
    with pytest.raises(FolderError, match="no dataset card"):
        load_folder(tmp_path, "decision")
