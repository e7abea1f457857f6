"""Side-by-side comparisons, quoted from the abstracts.

A comparison has one row per paper and four columns: the *problem* it takes on, its *approach*,
what it is *evaluated on* (the benchmarks and datasets its abstract names) and its *headline
result*. Every cell is the abstract's own words: a sentence picked by its role (background,
objective, method, result), so numbers are exactly as written, and "not stated" where the
abstract has nothing for the column. No model writes any of it: the 135M default would mislabel
sources, and a quote can be checked by anyone.
"""

from __future__ import annotations

import re

from .evidence import sentences

NOT_STATED = "not stated"
COLUMNS = ("problem", "approach", "evaluated_on", "result")
HEADINGS = {"problem": "Problem", "approach": "Approach", "evaluated_on": "Evaluated on", "result": "Headline result"}

_APPROACH = re.compile(r"\b(?:we|this paper|this work|our work)\s+(?:\w+\s+){0,2}(?:propose|introduce|present|develop|"
                       r"design|build|put forward|formulate|construct|derive|study|investigate|conduct|analy[sz]e|"
                       r"treat|incorporate|leverage|employ|train|extend|adapt|reformulate|cast|frame|combine)s?\b"
                       r"|\bour\s+(?:proposed\s+|new\s+)?(?:method|approach|framework|model|algorithm)\b"
                       r"|\bthe\s+proposed\s+(?:method|approach|framework|model|algorithm)\b",
                       re.IGNORECASE)
_PROBLEM = re.compile(r"\b(?:however|challeng\w*|limitation\w*|problem\w*|struggl\w*|remain\w*|costly|expensive|"
                      r"inefficien\w*|suffer\w*|lack\w*|fail\w*|bottleneck\w*|difficult\w*|unclear|hinder\w*|"
                      r"prohibitive|redundan\w*|issue\w*|gap)\b", re.IGNORECASE)
_RESULT = re.compile(r"\b(?:outperform\w*|achiev\w*|improv\w*|reduc\w*|surpass\w*|gains?|speed-?ups?|state-of-the-art|"
                     r"sota|results?\s+show|experiments?\s+(?:show|demonstrate)|demonstrat\w*|yield\w*|boost\w*)\b",
                     re.IGNORECASE)
_NUMBER = re.compile(r"\d")
_EVALUATION = re.compile(r"\b(?:benchmarks?|datasets?|evaluat\w*|experiments?|tested|tasks?|suites?|achiev\w*|"
                         r"outperform\w*|improv\w*|accuracy|results?|across|exceed\w*|match(?:es|ing)?)\b", re.IGNORECASE)
# A benchmark or dataset name: a word with capitals inside or digits ("AIME2024", "MATH-500", "GSM8K",
# "MTEB", "ImageNet-C"), optionally hyphenated; plain capitalised words and acronyms of methods are
# kept out below.
_NAME = re.compile(r"\b(?:[A-Z][A-Za-z]*[A-Z0-9][A-Za-z0-9]*(?:[-/.][A-Za-z0-9]+)*|[A-Za-z]+-\d+[A-Za-z]*)\b")
_NOT_A_BENCHMARK = re.compile(r"^(?:LLMs?|MLLMs?|VLMs?|LALMs?|LRMs?|RL|RLVR|SFT|GRPO|PPO|DPO|AI|ML|NLP|GPU|CPU|API|"
                              r"CoT|KL|MSE|PCC|II|III|IV|TTS|PRMs?|ORMs?|RM|QA|SC|RLHF|R1|[A-Z]+s)$"
                              r"|^(?:Qwen|Llama|LLaMA|GPT|Mistral|Mixtral|DeepSeek|Gemma|Claude|Phi|OLMo|ViT|CLIP|BERT)",
                              re.IGNORECASE)


def compare_row(n: int, title: str, text: str) -> dict:
    """The comparison row of one paper: ``{"n", "problem", "approach", "evaluated_on", "result"}``."""
    found = sentences(text)
    approach = _first(found, lambda s: _APPROACH.search(s))
    result = _last(found, lambda s: _RESULT.search(s) and _NUMBER.search(s) and s != approach) \
        or _last(found, lambda s: _RESULT.search(s) and s != approach)
    problem = _first(found, lambda s: _PROBLEM.search(s) and s not in (approach, result))
    if problem is None and found and found[0] not in (approach, result):
        problem = found[0]  # the opening sentence sets the scene in most abstracts
    return {"n": n, "problem": problem or NOT_STATED, "approach": approach or NOT_STATED,
            "evaluated_on": evaluated_on(found, title, approach or ""), "result": result or NOT_STATED}


def evaluated_on(found: list[str], title: str, approach: str = "") -> str:
    """The benchmark and dataset names of the sentences about evaluation, as the abstract writes them.
    The paper's own names (its title's, those of the sentence presenting its approach) are not what
    it is evaluated on, nor are compound adjectives ("LLM-based") or short all-capital acronyms."""
    own = {word.lower() for word in re.findall(r"[\w]+", f"{title.split(':')[0]} {approach}") if len(word) >= 3}
    names: list[str] = []
    for sentence in found:
        if not _EVALUATION.search(sentence):
            continue
        for name in _NAME.findall(sentence):
            if _NOT_A_BENCHMARK.match(name) or _ADJECTIVE.search(name) or name in names \
                    or any(part.lower() in own for part in re.split(r"[-/.]", name) if len(part) >= 3):
                continue
            if name.isupper() and name.isalpha() and len(name) < 4:  # "IS", "GA": abbreviations, not benchmarks
                continue
            names.append(name)
    return ", ".join(names) if names else NOT_STATED


_ADJECTIVE = re.compile(r"-(?:based|trained|assisted|aware|free|level|like|style|driven|guided|specific)$|-as-a-",
                        re.IGNORECASE)


def _first(found: list[str], test) -> str | None:
    return next((s for s in found if test(s)), None)


def _last(found: list[str], test) -> str | None:
    return next((s for s in reversed(found) if test(s)), None)
