"""Writes flow.eval: the flow task of generated/counterfactuals on its
validation split, answered `yes` by inspect's mock model, in inspect's
default log format. Run from the repository root with inspect_ai installed
(offline: TIKTOKEN_CACHE_DIR pointing at the tokenizer cache):

    python tests/data/inspect/make_flow_eval.py
"""

import pathlib
import shutil
import sys
import tempfile

from inspect_ai import eval
from inspect_ai.model import ModelOutput, get_model

ROOT = pathlib.Path(__file__).resolve().parents[3]
sys.path.insert(0, str(ROOT / "generated" / "counterfactuals"))
from cici_task import flow  # noqa: E402

model = get_model(
    "mockllm/model",
    custom_outputs=[ModelOutput.from_content("mockllm", "yes") for _ in range(3)],
)
with tempfile.TemporaryDirectory() as logs:
    eval(flow(split="validation"), model=model, log_dir=logs, display="none")
    (log,) = pathlib.Path(logs).glob("*.eval")
    shutil.copy(log, pathlib.Path(__file__).with_name("flow.eval"))
