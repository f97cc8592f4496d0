"""Complete and check cici's entries for the inspect_evals register.

The register lists benchmarks whose code lives in their own repositories.
Each entry (`register/<id>/eval.yaml` here) names one `@task` by its file
and function; at submission it gains a `source` block that pins this
repository's URL and commit. This script adds that block and checks each
entry the way the register does:

- the entry validates against inspect_evals' own schema
  (`inspect_evals.metadata.ExternalEvalMetadata`, from PyPI);
- the task file holds a `@task` function of the entry's name, found by the
  register's own resolver (`register_tooling.task_resolver`), in the file
  as it stands at the pinned commit (or in the working tree);
- `dataset_samples` is the number of samples the task builds with its
  default arguments.

Usage:

    python tools/register_entry.py --repository-url URL [--commit SHA] [--out DIR]

With `--out`, the completed entries are written to `DIR/<id>/eval.yaml`,
ready to copy into a pull request to the register. Exit status 1 names
every entry that fails.
"""

from __future__ import annotations

import argparse
import importlib.util
import subprocess
import sys
from pathlib import Path
from typing import Any

import yaml

ROOT = Path(__file__).resolve().parent.parent


def task_source(path: str, commit: str | None) -> str:
    """The task file's text at `commit`, or in the working tree."""
    if commit is None:
        return (ROOT / path).read_text(encoding="utf-8")
    shown = subprocess.run(
        ["git", "-C", str(ROOT), "show", f"{commit}:{path}"],
        capture_output=True, text=True, check=False,
    )
    if shown.returncode != 0:
        raise ValueError(f"{path} is not in commit {commit}: {shown.stderr.strip()}")
    return shown.stdout


def def_line(source: str, name: str) -> int | None:
    """The line of `def name(`, the anchor the register's resolver takes."""
    for number, line in enumerate(source.splitlines(), start=1):
        if line.lstrip().startswith(f"def {name}("):
            return number
    return None


def built_samples(path: str, name: str) -> int:
    """How many samples the task builds with its default arguments."""
    spec = importlib.util.spec_from_file_location(f"register_{name}", ROOT / path)
    if spec is None or spec.loader is None:
        raise ValueError(f"{path} cannot be imported")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return len(getattr(module, name)().dataset)


def check_task(task: dict[str, Any], commit: str | None) -> list[str]:
    """What is wrong with one task of an entry (nothing when it is right)."""
    from register_tooling.task_resolver import TaskResolutionError, resolve_task

    path, name = task.get("task_path"), task.get("name")
    if not isinstance(path, str) or not isinstance(name, str):
        return ["a task needs `name` and `task_path`"]
    try:
        source = task_source(path, commit)
    except (OSError, ValueError) as err:
        return [str(err)]
    anchor = def_line(source, name)
    if anchor is None:
        return [f"{path} has no `def {name}(`: no @task of that name"]
    try:
        found = resolve_task(source, line_anchor=anchor, file_label=path)
    except TaskResolutionError as err:
        return [str(err)]
    problems = []
    if commit is not None and source != task_source(path, None):
        problems.append(f"{path} differs from commit {commit}: check that commit out "
                        "so the samples are counted from the pinned file")
    if found.name != name:
        problems.append(f"{path}: the @task near `def {name}` is `{found.name}`")
    want = built_samples(path, name)
    if task.get("dataset_samples") != want:
        problems.append(f"{name}: dataset_samples is {task.get('dataset_samples')}, "
                        f"the task builds {want}")
    return problems


def resolve_commit(commit: str | None) -> str | None:
    """The full hash of `commit` (a branch, tag or short hash)."""
    if commit is None:
        return None
    parsed = subprocess.run(
        ["git", "-C", str(ROOT), "rev-parse", "--verify", f"{commit}^{{commit}}"],
        capture_output=True, text=True, check=False,
    )
    if parsed.returncode != 0:
        raise SystemExit(f"error: {commit} is not a commit of {ROOT}")
    return parsed.stdout.strip()


def complete(entry_path: Path, url: str, commit: str | None) -> tuple[dict[str, Any], list[str]]:
    """The entry with its `source`, and what is wrong with it."""
    from inspect_evals.metadata import ExternalEvalMetadata
    from pydantic import ValidationError

    data = yaml.safe_load(entry_path.read_text(encoding="utf-8"))
    if not isinstance(data, dict):
        return {}, [f"{entry_path}: not a mapping"]
    data["source"] = {"repository_url": url,
                      "repository_commit": commit or "working-tree"}
    problems = [p for t in data.get("tasks") or [] for p in check_task(t, commit)]
    try:
        ExternalEvalMetadata(**{**data, "id": entry_path.parent.name})
    except ValidationError as err:
        problems.append(str(err))
    return data, problems


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repository-url", required=True,
                        help="the public URL of this repository")
    parser.add_argument("--commit", help="the commit to pin (default: the working tree)")
    parser.add_argument("--out", type=Path, help="write completed entries under this folder")
    parser.add_argument("--entries", type=Path, default=ROOT / "register",
                        help="the folder of entries (default: register/)")
    args = parser.parse_args(argv)
    args.commit = resolve_commit(args.commit)
    failed = 0
    for entry in sorted(args.entries.glob("*/eval.yaml")):
        data, problems = complete(entry, args.repository_url, args.commit)
        for p in problems:
            print(f"error: {entry.parent.name}: {p}", file=sys.stderr)
        failed += bool(problems)
        if args.out and not problems:
            target = args.out / entry.parent.name / "eval.yaml"
            target.parent.mkdir(parents=True, exist_ok=True)
            partial = target.with_suffix(".yaml.partial")
            partial.write_text(yaml.safe_dump(data, sort_keys=False), encoding="utf-8")
            partial.replace(target)
        print(f"{entry.parent.name}: {'fails' if problems else 'valid'}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
