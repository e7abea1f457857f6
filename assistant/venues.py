"""A venue or year said in a question ("Which ICLR 2026 papers study exploration?") is a filter, not a topic.

No abstract says "ICLR" or "2026", so as search words they made such a question abstain ("no abstract mentions
ICLR"). The venues and years read here are the store's own (``Assistant.facets``), so a question on a venue the
store lacks still searches its words, and the answer says what the store holds.
"""

from __future__ import annotations

import re

# What a question saying a venue or year holds: a run of capitals ("ICLR", "NeurIPS") or a year. Others never read
# the store's venues.
MAY_SAY_A_VENUE = re.compile(r"\b[A-Z][A-Za-z]*[A-Z][A-Za-z]*\b|\b(?:19|20)\d\d\b")
# A venue said with a preposition or the word for papers around it: "from ICLR 2026", "at ICLR", "ICLR 2026 papers"
_BEFORE = r"(?:\b(?:from|at|in|of|to|for|accepted\s+(?:at|to|by)|published\s+(?:at|in))\s+(?:the\s+)?)?"


def said_venues(question: str, venues: list[str], years: list[int]) -> tuple[list[tuple[str, object]], str]:
    """The filter items (("venue", "ICLR 2026"), ("year", 2026)) a question's venue or year words ask for, and
    the question without them: 'Which ICLR 2026 papers study exploration?' -> ([("venue", "ICLR 2026")],
    'Which papers study exploration?'). A venue's name without its year ("ICLR") asks for every venue of the
    store with that name; a bare year is one only beside a word for papers ("2026 papers", "papers from 2026"),
    since "Lean 4" or "GPT-4" hold numbers too. ([], question) when it says none."""
    items: list[tuple[str, object]] = []
    rest = question
    for venue in sorted(venues, key=len, reverse=True):  # "ICLR 2026" before "ICLR"
        found = _phrase(venue).search(rest)
        if found:
            items.append(("venue", venue))
            rest = _cut(rest, found)
    if not items:
        named: dict[str, list[str]] = {}
        for venue in venues:
            name = re.sub(r"\s*\b(?:19|20)\d\d\b\s*", " ", venue).strip()
            if len(name) >= 3 and name != venue:
                named.setdefault(name, []).append(venue)
        for name, held in sorted(named.items(), key=lambda kv: len(kv[0]), reverse=True):
            found = _phrase(name).search(rest)
            if found:
                items += [("venue", v) for v in held]
                rest = _cut(rest, found)
    if not any(field == "venue" for field, _ in items):
        for year in years:
            found = re.search(rf"{_BEFORE}\b{year}\b(?=\s+(?:papers?|abstracts?|submissions|works?)\b)"
                              rf"|\b(?:from|in|of)\s+{year}\b(?![-\w])", rest, re.IGNORECASE)
            if found:
                items.append(("year", year))
                rest = _cut(rest, found)
    return items, re.sub(r"\s+(?=[?.!,;:])", "", " ".join(rest.split()))


def _phrase(name: str) -> re.Pattern:
    words = r"\s+".join(re.escape(w) for w in name.split())
    return re.compile(rf"{_BEFORE}(?<![\w-]){words}(?![\w-])", re.IGNORECASE)


def _cut(text: str, found: re.Match) -> str:
    return f"{text[:found.start()]} {text[found.end():]}"


# A word said where a venue goes: "NeurIPS papers", "papers from NeurIPS", "accepted at ACL 2025"
_VENUE_SHAPE = re.compile(r"^[A-Z][A-Za-z]*[A-Z][A-Za-z]*$")


def venue_like(question: str, words: list[str]) -> list[str]:
    """Those of ``words`` (ones no abstract holds) that ``question`` says as a venue: 'NeurIPS' of 'NeurIPS
    papers on RL' or 'papers from NeurIPS'; not a word of another shape ('Qwen3', 'protein')."""
    said = []
    for word in words:
        if not _VENUE_SHAPE.match(word):
            continue
        name = re.escape(word)
        if re.search(rf"(?<![\w-]){name}(?:\s+(?:19|20)\d\d)?\s+(?:papers?|submissions|proceedings|abstracts)\b"
                     rf"|\b(?:from|at|in|to)\s+(?:the\s+)?{name}(?![\w-])", question, re.IGNORECASE):
            said.append(word)
    return said
