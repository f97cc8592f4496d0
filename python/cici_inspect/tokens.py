"""The words of a text and their stems, exactly as cici's Rust tokenizer
makes them (`analysis::tokens::privacy_words` and `stem`): the contract's
private words and stems come from there, and a write is read here the
same way, so that a word the lint counts is the word the scorer counts.

The Rust tokenizer removes invisible characters, cuts the text at
Unicode's default word boundaries (UAX #29, the `unicode-segmentation`
crate's `unicode_words`), cuts each word again at every character that is
not a letter or a digit (Rust's `char::is_alphanumeric`: Alphabetic or a
number), and lower-cases the pieces. This module does the same: `_bounds`
is UAX #29's rules WB3 to WB13b (regional indicators are neither letters
nor digits, so their pairing never moves a word). The stem is Snowball's
English (`snowballstemmer` before 3.0, the algorithm `rust-stemmers`
implements). `tests/test_tokens.py` holds both to the Rust tokenizer's
output on the leak calibration set.
"""

from __future__ import annotations

from collections.abc import Iterator
from functools import lru_cache

import regex
import snowballstemmer

INVISIBLE = "\u200b\u200c\u200d\u2060\u00ad\ufeff"
_DROP = dict.fromkeys(map(ord, INVISIBLE))
_ALNUM = regex.compile(r"[\p{Alphabetic}\p{N}]")
_PROPS = ("CR", "LF", "Newline", "Extend", "ZWJ", "Format", "Katakana", "Hebrew_Letter", "ALetter",
          "Single_Quote", "Double_Quote", "MidNumLet", "MidLetter", "MidNum", "Numeric", "ExtendNumLet",
          "WSegSpace")
_WB = [(p, regex.compile(r"\p{WB=%s}" % p)) for p in _PROPS]
_PICTOGRAPHIC = regex.compile(r"\p{Extended_Pictographic}")
_AH = ("ALetter", "Hebrew_Letter")
_MIDLETTER = ("MidLetter", "MidNumLet", "Single_Quote")
_MIDNUM = ("MidNum", "MidNumLet", "Single_Quote")
_ATTACHED = ("Extend", "Format", "ZWJ")
_NEWLINES = ("CR", "LF", "Newline")


@lru_cache(maxsize=4096)
def _prop(c: str) -> str:
    """A character's Word_Break property (`Other` for none)."""
    return next((p for p, r in _WB if r.fullmatch(c)), "Other")


def _units(text: str) -> list[tuple[int, str]]:
    """WB4: each character with the Extend, Format and ZWJ characters that
    follow it (not after a line break), as (start, its property)."""
    out: list[tuple[int, str]] = []
    for i, c in enumerate(text):
        p = _prop(c)
        if p in _ATTACHED and out and out[-1][1] not in _NEWLINES:
            continue
        out.append((i, p))
    return out


def _joined(u: list[tuple[int, str]], i: int, text: str) -> bool:
    """Whether UAX #29 keeps units i-1 and i together."""
    a, b = u[i - 1][1], u[i][1]
    before = u[i - 2][1] if i >= 2 else "sot"
    after = u[i + 1][1] if i + 1 < len(u) else "eot"
    if (a, b) == ("CR", "LF"):
        return True
    if a in _NEWLINES or b in _NEWLINES:
        return False
    if text[u[i][0] - 1] == "\u200d" and _PICTOGRAPHIC.fullmatch(text[u[i][0]]):
        return True
    if (a, b) == ("WSegSpace", "WSegSpace") and u[i][0] - u[i - 1][0] == 1:
        return True
    return (
        (a in _AH and b in _AH)
        or (a in _AH and b in _MIDLETTER and after in _AH)
        or (before in _AH and a in _MIDLETTER and b in _AH)
        or (a == "Hebrew_Letter" and b == "Single_Quote")
        or (a == "Hebrew_Letter" and b == "Double_Quote" and after == "Hebrew_Letter")
        or (before == "Hebrew_Letter" and a == "Double_Quote" and b == "Hebrew_Letter")
        or (a in _AH + ("Numeric",) and b in _AH + ("Numeric",))
        or (before == "Numeric" and a in _MIDNUM and b == "Numeric")
        or (a == "Numeric" and b in _MIDNUM and after == "Numeric")
        or (a == b == "Katakana")
        or (a in _AH + ("Numeric", "Katakana", "ExtendNumLet") and b == "ExtendNumLet")
        or (a == "ExtendNumLet" and b in _AH + ("Numeric", "Katakana"))
    )


def _segments(text: str) -> Iterator[str]:
    """The text cut at UAX #29's word boundaries."""
    u = _units(text)
    start = 0
    for i in range(1, len(u)):
        if not _joined(u, i, text):
            yield text[start:u[i][0]]
            start = u[i][0]
    if text:
        yield text[start:]


def _pieces(segment: str) -> Iterator[str]:
    """A segment cut at every character that is neither a letter nor a digit."""
    piece = ""
    for c in segment:
        if _ALNUM.fullmatch(c):
            piece += c
        elif piece:
            yield piece
            piece = ""
    if piece:
        yield piece


def words(text: str) -> list[str]:
    """The words of a text as the privacy checks read them."""
    visible = text.translate(_DROP)
    return [p.lower() for s in _segments(visible) for p in _pieces(s)]


@lru_cache(maxsize=1)
def _stemmer() -> snowballstemmer.stemmer:
    return snowballstemmer.stemmer("english")


def stem(word: str) -> str:
    """A word's Snowball English stem (`infusions` is `infus`)."""
    return str(_stemmer().stemWord(word))


def stems(ws: list[str]) -> list[str]:
    """The stem of each word, in order."""
    return [stem(w) for w in ws]
