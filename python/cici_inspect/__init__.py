"""Agents with tools on cici's proven contextual-integrity scenarios."""

from .calibration import calibrate
from .counterfactual import decision_task, flow_task
from .environment import Export, Leak, Scenario, Write, leaks, load
from .judge import leak_judge
from .metrics import report, wilson
from .records import FormatError
from .task import cici_agents

__all__ = ["Export", "FormatError", "Leak", "Scenario", "Write", "calibrate", "cici_agents", "decision_task",
           "flow_task", "leak_judge", "leaks", "load", "report", "wilson"]
