"""Acronyms the papers define, so that a question's "RL" finds "reinforcement learning" and the reverse.

Abstracts define their acronyms where they first use them: "reinforcement learning (RL)", "Group Relative
Policy Optimization (GRPO)". A question may use either form, and a paper may use only the other one, so
coverage (the share of the question's terms a paper holds) would count the paper short. The definitions are
read off the candidates' own abstracts at query time, so they come from the store, whatever its field and
size, and need no list kept by hand or stored beside the index.
"""

from __future__ import annotations

import re
from functools import lru_cache
from collections import Counter, defaultdict

from .query_words import FUNCTION_WORDS

# "policy optimization (GRPO)": the acronym in parentheses (two capitals or more, an optional plural "s":
# "(LLMs)"), after the words that spell it. Found from the parentheses, then the words read back from there:
# a pattern that also matched the words tried them at every position of every abstract (0.1 s a query).
_DEFINED = re.compile(r"\(([A-Z][A-Za-z]*[A-Z])s?\)")
_WORDS_BEFORE = re.compile(r"[A-Za-z][\w]*")
_SMALL = {"of", "the", "and", "for", "to", "a", "an", "in", "on", "with", "via", "by"}
MOST_READINGS = 8


def definitions(texts) -> dict[str, str]:
    """Each acronym ``texts`` define, with its most frequent expansion, in lower case: {"RL":
    "reinforcement learning"}. An expansion is the run of words before the parentheses whose initials
    (less small words like "of") spell the acronym's capitals."""
    found: dict[str, Counter] = defaultdict(Counter)
    for text in texts:
        if "(" not in text:
            continue
        for match in _DEFINED.finditer(text):
            acronym = match.group(1)
            capitals = [c for c in acronym if c.isupper()]
            words = _WORDS_BEFORE.findall(text[max(0, match.start() - 100):match.start()])[-(len(capitals) + 2):]
            if not words:
                continue
            for size in range(len(capitals), min(len(words), len(capitals) + 2) + 1):
                run = words[-size:]
                if [w[0].upper() for w in run if w.lower() not in _SMALL] == capitals:
                    found[acronym][singular(" ".join(run).lower())] += 1
                    break
    return {acronym: counts.most_common(1)[0][0] for acronym, counts in found.items()}


def singular(phrase: str) -> str:
    """'large language models' -> 'large language model' (a reading matches an optional plural "s")."""
    if phrase.endswith("s") and not phrase.endswith(("ss", "us", "is")) and len(phrase.split()[-1]) > 3:
        return phrase[:-1]
    return phrase


def readings(query: str, defined: dict[str, str]) -> list[str]:
    """``query`` and its readings with each acronym it uses written out, or each defined expansion it
    uses abbreviated: 'RL for LLMs' -> ['RL for LLMs', 'reinforcement learning for LLMs', ...]; at most
    ``MOST_READINGS``."""
    found = [query]
    said = set(_words(query.lower()))
    said |= {w[:-1] for w in said if w.endswith("s")}
    for acronym, expansion in defined.items():
        # a store defines thousands: only those whose acronym or first word the query has are tried
        if not (_first_word(acronym) in said or _first_word(expansion) in said):
            continue
        short, long = _patterns(acronym, expansion)
        if short.search(query):
            found += [short.sub(expansion, reading) for reading in found]
        elif long.search(query):
            found += [long.sub(acronym, reading) for reading in found]
        if len(found) >= MOST_READINGS:
            return found[:MOST_READINGS]
    return found


_words = re.compile(r"[a-z0-9]+").findall  # lower-case words, for telling which acronyms a query may use


def _first_word(text: str) -> str:
    words = _words(text.lower())
    return words[0] if words else ""


@lru_cache(maxsize=4096)
def _patterns(acronym: str, expansion: str) -> tuple[re.Pattern, re.Pattern]:
    """(the acronym as written, the expansion spelled out) as patterns, compiled once."""
    # as written, or all in lower case as people type it ("llm reasoning"), unless that is a word ("per", "is")
    lower = "" if acronym.lower() in FUNCTION_WORDS else f"|{re.escape(acronym.lower())}"
    short = re.compile(rf"(?<![\w-])(?:{re.escape(acronym)}{lower})s?(?![\w-])")
    spelled = r"[\s-]+".join(map(re.escape, expansion.split()))  # "fine-tuning" as "fine tuning" too
    return short, re.compile(rf"(?<![\w-]){spelled}s?(?![\w-])", re.IGNORECASE)
