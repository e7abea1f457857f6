"""The encoder in a child process, for large ingests.

Why a process and not a thread: Chroma's Python bindings hold the GIL for the whole of each
write (~0.6 s per 1,000 chunk records), and the chunker (llama-index's splitter) is Python too.
In one process the encoder, whose kernels run without the GIL, still needs it between runs,
so it stalls at every write: ~14% of the machine sat idle during a 3k ingest. In a child it
never waits for them (docs/benchmarks.md, "Design decisions": 16.5% faster at 20k).

The child builds the same ``Embedder`` on the same model file and encodes each window in one
call (``Embedder.embed_window``); its vectors differ from an in-process ingest's only by the
int8 rounding of other batch companions (mean cosine > 0.999, tests/test_encoder_process.py).
It ignores Ctrl-C: the parent decides. It ends with its parent: at once when its socket closes
without the parent's "stop" (the parent was killed; the batches still queued have no reader), and on
Linux the kernel kills it when the parent dies (``PR_SET_PDEATHSIG``), even while it loads the model.
After a kill -9 of `assistant ingest` the child went on encoding its queue at ~51% CPU for 5-8 s.
"""

from __future__ import annotations

import ctypes
import os
import queue
import signal
import socket
import subprocess
import sys
import threading
from multiprocessing.connection import Connection
from typing import Sequence

from assistant.embedding import Embedder, child_environment
from assistant.errors import AssistantError, ConfigError

READY_SECONDS = 120.0  # loading the model takes ~1 s; the first export, done beforehand, not here


class EncoderProcess:
    """``embed(texts)`` answered by a child process running ``Embedder(model, backend, cache_dir)``.

    The child is ``python -m ingest.encoder_process``, not a ``multiprocessing.Process``:
    spawn would import the caller's main script again in the child, which runs a library
    user's unguarded script twice (and fails outright under ``python -`` or in a REPL).
    Requests and replies go over a socket pair with ``multiprocessing``'s message framing.
    """

    def __init__(self, embedder) -> None:
        self.embedder = embedder
        self.process: subprocess.Popen | None = None
        self.conn: Connection | None = None

    def __enter__(self) -> "EncoderProcess":
        e = self.embedder
        model_file = e.model_file()  # export or quantise here, once, so the child only loads the file
        mine, theirs = socket.socketpair()
        self.conn = Connection(mine.detach())
        self.process = subprocess.Popen(
            [sys.executable, "-m", "ingest.encoder_process", str(theirs.fileno()), str(e.path), e.backend,
             str(e.cache_dir or ""), str(model_file)],
            pass_fds=[theirs.fileno()], env=child_environment(), stdin=subprocess.DEVNULL,
            # A session (so a process group) of its own: Ctrl-C in the terminal reaches only this process,
            # which stops the child itself. A SIGINT reaching the child while its Python is still starting,
            # before it can ignore the signal, printed "Fatal Python error: init_import_site" on the terminal.
            # start_new_session rather than process_group=0 (3.11+ only): both put the child in a group of its own.
            start_new_session=True)
        theirs.close()
        try:
            if not self.conn.poll(READY_SECONDS):
                raise ConfigError("The encoder process did not start.",
                                  "Set ASSISTANT_EMBED_PROCESS=0 to encode in this process.")
            self._check(self._receive())
        except BaseException:  # an error, or Ctrl-C while the child loads the model
            self.close(wait=False)  # __exit__ does not run when __enter__ fails
            raise
        return self

    def embed(self, texts: Sequence[str]):
        self.send(texts)
        return self.receive()

    def send(self, texts: Sequence[str]) -> None:
        """Queue ``texts``: the child starts on them as soon as it is done with what it has."""
        self.conn.send(list(texts))

    def receive(self):
        """The vectors of the oldest texts sent."""
        import numpy as np

        reply = self._receive()
        self._check(reply)
        return np.frombuffer(reply[1], dtype=np.float32).reshape(-1, self.embedder.dimension)

    def _receive(self):
        try:
            return self.conn.recv()
        except (EOFError, OSError):
            code = None
            if self.process is not None:
                try:
                    code = self.process.wait(1)  # reap it, so its exit code is known
                except subprocess.TimeoutExpired:
                    pass
            raise AssistantError(f"The encoder process stopped (exit code {code}).",
                                 "Papers written so far are kept; run the ingest again to add the rest, "
                                 "or set ASSISTANT_EMBED_PROCESS=0 to encode in this process.") from None

    @staticmethod
    def _check(reply) -> None:
        if reply[0] == "error":
            raise ConfigError(reply[1], reply[2]) if reply[2] else AssistantError(reply[1])

    def close(self, wait: bool = True) -> None:
        """End the child: asked to stop after its current work, or (``wait=False``) killed at once."""
        if self.conn is not None:
            if wait:
                try:
                    self.conn.send(None)
                except (OSError, ValueError):
                    pass
            self.conn.close()
            self.conn = None
        if self.process is not None:
            try:
                self.process.wait(5 if wait else 0.001)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
            self.process = None

    def __exit__(self, exc_type, *_) -> None:
        self.close(wait=exc_type is None)  # after Ctrl-C or an error, don't wait for work nobody will read


def _serve(conn: Connection, model_path: str, backend: str, cache_dir: str | None, model_file: str) -> None:
    """The child: load the model, then answer each list of texts with its vectors as float32 bytes."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        embedder = Embedder(model_path, backend, cache_dir)
        embedder.embed(["load the model"])
    except AssistantError as exc:
        conn.send(("error", exc.message, exc.hint))
        return
    except Exception as exc:  # e.g. a damaged model file: said in one line, not as the child's traceback
        conn.send(("error", f"The embedding model could not be loaded in the encoder process: {exc}",
                   f"Delete {model_file} to have it made again, or set ASSISTANT_EMBED_PROCESS=0."))
        return
    conn.send(("ready",))
    # A thread reads requests as they come, so a parent that sends its next batch while this one
    # is encoded never blocks on a full pipe (nor this child on sending its vectors back).
    requests: queue.Queue = queue.Queue()

    def read() -> None:
        while True:
            try:
                texts = conn.recv()
            except (EOFError, OSError):  # closed without "stop": the parent is gone, nobody reads our vectors
                os._exit(0)
            requests.put(texts)
            if texts is None:
                return

    threading.Thread(target=read, daemon=True).start()
    while True:
        texts = requests.get()
        if texts is None:
            return
        try:
            vectors = embedder.embed_window(texts)
        except Exception as exc:  # sent back whole: the parent raises it with the ingest's context
            conn.send(("error", f"Encoding failed in the encoder process: {exc}", None))
            continue
        conn.send(("ok", vectors.astype("float32", copy=False).tobytes()))


PR_SET_PDEATHSIG = 1  # linux/prctl.h


def end_with_parent() -> None:
    """Have the kernel kill this process when its parent dies (Linux; elsewhere the closed socket ends it).
    The signal follows the parent thread that started us, which is the one holding the ``EncoderProcess``
    until it closes it."""
    parent = os.getppid()
    if not sys.platform.startswith("linux"):
        return
    try:
        ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
    except (OSError, AttributeError):
        return
    if os.getppid() != parent:  # the parent died before the call took effect
        os._exit(0)


if __name__ == "__main__":
    end_with_parent()
    fd, model, runtime, cache, onnx_file = sys.argv[1:6]
    try:
        _serve(Connection(int(fd)), model, runtime, cache or None, onnx_file)
    except (BrokenPipeError, ConnectionResetError):
        # The parent has gone (Ctrl-C while this child was still loading the model, say), and the
        # parent has said why: no traceback of ours on the same terminal.
        sys.exit(0)
