"""The export's files are read once into typed records: a file that is not
what cici writes stops the load with an error naming the file and the
field, and a sample's state is inspect's typed store."""

import json
import shutil

import pytest
from cici_inspect import FormatError, load
from cici_inspect.counterfactual import samples
from cici_inspect.state import Sample
from test_agents import export  # noqa: F401  (the module's fixture)


def broken(export, tmp_path, edit):
    out = tmp_path / "export"
    shutil.copytree(export, out)
    contract = sorted((out / "answers").glob("*/contract.json"))[0]
    data = json.loads(contract.read_text(encoding="utf-8"))
    edit(data)
    contract.write_text(json.dumps(data), encoding="utf-8")
    load.cache_clear()
    return out, contract


def test_a_well_formed_export_reads_into_records(export):  # noqa: F811
    for sc in load(export).scenarios:
        assert sc.environment.id == sc.contract.id == sc.tasks.id == sc.folder.name
        assert all(isinstance(p.need, int) and p.class_ for p in sc.contract.protected)
        assert sc.person(sc.executor) is not None


@pytest.mark.parametrize("edit, field, message", [
    (lambda d: d["protected"][0].update(need="2"), "protected.0.need", "valid integer"),
    (lambda d: d["oracle"][0].pop("value"), "oracle.0.value", "Field required"),
    (lambda d: d.update(version=1), "version", "format version 1"),
])
def test_a_bad_contract_names_its_file_and_field(export, tmp_path, edit, field, message):  # noqa: F811
    out, contract = broken(export, tmp_path, edit)
    with pytest.raises(FormatError) as e:
        load(out)
    assert str(e.value).startswith(f"{contract}: {field}: "), e.value
    assert message in str(e.value)


def test_a_bad_counterfactual_row_names_its_file_line_and_field(tmp_path):
    row = {"id": "r1", "scenario": "s", "kind": "decision", "condition": "none", "anchor_repeat": 0}
    for side in ("anchor", "flipped", "held"):
        row |= {f"{side}_item": f"{side} item", f"{side}_answer": "A: b", f"{side}_traps": ""}
    (tmp_path / "decision").mkdir()
    rows = tmp_path / "decision" / "test.jsonl"
    rows.write_text(json.dumps(row) + "\n", encoding="utf-8")
    assert [s.id for s in samples(tmp_path, "decision")] == ["r1-anchor", "r1-flipped", "r1-held"]
    del row["held_answer"]
    rows.write_text("\n" + json.dumps(row) + "\n", encoding="utf-8")
    with pytest.raises(FormatError, match=r"test\.jsonl:2: held\.answer: Field required"):
        samples(tmp_path, "decision")


def test_a_samples_state_is_typed_and_starts_empty():
    state = Sample()
    assert (state.writes, state.decision, state.teammates) == ([], {}, "scripted")
    with pytest.raises(RuntimeError, match="setup solver"):
        state.current()
