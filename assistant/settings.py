"""One ``Settings`` object, read from ``ASSISTANT_*`` environment variables and overrides.

Every entry point builds it once and passes it down; nothing reads the environment
anywhere else.
"""

from __future__ import annotations

import dataclasses
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Mapping

from .errors import ConfigError

LLM_CHOICES = ("auto", "ollama", "local", "none")
EMBED_BACKENDS = ("torch", "onnx", "onnx-int8")
# int8 ONNX: same dev-set recall as torch, ~3x the encoder speed, no torch import at run time
# (docs/benchmarks.md). The first use exports the model once (~7 s of CPU, needs torch then).
DEFAULT_EMBED_BACKEND = "onnx-int8"


def default_home(env: Mapping[str, str]) -> Path:
    base = env.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "research-assistant"


def default_model_cache(env: Mapping[str, str]) -> Path:
    """The ONNX exports' folder: in the default data folder, whatever ``home`` is, so one export (~7 s
    of CPU, then its int8 quantisation) serves every store on the machine."""
    return default_home(env) / "models"


def bundled_corpus() -> Path:
    """The ICLR 2026 abstracts shipped in the repository."""
    return Path(__file__).resolve().parent.parent / "data" / "iclr2026"


SETTINGS_PAGE = 0  # a page_size argument meaning "the settings' page_size" (ASSISTANT_PAGE_SIZE); None: every paper

@dataclass(frozen=True)
class Settings:
    """How the assistant stores, retrieves and answers. Each field has an env var ``ASSISTANT_<NAME>``."""

    home: Path = field(default_factory=lambda: default_home(os.environ),
                       metadata={"help": "data folder holding the embedded Chroma store"})
    chroma_url: str | None = field(default=None, metadata={"help": "Chroma server URL; unset = embedded store in home"})
    collection: str = field(default="abstracts", metadata={"help": "name of the collection in Chroma"})
    embed_model: str | None = field(default=None, metadata={"help": "sentence-transformers model folder; unset = packaged all-MiniLM-L6-v2"})
    embed_backend: str = field(default=DEFAULT_EMBED_BACKEND,
                               metadata={"help": "encoder runtime: onnx-int8 (default), onnx (torch's vectors) or torch"})
    model_cache: Path = field(default_factory=lambda: default_model_cache(os.environ),
                              metadata={"help": "folder of the embedding model's ONNX exports, shared by every store"})
    embed_process: bool = field(default=True, metadata={"help": "ingests of over 256 new papers encode in a child process: 16% faster at 20k on two cores; the child holds a second copy of the model (~220 MB)"})
    chunk_tokens: int = field(default=64, metadata={"help": "max word pieces per chunk (the model truncates at 256)"})
    chunk_overlap: int = field(default=12, metadata={"help": "word pieces shared by neighbouring chunks"})
    k: int = field(default=5, metadata={"help": "max papers returned by search"})
    min_score: float = field(default=0.62, metadata={"help": "relevance gate: min relevance (dense + 0.35 x lexical) for a paper to count"})
    relative_score: float = field(default=0.85, metadata={"help": "relevance gate: min share of the best paper's relevance"})
    llm: str = field(default="auto", metadata={"help": "answer backend: auto, ollama, local or none"})
    ollama_host: str = field(default="http://127.0.0.1:11434", metadata={"help": "Ollama server (env OLLAMA_HOST)"})
    ollama_model: str = field(default="llama3.2", metadata={"help": "model name in Ollama"})
    local_model: str | None = field(default=None, metadata={"help": "GGUF file; unset = packaged SmolLM2-135M-Instruct"})
    llm_timeout: float = field(default=120.0, metadata={"help": "seconds to wait for the LLM"})
    llm_plans: bool = field(default=True, metadata={"help": "a capable backend (Ollama, or a GGUF of 1B+) proposes each question's plan, which the rules check; the tiny default never does"})
    max_tokens: int = field(default=256, metadata={"help": "max tokens the LLM may write per answer"})
    max_question_chars: int = field(default=2000, metadata={"help": "longest question or query accepted, on every front end"})
    max_k: int = field(default=100, metadata={"help": "most papers one search or answer may ask for"})
    page_size: int = field(default=20, metadata={"help": "papers per page of a list answer (\"which papers ...\")"})
    max_filter_values: int = field(default=100, metadata={"help": "most values one filter may hold (all fields together)"})
    openreview_url: str = field(default="https://api2.openreview.net",
                                metadata={"help": "OpenReview API v2 server that `assistant ingest --openreview VENUE` downloads from"})
    model_answers: int = field(default=1, metadata={"help": "answers a language model may write at once in `assistant ui` (page and API); more are refused with a message, so two cores stay free for searches"})
    answer_seconds: float = field(default=90.0, metadata={"help": "longest one answer may take in `assistant ui`; then it stops, marked incomplete"})

    def __post_init__(self) -> None:
        if self.llm not in LLM_CHOICES:
            raise ConfigError(f"ASSISTANT_LLM={self.llm!r} is not a backend.", f"Use one of: {', '.join(LLM_CHOICES)}.")
        if self.embed_backend not in EMBED_BACKENDS:
            raise ConfigError(f"ASSISTANT_EMBED_BACKEND={self.embed_backend!r} is not supported.",
                              f"Use one of: {', '.join(EMBED_BACKENDS)}.")
        if not 16 <= self.chunk_tokens <= 250:
            raise ConfigError(f"ASSISTANT_CHUNK_TOKENS={self.chunk_tokens} is out of range.",
                              "Use 16..250: the embedding model truncates at 256 word pieces.")
        if not 0 <= self.chunk_overlap < self.chunk_tokens // 2:
            raise ConfigError(f"ASSISTANT_CHUNK_OVERLAP={self.chunk_overlap} is out of range.",
                              "Use a value from 0 to under half of ASSISTANT_CHUNK_TOKENS.")
        if not 1 <= self.page_size <= self.max_k:
            raise ConfigError(f"ASSISTANT_PAGE_SIZE={self.page_size} is out of range.",
                              f"Use 1 to {self.max_k} (ASSISTANT_MAX_K).")
        if self.k < 1:
            raise ConfigError(f"k={self.k} must be at least 1.", "Pass --k 1 or more.")
        if self.model_answers < 0:
            raise ConfigError(f"ASSISTANT_MODEL_ANSWERS={self.model_answers} is out of range.",
                              "Use 0 (answers only quote the abstracts) or more.")
        if not self.answer_seconds > 0:
            raise ConfigError(f"ASSISTANT_ANSWER_SECONDS={self.answer_seconds} is out of range.", "Use a number of seconds above 0.")

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None, **overrides: Any) -> "Settings":
        """Defaults, then ``ASSISTANT_*`` variables, then non-None ``overrides`` (command-line flags)."""
        env = os.environ if env is None else env
        values: dict[str, Any] = {"home": default_home(env), "model_cache": default_model_cache(env)}
        if env.get("OLLAMA_HOST"):
            values["ollama_host"] = normalise_host(env["OLLAMA_HOST"])
        for f in dataclasses.fields(cls):
            raw = env.get(f"ASSISTANT_{f.name.upper()}")
            if raw not in (None, ""):
                values[f.name] = _coerce(f, raw)
        values.update({k: v for k, v in overrides.items() if v is not None})
        for key in ("home", "model_cache"):
            values[key] = Path(values[key]).expanduser()
        return cls(**values)

    def replace(self, **changes: Any) -> "Settings":
        return dataclasses.replace(self, **changes)


def normalise_host(host: str) -> str:
    host = host.strip().rstrip("/")
    if "://" not in host:
        host = "http://" + host
    return host


def _coerce(f: dataclasses.Field, raw: str) -> Any:
    kind = f.type if isinstance(f.type, str) else getattr(f.type, "__name__", str(f.type))
    name = f"ASSISTANT_{f.name.upper()}"
    if kind == "bool":
        word = raw.strip().lower()
        if word in ("1", "true", "yes", "on"):
            return True
        if word in ("0", "false", "no", "off"):
            return False
        raise ConfigError(f"{name}={raw!r} is not a yes or no.", f"Set {name} to 1 or 0.")
    try:
        if kind == "int":
            return int(raw)
        if kind == "float":
            return float(raw)
    except ValueError:
        raise ConfigError(f"{name}={raw!r} is not a number.", f"Set {name} to a {kind}.") from None
    if kind == "Path":
        return Path(raw).expanduser()
    return raw
