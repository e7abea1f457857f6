"""Whether any paper found is on everything a question combines: "protein folding with quantum computers" found
classical protein-folding papers and a quantum paper on RNA, and no paper on both.

A question's concepts are its runs of topic words (``query_words.topic_runs``: the words between its function
words, its asking words and its punctuation), so this reads the question's structure, not its meaning: "protein
folding with quantum computers" is "protein folding" and "quantum computers". A paper is on a concept when it
holds enough of the concept's terms (its IDF-weighted coverage, in the reading with the acronyms the papers define
written out or abbreviated) or when the concept's vector is close to one of its passages. Both cuts were fitted
on pairs of the corpus's own keywords (``bench/concepts.py``: pairs some paper carries both of, against pairs no
paper's title and abstract holds both of), on one half of the pairs and reported on the other.
"""

from __future__ import annotations

from dataclasses import dataclass

from .acronyms import definitions, readings
from .query_words import GENERAL_HEADS, topic_runs
from .reading.query_focus import focus
from .results import PaperHit

# Fitted by ``bench/concepts.py --fit`` at 19,622 papers (docs/retrieval.md, "Nothing on both").
ON_COVERAGE = 0.95   # a paper holding this share of a concept's terms is on it ...
ON_DENSE = 0.70      # ... and so is one with a passage this close to the concept
MOST_CONCEPTS = 3    # a longer run of topics is a description, not a combination


def concepts(query: str) -> list[str]:
    """The concepts ``query`` combines, or [] when it names one thing: 'protein folding with quantum computers'
    -> ['protein folding', 'quantum computers']. A run of general heads alone ("methods") is no concept."""
    runs = [" ".join(run) for run in topic_runs(focus(query)) if any(w.lower() not in GENERAL_HEADS for w in run)]
    runs = list(dict.fromkeys(runs))
    return runs if 2 <= len(runs) <= MOST_CONCEPTS else []


@dataclass(frozen=True)
class OnConcept:
    """How near one paper is to one concept: its coverage of the concept's terms and its best passage's cosine."""

    coverage: float
    dense: float

    def on(self, coverage: float = ON_COVERAGE, dense: float = ON_DENSE) -> bool:
        return self.coverage >= coverage or self.dense >= dense


def nearness(searcher, parts: list[str], hits: list[PaperHit]) -> dict[str, list[OnConcept]]:
    """Each hit's ``OnConcept`` for each of ``parts``, in their order."""
    ids = [h.id for h in hits]
    defined = definitions(h.text for h in hits)
    found: dict[str, list[OnConcept]] = {pid: [] for pid in ids}
    for part in parts:
        covered = {pid: 0.0 for pid in ids}
        for reading in readings(part, defined):
            for pid, share in searcher.lexical.paper_coverage(reading, ids).items():
                covered[pid] = max(covered[pid], share)
        close = searcher.vectors.best_chunks(ids, searcher.embedder.embed_query(part))
        for pid in ids:
            found[pid].append(OnConcept(covered[pid], close[pid][0] if pid in close else 0.0))
    return found


def combined_by_none(searcher, query: str, hits: list[PaperHit]) -> list[str]:
    """The concepts of ``query`` when it combines some and no paper of ``hits`` is on all of them, else []."""
    parts = concepts(query)
    if not parts or not hits:
        return []
    near = nearness(searcher, parts, hits)
    if any(all(c.on() for c in near[h.id]) for h in hits):
        return []
    return parts


def combined(parts: list[str]) -> str:
    """'both protein folding and quantum computers', 'all of A, B and C': what no paper is on."""
    *rest, last = parts
    return f"both {rest[0]} and {last}" if len(rest) == 1 else f"all of {', '.join(rest)} and {last}"


def by_concept(searcher, parts: list[str], hits: list[PaperHit]) -> list[PaperHit]:
    """``hits`` grouped by the concept each is on (its ``topic``), concepts in the question's order; a hit on
    none of them goes with the one it is nearest to in meaning."""
    near = nearness(searcher, parts, hits)
    for h in hits:
        marks = near[h.id]
        held = [i for i, c in enumerate(marks) if c.on()]
        best = max(held or range(len(parts)), key=lambda i: marks[i].dense)
        h.topic = parts[best]
    return sorted(hits, key=lambda h: parts.index(h.topic))
