"""The question plan: what kind of question this is, what to search for, and how to answer.

Every question becomes one ``Plan`` before anything is searched. Search, answers, the CLI,
the REPL and the web app all read it, and ``--json`` shows it. The plan is made by rules
that need no LLM (the 135M default model cannot be trusted to classify), over the
question's wording and the papers it names:

- ``named``: a question about one paper it names ("tell me about PoLR", "what is lean4phys");
- ``compare``: two or more papers set against each other ("compare X and Y", "X vs Y",
  "how do they differ?" after an answer);
- ``contribution``: papers by kind of contribution ("new benchmarks on agents?", "purely
  theoretical papers"), answered from the labels ingest gave each paper;
- ``list``: every paper that answers ("which papers use Lean?", "anything on audio?");
- ``followup``: a question about the last answer's papers ("which of them use RL?");
- ``out_of_scope``: not a question about papers ("hello", "thanks");
- ``topic``: the rest, a few best papers ("proof simplification for Lean").

A follow-up's resolution (which papers it keeps, and why) is part of the plan too.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from typing import Any

from .query_words import ASKING_WORDS, FUNCTION_WORDS, GENERAL_HEADS, NOT_TOPIC_WORDS, topic_runs
from .schema import BENCHMARK, CONTRIBUTION_LABELS, METHOD
from .search import HEARD_ABOUT, focus
from .savings_asked import ANY, INFERENCE, TRAINING, savings_asked, what_is_saved, without_savings_words
from .kind_set_aside import kind_set_aside
from .training_asked import FREE, REQUIRED, training_asked, without_training_words

KINDS = ("topic", "list", "named", "contribution", "compare", "followup", "out_of_scope")
FORMS = {"topic": "quotes", "list": "list", "named": "paper", "contribution": "list", "compare": "comparison",
         "followup": "quotes", "out_of_scope": "none"}
PAGE_SIZE = 20

# What a question asks benchmark/dataset papers' resources to be for (ingest/contributions.py reads it off each
# paper): "benchmarks" are to evaluate on, "training data" to train on; a bare "dataset" or "corpus" is either.
DATA_USE_WORDS = {
    "evaluation": r"benchmarks?|test\s+suites?|testbeds?|leaderboards?|evaluation\s+(?:data(?:sets?)?|suites?|sets?)",
    "training": r"(?:(?:(?:pipelines?|frameworks?|methods?)\s+)?(?:for|to)\s+(?:synthesi[sz]\w*|generat\w*|produc\w*|curat\w*|construct\w*|creat\w*|(?:crank|churn|pump)\w*\s+out)\s+"
                r"(?:(?:training|synthetic|instruction|fine-tuning|sft)\s+)+data(?:sets?)?"  # "a pipeline for synthesizing training data"
                r"|(?:(?:training|fine-tuning|instruction|synthetic|preference|sft)[\s-]+)+(?:data(?:sets?)?|corpus|corpora|sets?)"
                r"|data(?:set)?(?=[\s-]+(?:synthesis|generation|curation|construction)))"
                r"(?:[\s-]+(?:synthesis|generation|curation|construction))?(?:[\s-]+(?:pipelines?|frameworks?))?",
}
DATA_USE_NAMES = {"evaluation": "benchmarks", "training": "training data"}

# What form a question asks method papers' methods to take (ingest/contributions.py reads it off each paper), asked as
# something a paper puts forward: a new architecture ("propose a new network architecture or layer design", "new
# attention mechanisms", "architecture papers"), or a new metric ("introduce a new metric or measure", "new evaluation
# metrics"). The bare nouns are a topic: "a theoretical analysis of core architectures like softmax attention" asks for
# theory on them, "papers that measure reasoning" or "propose to measure" for no metric.
METHOD_FORM_WORDS = {
    "architecture": r"(?:(?:neural\s+)?network\s+|model\s+)?(?:architecture\s+(?:components?|designs?|changes?)|architectures?|"
                    r"architectural\s+(?:components?|changes?|designs?|modifications?|innovations?|contributions?)|"
                    r"layers?(?:\s+designs?)?|attention\s+(?:mechanisms?|variants?|layers?|modules?)|backbones?|network\s+designs?)",
    "metric": r"(?:evaluation\s+|scoring\s+)?(?<!to\s)(?:metrics?|measures?|scores?|scoring\s+(?:functions?|rules?|methods?)|criteri(?:on|a))",
}
METHOD_FORM_NAMES = {"architecture": "new architectures", "metric": "new metrics"}
_PUT_FORWARD = (r"\b(?:new|novel|own|propos\w*|introduc\w*|design\w*|develop\w*|present\w*|contribut\w*|defin\w*)\s+"
                r"(?:(?:a|an|the|their|its|new|novel|own)\s+)*(?:[\w-]+\s+){0,2}?")
_FORM_ASKED = {form: re.compile(_PUT_FORWARD + words + r"\b" + (r"|\barchitecture\s+papers?\b|\barchitectural\s+(?:papers?|work)\b"
                                                              if form == "architecture" else ""), re.IGNORECASE)
               for form, words in METHOD_FORM_WORDS.items()}
_FORM_WORDS = {form: re.compile(rf"\b{words}\b", re.IGNORECASE) for form, words in METHOD_FORM_WORDS.items()}


def _form_in(text: str) -> str | None:
    """The method form ``text`` asks for, if any (``METHOD_FORM_WORDS``)."""
    return next((form for form, pattern in _FORM_ASKED.items() if pattern.search(text)), None)


_KIND_SUFFIX = r"(?:-(?:style|type|heavy|focused|oriented))?"  # "analysis-style papers", "theory-heavy papers"
# The kinds of contribution ingest labels a paper with (ingest/contributions.py), and the words a question
# uses for each. "theorem proving" is a topic, not a kind: only "theory"/"theoretical" ask for theory.
CONTRIBUTION_WORDS = {
    BENCHMARK: r"benchmarks?|datasets?|corpus|corpora|test suites?|test\s+beds?|test\s+sets?|"
               r"(?:tests?|exams?)(?:\s+(?:or|and)\s+(?:tests?|exams?))?\s+(?:for|to)\s+(?:measur|evaluat|assess|gaug|scor)\w*|" + DATA_USE_WORDS["evaluation"] + "|"
               + DATA_USE_WORDS["training"],
    "theory": r"theor(?:y|ies|etical(?:ly)?)(?:\s+(?:analys[ie]s|frameworks?|results?|justifications?|foundations?|"
              r"insights?|evidence|guarantees?|proofs?|bounds?|treatments?|arguments?|characteri[sz]ations?|"
              r"understanding|perspectives?|contributions?|(?:or|and)\s+(?:proofs?|guarantees?|bounds?)))?|(?:formal|provable|convergence)\s+guarantees?|provabl[ey]"
              # what a theory paper does: "prove theorems about transformers", "derive generalization bounds"
              r"|prov(?:e|es|ed|ing)\s+(?:that|theorems?|convergence|(?:\w+\s+)?bounds?)"
              r"|(?:convergence|optimality|correctness)\s+proofs?"
              r"|(?:generali[sz]ation|regret|sample[\s-]complexity|error|convergence)\s+(?:bounds?|rates?)"
              r"|deriv(?:e|es|ed|ing)\s+(?:\w+\s+){0,2}?(?:bounds?|guarantees?|theorems?)"
              r"|(?:rigorous|mathematical|formal)\s+(?:theoretical\s+)?(?:analys[ie]s|treatments?|characteri[sz]ations?)"
              r"|(?:math|mathematical)\s+(?:theory|theories|proofs?)(?:\s+(?:or|and)\s+proofs?)?|guarantees",  # "real math theory", "bounds or guarantees"
    "empirical study/analysis": r"empirical(?:ly)?\s+(?:stud(?:y|ies)|analys[ie]s|investigations?|evaluations?)"
                                r"|(?:systematic|large-scale)\s+(?:stud(?:y|ies)|analys[ie]s|investigations?)"
                                r"|analysis" + _KIND_SUFFIX + r"\s+(?:papers?|stud(?:y|ies))"
                                r"|(?:mostly|mainly|purely|primarily|largely|chiefly)\s+experiment(?:s|al)"
                                r"|(?<!theoretical\s)(?<!formal\s)(?<!rigorous\s)(?<!mathematical\s)analys[ie]s(?=\s+of\b)"  # "papers that are analyses of pre-training"
                                r"|(?:mainly|purely|primarily|mostly|largely|chiefly|predominantly)\s+empirical"  # "purely empirical"
                                r"|(?:analy[sz]e|analy[sz]es|investigate|investigates|examine|examines|explain|explains)"
                                r"\s+why\b"  # "which papers analyze why RL fine-tuning works?"
                                r"|stud(?:y|ies)\s+(?:that|which)\s+(?:analy[sz]e|investigate|examine|look\s+(?:at|into))\s+how\b",
    "survey/position": r"surveys?|position\s+(?:papers?|pieces?)|overviews?|literature\s+reviews?|reviews?\s+of\s+the\s+literature"
                       r"|review\s+(?:articles?|papers?)|(?:opinion|perspective)\s+(?:papers?|pieces?)|argue\s+(?:a|for\s+a)\s+position",
    "system/tool": r"toolkits?|(?:code\s+)?(?:librar(?:y|ies)|repositor(?:y|ies))|software|open-source\s+tools?|systems?\s+papers?"
                   r"|systems?\s+(?:or|and)\s+tools?|tools?\s+(?:or|and)\s+systems?"
                   # "a system or tool"; not what a paper uses something as ("AI as a tool for science")
                   r"|(?<!\bas\s)(?:an?|new|software)\s+(?:system|tool)(?:\s+or\s+(?:an?\s+)?(?:system|tool))?",
}
_KIND_WORDS = "|".join(CONTRIBUTION_WORDS.values())  # any word naming a kind of contribution
_CONTRIBUTION = {label: re.compile(rf"\b(?:{words})\b", re.IGNORECASE) for label, words in CONTRIBUTION_WORDS.items()}
_DATA_USE = {use: re.compile(rf"\b(?:{words})\b", re.IGNORECASE) for use, words in DATA_USE_WORDS.items()}
_ANY_DATA = re.compile(r"\b(?:data(?:sets?)?|corpus|corpora)\b", re.IGNORECASE)
# A question asks for a kind of paper when it asks what papers *are* or *contribute*, not what they use.
_KIND_FRAME = re.compile(r"\b(?:introduc|propos|present|releas|contribut|build|construct|creat|offer|provid|new|"
                         r"giv|develop|deriv|conduct|has|have|prove|proves|proved|proving|argue|argues|"
                         r"(?:analy[sz]e|analy[sz]es|investigate|investigates|examine|examines|explain|explains)\s+why|"
                         r"are|is|any|mainly|purely|primarily|mostly|main|include|includes|including|contain|contains|containing)\w*\b",
                         re.IGNORECASE)
# A kind said of the papers themselves: "theory papers on attention", "any benchmark papers?", "analysis work on
# RL" (every paper with that label, as "are there any theoretical papers?" asks; "mainly" asks for the main one).
_PAPER_KINDS = "theory theoretical benchmark dataset survey position analysis empirical system tool".split()
_KIND_OF_PAPER = re.compile(r"\b(?:" + "|".join(_PAPER_KINDS) + r"|architecture)" + _KIND_SUFFIX + r"\s+(?:papers?|works?)\b",
                            re.IGNORECASE)
# A kind as the head of a fragment: "mamba theory", "agent benchmarks?", "rl theory papers"
_KIND_LAST = re.compile(r"^[^?.!;:,]*?\b[\w-]+\s+(?:theory|theories|benchmarks?|datasets?|surveys?)(?:\s+(?:papers?|works?))?\s*[?.!]*\s*$",
                        re.IGNORECASE)
# A kind a paper brings to what it claims: "papers that back their claims with theory", "support their method
# with a theoretical analysis". Theory, since a paper contributes it; "train with synthetic data" uses data.
_BACKED_BY = re.compile(r"\b(?:back(?:s|ed)?|support(?:s|ed)?|justif\w*|ground(?:s|ed)?|with)\s+(?:\w+\s+){0,3}?"
                        r"(?:theor(?:y|ies|etical(?:ly)?)|proofs?|guarantees?)\b", re.IGNORECASE)
# What follows these is what the question does *not* want ("empirical studies rather than new benchmarks").
_SETTING_ASIDE = r"rather than|instead of|as opposed to|not|but not|excluding|exclude|other than"
_CONCEDING = r"even if|even when|even where|even though|although|though|regardless of"  # a concession is not asked for either
_EXCLUSION = re.compile(r"\b(?:" + _SETTING_ASIDE + "|" + _CONCEDING + r")\b.*$",
                        re.IGNORECASE | re.DOTALL)

# "not" that sets something aside, unlike "not just X", which asks for more than X and searches it too
_NOT_SETTING_ASIDE = r"not(?!\s+(?:only|just|merely|simply|necessarily)\b)"
# A contrast inside a question, up to the end of its clause: "agents that are not language models, e.g.
# game-playing agents" searches for "agents that, e.g. game-playing agents". What a question sets aside is
# no topic to search for: its words would pull in the very papers it excludes. "Methods that do not need
# labels" stays whole: there the negation is the property asked for.
_CONTRAST = re.compile(r"\s*\b(?:rather than|instead of|as opposed to|other than|but not|excluding|(?:please\s+)?exclude|"
                       r"(?:(?:that|which)\s+)?(?:have|has)\s+nothing\s+to\s+do\s+with|unrelated\s+to|outside\s+(?:of\s+)?|"
                       r"(?:are|is|were|was)\s+not|(?:are|is)n't|(?:(?<=,\s)|(?<=,))" + _NOT_SETTING_ASIDE + r")"
                       r"\b[^,;.?!()]*\)?",  # "X, not a training trick"
                       re.IGNORECASE)


# Instances a question gives of what it asks for: "natural sciences, e.g. physics or biology", "formal verifiers
# like Lean", "parallel reasoning such as self-consistency or voting"
_EXAMPLES = re.compile(r"(?:,\s*|\s+|\()(?:e\.g\.,?|for example,?|for instance,?|such as|like)\s+(?P<items>[^.;:?!()]+)",
                       re.IGNORECASE)
_EXAMPLE_END = re.compile(r"\s+(?:to|that|which|who|where|when|for|in|on|with|from|by|so|and\s+then)\s.*$", re.IGNORECASE)
_NOT_AN_EXAMPLE = re.compile(r"^(?:this|that|these|those|it|them|such)\b|^(?:one|ones|others?)$", re.IGNORECASE)


_DASH_EXAMPLES = re.compile(r"\s*(?:—|–|\s-)\s+(?P<items>[^—–?.;:()]+,[^—–?.;:()]+?)\s*[?.!]*\s*$")


# Several instances in parentheses: "robots (manipulation, policy eval, safe planning)", "multimodal models (vision or
# audio)"; not an aside that sets something apart ("(not video, just images)")
_PAREN_EXAMPLES = re.compile(r"\((?P<items>[^()]*?(?:,|\bor\b|\s/\s)[^()]*)\)", re.IGNORECASE)


def _paren_examples(question: str) -> re.Match | None:
    found = _PAREN_EXAMPLES.search(question)
    return found if found and not _CONTRAST.search(found.group("items")) \
        and not re.search(r"\b(?:not|no|never|except)\b|n[’']t\b", found.group("items"), re.IGNORECASE) else None


def _examples_found(text: str) -> re.Match | None:
    """Where ``text`` gives its examples: after "e.g." or "like", after a dash, or in parentheses."""
    return _EXAMPLES.search(text) or _DASH_EXAMPLES.search(text) or _paren_examples(text)


def _only_paren_examples(question: str) -> bool:
    """Whether the examples a question gives are in parentheses, instances of the phrase before them rather than
    topics of their own ("e.g. physics or biology")."""
    found = _examples_found(question)
    return found is not None and found.re is _PAREN_EXAMPLES


def without_examples(text: str) -> str:
    """``text`` less the examples it gives (``examples``): what they are instances of."""
    found = _examples_found(text)
    return " ".join((text[:found.start()] + " " + text[found.end():]).split()).strip(" ,") if found else text


def examples(question: str) -> list[str]:
    """The examples a question gives of what it asks for, each a short phrase: 'applying ML to the sciences,
    e.g. physics or biology' -> ['physics', 'biology']; 'verifiers like Lean or symbolic logic engines to
    check proofs' -> ['Lean', 'symbolic logic engines']; 'robots (manipulation, safe planning)' ->
    ['manipulation', 'safe planning']. A paper on one of them answers the question."""
    found = _examples_found(question)
    if not found:
        return []
    return _example_items(found.group("items"))


def _example_items(listed: str) -> list[str]:
    items = []
    listed = _CONTRAST.sub("", listed)  # "e.g. learned update rules, rather than the model"
    listed = re.split(r",?\s+(?:but|though|although|whereas)\b", listed, flags=re.IGNORECASE)[0]  # "like X, but without Y"
    listed = re.sub(r"[\s,]*\b(?:etc|and\s+so\s+on)\b\.?|\.\.\.|…", " ", listed, flags=re.IGNORECASE)  # "law, physics etc."
    for item in re.split(r",\s*(?:or\s+|and\s+)?|\s+(?:or|and)\s+|\s/\s", listed):
        item = re.sub(r"^(?:with|by|using|through|via|about|the|a|an)\s+", "", item.strip(" ,"), flags=re.IGNORECASE)
        item = _EXAMPLE_END.sub("", item).strip(" ,")
        if 1 <= len(item.split()) <= 4 and not _NOT_AN_EXAMPLE.match(item) \
                and any(w.lower() not in GENERAL_HEADS for w in re.findall(r"[\w-]+", item)):
            items.append(item)
    return items


# What an example of a kind of contribution names, rather than a topic: "theory (proofs, guarantees)"
_KIND_EVIDENCE = frozenset("""proof proofs bound bounds guarantee guarantees theorem theorems lemma lemmas convergence
rate rates analysis analyses experiment experiments experimental finding findings result results evidence accuracy
efficiency metric metrics evaluation evaluations ablation ablations""".split())


def topic_examples(question: str) -> list[str]:
    """The examples a question on a kind of contribution gives of its topic, not of the kind: 'benchmarks for
    expert work (law, physics, real job tasks)' -> ['law', 'physics', 'real job tasks']; none for 'benchmarks
    (datasets or test suites)' or 'theory (proofs, bounds)'."""
    found = _examples_found(question)
    if not found or re.search(rf"\b(?:{_KIND_WORDS})\W*$", question[:found.start()], re.IGNORECASE):
        return []
    return [item for item in _example_items(found.group("items"))
            if not any(p.search(item) for p in _CONTRIBUTION.values())
            and not all(w.lower() in _KIND_EVIDENCE | GENERAL_HEADS for w in re.findall(r"[\w-]+", item))]


# "papers on reasoning efficiency, but not using RL", "Lean papers excluding physics": a topic whose papers the
# list leaves out (a set difference; "agents that are not language models" is a property of the agents:
# ``kind_set_aside``)
_BUT_NOT = re.compile(r"(?:,\s*|\s+)(?:(?:but|and)\s+" + _NOT_SETTING_ASIDE + r"|excluding|except(?:\s+for)?|other\s+than|leaving\s+out|"
                      r"(?:(?:that|which)\s+)?(?:have|has)\s+nothing\s+to\s+do\s+with|unrelated\s+to)\s+"
                      r"(?:(?:the\s+)?(?:ones|papers|those)\s+)?(?:(?:that\s+)?(?:are\s+)?(?:on|about|using|with|for|in|that\s+use)\s+)?"
                      r"(?P<topic>[^,;.?!]+)", re.IGNORECASE)


# The means a list asks each paper to use, said after its topic as a choice: "test-time scaling of LLM reasoning
# with verifiers or reward models", "agents trained via imitation or RL". A paper on the topic that uses none of
# them is no answer, and the encoder cannot tell: on "test-time scaling ... with verifiers or reward models", NuRL,
# SSFT and THINKMERGE (test-time scaling, no verifier) rank with CRISP (a reward model). Not a verb that takes
# "with" ("deal with", "work with", "come up with"): that "with" starts the topic.
_MEANS = re.compile(r"(?P<head>\b[\w-]+(?:\s+[\w-]+)+?)\s+(?:with|using|via|through)\s+"
                    r"(?P<means>(?:[\w-]+\s+){0,3}?[\w-]+(?:\s*,\s*(?:[\w-]+\s+){0,3}?[\w-]+)*,?\s+or\s+"
                    r"(?:[\w-]+\s+){0,3}?[\w-]+)(?=\s+(?:at|to|for|in|on|during|when|that|which|and)\b|\s*[,;:?!.]|\s*$)",
                    re.IGNORECASE)
_TAKES_WITH = re.compile(r"\b(?:deals?|dealt|dealing|cope|copes|coping|works?|working|worked|concerned|associated|"
                         r"up|along|together|compared?|combined|familiar|interacts?|interacting|starts?|begins?|"
                         r"either|whether|papers|studies|research|anything|everything)$", re.IGNORECASE)


# Or said before it, as what the papers use on it: "use reinforcement learning to train multimodal models", "apply RL
# to vision-language models". The encoder reads such a topic as either half: multimodal papers that train no policy
# rank with those that do.
_ANY_MEANS = {"ai", "ml", "machine learning", "deep learning", "neural networks", "artificial intelligence",
              "models", "methods", "data"}  # what every paper here uses, in so many words or not
_USED_ON = re.compile(r"^(?:papers?\s+|works?\s+)?(?:that\s+|which\s+)?(?:use|uses|using|apply|applies|applying|employ|employs|"
                      r"employing)\s+(?!of\b)(?P<means>(?:[\w-]+\s+){0,2}?[\w-]+)\s+(?:to|for|on|in)\s+(?P<head>\w.*)$", re.IGNORECASE)


def used_means(query: str, examples: list[str] = ()) -> list[str]:
    """The means a topic said as using it on something asks each paper to use (``_USED_ON``): 'use reinforcement
    learning to train multimodal models (vision, audio or speech)' -> ['reinforcement learning'], whatever
    ``examples`` it gives of what the means is used on; none when they are examples of the means ('use human
    preference to align models (RLHF, preference optimization)': a paper may name one and not the means)."""
    used = _USED_ON.match(query.strip())
    if not used or not topic_runs(used.group("means")) or not topic_runs(used.group("head")) \
            or used.group("means").lower() in _ANY_MEANS:
        return []
    means_words = {w for run in topic_runs(used.group("means")) for w in map(str.lower, run)}
    if any(means_words & {w for run in topic_runs(e) for w in map(str.lower, run)} for e in examples):
        return []
    return [used.group("means")]


def means_asked(query: str) -> list[str]:
    """The means a list question's topic asks each paper to use, one of them (``_MEANS``, ``_USED_ON``): 'test-time
    scaling of LLM reasoning with verifiers or reward models' -> ['verifiers', 'reward models']; 'use reinforcement
    learning to train multimodal models' -> ['reinforcement learning']; [] for a topic asking none."""
    used = used_means(query)
    if used:
        return used
    found = _MEANS.search(query)
    if not found or _TAKES_WITH.search(found.group("head")) or not topic_runs(found.group("head")):
        return []
    alternatives = re.split(r"\s*,\s*(?:or\s+)?|\s+or\s+", found.group("means"))
    alternatives = [re.sub(r"^(?:a|an|the|some|other)\s+", "", a.strip(), flags=re.IGNORECASE) for a in alternatives]
    return [a for a in alternatives if a and topic_runs(a)]


def left_out_topic(question: str) -> str:
    """The topic a list question sets aside as a set of papers: 'papers on agents, but not using RL' -> 'RL'. Not what
    an example says in its own clause: 'pass@k in RL-trained LLMs, like RLVR boosting pass@1 but not pass@k'."""
    found = _BUT_NOT.search(question)
    return found.group("topic").strip() if found and not _in_an_example(question, found) else ""


def _in_an_example(text: str, found: re.Match) -> bool:
    """Whether the contrast ``found`` is said inside the clause of an example ``text`` gives ('like RLVR boosting
    pass@1 but not pass@k'), not as a clause of its own after it ('e.g. A or B, but not C')."""
    example = _EXAMPLES.search(text)
    if not example or example.start() >= found.start():
        return False
    example_start = example.start() + 1  # past the comma or space the example's opening words follow
    return "," not in text[example_start:found.start()] and not found.group().lstrip(" ").startswith(",")


def without_contrasts(text: str) -> str:
    """``text`` without the clauses it sets aside (not a contrast inside an example's clause: ``_in_an_example``);
    ``text`` itself if little would be left."""
    kept = _CONTRAST.sub(lambda m: m.group() if _in_an_example(text, m) else "", _KIND_SET_ASIDE.sub("", text))
    kept = re.sub(r"\s*\(\s*\)|\s*\((?=[^()]*$)", "", kept)  # "train models (rather than ...) to X"
    kept = re.sub(r"\s+(?:that|which|who)\s*(?=,|$)", "", " ".join(kept.split())).strip(" ,")
    left = [w for w in re.findall(r"\w+", kept.lower()) if len(w) > 2 and w not in _NOT_A_TOPIC]
    return kept if left else text


REFERENCES = {"it", "this", "that", "this one", "that one", "this paper", "that paper", "they", "them", "these",
               "those", "both", "each", "either"}  # what a comparison calls the last answer's papers
_NOT_A_TOPIC = {"which", "what", "ones", "one", "them", "those", "these", "that", "the", "and", "papers", "paper",
                "works", "work", "any", "are", "about", "there"}


_LIST = re.compile(
    r"^\s*(?:(?:and|so|ok(?:ay)?)[, ]+)?(?:which|what)\s+(?:papers|works|studies|methods|approaches|articles|abstracts|ones|"
    r"submissions)\b"
    r"|^\s*(?:which|what)\s+(?:\w+\s+){0,2}(?:papers|abstracts|submissions)\b"
    r"|^\s*(?:which|what)\s+(?:kinds?|types?|sorts?)\s+of\s+(?:\w+\s+){0,2}?(?:papers|methods|approaches|techniques|work|research)\b"
    r"|^\s*(?:(?:can|could)\s+you\s+)?(?:tell|show)\s+me\s+(?:which|what)\s+(?:papers|works|studies|abstracts)\b"
    r"|\b(?:papers|works|work|studies|research|articles|abstracts|submissions)\s+(?:on|about|that|which|whose|using|with|in|for|"
    r"where|related\s+to|regarding|concerning)\b"
    r"|\b(?:any|all|every|other)\s+(?:papers?|works?|studies|research|abstracts?|submissions?)\b"
    r"|,\s*(?:which|what)\s+(?:papers|works|studies)(?:\s+(?:do|does|did|have|has)\s+(?:that|this|it|so))?\s*[?.!]*\s*$"
    r"|\bevery\s+(?:[\w-]+\s+){1,2}?(?:papers?|works?|studies|methods?|approaches|techniques)\s+(?:that|which|on|about|where|"
    r"whose|for)\b"  # "every inference-time method that samples ...", "every RLVR paper that ..."
    r"|^\s*(?:any\s+)?(?:work|research)\s+(?:on|about)\b"  # "work on cryptography"
    r"|\bwhat\s+(?:work|research)\b|\bis\s+there\s+(?:any\s+|a\s+|an\s+)?(?:work|research|paper)|\bare\s+there\s+(?:any\s+)?papers?\b"
    r"|^\s*(?:papers|works|studies|articles)\s+\w+ed\s+(?:on|with|by|for|in|from|to)\b"
    r"|^\s*(?:papers|works|studies|articles|research|work|abstracts)\s+\w+ing\b"  # "papers proposing new optimizers"
    r"|^\s*(?:has|have|did)\s+(?:anyone|anybody)\b"  # "has anyone worked on theorem proving?"
    r"|^\s*(?:is|are)\s+(?:anyone|anybody|people|researchers)\s+\w+ing\b"  # "is anyone using world models?"
    r"|^\s*where\s+(?:can|could|do|should)\s+(?:i|we|one)\s+(?:read|find|learn|look)\b"  # "where can I read about X?"
    r"|\bwhat(?:'?s|\s+is)\s+(?:there|out\s+there|available)\s+(?:on|about|for|in|regarding)\b"  # "what's there on robotics"
    r"|\bwhat(?:'?s|\s+is)\s+(?:there\s+)?in\s+the\s+(?:collection|store|corpus|library)\s+(?:on|about|for|regarding)\b"
    r"|\bwhat\s+is\s+known\s+(?:about|on)\b"
    r"|\b(?:everything|anything)\s+(?:(?:in\s+(?:this|the)\s+(?:set|collection|store|corpus)|here)\s+)?(?:on|about|that|which|with|"
    r"involving)\b"  # "everything on GRPO", "anything with robots"
    r"|\bwhat(?:'s|\s+is)\s+(?:new|happening)\s+(?:in|on|for|about|with)\b"  # "what's new in speech?"
    r"|^\s*how\s+many\s+(?:papers|works|studies|articles)\b"  # "how many papers are about RL?": the count comes first
    r"|\bwhat\s+(?:are|is)\s+(?:the\s+)?(?:recent\s+|latest\s+|new\s+|current\s+)?(?:advances|developments|progress|"
    r"trends|state\s+of\s+the\s+art)\s+(?:in|on|for)\b"
    r"|^\s*how\s+(?:are|do|have|is)\s+(?:(?:the\s+)?(?:recent|new|current|other)\s+)?(?:people|researchers|authors|papers|works|studies)\b"
    r"|\banything\s+(?:new\s+|recent\s+)?(?:on|about|in|for)\b"
    r"|\bwhat\s+(?:new\s+|recent\s+|other\s+)?(?:techniques|methods|approaches|ideas|solutions|algorithms)\s+"
    r"(?:are\s+there|exist|have\s+been)\b"  # "what new techniques are there for test-time adaptation?"
    r"|\bwhat\s+(?:has|have)\s+(?:been\s+|people\s+|researchers\s+)?(?:done|published|proposed|written|tried)\s+"
    r"(?:on|about|in|for|with|to)\b"  # "what has been done on curriculum learning?"
    r"|^\s*what\s+(?:do|does)\s+(?:we|you|the\s+(?:store|collection|corpus))\s+have\s+(?:on|about|for|in)\b"
    r"|\w\s+(?:papers|works|studies|research|articles)\s*[?.!]*\s*$"
    r"|\b(?:list|show|find|give|name|enumerate|identify)\s+(?:me\s+)?(?:all|every|the|some|any)?\s*(?:papers?|works?|research|studies|abstracts?|"
    r"articles|submissions)\b"
    r"|\b(?:looking|searching)\s+for\s+(?:any\s+|some\s+)?(?:papers?|work|works|research|studies|methods|approaches|techniques)\b"
    r"|^\s*(?:i'm|i’m|i\s+am|we're|we’re|we\s+are)\s+(?:interested|curious)\s+(?:in|about)\b"
    r"|^\s*(?:i'm|i’m|i\s+am|we're|we’re|we\s+are)\s+(?:writing|reading)\s+(?:up\s+)?(?:about|on)\b"  # "I'm writing about X. What's out there?"
    r"|^\s*" + HEARD_ABOUT + r"\b"  # "I keep hearing about X. Which papers ...?"
    r"|^\s*(?:and\s+)?who\s+(?:else\s+)?(?:\w+s|works\s+on|is\s+working\s+on)\b"  # "who builds world models?"
    r"|\s(?:anywhere|at\s+all)\s*[?.!]*\s*$"  # "is an LLM used as a reasoning engine for biology anywhere?"
    # "test-time adaptation methods where the model updates itself": a kind of method, described
    r"|^\s*[\w-]+(?:\s+[\w-]+){0,4}?\s+(?:approaches|methods|techniques|algorithms)\s+(?:where|that|which|in\s+which|whose)\b"
    r"|^\s*(?:stuff|things|work|anything|something|[\w-]+)\s+(?:where|in\s+which|whereby)\b"  # "training where the model gets hints"
    # a search typed as a fragment that asks for all: "contrastive vlm papers, all of them", "non-attention seq models,
    # mamba rnn etc" (``asked``), "audio or speech llm work", "new methods built on grpo"
    r"|,\s*(?:all|each|every\s+one)\s+of\s+(?:them|those|these)\s*[?.!]*\s*$"
    r"|(?<!\bthis)(?<!\bthat)(?<!\bthe)(?<!\bit)(?<!\bdoes)(?<!\bwill)(?<!\bnot)(?<!\bto)\s+work\s*[?.!]*\s*$"
    r"|^\s*(?:(?:new|novel|recent)\s+)?(?:methods|approaches|techniques|algorithms)\s+(?:\w+ed|\w+ing|built|made|based)\s+"
    r"(?:on|with|by|for|in|from|to|upon)\b"
    r"|\w\s+(?:approaches|methods|techniques|algorithms)\s*(?:\([^)]*\))?\s*[?.!]*\s*$",  # "curriculum learning approaches"  # "I'm interested in methods that ..."
    re.IGNORECASE)
# "different" before a noun describes, it does not compare: "works on a problem several different ways at once",
# "decision-makers with different thinking abilities"; "how is X different from Y", "are they different?" compare.
_COMPARISON_WORD = (r"compare[sd]?|comparison|comparing|vs\.?|versus|differ(?:s|ence|ences)?|contrast"
                    r"|different(?!\s+(?!(?:from|than|to|in|on|at|for|with|between|and|or|but)\b)[a-z])")
_COMPARE = re.compile(r"\b(?:" + _COMPARISON_WORD + r"|similarit(?:y|ies)|in common|side\s+by\s+side)\b"
                      r"|^\s*how\s+(?:do|does)\s+.+\s(?:relate|relate\s+to\s+each\s+other)\s*[?.!]", re.IGNORECASE)  # "how do X and Y relate?"
# "Is ZeroSiam better than TTM?", "ZeroSiam or TTM: which is better?" compare papers, one of them at least named
# ("TTM" is too short a name to be told from a word); "does RL transfer better than SFT?" names no paper.
_THAN = re.compile(r"\b(?:better|worse|faster|cheaper|stronger|weaker)\s+than\b"
                   r"|\bor\s+[^?]*?\b(?:more|less|better|worse|faster|cheaper|stronger|weaker)\b"  # "is X or Y more sample efficient?"
                   r"|\bwhich\s+(?:one\s+|of\s+(?:them|the\s+two)\s+)?"
                   r"(?:is|works|performs|does)\s+(?:better|worse|best|faster|cheaper|stronger)\b", re.IGNORECASE)
# What a comparison of the papers on a topic says around the topic: "compare the papers on Lean", "how do the
# papers on agents differ?"
_COMPARE_FRAME = re.compile(r"^\s*(?:please\s+)?(?:compare|contrast)\s+|^\s*how\s+(?:do|does)\s+|\s+(?:differ|compare)\b.*$",
                            re.IGNORECASE)
_NAMED_FRAME = re.compile(r"^\s*(?:(?:can you |please )?tell me (?:more )?about|what(?:'s| is| are| does)|explain|"
                          r"describe|summari[sz]e|who (?:wrote|introduced|proposed|created|built|made)|how does)\b", re.IGNORECASE)
_SMALL_TALK = re.compile(r"^\s*(?:hi|hello|hey|thanks?(?: you)?|thank you|good (?:morning|evening|night)|bye|"
                         r"who are you|what can you do|help)\s*[.!?]*\s*$", re.IGNORECASE)


@dataclass
class Plan:
    """How one question is answered. ``as_dict()`` is what ``--json`` shows under ``plan``."""

    question: str
    kind: str
    query: str                                  # what retrieval searches for
    topics: list[str] = field(default_factory=list)
    form: str = "quotes"                        # quotes | list | paper | comparison | none
    contributions: list[str] = field(default_factory=list)  # kinds of contribution asked for
    papers: list[str] = field(default_factory=list)         # ids the question names (named, compare)
    restrict_to: list[str] | None = None        # a follow-up: only these papers (the last answer's)
    resolution: str = ""                        # a follow-up: what it was read as, and why
    filters: dict[str, Any] | None = None       # the filters in force, as given
    page: int = 1
    page_size: int | None = PAGE_SIZE           # None: every paper at once (--all)
    source: str = "rules"                       # rules, or the LLM backend whose proposal the rules accepted
    pick_one: bool = False                      # a follow-up about one paper of the last answer ("the one about Lean")
    mainly: bool = False                        # "(which of them are) mainly theoretical": papers whose main
                                                # contribution is that kind
    exclude: bool = False                       # the papers the query does NOT fit: of the last answer's (a
                                                # follow-up) or of the store ("which papers don't use RL?")
    whole_set: bool = False                     # a follow-up about each paper of the set ("what do they evaluate on?")
    left_out: bool = False                      # the set is an earlier answer's papers the last one left out
                                                # ("what about the other ones?")
    like: list[str] = field(default_factory=list)  # "are there similar papers?": the papers closest to these
    sibling: bool = False                       # restrict_to is the set the last answer chose from, not its papers
    superlative: bool = False                   # pick_one by a superlative ("the largest"): the best fit, never none
    data_use: str | None = None                 # benchmark/dataset papers only of this use: "evaluation" for
                                                # "benchmarks", "training" for "training data" (see DATA_USE_WORDS)
    method_form: str | None = None              # method papers only of this form: "architecture" for "a new network
                                                # architecture or layer", "metric" for "a new metric" (METHOD_FORM_WORDS)
    outside: int = 0                            # a follow-up no paper of the last answer's (this many) fitted,
                                                # answered from the whole store (``beyond_the_set``)
    besides: list[str] = field(default_factory=list)  # papers left out of the answer: the last answer's, for
                                                # "are there others on physics?"
    without: str = ""                           # a list less the papers a list on this topic gives ("..., but not
                                                # using RL")
    examples: list[str] = field(default_factory=list)  # a list question's examples of what it asks for ("e.g.
                                                # physics or biology"): a paper clearly on one answers it too
    examples_of: str = ""                       # what the examples are instances of, when a paper clearly on one must
                                                # be near it too ("RL for multimodal models (vision or audio)": not
                                                # every vision paper)
    not_kind: tuple[str, ...] = ()              # (thing, kind): a list of papers on things that are not of that kind
                                                # ("agents that are not language models": ``kind_set_aside``)
    means: list[str] = field(default_factory=list)  # what a list asks each paper to use, one of them ("... with
                                                # verifiers or reward models": ``means_asked``)
    unanchored: bool = False                    # a follow-up ("how do they differ?") with no earlier answer to lean on
    added: list[str] = field(default_factory=list)  # a comparison after an answer: the papers it adds to that
                                                # answer's ("how does it compare to TTM?", "add CRISP to the comparison")
    every_kind: bool = False                    # a paper must have every kind asked, not one of them ("a new method
                                                # and also a theoretical analysis")
    training: str = ""                          # "free": only papers whose method needs no training of the model
                                                # ("training-free methods for video"); "required": none of those
                                                # ("which of them actually train the model?"): ``training_asked``
    saves: str = ""                             # only papers whose work cuts this cost: "inference", "training" or
                                                # "any" ("make LLM reasoning cheaper at inference"): ``savings_asked``
    in_general: bool = False                    # a follow-up about one paper of the last answer that asks nothing in
                                                # particular of it ("tell me more about the second one"): answered
                                                # with its row of quotes too, as "tell me more about LASER-D" is
    # What answering needs of the question's own words, read with the rest of the plan (``read_for_answering``), so
    # that nothing after the plan reads the question again:
    whole: str = ""                             # the question less its frame (``search.focus``), searched whole by
                                                # a list of papers that cut a cost
    asked_names: list[str] = field(default_factory=list)  # naming words the question holds ("AIME", "GSM8K")
    asked_compounds: list[str] = field(default_factory=list)  # hyphenated terms it asks about, not those it negates
    compared: list[str] = field(default_factory=list)  # what a comparison sets side by side, as the question says it
    picks_by_what: bool = False                 # "the one about emotions": picks one paper by what it is
    venue_words: list[str] = field(default_factory=list)  # venues the question names

    def __post_init__(self) -> None:
        if self.kind not in KINDS:
            raise ValueError(f"unknown plan kind {self.kind!r}")

    @property
    def whole_store(self) -> bool:
        """A list of every paper in the store ("show me all papers"): the rest of the store, less no topic."""
        return self.kind == "list" and self.exclude and not self.query.strip()

    @property
    def paged(self) -> bool:
        """Whether the answer lists every relevant paper (in pages) rather than the top ``k``."""
        return self.form == "list"

    @property
    def earlier(self) -> int:
        """How many papers come on the pages before this one (0 for an answer that is not paged)."""
        return (self.page - 1) * self.page_size if self.paged and self.page_size else 0

    @property
    def on_a_topic(self) -> bool:
        """A contribution question on a topic, which narrows the papers of the kind: one the question names
        ("benchmarks for agents"), or the new topic of a conversation that asked for the kind before ("and in
        physics?"); not a clause that only qualifies the kind ("empirical studies of how models behave")."""
        return bool(self.query.strip()) and (names_a_topic(self.question) or not contributions_asked(self.question))

    @property
    def compares_a_topic(self) -> bool:
        """A comparison of the best papers on a topic ("compare the papers on Lean"), not of papers it names
        or of the last answer's."""
        return (self.kind == "compare" and not self.papers and self.restrict_to is None
                and len(compared_names(self.question)) < 2)

    def _comparison_line(self, about: str) -> str:
        names = compared_names(self.question)
        if self.restrict_to:
            # "how does it compare to LASER-D?": the last answer's paper(s) against those the question names
            against = [n for n in names if n.lower() not in REFERENCES] \
                if any(n.lower() in REFERENCES for n in names) else []
            own = len(self.restrict_to) - len(self.added)
            if self.added and not against:  # "add CRISP to the comparison"
                return f"comparison of {the_papers(own)} with the {len(self.added)} paper{'s' if len(self.added) > 1 else ''} it adds"
            if not against and self.resolution.startswith("papers ["):  # "compare the first three"
                return f"comparison of {self.resolution}"
            if not against:
                return (f"comparison of {the_papers(len(self.restrict_to))}" if len(self.restrict_to) > 1
                        else "comparison of the last answer's papers: it has only one")
            return f"comparison of {the_papers(own)} with {' and '.join(against)}"
        if self.compares_a_topic and self.contributions:
            return f"comparison of the {self.kinds_text()} papers" + (f" on {about}" if self.query.strip() else "")
        if self.compares_a_topic:
            return f"comparison of the best papers on {about}"
        return "comparison: " + (" vs ".join(names) if len(names) > 1 else about)

    def _not_kind_note(self) -> str:
        """', only agents that are not language models', or '' when the plan sets no kind aside."""
        return f", only {self.not_kind[0]} that are not {self.not_kind[1]}" if self.not_kind else ""

    def kinds_text(self, only: str = " ({} only)") -> str:
        """The kinds asked for, as the answer names them: 'theory or survey/position', 'benchmark/dataset
        (benchmarks only)'; ``only`` frames the data use."""
        return (" and " if self.every_kind else " or ").join(self.contributions) + self.use_note(only)

    def the_set(self, count: int) -> str:
        """What a follow-up's set of ``count`` papers is: 'the 3 papers of the last answer', or for another subset
        of the set the last answer chose from, 'the 8 papers the last answer chose from' (``the_papers``)."""
        return the_papers(count, chosen_from=self.sibling)

    def not_in_the_set(self) -> str:
        """What a follow-up answered from the whole store (``beyond_the_set``) found of the last answer's papers:
        'none of the 2 papers of the last answer is about emotions'."""
        the_set = self.the_set(self.outside)
        return f"{the_set} is not about {self.query}" if self.outside == 1 else f"none of {the_set} is about {self.query}"

    def use_note(self, only: str = " ({} only)") -> str:
        """' (benchmarks only)', ' (training data only)', ' (new architectures only)', or '' when any paper of the
        kinds will do."""
        notes = [DATA_USE_NAMES[self.data_use]] if self.data_use else []
        notes += [METHOD_FORM_NAMES[self.method_form]] if self.method_form else []
        return only.format(" and ".join(notes)) if notes else ""

    def later(self, shown: int, total: int) -> int:
        """How many of ``total`` papers come on later pages, after this page's ``shown``."""
        if not self.paged or not self.page_size or not shown:
            return 0
        return max(0, total - (self.page - 1) * self.page_size - shown)

    def page_after(self, more: int) -> int | None:
        """The page that lists the next of ``more`` papers on later pages, or None when there are none."""
        return self.page + 1 if more else None

    def as_dict(self) -> dict:
        out = {"kind": self.kind, "query": self.query, "topics": self.topics, "form": self.form,
               "contributions": self.contributions, "papers": self.papers, "filters": self.filters,
               "source": self.source}
        if self.paged:
            out.update(page=self.page, page_size=self.page_size)
        if self.kind == "contribution" or self.mainly:
            out["mainly"] = self.mainly
        if self.every_kind:
            out["every_kind"] = True
        if self.data_use:
            out["data_use"] = self.data_use
        if self.method_form:
            out["method_form"] = self.method_form
        if self.exclude and self.restrict_to is None:
            out["exclude"] = True
        if self.restrict_to is not None:
            out.update(restrict_to=self.restrict_to, resolution=self.resolution, exclude=self.exclude,
                       whole_set=self.whole_set, left_out=self.left_out)
        if self.like:
            out.update(like=self.like, resolution=self.resolution)
        if self.unanchored:
            out.update(unanchored=True, resolution=self.resolution)
        if self.kind == "contribution" and self.resolution:
            out["resolution"] = self.resolution
        if self.besides:
            out["besides"] = self.besides
        if self.outside:
            out.update(outside=self.outside, resolution=self.resolution)
        if self.examples:
            out["examples"] = self.examples
        if self.examples_of:
            out["examples_of"] = self.examples_of
        if self.without:
            out["without"] = self.without
        if self.not_kind:
            out["not_kind"] = list(self.not_kind)
        if self.means:
            out["means"] = self.means
        if self.in_general:
            out["in_general"] = True
        if self.training:
            out["training"] = self.training
        if self.saves:
            out["saves"] = self.saves
        return out

    def line(self) -> str:
        """One quiet line for the terminal and the web: 'list question: every paper on …'."""
        about = " / ".join(self.topics) if len(self.topics) > 1 else self.query
        if self.kind == "list":
            if self.means and (said := _MEANS.search(about)):  # "on test-time scaling, using verifiers or ..."
                about = about[:said.end("head")] + about[said.end():]
            by_label_only = (self.training or self.saves) and not about.strip()  # "training-free methods", "cheaper"
            text = ("list question: every paper in the store" if self.whole_store or by_label_only
                    else f"list question: every paper {'not ' if self.exclude else ''}on {about}")
            if self.means and not _USED_ON.match(about.strip()):  # "every paper on use RL to train ...": said
                text += f", using {' or '.join(self.means)}"
            if self.examples:
                text += f", or clearly on {' or '.join(self.examples)}"
            if self.without:
                text += f", less those on {self.without}"
            text += self._not_kind_note()
        elif self.kind == "contribution":
            kinds, only = (" and " if self.every_kind else " or ").join(self.contributions), self.use_note()
            text = (f"contribution question: every paper whose main contribution is {kinds}{only}" if self.mainly
                    else f"contribution question: every {kinds} paper{only}") + (f" on {about}" if self.on_a_topic else "")
            if self.examples:
                text += f", or clearly on {' or '.join(self.examples)}"
            if self.without:
                text += f", less those on {self.without}"
            text += self._not_kind_note()
            if self.resolution:  # "none has it as its main contribution": the papers that bring it (``broadened``)
                text += f" ({self.resolution})"
        elif self.kind == "named":
            text = f"named paper: {about}"
        elif self.like and self.kind == "topic":
            text = f"topic question: {self.resolution}"
        elif self.kind == "compare":
            text = self._comparison_line(about)
        elif self.kind == "followup":
            text = f"follow-up: {self.resolution}" if self.resolution else f"follow-up on {about}"
        elif self.kind == "out_of_scope":
            text = "not a question about the papers"
        else:
            text = f"topic question: the best papers on {about}" if about.strip() else "topic question: the best papers in the store"
            text += self._not_kind_note()
        if self.training:
            text += f" ({TRAINING_NOTES[self.training]} only)"
        if self.saves:
            text += f" (papers that cut {SAVINGS_NOTES[self.saves]} only)"
        if self.besides:
            text += f", besides {the_papers(len(self.besides))}"
        if self.filters:
            text += " (filtered)"
        if not self.source.startswith("rules"):
            text += f" (planned by {self.source})"
        return text


def broadened(plan: Plan) -> Plan | None:
    """The plan to answer when no paper has the kind ``plan`` asks for as its main contribution ("which papers make
    their own training data as a main contribution?"): every paper that brings that kind, said so. None for any
    other plan."""
    if plan.kind != "contribution" or not plan.mainly or plan.every_kind:
        return None
    kinds = DATA_USE_NAMES[plan.data_use] if plan.data_use else " or ".join(plan.contributions)
    return replace(plan, mainly=False, resolution=f"none has {kinds} as its main contribution; these bring it beside another")


# A follow-up picking one paper by what it is: "the one about emotions", "the CRISP one", "which one uses Lean"
_PICKED_BY_WHAT_IT_IS = re.compile(r"\b(?:the|which)\s+(?:[\w-]+\s+){0,2}?one\b(?!\s+of\s+(?:them|those|these)\b)", re.IGNORECASE)


def beyond_the_set(plan: Plan) -> Plan | None:
    """The plan to answer when no paper of the last answer fits a follow-up that picks one paper by what it is
    ("the one about emotions" after an answer without it): the paper of the whole store that fits it best, said
    so. The asker remembers a paper of an earlier answer, or one the last answer missed. None for a subset ("which
    of them are evaluated on AIME?" is rightly answered by none of them), a follow-up about every paper of the set,
    one asking for the papers not fitting, for a kind of contribution (the labels said no), or with nothing to
    search."""
    if plan.kind != "followup" or plan.restrict_to is None or plan.exclude or plan.whole_set or plan.contributions \
            or not plan.query.strip() or plan.unanchored \
            or not (plan.pick_one or plan.picks_by_what):
        return None
    outside = replace(plan, restrict_to=None, outside=len(plan.restrict_to))
    return replace(outside, resolution=f"{outside.not_in_the_set()}; the paper of the whole store on it")


def asked_compounds(question: str) -> list[str]:
    """The hyphenated terms ``question`` asks about ("training-free", "long-video"), less those in the scope of a
    negation ("without fine-tuning" asks for the opposite), in lower case."""
    negated = {m.group(1).lower() for m in re.finditer(r"\b(?:without|no|not|w/o|never)\s+(?:\w+\s+){0,2}?(\w+(?:-\w+)+)",
                                                      question, re.IGNORECASE)}
    return sorted({w.lower() for w in re.findall(r"\w+(?:-\w+)+", question)} - negated)


def read_for_answering(plan: Plan, venue_words: list[str]) -> Plan:
    """``plan`` with what answering needs of its question's words (``Plan.whole`` and the fields after it)."""
    from .search import focus, naming_words

    question = plan.question
    plan.whole, plan.asked_names = focus(question), naming_words(question)
    plan.asked_compounds, plan.compared = asked_compounds(question), compared_names(question)
    plan.picks_by_what, plan.venue_words = bool(_PICKED_BY_WHAT_IT_IS.search(question)), list(venue_words)
    return plan


def unanchored(question: str, filters: str | None) -> Plan:
    """The plan of a follow-up asked with no earlier answer to lean on ("how do they differ?" first): no
    search, since its words ("differ", "them") say nothing about what to find."""
    return Plan(question=question, kind="followup", query="", form=FORMS["followup"], filters=filters,
                unanchored=True, resolution="it asks about an earlier answer, and there is none")


def set_name(count: int, *, chosen_from: bool = False) -> str:
    """How answers and plan lines name a follow-up's set of ``count`` papers: 'papers of the last answer', or
    for another subset of the set the last answer chose from, 'papers the last answer chose from'."""
    papers = "paper" if count == 1 else "papers"
    return f"{papers} the last answer chose from" if chosen_from else f"{papers} of the last answer"


def the_papers(count: int, *, chosen_from: bool = False) -> str:
    """'the paper of the last answer', 'the 3 papers of the last answer', 'the 8 papers the last answer chose from'."""
    name = set_name(count, chosen_from=chosen_from)
    return f"the {name}" if count == 1 else f"the {count} {name}"


def contributions_asked(question: str) -> list[str]:
    """The kinds of contribution a question asks for, in ``CONTRIBUTION_WORDS`` order:
    'Which papers introduce a new benchmark?' -> ['benchmark/dataset']. What a question excludes
    ('... rather than new benchmarks') does not count, and a kind only counts in a question that
    asks what papers are or contribute. A method counts only beside another kind a paper is to have
    too (``asks_every_kind``): on its own it is what nearly every paper contributes, and a list asks it."""
    if _NOT_A_METHOD.search(question) and not _kinds_in(_NOT_A_METHOD.sub(" ", question)):
        return ["empirical study/analysis"]  # "which papers study X without proposing a new method?"
    if _METHOD_PAPERS.search(_EXCLUSION.sub("", question)) or _METHODS_NOT_OTHER_KIND.search(question):
        return [METHOD]  # "which method papers adapt a model to a new benchmark?": the kind is said of the papers
    kinds = _kinds_in(question)
    if kinds and asks_every_kind(question) and _METHOD.search(_EXCLUSION.sub("", question)):
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
    wanted = _USED_PASSIVE.sub(" ", _USED.sub(" ", _EXCLUSION.sub("", _ANY_OF_KINDS.sub("", THE_STORE.sub(" ", question)))))
    wanted = _PROOFS_AS_A_TASK.sub(" ", wanted)
    asked = _ASKING.sub("", wanted.strip())
    opening = any(p.match(asked) for p in _CONTRIBUTION.values()) or _which_kind(wanted.strip())  # "benchmarks for agents?", "list benchmarks ..."
    form = _form_in(wanted)  # a method of a form: "propose a new attention mechanism", "introduce a new metric"
    if not (opening or form or _KIND_FRAME.search(wanted) or _KIND_OF_PAPER.search(wanted) or _BACKED_BY.search(wanted)
            or _KIND_LAST.search(wanted)):
        return []
    return [label for label in CONTRIBUTION_LABELS
            if (label in _CONTRIBUTION and _CONTRIBUTION[label].search(wanted)) or (label == METHOD and form)]


def method_form_asked(question: str) -> str | None:
    """What form a question asks method papers' methods to take: 'architecture' ("which papers propose a new
    network architecture or layer design?"), 'metric' ("which papers introduce a new metric?"), or None."""
    return _form_in(_USED.sub(" ", _EXCLUSION.sub("", question)))


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
                                     r"(?:" + _KIND_WORDS + r")\b", re.IGNORECASE)
# An analysis asked as what the paper does not do: "which papers study LLM behaviour without proposing a new method?",
# "papers that measure something rather than propose a method".
_NOT_A_METHOD = re.compile(r"\s*\b(?:without|rather\s+than|instead\s+of|but\s+not|and\s+not|not)\s+(?:by\s+)?"
                           r"(?:(?:ones|those|papers)\s+)?(?:propos\w*|introduc\w*|offer\w*|develop\w*|present\w*|contribut\w*|pitch\w*)\s+(?:a\s+|any\s+)?"
                           r"(?:new\s+|novel\s+|their\s+own\s+|(?:[\w-]+\s+)?new\s+)?(?:[\w-]+\s+){0,2}?(?:methods?|techniques?|algorithms?|approach(?:es)?)\b",
                           re.IGNORECASE)


def asks_every_kind(question: str) -> bool:
    """Whether a question asking for several kinds wants papers with all of them ('a method and also a
    theoretical analysis') rather than any ('surveys or benchmarks')."""
    return bool(_EVERY_KIND.search(_EXCLUSION.sub("", question)))


def data_use_asked(question: str) -> str | None:
    """What the benchmarks or datasets a question asks for are for: 'evaluation' ("new benchmarks for agents?"),
    'training' ("a new training dataset or a data synthesis pipeline?"), or None when it asks for both, or for
    datasets of any use ("any new datasets?")."""
    wanted = _USED.sub(" ", _EXCLUSION.sub("", question))
    said = [use for use, pattern in _FOR_USE.items() if pattern.search(wanted)]
    if len(said) == 1:  # "a dataset or benchmark for evaluating models"
        return said[0]
    asked = [use for use, pattern in _DATA_USE.items() if pattern.search(wanted)]
    rest = wanted
    for pattern in _DATA_USE.values():
        rest = pattern.sub(" ", rest)
    return asked[0] if len(asked) == 1 and not _ANY_DATA.search(rest) else None


# What a resource is said to be for: "(a dataset) for evaluating models", "to train agents".
_FOR_USE = {use: re.compile(rf"\b(?:for|to)\s+(?:[\w-]+\s+(?:and|or)\s+)?(?:{words})\b", re.IGNORECASE) for use, words in
            (("evaluation", r"evaluat\w*|assess\w*|test(?:ing)?|measur\w*|scor(?:e|es|ing)|grad(?:e|es|ing)"),
             ("training", r"train\w*|fine-tun\w*|teach\w*"))}  # "a dataset to teach the model"


def _data_use(question: str, kinds: list[str]) -> str | None:
    return data_use_asked(question) if BENCHMARK in kinds else None


def _method_form(question: str, kinds: list[str]) -> str | None:
    return method_form_asked(question) if METHOD in kinds else None


# A kind named as what papers use, not what they contribute: "do any of them use math benchmarks?", "papers
# evaluated on new datasets" ask about evaluation. "Which papers introduce and evaluate on a benchmark?"
# still asks for a benchmark: "introduce" stays.
_USED = re.compile(r"\b(?:use[sd]?|using|evaluat(?:e[sd]?|ing)|tested|testing|trained|rel(?:y|ies|ied)|measur\w*|report\w*|"
                   r"experiment\w*)\s+(?:(?:on|with|against|in|over|across)\s+)?(?:\w+\s+){0,3}?"
                   r"(?:" + _KIND_WORDS + r")\b", re.IGNORECASE)
# ... or said of them in the passive: "where both benchmark families are explicitly evaluated"
_USED_PASSIVE = re.compile(r"\b(?:" + _KIND_WORDS + r")\s+(?:(?!(?:that|which|who)\b)[\w-]+\s+){0,2}?"
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
    return any((kind := p.match(rest)) and not _OF_USE.match(rest, kind.end()) for p in _CONTRIBUTION.values())


_MAINLY = re.compile(r"\b(?:mainly|purely|primarily|mostly|chiefly|predominantly|largely|only)\s+(?:\w+\s+){0,2}(?:"
                     + _KIND_WORDS + r"|empirical)|\bas\s+(?:their|its)\s+main\s+contribution"
                     r"|\b(?:main|core|primary|chief|principal|central)\s+contributions?\s+(?:is|are|was|were)\b",  # "whose main contribution is"
                     re.IGNORECASE)


def asks_for_a_kind(question: str) -> bool:
    """Whether a question asks what papers are or contribute ("which papers introduce ...", "any new ..."),
    the frame a question about kinds of contribution needs."""
    return bool(_KIND_FRAME.search(_EXCLUSION.sub("", question)))


# A kind set against another: "empirical analyses rather than new methods", "benchmarks, not methods". The paper
# is to be the one kind and not the other, so the kind asked is its main contribution.
_OTHER_KIND = re.compile(r"^\W*(?:rather than|instead of|as opposed to|not|but not|other than)\s+(?:\w+\s+){0,2}?(?:"
                         + _KIND_WORDS + r"|methods?|techniques?|algorithms?)\b", re.IGNORECASE)


def asks_mainly(question: str) -> bool:
    """'Which papers are primarily empirical studies?': the kind is what the paper chiefly contributes (its
    main contribution, read at ingest), not one of several it brings ('mostly empirical' in a clause that
    asks for something else does not make it so). So is a kind set against another ('analyses rather than new
    methods', 'studies that propose no new method')."""
    excluded = _EXCLUSION.search(question)
    if _NOT_A_METHOD.search(question) and contributions_asked(question) == ["empirical study/analysis"]:
        return True
    return bool(_MAINLY.search(_EXCLUSION.sub("", question))
                or (excluded and _OTHER_KIND.match(excluded.group(0)) and contributions_asked(question)))


# A topic the kind is on: after it ("benchmarks for medical question answering", "surveys on agents") or
# before it ("speech datasets"). A clause after it ("analysis to support their method", "studies of how models
# behave") qualifies the kind and names no topic.
_TOPIC_AFTER_KIND = re.compile(rf"\b(?:{_KIND_WORDS})\s+(?:papers?\s+|works?\s+|analys[ie]s\s+|stud(?:y|ies)\s+|results?\s+|"
                               r"guarantees?\s+|frameworks?\s+|understanding\s+)?(?:(?:are|is)\s+(?:there\s+)?|exists?\s+)?"
                               r"(?:for|on|in|about|of|covering|targeting|related\s+to)\s+"
                               r"(?!how\b|what\b|whether\b|which\b|why\b|their\b|its\b|existing\b|this\b|these\b|"
                               r"the\s+(?:store|collection|corpus)\b)\w", re.IGNORECASE)
# "theory papers that study attention", "benchmark papers covering agents", "empirical studies examine RL": the
# papers of the kind, and a verb
_PAPERS_OF_KIND_ON = re.compile(rf"\b(?:{_KIND_WORDS})\s+(?:(?:papers?|works?)\s+)?(?:that\s+|which\s+)?(?:stud(?:y|ies)|"
                                r"examine|examines|analy[sz]es?|address(?:es)?|tackles?|deals?\s+with|looks?\s+at|"
                                r"involv(?:e|es|ing)|concern(?:s|ing)?|test(?:s|ing)?|measur(?:e|es|ing)|evaluat(?:e|es|ing)|"
                                r"focus(?:es)?\s+on|"
                                r"cover(?:s|ing)?|target(?:s|ing)?)\s+"
                                r"(?!how\b|what\b|whether\b|which\b|why\b|their\b|its\b|of\b|on\b|in\b|for\b|or\b|and\b)\w",  # "empirical studies or analyses": nouns
                                re.IGNORECASE)
# "mostly theory, with math proofs, about reinforcement learning": the topic after what is said of the kind
_KIND_THEN_ABOUT = re.compile(rf"\b(?:{_KIND_WORDS})\b[^?.!;:]{{0,40}}?[,\s]\s*(?:about|regarding|concerning)\s+"
                              r"(?!how\b|what\b|whether\b|which\b|why\b|their\b|its\b|it\b|them\b|this\b|these\b|the\s+"
                              r"(?:store|collection|corpus)\b)\w", re.IGNORECASE)
# "analysis papers that study what RL fine-tuning does to LLMs": a topic in the clause that says what the kind asks
# (RL fine-tuning), unless that clause names nothing but models doing things ("studies of how models behave")
_KIND_THEN_CLAUSE = re.compile(rf"\b(?:{_KIND_WORDS})\b[^?.!;:]*?\b(?:how|what|why|whether)\b(?P<clause>[^?.!;,]*)",
                               re.IGNORECASE)


def _topic_in_clause(question: str) -> bool:
    return any(w.lower() not in _MODELS_DOING and len(w) > 2
               for m in _KIND_THEN_CLAUSE.finditer(question) for w in re.findall(r"\w[\w-]*", m.group("clause")))


_BEFORE_KIND = re.compile(rf"([\w\-]+)\s+(?:{_KIND_WORDS})\b", re.IGNORECASE)
# The papers of a topic a question asks for: "which reinforcement learning papers ...", "what speech papers ...",
# "reinforcement learning submissions with a theoretical component?"; not "which ones are benchmark papers", "looking
# for analysis-style papers"
_NOT_BEFORE_PAPERS = ("ones? of are is were was do does i we you need want show list find give get there looking searching "
                      "interested for about on in me my our all every the some please so ok and").split()
_WHICH_PAPERS_ON = re.compile(r"^\s*(?:(?:which|what|any)\s+)?(?P<topic>(?:(?!(?:" + "|".join(_NOT_BEFORE_PAPERS) + r")\b)"
                              r"[\w-]+\s+){1,4}?)(?:papers|works|studies|articles|submissions)\b", re.IGNORECASE)
_KIND_WORD = re.compile(rf"(?:{_KIND_WORDS})", re.IGNORECASE)
# A kind as the word before "papers" ("analysis papers", "theory-heavy papers"): the kind, not a topic
_KIND_NOUN = re.compile(r"(?:" + "|".join(_PAPER_KINDS) + r"|benchmarks|datasets|surveys|systems|tools|analyses|methods?)"
                        + _KIND_SUFFIX, re.IGNORECASE)
_NOT_A_MODIFIER = re.compile(r"^(?:a|an|the|new|novel|recent|latest|any|some|all|other|more|own|their|its|which|what|there|are|is|"
                             r"introduce[sd]?|propose[sd]?|present[sd]?|release[sd]?|contribute[sd]?|build|builds|"
                             r"offer[sd]?|provide[sd]?|give|gives|include[sd]?|have|has|with|without|"
                             r"mainly|purely|primarily|mostly|large-scale|systematic|empirical|theoretical|public|"
                             r"dedicated|speciali[sz]ed|curated|high-quality|large|small|challenging|standard|custom|"
                             r"training|evaluation|open-source|list|show|find|give|me|or|and|of|as|for|papers?)$", re.IGNORECASE)


# "papers on Lean that introduce a benchmark": the topic, said of the papers before the kind is asked for.
_TOPIC_OF_THE_PAPERS = re.compile(r"\b(?:papers?|works?|research|studies)\s+(?:on|about|in|related\s+to)\s+"
                                  r"(?!how\b|what\b|whether\b|which\b|why\b|their\b|its\b|this\b|these\b|the\s+"
                                  rf"(?:store|collection|corpus)\b)\w.*?\b(?:{_KIND_WORDS})\b", re.IGNORECASE)


def names_a_topic(question: str) -> bool:
    """Whether a question about a kind of contribution names a topic the kind is on ("benchmarks for medical
    question answering?", "speech datasets?", "papers on Lean that introduce a benchmark?"), which a paper
    must be about, rather than only qualifying the kind ("papers with theoretical analysis to support their
    method")."""
    wanted = _EXCLUSION.sub("", _KIND_SET_ASIDE.sub(" ", question))
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
    text = _EXCLUDED_CLAUSE.sub(" ", _NOT_A_METHOD.sub(" ", query))  # "analysis papers, not method papers, that test X"
    if asks_every_kind(query):  # "a method and also theory": the method is a kind asked, not a topic
        text = _METHOD.sub(" ", text)
    text = _ASIDE.sub(" ", text) if _ASIDE.sub(" ", text).strip() else text  # "(e.g. provable optimism)": the kind's
    before, colon, after = (re.split(r"(:|" + DASH + ")", text, maxsplit=1) + ["", ""])[:3]
    if colon and any(p.search(before) for p in _CONTRIBUTION.values()) and _a_short_list(after) \
            and not re.match(r"\s*(?:papers?|works?|ones?|those|studies)\b", after, re.IGNORECASE):
        text = before  # "theoretical: proofs, bounds, ...", "theory - proofs, bounds": examples of the kind, not a topic
    form = method_form or _form_in(text)
    if form:  # "a new network architecture or layer design": the form asked, not a topic
        text = _FORM_WORDS[form].sub(" ", _FORM_ASKED[form].sub(" ", text))
    for pattern in _CONTRIBUTION.values():  # with what says it is an example of the kind: "like proving bounds"
        text = re.sub(r"(?:\b(?:like|such\s+as|e\.g\.,?)\s+)?(?:" + pattern.pattern + ")", " ", text, flags=re.IGNORECASE)
    words = [w for w in re.findall(r"\w[\w\-/]*(?:['’]\w+)?", text) if w.lower() not in _SAID_OF_THE_PAPERS]  # not a bare "/"
    return "" if all(w.lower() in _ANY_PAPER for w in words) else " ".join(words)


def _a_short_list(text: str) -> bool:
    """'proofs, bounds, or guarantees': a list of a few words an item, unlike a clause with commas in it ('proving
    why a certain kind of network learns, or gets stuck, the way it does')."""
    items = [item for item in re.split(r",|\bor\b|\band\b", text.rstrip(" ?.!")) if item.strip()]
    short = [item for item in items if len(item.split()) <= 4]
    return bool(items) and len(items[0].split()) <= 4 and len(short) > 1  # "..., with experiments in a supporting role"


# what a question on a kind says in parentheses, or between two dashes, gives examples of the kind
_ASIDE = re.compile(r"\([^()]*\)|\s(?:--|—|–)\s[^—–()]*?\s(?:--|—|–)\s")
# What a question on a kind sets aside, up to the end of its clause: the clause after it may be the topic ("analysis
# papers, not method papers, that test whether models generalize").
# A kind set aside ends there when the topic follows it: "methods rather than benchmarks for robot manipulation",
# "methods rather than datasets address long-video understanding"; not a clause on the kind ("not benchmarks that ...").
_KIND_SET_ASIDE = re.compile(r"\b(?:" + _SETTING_ASIDE + r")\s+"
                             r"(?:\w+\s+){0,2}?(?:" + _KIND_WORDS + r")\b"
                             r"(?=\s+(?!(?:that|which|who|whose|and|or|but|nor)\b)\w)(?!\s+\w+\s+(?:them|it|these|those|this)\b)",
                             re.IGNORECASE)
_EXCLUDED_CLAUSE = re.compile(_KIND_SET_ASIDE.pattern + r"|\b(?:" + _SETTING_ASIDE + "|" + _CONCEDING + r")\b[^,;.?!]*",
                              re.IGNORECASE)


# Words every paper of the store is about, and what a resource is used for: "benchmarks for evaluating models" names
# no topic the benchmarks must be on.
_ANY_PAPER = frozenset("model models llm llms language large ai system systems neural network networks machine learning "
                       "evaluating evaluation evaluate testing assessing training".split())
# What a question on a kind says of the papers besides their topic: "give a theoretical analysis of ...", "back it
# with theory", "empirical studies that examine RL", "new curated benchmarks in the collection".
_SAID_OF_THE_PAPERS = ASKING_WORDS | FUNCTION_WORDS | frozenset("""
new novel mainly purely primarily mostly main contribution contributions collection store kind kinds type types
introduce introduces introduced propose proposes proposed present presents presented contribute contributes
contributed include includes included including list show find give gives get release releases released releasing
offer offers offered provide provides provided dedicated specialized specialised curated high-quality large small
challenging standard custom back backs backed support supports supported develop develops derive derives conduct
conducts train trains trained put forward build builds built construct constructs collect collects collected newly
large-scale systematic something anything measure measures study studies examine examines investigate investigates
analyze analyzes analyse analyses explore explores prove proves proving argue argues i i'm i’m we we're we’re looking
searching interested need want actually really exactly
their its own method methods approach approaches tasks questions problems core itself themselves submission submissions
genuine actual real proper solid component components element elements side part giving offering providing
piece pieces idea ideas up brand-new shiny good contain contains containing""".split())  # "back their proposed method with theory": any paper's
# What a clause says of models doing things, naming no topic ("how existing models behave"): ``_topic_in_clause``
_MODELS_DOING = _ANY_PAPER | _SAID_OF_THE_PAPERS | NOT_TOPIC_WORDS | frozenset("""existing current today behave behaves
behaving behavior behaviour behaviors behaviours work works working perform performs performance do does did happen
happens fail fails failing actually really well badly learn learns affect affects paradigm paradigms method methods
approach approaches technique techniques""".split())


# "Which papers don't use RL?", "papers that are not about agents": every paper of the store but those on a topic.
# A negation inside what is asked for ("methods that do not need labels") is a property, not this.
_NOT_ON = re.compile(r"^\s*(?:(?:which|what)\s+(?:papers|works|studies)|(?:list|show)\s+(?:me\s+)?(?:all\s+|the\s+)?papers|papers)"
                     r"\s+(?:(?:that|which)\s+)?(?:do\s+not|don[’']t|does\s+not|doesn[’']t|are\s+not|aren[’']t|never)\s+"
                     r"(?:(?:deal|work)\s+with\s+|(?:about|on)\s+)?(?P<topic>.+?)\s*[?.!]*\s*$", re.IGNORECASE)


# "papers like PoLR", "anything similar to LASER-D?", "what else is close to ZeroSiam?"
_LIKE_NAMED = re.compile(r"\b(?:papers?|works?|anything|something|others?|more|research|studies|else)\s+(?:\w+\s+)?"
                         r"(?:like|similar\s+to|close\s+to|related\s+to)\s+(?P<name>[^?.!]+)", re.IGNORECASE)


# "show me all papers", "list every abstract in the store", "what papers do you have?": the whole store, by title
_EVERY_PAPER = re.compile(
    r"^\s*(?:please\s+|can you\s+|could you\s+)?(?:show|list|give|get)(?:\s+me)?\s+(?:all|every)(?:\s+of)?(?:\s+the)?\s+"
    r"(?:papers?|abstracts?|works?)(?:\s+(?:in|of)\s+(?:the\s+)?(?:store|collection|corpus|library|database))?\s*[?.!]*\s*$"
    r"|^\s*what\s+(?:papers|abstracts)\s+(?:are\s+(?:there\s+)?in\s+(?:the\s+)?(?:store|collection|corpus|library|database)|"
    r"do\s+you\s+have|does\s+the\s+(?:store|collection)\s+(?:have|hold|contain))\s*[?.!]*\s*$"
    r"|^\s*(?:list|show)\s+(?:me\s+)?(?:the\s+)?(?:papers|abstracts)\s*[?.!]*\s*$", re.IGNORECASE)


def asks_for_every_paper(question: str) -> bool:
    return bool(_EVERY_PAPER.match(question))


# "I'm surveying methods for making chain-of-thought cheaper; which abstracts propose ways to shorten reasoning?":
# what the asker says of themselves, then the question. Its frame is in the question, not in the statement before.
# A name in what the asker says first ("ZeroSiam", "LASER-D", "GRPO"), and a question that leans back on it
_NAME_LIKE = re.compile(r"\b(?:[A-Z][a-z]+[A-Z][\w-]*|[A-Z]{2,}[\w-]*)")
_BACK_TO_IT = re.compile(r"\b(?:it|its|they|their|them|this\s+(?:one|paper|method))\b", re.IGNORECASE)
_ABOUT_THE_ASKER = re.compile(r"^\s*(?:(?:so|ok(?:ay)?|well|hmm+|and)[,\s]+)?(?:i|i'm|i am|we|we're|we are|my|our|as\s+(?:a|an)|"
                              r"(?:currently\s+)?(?:writing|working\s+on|preparing|reviewing))\b[^;?]*?(?:;|[.!:](?=\s))\s*(?P<asked>"
                              r"(?:which|what|are|is|do|does|did|any|how|can|could|show|list|find|give|get)\b[^;]+)$",
                              re.IGNORECASE)


# A request for the whole list after the question: "... speech LLMs? want all of them", "... modeling? List every one
# please." The question before it asks it already; "them" in it is no earlier answer's papers.
_ALL_OF_THEM = re.compile(r"(?<=[?.!])\s*(?:(?:and\s+|so\s+)?(?:i\s+)?(?:want|need|would\s+like|'d\s+like)\s+|please\s+|"
                          r"(?:list|show|give|name)\s+(?:me\s+)?)?(?:them\s+)?(?:all|every|each|the\s+(?:full|whole|complete)\s+list)"
                          r"(?:\s+(?:one|ones|single\s+one|of\s+them|papers?))?(?:\s+(?:please|thanks?))?\s*[.!?]*\s*$", re.IGNORECASE)
# The same request said again after a comma, and "in general": "what about robots then in general, list all the robot
# ones" asks for robot papers
_LIST_THEM_ALL = re.compile(r"\s+in\s+general\b(?=\s*[,?.!]|\s*$)|,\s*(?:and\s+)?(?:please\s+)?(?:list|show|give)\s+(?:me\s+)?"
                            r"(?:all|every)\s+(?:of\s+)?(?:the\s+)?(?:[\w-]+\s+){0,2}?(?:ones|papers|of\s+them)\s*[.!?]*\s*$",
                            re.IGNORECASE)
# A kind of thing other than one of them is a property, not a set of papers left out: "languages other than English"
# asks for non-English languages, as does "languages that are not English" ("papers on video other than long video"
# leaves out the papers on long video)
_OTHER_THAN = re.compile(r"\b(?P<kind>languages?|modalities|domains|tasks|inputs)\s+(?:other\s+than|besides|"
                         r"(?:that|which)\s+(?:is|are)(?:\s+not|n't))\s+(?P<other>[\w-]+)",
                         re.IGNORECASE)
# The question asked again in a word after it: "... a variant of it. Which papers are those?"
_WHICH_ARE_THEY = re.compile(r"(?<=[?.!])\s*(?:so\s+)?(?:which|what)\s+(?:papers|ones|works)\s+(?:are\s+(?:those|these|they|there))"
                             r"\s*[?.!]*\s*$", re.IGNORECASE)
# "Multilingual, cross-lingual, low-resource, anything like that": examples, not a follow-up asking for similar papers
# ", that sort of thing", ", whatever", "etc.": the examples before it are all the question gives
_LIKE_THAT = re.compile(r"(?:,\s*(?:or\s+|and\s+)?(?:anything|something|stuff|things)\s+(?:like\s+(?:that|this)|similar|along\s+those\s+lines)"
                        r"|(?:,\s*|\s+)(?:or\s+|and\s+)?(?:that|this)\s+(?:(?:sort|kind|type)\s+of|kinda|sorta)\s+(?:thing|stuff)"
                        r"|(?:,\s*(?:or\s+)?|\s+or\s+)whatever|(?:,\s*|\s+)(?:etc\.?|and\s+so\s+on|and\s+the\s+like|or\s+similar))"
                        r"\s*[.!?]*\s*$", re.IGNORECASE)
# "..., like a model that can listen": a kind described again in other words, naming no instance of it (``examples``)
# and adding words no abstract uses ("listen" beside "audio or speech"). Not "e.g. a system that browses the web",
# which gives an instance.
_LIKE_A_KIND = re.compile(r"(?:,\s*|\s+)like\s+(?:a|an|the|some|any)\s+(?:"
                          + "|".join(sorted(GENERAL_HEADS)) + r")\s+(?:that|which|who)\s+[^,;.?!()]+(?=[.!?]*\s*$)",
                          re.IGNORECASE)
_LISTED_AFTER = re.compile(r"^(?P<asked>[^?]{8,})\?\s+(?P<items>(?!(?:which|what|who|how|why|when|where|is|are|do|does|can|could|if|and|"
                           r"but|only|not|no)\b)[\w-]+(?:\s+[\w-]+){0,3}(?:,\s*(?:or\s+|and\s+)?[\w-]+(?:\s+[\w-]+){0,3}){1,6})"
                           r"\s*[.!]?\s*$", re.IGNORECASE)
DASH = r"(?:—|–|\s-\s)"  # a dash between clauses: an em or en dash, or a hyphen with spaces around it
# A question after a dash or colon typed without its question mark: "ai that watches long videos - what's there"
_UNMARKED_QUESTION = re.compile(r"\S\s*(?:" + DASH + r"|:)\s*(?:what(?:'s|\s+is)\s+(?:out\s+)?there|which|any|anything|are\s+there|is\s+there)\b"
                                r"(?:[^?]*[^?\s])?\s*$",
                                re.IGNORECASE)
# A lead-in that a whole question after a dash restates: "ok and what about audio — are there papers on audio or
# speech language models?" asks the question after the dash.
_LEAD_IN = re.compile(r"^\s*(?:(?:ok(?:ay)?|so|and|now|also|well|hmm+)[,\s]+)*(?:(?:what|how)\s+about\s+[^—–?]{1,40}?|"
                      r"(?:ok(?:ay)?|so|and|now|next|also))\s*(?:" + DASH + r"|:)\s*(?P<asked>[^—–]+)$", re.IGNORECASE)
# A label before the question that asks it again: "grpo variants / fixes - which papers propose a modified grpo?"
_LABEL = re.compile(r"^\s*(?P<label>[^—–:?.!;]{2,60}?)\s*(?:" + DASH + r"|:)\s*(?P<asked>(?:which|what|who|are|is|any|do|does)\b[^—–:]+)$",
                    re.IGNORECASE)
# A label before a request that says what the request leaves out or what kind of paper it wants: "Excluding purely
# empirical work: every paper that ...", "System contributions only: every paper that builds a simulator"
_LABELLED_REQUEST = re.compile(r"^\s*(?P<label>[^—–:?.!;]{3,50}?)\s*:\s*(?P<asked>(?:every|all|each|which|what|list|show|give|"
                               r"find|any|papers?)\b[^:]+)$", re.IGNORECASE)
_SET_ASIDE_LABEL = re.compile(r"^(?:excluding|except(?:\s+for)?|not|no|without|other\s+than|leaving\s+out)\s+\S", re.IGNORECASE)
_KIND_LABEL = re.compile(r"^(?:only\s+)?(?P<kind>(?:" + "|".join(_PAPER_KINDS) + r")s?(?:\s+(?:or|and|/)\s+(?:"
                         + "|".join(_PAPER_KINDS) + r")s?)?)\s+(?:contributions?|papers?|works?)?\s*(?:only)?$", re.IGNORECASE)
_EVERY_PAPER_OPENING = re.compile(r"^(?P<opening>(?:every|all|each|which|what|list|show|give|find|any)\s+(?:(?:me|of|the)\s+)*)"
                                  r"(?=papers?\b)", re.IGNORECASE)


# What a question first sets beside what it asks: "Beyond theorem proving, is there work that ...?" asks only the rest
# (that is no exclusion: "besides accuracy, which papers measure cost?" does not set accuracy papers aside)
_BESIDE = re.compile(r"^\s*(?:beyond|besides|apart\s+from|aside\s+from|in\s+addition\s+to|on\s+top\s+of)\s+[^,;:?]{2,60},\s*"
                     r"(?=(?:is|are|do|does|which|what|who|any|anything|every|all|list|show|find|give|papers?)\b)", re.IGNORECASE)


def _with_the_label(question: str) -> str:
    """A labelled request said as one question: "Excluding X: every paper that Y" is "every paper that Y, excluding
    X"; "System contributions only: every paper that builds Y" is "every system paper that builds Y"."""
    found = _LABELLED_REQUEST.match(question)
    if not found:
        return question
    label, request = found.group("label").strip(), found.group("asked").strip()
    if _SET_ASIDE_LABEL.match(label):
        return f"{request.rstrip(' ?.!')}, {label[0].lower()}{label[1:]}?"
    kind, opening = _KIND_LABEL.match(label), _EVERY_PAPER_OPENING.match(request)
    if kind and opening:
        kind_words = re.sub(r"\b(benchmark|dataset|survey|system|tool)s\b", r"\1", kind.group("kind").lower())
        return f"{opening.group('opening')}{kind_words} {request[opening.end():]}"
    return question


# A word of acknowledgement before a follow-up: "ok and for video?", "great, now which of them use RL?"
_INTERJECTION = re.compile(r"^\s*(?:ok(?:ay)?|alright|all\s+right|great|thanks|thank\s+you|cool|nice|hmm+|got\s+it|i\s+see|hey|hi|hello)"
                           r"\s*[,.!]?\s+(?=(?:and|what|how|which|now|then|so|but|only|also|tell|show|compare|are|is|do|does|"
                           r"can|could|any|anything|papers|list|find|give|who|where)\b)", re.IGNORECASE)  # "hi, are there ..."
# A list asked as what the asker collects: "I'm collecting everything in this set that builds directly on GRPO"
_COLLECTING = re.compile(r"^\s*(?:i'm|i’m|i\s+am|we're|we\s+are)\s+(?:collecting|gathering|compiling|after|making|building)\s+"
                         r"(?:everything|anything|all\s+(?:the\s+)?(?:papers|work)|"
                         r"an?\s+(?:full\s+|complete\s+)?list\s+of\s+(?:the\s+)?(?:papers|works?|studies))\s+(?:in\s+(?:this|the)\s+(?:set|collection|store|corpus)\s+|here\s+)?"
                         r"(?=that|which|on|about)", re.IGNORECASE)
# The question said again after a topic: "new methods for adapting a model at test time — which papers propose one?"
_WHICH_DO = re.compile(r"\s*" + DASH + r"\s*(?:which|what)\s+(?:papers?|ones?|works?)\s+(?:propose|introduce|do|does|have|has|"
                       r"are\s+there|exist)\s*(?:one|it|this|that|so|them|any)?\s*[?.!]*\s*$", re.IGNORECASE)
# What the asker wants the answer for, before the question: "For a survey on multimodal reasoning: which papers ...",
# "For my thesis, which papers use Lean?", "To seat reviewers with alignment expertise, enumerate every paper ...".
# Its topic is the asker's, not the question's (a "survey" asks for none). Not a clause that goes on to say
# something ("For a safety project we keep hearing about VIRF; what does it do?").
_PURPOSE_NOUNS = (r"survey|review|thesis|dissertation|paper|project|talk|lecture|course|section|paragraph|report|proposal|post|"
                  r"class|seminar|group|grant|chapter|tutorial|session|track|workshop|panel|meeting|piece|article|newsletter|"
                  r"deck|slides|discussion|roundup|overview|reading\s+list")
# What a request after it starts with: a question, or words asking for the papers ("I need every submission whose ...")
_REQUEST = (r"(?=(?:which|what|are|is|do|does|any|how|can|could|show|list|find|give|get|who|enumerate|identify|name|collect|"
            r"gather|point|please|i\s+(?:need|want|would\s+like)|i'd\s+like|we\s+(?:need|want))\b)")
_PURPOSE = re.compile(r"^\s*(?:(?:for|as\s+part\s+of)\s+(?:a|an|my|our|the)\s+(?:[\w-]+\s+){0,3}?(?:" + _PURPOSE_NOUNS + r")\b"
                      r"|to\s+(?!(?:what|which|how|whom|this|that|the|these|those)\b)(?:help\s+)?[a-z]+\s+(?:[\w'-]+\s+){0,8}?[\w'-]+(?=,))"  # "To seat reviewers with alignment expertise, ..."
                      r"(?:(?!\b(?:we|i|i'm|we're|you)\b)[^;?])*?(?:[,;:]|[.!](?=\s)|(?=\s+(?:i|we)\s+(?:need|want)\b))\s*" + _REQUEST,
                      re.IGNORECASE)  # "For the test-time scaling paragraph I need every paper that ..."
# "Separate question: anything on CLIP?", "New topic - papers on robots": what the message says of the question
_NEW_QUESTION = re.compile(r"^\s*(?:(?:(?:a|one|another|separate|new|different|unrelated|other)\s+)+(?:question|topic|thing|one)|"
                           r"switching\s+(?:gears|topics?)|changing\s+(?:the\s+)?(?:subject|topic)|on\s+another\s+note)\s*"
                           r"(?:[:;,.!-]|—|–)\s*", re.IGNORECASE)


_ANSWERING = frozenset("qualify qualifies fit fits count counts match matches exist exists apply applies ones out available "
                       "anything something".split())
# What a remark after the question may say and still ask nothing of its own: "? I'd like to see everything in that
# space.", "— need every one of them for my related work section", "? want the full list"
_REMARKING = frozenset("""
every each all one ones full whole complete list them those these they like space area field topic topics related section
survey review thesis chapter report project talk lecture course proposal grant blog post reading overview
""".split())
_AFTER_THE_QUESTION = re.compile(r"(?:(?<=[?.!])\s+|\s*" + DASH + r"\s*)(?P<remark>(?!(?:which|what|who|how|is|are|do|does|can|could|"
                                 r"any|not|no|but|only|except)\b)[^?.!—–]+?)[?.!]*\s*$", re.IGNORECASE)  # not a question of its own ("What's there?")
# What the question sets aside, said after it: "? not the mllm stuff", ". Not the RL ones."
# ("not sure" is no set): the papers said as "the X", "any X" or "X stuff / ones / papers"
_NOT_AFTER = re.compile(r"(?<=[?.!])\s+(?:but\s+)?not\s+(?:(?:the|any)\s+(?P<topic>[\w/-]+(?:\s+[\w/-]+){0,3}?)"
                        r"(?:\s+(?:stuff|ones|papers|work|things))?|(?P<kind>[\w/-]+(?:\s+[\w/-]+){0,2}?)\s+(?:stuff|ones|papers|things))"
                        r"(?P<where>\s+(?:in|on|about|with|using|for)\s+[\w/-]+(?:\s+[\w/-]+){0,2})?"  # ". Not the formal proof ones in Lean."
                        r"\s*[.!?]*\s*$", re.IGNORECASE)
# What the question sets aside after it, said as what does not count: "; inference-time pruning of traces doesn't count",
# "; evaluation-only benchmarks are out"
_OUT_AFTER = re.compile(r"(?:(?<=[?.!])|\s*;)\s*(?P<topic>[^?.!;]+?)\s+(?:(?:doesn't|does\s+not|don't|do\s+not)\s+count|"
                        r"(?:is|are)\s+(?:out|excluded|out\s+of\s+scope))\s*[.!?]*\s*$", re.IGNORECASE)
# What the question sets aside in a sentence of its own: "? Please exclude methods based purely on SFT.", "; exclude
# architectures whose layers merely solve an optimization problem in the forward pass". Not searched; nor taken for a
# topic whose papers the list leaves out (``left_out_topic``): such a sentence describes a property ("exclude papers
# that only generate videos"), and the papers nearest it in meaning are often those asked for (over the sets of
# tests/data, leaving them out lost 2 right papers of "long-video understanding ...; exclude papers that only
# generate videos" and removed 1 wrong one).
_EXCLUDED_AFTER = re.compile(r"(?:(?<=[?.!;])|\s*;)\s*(?:please\s+)?(?:exclude|excluding|leave\s+out|omit|skip|ignore)\s+"
                             r"(?P<topic>[^?.!;]+?)\s*[.!?]*\s*$", re.IGNORECASE)


def _but_not(question: str, said_after: re.Match, topic: str) -> str:
    """The question before what ``said_after`` sets aside, with ``topic`` set aside as a list question does it."""
    return f"{question[:said_after.start()].rstrip(' ?.!,;')}, but not {topic}?"


# "(test time adaptation i think its called?)", "i guess": what the asker is unsure of says nothing of the topic
_HEDGE = re.compile(r"\s*\b(?:i\s+think|i\s+guess|i\s+believe)\s+(?:it'?s|that'?s|they'?re|this\s+is)\s+called\b\??"
                    r"|,?\s*\b(?:or\s+something(?:\s+like\s+that)?|if\s+that\s+makes\s+sense)\b", re.IGNORECASE)
# How the asker wants the list laid out, which says nothing of what is in it: ", grouped by whether they need any
# training", "grouped by post-training vs quantization-aware methods" (the answer groups by topic or kind itself)
_GROUPED_BY = re.compile(r"\s*(?:,|;|\s+-+|\s+[—–])?\s*\b(?:grouped|organi[sz]ed|sorted|split|broken\s+down|clustered)\s+"
                         r"(?:by|according\s+to|into)\s+[^?.!;]*", re.IGNORECASE)
_FOR_ALL = re.compile(r"\b(?:every|each|all|everything|full|whole|complete)\b", re.IGNORECASE)


def _without_remarks(question: str) -> str:
    """``question`` without the remarks after it that ask nothing of their own (``_REMARKING``), still a question if
    the remark asked it ("cut reasoning cost - papers?") or asked for them all ("lean papers — need every one of
    them" is "lean papers?")."""
    while (found := _AFTER_THE_QUESTION.search(question)) and not _has_content(found.group("remark"), _REMARKING) \
            and _has_content(question[:found.start()]):
        head = question[:found.start()].rstrip(" ,;:")
        asks = question.rstrip().endswith("?") or _FOR_ALL.search(found.group("remark"))
        question = head + "?" if asks and not head.endswith("?") else head
    return question
# Who the asker is, before what they ask: "As a theory person I want the papers whose ..."
_ASKER = re.compile(r"^\s*as\s+an?\s+(?:[\w-]+\s+){0,2}?(?:person|researcher|engineer|student|scientist|practitioner|reviewer|"
                    r"theorist|developer)\b,?\s*", re.IGNORECASE)


# A comparison asked in a word after an answer: "diff?", "differences?", "and the difference?", "compare?"
_BARE_COMPARISON = re.compile(r"^\s*(?:(?:ok(?:ay)?|so|and|hmm+|then|now)[,\s]+)*(?:(?:what'?s|what\s+is|what\s+are)\s+)?"
                              r"(?:the\s+|any\s+)?(?:diffs?|" + _COMPARISON_WORD + r")"
                              r"\s*[?.!]*\s*$", re.IGNORECASE)


# A kind set aside in parentheses after methods, which makes method the kind asked: "methods (not benchmarks) for X"
_KIND_IN_PARENS = re.compile(r"(?<=\bmethods)\s*\(((?:" + _NOT_SETTING_ASIDE + r"|rather\s+than|instead\s+of|but\s+not|other\s+than)"
                             r"\s+(?:\w+\s+){0,2}?(?:" + _KIND_WORDS + r"))\)", re.IGNORECASE)
# What a question sets aside in parentheses: "method (not benchmark) submissions on theorem proving", "papers
# (rather than blog posts) on X"; no topic to search, and no kind asked
_ASIDE_IN_PARENS = re.compile(r"\s*\((?:" + _NOT_SETTING_ASIDE + r"|no|except|excluding|rather\s+than|instead\s+of|but\s+not|"
                              r"other\s+than)\b[^(),]*\)", re.IGNORECASE)  # not "(not video, just images)", which says what it wants too


def asked(question: str) -> str:
    """The question a message asks, without what the asker first says of their own work; or that statement,
    when the question after it asks nothing of its own ("I'm interested in methods that shorten outputs.
    What's there?")."""
    if _BARE_COMPARISON.match(question):
        return "how do they differ?"
    question = _KIND_IN_PARENS.sub(r", \1,", question)  # "methods (not benchmarks) for X": the kind set aside is said
    question = _ASIDE_IN_PARENS.sub("", question)
    question = re.sub(r"\bbut\s+please\s+not\b", "but not", question, flags=re.IGNORECASE)  # "..., but please not the ones on RL"
    if _UNMARKED_QUESTION.search(question):  # "ai that watches long videos - what's there": asked, with no "?"
        question = question.rstrip(" .!") + "?"
    for said_around in (_NEW_QUESTION, _PURPOSE, _ASKER, _ALL_OF_THEM, _LIST_THEM_ALL, _WHICH_ARE_THEY, _LIKE_THAT,
                        _LIKE_A_KIND, _HEDGE):
        said = said_around.sub("", question) or question  # what the message says around its question
        if said_around in (_LIKE_THAT, _LIST_THEM_ALL) and said != question and "?" not in said:
            said += "?"  # "non-attention seq models, mamba rnn etc": a fragment that lists asks for all of them
        question = said
    set_aside = _NOT_AFTER.search(question)  # "...? not the mllm stuff": "..., but not mllm?"
    if set_aside and _has_content(question[:set_aside.start()]):
        topic = (set_aside.group("topic") or set_aside.group("kind")) + (set_aside.group("where") or "")
        question = _but_not(question, set_aside, topic)
    out = _OUT_AFTER.search(question)  # "...; X doesn't count": "..., but not X?"
    if out and _has_content(question[:out.start()]) and _has_content(out.group("topic")):
        question = _but_not(question, out, out.group("topic").strip())
    excluded = _EXCLUDED_AFTER.search(question)
    if excluded and _has_content(question[:excluded.start()]):
        question = f"{question[:excluded.start()].rstrip(' ?.!,;')}?"
    question = _GROUPED_BY.sub("", question)
    question = _without_remarks(question)
    question = _OTHER_THAN.sub(lambda m: f"non-{m.group('other')} {m.group('kind')}", question)
    listed = _LISTED_AFTER.match(question)  # "... other than English? Multilingual, cross-lingual, low-resource."
    if listed:  # "...? like physics, biology": "like" says they are examples already
        items = re.sub(r"^(?:like|such\s+as|e\.g\.,?|for\s+example,?)\s+", "", listed.group("items"), flags=re.IGNORECASE)
        question = f"{listed.group('asked')}, e.g. {items}?"
    if _WHICH_DO.search(question) and _WHICH_DO.sub("", question).strip():  # "X — which papers propose one?"
        question = "papers on " + _WHICH_DO.sub("", question).strip()
    question = _COLLECTING.sub("papers ", question) or question
    question = _INTERJECTION.sub("", question) or question
    question = _with_the_label(_BESIDE.sub("", question))
    lead_in = _LEAD_IN.match(question) or _LABEL.match(question)
    # "which papers use it?" says nothing of its own: the label is what "it" is
    if lead_in and is_list(lead_in.group("asked")) and _has_content(lead_in.group("asked"), REFERENCES | _NOT_A_TOPIC):
        question = lead_in.group("asked").strip()
    found = _ABOUT_THE_ASKER.match(question)
    if not found or (_BACK_TO_IT.search(found.group("asked")) and not _NAME_LIKE.search(found.group("asked"))
                     and _NAME_LIKE.search(question[:found.start("asked")])):
        return question  # "My labmate mentioned ZeroSiam. What problem does it solve?": the name is what "it" is
    if not _has_content(found.group("asked"), _ANSWERING, words=r"[a-z]+"):
        return question[:found.start("asked")].strip(" ;.!:")
    return found.group("asked").strip()


def _has_content(question: str, ignoring: frozenset | set = frozenset(), words: str = r"[a-z][\w-]*") -> bool:
    """Whether a question says what it is about, beyond function and asking words and ``ignoring``."""
    return any(len(w) > 2 and w not in NOT_TOPIC_WORDS and w not in ignoring for w in re.findall(words, question.lower()))


def is_list(question: str) -> bool:
    return bool(_LIST.search(question))


def is_compare(question: str) -> bool:
    return bool(_COMPARE.search(question))


def is_small_talk(question: str) -> bool:
    return bool(_SMALL_TALK.match(question))


def asks_about_one(question: str) -> bool:
    """'What is the Mesa layer paper about?', 'tell me about WebShaper': a question about one thing."""
    return bool(_NAMED_FRAME.search(question)) and not is_list(question)


# A paper described in a comparison, up to the next one or the end: "the paper that trains ... with expert iteration
# and RL", "the training-free long-video framework that combines adaptive frame sampling, dynamic resolution, and ..."
_DESCRIBED_PAPER = re.compile(r"\bthe\s+(?:[\w-]+\s+){0,4}?(?:paper|work|framework|method|model|approach|benchmark|system|one)\s+"
                              r"(?:that|which|where|whose)\b.*?(?=\s+(?:and|with|vs\.?|versus)\s+the\s+(?:[\w-]+\s+){0,4}?"
                              r"(?:paper|work|framework|method|model|approach|benchmark|system|one)\s+(?:that|which|where|whose)\b|$)",
                              re.IGNORECASE)


def compared_names(question: str) -> list[str]:
    """The things a comparison sets against each other, as written: 'Compare NuRL, SFPO and THR - how
    does each change GRPO training?' -> ['NuRL', 'SFPO', 'THR']; 'How does Echo differ from
    EmotionThinker?' -> ['Echo', 'EmotionThinker']."""
    text = re.sub(r":\s*(?:which|what|how|who|is|are|does|do)\b.*$", "", question, flags=re.IGNORECASE)  # "X or Y: which is better?"
    text = re.split(r"\s+[-–—:]\s+|\?|\.\s", text)[0]
    text = re.sub(r"^\s*which\s+(?:one\s+)?(?:is|works|performs|does)\s+\w+(?:\s+(?:for|on|at)\s+[^,:]+)?\s*[,:]\s*", "", text,
                  flags=re.IGNORECASE)  # "which works better, X or Y?"
    if re.match(r"\s*(?:please\s+)?(?:compare|contrast)\s", text, re.IGNORECASE) and not is_list(text):
        # "contrast ZeroSiam to TTM", not "compare the papers related to GRPO"
        text = re.sub(r"\s+(?:to|against)\s+", " versus ", text, flags=re.IGNORECASE)
    text = re.sub(r"^\s*(?:please\s+)?(?:compare|contrast)\s+|^\s*how\s+(?:does|do|is|are)\s+|^\s*(?:what\s+(?:is|are)\s+)?"
                  r"(?:the\s+)?differences?\s+between\s+|^\s*what\s+(?:do|does)\s+", "", text, flags=re.IGNORECASE)
    text = re.sub(r"\s+(?:have\s+in\s+common|share|have\s+to\s+do\s+with\s+each\s+other)\b.*$", "", text,
                  flags=re.IGNORECASE)  # "what do PoLR and CRISP have in common?"
    text = re.sub(r"\s+(?:differ|different|compare[sd]?|contrast)\b.*?\b(?:from|with|to)\s+", " versus ", text,
                  flags=re.IGNORECASE)
    text = re.sub(r"^\s*(?:please\s+)?(?:put|place|set|lay)\s+(?=.+\s+side\s+by\s+side\b)|\s+side\s+by\s+side\b.*$", "", text,
                  flags=re.IGNORECASE)  # "put AFS and ST-SimDiff side by side"
    if re.search(r"\bor\b", text, re.IGNORECASE):  # "is ReaPER or GEB more sample efficient?"
        text = re.sub(r"^\s*(?:is|are|does|do)\s+(?=.+\s+or\s)|\s+(?:more|less|better|worse|faster|cheaper|stronger|weaker)\b.*$",
                      "", text, flags=re.IGNORECASE)
    text = re.sub(r"^\s*(?:is|are|does|do)\s+(?=.+\s+than\s)", "", text, flags=re.IGNORECASE)  # "is X better than Y"
    text = re.sub(r"\s+(?:better|worse|faster|cheaper|stronger|weaker)\s+than\s+", " versus ", text, flags=re.IGNORECASE)
    text = re.sub(r"\s+(?:differ|different|compare|both)\b.*$", "", text, flags=re.IGNORECASE)
    text = re.sub(r"\s+(?:as|at|in terms of|for|on|when it comes to|in the ways?|in how|in what|in which|regarding|"
                  r"with respect to|concerning)\s+.*$", "", text, flags=re.IGNORECASE)  # "... in the way it combines X with Y"
    text = re.sub(r"\s+relate\s*$", "", text, flags=re.IGNORECASE)  # "how do X and Y relate?"
    # what is said in brackets, and a paper described ("the framework that combines X, Y, and Z"), is one thing
    asides = re.findall(r"\([^()]*\)", text) + [m.group() for m in _DESCRIBED_PAPER.finditer(text)]
    for number, aside in enumerate(asides):
        text = text.replace(aside, f"\0{number}\0", 1)
    pieces = re.split(r"\s*,\s*(?:and\s+|or\s+)?|\s+(?:and|vs\.?|versus|with|or)\s+", text, flags=re.IGNORECASE)
    pieces = [re.sub(r"\0(\d+)\0", lambda m: asides[int(m.group(1))], p) for p in pieces]
    names = [re.sub(r"^(?:the|a|an)\s+", "", p.strip(" ?.!"), flags=re.IGNORECASE) for p in pieces]
    return [n for n in names if n and len(n) <= 200]


def make_plan(question: str, *, query: str, topics: list[str], named: list[str], filters: dict | None = None,
              followup: "Any" = None) -> Plan:
    """The rules' plan for ``question``. ``query`` is its focus, ``topics`` its parts, ``named`` the
    papers whose names it holds (in order); ``followup`` a conversation's resolution, when it leans on
    the last answer."""
    plan = _planned(question, query=query, topics=topics, named=named, filters=filters, followup=followup)
    # not a cost said in a clause that sets papers aside ("..., but not the ones about long video efficiency")
    saves = savings_asked(without_contrasts(question)) if plan.kind in _OF_ANY_TRAINING and plan.restrict_to is None \
        and not plan.like else ""
    if saves:
        plan = _cutting_a_cost(plan, saves)
    training = training_asked(question) if plan.kind in _OF_ANY_TRAINING else ""
    if not training:
        return plan
    # "training-free methods for video": the training-free papers among those on what is left ("methods for video")
    said = lambda text: _has_content(without_contribution_words(text), _NOT_A_TOPIC)  # noqa: E731 ("propose methods": no)
    query = without_training_words(plan.query)
    if plan.restrict_to is not None and not said(without_training_words(without_contrasts(question))):
        query = ""  # "which of those does it by changing how the model is trained?": nothing else is asked
    if not said(query) and training == REQUIRED and plan.restrict_to is None:
        return replace(plan, training=training)  # "which papers train the model rather than ...?": on that, as said
    query = query if said(query) else ""
    rest = [t for t in map(without_training_words, plan.topics) if said(t)]
    without = plan.without if said(without_training_words(plan.without)) else ""  # "but not the ones that need RL
    # training": said by ``training`` itself
    resolution = plan.resolution
    if plan.restrict_to is not None and not query:  # "the 3 papers of the last answer, on training-free": said after
        resolution = re.sub(r", on [^,]*$", "", resolution)
    return replace(plan, training=training, query=query, without=without, resolution=resolution,
                   topics=rest if len(rest) == len(plan.topics) else ([query] if query else []))


def _cutting_a_cost(plan: Plan, saves: str) -> Plan:
    """``plan`` for a question asking for papers that cut a cost ("which papers reduce the cost of LLM reasoning at
    inference time?"): searched, less the words of the saving ("LLM reasoning"), among the papers that cut it; every
    such paper when nothing else is asked ("which papers make training cheaper?")."""
    said = lambda text: _has_content(without_contribution_words(text), _NOT_A_TOPIC)  # noqa: E731
    query = without_savings_words(plan.query)
    if not said(what_is_saved(query)):  # "which papers reduce reasoning token usage?": the resource is all it is
        query = what_is_saved(plan.query)  # about; "which papers make inference cheaper?": nothing but the saving
    topics = [t for t in map(without_savings_words, plan.topics) if said(t)]
    query = query if said(query) else ""
    examples = [e for e in plan.examples if said(without_savings_words(e))]  # "e.g. fewer rollouts": the saving's
    return replace(plan, saves=saves, query=query, examples=examples if query else [],
                   topics=topics if len(topics) == len(plan.topics) else ([query] if query else []))


_OF_ANY_TRAINING = ("list", "topic", "contribution", "followup")  # kinds of question that may ask it of their papers
TRAINING_NOTES = {FREE: "training-free methods", REQUIRED: "methods that train the model"}
SAVINGS_NOTES = {INFERENCE: "the cost of inference", TRAINING: "the cost of training", ANY: "a cost"}


def _planned(question: str, *, query: str, topics: list[str], named: list[str], filters: dict | None = None,
             followup: "Any" = None) -> Plan:
    query, topics = without_contrasts(query), [without_contrasts(t) for t in topics]
    base = dict(question=question, query=query, topics=topics, filters=filters or None)
    if is_small_talk(question):
        return Plan(kind="out_of_scope", form=FORMS["out_of_scope"], **base)
    if followup is None and asks_for_every_paper(question):  # every paper: none is "not on" the empty topic
        return Plan(kind="list", form=FORMS["list"], exclude=True, **{**base, "query": "", "topics": []})
    if followup is not None and followup.like:  # "are there similar papers?"
        return Plan(kind="followup", form=FORMS["followup"], like=list(followup.like), resolution=followup.why,
                    **{**base, "query": followup.query, "topics": [followup.query]})
    if followup is not None and followup.restrict_to is not None:
        papers = list(followup.restrict_to)
        added = []
        if (is_compare(question) or followup.adding) and named and not followup.pick_one:  # "how does it compare to LASER-D?"
            added = [pid for pid in named if pid not in papers]
            papers = list(dict.fromkeys([*papers, *named]))
        elif named and set(named) & set(papers) and not followup.pick_one:  # "is Lean4PHYS among them?": that one
            followup = replace(followup, restrict_to=[pid for pid in papers if pid in named], whole_set=True,
                               why=f"the paper it names, one of the {len(papers)} of the last answer")
            papers = list(followup.restrict_to)
        kind = "compare" if (is_compare(question) or (followup.adding and added)) and not followup.pick_one else "followup"
        form = FORMS[kind] if not followup.pick_one else "paper"
        # "the dataset": theirs, of any kind; "the emotion one: what dataset do they build?" asks it of the one picked
        # (but "which one is pure theory?" picks the one by its kind)
        kinds = [] if followup.definite or (followup.pick_one and not _PICKED_BY.match(question)) \
            else contributions_asked(question)
        return Plan(kind=kind, form=form, papers=list(papers) if kind == "compare" else [],
                    added=added if kind == "compare" else [],
                    restrict_to=papers, resolution=followup.why, pick_one=followup.pick_one,
                    exclude=followup.exclude and kind == "followup", whole_set=followup.whole_set,
                    left_out=followup.left_out, sibling=followup.sibling, superlative=followup.superlative,
                    contributions=kinds, mainly=bool(kinds) and asks_mainly(question), data_use=_data_use(question, kinds),
                    method_form=_method_form(question, kinds), every_kind=len(kinds) > 1 and asks_every_kind(question),
                    in_general=followup.in_general and kind == "followup" and not kinds,
                    **{**base, "query": without_contrasts(followup.query),
                       "topics": [without_contrasts(followup.query)]})
    if len(named) <= 1 and is_compare(question) and _against_a_baseline(question):
        # "What is GRPO-PTR and how does it differ from standard GRPO?": about the one paper, set against no other
        about = focus(compared_names(question)[0])
        return Plan(kind="named", form=FORMS["named"], papers=list(named), **{**base, "query": about, "topics": [about]})
    if len(named) == 1 and not is_compare(question) and _better_than_a_technique(question):
        # "What is TRU and why is it better than gradient ascent?": about TRU, set against a technique, not a paper
        return Plan(kind="named", form=FORMS["named"], papers=list(named), **base)
    if (is_compare(question) and (len(named) >= 2 or (len(compared_names(question)) >= 2 and not _every_paper_on(question)
                                                       and not _vs_in_a_topic(question, named)))) \
            or (len(named) >= 2 and _EACH_OF_THEM.search(question)) \
            or (_THAN.search(question) and (len(named) >= 2 or (named and len(compared_names(question)) >= 2))):
        return Plan(kind="compare", form=FORMS["compare"], papers=list(named), **base)
    if is_compare(question) and is_list(_COMPARE_FRAME.sub("", question)) and not _COMPARING_IN_A_CLAUSE.search(question) \
            and not _vs_in_a_topic(question, named):
        # "compare the papers on Lean"; not "papers that build on GRPO or compare against GRPO", a list
        about = re.sub(r"^(?:the|all|these|those)\s+(?:(?:two|three|four|five|six|\d+)\s+)?|^(?:two|three|four|five|six|\d+)\s+",
                       "", without_contrasts(focus(_COMPARE_FRAME.sub("", question))),
                       flags=re.IGNORECASE)
        kinds = [label for label, pattern in _CONTRIBUTION.items() if pattern.search(about)]
        if kinds:  # "compare the benchmark papers": the papers of that kind (on the topic left, if any)
            rest = without_contribution_words(about)
            return Plan(kind="compare", form=FORMS["compare"], contributions=kinds, data_use=_data_use(about, kinds),
                        **{**base, "query": rest, "topics": [rest] if rest else []})
        return Plan(kind="compare", form=FORMS["compare"], **{**base, "query": about, "topics": [about]})
    like = _LIKE_NAMED.search(question)
    if like and named:  # "papers like PoLR": the papers closest to it, not PoLR itself
        return Plan(kind="topic", form=FORMS["topic"], like=list(named), papers=list(named),
                    resolution=f"papers like {like.group('name').strip()}", **base)
    if len(named) == 1 and asks_about_one(question):  # "who introduced the LEXam benchmark?" is about LEXam
        return Plan(kind="named", form=FORMS["named"], papers=list(named), **base)
    if len(named) == 1 and _ASKS_OF_ONE.match(question) and not is_list(question):
        return Plan(kind="named", form=FORMS["named"], papers=list(named), **base)  # "what benchmark does LEXam introduce?"
    kinds = contributions_asked(question)
    if kinds == [METHOD] and _ONE_PAPER.search(question):  # "the paper that proposes a group matching score": that one
        kinds = []
    if kinds:
        form = _method_form(question, kinds)
        rest, given = without_contribution_words(query, form), topic_examples(question)
        return Plan(kind="contribution", form=FORMS["contribution"], contributions=kinds, mainly=asks_mainly(question),
                    examples=given, without=left_out_topic(question), not_kind=kind_set_aside(question) or (),
                    examples_of=without_contribution_words(without_examples(query), form) if given and _only_paren_examples(question) else "",
                    data_use=_data_use(question, kinds), method_form=form,
                    every_kind=len(kinds) > 1 and asks_every_kind(question),
                    **{**base, "query": rest, "topics": [rest] if rest else []})
    if named and not is_list(question) and len(named) == 1:
        return Plan(kind="named", form=FORMS["named"], papers=list(named), **base)
    # "Which papers don't use RL?": the papers a list on "use RL" would leave out ("which papers don't use" says
    # too little to be that)
    not_on = _NOT_ON.match(question)
    if not_on and re.search(r"\b(?!(?:use|uses|using|study|studies|deal|work|have|has|about|with|on)\b)\w{2,}",
                            not_on.group("topic"), re.IGNORECASE):
        about = focus(not_on.group("topic"))
        return Plan(kind="list", form=FORMS["list"], exclude=True, **{**base, "query": about, "topics": [about]})
    about_one = asks_about_one(question)
    # a topic given with examples of it ("LLMs in expert domains such as law or the life sciences") asks for all, as
    # does "what could I use to adapt a model at test time?": every paper that answers, not the few best
    given = examples(question)
    if is_list(question) or (not named and (_BARE_QUESTION.match(question) or given or (
            not about_one and _ASKS_WHICH.match(question) and not _ONE_ASKED.match(question)))):
        # with examples, only a means used on something ("use RL to train multimodal models (vision or audio)"):
        # examples of a means' alternatives ("with verifiers, e.g. Lean") ask for no means
        return Plan(kind="list", form=FORMS["list"], examples=given, without=left_out_topic(question),
                    not_kind=kind_set_aside(question) or (), examples_of=without_examples(query) if _only_paren_examples(question) else "",
                    means=means_asked(query) if not given else used_means(query, given), **base)
    if about_one:
        return Plan(kind="named", form=FORMS["named"], papers=list(named), **base)
    return Plan(kind="topic", form=FORMS["topic"], not_kind=kind_set_aside(question) or (), **base)


# A question asking which papers there are, naming none: its "X vs. Y" is a topic ("which papers are about the
# exploration vs. exploitation problem?"), not two papers to compare
_WHICH_PAPERS = re.compile(r"^\s*(?:(?:and|so)[, ]+)?(?:which|what)\s+(?:papers|works|studies|abstracts|submissions)\b",
                           re.IGNORECASE)
_VS = re.compile(r"\s(?:vs\.?|versus)\s", re.IGNORECASE)


def _vs_in_a_topic(question: str, named: list[str]) -> bool:
    """Whether the only comparison ``question`` makes is an "X vs. Y" inside the topic of a question asking which
    papers there are, naming none (``_WHICH_PAPERS``)."""
    return not named and bool(_WHICH_PAPERS.match(question)) and not is_compare(_VS.sub(" ", question))


# What several papers named each do: "How do SFPO, DPH-RL and THR each intervene in RL training?"
_EACH_OF_THEM = re.compile(r"\b(?:each|respectively)\b", re.IGNORECASE)


# A pick of one paper by what it is or has: "which one is pure theory?", "which has a benchmark?"
_PICKED_BY = re.compile(r"^\s*(?:and\s+)?which\s+(?:one\s+)?(?:is|has|was|had|offers|gives|provides|contributes)\b", re.IGNORECASE)


# A question asking what there is, which any number of papers answer: not "does RL transfer ...?", a yes or no
_ASKS_WHICH = re.compile(r"^\s*(?:which|what|any|anything|show|list|find|give|get|(?:is|are)\s+there)\b", re.IGNORECASE)
# ... unless it asks for one: "which paper ...", "what is the method that ...", "is there a model that ..."
_ONE_ASKED = re.compile(r"^\s*(?:(?:which|what)(?:'s|\s+is|\s+was)?|(?:is|are)\s+there)\s+(?:the\s+|a\s+|an\s+|one\s+)?(?:[\w-]+\s+)?"
                        r"(?:paper|work|study|article|method|approach|model|framework|system|technique|abstract)\b(?!s)",
                        re.IGNORECASE)


# One paper described, not a kind of papers: "tell me about the paper that proposes a group matching score"
_ONE_PAPER = re.compile(r"\bthe\s+(?:paper|work|study|article|one)\s+(?:that|which|where|whose|with)\b", re.IGNORECASE)
# A question asked of the one paper it names: "what benchmark does LEXam introduce?", "which datasets does PoLR use?"
_ASKS_OF_ONE = re.compile(r"^\s*(?:what|which|how|who|where|when|why)\b", re.IGNORECASE)


# What a paper is set against when it is no other paper: "standard GRPO", "vanilla transformers", "prior methods".
_BASELINE = re.compile(r"^(?:the\s+)?(?:standard|vanilla|plain|original|conventional|traditional|usual|regular|classic(?:al)?|"
                       r"baseline|existing|prior|previous|earlier|naive)\b"
                       r"|^(?:the\s+)?other\b(?!\s+(?:[\w-]+\s+){0,4}?(?:paper|one|work|study|method|approach)\b)",  # not "the other long-video paper"
                       re.IGNORECASE)


# A comparison the papers asked for make, said in the clause that describes them: "papers that build on GRPO or compare
# against GRPO", "works which compare with RLHF"
_COMPARING_IN_A_CLAUSE = re.compile(r"\b(?:papers?|works?|studies|methods|ones)\s+(?:that|which|who)\b[^?]*?\b(?:compare[sd]?|comparing)"
                                    r"\s+(?:(?:themselves|it|them)\s+)?(?:against|to|with)\b", re.IGNORECASE)


def _every_paper_on(question: str) -> bool:
    """Whether ``question`` asks for every paper on a topic, so that a "vs" in it is part of the topic: "every RLVR paper
    that deals with the Pass@1 vs Pass@k trade-off"."""
    return is_list(question) and bool(_FOR_ALL.search(question))


# What a paper is said to beat, up to the end of the clause: "better than gradient ascent", "faster than TTM?"
_THAN_WHAT = re.compile(r"\b(?:better|worse|faster|cheaper|stronger|weaker)\s+than\s+(?P<other>[^?.!,;:]+)", re.IGNORECASE)


def _better_than_a_technique(question: str) -> bool:
    """Whether what ``question`` says a paper is better than is a technique in plain words ("gradient ascent",
    "majority voting"), not another paper, which a comparison names ("TTM", "LASER-D") or describes ("the one on
    Lean")."""
    found = _THAN_WHAT.search(question)
    if not found:
        return False
    other = found.group("other").strip()
    return not _NAME_LIKE.search(other) and not re.match(r"(?:the|that|this)\s+(?:[\w-]+\s+){0,3}?(?:paper|one|work|"
                                                          r"method|approach|framework|model|benchmark)\b", other, re.IGNORECASE)


def _against_a_baseline(question: str) -> bool:
    """Whether what a comparison sets a paper against is a baseline (``_BASELINE``), not another paper."""
    return any(_BASELINE.match(n) for n in compared_names(question)[1:])


# A topic asked as a question, with no words to ask it: "RL for speech or audio models?" is "any papers on RL for
# speech or audio models?"; "proof simplification for Lean", a search, stays a topic.
_BARE_QUESTION = re.compile(r"^(?!\s*(?:which|what|who|whom|whose|how|why|when|where|is|are|was|were|do|does|did|can|could|"
                            r"should|would|will|has|have|had|tell|show|list|find|give|get|compare|explain|describe|"
                            r"summari[sz]e)\b)[^?]+\?\s*$", re.IGNORECASE)
