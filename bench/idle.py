"""How busy an idle `assistant ui` is: the CPU share of one core it uses while no browser is connected.

    .venv/bin/assistant ui --port 7860 &          # wait until it prints its URL
    .venv/bin/python bench/idle.py PID [--seconds 60] [--threads]

Reads user + system time from /proc/PID/stat at the start and the end of the window (and, with
--threads, /proc/PID/task/*/stat, to name the threads that used it).
"""

from __future__ import annotations

import argparse
import os
import time
from pathlib import Path


def cpu_ticks(stat_file: Path) -> int:
    """utime + stime of one /proc stat file, in clock ticks (fields 14 and 15; the name may hold spaces)."""
    fields = stat_file.read_text().rsplit(")", 1)[1].split()
    return int(fields[11]) + int(fields[12])


def thread_ticks(pid: int) -> dict[str, int]:
    found: dict[str, int] = {}
    for task in Path(f"/proc/{pid}/task").iterdir():
        try:
            name = (task / "comm").read_text().strip()
            found[f"{name} ({task.name})"] = cpu_ticks(task / "stat")
        except OSError:  # the thread ended
            continue
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("pid", type=int)
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument("--threads", action="store_true", help="also list the threads that used CPU")
    args = parser.parse_args()
    hz = os.sysconf("SC_CLK_TCK")
    stat = Path(f"/proc/{args.pid}/stat")
    before, threads_before = cpu_ticks(stat), thread_ticks(args.pid) if args.threads else {}
    started = time.monotonic()
    time.sleep(args.seconds)
    used = (cpu_ticks(stat) - before) / hz
    elapsed = time.monotonic() - started
    print(f"pid {args.pid}: {used:.2f} CPU-seconds in {elapsed:.0f} s = {100 * used / elapsed:.2f}% of one core")
    if args.threads:
        after = thread_ticks(args.pid)
        busy = sorted(((after[t] - threads_before.get(t, 0)) / hz, t) for t in after)
        for seconds, name in reversed([b for b in busy if b[0] > 0]):
            print(f"  {seconds:6.2f} s  {name}")


if __name__ == "__main__":
    main()
