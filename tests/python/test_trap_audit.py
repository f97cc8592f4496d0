"""The bars of issue 48 for decision items, held on planted seeds used for
nothing else (61000 to 61011 of every family, `synth --norms`), by
`trap_audit.py`: an auditor that shares no code with cici and re-solves
every side's exported model with CP-SAT. `pytest -s` prints the table.

A bar that does not pass today is an expected failure, strict, so that the
day it passes the run turns red and the mark has to go."""

import math
import os
import pathlib

import pytest

import trap_audit

ROOT = pathlib.Path(__file__).resolve().parents[2]
FAMILIES = trap_audit.FAMILIES
SEEDS = range(61000, 61012)


def cici():
    return os.environ.get("CICI", str(ROOT / "target" / "release" / "cici"))


# (bar, family) -> what was measured on SEEDS and what is missing.
NOT_YET: dict[tuple[str, str], str] = {}


def cases(bar):
    out = []
    for family in FAMILIES:
        reason = NOT_YET.get((bar, family))
        marks = [pytest.mark.xfail(strict=True, reason=reason)] if reason else []
        out.append(pytest.param(family, marks=marks, id=family))
    return out


@pytest.fixture(scope="module")
def figures(tmp_path_factory):
    figures = trap_audit.audit(pathlib.Path(cici()), SEEDS, tmp_path_factory.mktemp("trap-audit"))
    print()
    print(trap_audit.table(figures))
    return figures


def test_the_auditor_reads_the_exported_models_as_cici_does(figures):
    """Every side's appropriate facts allow exactly its oracle under CP-SAT,
    and every trap's and the reader's decision agree with the export's."""
    for family in FAMILIES:
        f = figures[family]
        assert f["sides"] >= 10, (family, f)
        assert f["oracle_ok"] == 1.0, (family, f)
        assert f["disagree"] == 0, (family, f)
        assert f["reader_disagree"] == 0, (family, f)


@pytest.mark.parametrize("family", cases("everything"))
def test_a_reader_of_every_detail_misses_the_oracle(figures, family):
    assert trap_audit.passes(figures[family], "everything"), figures[family]["everything"]


@pytest.mark.parametrize("family", cases("operational_only"))
def test_dropping_every_personal_detail_misses_the_oracle(figures, family):
    value = figures[family]["operational_only"]
    assert trap_audit.passes(figures[family], "operational_only"), value


@pytest.mark.parametrize("family", cases("consequential"))
def test_sides_carry_a_trap_that_leads_to_another_decision(figures, family):
    assert trap_audit.passes(figures[family], "consequential"), figures[family]["consequential"]


@pytest.mark.parametrize("family", cases("diff_clf"))
def test_the_diff_does_not_tell_a_flip_from_a_hold(figures, family):
    value = figures[family]["diff_clf"]
    assert not math.isnan(value), "too few triplets to train on"
    assert trap_audit.passes(figures[family], "diff_clf"), value


@pytest.mark.parametrize("family", cases("notes_kw"))
def test_the_privacy_notes_tell_no_more_than_the_category(figures, family):
    f = figures[family]
    assert not math.isnan(f["notes_kw"]), "no privacy notes read"
    assert trap_audit.passes(f, "notes_kw"), (f["notes_kw"], f["category"])


@pytest.mark.parametrize("family", cases("yield"))
def test_seeds_give_the_triplets_asked_for(figures, family):
    assert trap_audit.passes(figures[family], "yield"), figures[family]["yield"]
