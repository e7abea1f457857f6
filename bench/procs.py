"""Processes the benchmarks start and measure: `assistant ui` and a Chroma server on loopback, a process group's stop."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from contextlib import contextmanager
from pathlib import Path
from typing import IO, Iterator


def status_mb(field: str, pid: int | str = "self") -> float:
    """A ``/proc/PID/status`` figure in MB (VmHWM: peak resident set, VmRSS: current); 0 if gone."""
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith(field + ":"):
                return int(line.split()[1]) / 1024
    except OSError:
        pass
    return 0.0


def child_pids(pid: int | str = "self") -> list[int]:
    """The processes that ``pid``'s threads started and that still run (from ``/proc``)."""
    found: list[int] = []
    for task in Path(f"/proc/{pid}/task").iterdir():
        try:
            found += [int(c) for c in (task / "children").read_text().split()]
        except OSError:
            continue
    return found


def command_line(pid: int) -> str:
    """``pid``'s command line, words joined by spaces; "" once it has exited."""
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode()
    except OSError:
        return ""


class ChildPeaks:
    """Peak RSS of this process's children, sampled while they run (``with ChildPeaks() as peaks``).

    ``ru_maxrss`` cannot give it: the kernel reports the largest of a process and its children,
    not their sum, and a child forked to run a command (ctypes' ``ldconfig -p``) counts the
    parent's pages it was forked with. VmHWM only grows, so the last sample of a child before it
    exits is its peak to within one interval. ``together_mb`` is the largest sampled sum of this
    process's and its children's current RSS: what the machine had to hold at once.
    """

    def __init__(self, interval: float = 0.2) -> None:
        self.interval = interval
        self.peaks: dict[int, float] = {}  # pid -> VmHWM in MB
        self.commands: dict[int, str] = {}  # pid -> command line
        self.together_mb = 0.0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def _run(self) -> None:
        while not self._stop.wait(self.interval):
            together = status_mb("VmRSS")
            for pid in child_pids():
                command = command_line(pid)
                if not command:
                    continue
                self.commands[pid] = command  # the last one seen: after exec, not the fork's copy
                self.peaks[pid] = max(status_mb("VmHWM", pid), self.peaks.get(pid, 0.0))
                together += status_mb("VmRSS", pid)
            self.together_mb = max(self.together_mb, together)

    def peak_of(self, needle: str) -> float:
        """The largest peak among children whose command line contains ``needle``."""
        return max((mb for pid, mb in self.peaks.items() if needle in self.commands.get(pid, "")), default=0.0)

    def __enter__(self) -> "ChildPeaks":
        self._thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self._stop.set()
        self._thread.join()


def stop_group(proc: subprocess.Popen, grace: float = 20.0) -> None:
    """SIGTERM the process group started with ``start_new_session``, SIGKILL it if it lingers."""
    os.killpg(proc.pid, signal.SIGTERM)
    try:
        proc.wait(timeout=grace)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_http(proc: subprocess.Popen, url: str, log: IO[str], timeout: float, name: str) -> float:
    """Wait until ``url`` answers (any status below 500); the seconds waited. Raises RuntimeError with
    the log's tail if ``proc`` exits first, or if nothing answers within ``timeout``."""
    started = time.monotonic()
    while True:
        if proc.poll() is not None:
            log.seek(0)
            raise RuntimeError(f"{name} exited with {proc.returncode}:\n{log.read()[-2000:]}")
        try:
            with urllib.request.urlopen(url, timeout=2) as response:
                if response.status < 500:
                    return time.monotonic() - started
        except OSError:
            pass
        if time.monotonic() - started > timeout:
            raise RuntimeError(f"{name} did not answer on {url} within {timeout:.0f}s (log: {log.name})")
        time.sleep(0.2)


ASSISTANT = Path(__file__).resolve().parent.parent / ".venv" / "bin" / "assistant"


@contextmanager
def assistant_ui(env: dict, *flags: str, timeout: float = 600) -> Iterator[tuple[subprocess.Popen, str, float]]:
    """``assistant ui FLAGS`` on a free loopback port in a session of its own: yields (the process, its URL, the
    seconds until it answered HTTP) and stops it afterwards. SystemExit with its log's tail when it does not start."""
    port = free_port()
    with tempfile.NamedTemporaryFile("w+", prefix="assistant-ui-", suffix=".log") as log:
        started = time.perf_counter()
        proc = subprocess.Popen([str(ASSISTANT), "ui", *flags, "--port", str(port)], env=env, cwd=ASSISTANT.parents[2],
                                stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
        try:
            url = f"http://127.0.0.1:{port}/"
            try:
                wait_http(proc, url, log, timeout, "`assistant ui`")
            except RuntimeError as exc:
                raise SystemExit(str(exc)) from None
            yield proc, url, time.perf_counter() - started
        finally:
            stop_group(proc)


@contextmanager
def chroma_server(data: Path, log: Path, timeout: float = 60.0) -> Iterator[tuple[str, int]]:
    """``chroma run`` (from the chromadb package) on loopback; yields its URL and pid."""
    chroma = Path(sys.executable).with_name("chroma")
    port = free_port()
    with open(log, "w+") as out:
        proc = subprocess.Popen([str(chroma), "run", "--path", str(data), "--host", "127.0.0.1", "--port", str(port)],
                                stdout=out, stderr=subprocess.STDOUT, start_new_session=True,
                                env={**os.environ, "ANONYMIZED_TELEMETRY": "False"})
        url = f"http://127.0.0.1:{port}"
        try:
            wait_http(proc, f"{url}/api/v2/heartbeat", out, timeout, "the Chroma server (chroma run)")
            yield url, proc.pid
        finally:
            stop_group(proc)
