"""The words of a text and their stems, exactly as cici's Rust tokenizer
makes them (`analysis::tokens::privacy_words` and `stem`): the contract's
private words and stems come from there, and a write is read here the
same way, so that a word the lint counts is the word the scorer counts.

A word is a run of letters and digits (Unicode's Alphabetic or Numeric, as
Rust's `char::is_alphanumeric`) that Unicode's default word boundaries
(UAX #29) do not cut, lower-cased; invisible characters are removed first.
Within such a run UAX #29 cuts between two characters unless both are
letters or digits (`abc123` is one word) or both Katakana, so each Han
ideograph, Hiragana, Thai or Lao letter is a word on its own; a combining
mark belongs to the character before it. The stem is Snowball's English.
`tests/test_tokens.py` holds this to the Rust tokenizer's output on the
leak calibration set.
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import lru_cache

import regex
import snowballstemmer

INVISIBLE = "\u200b\u200c\u200d\u2060\u00ad\ufeff"
_DROP = dict.fromkeys(map(ord, INVISIBLE))
_ALNUM = regex.compile(r"[\p{Alphabetic}\p{N}]+")
_JOINS = regex.compile(r"[\p{WB=ALetter}\p{WB=Hebrew_Letter}\p{WB=Numeric}]")
_KATAKANA = regex.compile(r"\p{WB=Katakana}")
_EXTENDS = regex.compile(r"[\p{WB=Extend}\p{WB=Format}\p{WB=ZWJ}]")


def _kind(c: str) -> str:
    """What UAX #29 makes of a character between two letters or digits:
    `j` (a letter or a digit, which join), `k` (Katakana, which join each
    other), `x` (a mark, which joins what precedes) or `o` (the rest)."""
    if _EXTENDS.fullmatch(c):
        return "x"
    if _JOINS.fullmatch(c):
        return "j"
    return "k" if _KATAKANA.fullmatch(c) else "o"


def _cuts(text: str, start: int, end: int) -> Iterable[int]:
    """Where UAX #29 cuts the run text[start:end] of letters and digits."""
    base = _kind(text[start])
    back = start - 1
    # A mark at the run's start takes the kind of what it follows.
    while base == "x" and back >= 0:
        base = _kind(text[back])
        back -= 1
    for i in range(start + 1, end):
        k = _kind(text[i])
        if k == "x":
            continue
        if not (k == base and k in "jk"):
            yield i
        base = k


def _pieces(text: str) -> Iterable[str]:
    for m in _ALNUM.finditer(text):
        at = m.start()
        for cut in _cuts(text, m.start(), m.end()):
            yield text[at:cut]
            at = cut
        yield text[at:m.end()]


def words(text: str) -> list[str]:
    """The words of a text as the privacy checks read them."""
    visible = text.translate(_DROP)
    return [w.lower() for w in _pieces(visible)]


@lru_cache(maxsize=1)
def _stemmer() -> snowballstemmer.stemmer:
    return snowballstemmer.stemmer("english")


def stem(word: str) -> str:
    """A word's Snowball English stem (`infusions` is `infus`)."""
    return str(_stemmer().stemWord(word))


def stems(ws: Iterable[str]) -> list[str]:
    """The stem of each word, in order."""
    return [stem(w) for w in ws]
