"""What answering needs of a question's own words, read once with the rest of its plan (``read_for_answering``), so
that nothing after the plan reads the question again."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from .contributions_asked import contributions_asked, names_a_topic, without_the_use
from .query_focus import focus
from .question_forms import compared_names

if TYPE_CHECKING:
    from ..plan import Plan

# A follow-up picking one paper by what it is: "the one about emotions", "the CRISP one", "which one uses Lean"
_PICKED_BY_WHAT_IT_IS = re.compile(r"\b(?:the|which)\s+(?:[\w-]+\s+){0,2}?one\b(?!\s+of\s+(?:them|those|these)\b)", re.IGNORECASE)


def asked_compounds(question: str) -> list[str]:
    """The hyphenated terms ``question`` asks about ("training-free", "long-video"), less those in the scope of a
    negation ("without fine-tuning" asks for the opposite), in lower case."""
    negated = {m.group(1).lower() for m in re.finditer(r"\b(?:without|no|not|w/o|never)\s+(?:\w+\s+){0,2}?(\w+(?:-\w+)+)",
                                                      question, re.IGNORECASE)}
    return sorted({w.lower() for w in re.findall(r"\w+(?:-\w+)+", question)} - negated)


def read_for_answering(plan: Plan, venue_words: list[str]) -> Plan:
    """``plan`` with what answering needs of its question's words (``Plan.whole`` and the fields after it)."""
    from ..search import naming_words

    question = plan.question
    plan.whole, plan.asked_names = focus(question), naming_words(question)
    plan.asked_compounds, plan.compared = asked_compounds(question), compared_names(question)
    plan.picks_by_what, plan.venue_words = bool(_PICKED_BY_WHAT_IT_IS.search(question)), list(venue_words)
    plan.names_a_topic = names_a_topic(question) or not contributions_asked(question) or (
        bool(plan.data_use) and names_a_topic(without_the_use(question)))
    return plan
