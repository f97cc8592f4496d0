"""The scorer reads a write's words as cici's Rust tokenizer does. On
every text of the leak calibration set, and on a few borderline texts,
`tokens.json` holds the words and stems the Rust tokenizer makes (the Rust
test `tokens` writes and holds it); Python's must be the same, word for
word, and the contract's stems must be Python's stems of its words."""

import json
import pathlib

from cici_inspect.calibration import read
from cici_inspect.tokens import stems, words

DATA = pathlib.Path(__file__).resolve().parent / "data" / "leak_calibration"


def rust_texts():
    return json.loads((DATA / "tokens.json").read_text(encoding="utf-8"))["texts"]


def test_python_cuts_every_text_into_the_rust_words():
    texts = rust_texts()
    assert len(texts) >= 100
    apart = [(t["text"], words(t["text"]), t["words"]) for t in texts if words(t["text"]) != t["words"]]
    assert not apart, apart[:5]


def test_python_stems_every_word_as_rust_does():
    pairs = [(w, s) for t in rust_texts() for w, s in zip(t["words"], t["stems"])]
    assert len(pairs) >= 1000
    apart = sorted({(w, s, stems([w])[0]) for w, s in pairs if stems([w])[0] != s})
    assert not apart, apart[:10]


def test_the_contract_stems_are_the_stems_of_its_words():
    rows = read(DATA)
    for row in rows:
        assert sorted(set(stems(row.form.private_words))) == row.form.private_stems, row.id
