"""Sentence-level evidence: the sentence of each abstract that best supports it being cited."""

from __future__ import annotations

import re

from .search import LEXICAL_WEIGHT, focus

_ABBREVIATIONS = ("e.g.", "i.e.", "et al.", "etc.", "vs.", "cf.", "Fig.", "Eq.", "Sec.", "approx.", "resp.")
_BOUNDARY = re.compile(r"(?<=[.!?])[\"'\u201d)\]]*\s+(?=[A-Z0-9\"'\u201c(\[*_$\\])")


def sentences(text: str) -> list[str]:
    """Split an abstract into sentences, keeping common abbreviations whole."""
    protected = text
    for i, abbr in enumerate(_ABBREVIATIONS):
        protected = protected.replace(abbr, f"\x00{i}\x00")
    parts = [p.strip() for p in _BOUNDARY.split(protected) if p.strip()]
    out = []
    for part in parts:
        for i, abbr in enumerate(_ABBREVIATIONS):
            part = part.replace(f"\x00{i}\x00", abbr)
        out.append(part)
    return out or [text.strip()]


def best_sentences(query: str, texts: dict[str, str], embedder, lexical) -> dict[str, tuple[str, float]]:
    """For each paper: (its sentence most relevant to the query, that sentence's relevance).

    Relevance is scored like papers are (dense + weighted lexical coverage), one batch of
    embeddings for all candidate sentences.
    """
    query = focus(query)
    keyed = [(pid, s) for pid, text in texts.items() for s in sentences(text)]
    if not keyed:
        return {}
    vectors = embedder.embed([query] + [s for _, s in keyed])
    dense = vectors[1:] @ vectors[0]
    coverage = lexical.coverage(query, {str(i): s for i, (_, s) in enumerate(keyed)})
    best: dict[str, tuple[str, float]] = {}
    for i, (pid, sentence) in enumerate(keyed):
        score = float(dense[i]) + LEXICAL_WEIGHT * coverage.get(str(i), 0.0)
        if pid not in best or score > best[pid][1]:
            best[pid] = (sentence, score)
    return best


def supported(claim: str, evidence: str, allowed: str = "") -> bool:
    """True when a generated sentence says nothing the evidence does not: every number and
    nearly every content word of the claim occurs in the evidence (or the question/title)."""
    source = f"{evidence} {allowed}".lower()
    numbers = re.findall(r"\d+(?:\.\d+)?", claim)
    if any(n not in source for n in numbers):
        return False
    words = [w for w in re.findall(r"[a-z][a-z\-]{3,}", claim.lower()) if w not in _COMMON]
    if not words:
        return False
    stems = {w[:5] for w in re.findall(r"[a-z][a-z\-]{3,}", source)}
    found = sum(1 for w in words if w[:5] in stems)
    return found / len(words) >= 0.8


_COMMON = set("""
this that these those with from into than then they them their there which while where when what about also paper
papers study work works method methods approach propose proposes proposed present presents show shows shown using used
uses based such more most less other some each both many much well only over under between through across within
answer question finding findings sentence research authors
""".split())
