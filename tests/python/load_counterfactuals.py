"""Loads a cici counterfactual folder the way a researcher would.

Usage: python load_counterfactuals.py <folder>

Each config of the dataset card loads with `datasets`, every split it
names, with string and integer columns only and the same columns in both
configs; no seed is in two splits; `pandas` reads the same files. Exits
non-zero on the first failure.
"""

import json
import sys
from pathlib import Path

import datasets
import pandas as pd


def main(folder: str) -> None:
    features = {}
    seeds_of = {}
    for cfg in ("decision", "flow"):
        loaded = datasets.load_dataset(folder, cfg)
        for split, ds in loaded.items():
            path = Path(folder) / cfg / f"{split}.jsonl"
            lines = sum(1 for _ in open(path, encoding="utf-8"))
            assert len(ds) == lines, (cfg, split, len(ds), lines)
            kinds = {str(v.dtype) for v in ds.features.values()}
            assert kinds <= {"string", "int64"}, (cfg, kinds)
            features[cfg] = ds.features
            df = pd.read_json(path, lines=True)
            assert df.shape == (lines, len(ds.features)), (cfg, df.shape)
            assert set(ds["split"]) == {split}, (cfg, split, set(ds["split"]))
            for seed in ds["scenario"]:
                seeds_of.setdefault(seed, set()).add(split)
            for side in ("flipped", "held"):
                json.loads(ds[0][f"{side}_edits"])
            print(f"datasets {datasets.__version__}: {cfg}/{split} {len(ds)} rows, {sorted(kinds)}")
        assert set(loaded) == {"train", "validation", "test"}, (cfg, set(loaded))
    assert features["decision"] == features["flow"], "the configs differ in columns"
    split_twice = {s: v for s, v in seeds_of.items() if len(v) > 1}
    assert not split_twice, f"seeds in two splits: {split_twice}"


if __name__ == "__main__":
    main(sys.argv[1])
