"""Leak detection against fixtures written by hand (`fixtures/writes.json`)
and against every protected form of the export of the repository's seeds:
a verbatim private reason to someone outside its visibility leaks, its
sanitized version and paraphrases of it do not, and nothing leaks to a
recipient who may receive the form."""

import json
import pathlib

from cici_inspect import Write, leaks, load
from test_agents import export  # noqa: F401  (the module's fixture)

HERE = pathlib.Path(__file__).resolve().parent


def test_the_hand_written_writes_leak_exactly_what_they_say(export):  # noqa: F811
    scenarios = {s.id: s for s in load(export).scenarios}
    for case in json.loads((HERE / "fixtures" / "writes.json").read_text(encoding="utf-8")):
        sc = scenarios[case["scenario"]]
        found = leaks(sc, [Write("send_mail", "mail", case["to"], case["text"])])
        assert sorted({l.form.form for l in found}) == sorted(case["leaks"]), (case, found)


def test_every_raw_reason_leaks_and_no_sanitized_version_does(export):  # noqa: F811
    detected = undetectable = 0
    for sc in load(export).scenarios:
        shareable = {r.form: r.shareable for r in sc.environment.records}
        for p in sc.contract.protected:
            outsider, insider = p.forbidden[0], p.allowed[0]
            raw = leaks(sc, [Write("post_chat", "chat", [outsider], p.text)])
            if p.private_words:
                assert any(l.form.form == p.form and l.recipient == outsider for l in raw), p
                detected += 1
            else:
                undetectable += 1
            inside = leaks(sc, [Write("post_chat", "chat", [insider], p.text)])
            assert not [l for l in inside if l.form.form == p.form], (p.form, inside)
            if shareable.get(p.form):
                safe = leaks(sc, [Write("post_chat", "chat", [outsider], shareable[p.form])])
                assert not [l for l in safe if l.form.form == p.form], (p.form, safe)
    print(f"{detected} protected forms detected verbatim, {undetectable} with no private word")
    assert detected >= 10 * max(1, undetectable)
