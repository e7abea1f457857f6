"""What a list asks its papers' subject *not to be*: "RL methods for agents that are not language models", "sequence
models that aren't transformers".

Such a clause is a property of the thing the papers work on, not a topic to leave out: a list on "language models"
holds ReCouPLe, an RL paper for robot-like agents whose only mention of language models is that it needs no
language-model fine-tuning, and searching the words would take it out. What says a paper's agents are language
models is how the paper writes them: the kind as a modifier of the thing ("LLM agents", "Large Language Model
(LLM)-powered agents"), or the thing said only in sentences that say the kind too ("transforms the LLM ... into an
interpretable agent"). A paper that never names the thing ("agent") is about something else. The kind is read in
the paper's words and in the acronyms the papers define for it ("LLM" for "large language model", "SpeechLLM").
"""

from __future__ import annotations

import re

from .acronyms import definitions, singular
from .query_words import ASKING_WORDS

# "<thing> that are not <kind>", "<thing> which aren't <kind>": up to the end of the kind's clause
_IS_NOT = re.compile(r"\b(?P<thing>[A-Za-z][\w-]*)\s+(?:that|which|who)\s+(?:are|is)\s*(?:not|n[’']t)\s+(?:an?\s+|the\s+)?"
                     r"(?P<kind>[A-Za-z][\w-]*(?:\s+[A-Za-z][\w-]*){0,3}?)"
                     r"(?=\s*(?:[,;.?!()]|$)|\s+(?:e\.g|i\.e|such|like|for|in|on|and|or|but|nor|with|that|which)\b)",
                     re.IGNORECASE)
# Not a kind but a relation or a degree ("ones that are not about RL", "methods that are not trained", "not
# only"): the other readers of the plan take those
_NOT_A_KIND = re.compile(r"^(?:about|on|in|for|from|of|with|by|to|using|used|based|trained|only|just|merely|simply|"
                         r"necessarily|very|too|so|as|yet|purely|mainly|primarily|really|actually|\w+ed|\w+ing)\b",
                         re.IGNORECASE)
# The thing: a noun that names what papers work on, not the papers themselves ("papers that are not surveys")
_NOT_A_THING = ASKING_WORDS | frozenset("one ones those these them they it work works".split())


def kind_set_aside(question: str) -> tuple[str, str] | None:
    """(thing, kind) when ``question`` asks for things that are not of a kind: 'RL methods for agents that are not
    language models, e.g. game-playing agents' -> ('agents', 'language models'); None otherwise."""
    found = _IS_NOT.search(question)
    if not found or found.group("thing").lower() in _NOT_A_THING or _NOT_A_KIND.match(found.group("kind")) \
            or not re.search(r"[^s]s$", found.group("thing")):  # things counted ("agents"), not a mass ("data")
        return None
    return found.group("thing"), found.group("kind")


def of_the_kind(text: str, thing: str, kind: str, defined: dict[str, str]) -> bool:
    """Whether the paper ``text`` works on a ``thing`` of ``kind`` (or on no ``thing`` at all), so that a question
    setting the kind aside leaves it out: the kind modifies the thing somewhere ("LLM agents", "LLM-powered
    agents"), or every sentence naming the thing names the kind too. ``defined``: the acronyms the papers define
    (``acronyms.definitions``), so that "LLM" is a "language model"."""
    return _of_the_kind(text, *_patterns(thing, kind, defined))


def drop_of_the_kind(hits: list, thing: str, kind: str) -> list:
    """``hits`` (each with ``title`` and ``text``) less those working on a ``thing`` of ``kind`` (``of_the_kind``)."""
    patterns = _patterns(thing, kind, definitions(h.text for h in hits))  # once for all the papers
    return [h for h in hits if not _of_the_kind(f"{h.title}. {h.text}", *patterns)]


def _patterns(thing: str, kind: str, defined: dict[str, str]) -> tuple[re.Pattern, re.Pattern, re.Pattern]:
    """What ``_of_the_kind`` looks for: the kind modifying the thing, the thing, and the kind."""
    thing_word = rf"(?i:\b{_word_forms(thing)}\b)"
    kind_words = _kind_pattern(kind, defined)
    modifying = rf"(?:{kind_words})\)?(?i:[\s-]+(?:based|powered|driven|backed|enabled|style))?[\s-]+{thing_word}"
    return re.compile(modifying), re.compile(thing_word), re.compile(kind_words)


def _of_the_kind(text: str, modifying: re.Pattern, thing: re.Pattern, kind: re.Pattern) -> bool:
    if modifying.search(text):
        return True
    return all(kind.search(s) for s in re.split(r"(?<=[.!?])\s+", text) if thing.search(s))


def _word_forms(word: str) -> str:
    """A pattern for ``word`` in the singular or plural, its hyphens as hyphens or spaces ("language-model")."""
    stem = singular(word.lower())
    return r"[\s‐‑-]+".join(map(re.escape, stem.split())) + "(?:s|es)?"


def _kind_pattern(kind: str, defined: dict[str, str]) -> str:
    """A pattern for ``kind`` as the papers write it: its words, its initials, or an acronym whose expansion holds
    them ("LM", "LLM", "SpeechLLM" for "language models"), the acronym inside a longer word too ("MLLMs")."""
    spelled = _word_forms(kind)
    one = singular(kind.lower())
    initials = "".join(w[0] for w in re.findall(r"[a-z]+", one)).upper()  # "LLM", undefined in a short list
    acronyms = sorted({a for a, expansion in defined.items() if re.search(rf"\b{re.escape(one)}\b", expansion)}
                      | ({initials} if len(initials) > 1 else set()), key=len, reverse=True)
    if not acronyms:
        return f"(?i:{spelled})"
    return f"(?i:{spelled})|" + "|".join(rf"{re.escape(a)}" for a in acronyms)
