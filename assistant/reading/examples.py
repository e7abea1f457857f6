"""What a question gives as examples ("such as X, Y", "(e.g. X or Y)"), the means it asks papers to use ("with
RL", "using diffusion"), and the topic it sets aside ("but not X"): read off the question's wording.
"""

from __future__ import annotations

import re

from ..query_words import GENERAL_HEADS, topic_runs
from .contribution_words import CONTRAST, CONTRIBUTION, KIND_SET_ASIDE, KIND_WORDS, NOT_SETTING_ASIDE


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
    return found if found and not CONTRAST.search(found.group("items")) \
        and not re.search(r"\b(?:not|no|never|except)\b|n[’']t\b", found.group("items"), re.IGNORECASE) else None


def _examples_found(text: str) -> re.Match | None:
    """Where ``text`` gives its examples: after "e.g." or "like", after a dash, or in parentheses."""
    return _EXAMPLES.search(text) or _DASH_EXAMPLES.search(text) or _paren_examples(text)


def only_paren_examples(question: str) -> bool:
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
    listed = CONTRAST.sub("", listed)  # "e.g. learned update rules, rather than the model"
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
    if not found or re.search(rf"\b(?:{KIND_WORDS})\W*$", question[:found.start()], re.IGNORECASE):
        return []
    return [item for item in _example_items(found.group("items"))
            if not any(p.search(item) for p in CONTRIBUTION.values())
            and not all(w.lower() in _KIND_EVIDENCE | GENERAL_HEADS for w in re.findall(r"[\w-]+", item))]


# "papers on reasoning efficiency, but not using RL", "Lean papers excluding physics": a topic whose papers the
# list leaves out (a set difference; "agents that are not language models" is a property of the agents:
# ``kind_set_aside``)
_BUT_NOT = re.compile(r"(?:,\s*|\s+)(?:(?:but|and)\s+" + NOT_SETTING_ASIDE + r"|excluding|except(?:\s+for)?|other\s+than|leaving\s+out|"
                      r"(?:(?:that|which)\s+)?(?:have|has)\s+nothing\s+to\s+do\s+with|unrelated\s+to)\s+"
                      r"(?:(?:the\s+)?(?:ones|papers|those)\s+)?(?:(?:that\s+)?(?:are\s+)?(?:on|about|using|with|for|in|that\s+use)\s+)?"
                      r"(?P<topic>[^,;.?!]+)", re.IGNORECASE)


# The means a list asks each paper to use, said after its topic as a choice: "test-time scaling of LLM reasoning
# with verifiers or reward models", "agents trained via imitation or RL". A paper on the topic that uses none of
# them is no answer, and the encoder cannot tell: on "test-time scaling ... with verifiers or reward models", NuRL,
# SSFT and THINKMERGE (test-time scaling, no verifier) rank with CRISP (a reward model). Not a verb that takes
# "with" ("deal with", "work with", "come up with"): that "with" starts the topic.
MEANS = re.compile(r"(?P<head>\b[\w-]+(?:\s+[\w-]+)+?)\s+(?:with|using|via|through)\s+"
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
USED_ON = re.compile(r"^(?:papers?\s+|works?\s+)?(?:that\s+|which\s+)?(?:use|uses|using|apply|applies|applying|employ|employs|"
                      r"employing)\s+(?!of\b)(?P<means>(?:[\w-]+\s+){0,2}?[\w-]+)\s+(?:to|for|on|in)\s+(?P<head>\w.*)$", re.IGNORECASE)


def used_means(query: str, examples: list[str] = ()) -> list[str]:
    """The means a topic said as using it on something asks each paper to use (``USED_ON``): 'use reinforcement
    learning to train multimodal models (vision, audio or speech)' -> ['reinforcement learning'], whatever
    ``examples`` it gives of what the means is used on; none when they are examples of the means ('use human
    preference to align models (RLHF, preference optimization)': a paper may name one and not the means)."""
    used = USED_ON.match(query.strip())
    if not used or not topic_runs(used.group("means")) or not topic_runs(used.group("head")) \
            or used.group("means").lower() in _ANY_MEANS:
        return []
    means_words = {w for run in topic_runs(used.group("means")) for w in map(str.lower, run)}
    if any(means_words & {w for run in topic_runs(e) for w in map(str.lower, run)} for e in examples):
        return []
    return [used.group("means")]


def means_asked(query: str) -> list[str]:
    """The means a list question's topic asks each paper to use, one of them (``MEANS``, ``USED_ON``): 'test-time
    scaling of LLM reasoning with verifiers or reward models' -> ['verifiers', 'reward models']; 'use reinforcement
    learning to train multimodal models' -> ['reinforcement learning']; [] for a topic asking none."""
    used = used_means(query)
    if used:
        return used
    found = MEANS.search(query)
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
    kept = CONTRAST.sub(lambda m: m.group() if _in_an_example(text, m) else "", KIND_SET_ASIDE.sub("", text))
    kept = re.sub(r"\s*\(\s*\)|\s*\((?=[^()]*$)", "", kept)  # "train models (rather than ...) to X"
    kept = re.sub(r"\s+(?:that|which|who)\s*(?=,|$)", "", " ".join(kept.split())).strip(" ,")
    left = [w for w in re.findall(r"\w+", kept.lower()) if len(w) > 2 and w not in NOT_A_TOPIC]
    return kept if left else text
NOT_A_TOPIC = {"which", "what", "ones", "one", "them", "those", "these", "that", "the", "and", "papers", "paper",
                "works", "work", "any", "are", "about", "there"}
