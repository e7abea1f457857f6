"""Derive a display title for an abstract that has none.

Researchers know papers by the method, benchmark or system they introduce ("PoLR",
"LASER-D", "GDPval"), so we look for the name the abstract introduces and pair it
with its expansion or the phrase that describes it. With no such name we fall back to
the abstract's main claim, shortened.
"""

from __future__ import annotations

import re

from .contributions import OWN_VOICE

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
         r"design(?:s|ed)?|term(?:ed)?|call(?:ed)?|name[sd]?|dub(?:bed)?|coin(?:ed)?)"
# Who introduced a name, when it is not the authors: "researchers introduced", "prior work proposed".
_OTHERS_WORK = re.compile(r"\b(?:researchers|prior|previous(?:ly)?|earlier|existing|others|authors of|has been|have been|"
                          r"were|was)\s+(?:\w+\s+)?$", re.IGNORECASE)
# What a paper builds on rather than names: "an extension to PER", "builds on GRPO", "improves upon CLIP".
_EXTENDED = re.compile(r"\b(?:(?:an?\s+)?extension\s+(?:to|of)|extends?|extending|builds?\s+(?:on|upon)|improves?\s+(?:on|upon))"
                       r"\s+(?:the\s+)?\S+", re.IGNORECASE)
_TOKEN = re.compile(r"[A-Za-z0-9][A-Za-z0-9\-\.+]*[A-Za-z0-9+]|[A-Z]{2,}")
_SENTENCE = re.compile(r"(?<=[.!?])\s+(?=[A-Z*_\"'(\[])")
_LINKS = {"of", "for", "and", "the", "with", "via", "in", "on", "to", "a", "an"}
_ASIDE = re.compile(r"\s*\([^()]{1,60}\)")
_MARKUP = re.compile(r"[*_`$\\{}]+|''")


def _is_name(token: str) -> bool:
    """Looks like a coined name: inner capitals (PoLR, WebShaper) or an uncommon acronym (CRISP)."""
    core = token.strip("-.")
    if len(core) < 2 or core.upper() in COMMON or re.fullmatch(r"[\d\-.]+", core):
        return False
    if all(re.fullmatch(r"[A-Za-z]?[a-z]+", part) or part.upper() in COMMON for part in core.split("-")):
        return False  # ordinary words, maybe hyphenated: "Fine-Tuning", "KL-divergence"
    if re.fullmatch(r"[A-Z]{2,}s", core) or core.upper().rstrip("S") in COMMON:  # "LLMs", "PRMs": a class of things
        return False
    capitals = sum(ch.isupper() for ch in core)
    if core.isupper() and capitals >= 2:
        return True
    return capitals >= 2 or (capitals >= 1 and not core[0].isupper())


def _expansion(text: str, name: str, spelled: bool = True) -> str | None:
    """'Path of Least Resistance' for 'PoLR (Path of Least Resistance)' or 'Path of ... (PoLR)'."""
    after = re.search(re.escape(name) + r"\s*\(([^()]{6,80})\)", text)
    if after and len(after.group(1).split()) >= 2 and not _TOKEN.fullmatch(after.group(1)):
        return after.group(1).strip()
    before = re.search(r"((?:[A-Z][\w\-]*\s+(?:(?:of|for|and|the|with|via|in|on|to)\s+)*){1,8})\(\s*" + re.escape(name) + r"\s*\)", text)
    if before and len(before.group(1).split()) >= 2:
        return before.group(1).strip()
    return _spelled_out(text, name) if spelled else None


def _spelled_out(text: str, name: str) -> str | None:
    """'adaptive backtracking' for 'adaptive backtracking (AdaBack)': the words just before the
    name, in any case, whose initials are the name's capitals."""
    capitals = "".join(ch for ch in name if ch.isupper()).lower()
    found = re.search(r"((?:[\w\-]+\s+){1,8})\(\s*" + re.escape(name) + r"\s*\)", text)
    if len(capitals) < 2 or not found:
        return None
    words = found.group(1).split()
    for start in range(len(words) - 1, -1, -1):
        phrase = words[start:]
        initials = "".join(w[0] for w in phrase if w.lower() not in _LINKS).lower()
        if initials == capitals:
            return " ".join(phrase)
        if len(initials) > len(capitals):
            break
    return None


def _description(text: str, name: str) -> str | None:
    """The phrase after the name where it is introduced: 'ProofOptimizer, the first model ...'."""
    for found in re.finditer(re.escape(name), text):
        tail = _ASIDE.sub("", text[found.end():found.end() + 400])  # "the first RL (reinforcement ...) framework"
        match = re.match(r"\s*(?:\([^)]*\))?\s*[,:\u2014-]+\s*(?:which is\s+|that is\s+)?"
                         r"((?:a|an|the)\s[^.;:()]{10,200})", tail)
        if match:
            return _shorten(match.group(1))
    return None


def _introduced_as(text: str, name: str) -> str | None:
    """The phrase that introduces the name: 'a training-free framework' for 'we design a
    training-free framework named ST-SimDiff', 'a framework to decompose ...' for 'we
    introduce a framework (CRD) to decompose ...'."""
    for sentence in _SENTENCE.split(text):
        intro = re.search(_INTRO + r"\s+((?:a|an|the)\s.*)", sentence)
        named = intro and re.search(re.escape(name) + r"(?![\w\-])", intro.group(1))
        if not named:
            continue
        phrase = intro.group(1)
        aside = re.search(r"\s*\(\s*" + re.escape(name) + r"\s*\)", phrase)
        if aside:  # drop "(CRD)", keep what follows up to the clause's end
            rest = re.split(r",|\s(?:which|where|that is)\s", phrase[aside.end():], maxsplit=1)[0]
            phrase = phrase[:aside.start()] + rest
        else:
            phrase = re.sub(r"[\s,]*\b(?:named|called|termed|dubbed)?\s*$", "", phrase[:named.start()])
        if len(phrase.split()) >= 3:
            return _shorten(phrase)
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
    for match in re.finditer(_INTRO + r"\b([^.;]{0,80})", plain):
        if _OTHERS_WORK.search(plain[max(0, match.start() - 40):match.start()]):
            continue  # "researchers introduced Prioritized Experience Replay (PER)": not this paper's name
        window = _EXTENDED.sub(" ", match.group(1))  # "we propose an extension to PER": PER is what it extends
        called = re.match(r"\s*([A-Z][a-z]+(?:-?[A-Z0-9][\w\-]*)?)\s*[,:\u2014]\s*(?:a|an|the)\s", window)
        if called and called.group(1).upper() not in COMMON:  # "we present Echo, a model that ..."
            token = called.group(1)
        else:  # the first coined name after the verb: "introduce a framework (CRD) to ..."
            token = next((t for t in _TOKEN.findall(window) if _is_name(t)), None)
        if token:
            scores[token] = scores.get(token, 0) + 3 - window[:window.find(token)].count(" ") * 0.05
    for match in re.finditer(r"\(\s*(" + _TOKEN.pattern + r")\s*\)", plain):
        if _is_name(match.group(1)) and _expansion(plain, match.group(1), spelled=False):
            # a name defined where the authors speak ("we show that the resulting algorithm, ... (ReaPER)") is theirs
            start = max(plain.rfind(". ", 0, match.start()), 0)
            own = bool(OWN_VOICE.search(plain[start:match.start()]))
            scores[match.group(1)] = scores.get(match.group(1), 0) + (2.5 if own else 2)
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
        detail = _expansion(plain, name) or _description(plain, name) or _introduced_as(plain, name)
        return f"{name}: {detail}" if detail and detail.lower() != name.lower() else name
    return _claim(plain)


def _claim(plain: str) -> str:
    sentences = _SENTENCE.split(plain)
    for sentence in sentences:
        match = re.search(r"\b(?:we|this (?:paper|work))\s+(?:(?:start|begin) by\s+|first\s+)?"
                          r"(?:(?:show|find|prove|demonstrate|propose|present|introduce|develop)s?|developing"
                          r"|(?:\w+ly\s+)?(?:study|studies|analy[sz]es?|investigates?))\s+(?:that\s+)?(.+)",
                          sentence, re.IGNORECASE)
        shown = _shorten(match.group(1)) if match else ""
        if match and not re.search(r"\b(?:this|these|those|such|it|they)\b", shown, re.IGNORECASE):
            return shown[0].upper() + shown[1:]  # (a phrase pointing back, "calibrate these functions", needs context)
    return _shorten(sentences[0] if sentences else plain)
