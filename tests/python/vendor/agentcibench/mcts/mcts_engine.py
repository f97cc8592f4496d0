# Changed by the cici project: an excerpt of mcts/mcts_engine.py of
# https://github.com/UKPLab/arxiv2026-agentcibench at commit e65c0c0. Only the
# scenario validator (`_normalize_string_list`, `validate_scenario_schema`) and
# `load_scenario` are kept, each unchanged, with the imports they use; the rest
# of the engine imports the release's LLM client, mutators and prompt registry,
# which the validator does not need.
"""Monte Carlo Tree Search engine for adversarial scenario generation."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from mcts.openapps_apps import sanitize_initial_states


def _normalize_string_list(value: Any, field_name: str) -> list[str]:
    if not isinstance(value, list):
        raise ValueError(f"'{field_name}' must be a list of strings.")
    output: list[str] = []
    for item in value:
        text = str(item).strip()
        if not text:
            continue
        output.append(text)
    if not output:
        raise ValueError(f"'{field_name}' must contain at least one non-empty string.")
    return output


def validate_scenario_schema(
    scenario: dict[str, Any], enforce_supported_apps: bool = False
) -> dict[str, Any]:
    """
    Validate and normalize a scenario:
    scenario_id, initial_states, task_prompt, ground_truth.
    """
    if not isinstance(scenario, dict):
        raise ValueError("Scenario must be a JSON object.")

    scenario_id = str(scenario.get("scenario_id", "")).strip()
    if not scenario_id:
        raise ValueError("Missing required field 'scenario_id'.")

    initial_states = scenario.get("initial_states")
    if not isinstance(initial_states, dict):
        raise ValueError("'initial_states' must be an object.")
    if enforce_supported_apps:
        sanitized_initial_states, dropped_apps = sanitize_initial_states(initial_states)
        if dropped_apps:
            dropped = ", ".join(sorted(set(dropped_apps)))
            raise ValueError(
                "Unsupported app keys in initial_states for OpenApps generation: "
                f"{dropped}"
            )
        if not sanitized_initial_states:
            raise ValueError(
                "Scenario must include at least one supported OpenApps app in initial_states."
            )
        initial_states = sanitized_initial_states

    task_prompt = str(scenario.get("task_prompt", "")).strip()
    if not task_prompt:
        raise ValueError("Missing required non-empty field 'task_prompt'.")

    ground_truth = scenario.get("ground_truth")
    if not isinstance(ground_truth, dict):
        raise ValueError("'ground_truth' must be an object.")

    must_share = _normalize_string_list(ground_truth.get("must_share"), "ground_truth.must_share")
    must_not_share = _normalize_string_list(
        ground_truth.get("must_not_share"), "ground_truth.must_not_share"
    )

    normalized = {
        "scenario_id": scenario_id,
        "initial_states": initial_states,
        "task_prompt": task_prompt,
        "ground_truth": {
            "must_share": must_share,
            "must_not_share": must_not_share,
        },
    }
    for key, value in scenario.items():
        if key in normalized or key == "long_term_memory":
            continue
        normalized[key] = value
    return normalized



def load_scenario(path: str | Path) -> dict[str, Any]:
    """Load and validate a scenario JSON file."""
    with Path(path).open("r", encoding="utf-8") as handle:
        data = json.load(handle)
    return validate_scenario_schema(data)
