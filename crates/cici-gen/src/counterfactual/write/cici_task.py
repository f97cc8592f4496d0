"""inspect_ai tasks for a cici counterfactual folder.

Run every config of the folder this file sits in (the file has a task for
each config that has rows, so a folder of one kind runs that kind alone):

    pip install ./python          # the cici-inspect package, from the cici repository
    inspect eval cici_task.py --model <provider/model>

One task per config: `decision` (the one decision the appropriate
information allows, scored by exact match after normalisation) and `flow`
(may this statement go to this person for this task, scored `yes`/`no`).
Each sample is one side of a triplet: its `input` is the item and its
`target` the answer the cici prover computed. Task options (`-T name=value`):

- `split`: `train`, `validation`, `test` or `all` (default `test`);
- `side`: `anchor`, `flipped`, `held` or `all` (default `all`);
- `condition`: a decision cue condition (`none`, `privacy`, `sanitized`,
  `combined`) or `all` (default `all`);
- `repeated_anchors`: `true` keeps an anchor shared by several rows once per
  row (default `false`: each anchor is asked once);
- `epochs`: runs per sample (default 1; `--epochs` works too).

Written by `cici counterfactual`; the tasks are `cici_inspect.counterfactual`'s.
"""

from pathlib import Path

from inspect_ai import Task, task

from cici_inspect.counterfactual import decision_task, flow_task

HERE = Path(__file__).resolve().parent


# config: decision
@task
def decision(split: str = "test", side: str = "all", condition: str = "all",
             repeated_anchors: bool = False, epochs: int = 1) -> Task:
    """Decision items: the one decision the appropriate information allows."""
    return decision_task(HERE, split, side, condition, repeated_anchors, epochs)


# config: flow
@task
def flow(split: str = "test", side: str = "all", repeated_anchors: bool = False,
         epochs: int = 1) -> Task:
    """Flow items: may this statement go to this person for this task?"""
    return flow_task(HERE, split, side, repeated_anchors, epochs)
