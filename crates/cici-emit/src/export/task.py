"""inspect_ai tasks for this folder, written by `cici export inspect`.

    pip install ./python          # the cici-inspect package, from the cici repository
    inspect eval task.py --model <provider/model>
"""

from pathlib import Path

from inspect_ai import task

from cici_inspect import cici_agents


@task
def cici(condition: str = "default", variant: str = "all", teammates: str = "scripted",
         grader: str = ""):
    """Every scenario of this folder, in the conditions none and combined (or
    `-T condition=all`), with every instruction variant; `-T grader=<model>`
    adds the model judge of leaks."""
    return cici_agents(Path(__file__).resolve().parent, condition=condition,
                       variant=variant, teammates=teammates, grader=grader)
