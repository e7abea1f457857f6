"""Derive a display title for an abstract that has none.

Researchers know papers by the method, benchmark or system they introduce ("PoLR",
"LASER-D", "GDPval"), so we look for the name the abstract introduces and pair it
with its expansion or the phrase that describes it. With no such name we fall back to
the abstract's main claim, shortened.
"""

from __future__ import annotations

import re

MAX_WORDS = 10
# Acronyms of the field, not names of a paper's contribution.
COMMON = {
    "AI", "ML", "NLP", "LLM", "LLMS", "VLM", "VLMS", "MLLM", "MLLMS", "LM", "LMS", "RL", "RLHF", "RLVR",
    "SFT", "GPT", "GPU", "GPUS", "TPU", "TPUS", "CPU", "CNN", "CNNS", "RNN", "MLP", "SSM", "SSMS", "GD",
    "SGD", "API", "APIS", "QA", "SOTA", "CLIP", "BERT", "MTEB", "GNN", "GNNS", "KL", "PPO", "DPO", "GRPO",
    "COT", "OOD", "IID", "ODE", "PDE", "PDES", "FLOPS", "US", "UK", "EU", "IT", "II", "III", "IV", "ICLR",
    "VELO", "XL", "NERF", "3D", "2D", "RGB", "AUC", "F1", "BLEU", "ROUGE", "LORA", "MOE", "VAE", "GAN",
    "GANS", "ADAM", "MMLU", "GSM8K", "MATH", "COCO", "IMAGENET", "MSE", "LRM", "LRMS", "PRM", "IS", "RAG", "KV", "TTS", "ASR", "OCR", "MCTS", "ELO", "MIT", "NVIDIA",
}
_INTRO = r"(?:introduce[sd]?|introducing|propose[sd]?|proposing|present(?:s|ed)?|presenting|develop(?:s|ed)?|" \
         r"term(?:ed)?|call(?:ed)?|name[sd]?|dub(?:bed)?|coin(?:ed)?)"
_TOKEN = re.compile(r"[A-Za-z0-9][A-Za-z0-9\-\.+]*[A-Za-z0-9+]|[A-Z]{2,}")
_SENTENCE = re.compile(r"(?<=[.!?])\s+(?=[A-Z*_\"'(\[])")
_MARKUP = re.compile(r"[*_`$\\{}]+")


def _is_name(token: str) -> bool:
    """Looks like a coined name: inner capitals (PoLR, WebShaper) or an uncommon acronym (CRISP)."""
    core = token.strip("-.")
    if len(core) < 2 or core.upper() in COMMON or re.fullmatch(r"[\d\-.]+", core):
        return False
    if re.fullmatch(r"[A-Z][a-z]+(?:-[a-z]+)*", core):  # an ordinary capitalised word
        return False
    if re.fullmatch(r"[A-Z]{2,}s", core) or core.upper().rstrip("S") in COMMON:  # "LLMs", "PRMs": a class of things
        return False
    capitals = sum(ch.isupper() for ch in core)
    if core.isupper() and capitals >= 2:
        return True
    return capitals >= 2 or (capitals >= 1 and not core[0].isupper())


def _expansion(text: str, name: str) -> str | None:
    """'Path of Least Resistance' for 'PoLR (Path of Least Resistance)' or 'Path of ... (PoLR)'."""
    after = re.search(re.escape(name) + r"\s*\(([^()]{6,80})\)", text)
    if after and len(after.group(1).split()) >= 2 and not _TOKEN.fullmatch(after.group(1)):
        return after.group(1).strip()
    before = re.search(r"((?:[A-Z][\w\-]*\s+(?:(?:of|for|and|the|with|via|in|on|to)\s+)*){1,8})\(\s*" + re.escape(name) + r"\s*\)", text)
    if before and len(before.group(1).split()) >= 2:
        return before.group(1).strip()
    return None


def _description(text: str, name: str) -> str | None:
    """The phrase after the name where it is introduced: 'ProofOptimizer, the first model ...'."""
    match = re.search(re.escape(name) + r"\s*(?:\([^)]*\))?\s*[,:\u2014-]+\s*(?:which is\s+|that is\s+)?"
                      r"((?:a|an|the)\s[^.;:()]{10,200})", text)
    if match:
        return _shorten(match.group(1))
    return None


def _shorten(phrase: str, words: int = MAX_WORDS) -> str:
    parts = phrase.strip(" ,;:").split()
    short = " ".join(parts[:words])
    short = re.sub(r"\s+(?:and|or|of|to|for|with|that|which|by|in|on|the|a|an|,)$", "", short.rstrip(","))
    return short + ("…" if len(parts) > words else "")


def find_name(text: str) -> str | None:
    """The name the abstract introduces, if any."""
    plain = _MARKUP.sub("", text)
    scores: dict[str, float] = {}
    for match in re.finditer(_INTRO + r"\b[^.;]{0,80}?\b(" + _TOKEN.pattern + r")", plain):
        token = match.group(1)
        if _is_name(token):
            scores[token] = scores.get(token, 0) + 3 - match.group(0).count(" ") * 0.05
    for match in re.finditer(r"\(\s*(" + _TOKEN.pattern + r")\s*\)", plain):
        if _is_name(match.group(1)) and _expansion(plain, match.group(1)):
            scores[match.group(1)] = scores.get(match.group(1), 0) + 2
    for match in re.finditer(r"\b(" + _TOKEN.pattern + r")\b", plain):
        token = match.group(1)
        if token in scores:
            scores[token] += 0.5
        elif _is_name(token):
            scores[token] = scores.get(token, 0) + 0.25
    best = max(scores.items(), key=lambda kv: kv[1], default=(None, 0.0))
    return best[0] if best[1] >= 1.0 else None


def derive_title(text: str) -> str:
    """A short display title: 'Name: expansion or description', else the main claim, shortened."""
    plain = _MARKUP.sub("", text)
    name = find_name(text)
    if name:
        detail = _expansion(plain, name) or _description(plain, name)
        return f"{name}: {detail}" if detail and detail.lower() != name.lower() else name
    return _claim(plain)


def _claim(plain: str) -> str:
    sentences = _SENTENCE.split(plain)
    for sentence in sentences:
        match = re.search(r"\b(?:we|this (?:paper|work))\s+(?:show|find|prove|demonstrate|study|analy[sz]e|investigate|"
                          r"propose|present|introduce)s?\s+(?:that\s+)?(.+)", sentence, re.IGNORECASE)
        if match:
            phrase = match.group(1)
            return _shorten(phrase[0].upper() + phrase[1:])
    return _shorten(sentences[0] if sentences else plain)
