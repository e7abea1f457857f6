"""Honest counts: the same question in two wordings should report counts of the same order (issue 43, item 3).

    python bench/paraphrases.py --home STORE

Asks each wording of ten pairs as a user would (``Assistant.ask``, ``--llm none``) and prints the number of
papers each answer says the store holds on it, the ratio of the larger count to the smaller, and the median
and the worst ratio over the pairs. The pairs were written once, before any run, to ask the same thing tersely
and in a sentence; they are not tuned on what this prints.
"""

from __future__ import annotations

import argparse
import statistics
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

PAIRS = [
    ("Which papers study watermarking of LLM-generated text?", "any papers on LLM watermarking?"),
    ("Which papers reduce reasoning token usage?", "work on making chain-of-thought reasoning shorter"),
    ("diffusion language models", "Which papers build language models that generate text by diffusion?"),
    ("test-time adaptation", "papers that adapt a model to new data at test time"),
    ("machine unlearning papers", "which papers make a trained model forget specific training data?"),
    ("Lean theorem proving", "Which papers prove theorems in Lean with language models?"),
    ("new benchmarks for LLM agents", "which papers introduce benchmarks to evaluate LLM-based agents?"),
    ("speculative decoding", "papers that speed up LLM inference by drafting tokens and verifying them"),
    ("mixture of experts", "papers on sparse mixture-of-experts models"),
    ("graph neural networks for molecules", "Which papers use GNNs on molecular graphs?"),
]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--home", type=Path, required=True, help="the store to ask (made by `assistant ingest`)")
    args = parser.parse_args()
    from assistant import Assistant, Settings

    assistant = Assistant(Settings.from_env(home=args.home, llm="none"))
    print(f"{assistant.stats().get('papers', 0):,} papers in {args.home}")
    ratios = []
    for first, second in PAIRS:
        counts = []
        for question in (first, second):
            answer = assistant.ask(question, llm="none")
            counts.append(answer.total)
            print(f"  {answer.total:6,d}  {answer.plan.kind:<12} {question}")
        ratio = max(counts) / max(min(counts), 1) if max(counts) else 1.0  # none in either: the same
        ratios.append(ratio)
        print(f"         ratio {ratio:.2f}\n")
    print(f"ratio of the larger count to the smaller: median {statistics.median(ratios):.2f}, worst {max(ratios):.2f}, "
          f"{sum(r <= 2 for r in ratios)} of {len(ratios)} pairs within 2x")


if __name__ == "__main__":
    main()
