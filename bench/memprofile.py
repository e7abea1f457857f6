"""Resident memory through one ingest, sampled at every window of 256 papers (growth per paper).

Besides RSS and its peak (VmHWM) it prints what glibc's malloc holds in use (``mallinfo2``):
RSS that grows while "in use" does not is freed memory glibc kept, not data.

    python bench/memprofile.py --corpus $BENCH/4000.jsonl --backend onnx-int8
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != ROOT / "bench"]
sys.path.insert(0, str(ROOT))

from bench.procs import status_mb  # noqa: E402


def malloc_in_use_mb() -> float:
    """Bytes glibc's malloc has handed out and not had back (NaN where there is no mallinfo2)."""
    import ctypes

    class Info(ctypes.Structure):
        _fields_ = [(name, ctypes.c_size_t) for name in
                    "arena ordblks smblks hblks hblkhd usmblks fsmblks uordblks fordblks keepcost".split()]

    try:
        mallinfo2 = ctypes.CDLL("libc.so.6").mallinfo2
    except (OSError, AttributeError):
        return float("nan")
    mallinfo2.restype = Info
    info = mallinfo2()
    return (info.uordblks + info.hblkhd) / 2**20


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--corpus", type=Path, required=True)
    parser.add_argument("--backend", default="onnx-int8")
    args = parser.parse_args(argv)

    from assistant import Assistant, Settings
    from assistant.embedding import Embedder

    with tempfile.TemporaryDirectory(prefix="bench-mem-") as home:
        assistant = Assistant(Settings.from_env(env={}, home=home, llm="none"), embedder=Embedder(backend=args.backend))
        assistant.embedder.embed(["warm up"])
        marks = [("model loaded", 0, status_mb("VmRSS"), status_mb("VmHWM"), malloc_in_use_mb())]

        def progress(done: int, total: int, what: str) -> None:
            if what == "embedding":
                marks.append((f"{done:,} papers", done, status_mb("VmRSS"), status_mb("VmHWM"), malloc_in_use_mb()))

        assistant.ingest([args.corpus], progress=progress)
        marks.append(("after BM25 build", marks[-1][1], status_mb("VmRSS"), status_mb("VmHWM"), malloc_in_use_mb()))
    step = max(1, (len(marks) - 3) // 8)
    for name, _n, rss, hwm, used in marks[:2] + marks[2:-2:step] + marks[-2:]:
        print(f"{name:<18} RSS {rss:7.0f} MB   peak {hwm:7.0f} MB   malloc in use {used:7.0f} MB")
    first, last = marks[1], marks[-2]
    if last[1] > first[1]:
        per = 1024 / (last[1] - first[1])
        print(f"growth after the first window, per paper: RSS {(last[2] - first[2]) * per:.1f} KB, "
              f"peak {(last[3] - first[3]) * per:.1f} KB, malloc in use {(last[4] - first[4]) * per:.1f} KB")


if __name__ == "__main__":
    main()
