"""What labelling costs at ingest: the kinds of contribution and the main contribution of each abstract
of a JSON Lines corpus, timed against the ingest time you give.

    python bench/generate.py --n 20000 --format jsonl --out $BENCH/20k.jsonl
    python bench/labels.py --corpus $BENCH/20k.jsonl --ingest-seconds 299.2

Prints, for labels alone (``ingest.contributions.label``) and for what ingest runs
(``ingest.main_contribution.read``: labels and main contribution in one reading), the best of
``--rounds`` runs: seconds in all, milliseconds an abstract, and the share of the ingest time.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--corpus", type=Path, required=True, help="JSON Lines with title and abstract (or text)")
    parser.add_argument("--ingest-seconds", type=float, help="the ingest time of the same corpus, for the share")
    parser.add_argument("--rounds", type=int, default=2)
    args = parser.parse_args(argv)

    from ingest.contributions import label
    from ingest.main_contribution import read

    rows = [json.loads(line) for line in args.corpus.read_text(encoding="utf-8").splitlines() if line.strip()]
    papers = [(str(r.get("title") or ""), str(r.get("abstract") or r.get("text") or "")) for r in rows]
    for name, work in (("labels", label), ("labels + main contribution (what ingest runs)", read)):
        best = float("inf")
        for _ in range(args.rounds):
            started = time.perf_counter()
            for title, text in papers:
                work(title, text)
            best = min(best, time.perf_counter() - started)
        share = f"; {100 * best / args.ingest_seconds:.1f}% of the {args.ingest_seconds:g} s ingest" \
            if args.ingest_seconds else ""
        print(f"{name}: {best:.2f} s for {len(papers):,} abstracts, {1000 * best / len(papers):.3f} ms each{share}")


if __name__ == "__main__":
    main()
