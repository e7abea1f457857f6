"""A paper's main contribution: the one kind among its labels (ingest/contributions.py) that is its
chief contribution, read off the same abstract by the same rules.

Most abstracts claim more than one kind: a method paper proves something about its method, a
study ends with a small fix, a benchmark paper evaluates models on it. What the paper is mainly
about is what its abstract keeps talking about, so the rules count sentences:

- Each sentence is about the kinds its cues give ("we prove", "we conduct a systematic study"),
  but of a contribution phrase only its head noun ("a data synthesis framework" is a method, "a
  policy evaluation environment" a tool), and about the kind of any name the abstract coined
  earlier that it mentions: "PoLR consistently matches ..." is one more sentence about the
  method PoLR, "GDPval covers ..." one more about the benchmark. A paper whose abstract keeps
  returning to its named method is a method paper, however much theory or analysis frames it.
  A name that turns out to be a collection ("Lean4PHYS includes LeanPhysBench, a benchmark")
  counts as what it holds, and the names it holds are coined too.
- A claim about how existing work behaves ("we show that widely used metrics underestimate
  ...") counts for the study, when the paper is labelled one.
- The kind with the most sentences is the main one. On a tie, the kind the abstract claims
  first: what an abstract leads with is what it sets out to do ("we provide the first rigorous
  theoretical analysis ... motivated by these insights, we propose ..."); kinds first claimed in
  the same sentence go in ``LABELS`` order.
- A survey or position paper is one whatever else it mentions: it has no other main kind.

A paper with one label has it as its main contribution. Rules, not an LLM, for the reasons the
labels are (see ingest/contributions.py). ``VERSION`` there covers these rules too.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .contributions import (BENCHMARK, DATA_USES, EMPIRICAL, LABELS, METHOD, METHOD_FORMS, SURVEY, TRAINING_FREE, Evidence,
                            evidence)
from .efficiency import savings
from .training_free import is_training_free


@dataclass(frozen=True)
class Contributions:
    """What a paper contributes: every kind it claims (in ``LABELS`` order), the chief one, for a
    benchmark/dataset paper what its resources are for (in ``DATA_USES`` order; [] for other papers), and for
    a method paper what form its method takes (in ``METHOD_FORMS`` order: "architecture", "metric", "training-free";
    [] for others)."""

    labels: list[str]
    main: str
    data_uses: list[str] = field(default_factory=list)
    method_forms: list[str] = field(default_factory=list)
    savings: list[str] = field(default_factory=list)  # what costs its own work cuts (``ingest.efficiency``)


def read(title: str, text: str) -> Contributions:
    """The labels, the main contribution, the data uses and the method forms of one paper (``title``: its own,
    or "")."""
    found = evidence(title, text)
    labels = found.labels()
    uses = [use for use in DATA_USES if use in found.data_uses] if BENCHMARK in labels else []
    if METHOD in labels and is_training_free(text):
        found.method_forms.add(TRAINING_FREE)
    forms = [form for form in METHOD_FORMS if form in found.method_forms] if METHOD in labels else []
    return Contributions(labels, main_of(found, labels), uses, forms, savings(text))


def main_contribution(title: str, text: str) -> str:
    return read(title, text).main


def main_of(found: Evidence, labels: list[str]) -> str:
    """The chief kind among ``labels``, from the sentences ``found`` read (see the module's docstring)."""
    if len(labels) == 1:
        return labels[0]
    if SURVEY in labels:
        return SURVEY
    about = [set(entry) for entry in found.trail]
    if EMPIRICAL in labels:
        for at in found.finding_at:
            about[at].add(EMPIRICAL)
    counts = {kind: sum(kind in entry for entry in about) for kind in labels}
    first = {kind: next((i for i, entry in enumerate(about) if kind in entry), len(about)) for kind in labels}
    return min(labels, key=lambda kind: (-counts[kind], first[kind], LABELS.index(kind)))
