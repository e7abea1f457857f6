"""Peak memory of the browser UI server: `assistant ui` on the bundled corpus, read from /proc.

Starts `.venv/bin/assistant ui --port FREE` on a fresh temporary store (the server loads the
bundled corpus into an empty store itself, unless --pre-ingest does it first) or on an
existing one (--home, e.g. a 20k store kept by `bench/ingest.py --keep-home`), waits until
it answers HTTP, optionally sends searches through the page's HTTP API (--search, timed),
then reads VmHWM (peak resident set) and VmRSS from /proc/PID/status of the server and its
children, and stops it.

    python bench/ui_rss.py
    python bench/ui_rss.py --backend onnx --pre-ingest
    python bench/ui_rss.py --home $BENCH/home-20k --search "tell me about PoLR" --search "reasoning token usage"
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != ROOT / "bench"]
sys.path.insert(0, str(ROOT))

from bench.procs import assistant_ui, status_mb  # noqa: E402

ASSISTANT = ROOT / ".venv" / "bin" / "assistant"


def descendants(pid: int) -> list[int]:
    out, queue = [], [pid]
    while queue:
        parent = queue.pop()
        try:
            children = Path(f"/proc/{parent}/task/{parent}/children").read_text().split()
        except OSError:
            continue
        for child in map(int, children):
            out.append(child)
            queue.append(child)
    return out


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--backend", default=None, help="ASSISTANT_EMBED_BACKEND for the server (default: settings default)")
    parser.add_argument("--pre-ingest", action="store_true", help="ingest with `assistant ingest` before starting the server")
    parser.add_argument("--home", type=Path, help="serve this existing store (ASSISTANT_HOME) instead of a fresh one")
    parser.add_argument("--search", action="append", default=[], metavar="QUERY",
                        help="send this search through the page's /search API before reading memory (repeatable)")
    parser.add_argument("--timeout", type=float, default=300)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    if not (ROOT / "ui" / "web.py").exists():
        raise SystemExit("ui/web.py does not exist yet: `assistant ui` cannot start")

    with tempfile.TemporaryDirectory(prefix="bench-ui-") as scratch:
        home = str(args.home or scratch)
        env = {**os.environ, "ASSISTANT_HOME": home, "ASSISTANT_LLM": "none", "HF_HUB_OFFLINE": "1",
               "GRADIO_ANALYTICS_ENABLED": "False", "ANONYMIZED_TELEMETRY": "False"}
        if args.backend:
            env["ASSISTANT_EMBED_BACKEND"] = args.backend
        if args.pre_ingest:
            subprocess.run([str(ASSISTANT), "ingest"], env=env, cwd=ROOT, check=True, capture_output=True)
        with assistant_ui(env, timeout=args.timeout) as (proc, url, ready):
            searches = timed_searches(url, args.search)
            time.sleep(1.0)
            pids = [proc.pid] + descendants(proc.pid)
            rows = [{"pid": pid, "cmd": Path(f"/proc/{pid}/cmdline").read_text().replace("\0", " ")[:80],
                     "VmHWM_mb": status_mb("VmHWM", pid), "VmRSS_mb": status_mb("VmRSS", pid)}
                    for pid in pids if Path(f"/proc/{pid}").exists()]

    print(f"`assistant ui` answered HTTP after {ready:.1f}s (backend {args.backend or 'default'}, "
          f"{'store ' + str(args.home) if args.home else 'pre-ingested' if args.pre_ingest else 'ingesting the bundled corpus itself'})")
    for row in rows:
        print(f"  pid {row['pid']}: peak RSS (VmHWM) {row['VmHWM_mb']:.0f} MB, RSS now {row['VmRSS_mb']:.0f} MB  {row['cmd']}")
    for query, seconds, found in searches:
        print(f"  /search {query!r}: {seconds:.2f}s, {found} papers")
    print(f"  total peak RSS: {sum(r['VmHWM_mb'] for r in rows):.0f} MB")
    if args.json:
        print(json.dumps({"ready_s": ready, "processes": rows, "searches": searches}))


def timed_searches(url: str, queries: list[str]) -> list[tuple[str, float, int]]:
    """Each query through the page's HTTP API, as a client app would call it (k=5)."""
    if not queries:
        return []
    from gradio_client import Client

    client = Client(url, verbose=False)
    out = []
    for query in queries:
        started = time.perf_counter()
        hits = client.predict(query, 5, api_name="/search")
        out.append((query, time.perf_counter() - started, len(hits)))
    return out


if __name__ == "__main__":
    main()
