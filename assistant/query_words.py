"""The words of a question that say what it is about, as coverage counts them.

Coverage (the IDF-weighted share of a question's terms a paper holds) weighs every term the tokenizer keeps,
and bm25s's English stop list is short: it keeps "which", "them", "without", "how". A question's asking words
("which papers study ...", "report results on AIME", "work on audio") then count as part of its topic, and a
paper scores for holding them: "study world models" matched every abstract with "study" and "real-world
models", "report results on AIME" found the AIME papers at half coverage and under the list gate's floor.
Function words and the verbs and nouns of asking are left out here; BM25's own scoring keeps them.
"""

from __future__ import annotations

import re

# Determiners, pronouns, auxiliaries, prepositions, conjunctions, question words and quantifiers. Not the
# prepositions that say how things relate ("between SFT and RL", "without training", "against"): a paper
# saying the same is saying what was asked.
FUNCTION_WORDS = frozenset("""
a an the and or but nor of in on at to for from by with within into onto about above below over under
among through during before after via than as per across along around toward towards upon
is are was were be been being am do does did done doing have has had having can could will would shall should
may might must i me my we us our you your he she it its they them their this that these those which what who
whom whose where when why how whether if then so such any some all each every both either neither no not only
also just more most less least other others another same own very too there here one ones eg ie etc vs versus
him his her hers himself herself itself themselves ourselves yourself yourselves myself mine ours yours theirs
someone somebody everyone everybody nobody nothing none inside lot lots ok okay
""".split())

# What a question says to ask about papers rather than what the papers are about.
ASKING_WORDS = frozenset("""
paper papers work works study studies studied studying research article articles approach approaches
deal deals dealing look looks looking address addresses addressing tackle tackles tackling
investigate investigates investigating examine examines examining focus focuses focusing
report reports reporting result results use uses using used apply applies applying aim aims
try tries trying anything something anyone anybody people getting get make makes making
involve involves involving handle handles handling
build builds building develop develops developing target targets targeting
""".split())

# What a message says to ask for papers, or to wave at a kind of thing, rather than to name one: "I'd like to see
# everything in that space", "test-time adaptation, that sort of thing", "rlhf, reward learning, whatever". No
# paper of a small store holds most of them, so left in, they counted as a topic the store lacks.
REQUEST_WORDS = frozenset("""
please thanks thank want wants wanted need needs needed see know wondering give gimme
everything whatever thing things stuff sort sorts kind kinds type types etc
""".split())

_WORD_OR_MARK = re.compile(r"[\w][\w\-']*|[^\w\s]")
# "system-type papers", "GRPO-style methods": the word before says it all; no abstract holds "system-type"
_OF_THE_KIND = re.compile(r"(?<=\w)-(?:type|style|kind|sort)s?$", re.IGNORECASE)
NOT_TOPIC_WORDS = FUNCTION_WORDS | ASKING_WORDS | REQUEST_WORDS


def topic_runs(query: str) -> list[list[str]]:
    """The runs of topic words of ``query``, split where a function or asking word or a punctuation mark stood:
    'which papers study world models?' -> [['world', 'models']]."""
    runs: list[list[str]] = [[]]
    for word in _WORD_OR_MARK.findall(query):
        if word[0].isalnum() or word[0] == "_":
            if re.sub(r"['’]s$", "", word.lower().strip("'")) not in NOT_TOPIC_WORDS:  # "what's" is "what"
                runs[-1].append(_OF_THE_KIND.sub("", word))
                continue
        if runs[-1]:
            runs.append([])
    return [run for run in runs if run]


def topic_words(query: str) -> str:
    """``query`` less its function and asking words: 'Which papers report results on AIME?' -> 'AIME'. The
    query itself when nothing would be left ("what is it?")."""
    kept = [word for run in topic_runs(query) for word in run]
    return " ".join(kept) if kept else query


# Heads too general to say what a compound is about: "training-free methods" is about being training-free; nor
# does an example of them name an instance ("like a model that can listen").
GENERAL_HEADS = ASKING_WORDS | frozenset("method methods technique techniques model models framework frameworks "
                                          "system systems algorithm algorithms".split())


def compound_head(query: str) -> str | None:
    """The noun a hyphenated modifier makes a compound of, when ``query``'s topic is one such run of two or three
    words: 'any work on test-time adaptation?' -> 'adaptation', 'papers about LLM-based agents' -> 'agents'. A
    paper on test-time scaling holds "test-time", the rare part, and not what the question asks about. None for a
    general head ("training-free methods", "vision-language models") or any other topic."""
    runs = topic_runs(query)
    if len(runs) != 1 or not 2 <= len(runs[0]) <= 3:
        return None
    *modifiers, head = runs[0]
    if "-" in head or not any("-" in m for m in modifiers) or head.lower() in GENERAL_HEADS:
        return None
    return head
