"""Agents with tools on cici's proven contextual-integrity scenarios."""

from .calibration import calibrate
from .environment import Export, Scenario, Write, leaks, load
from .judge import leak_judge
from .metrics import report, wilson
from .task import cici_agents

__all__ = ["Export", "Scenario", "Write", "calibrate", "cici_agents", "leak_judge", "leaks", "load", "report", "wilson"]
