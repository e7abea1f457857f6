"""Latency under load: `assistant ui` on a store, several API clients at once, and a lone search meanwhile.

The server runs as its own process (``assistant ui --no-ingest``, loopback only). For 1, 4 and 8 clients:

- **chat**: each client asks ``--questions`` list questions through ``/chat`` (``llm=none``), one after another,
  while one more client sends a ``/search`` every half second: the lone search's latency is what a user of
  the retriever meets while others chat;
- **search**: each client sends ``--questions`` searches through ``/search`` (k=10).

It prints p50 / p95 per phase, and the server's resident memory (VmRSS) at start and after each phase, to see
what grows with requests. Every call goes through Gradio's plain HTTP API, as any client would call it:

    python bench/load.py --home STORE                 # e.g. the 19,622-paper store
    python bench/load.py --home STORE --clients 1,8 --questions 5
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import threading
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != ROOT / "bench"]
sys.path.insert(0, str(ROOT))

from bench.procs import assistant_ui, status_mb  # noqa: E402

LONE_EVERY = 0.5  # seconds between the lone client's searches
QUERIES = ["speculative decoding", "reduce reasoning token usage", "test-time adaptation", "Lean theorem proving",
           "diffusion language models", "machine unlearning", "benchmarks for LLM agents", "graph neural networks",
           "watermarking LLM-generated text", "protein structure generation", "federated learning privacy",
           "reward models for RLHF", "vision language model hallucination", "KV cache compression",
           "offline reinforcement learning", "neural operators for PDEs"]


def call(url: str, endpoint: str, data: list, timeout: float = 600) -> tuple[float, bool]:
    """(seconds, whether it completed) for one call of a named endpoint over Gradio's HTTP API."""
    started = time.perf_counter()
    request = urllib.request.Request(f"{url}gradio_api/call/{endpoint}", data=json.dumps({"data": data}).encode(),
                                     headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=timeout) as reply:
        event_id = json.loads(reply.read())["event_id"]
    with urllib.request.urlopen(f"{url}gradio_api/call/{endpoint}/{event_id}", timeout=timeout) as reply:
        events = [line for line in reply.read().decode().splitlines() if line.startswith("event:")]
    return time.perf_counter() - started, bool(events) and events[-1].split(":", 1)[1].strip() == "complete"


def p95(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]


def figures(values: list[float]) -> str:
    return f"p50 {statistics.median(values):6.2f} s  p95 {p95(values):6.2f} s  (n={len(values)})" if values else "none"


def clients(url: str, endpoint: str, count: int, questions: int, lone: bool) -> tuple[list, list, int]:
    """(the clients' latencies, the lone searcher's latencies, calls that failed)."""
    times: list[float] = []
    lone_times: list[float] = []
    failed = [0]
    done = threading.Event()

    def client(offset: int) -> None:
        for i in range(questions):
            query = QUERIES[(offset * 3 + i) % len(QUERIES)]
            data = [f"which papers study {query}?", 10, "none", f"load-{offset}", "", 1] if endpoint == "chat" \
                else [query, 10, "", 1]
            seconds, ok = call(url, endpoint, data)
            times.append(seconds)
            failed[0] += not ok

    def searcher() -> None:
        i = 0
        while not done.is_set():
            seconds, ok = call(url, "search", [QUERIES[i % len(QUERIES)], 10, "", 1])
            lone_times.append(seconds)
            failed[0] += not ok
            i += 1
            done.wait(LONE_EVERY)

    threads = [threading.Thread(target=client, args=(n,)) for n in range(count)]
    watcher = threading.Thread(target=searcher) if lone else None
    for thread in threads + ([watcher] if watcher else []):
        thread.start()
    for thread in threads:
        thread.join()
    done.set()
    if watcher:
        watcher.join()
    return times, lone_times, failed[0]


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--home", type=Path, required=True, help="the store to serve (ASSISTANT_HOME)")
    parser.add_argument("--clients", default="1,4,8")
    parser.add_argument("--questions", type=int, default=6, help="calls per client per phase")
    parser.add_argument("--timeout", type=float, default=600, help="seconds the server may take to start")
    args = parser.parse_args(argv)

    env = {**os.environ, "ASSISTANT_HOME": str(args.home), "ASSISTANT_LLM": "none", "HF_HUB_OFFLINE": "1",
           "GRADIO_ANALYTICS_ENABLED": "False", "ANONYMIZED_TELEMETRY": "False"}
    with assistant_ui(env, "--no-ingest", timeout=args.timeout) as (proc, url, ready):
        print(f"`assistant ui --no-ingest` on {args.home} answered HTTP after {ready:.1f} s; "
              f"server RSS {status_mb('VmRSS', proc.pid):.0f} MB")
        call(url, "search", ["warm up", 10, "", 1])
        call(url, "chat", ["which papers study warm up?", 10, "none", "", "", 1])
        print(f"after one search and one answer: RSS {status_mb('VmRSS', proc.pid):.0f} MB")
        for count in (int(c) for c in args.clients.split(",")):
            times, lone, failed = clients(url, "chat", count, args.questions, lone=True)
            print(f"{count} client(s) asking  /chat:   {figures(times)}")
            print(f"   a lone /search meanwhile:  {figures(lone)}")
            searched, _, failed_searches = clients(url, "search", count, args.questions, lone=False)
            print(f"{count} client(s) calling /search: {figures(searched)}")
            print(f"   failed calls: {failed + failed_searches}; server RSS now {status_mb('VmRSS', proc.pid):.0f} MB, "
                  f"peak {status_mb('VmHWM', proc.pid):.0f} MB")

if __name__ == "__main__":
    main()
