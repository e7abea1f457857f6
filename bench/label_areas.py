"""Do ingest's contribution labels mean anything at real scale? Each label against the primary area that stands for it.

    python bench/label_areas.py [--corpus ../shared/corpus/iclr2026.jsonl.gz]

A paper of the "datasets and benchmarks" area mostly brings a benchmark or a dataset, one of "learning theory" a
theory, one of "infrastructure, software libraries, hardware, systems" a system. The area is one per paper, so a
benchmark filed under another area counts against the label: precision is a floor, and recall is the figure to
read. Beside each label, the plain baselines a label has to beat: the abstract holds the kind's word, or a
sentence where the authors say they bring it. No store is needed: the labeller reads each title and abstract as
ingest does (``ingest.contributions.label``).
"""

from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from corpus_sets import CORPUS, read_corpus  # noqa: E402  (bench/ is not a package)

AREAS = {"benchmark/dataset": "datasets and benchmarks", "theory": "learning theory",
         "system/tool": "infrastructure, software libraries, hardware, systems, etc."}
# the baselines: the kind's words anywhere, and the authors saying they bring one
BRINGS = r"\b(?:we|this\s+(?:paper|work))\s+(?:\w+\s+){0,2}(?:introduc|present|propos|releas|construct|build|develop|curat)\w*\s+(?:\w+\s+){0,4}"
BASELINES = {"benchmark/dataset": {"word": r"\b(?:benchmark|dataset)", "brings": BRINGS + r"(?:benchmark|dataset)"},
             "theory": {"word": r"\b(?:theorem|prove|proof|bound|guarantee)", "brings": r"\b(?:we\s+prove|theoretical\s+analysis|"
                                                                                     r"upper\s+bound|lower\s+bound|convergence\s+rate)"},
             "system/tool": {"word": r"\b(?:system|library|toolkit|framework)", "brings": BRINGS + r"(?:system|library|toolkit)"}}


def scores(rows, area: str, predicted) -> tuple[int, float, float, float]:
    hit = [predicted(r) for r in rows]
    on = [r["area"] == area for r in rows]
    tp = sum(h and o for h, o in zip(hit, on))
    chosen, relevant = sum(hit), sum(on)
    return chosen, tp / max(chosen, 1), tp / max(relevant, 1), 2 * tp / max(chosen + relevant, 1)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpus", type=Path, default=CORPUS)
    args = parser.parse_args()
    from ingest.contributions import label

    rows = [{"area": paper.get("primary_area"), "labels": label(paper.get("title", ""), paper.get("abstract", "")),
             "text": f"{paper.get('title', '')} {paper.get('abstract', '')}".lower()} for paper in read_corpus(args.corpus)]
    print(f"{len(rows):,} papers of {args.corpus.name}")
    print(f"{'label':<18} {'reader':<10} {'chosen':>7} {'P':>6} {'R':>6} {'F1':>6}")
    for kind, area in AREAS.items():
        readers = {"labeller": lambda r, kind=kind: kind in r["labels"]}
        readers.update({name: (lambda r, p=re.compile(pattern): bool(p.search(r["text"])))
                        for name, pattern in BASELINES[kind].items()})
        for name, reader in readers.items():
            chosen, p, r, f1 = scores(rows, area, reader)
            print(f"{kind:<18} {name:<10} {chosen:7,d} {p:6.3f} {r:6.3f} {f1:6.3f}")


if __name__ == "__main__":
    main()
