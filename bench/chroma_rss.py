"""Memory of Chroma's embedded client alone: the pipeline's writes with random vectors, no model.

Writes N papers as the ingest does (chunks of ~230 characters with their metadata into one
collection, one record per paper into another, 256 papers per window) and prints how much
resident memory and malloc'd memory grew per paper. ``--variant`` tries a client or
collection setting:

- ``plain``: as ``assistant.store`` opens collections today;
- ``sync``: hnsw ``sync_threshold=100000, batch_size=10000`` (fewer, larger index updates);
- ``reopen``: a new client and collections after every window (drop Chroma's caches);
- ``trim``: ``malloc_trim(0)`` after every window (as ``assistant.memory`` does for the ingest).

    python bench/chroma_rss.py --papers 3000 --variant plain
"""

from __future__ import annotations

import argparse
import ctypes
import json
import os
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != ROOT / "bench"]
sys.path.insert(0, str(ROOT))

from bench.memprofile import malloc_in_use_mb  # noqa: E402
from bench.procs import status_mb  # noqa: E402


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--papers", type=int, default=3000)
    parser.add_argument("--variant", choices=("plain", "sync", "reopen", "trim"), default="plain")
    parser.add_argument("--data", type=Path, default=Path(tempfile.gettempdir()) / "bench")
    args = parser.parse_args(argv)
    os.environ.setdefault("ANONYMIZED_TELEMETRY", "False")
    import chromadb
    import numpy as np
    from chromadb.config import Settings as ChromaSettings

    from bench.ingest import corpus_for

    corpus = corpus_for(max(args.papers, 1000), args.data)
    texts = [json.loads(line)["abstract"] for _, line in zip(range(args.papers), corpus.open(encoding="utf-8"))]
    config = {"hnsw": {"space": "cosine"}}
    if args.variant == "sync":
        config["hnsw"].update(sync_threshold=100_000, batch_size=10_000)
    rng = np.random.default_rng(0)
    with tempfile.TemporaryDirectory(prefix="bench-chroma-") as path:
        def open_all():
            client = chromadb.PersistentClient(path=path, settings=ChromaSettings(anonymized_telemetry=False))
            return (client, client.get_or_create_collection("chunks", configuration=config, embedding_function=None),
                    client.get_or_create_collection("papers", configuration=config, embedding_function=None))

        client, chunks, papers = open_all()
        rss0, used0 = status_mb("VmRSS"), malloc_in_use_mb()
        n_chunks = 0
        for start in range(0, args.papers, 256):
            ids, metas = [], []
            window = range(start, min(start + 256, args.papers))
            for i in window:
                for k, j in enumerate(range(0, len(texts[i]), 230)):  # chunk records as the store writes them
                    ids.append(f"{i:016x}:{k}")
                    metas.append({"paper_id": f"{i:016x}", "files": [corpus.name], "start": j, "end": j + 230})
            vectors = rng.standard_normal((len(ids), 384)).astype(np.float32)
            for s in range(0, len(ids), 1000):
                chunks.upsert(ids=ids[s:s + 1000], embeddings=vectors[s:s + 1000], metadatas=metas[s:s + 1000])
            papers.upsert(ids=[f"{i:016x}" for i in window],
                          embeddings=np.ones((len(window), 1), dtype=np.float32),
                          documents=[texts[i] for i in window],
                          metadatas=[{"title": "t" * 60, "sources": "s" * 200, "files": [corpus.name], "n_chunks": 7}] * len(window))
            n_chunks += len(ids)
            if args.variant == "reopen":
                del chunks, papers, client
                client, chunks, papers = open_all()
            elif args.variant == "trim":
                ctypes.CDLL("libc.so.6").malloc_trim(0)
        per = 1024 / args.papers
        print(f"{args.variant}: {args.papers:,} papers, {n_chunks:,} chunks: RSS {status_mb('VmRSS'):.0f} MB "
              f"(+{(status_mb('VmRSS') - rss0) * per:.1f} KB/paper), peak {status_mb('VmHWM'):.0f} MB, "
              f"malloc in use +{(malloc_in_use_mb() - used0) * per:.1f} KB/paper")


if __name__ == "__main__":
    main()
