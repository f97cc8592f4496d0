"""inspect_ai's registry entry point: the package's task."""

from .task import cici_agents  # noqa: F401
