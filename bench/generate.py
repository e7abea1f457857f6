"""Write N synthetic abstracts that look like the bundled ICLR 2026 ones.

Each abstract is a recombination of real sentences from ``data/iclr2026/*.txt``: an opening
sentence drawn from the pool of first sentences, body sentences from the middle ones, a
closing sentence from the last ones, and the number of sentences drawn from the real
distribution. One invented-method sentence ("We introduce Varnotex-17 (Adaptive Sparse
Token Routing), ...") makes every abstract unique, so every one is a separate paper, and
gives a name to search for. Same seed, same corpus, byte for byte.

    python bench/generate.py --n 20000 --format jsonl --out $BENCH/20k.jsonl
    python bench/generate.py --n 1000 --format txt --out $BENCH/1k.txt
"""

from __future__ import annotations

import argparse
import json
import random
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SEED_DIR = ROOT / "data" / "iclr2026"

_BOUNDARY = re.compile(r"(?<=[.!?])\s+(?=[A-Z(\[])")
_SYLLABLES = ("ar", "bel", "cor", "dax", "el", "fen", "gor", "hal", "ix", "jun", "kev", "lor", "mar", "nex", "or",
              "pax", "quin", "ros", "sel", "tor", "ul", "vex", "wen", "xan", "yor", "zel", "thra", "dri", "plo", "stra")
_WORDS_A = ("Adaptive", "Sparse", "Hierarchical", "Contrastive", "Latent", "Causal", "Recursive", "Efficient",
            "Robust", "Spectral", "Probabilistic", "Modular", "Dynamic", "Implicit", "Multi-scale", "Gated")
_WORDS_B = ("Token", "Reward", "Memory", "Attention", "Policy", "Graph", "Diffusion", "Retrieval", "Reasoning",
            "Feature", "Gradient", "Context", "Prompt", "Expert", "Value", "Search")
_WORDS_C = ("Routing", "Alignment", "Distillation", "Compression", "Planning", "Calibration", "Pruning",
            "Decoding", "Optimization", "Regularization", "Merging", "Estimation", "Tuning", "Sampling")
_TASKS = ("long-context question answering", "mathematical reasoning", "code generation", "image synthesis",
          "molecular property prediction", "offline reinforcement learning", "video understanding",
          "speech recognition", "theorem proving", "tabular classification", "robot manipulation",
          "time-series forecasting", "graph link prediction", "machine translation", "3D reconstruction")
_VERBS = ("introduce", "propose", "present")


def seed_abstracts(folder: Path = SEED_DIR) -> list[str]:
    """The bundled abstracts: blank-line separated blocks, header lines (no final period) dropped."""
    out = []
    for path in sorted(folder.glob("*.txt")):
        for block in re.split(r"\n\s*\n", path.read_text(encoding="utf-8")):
            text = " ".join(block.split())
            if len(text) >= 200 and text.endswith((".", "!", "?", ")")):
                out.append(text)
    return out


def split_sentences(text: str) -> list[str]:
    return [s.strip() for s in _BOUNDARY.split(text) if len(s.strip()) > 20]


class Generator:
    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)
        abstracts = seed_abstracts()
        if not abstracts:
            sys.exit(f"no abstracts found in {SEED_DIR}")
        self.first, self.middle, self.last, self.lengths = [], [], [], []
        for text in abstracts:
            sentences = split_sentences(text)
            if len(sentences) < 3:
                continue
            self.lengths.append(len(sentences))
            self.first.append(sentences[0])
            self.last.append(sentences[-1])
            self.middle.extend(sentences[1:-1])
        self.used_names: set[str] = set()

    def name(self, index: int) -> str:
        """A unique invented method name: syllables plus the index, e.g. 'Korvexan-417'."""
        rng = self.rng
        while True:
            stem = "".join(rng.choice(_SYLLABLES) for _ in range(rng.randint(2, 3))).capitalize()
            if rng.random() < 0.4:  # some names look like acronyms with inner capitals, like real ones
                stem = stem[:-1] + stem[-1].upper() + rng.choice("RLMDX")
            name = f"{stem}-{index}"
            if name not in self.used_names:
                self.used_names.add(name)
                return name

    def abstract(self, index: int) -> dict:
        rng = self.rng
        n = max(3, rng.choice(self.lengths) + rng.randint(-1, 1))
        body = rng.sample(self.middle, k=min(n - 2, len(self.middle)))
        name = self.name(index)
        expansion = f"{rng.choice(_WORDS_A)} {rng.choice(_WORDS_B)} {rng.choice(_WORDS_C)}"
        intro = (f"We {rng.choice(_VERBS)} {name} ({expansion}), a method for {rng.choice(_TASKS)} "
                 f"that {rng.choice(('reduces', 'improves', 'stabilizes', 'scales'))} "
                 f"{rng.choice(('training cost', 'sample efficiency', 'inference latency', 'accuracy', 'robustness'))}.")
        sentences = [rng.choice(self.first)] + body + [rng.choice(self.last)]
        sentences.insert(rng.randint(1, max(1, len(sentences) - 1)), intro)
        return {"id": f"bench-{index:06d}", "title": f"{name}: {expansion}", "abstract": " ".join(sentences),
                "venue": "BENCH 2026", "year": 2026, "name": name}


def write(n: int, fmt: str, out: Path, seed: int = 0) -> Path:
    gen = Generator(seed)
    out.parent.mkdir(parents=True, exist_ok=True)
    with out.open("w", encoding="utf-8") as fh:
        if fmt == "txt":
            fh.write("BENCH 2026 Papers\n\n")
        for i in range(n):
            row = gen.abstract(i)
            if fmt == "jsonl":
                fh.write(json.dumps({k: v for k, v in row.items() if k != "name"}, ensure_ascii=False) + "\n")
            else:
                fh.write(row["abstract"] + "\n\n")
    return out


def names(n: int, seed: int = 0) -> list[str]:
    """The method names of the first ``n`` abstracts of ``seed`` (for building queries)."""
    gen = Generator(seed)
    return [gen.abstract(i)["name"] for i in range(n)]


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--n", type=int, default=1000, help="number of abstracts")
    parser.add_argument("--format", choices=("jsonl", "txt"), default="jsonl")
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    path = write(args.n, args.format, args.out, args.seed)
    print(f"wrote {args.n} abstracts to {path} ({path.stat().st_size / 1e6:.1f} MB)")


if __name__ == "__main__":
    main()
