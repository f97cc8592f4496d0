"""Loads a cici counterfactual folder the way a researcher would.

Usage: python load_counterfactuals.py <folder>

Each config of the dataset card loads with `datasets`, with string and
integer columns only and the same columns in both configs; `pandas` reads
the same files. Exits non-zero on the first failure.
"""

import json
import sys

import datasets
import pandas as pd


def main(folder: str) -> None:
    features = {}
    for cfg in ("decision", "flow"):
        lines = sum(1 for _ in open(f"{folder}/{cfg}.jsonl", encoding="utf-8"))
        ds = datasets.load_dataset(folder, cfg, split="train")
        assert len(ds) == lines, (cfg, len(ds), lines)
        kinds = {str(v.dtype) for v in ds.features.values()}
        assert kinds <= {"string", "int64"}, (cfg, kinds)
        features[cfg] = ds.features
        df = pd.read_json(f"{folder}/{cfg}.jsonl", lines=True)
        assert df.shape == (lines, len(ds.features)), (cfg, df.shape)
        for side in ("flipped", "held"):
            json.loads(ds[0][f"{side}_edits"])
        print(f"datasets {datasets.__version__}: {cfg} {len(ds)} rows, {sorted(kinds)}")
    assert features["decision"] == features["flow"], "the configs differ in columns"


if __name__ == "__main__":
    main(sys.argv[1])
