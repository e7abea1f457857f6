"""The ONNX runtime of the embedder: tokenise, run the transformer on ONNX Runtime, pool and normalise.

It never imports torch or sentence-transformers, so it starts faster and uses less memory than the
torch reference, whose vectors it reproduces (tests/test_embedding.py).
"""

from __future__ import annotations

import os
from pathlib import Path

TOKEN_BUDGET = 2048  # word pieces per ONNX batch: 2048 peaks 150 MB lower than 8192 at the same speed


def cpu_threads() -> int:
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # not Linux
        return max(1, os.cpu_count() or 1)


class OnnxEncoder:
    """Tokenise, run the transformer on ONNX Runtime, pool and normalise, as sentence-transformers does."""

    def __init__(self, onnx_file: Path | None, model_path: Path, max_tokens: int, pooling: str, session=None) -> None:
        """``onnx_file`` is loaded into a session of its own unless ``session`` is given (``sharing_the_session``)."""
        from tokenizers import Tokenizer

        self.session = session or self._session(onnx_file)
        self.inputs = {i.name for i in self.session.get_inputs()}
        self.tokenizer = Tokenizer.from_file(str(model_path / "tokenizer.json"))
        self.tokenizer.enable_truncation(max_length=max_tokens)
        self.tokenizer.no_padding()
        self.pooling = pooling

    def sharing_the_session(self, model_path: Path, max_tokens: int) -> "OnnxEncoder":
        """An encoder with a tokenizer of its own (two threads cannot share one) and this one's session, which ONNX
        Runtime lets several threads run at once: a second session held the weights twice (+65 MB, measured)."""
        return OnnxEncoder(None, model_path, max_tokens, self.pooling, session=self.session)

    @staticmethod
    def _session(onnx_file: Path):
        import onnxruntime as ort

        options = ort.SessionOptions()
        options.intra_op_num_threads = cpu_threads()
        options.inter_op_num_threads = 1
        options.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
        options.log_severity_level = 3
        # Idle pool threads sleep instead of spinning: between runs (tokenising, pooling) and while
        # the ingest's Chroma writer thread needs a core, spinning burned ~30% of the encoder's CPU
        # time for nothing (bench: 1,500 chunks, 12.7 s CPU spinning vs 8.9 s not, same vectors).
        options.add_session_config_entry("session.intra_op.allow_spinning", "0")
        return ort.InferenceSession(str(onnx_file), options, providers=["CPUExecutionProvider"])

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
