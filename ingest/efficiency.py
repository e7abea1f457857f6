"""What cost a paper's own work cuts, read off its abstract: the cost of running a model (inference: generated
tokens, latency, test-time compute) or of training one (rollouts, wall-clock, convergence, communication).

Researchers ask for efficiency in their own words ("which papers make LLM reasoning cheaper at inference?", "what
makes RL post-training cheaper to run?"), and abstracts rarely use them: they report what they save ("reducing
token usage by up to 60%", "using only ~21.3% of the computation", "4.93x fewer rollouts", "10.67x reduction in
communication overhead") or name the aim ("to promote reasoning efficiency"). Neither meaning nor word overlap
finds those papers for such a question, so ingest reads the saving once and the question asks for the label.

A saving counts only when it is the paper's: a sentence on what "existing methods" do to "improve efficiency" is
about other work, and a problem ("SC is computationally expensive") is not a saving. Data or sample efficiency
("improving sample efficiency", "data-efficient learning") is another property, not a cost cut. Rules rather than a
classifier, as for the kinds of contribution (``ingest.contributions``): 49 hand-labelled papers are too few to
train on, and ingest must stay fast.
"""

from __future__ import annotations

import re

from assistant.schema import SAVING_PHASES as PHASES

from .contributions import MARKUP, SENTENCE_BREAK

INFERENCE, TRAINING = PHASES


# What a model spends. "length" only of what it generates: a proof's length is its content, not a cost.
_RESOURCE = (r"(?:token\s+usage|(?:generated\s+|reasoning\s+|visual\s+|output\s+)?tokens|latency|"
             r"(?:computational|compute|inference|training|meta-training|communication)\s+(?:costs?|overheads?|budgets?|time)|"
             r"computation(?:al\s+complexity)?|compute|flops|memory(?:\s+footprint)?|wall-?clock(?:\s+time)?|"
             r"rollouts|(?:response|reasoning|output|generation|cot|chain-of-thought)\s+length|costs?)")
# How a paper says it saves: "reducing token usage", "4.93x fewer rollouts", "using only ~21.3% of the computation",
# "4.59x faster convergence", "boosts the TTS efficiency", "a resource-efficient approach", "more training-efficient".
_SAVES = re.compile(
    r"\b(?:reduc\w*|cut\w*|sav\w*|lower\w*|decreas\w*|shrink\w*|halv\w*)\s+(?:\w+\s+){0,3}?(?:the\s+)?" + _RESOURCE + r"\b"
    r"|\breduction\s+(?:in|of)\s+(?:\w+\s+){0,2}?" + _RESOURCE + r"\b"
    r"|\b(?:fewer|less)\s+(?:\w+\s+)?" + _RESOURCE + r"\b"
    r"|\d\s*(?:x|×|times)\s+(?:faster|speed-?up|fewer|less|reduction)\b|\bspeed-?ups?\s+of\b"
    r"|\b(?:only|just)\s+(?:about\s+)?~?\s*\d+(?:\.\d+)?\s*%\s+of\s+the\s+" + _RESOURCE + r"\b"
    r"|\b(?:tiny|small)\s+fraction\s+of\s+(?:\w+\s+){0,2}?(?:compute|cost|computation)\b"
    r"|\b(?:boost\w*|improv\w*|enhanc\w*|promot\w*|increas\w*)\s+(?:the\s+|its\s+)?(?:[\w-]+\s+){0,2}?efficiency\b"
    r"|\b(?:resource|training|compute|token|memory|inference)-efficient\b",
    re.IGNORECASE)
# A piece every saving holds, looked for (as plain substrings: a pattern of them cost as much as ``_SAVES``) before
# the patterns run: most sentences hold none, and the patterns on every sentence took 0.47 ms an abstract of the
# 20,000-abstract benchmark corpus, 70% more than the rest of the labelling.
_CUES = ("reduc", "cut", "sav", "lower", "decreas", "shrink", "halv", "fewer", "less", "faster", "speed", "fraction",
         "efficien", "times", "%", "×")
_TIMES = re.compile(r"\dx")
# Not a saving: data or sample efficiency, the accuracy-efficiency trade-off asked about in general.
_NOT_A_COST = re.compile(r"\b(?:sample|data|parameter|label)[\s-]+efficien\w*", re.IGNORECASE)
# Another work's saving: "existing methods reduce redundancy", "prior work ... reduced".
_OTHERS = re.compile(r"\b(?:existing|prior|previous|recent|current|conventional|standard)\s+(?:\w+\s+)?"
                     r"(?:methods?|approaches|works?|techniques|systems|models)\b|\bsuch\s+methods\b", re.IGNORECASE)
_OWN = re.compile(r"\b(?:we|our|this\s+(?:paper|work|method|approach|framework))\b", re.IGNORECASE)
# Which cost a saving is of: training when the sentence is about training, inference when it is about running
# the model; a sentence saying neither takes the abstract's leaning.
_TRAINING_WORDS = re.compile(r"\b(?:train\w*|meta-train\w*|rollouts?|convergence|communication|fine-?tun\w*|"
                             r"post-train\w*|pre-?train\w*|federated|gradient\s+steps?)\b", re.IGNORECASE)
_INFERENCE_WORDS = re.compile(r"\b(?:inference|test-time|tts|decoding|tokens?|token\s+usage|latency|reasoning|"
                              r"generat\w*|serving|prefill|kv[\s-]cache|training-free)\b", re.IGNORECASE)


def savings(text: str) -> list[str]:
    """What costs the abstract ``text`` says its own work cuts, in ``PHASES`` order ([] for none)."""
    sentences = [MARKUP.sub("", s) for s in SENTENCE_BREAK.split(" ".join(text.split()))]
    found = {_phase(claim, sentence, text) for sentence in sentences for claim in _claims(sentence)}
    return [phase for phase in PHASES if phase in found]


def saving_sentence(sentences: list[str], text: str, phase: str | None = None) -> str | None:
    """The sentence of an abstract's ``sentences`` (``text`` the whole abstract) that states a saving (of ``phase``,
    when given), the quote for a question asking for such papers: the first that puts a figure on it ("reducing
    token usage by 64%"), else the first, else None."""
    stating = [s for s in sentences
               if any(phase in (None, "any") or _phase(claim, plain, text) == phase
                      for plain in [MARKUP.sub("", s)] for claim in _claims(plain))]
    return next((s for s in stating if re.search(r"\d", s)), stating[0] if stating else None)


def _claims(sentence: str) -> list[str]:
    """The words of ``sentence`` that state a saving of the paper's own."""
    lower = sentence.lower()
    if not any(cue in lower for cue in _CUES) and not _TIMES.search(lower):
        return []
    if _OTHERS.search(sentence) and not _OWN.search(sentence):
        return []
    return [match.group() for match in _SAVES.finditer(sentence)
            if not _NOT_A_COST.search(sentence[max(0, match.start() - 12):match.end() + 12])]


def _phase(claim: str, sentence: str, text: str) -> str:
    """Which cost a saving cuts: said by the claim ("fewer rollouts"), else by its sentence, else by the abstract."""
    for words in (claim, sentence):
        training, inference = bool(_TRAINING_WORDS.search(words)), bool(_INFERENCE_WORDS.search(words))
        if training != inference:
            return TRAINING if training else INFERENCE
    return TRAINING if len(_TRAINING_WORDS.findall(text)) > len(_INFERENCE_WORDS.findall(text)) else INFERENCE
