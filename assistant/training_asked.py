"""What a question asks of how each paper's method uses training: none at all ("training-free methods", "which of
those work purely at inference time, without any extra training?") or some ("which of these actually train the
model rather than only changing inference?", "which of those need RL training").

Ingest labels the papers whose method needs no training (the method form "training-free": ``ingest.training_free``);
a plan holding ``training`` keeps those papers ("free") or leaves them out ("required"), and searches the rest of
the question as its topic. The words are those of the property, not of any question set: the labelled sets ask it
in 30-odd ways, most of them in the patterns below.
"""

from __future__ import annotations

import re

FREE, REQUIRED = "free", "required"

_NOT_WHAT = r"(?![\s-]+(?:data|sets?|examples?|samples?|corpus|corpora|signals?|labels?|runs?|dynamics|stability|costs?)\b)"
_TRAINING = (r"(?:(?:rl|model|extra|additional|further|any|gradient|weight)\s+)?(?:training|fine-?tun\w*|finetun\w*|re-?training|"
             r"updates)" + _NOT_WHAT)  # not "training data": what is trained on, or how training behaves
# No training: "training-free", "without (any) fine-tuning", "need no training", "purely at inference", "no finetune"
_NONE = re.compile(r"\btraining[- ]free\b|\bplug-and-play\b"
                   r"|\b(?:without|w/o|no)\s+(?:any\s+|the\s+need\s+(?:for|of)\s+)?" + _TRAINING + r"\b"
                   r"|\b(?:need|needs|require|requires|requiring)\s+no\s+(?:\w+\s+)?" + _TRAINING + r"\b"
                   r"|\b(?:purely|only|just)\s+(?:run\s+|work\s+|working\s+)?(?:at|during)\s+(?:inference|test|decoding)(?:[\s-]time)?\b",
                   re.IGNORECASE)
# Training: "actually train the model", "require training or fine-tuning the model", "changing how the model is
# trained", "changing the training of the model", "need RL training"; not "training LLMs with RL" or "train LLMs to
# produce embeddings", which say what the papers are about
_SOME = re.compile(r"\bactually\s+\*?(?:train|trains|retrain|retrains|fine-tune|fine-tunes)\b\*?|\*(?:train|trains)\*"
                   r"|\b(?:train|trains|retrain|retrains|fine-tune|fine-tunes)\s+(?:the|their)\s+(?:model|models|llm|policy|network)\b"
                   r"|\b(?:need|needs|require|requires|requiring)\s+(?:(?:extra|additional|any|some|further|model)\s+)?"
                   r"(?:training|fine-?tuning|re-?training)\b" + _NOT_WHAT +  # not "need RL training": what kind is asked
                   r"|\bchang\w*\s+(?:how\s+the\s+model\s+is\s+trained|the\s+training)\b",
                   re.IGNORECASE)
# What sets training aside before it is said: "want to avoid any approach that requires fine-tuning the model",
# "methods that don't need any finetuning"
# ... or asks whether it is ("grouped by whether they need any training of the LLM")
_AVOIDING = re.compile(r"(?:\b(?:avoid\w*|exclud\w*|without|no|not|never|rather\s+than|instead\s+of|whether|dont|doesnt)\b|n[’']t\b)"
                       r"[^,;.?!]*$", re.IGNORECASE)
# An alternative to what was asked before it: "papers that combine sampled paths -- or train the model to reason in
# parallel"
_ALTERNATIVE = re.compile(r"\bor\s+$", re.IGNORECASE)
# What a question sets against the kind it asks for: "..., rather than only changing inference", "instead of just
# sampling many paths at inference"
_CONTRAST = re.compile(r"\s*(?:,\s*)?\b(?:rather\s+than|instead\s+of|as\s+opposed\s+to|not\s+just|not\s+only)\b[^,;?!]*",
                       re.IGNORECASE)


def training_asked(question: str) -> str:
    """``FREE`` when ``question`` asks for methods that need no training, ``REQUIRED`` when it asks for ones that
    train the model, "" when it asks neither."""
    asked = _CONTRAST.sub(" ", question)
    some = _SOME.search(asked)
    if some and _ALTERNATIVE.search(asked[:some.start()]):  # "papers that combine paths -- or train the model to": both
        return ""
    if some and not _AVOIDING.search(asked[:some.start()]):
        return REQUIRED
    if _NONE.search(asked) or some:  # "avoid any approach that requires fine-tuning": none
        return FREE
    return ""


_WORDS = re.compile(r"\s*,?\s*(?:(?:and|or|i\.e\.|e\.g\.)\s+)?(?:that\s+|which\s+)?"
                    # "say their method is training-free", "pitch it as training-free": how a paper states the property
                    r"(?:(?:explicitly\s+|clearly\s+)?(?:say|says|state|states|claim|claims|pitch|pitches|describe|describes|"
                    r"present|presents)\s+(?:that\s+)?(?:their|its|the|it)\s*(?:own\s+)?(?:method|approach|work)?\s*(?:is|as)?\s+)?"
                    r"(?:(?:is|are|were|was)\s+)?(?:explicitly\s+)?"
                    r"(?:" + _NONE.pattern + "|" + _SOME.pattern + r")"
                    r"(?:\s*(?:,|or|and|/)\s*(?:(?:rl|extra|additional|any)\s+)?(?:training|fine-?tun\w*|finetun\w*|re-?training)\b)*"  # "or RL training"
                    r"(?:\s+(?:of\s+)?(?:the\s+)?(?:model|llms|llm)\b(?:\s+itself)?(?:\s+at\s+all)?)?", re.IGNORECASE)


def without_training_words(text: str) -> str:
    """``text`` without the words asking about training, what is left to search: "propose training-free methods for
    video" -> "propose methods for video"."""
    return " ".join(_WORDS.sub(" ", text).split()).strip(" ,;-")
