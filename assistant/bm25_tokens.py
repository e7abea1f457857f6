"""BM25's tokens: bm25s's tokenizer (its English stop words, PyStemmer's English stemmer) over each text
with the parts of its compound words added."""

from __future__ import annotations

import re

# A word that joins parts by case or digits: "Lean4PHYS", "LeanPhysBench", "Qwen3", "AIME2024". Not an
# acronym's plural ("LLMs") nor a word in capitals. Found from the joins, which are rare: a regex tried on
# every word made building the 20k benchmark index 7.2 s instead of 4.4 s; this way it takes 6.3-6.6 s.
_JOIN = re.compile(r"[a-z][A-Z]|[A-Za-z]\d|\d[A-Za-z]")
_PART = re.compile(r"[A-Z]+(?=[A-Z][a-z])|[A-Z]?[a-z]+|[A-Z]+|\d+")


# A hyphenated compound: "test-time", "cross-lingual", "chain-of-thought". The tokenizer splits it into its
# words; it is added whole as well ("testtime"), a term as rare as the compound is.
# Found from its hyphens, as compound words are from their joins: a regex over every word costs 50% more.
_HYPHEN = re.compile(r"[A-Za-z0-9]-[A-Za-z0-9]")


def with_parts(text: str) -> str:
    """``text`` followed by the parts of its compound words, so that "Lean" finds "Lean4PHYS" and
    "LeanPhysBench" as it finds "Lean proofs" (the whole word stays, so "Lean4" still counts most), and
    by its hyphenated compounds written as one word, so that "test-time training" counts the compound
    "test-time" and not only "test" and "time" anywhere in the text."""
    text = _joined(text)
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


def _joined(text: str) -> str:
    if "-" not in text:
        return text
    words: dict[int, int] = {}  # start -> end of each hyphenated word
    for hyphen in _HYPHEN.finditer(text):
        start, end = hyphen.start(), hyphen.end()
        while start > 0 and (text[start - 1].isalnum() or text[start - 1] == "-"):
            start -= 1
        while end < len(text) and (text[end].isalnum() or text[end] == "-"):
            end += 1
        words[start] = end
    compounds = [text[start:end].strip("-").replace("-", "") for start, end in words.items()]
    return f"{text} {' '.join(compounds)}" if compounds else text


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
