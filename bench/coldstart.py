"""Cold start of the command line: process start to first output line, per command and encoder runtime.

Each command runs as a new `.venv/bin/assistant` process (stdout piped, read line by line) on
a temporary store holding the bundled corpus; runs are repeated and the median and best are
printed. With ``--importtime`` it also lists the slowest imports of each command
(``python -X importtime``), to see what a command loads that it does not need.

    python bench/coldstart.py
    python bench/coldstart.py --repeat 5 --importtime
"""

from __future__ import annotations

import argparse
import json
import os
import re
import statistics
import subprocess
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
ASSISTANT = ROOT / ".venv" / "bin" / "assistant"
PYTHON = ROOT / ".venv" / "bin" / "python"

COMMANDS = {
    "--help": ["--help"],
    "search": ["search", "which papers reduce reasoning token usage"],
    "ask --llm none": ["ask", "which papers reduce reasoning token usage", "--llm", "none"],
}


def first_line(argv: list[str], env: dict) -> tuple[float, float, str]:
    """(seconds to the first stdout line, seconds to exit, that line)."""
    started = time.perf_counter()
    with tempfile.TemporaryFile("w+") as errors:
        proc = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=errors, env=env, cwd=ROOT, text=True)
        line = proc.stdout.readline()
        first = time.perf_counter() - started
        proc.stdout.read()
        proc.wait()
        if proc.returncode != 0 or not line.strip():  # an error message is no cold start
            errors.seek(0)
            raise SystemExit(f"{' '.join(argv)} exited with {proc.returncode} and no output:\n{errors.read()[-1500:]}")
    return first, time.perf_counter() - started, line.strip()


def slowest_imports(args: list[str], env: dict, top: int = 12) -> list[tuple[float, str]]:
    """Top-level packages by cumulative import time (ms) for one command."""
    code = "import sys; from ui.cli import main; sys.argv = ['assistant'] + sys.argv[1:]; main()"
    proc = subprocess.run([str(PYTHON), "-X", "importtime", "-c", code, *args], capture_output=True, text=True,
                          env=env, cwd=ROOT)
    per_package: dict[str, float] = {}
    for line in proc.stderr.splitlines():
        match = re.match(r"import time:\s+\d+ \|\s+(\d+) \|( *)(\S+)", line)
        if match and len(match.group(2)) <= 1:  # only imports made directly, not nested ones
            name = match.group(3).split(".")[0]
            per_package[name] = per_package.get(name, 0.0) + int(match.group(1)) / 1000
    return sorted(((ms, name) for name, ms in per_package.items()), reverse=True)[:top]


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--backends", default="onnx-int8,torch", help="encoder runtimes (ASSISTANT_EMBED_BACKEND)")
    parser.add_argument("--importtime", action="store_true")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)

    results = []
    with tempfile.TemporaryDirectory(prefix="bench-cold-") as scratch:
        for backend in args.backends.split(","):
            # one store per runtime: a store answers only the encoder that built it
            env = {**os.environ, "ASSISTANT_HOME": str(Path(scratch) / backend), "ASSISTANT_LLM": "none",
                   "HF_HUB_OFFLINE": "1", "ASSISTANT_EMBED_BACKEND": backend}
            subprocess.run([str(ASSISTANT), "ingest"], env=env, cwd=ROOT, check=True, capture_output=True)
            first_line([str(ASSISTANT), *COMMANDS["search"]], env)  # page cache warm, any ONNX export done
            for name, command in COMMANDS.items():
                if name == "--help" and backend != args.backends.split(",")[0]:
                    continue  # no model involved
                runs = [first_line([str(ASSISTANT), *command], env) for _ in range(args.repeat)]
                firsts = [r[0] for r in runs]
                exits = [r[1] for r in runs]
                row = {"command": name, "backend": backend if name != "--help" else "-",
                       "first_line_median_s": statistics.median(firsts), "first_line_best_s": min(firsts),
                       "exit_median_s": statistics.median(exits), "line": runs[0][2][:60]}
                results.append(row)
                print(f"{name:<16} {row['backend']:<9} first line {row['first_line_median_s']:6.2f}s median "
                      f"({row['first_line_best_s']:.2f}s best), exit {row['exit_median_s']:6.2f}s   {row['line']!r}", flush=True)
                if args.importtime:
                    slow = slowest_imports(command, env)
                    print("    slowest imports (ms): " + ", ".join(f"{n} {ms:.0f}" for ms, n in slow), flush=True)
    if args.json:
        print(json.dumps(results))


if __name__ == "__main__":
    main()
