"""Ingest throughput and peak memory: our pipeline against llama-index's default path, same corpus, same run.

For every size, each contender runs in its own fresh subprocess on a fresh temporary store:

- ``ours[BACKEND]``: ``Assistant(Settings(home=TMP)).ingest([corpus])`` with the given encoder
  runtime (torch, onnx, onnx-int8); includes parsing, chunking, embedding, Chroma writes and
  the BM25 build that ``ingest`` does.
- ``llama-index``: ``VectorStoreIndex.from_documents(documents, storage_context=StorageContext.from_defaults(
  vector_store=ChromaVectorStore(chroma_collection=...)), embed_model=HuggingFaceEmbedding(model_name=<packaged
  all-MiniLM-L6-v2 folder>))`` at default settings; includes reading the JSONL into Documents.

Both load their model before the clock starts (one warm-up embedding). Throughput is abstracts
per wall-clock second; CPU seconds are printed too, since the machine may be shared. Peak RSS is
the child's ru_maxrss (os.wait4), i.e. the whole process including the model, plus, when our
ingest encodes in a child process of its own (ASSISTANT_EMBED_PROCESS, on by default), that
process's peak, sampled while it runs. Our CPU seconds include the encoder process's.
``ASSISTANT_EMBED_PROCESS=0 python bench/ingest.py ...`` measures the in-process encoder.

    python bench/ingest.py --sizes 1000                       # quick: 1k, every contender
    python bench/ingest.py --sizes 1000,20000 --baseline-sizes 1000,20000 --backends onnx-int8
    python bench/ingest.py --sizes 20000 --keep-home $BENCH/home-20k   # keep our store for bench/search.py
    python bench/ingest.py --sizes 1000,20000 --baseline-sizes '' --chroma-server   # ours, writing to `chroma run`

With ``--chroma-server`` our pipeline writes to a Chroma server started on loopback for each
run (``chroma run --path TMP``, as in README's "Scaling out"), and the server's own peak RSS
is printed beside the ingest process's: the vector index then lives in the server.

Corpora are generated with bench/generate.py (seed 0) into --data if missing. With ``--real``, a size is instead
a slice of the real conference (``../shared/corpus/iclr2026.jsonl.gz``): every Nth paper, N = 19,622 // size
(2,000 gives every 9th line, 2,181 papers), or the whole of it for a size of 19,622 or more:

    python bench/ingest.py --real --sizes 2000            # the real 2,000-paper slice, both contenders
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
# This file is named like the `ingest` package: keep bench/ off the path so `import ingest` finds the package.
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != ROOT / "bench"]
sys.path.insert(0, str(ROOT))

from bench.procs import ChildPeaks, chroma_server, status_mb  # noqa: E402


# -- the workers (each in its own process) ------------------------------------------------
def _cpu() -> float:
    """CPU seconds of this process and of its children that have ended (the encoder process)."""
    t = os.times()
    return t.user + t.system + t.children_user + t.children_system


def work_ours(corpus: Path, home: Path, backend: str, chroma_url: str | None = None) -> dict:
    from assistant import Assistant, Settings
    from assistant.embedding import Embedder

    passed = {k: v for k, v in os.environ.items() if k == "ASSISTANT_EMBED_PROCESS"}  # nothing else of the caller's
    settings = Settings.from_env(env=passed, home=home, llm="none", chroma_url=chroma_url)
    assistant = Assistant(settings, embedder=Embedder(backend=backend))
    if settings.embed_process and backend != "torch":
        # The encoder process loads the model itself, on the clock (~1 s); this process never does.
        assistant.embedder.model_file()  # the one-time export, off the clock
    else:
        assistant.embedder.embed(["warm up the encoder"])
    marks = {"model_loaded_mb": status_mb("VmHWM")}
    lexical = assistant.lexical
    build = lexical.sync

    def sync():  # Assistant.ingest calls this once, after the pipeline: split the peak in two
        marks["pipeline_peak_mb"] = status_mb("VmHWM")
        marks["pipeline_s"] = time.perf_counter() - started
        build()

    lexical.sync = sync
    started, cpu = time.perf_counter(), _cpu()
    with ChildPeaks() as children:
        report = assistant.ingest([corpus])
    seconds = time.perf_counter() - started
    if report.changed and "pipeline_peak_mb" not in marks:  # the split above would be silently missing
        raise RuntimeError("Assistant.ingest no longer calls LexicalIndex.sync: update work_ours in bench/ingest.py")
    encoder = children.peak_of("ingest.encoder_process")  # the encoder process
    return {"seconds": seconds, "cpu": _cpu() - cpu, "papers": report.papers, "chunks": report.chunks,
            "added": report.added, **marks, "bm25_s": seconds - marks.get("pipeline_s", seconds),
            "encoder_peak_mb": encoder, "together_mb": children.together_mb if encoder else 0.0}


def work_baseline(corpus: Path, home: Path) -> dict:
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    os.environ.setdefault("ANONYMIZED_TELEMETRY", "False")
    import chromadb
    from chromadb.config import Settings as ChromaSettings
    from llama_index.core import Document, StorageContext, VectorStoreIndex
    from llama_index.embeddings.huggingface import HuggingFaceEmbedding
    from llama_index.vector_stores.chroma import ChromaVectorStore

    from assistant.embedding import packaged_model_path

    embed_model = HuggingFaceEmbedding(model_name=str(packaged_model_path()))
    embed_model.get_text_embedding("warm up the encoder")
    client = chromadb.PersistentClient(path=str(home / "chroma"), settings=ChromaSettings(anonymized_telemetry=False))
    started, cpu = time.perf_counter(), _cpu()
    documents = []
    with corpus.open(encoding="utf-8") as fh:
        for line in fh:
            row = json.loads(line)
            documents.append(Document(text=row["abstract"], id_=row["id"],
                                      metadata={k: row[k] for k in ("title", "venue", "year") if k in row}))
    collection = client.get_or_create_collection("baseline", embedding_function=None)
    storage_context = StorageContext.from_defaults(vector_store=ChromaVectorStore(chroma_collection=collection))
    VectorStoreIndex.from_documents(documents, storage_context=storage_context, embed_model=embed_model)
    seconds = time.perf_counter() - started
    return {"seconds": seconds, "cpu": _cpu() - cpu, "papers": len(documents), "chunks": collection.count()}


# -- the driver ------------------------------------------------------------------------------
def run_child(args: list[str]) -> dict:
    """Run a worker; returns its JSON plus its peak RSS (MB) from the kernel's accounting."""
    started = time.monotonic()
    with tempfile.TemporaryFile("w+") as errors:
        proc = subprocess.Popen([sys.executable, "-X", "utf8", str(Path(__file__).resolve()), *args],
                                stdout=subprocess.PIPE, stderr=errors, text=True, cwd=ROOT)
        out = proc.stdout.read()
        proc.stdout.close()
        _pid, status, usage = os.wait4(proc.pid, 0)  # this child's own rusage, not the max over all children
        proc.returncode = os.waitstatus_to_exitcode(status)
        errors.seek(0)
        err = errors.read()
    if proc.returncode != 0:
        tail = "\n".join(err.strip().splitlines()[-15:])
        raise SystemExit(f"worker {' '.join(args)} failed ({proc.returncode}) after {time.monotonic() - started:.0f}s:\n{tail}")
    result = json.loads(out.strip().splitlines()[-1])
    result["process_peak_mb"] = usage.ru_maxrss / 1024  # Linux: KiB
    # with an encoder process, both run through the ingest: count both (the sum of their peaks)
    result["peak_rss_mb"] = result["process_peak_mb"] + result.get("encoder_peak_mb", 0.0)
    result["load_after"] = round(os.getloadavg()[1], 2)  # 5-minute load average: was the machine shared?
    return result


REAL_CORPUS = ROOT.parent / "shared" / "corpus" / "iclr2026.jsonl.gz"


def real_slice(size: int, data: Path) -> Path:
    """Every Nth paper of the real conference as JSONL (the whole of it from 19,622 up)."""
    import gzip

    if not REAL_CORPUS.exists():
        raise SystemExit(f"--real needs the conference export at {REAL_CORPUS}")
    with gzip.open(REAL_CORPUS, "rt", encoding="utf-8") as src:
        lines = src.readlines()
    step = max(1, len(lines) // size)
    path = data / f"real-{size}.jsonl"
    data.mkdir(parents=True, exist_ok=True)
    path.write_text("".join(lines[::step]), encoding="utf-8")
    return path


def corpus_for(size: int, data: Path, real: bool = False) -> Path:
    from bench.generate import write

    if real:
        return real_slice(size, data)
    path = data / f"{size}.jsonl"
    if not path.exists():
        write(size, "jsonl", path, seed=0)
    return path


def machine() -> str:
    cpu = "unknown CPU"
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    mem = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES") / 2**30
    return f"{os.cpu_count()} cores {cpu}, {mem:.0f} GiB, {platform.system()} {platform.release()}, Python {platform.python_version()}"


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", default="1000", help="corpus sizes for our pipeline, e.g. 1000,20000")
    parser.add_argument("--baseline-sizes", default=None, help="sizes for the llama-index baseline (default: --sizes; '' for none)")
    parser.add_argument("--backends", default="onnx-int8", help="encoder runtimes for our pipeline, e.g. torch,onnx,onnx-int8")
    parser.add_argument("--data", type=Path, default=Path(tempfile.gettempdir()) / "bench", help="where corpora are generated")
    parser.add_argument("--keep-home", type=Path, default=None,
                        help="keep the store of our largest run (first backend) here, for bench/search.py "
                             "(with --chroma-server: the server's data too, in DIR/chroma-server)")
    parser.add_argument("--json", action="store_true", help="also print every result as one JSON line")
    parser.add_argument("--real", action="store_true", help="slices of the real ICLR 2026 export instead of generated text")
    parser.add_argument("--worker", choices=("ours", "baseline"), help=argparse.SUPPRESS)
    parser.add_argument("--corpus", type=Path, help=argparse.SUPPRESS)
    parser.add_argument("--home", type=Path, help=argparse.SUPPRESS)
    parser.add_argument("--chroma-server", action="store_true",
                        help="our pipeline writes to a Chroma server on loopback (its peak RSS is printed too)")
    parser.add_argument("--backend", default="onnx-int8", help=argparse.SUPPRESS)
    parser.add_argument("--chroma-url", default=None, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)

    if args.worker:  # inside a child: do one ingest, print one JSON line
        result = (work_ours(args.corpus, args.home, args.backend, args.chroma_url) if args.worker == "ours"
                  else work_baseline(args.corpus, args.home))
        print(json.dumps(result), flush=True)
        return

    sizes = [int(s) for s in args.sizes.split(",") if s]
    baseline_sizes = sizes if args.baseline_sizes is None else [int(s) for s in args.baseline_sizes.split(",") if s]
    backends = [b for b in args.backends.split(",") if b]
    print(f"machine: {machine()}", flush=True)
    results: list[dict] = []
    for size in sorted(set(sizes) | set(baseline_sizes)):
        corpus = corpus_for(size, args.data, args.real)
        contenders = ([("ours", b) for b in backends] if size in sizes else []) + \
                     ([("baseline", None)] if size in baseline_sizes else [])
        for kind, backend in contenders:
            label = f"ours[{backend}]" if kind == "ours" else "llama-index default"
            server = kind == "ours" and args.chroma_server
            label += " +server" if server else ""
            keep = args.keep_home if (kind == "ours" and backend == backends[0] and size == max(sizes)) else None
            with tempfile.TemporaryDirectory(prefix=f"bench-ingest-{size}-") as tmp:
                home = keep or Path(tmp)
                if keep and keep.exists() and any(keep.iterdir()):
                    raise SystemExit(f"--keep-home {keep} is not empty; remove it first")
                child = ["--worker", kind, "--corpus", str(corpus), "--home", str(home)]
                if backend:
                    child += ["--backend", backend]
                earlier = [r for r in results if r["contender"] == label and r["size"] < size]
                estimate = (f" (estimated {size / earlier[-1]['per_s'] / 60:.0f} min from {earlier[-1]['size']:,} at "
                            f"{earlier[-1]['per_s']:.1f}/s)" if earlier else "")
                print(f"  running {label} on {size:,} abstracts{estimate} ...", flush=True)
                if server:
                    data = home / "chroma-server"  # kept with the BM25 index under --keep-home
                    with chroma_server(data, Path(tmp) / "chroma.log") as (url, pid):
                        result = run_child(child + ["--chroma-url", url])
                        result["server_peak_mb"] = status_mb("VmHWM", pid)
                    if keep:
                        print(f"  kept: serve it with `chroma run --path {data}` and set ASSISTANT_HOME={keep} "
                              f"ASSISTANT_CHROMA_URL=http://HOST:PORT", flush=True)
                else:
                    result = run_child(child)
            result.update(size=size, contender=label)
            result["per_s"] = result["papers"] / result["seconds"]
            result["per_cpu_s"] = result["papers"] / result["cpu"]
            results.append(result)
            print(f"  {label:<22} {size:>6,} abstracts  {result['seconds']:8.1f} s  {result['per_s']:7.1f}/s  "
                  f"cpu {result['cpu']:8.1f} s  peak RSS {result['peak_rss_mb']:7.0f} MB  chunks {result['chunks']:,}  "
                  f"load {result['load_after']:.1f}", flush=True)
            if "pipeline_peak_mb" in result:
                print(f"  {'':<22} peak RSS of the ingest process: {result['model_loaded_mb']:.0f} MB before the clock, "
                      f"{result['pipeline_peak_mb']:.0f} MB to the end of embedding+writing ({result['pipeline_s']:.0f} s), "
                      f"{result['process_peak_mb']:.0f} MB after the BM25 build ({result['bm25_s']:.1f} s)", flush=True)
            if result.get("encoder_peak_mb"):
                print(f"  {'':<22} the encoder process's own peak RSS: {result['encoder_peak_mb']:.0f} MB; "
                      f"peak RSS above is the sum of both peaks; the most both held at once (sampled every "
                      f"0.2 s): {result['together_mb']:.0f} MB", flush=True)
            if "server_peak_mb" in result:
                print(f"  {'':<22} the Chroma server's own peak RSS: {result['server_peak_mb']:.0f} MB", flush=True)

    print("\nsummary")
    print(f"{'size':>7}  {'contender':<22} {'seconds':>9} {'abstracts/s':>12} {'per CPU-s':>10} {'peak RSS MB':>12} "
          f"{'vs baseline':>12} {'(per CPU-s)':>12}")
    for r in results:
        base = next((b for b in results if b["size"] == r["size"] and b["contender"].startswith("llama")), None)
        ratio = f"{r['per_s'] / base['per_s']:.2f}x" if base and base is not r else ""
        ratio_cpu = f"{r['per_cpu_s'] / base['per_cpu_s']:.2f}x" if base and base is not r else ""
        print(f"{r['size']:>7,}  {r['contender']:<22} {r['seconds']:>9.1f} {r['per_s']:>12.1f} {r['per_cpu_s']:>10.1f} "
              f"{r['peak_rss_mb']:>12.0f} {ratio:>12} {ratio_cpu:>12}")
    for label in dict.fromkeys(r["contender"] for r in results if r["contender"].startswith("ours")):
        mine = {r["size"]: r for r in results if r["contender"] == label}
        if len(mine) >= 2:
            small, large = mine[min(mine)], mine[max(mine)]
            served = (f"; the Chroma server {large['server_peak_mb']:.0f} / {small['server_peak_mb']:.0f} MB = "
                      f"{large['server_peak_mb'] / small['server_peak_mb']:.2f}x" if "server_peak_mb" in large else "")
            alone = (f" (the ingest process alone {large['process_peak_mb'] / small['process_peak_mb']:.2f}x)"
                     if large.get("encoder_peak_mb") else "")
            print(f"{label}: peak RSS at {large['size']:,} / at {small['size']:,} = "
                  f"{large['peak_rss_mb'] / small['peak_rss_mb']:.2f}x{alone}{served}; "
                  f"{large['size']:,} abstracts in {large['seconds'] / 60:.1f} min")
    if args.json:
        for r in results:
            print(json.dumps(r))


if __name__ == "__main__":
    main()
