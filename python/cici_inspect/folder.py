"""Load a cici counterfactual folder with Hugging Face `datasets`, fresh.

`datasets.load_dataset(folder, "decision")` caches what it read under the
folder's name, so a second folder of the same name, or the same folder
after another `cici counterfactual` run, can be served from that cache with
the old rows. `load_folder` reads the folder's JSONL files as they are now,
through a cache of its own that it removes afterwards, and keeps the rows
in memory:

    from cici_inspect.folder import load_folder
    decision = load_folder("data/", "decision")          # a DatasetDict of its splits
    test = load_folder("data/", "flow", split="test")    # one Dataset

It needs `datasets` (`pip install datasets`); nothing else of the package
does.
"""

from __future__ import annotations

import tempfile
from pathlib import Path
from typing import Any

SPLITS = ("train", "validation", "test")
CONFIGS = ("decision", "flow")


class FolderError(ValueError):
    """The folder is not a cici counterfactual folder, or lacks the config."""


def data_files(folder: str | Path, config: str) -> dict[str, str]:
    """Each split of `config` that has a file, with the file's path."""
    if config not in CONFIGS:
        raise FolderError(f"config is one of {', '.join(CONFIGS)}, not {config!r}")
    root = Path(folder)
    if not (root / "README.md").is_file():
        raise FolderError(f"{root} has no dataset card (README.md): is it a cici counterfactual folder?")
    files = {s: str(root / config / f"{s}.jsonl") for s in SPLITS if (root / config / f"{s}.jsonl").is_file()}
    if not files:
        raise FolderError(f"{root} has no {config} rows ({config}/*.jsonl)")
    return files


def load_folder(folder: str | Path, config: str, split: str | None = None) -> Any:
    """The rows of one config of `folder`, read now: a `DatasetDict` of its
    splits, or one `Dataset` when `split` is given. Never from a cache of an
    earlier read."""
    import datasets  # an optional dependency: only this function needs it

    files = data_files(folder, config)
    if split is not None and split not in files:
        raise FolderError(f"{folder} has no {config} split {split!r} (it has {', '.join(files)})")
    wanted = {split: files[split]} if split is not None else files
    with tempfile.TemporaryDirectory(prefix="cici-datasets-") as cache:
        loaded = datasets.load_dataset(
            "json",
            data_files=wanted,
            cache_dir=cache,
            keep_in_memory=True,
        )
    return loaded[split] if split is not None else loaded
