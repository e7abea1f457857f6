"""Whether a question asks for papers that cut a cost, and which: of running a model ("make LLM reasoning cheaper
at inference", "fewer generated tokens", "lower latency") or of training one ("make RL post-training cheaper to run",
"fewer rollouts"), or either ("efficient methods").

Ingest reads what each paper saves (``ingest.efficiency``); a plan holding ``saves`` keeps the papers that save that
cost and searches the question among them. The words are those of the property (cost, cheap, efficient, fewer,
faster, latency), not of any question set. Data or sample efficiency, and "parameter-efficient" fine-tuning, are
topics of their own; a cost that is only described ("costly real-world experiments", "spending extra compute")
asks for no saving.
"""

from __future__ import annotations

import re

from .schema import SAVING_PHASES

INFERENCE, TRAINING = SAVING_PHASES
ANY = "any"

_OF_TOKENS = r"(?:generated\s+|reasoning\s+|output\s+)?"
_COST = (r"(?:costs?|compute|computation|computing\s+power|latency|" + _OF_TOKENS + r"token\s+usage|" + _OF_TOKENS
         + r"tokens?|words|memory|flops|overheads?|wall-?clock(?:\s+time)?|rollouts|(?:gpu\s+)?hours)")
_ASKED = re.compile(
    r"\bcheap(?:er|ly|en\w*)?\b|\binexpensive\b"
    r"|\b(?:less|lower|reduc\w*|cut\w*|sav\w*|decreas\w*|minimi[sz]\w*|fewer|smaller|trim\w*|shrink\w*)\s+"
    r"(?:(?:the|their|its|a|of|test-time|inference|training|per|[\w/-]+\s*/)\s*){0,4}?" + _COST + r"\b"
    r"|\b(?:inference|training|compute|token|computational)[\s-]+costs?\b|\bcare\s+about\s+cost\b"
    r"|(?<![\w-])(?<!sample[\s-])(?<!data[\s-])(?<!parameter[\s-])(?<!label[\s-])efficiency\b"
    r"|\b(?:more\s+)?efficient(?=\s+(?:reasoning|inference|decoding|training|generation|thinking|llms?|models?)\b)"
    r"|\bmore\s+efficient\b(?!\s+(?:learn\w*|exploration|use\s+of\s+(?:data|samples)))"  # not sample efficiency
    r"|\bfaster\b|\bspeed(?:s|ing)?[\s-]+up\b|\bspeed-?ups?\b|\boverthink\w*\b"
    r"|\bshorter\s+(?:\w+\s+){0,2}?(?:(?:chains?|trains?)\s+of\s+thoughts?|chains?|reasoning|cots?|answers|responses|"
    r"outputs|thoughts?|traces)\b"
    r"|\bthink\w*\s+less\b",
    re.IGNORECASE)
# Where the cost is paid, said near the words asking for the saving.
_PHASE_WORDS = {
    INFERENCE: re.compile(r"\b(?:inference|test-time|tokens?|latency|answer\w*|generat\w*|decoding|serving|think\w*|"
                          r"reasoning|chains?\s+of\s+thought|cots?|words|responses?|deploy\w*|run\s+time)\b", re.IGNORECASE),
    TRAINING: re.compile(r"\b(?:train\w*|post-train\w*|pre-?train\w*|fine-?tun\w*|rollouts?|convergence|wall-?clock|"
                         r"rlvr|grpo|learn\w*\s+(?:cost|run)|gpu\s+hours)\b", re.IGNORECASE),
}
# "spending extra compute at inference": a cost described, not one cut.
_SPENDING = re.compile(r"\b(?:spend\w*|us\w*|add\w*|scal\w*|extra|more|additional|increas\w*)\s+(?:\w+\s+){0,2}?"
                       r"(?:compute|computation|tokens)\b", re.IGNORECASE)


# A saving offered as one of two aims ("improve LLM reasoning (accuracy or efficiency)", "better, or more
# efficient"): papers with either aim answer, so the saving is no condition.
_EITHER_BEFORE = re.compile(r"\b(?:accuracy|performance|quality|better|stronger|effective\w*)\s*,?\s+or\s+(?:more\s+)?$",
                            re.IGNORECASE)
_EITHER_AFTER = re.compile(r"^\s*,?\s*or\s+(?:more\s+)?(?:accura\w*|performance|quality|better|stronger|effective\w*)\b",
                           re.IGNORECASE)


def savings_asked(question: str) -> str:
    """``INFERENCE`` or ``TRAINING`` when ``question`` asks for papers that cut that cost, ``ANY`` when it asks
    for cost cuts of either, "" when it asks for none."""
    asked = [m for m in _ASKED.finditer(question) if not _SPENDING.search(m.group())
             and not _EITHER_BEFORE.search(question[:m.start()]) and not _EITHER_AFTER.search(question[m.end():])]
    if not asked:
        return ""
    nearest = {}
    for phase, words in _PHASE_WORDS.items():
        spots = [m.start() for m in words.finditer(question)]
        if spots:
            nearest[phase] = min(abs(spot - m.start()) for spot in spots for m in asked)
    if not nearest:
        return ANY
    return min(nearest, key=nearest.get)


# What a question says of the saving besides asking for it: where the cost is paid ("at inference time", "to
# run"), what it is counted in ("fewer generated tokens, lower latency or less test-time compute"), and that accuracy
# must hold ("for the same accuracy", "without losing accuracy").
_ABOUT_THE_SAVING = re.compile(
    r"\b(?:at|during|in)\s+(?:inference|test[\s-]time|deployment)(?:\s+time)?\b|\bto\s+run\b|\bwhen\s+(?:they|it)\s+answers?\b"
    r"|\b(?:(?:for|at|with)|(?:or\s+)?to\s+(?:reach|get|keep|match))\s+(?:the\s+)?same\s+(?:accuracy|performance|quality)\b"
    r"|\bwithout\s+(?:losing|hurting|sacrificing|giving\s+up)\s+(?:\w+\s+)?(?:accuracy|performance|quality)\b"
    r"|\b(?:less|lower|fewer|reduc\w*|cut\w*|smaller|no|shorter)\s+(?:[\w/-]+\s+){0,2}?" + _COST + r"\b"
    r"|\b(?:per|for\s+each|each)\s+(?:answer|query|question|problem)\b|\bcosts?\s+of\b"
    r"|\b(?:test-time\s+)?(?:compute|computation|latency|wall-?clock|rollouts|token\s+usage)\b"
    r"|\b(?:i\.e\.|e\.g\.|like|such\s+as|that\s+kind\s+of\s+thing)(?=[\s,]|$)", re.IGNORECASE)
# What is left of the frame around the saving: "ways to [make ... cheaper]", "what's out there that actually [cuts]".
_LEFT_OVER = re.compile(r"^(?:[\s,;:/()\-–—]|\b(?:or|and|to|of|make|makes|making|the|i|care|about|cost|aim|aims|aiming|"
                        r"ways?|out\s+there|that|which|actually|really|help|helps)\b)+"
                        r"|(?:[\s,;:/()\-–—]|\b(?:or|and|to|of|make|makes|making|the|with|for|that|which)\b)+$", re.IGNORECASE)


def without_savings_words(text: str) -> str:
    """``text`` less the words asking for a saving and saying what it is counted in: what is left to search among
    the papers that cut the cost ("reduce the cost of LLM reasoning at inference time" -> "LLM reasoning")."""
    text = _ABOUT_THE_SAVING.sub(" ", _ASKED.sub(" ", text))
    text = re.sub(r"(?:\s+[-–—/]+\s+|\s*[–—]+\s*|\s*[,;:]\s*)+",  # dashes and commas between words, not in them
                  lambda m: ", " if re.search("[,;:]", m.group()) else " - ", text)
    text = re.sub(r"(?:[,\s]+\b(?:or|and)\b)+[\s,]*$|^[\s,]*(?:\b(?:or|and)\b[\s,]+)+", " ", text)
    previous = None
    while previous != text:
        previous, text = text, _LEFT_OVER.sub("", " ".join(text.split()))
    return re.sub(r"\s+", " ", re.sub(r"(?:\s*[,-]\s*)+(?=[,-]|$)", "", text)).strip(" ,-")


_ASKING = re.compile(r"\b(?:reduc\w*|cut\w*|lower\w*|sav\w*|decreas\w*|minimi[sz]\w*|trim\w*|shrink\w*|make|makes|making|"
                     r"cheap\w*|efficien\w*|faster|speed\w*|(?:the\s+)?costs?\s+of|inference|training|test-time|at|to|run)\b",
                     re.IGNORECASE)


def what_is_saved(text: str) -> str:
    """``text`` less the verbs asking for a saving and where it is paid, the resource kept: what a question asks to
    save when it asks nothing else ("reduce reasoning token usage" -> "reasoning token usage"; "make training
    cheaper" -> "")."""
    return " ".join(_ASKING.sub(" ", text).split()).strip(" ,;-?")
