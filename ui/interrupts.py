"""Ctrl-C while an answer streams, without losing it inside llama-cpp-python.

llama-cpp-python sends llama.cpp's log lines through a Python function called from C (a ctypes
callback). A KeyboardInterrupt raised while that function runs cannot get out: ctypes prints
"Exception ignored on calling ctypes callback function" and the answer goes on. It runs while
the model loads and during generation, so a Ctrl-C pressed then was lost (measured: 2 of 7
presses 0.1-0.2 s after an answer's first line). Python runs signal handlers in the main
thread at the next bytecode, which may be inside that callback; the handler here then only
notes the press and asks the answer to stop (``on_press``), which it does at the model's next
token, and the streaming loop raises KeyboardInterrupt before printing anything more.

A finalizer (``__del__``) is the same: Python prints "Exception ignored in ..." for an exception
raised there and goes on, so a Ctrl-C landing in one (the ``regex`` module's, during an ingest) is
noted the same way, and the ingest checks the event between windows.
"""

from __future__ import annotations

import signal
import threading
from contextlib import contextmanager
from typing import Callable, Iterator

_CALLBACK_FILES = ("llama_cpp/_logger.py",)  # Python code that C calls back, where raising is futile


def _raising_is_futile(frame) -> bool:
    """Whether an exception raised in ``frame`` is printed and dropped: it runs in a C callback or a finalizer."""
    while frame is not None:
        code = frame.f_code
        if code.co_name == "__del__" or code.co_filename.replace("\\", "/").endswith(_CALLBACK_FILES):
            return True
        frame = frame.f_back
    return False


@contextmanager
def stoppable(on_press: Callable[[], None] | None = None) -> Iterator[threading.Event]:
    """While active, Ctrl-C raises KeyboardInterrupt as usual, except inside a C callback or a finalizer,
    where it sets the yielded event and calls ``on_press`` instead: check the event between pieces.
    ``on_press`` runs inside a signal handler, so it should only set a flag (``AnswerStream.cancel``).
    Outside the main thread, a no-op."""
    pressed = threading.Event()
    if threading.current_thread() is not threading.main_thread():
        yield pressed
        return

    def on_interrupt(signum, frame) -> None:
        pressed.set()
        if not _raising_is_futile(frame):
            raise KeyboardInterrupt
        if on_press is not None:
            on_press()

    previous = signal.signal(signal.SIGINT, on_interrupt)
    try:
        yield pressed
    finally:
        signal.signal(signal.SIGINT, previous)
