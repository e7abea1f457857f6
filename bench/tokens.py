"""Encoder work per abstract: word pieces our chunks feed the model against the llama-index default path's.

Ours: sentence-aligned chunks of <= ASSISTANT_CHUNK_TOKENS pieces (+2 special tokens each), every
piece of the abstract embedded. The baseline: one node per abstract (metadata lines + text), cut
by the model at 256 pieces.

    python bench/tokens.py --corpus $BENCH/1000.jsonl
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != ROOT / "bench"]
sys.path.insert(0, str(ROOT))


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--corpus", type=Path, required=True, help="a bench/generate.py JSONL file")
    parser.add_argument("--limit", type=int, default=1000)
    args = parser.parse_args(argv)

    from assistant.embedding import Embedder
    from assistant.settings import Settings
    from ingest.pipeline import Chunker

    embedder = Embedder(backend="onnx")  # tokenizer only: no model is loaded
    rows = [json.loads(line) for line, _ in zip(args.corpus.open(encoding="utf-8"), range(args.limit))]
    settings = Settings.from_env()
    chunker = Chunker(embedder, settings)
    chunks = [chunker.split(r["abstract"]) for r in rows]
    ours = sum(len(embedder.tokenize(c)) + 2 for cs in chunks for c in cs) / len(rows)
    whole = sum(len(embedder.tokenize(r["abstract"])) + 2 for r in rows) / len(rows)
    base = sum(min(256, len(embedder.tokenize("\n".join(f"{k}: {r[k]}" for k in ("title", "venue", "year") if k in r)
                                                + "\n\n" + r["abstract"])) + 2) for r in rows) / len(rows)
    print(f"{len(rows)} abstracts, chunks of {settings.chunk_tokens}/{settings.chunk_overlap}: "
          f"{sum(map(len, chunks)) / len(rows):.2f} chunks per abstract")
    print(f"word pieces per abstract: ours {ours:.0f}; whole abstract {whole:.0f}; llama-index default (256 cap) {base:.0f}; "
          f"ratio {ours / base:.2f}")


if __name__ == "__main__":
    main()
