"""Agents with tools on cici's proven contextual-integrity scenarios."""

from .environment import Export, Scenario, Write, leaks, load
from .metrics import report, wilson
from .task import cici_agents

__all__ = ["Export", "Scenario", "Write", "cici_agents", "leaks", "load", "report", "wilson"]
