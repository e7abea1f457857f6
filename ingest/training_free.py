"""Whether a method paper's method is training-free, read off its own abstract.

Researchers ask for methods that leave the model's weights alone ("which papers propose training-free methods?",
"which of those work purely at inference time, without any extra training?"), and an abstract says so in a few set
ways: it calls its method "training-free" or "plug-and-play", says it works "without (requiring) fine-tuning" or
"bypasses training", or puts forward an inference-time or decoding method ("the first inference-time method to
leverage prefix self-consistency", "a novel inference-time algorithm"). A paper that trains its own model says that
too, and then no such phrase makes it training-free: RAPID "can be paired with any LLM reasoner without retraining"
once its MLLM is "trained with VPO", a reinforcement learning algorithm; a test-time training method updates the
model's weights on its test inputs, however much it speaks of inference.

Rules rather than a classifier, as for the kinds of contribution (``ingest.contributions``): they run on every new
paper, and 49 hand-labelled papers are too few to train on.
"""

from __future__ import annotations

import re

# How a paper says its method needs no training. "without retraining" counts only in a paper that trains nothing.
_NO_TRAINING = re.compile(
    r"\btraining[- ]free\b|\bplug-and-play\b|\bbypass\w*\s+(?:\w+\s+)?training\b"
    r"|\b(?:without|no\s+need\s+(?:for|of))\s+(?:requiring\s+|needing\s+|any\s+)*"
    r"(?:(?:model|additional|extra|further|task-specific|policy|parameter)\s+)?"
    r"(?:training|fine-?tuning|re-?training|gradient\s+updates|weight\s+updates)\b"
    r"|\b(?:requires?|needs?)\s+no\s+(?:additional\s+|extra\s+)?(?:training|fine-?tuning|re-?training)\b",
    re.IGNORECASE)
# A method put forward as one that runs at inference: "an inference-time method", "a novel decoding strategy".
_AT_INFERENCE = re.compile(r"\b(?:inference-time|decoding(?:-time)?)\s+(?:method|algorithm|strategy|technique|"
                           r"approach|procedure)\b", re.IGNORECASE)
# A paper training its own model: its own training verbs, an RL algorithm it proposes, a model "once trained",
# weights updated at test time.
_TRAINS = re.compile(
    r"\b(?:we|our\s+(?:method|approach|framework|model))\s+(?:\w+\s+){0,2}?(?:train|trains|fine-tune|fine-tunes|"
    r"finetune|post-train|pre-train|retrain)\b"
    r"|\b(?:reinforcement\s+learning|RL|policy\s+optimization)\s+(?:algorithm|framework|method|objective)\b"
    r"|\bonce\s+trained\b|\btrained\s+(?:end-to-end\s+)?(?:with|via|using|by)\b"
    r"|\btest-time\s+(?:training|adaptation)\b|\bself-training\b"
    r"|\bupdat\w*\s+(?:the\s+|its\s+)?(?:model(?:'s)?\s+)?(?:parameters|weights)\b",
    re.IGNORECASE)


def is_training_free(text: str) -> bool:
    """Whether the abstract ``text`` presents a method that needs no training of the model (see the module)."""
    return bool(_NO_TRAINING.search(text) or _AT_INFERENCE.search(text)) and not _TRAINS.search(text)


def stating_sentence(sentences: list[str]) -> str | None:
    """The first of an abstract's ``sentences`` that says its method needs no training (the quote for a question
    asking for such methods), or None."""
    return next((s for s in sentences if _NO_TRAINING.search(s) or _AT_INFERENCE.search(s)), None)
