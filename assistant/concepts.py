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

import re
from dataclasses import dataclass

from .acronyms import definitions, readings
from .query_words import GENERAL_HEADS, topic_runs
from .reading.query_focus import focus
from .results import PaperHit

# Fitted by ``bench/concepts.py --fit`` at 19,622 papers (docs/retrieval.md, "Nothing on both").
ON_COVERAGE = 0.95   # a paper holding this share of a concept's terms is on it ...
ON_DENSE = 0.70      # ... and so is one with a passage this close to the concept
MOST_CONCEPTS = 2    # three or more runs are a description more often than a combination (labelled sets)


def concepts(query: str) -> list[str]:
    """The concepts ``query`` combines, or [] when it names one thing: 'protein folding with quantum computers'
    -> ['protein folding', 'quantum computers']. Runs joined by a coordinator ("or", "and", "/") are one concept with
    alternatives ("a simulator or world model": 'simulator or world model'), and a run of general heads alone
    ("methods") is no concept."""
    groups: list[list[str]] = []
    for number, part in enumerate(_OR.split(focus(query))):
        runs = [" ".join(run) for run in topic_runs(part) if any(w.lower() not in GENERAL_HEADS for w in run)]
        said_before = part[:part.find(runs[0].split()[0])] if runs else ""
        if number and groups and runs and not _OR_JOINS.search(said_before):
            groups[-1].append(runs.pop(0))  # the run right after "or" is an alternative to the one before it
        groups += [[run] for run in runs]
    found = list(dict.fromkeys(" or ".join(dict.fromkeys(g)) for g in groups))
    return found if 2 <= len(found) <= MOST_CONCEPTS else []


# Runs joined by a coordinator are alternatives: "papers on robots and embodied AI", "audio / speech LLMs", "rlhf +
# preference learning" ask for papers on either; "with", "for", "in" combine ("protein folding with quantum computers").
_OR = re.compile(r"\s(?:or|and|and/or|&)\s|\s*[/+,;]\s*", re.IGNORECASE)
_OR_JOINS = re.compile(r"[^\W\d_]{4,}")  # a word of four letters or more between "or" and the run: not its alternative


def alternatives(concept: str) -> list[str]:
    """'simulator or world model' -> ['simulator', 'world model']."""
    return concept.split(" or ")


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
        close = {pid: 0.0 for pid in ids}
        for alternative in alternatives(part):  # on one of them is on the concept: the nearest counts
            for reading in readings(alternative, defined):
                for pid, share in searcher.lexical.paper_coverage(reading, ids).items():
                    covered[pid] = max(covered[pid], share)
            for pid, best in searcher.vectors.best_chunks(ids, searcher.embedder.embed_query(alternative)).items():
                close[pid] = max(close[pid], best[0])
        for pid in ids:
            found[pid].append(OnConcept(covered[pid], close[pid]))
    return found


def combined_by_none(parts: list[str], hits: list[PaperHit], near: dict[str, list[OnConcept]]) -> bool:
    """Whether no paper of ``hits`` is on all of ``parts`` though each part has one on it (``near``: ``nearness``)."""
    if not parts or not hits or any(all(c.on() for c in near[h.id]) for h in hits):
        return False
    # each concept is held by some paper found: a concept none of them is on is more often a part of the question
    # no abstract words that way ("evaluate", "keeps fluency") than a thing the store lacks (``bench/concepts.py``)
    return all(any(near[h.id][i].on() for h in hits) for i in range(len(parts)))


def combined(parts: list[str]) -> str:
    """'both protein folding and quantum computers', 'all of A, B and C': what no paper is on."""
    *rest, last = parts
    return f"both {rest[0]} and {last}" if len(rest) == 1 else f"all of {', '.join(rest)} and {last}"


def by_concept(parts: list[str], hits: list[PaperHit], near: dict[str, list[OnConcept]]) -> list[PaperHit]:
    """``hits`` grouped by the concept each is on (its ``topic``), concepts in the question's order; a hit on
    none of them goes with the one it is nearest to in meaning."""
    for h in hits:
        marks = near[h.id]
        held = [i for i, c in enumerate(marks) if c.on()]
        h.topic = parts[max(held or range(len(parts)), key=lambda i: marks[i].dense)]
    return sorted(hits, key=lambda h: parts.index(h.topic))
