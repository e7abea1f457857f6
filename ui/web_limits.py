"""What one answer may cost a shared server: how many a language model writes at once, and how long one runs.

On two cores, two answers by the local model (35-40 s each) held both cores, and everything else waited
on them. ``AnswerLimits`` lets ``settings.model_answers`` answers be written by a model at once and
refuses the next with a message that says so (answers quoting the abstracts, ``llm=none``, are not
counted), and stops any answer's model at ``settings.answer_seconds``, keeping what it wrote and quoting
the abstracts for the rest, marked incomplete.
"""

from __future__ import annotations

import threading
from contextlib import contextmanager
from typing import Iterator

from assistant.errors import LLMError


class AnswerLimits:
    def __init__(self, settings) -> None:
        self.most = settings.model_answers
        self.seconds = settings.answer_seconds
        self._slots = threading.BoundedSemaphore(self.most) if self.most else None
        self._count = threading.Lock()
        self.writing = 0  # model answers being written now

    @contextmanager
    def model_slot(self, llm: str) -> Iterator[None]:
        """Hold one of the model's slots for the block when ``llm`` is a model (not "none"), or refuse."""
        if llm == "none":
            yield
            return
        if self._slots is None or not self._slots.acquire(blocking=False):
            raise LLMError(f"A language model is already writing {self.most} answer{'s' * (self.most != 1)}, "
                           f"the most this server writes at once (ASSISTANT_MODEL_ANSWERS={self.most}).",
                           "Ask again in a moment, or ask with llm=none for an answer quoting the abstracts now.")
        with self._count:
            self.writing += 1
        try:
            yield
        finally:
            with self._count:
                self.writing -= 1
            self._slots.release()

    @contextmanager
    def deadline(self, stop: threading.Event) -> Iterator[threading.Event]:
        """Set ``stop`` (``Assistant.stream(stop=)``) once ``seconds`` have passed, so the model is no longer
        waited on, in reading the question or in writing; yields whether the deadline came."""
        fired = threading.Event()

        def at_deadline() -> None:
            fired.set()
            stop.set()

        timer = threading.Timer(self.seconds, at_deadline)
        timer.daemon = True
        timer.start()
        try:
            yield fired
        finally:
            timer.cancel()

    def say_if_stopped(self, fired: threading.Event, answer) -> None:
        """The note of an answer its deadline stopped (``deadline``)."""
        if fired.is_set() and not answer.complete and not answer.note:
            answer.note = (f"Stopped after {self.seconds:g} s, the longest one answer may take here "
                           "(ASSISTANT_ANSWER_SECONDS).")
