"""Dev-set retrieval quality with each encoder runtime, side by side.

Ingests the bundled corpus once per runtime into a fresh temporary store and runs the
same evaluation as `assistant eval tests/data/dev.jsonl --no-answers --json`.

    python bench/recall.py                      # torch, onnx, onnx-int8
    python bench/recall.py --backends torch,onnx

(`onnx-int8` is passed as an explicit Embedder, so this works before the settings accept it.)
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def measure(backend: str, dev: Path) -> dict:
    from assistant import Assistant, Settings
    from assistant.batch import read_eval_set
    from assistant.embedding import Embedder
    from assistant.evaluation import evaluate

    with tempfile.TemporaryDirectory(prefix=f"recall-{backend}-") as home:
        assistant = Assistant(Settings.from_env(env={}, home=home, llm="none"), embedder=Embedder(backend=backend))
        assistant.ingest()
        report = evaluate(assistant, read_eval_set(dev), answers=False)
        return {"backend": backend, "name": assistant.embedder.name, **report["metrics"]}


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--backends", default="torch,onnx,onnx-int8")
    parser.add_argument("--dev", type=Path, default=ROOT / "tests" / "data" / "dev.jsonl")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    rows = [measure(b, args.dev) for b in args.backends.split(",")]
    if args.json:
        print(json.dumps(rows))
        return
    keys = ["recall@5", "mrr@10", "search_precision", "search_recall", "search_abstention"]
    print(f"{'backend':<10} {'store name':<24} " + " ".join(f"{k:>17}" for k in keys))
    for row in rows:
        print(f"{row['backend']:<10} {row['name']:<24} " + " ".join(f"{row[k]:>17.3f}" for k in keys))
    base = next((r for r in rows if r["backend"] == "torch"), None)
    if base:
        for row in rows:
            if row is not base:
                print(f"recall@5 {row['backend']} - torch = {row['recall@5'] - base['recall@5']:+.3f}")


if __name__ == "__main__":
    main()
