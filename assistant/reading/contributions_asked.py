"""Which kinds of contribution a question asks for ("new benchmarks", "purely theoretical papers"), what a
dataset should be for, what form a method should take, and the question's words without those (the topic to search).
"""

from __future__ import annotations

import re

from ..schema import BENCHMARK, CONTRIBUTION_LABELS, METHOD
from .contribution_words import (ANY_PAPER, ASIDE, BACKED_BY, CONTRIBUTION, DATA_USE, EXCLUDED_CLAUSE,
                                 EXCLUSION, FORM_ASKED, FORM_WORDS, KIND_FRAME, KIND_LAST, KIND_OF_PAPER,
                                 KIND_SET_ASIDE, KIND_SUFFIX, KIND_WORDS, MODELS_DOING, PAPER_KINDS,
                                 SAID_OF_THE_PAPERS, form_in)
from ..query_words import GENERAL_HEADS
from .question_text import DASH, has_content


def contributions_asked(question: str) -> list[str]:
    """The kinds of contribution a question asks for, in ``CONTRIBUTION_WORDS`` order:
    'Which papers introduce a new benchmark?' -> ['benchmark/dataset']. What a question excludes
    ('... rather than new benchmarks') does not count, and a kind only counts in a question that
    asks what papers are or contribute. A method counts only beside another kind a paper is to have
    too (``asks_every_kind``): on its own it is what nearly every paper contributes, and a list asks it."""
    if _NOT_A_METHOD.search(question) and not _kinds_in(_NOT_A_METHOD.sub(" ", question)):
        return ["empirical study/analysis"]  # "which papers study X without proposing a new method?"
    if _METHOD_PAPERS.search(EXCLUSION.sub("", question)) or _METHODS_NOT_OTHER_KIND.search(question):
        return [METHOD]  # "which method papers adapt a model to a new benchmark?": the kind is said of the papers
    kinds = _kinds_in(question)
    if kinds and asks_every_kind(question) and _METHOD.search(EXCLUSION.sub("", question)):
        kinds = [label for label in CONTRIBUTION_LABELS if label in kinds or label == "method"]
    return kinds


# "whether the treatment is theoretical or empirical", "be it a method or a benchmark": any kind will do
_ANY_OF_KINDS = re.compile(r",?\s*\b(?:whether|be\s+it|either)\b[^,;.?!]*?\bor\b[^,;.?!]*", re.IGNORECASE)


# "in the corpus", "from this collection": the store the question asks of, no corpus a paper contributes
THE_STORE = re.compile(r"\b(?:in|from|of|within)\s+(?:the|this|our|your)\s+(?:corpus|collection|store|set|library|database)\b",
                       re.IGNORECASE)


# Proofs a model is to make or check are a topic (theorem proving), not the theory a paper proves: "AI writing math
# proofs that a computer can double-check", "models that generate formal proofs", "math proofs checked by lean".
_PROOFS_AS_A_TASK = re.compile(r"\b(?:writ|wrote|generat|produc|check|verif|simplif|construct|synthesi[sz]|search|find|"
                               r"formali[sz]|complet)\w*\s+(?:(?:math|mathematical|formal|lean|machine-checkable|checkable)\s+){0,2}"
                               r"proofs?\b"
                               r"|\bproofs?\s+(?:that\s+(?:are|get)\s+|(?:are|get)\s+)?(?:checked|verified|written|generated|produced|"
                               r"simplified|formali[sz]ed|found)\b", re.IGNORECASE)


def _kinds_in(question: str) -> list[str]:
    wanted = _USED_PASSIVE.sub(" ", _USED.sub(" ", EXCLUSION.sub("", _ANY_OF_KINDS.sub("", THE_STORE.sub(" ", question)))))
    wanted = _PROOFS_AS_A_TASK.sub(" ", wanted)
    asked = _ASKING.sub("", wanted.strip())
    opening = any(p.match(asked) for p in CONTRIBUTION.values()) or _which_kind(wanted.strip())  # "benchmarks for agents?", "list benchmarks ..."
    form = form_in(wanted)  # a method of a form: "propose a new attention mechanism", "introduce a new metric"
    if not (opening or form or KIND_FRAME.search(wanted) or KIND_OF_PAPER.search(wanted) or BACKED_BY.search(wanted)
            or KIND_LAST.search(wanted)):
        return []
    return [label for label in CONTRIBUTION_LABELS
            if (label in CONTRIBUTION and CONTRIBUTION[label].search(wanted)) or (label == METHOD and form)]


def method_form_asked(question: str) -> str | None:
    """What form a question asks method papers' methods to take: 'architecture' ("which papers propose a new
    network architecture or layer design?"), 'metric' ("which papers introduce a new metric?"), or None."""
    return form_in(_USED.sub(" ", EXCLUSION.sub("", question)))


# A paper to have two kinds at once: "a new method and also back it with theory", "both a dataset and a method",
# "a benchmark as well as a baseline method". A plain "and" between kinds lists either ("surveys and benchmarks
# on agents?").
_EVERY_KIND = re.compile(r"\b(?:also|both|as\s+well\s+as|along\s+with|together\s+with|in\s+addition\s+to|on\s+top\s+of|"
                         r"and\s+(?:then\s+)?(?:back|support|justify|ground)\w*)\b", re.IGNORECASE)
_METHOD = re.compile(r"\b(?:an?|new|novel|own)\s+(?:[\w-]+\s+)?(?:method|technique|algorithm|approach)\b",
                     re.IGNORECASE)  # one the paper brings: "evaluate methods on it" contributes none
# The kind said of the papers themselves: "which method papers ...", "method submissions on X"
_METHOD_PAPERS = re.compile(r"\bmethods?\s+(?:papers?|works?|submissions?|contributions?)\b", re.IGNORECASE)
# Methods set against another kind: "methods, not benchmarks, for legal reasoning", "methods (not datasets)", "any
# methods rather than benchmarks for robots?". Method is then the kind asked (a paper whose main contribution is a
# method: ``asks_mainly``), not the plain word a list asks with ("which methods target X?").
_METHODS_NOT_OTHER_KIND = re.compile(r"\b(?:methods?|techniques?|algorithms?|approach(?:es)?)\s*[,(]?\s*(?:rather\s+than|"
                                     r"instead\s+of|as\s+opposed\s+to|but\s+not|and\s+not|not|other\s+than)\s+(?:\w+\s+){0,2}?"
                                     r"(?:" + KIND_WORDS + r")\b", re.IGNORECASE)
# An analysis asked as what the paper does not do: "which papers study LLM behaviour without proposing a new method?",
# "papers that measure something rather than propose a method".
_NOT_A_METHOD = re.compile(r"\s*\b(?:without|rather\s+than|instead\s+of|but\s+not|and\s+not|not)\s+(?:by\s+)?"
                           r"(?:(?:ones|those|papers)\s+)?(?:propos\w*|introduc\w*|offer\w*|develop\w*|present\w*|contribut\w*|pitch\w*)\s+(?:a\s+|any\s+)?"
                           r"(?:new\s+|novel\s+|their\s+own\s+|(?:[\w-]+\s+)?new\s+)?(?:[\w-]+\s+){0,2}?(?:methods?|techniques?|algorithms?|approach(?:es)?)\b",
                           re.IGNORECASE)


def asks_every_kind(question: str) -> bool:
    """Whether a question asking for several kinds wants papers with all of them ('a method and also a
    theoretical analysis') rather than any ('surveys or benchmarks')."""
    return bool(_EVERY_KIND.search(EXCLUSION.sub("", question)))


def data_use_asked(question: str) -> str | None:
    """What the benchmarks or datasets a question asks for are for: 'evaluation' ("new benchmarks for agents?"),
    'training' ("a new training dataset or a data synthesis pipeline?"), or None when it asks for both, or for
    datasets of any use ("any new datasets?")."""
    wanted = _USED.sub(" ", EXCLUSION.sub("", question))
    said = [use for use, pattern in _FOR_USE.items() if pattern.search(wanted)]
    if len(said) == 1:  # "a dataset or benchmark for evaluating models"
        return said[0]
    asked = [use for use, pattern in DATA_USE.items() if pattern.search(wanted)]
    return asked[0] if len(asked) == 1 else None


# What a resource is said to be for: "(a dataset) for evaluating models", "to train agents".
_FOR_USE = {use: re.compile(rf"\b(?:for|to)\s+(?:[\w-]+\s+(?:and|or)\s+)?(?:{words})\b", re.IGNORECASE) for use, words in
            (("evaluation", r"evaluat\w*|assess\w*|test(?:ing)?|measur\w*|scor(?:e|es|ing)|grad(?:e|es|ing)"),
             ("training", r"train\w*|fine-tun\w*|teach\w*"))}  # "a dataset to teach the model"


def data_use(question: str, kinds: list[str]) -> str | None:
    return data_use_asked(question) if BENCHMARK in kinds else None


def without_the_use(query: str) -> str:
    """``query`` less what the benchmark or dataset it asks for is for, which ``data_use`` reads: 'introduce
    benchmarks to evaluate LLM-based agents' -> 'introduce benchmarks for LLM-based agents', a kind on a topic
    (``names_a_topic``). Read as a clause that only qualified the kind, it gave every benchmark paper (1,808 at
    19,622 papers, against 87 for "new benchmarks for LLM agents")."""
    def on(found: re.Match) -> str:  # "to teach the model" names what every resource is for: no topic
        what = re.split(r"[,;:.?!()]|\b(?:not|but|and|or|rather|instead)\b", found.string[found.end():], maxsplit=1)[0]
        return " for " if has_content(what, GENERAL_HEADS) else found.group()

    for pattern in _FOR_USE.values():
        query = pattern.sub(on, query)
    return " ".join(query.split())


def method_form(question: str, kinds: list[str]) -> str | None:
    return method_form_asked(question) if METHOD in kinds else None


# A kind named as what papers use, not what they contribute: "do any of them use math benchmarks?", "papers
# evaluated on new datasets" ask about evaluation. "Which papers introduce and evaluate on a benchmark?"
# still asks for a benchmark: "introduce" stays.
_USED = re.compile(r"\b(?:use[sd]?|using|evaluat(?:e[sd]?|ing)|tested|testing|trained|rel(?:y|ies|ied)|measur\w*|report\w*|"
                   r"experiment\w*)\s+(?:(?:on|with|against|in|over|across)\s+)?(?:\w+\s+){0,3}?"
                   r"(?:" + KIND_WORDS + r")\b", re.IGNORECASE)
# ... or said of them in the passive: "where both benchmark families are explicitly evaluated"
_USED_PASSIVE = re.compile(r"\b(?:" + KIND_WORDS + r")\s+(?:(?!(?:that|which|who)\b)[\w-]+\s+){0,2}?"
                           r"(?:are|is|were|was|being|get|gets)\s+"
                           r"(?:\w+ly\s+)?(?:evaluated|used|tested|reported|measured|run|employed|adopted)\b", re.IGNORECASE)


# An imperative that asks for what follows it: "list benchmarks for agents", "show me any surveys".
_ASKING = re.compile(r"^(?:(?:please|can you|could you|now|and|so|ok(?:ay)?),?\s+)*(?:list|show|find|give|get)\s+(?:me\s+)?"
                     r"(?:all\s+|the\s+|some\s+|any\s+)?(?:new\s+|recent\s+)?", re.IGNORECASE)
# A kind that a "which" asks for: "which empirical studies examine RL?", "what surveys cover agents?". Not one
# papers use: "which benchmarks do they evaluate on?"
_WHICH = re.compile(r"^(?:which|what)\s+(?:new\s+|recent\s+)?", re.IGNORECASE)
_OF_USE = re.compile(r"\s+(?:do|does|did)\b", re.IGNORECASE)


def _which_kind(question: str) -> bool:
    which = _WHICH.match(question)
    rest = question[which.end():] if which else ""
    return any((kind := p.match(rest)) and not _OF_USE.match(rest, kind.end()) for p in CONTRIBUTION.values())


_MAINLY = re.compile(r"\b(?:mainly|purely|primarily|mostly|chiefly|predominantly|largely|only)\s+(?:\w+\s+){0,2}(?:"
                     + KIND_WORDS + r"|empirical)|\bas\s+(?:their|its)\s+main\s+contribution"
                     r"|\b(?:main|core|primary|chief|principal|central)\s+contributions?\s+(?:is|are|was|were)\b",  # "whose main contribution is"
                     re.IGNORECASE)


def asks_for_a_kind(question: str) -> bool:
    """Whether a question asks what papers are or contribute ("which papers introduce ...", "any new ..."),
    the frame a question about kinds of contribution needs."""
    return bool(KIND_FRAME.search(EXCLUSION.sub("", question)))


# A kind set against another: "empirical analyses rather than new methods", "benchmarks, not methods". The paper
# is to be the one kind and not the other, so the kind asked is its main contribution.
_OTHER_KIND = re.compile(r"^\W*(?:rather than|instead of|as opposed to|not|but not|other than)\s+(?:\w+\s+){0,2}?(?:"
                         + KIND_WORDS + r"|methods?|techniques?|algorithms?)\b", re.IGNORECASE)


def asks_mainly(question: str) -> bool:
    """'Which papers are primarily empirical studies?': the kind is what the paper chiefly contributes (its
    main contribution, read at ingest), not one of several it brings ('mostly empirical' in a clause that
    asks for something else does not make it so). So is a kind set against another ('analyses rather than new
    methods', 'studies that propose no new method')."""
    excluded = EXCLUSION.search(question)
    if _NOT_A_METHOD.search(question) and contributions_asked(question) == ["empirical study/analysis"]:
        return True
    return bool(_MAINLY.search(EXCLUSION.sub("", question))
                or (excluded and _OTHER_KIND.match(excluded.group(0)) and contributions_asked(question)))


# A topic the kind is on: after it ("benchmarks for medical question answering", "surveys on agents") or
# before it ("speech datasets"). A clause after it ("analysis to support their method", "studies of how models
# behave") qualifies the kind and names no topic.
_TOPIC_AFTER_KIND = re.compile(rf"\b(?:{KIND_WORDS})\s+(?:papers?\s+|works?\s+|analys[ie]s\s+|stud(?:y|ies)\s+|results?\s+|"
                               r"guarantees?\s+|frameworks?\s+|understanding\s+)?(?:(?:are|is)\s+(?:there\s+)?|exists?\s+)?"
                               r"(?:for|on|in|about|of|covering|targeting|related\s+to)\s+"
                               r"(?!how\b|what\b|whether\b|which\b|why\b|their\b|its\b|existing\b|this\b|these\b|"
                               r"the\s+(?:store|collection|corpus)\b)\w", re.IGNORECASE)
# "theory papers that study attention", "benchmark papers covering agents", "empirical studies examine RL": the
# papers of the kind, and a verb
_PAPERS_OF_KIND_ON = re.compile(rf"\b(?:{KIND_WORDS})\s+(?:(?:papers?|works?)\s+)?(?:that\s+|which\s+)?(?:stud(?:y|ies)|"
                                r"examine|examines|analy[sz]es?|address(?:es)?|tackles?|deals?\s+with|looks?\s+at|"
                                r"involv(?:e|es|ing)|concern(?:s|ing)?|test(?:s|ing)?|measur(?:e|es|ing)|evaluat(?:e|es|ing)|"
                                r"focus(?:es)?\s+on|"
                                r"cover(?:s|ing)?|target(?:s|ing)?)\s+"
                                r"(?!how\b|what\b|whether\b|which\b|why\b|their\b|its\b|of\b|on\b|in\b|for\b|or\b|and\b)\w",  # "empirical studies or analyses": nouns
                                re.IGNORECASE)
# "mostly theory, with math proofs, about reinforcement learning": the topic after what is said of the kind
_KIND_THEN_ABOUT = re.compile(rf"\b(?:{KIND_WORDS})\b[^?.!;:]{{0,40}}?[,\s]\s*(?:about|regarding|concerning)\s+"
                              r"(?!how\b|what\b|whether\b|which\b|why\b|their\b|its\b|it\b|them\b|this\b|these\b|the\s+"
                              r"(?:store|collection|corpus)\b)\w", re.IGNORECASE)
# "analysis papers that study what RL fine-tuning does to LLMs": a topic in the clause that says what the kind asks
# (RL fine-tuning), unless that clause names nothing but models doing things ("studies of how models behave")
_KIND_THEN_CLAUSE = re.compile(rf"\b(?:{KIND_WORDS})\b[^?.!;:]*?\b(?:how|what|why|whether)\b(?P<clause>[^?.!;,]*)",
                               re.IGNORECASE)


def _topic_in_clause(question: str) -> bool:
    return any(w.lower() not in MODELS_DOING and len(w) > 2
               for m in _KIND_THEN_CLAUSE.finditer(question) for w in re.findall(r"\w[\w-]*", m.group("clause")))


_BEFORE_KIND = re.compile(rf"([\w\-]+)\s+(?:{KIND_WORDS})\b", re.IGNORECASE)
# The papers of a topic a question asks for: "which reinforcement learning papers ...", "what speech papers ...",
# "reinforcement learning submissions with a theoretical component?"; not "which ones are benchmark papers", "looking
# for analysis-style papers"
_NOT_BEFORE_PAPERS = ("ones? of are is were was do does i we you need want show list find give get there looking searching "
                      "interested for about on in me my our all every the some please so ok and").split()
_WHICH_PAPERS_ON = re.compile(r"^\s*(?:(?:which|what|any)\s+)?(?P<topic>(?:(?!(?:" + "|".join(_NOT_BEFORE_PAPERS) + r")\b)"
                              r"[\w-]+\s+){1,4}?)(?:papers|works|studies|articles|submissions)\b", re.IGNORECASE)
_KIND_WORD = re.compile(rf"(?:{KIND_WORDS})", re.IGNORECASE)
# A kind as the word before "papers" ("analysis papers", "theory-heavy papers"): the kind, not a topic
_KIND_NOUN = re.compile(r"(?:" + "|".join(PAPER_KINDS) + r"|benchmarks|datasets|surveys|systems|tools|analyses|methods?)"
                        + KIND_SUFFIX, re.IGNORECASE)
_NOT_A_MODIFIER = re.compile(r"^(?:a|an|the|new|novel|recent|latest|any|some|all|other|more|own|their|its|which|what|there|are|is|"
                             r"introduce[sd]?|propose[sd]?|present[sd]?|release[sd]?|contribute[sd]?|build|builds|"
                             r"offer[sd]?|provide[sd]?|give|gives|include[sd]?|have|has|with|without|"
                             r"mainly|purely|primarily|mostly|large-scale|systematic|empirical|theoretical|public|"
                             r"dedicated|speciali[sz]ed|curated|high-quality|large|small|challenging|standard|custom|"
                             r"training|evaluation|open-source|list|show|find|give|me|or|and|of|as|for|papers?)$", re.IGNORECASE)


# "papers on Lean that introduce a benchmark": the topic, said of the papers before the kind is asked for.
_TOPIC_OF_THE_PAPERS = re.compile(r"\b(?:papers?|works?|research|studies)\s+(?:on|about|in|related\s+to)\s+"
                                  r"(?!how\b|what\b|whether\b|which\b|why\b|their\b|its\b|this\b|these\b|the\s+"
                                  rf"(?:store|collection|corpus)\b)\w.*?\b(?:{KIND_WORDS})\b", re.IGNORECASE)


def names_a_topic(question: str) -> bool:
    """Whether a question about a kind of contribution names a topic the kind is on ("benchmarks for medical
    question answering?", "speech datasets?", "papers on Lean that introduce a benchmark?"), which a paper
    must be about, rather than only qualifying the kind ("papers with theoretical analysis to support their
    method")."""
    wanted = EXCLUSION.sub("", KIND_SET_ASIDE.sub(" ", question))
    if _METHOD_PAPERS.search(wanted) or _METHODS_NOT_OTHER_KIND.search(question):  # "method papers" is no kind to qualify (nearly every paper has a method): the
        return True  # rest of the question is what they are on
    if _TOPIC_AFTER_KIND.search(wanted) or _TOPIC_OF_THE_PAPERS.search(wanted) or _PAPERS_OF_KIND_ON.search(wanted) \
            or _KIND_THEN_ABOUT.search(wanted) or _topic_in_clause(wanted):
        return True
    which = _WHICH_PAPERS_ON.match(wanted)  # "which reinforcement learning papers back their method with theory?"
    if which and any(not _NOT_A_MODIFIER.match(w) and not _KIND_WORD.fullmatch(w) and not _KIND_NOUN.fullmatch(w)
                     for w in which.group("topic").split()):
        return True
    return any(not _NOT_A_MODIFIER.match(m.group(1)) for m in _BEFORE_KIND.finditer(wanted))


def without_contribution_words(query: str, method_form: str | None = None) -> str:
    """The topic left once the kind of contribution is taken out: 'new benchmarks for agents' -> 'agents'; of
    a question asking for a form of method (``method_form``: new architectures), 'attention mechanisms' -> ''."""
    text = EXCLUDED_CLAUSE.sub(" ", _NOT_A_METHOD.sub(" ", query))  # "analysis papers, not method papers, that test X"
    if asks_every_kind(query):  # "a method and also theory": the method is a kind asked, not a topic
        text = _METHOD.sub(" ", text)
    text = ASIDE.sub(" ", text) if ASIDE.sub(" ", text).strip() else text  # "(e.g. provable optimism)": the kind's
    before, colon, after = (re.split(r"(:|" + DASH + ")", text, maxsplit=1) + ["", ""])[:3]
    if colon and any(p.search(before) for p in CONTRIBUTION.values()) and _a_short_list(after) \
            and not re.match(r"\s*(?:papers?|works?|ones?|those|studies)\b", after, re.IGNORECASE):
        text = before  # "theoretical: proofs, bounds, ...", "theory - proofs, bounds": examples of the kind, not a topic
    form = method_form or form_in(text)
    if form:  # "a new network architecture or layer design": the form asked, not a topic
        text = FORM_WORDS[form].sub(" ", FORM_ASKED[form].sub(" ", text))
    for pattern in CONTRIBUTION.values():  # with what says it is an example of the kind: "like proving bounds"
        text = re.sub(r"(?:\b(?:like|such\s+as|e\.g\.,?)\s+)?(?:" + pattern.pattern + ")", " ", text, flags=re.IGNORECASE)
    words = [w for w in re.findall(r"\w[\w\-/]*(?:['’]\w+)?", text) if w.lower() not in SAID_OF_THE_PAPERS]  # not a bare "/"
    return "" if all(w.lower() in ANY_PAPER for w in words) else " ".join(words)


def _a_short_list(text: str) -> bool:
    """'proofs, bounds, or guarantees': a list of a few words an item, unlike a clause with commas in it ('proving
    why a certain kind of network learns, or gets stuck, the way it does')."""
    items = [item for item in re.split(r",|\bor\b|\band\b", text.rstrip(" ?.!")) if item.strip()]
    short = [item for item in items if len(item.split()) <= 4]
    return bool(items) and len(items[0].split()) <= 4 and len(short) > 1  # "..., with experiments in a supporting role"
