"""Each sample's state in inspect's typed store: the scenario and
condition it runs, how teammates answer, what the agent wrote and the
decision it recorded. Samples run concurrently without sharing any."""

from __future__ import annotations

from inspect_ai.util import StoreModel, store_as
from pydantic import BaseModel, ConfigDict, Field

from .environment import Scenario, Write, load


class Meta(BaseModel):
    """A sample's metadata: where its scenario is, and how it is run."""

    model_config = ConfigDict(frozen=True)

    export: str
    scenario: str
    family: str
    condition: str
    variant: str
    executor: str
    role: str


class Sample(StoreModel):
    """One sample's state; `setup` fills in the first four fields."""

    export: str = ""
    scenario: str = ""
    condition: str = ""
    teammates: str = "scripted"
    writes: list[Write] = Field(default_factory=list)
    decision: dict[str, str] = Field(default_factory=dict)

    def current(self) -> Scenario:
        """The sample's scenario; an error if the setup solver did not run."""
        if not self.export:
            raise RuntimeError("the cici setup solver did not run for this sample")
        return load(self.export).scenario(self.scenario)

    def write(self, w: Write) -> None:
        """Keeps a write (the list is set again, so that the store sees it)."""
        self.writes = [*self.writes, w]

    def decide(self, target: str, value: str) -> None:
        """Records one target's decision."""
        self.decision = {**self.decision, target: value}


def sample() -> Sample:
    """The running sample's state."""
    return store_as(Sample)
