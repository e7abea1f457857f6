"""Making the ONNX runtimes' model files: the fp32 export and its int8 quantisation.

Run as ``python -m assistant.onnx_export STEP SOURCE TARGET`` (STEP: ``export`` or ``quantize``) by
``Embedder.model_file``, in a child process: the export imports torch and transformers (~650 MB
resident, measured), which a long-running server (``assistant ui``) would otherwise keep for its whole
life after its first start on a fresh machine. A ``ConfigError`` ends the child with exit code 3 and
its message and hint as a JSON line on stdout, so the parent raises it as it is.

Why not sentence-transformers' own ``backend="onnx"``: it loads models through ``optimum-onnx``, whose
latest release (0.1.0) requires ``transformers<4.58`` while sentence-transformers 6 requires
``transformers>=5``, so the two cannot be installed together. What it would add is only the export,
done here with ``torch.onnx.export`` (which needs the ``onnx`` package, and torch, both only here).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from .errors import ConfigError
from .locks import replacing

CONFIG_ERROR_EXIT = 3


def export_onnx(model_path: Path, target: Path) -> None:
    """Export the transformer of a sentence-transformers folder to ONNX (fp32, dynamic batch and length)."""
    from .embedding import quiet_hub

    quiet_hub()
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
    with replacing(target) as partial, warnings.catch_warnings(), torch.no_grad():
        warnings.simplefilter("ignore")
        torch.onnx.export(Encoder(model), args, str(partial), input_names=names, output_names=["last_hidden_state"],
                          dynamic_axes=axes, opset_version=17, dynamo=False)


def quantize_int8(source: Path, target: Path) -> None:
    """Dynamic int8 quantisation of the matrix multiplications (weights per channel, activations per batch)."""
    try:
        from onnxruntime.quantization import QuantType, quantize_dynamic
    except ImportError as exc:
        raise ConfigError(f"Quantising the embedding model needs {exc.name}, which is not installed.",
                          "Run `pip install onnx` (or ./install.sh), or set ASSISTANT_EMBED_BACKEND=onnx.") from None
    with replacing(target) as partial:
        quantize_dynamic(str(source), str(partial), op_types_to_quantize=["MatMul"], per_channel=True,
                         weight_type=QuantType.QInt8)


STEPS = {"export": export_onnx, "quantize": quantize_int8}


def main(argv: list[str]) -> int:
    step, source, target = argv
    try:
        STEPS[step](Path(source), Path(target))
    except ConfigError as exc:
        print(json.dumps([exc.message, exc.hint]))
        return CONFIG_ERROR_EXIT
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
