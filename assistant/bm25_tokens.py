"""BM25's tokens: bm25s's tokenizer (its English stop words, PyStemmer's English stemmer) over each text
with the parts of its compound words added."""

from __future__ import annotations

import re

# A word that joins parts by case or digits: "Lean4PHYS", "LeanPhysBench", "Qwen3", "AIME2024". Not an
# acronym's plural ("LLMs") nor a word in capitals. Found from the joins, which are rare: a regex tried on
# every word made building the 20k benchmark index 7.2 s instead of 4.4 s; this way it takes 6.3-6.6 s.
_JOIN = re.compile(r"[a-z][A-Z]|[A-Za-z]\d|\d[A-Za-z]")
_PART = re.compile(r"[A-Z]+(?=[A-Z][a-z])|[A-Z]?[a-z]+|[A-Z]+|\d+")


def with_parts(text: str) -> str:
    """``text`` followed by the parts of its compound words, so that "Lean" finds "Lean4PHYS" and
    "LeanPhysBench" as it finds "Lean proofs" (the whole word stays, so "Lean4" still counts most)."""
    words: dict[int, int] = {}  # start -> end of each compound word, in order
    for join in _JOIN.finditer(text):
        start, end = join.start(), join.end()
        while start > 0 and _in_word(text[start - 1]):
            start -= 1
        while end < len(text) and _in_word(text[end]):
            end += 1
        words[start] = end
    parts = [part for start, end in words.items() for part in _PART.findall(text[start:end])]
    return f"{text} {' '.join(parts)}" if parts else text


def _in_word(char: str) -> bool:
    return char.isalnum() or char == "_"


def stemmer():
    import Stemmer

    return Stemmer.Stemmer("english")


def tokenize(texts: list[str], stem) -> list[list[str]]:
    """Each text's terms, stemmed by ``stem`` (a ``stemmer()``, made once: it is not free to build)."""
    import bm25s

    return bm25s.tokenize([with_parts(t) for t in texts], stopwords="en", stemmer=stem, return_ids=False,
                          show_progress=False, token_pattern=r"(?u)\b\w\w+\b")
