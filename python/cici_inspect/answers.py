"""An item's answer read as the counterfactual folder's scorers
(`counterfactual.decision_match` and `yes_no`, which the folder's
`cici_task.py` runs) and the RL reward read it: one reading for both."""

from __future__ import annotations

import re


def normalise(text: str) -> list[str]:
    """An answer as comparable lines: code fences, bullets, backticks, case,
    spacing, dashes and final full stops do not count."""
    text = text.replace("\u2013", "-").replace("\u2014", "-")
    lines = []
    for line in text.splitlines():
        line = line.strip().strip("`").strip()
        if not line or line.startswith("```"):
            continue
        line = re.sub(r"^[-*]\s+", "", line)
        line = re.sub(r"\s*-\s*", "-", line)
        line = re.sub(r"\s+", " ", line).rstrip(".").lower()
        lines.append(line)
    return lines


def first_word(text: str) -> str:
    """The first word of an answer, as the flow scorer (`yes_no`) reads it."""
    words = re.findall(r"[a-z]+", text.lower())
    return words[0] if words else ""
