"""Question sets made from the real corpus itself, where no phrase rule can help (issue: measure at scale).

- ``tldr``: each paper's one-line tldr, as a researcher's description of the paper it came from;
- ``keyword``: "papers on <keyword>" for keywords carried by 10-300 papers, gold every paper carrying it
  (the keyword field must be left out of the index for that run);
- ``name``: a paper's coined name, the part of its title before the colon ("CyberV"), asked bare and in a
  sentence; only names no other title starts with.

Every set is split by paper (``half``): ``fit`` for what is fitted, ``report`` for what is reported, so no
figure is measured on the papers a weight was chosen on.

    from bench.corpus_sets import read_corpus, tldr_set
    papers = read_corpus(CORPUS, every=10)
"""

from __future__ import annotations

import gzip
import hashlib
import json
import random
import re
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CORPUS = ROOT.parent / "shared" / "corpus" / "iclr2026.jsonl.gz"


def read_corpus(path: Path = CORPUS, every: int = 1) -> list[dict]:
    """The corpus's papers (every ``every``-th line, from the first), with keywords as a clean list."""
    out = []
    opener = gzip.open if str(path).endswith(".gz") else open
    with opener(path, "rt", encoding="utf-8") as fh:
        for number, line in enumerate(fh):
            if number % every:
                continue
            row = json.loads(line)
            row["keywords"] = keywords_of(row.get("keywords"))
            out.append(row)
    return out


def keywords_of(raw) -> list[str]:
    items = raw if isinstance(raw, list) else [raw] if raw else []
    return [k.strip().lower() for item in items for k in re.split(r"[;,]", str(item)) if k.strip()]


def half(paper: dict) -> str:
    """"fit" or "report", fixed by the paper's OpenReview id."""
    return "fit" if hashlib.sha1(paper["id"].encode()).digest()[0] % 2 == 0 else "report"


def tldr_set(papers: list[dict], n: int, seed: int = 0) -> list[dict]:
    usable = [p for p in papers if len(p.get("tldr") or "") >= 40 and p["tldr"].strip() not in p["abstract"]]
    chosen = random.Random(seed).sample(usable, min(n, len(usable)))
    return [{"query": p["tldr"].strip(), "gold": [p["id"]], "half": half(p)} for p in chosen]


def keyword_set(papers: list[dict], n: int, seed: int = 0, low: int = 10, high: int = 300) -> list[dict]:
    carriers: dict[str, list[str]] = {}
    for p in papers:
        for k in dict.fromkeys(p["keywords"]):
            carriers.setdefault(k, []).append(p["id"])
    usable = sorted(k for k, ids in carriers.items() if low <= len(ids) <= high and len(k) >= 3)
    chosen = random.Random(seed).sample(usable, min(n, len(usable)))
    # a keyword's half: its name's hash (the gold papers of one keyword fall in both halves)
    return [{"query": f"papers on {k}", "gold": carriers[k],
             "half": "fit" if hashlib.sha1(k.encode()).digest()[0] % 2 == 0 else "report"} for k in chosen]


_COINED = re.compile(r"^([A-Za-z][\w\-$^{}\\.+]*?)\s*:\s+\S")


def name_set(papers: list[dict], n: int, seed: int = 0) -> list[dict]:
    """Titles "Name: what it is" whose Name is one coined word (a capital inside, or a digit)."""
    names: dict[str, list[dict]] = {}
    for p in papers:
        m = _COINED.match(p["title"])
        if m and "$" not in m.group(1) and "\\" not in m.group(1):
            word = m.group(1)
            if re.search(r"[a-z][A-Z]|[A-Z]{2}|\d", word) and len(word) >= 3:
                names.setdefault(word.lower(), []).append(p)
    usable = sorted(k for k, ps in names.items() if len(ps) == 1)
    chosen = random.Random(seed).sample(usable, min(n, len(usable)))
    forms = ["{name}", "what is {name}?", "how does {name} work", "{lower} results"]
    out = []
    for i, key in enumerate(chosen):
        p = names[key][0]
        name = _COINED.match(p["title"]).group(1)
        out.append({"query": forms[i % len(forms)].format(name=name, lower=name.lower()), "gold": [p["id"]],
                    "half": half(p)})
    return out


def keyword_counts(papers: list[dict]) -> Counter:
    return Counter(k for p in papers for k in dict.fromkeys(p["keywords"]))
