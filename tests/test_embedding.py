"""The encoder runtimes: ONNX (fp32) gives torch's vectors, int8 is close but never mixed with them."""

from __future__ import annotations

import shutil
import subprocess
import sys

import numpy as np
import pytest

from .conftest import BUNDLED, ROOT

TEXTS = [
    "which papers reduce reasoning token usage",
    "  PoLR  ",
    "x",
    # longer than the model's 256 word pieces: both runtimes must truncate the same way
    " ".join(["Learned optimizers are powerful alternatives to hand-designed rules like Adam."] * 30),
    "CLIP is a discriminative model trained to align images and text in a shared embedding space. "
    "We show that image synthesis is nevertheless possible using CLIP alone.",
]


@pytest.fixture(scope="session")
def model_cache(tmp_path_factory):
    return tmp_path_factory.mktemp("onnx-models")


@pytest.fixture(scope="session")
def torch_embedder():
    """The reference runtime (the shared ``embedder`` fixture uses the settings' default, int8 ONNX)."""
    from assistant.embedding import Embedder

    return Embedder(backend="torch")


@pytest.fixture(scope="session")
def onnx_embedder(model_cache):
    from assistant.embedding import Embedder

    return Embedder(backend="onnx", cache_dir=model_cache)


@pytest.fixture(scope="session")
def int8_embedder(model_cache):
    from assistant.embedding import Embedder

    return Embedder(backend="onnx-int8", cache_dir=model_cache)


def test_onnx_matches_torch(torch_embedder, onnx_embedder):
    reference = torch_embedder.embed(TEXTS)
    got = onnx_embedder.embed(TEXTS)
    assert got.shape == reference.shape and got.dtype == np.float32
    assert np.allclose(np.linalg.norm(got, axis=1), 1.0, atol=1e-5)
    assert float((got * reference).sum(axis=1).min()) > 0.99999
    assert np.allclose(onnx_embedder.embed_query(TEXTS[0]), reference[0], atol=1e-5)


def test_batching_does_not_change_vectors(onnx_embedder):
    """Vectors do not depend on what else is in the call (length sorting, padding, batch splits)."""
    many = TEXTS * 70  # > one token budget: several batches of different widths
    together = onnx_embedder.embed(many)
    alone = np.stack([onnx_embedder.embed([t])[0] for t in TEXTS])
    assert np.allclose(together[:len(TEXTS)], alone, atol=1e-5)
    assert np.allclose(together[-len(TEXTS):], alone, atol=1e-5)


def test_int8_is_close_to_torch(torch_embedder, int8_embedder):
    reference = torch_embedder.embed(TEXTS)
    got = int8_embedder.embed(TEXTS)
    assert np.allclose(np.linalg.norm(got, axis=1), 1.0, atol=1e-5)
    assert float((got * reference).sum(axis=1).min()) > 0.95


def test_store_names_separate_int8_from_fp32(torch_embedder, onnx_embedder, int8_embedder):
    assert torch_embedder.name == onnx_embedder.name == "all-MiniLM-L6-v2"
    assert int8_embedder.name != torch_embedder.name and "int8" in int8_embedder.name
    assert torch_embedder.dimension == onnx_embedder.dimension == int8_embedder.dimension == 384
    assert torch_embedder.max_tokens == onnx_embedder.max_tokens == 256


def test_tokenize_counts_like_the_model_tokenizer(torch_embedder, onnx_embedder):
    for text in TEXTS:
        expected = torch_embedder.model.tokenizer(text, add_special_tokens=False, verbose=False)["input_ids"]
        assert torch_embedder.tokenize(text) == expected == onnx_embedder.tokenize(text)


def test_export_is_made_once_and_reused(onnx_embedder, int8_embedder, model_cache):
    from assistant.embedding import Embedder

    onnx_embedder.embed(["a"])
    int8_embedder.embed(["a"])
    files = sorted(p for p in model_cache.rglob("*.onnx"))
    assert [p.name for p in files] == ["model-int8.onnx", "model.onnx"]
    stamps = [p.stat().st_mtime_ns for p in files]
    Embedder(backend="onnx-int8", cache_dir=model_cache).embed(["b"])
    assert [p.stat().st_mtime_ns for p in files] == stamps
    assert not list(model_cache.rglob("*.part"))


def test_onnx_runtime_does_not_load_torch(onnx_embedder, model_cache):
    onnx_embedder.embed(["exported"])
    code = ("import sys; from assistant.embedding import Embedder; "
            f"e = Embedder(backend='onnx', cache_dir={str(model_cache)!r}); e.embed(['hello']); e.tokenize('hi'); "
            "print(sorted(m for m in ('torch', 'sentence_transformers', 'transformers') if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "[]"


def test_int8_store_refuses_fp32_queries(tmp_path, int8_embedder, onnx_embedder, torch_embedder):
    from assistant import Assistant, Settings
    from assistant.errors import ModelMismatchError

    folder = tmp_path / "papers"
    folder.mkdir()
    shutil.copy(BUNDLED / "000_f1080e5cb02b8f2e.txt", folder)  # holds PoLR
    settings = Settings.from_env(env={}, home=tmp_path / "home", llm="none")
    report = Assistant(settings, embedder=int8_embedder).ingest([folder])
    assert report.added > 0
    with pytest.raises(ModelMismatchError):
        Assistant(settings, embedder=onnx_embedder).search("reasoning")
    with pytest.raises(ModelMismatchError):
        Assistant(settings, embedder=torch_embedder).search("reasoning")
    assert Assistant(settings, embedder=int8_embedder).search("tell me about PoLR", k=1)


def test_torch_store_is_searched_with_onnx(tmp_path, torch_embedder, onnx_embedder):
    """fp32 ONNX and torch share a name: a store built with one is searched with the other."""
    from assistant import Assistant, Settings

    folder = tmp_path / "papers"
    folder.mkdir()
    shutil.copy(BUNDLED / "000_f1080e5cb02b8f2e.txt", folder)  # holds PoLR
    settings = Settings.from_env(env={}, home=tmp_path / "home", llm="none")
    Assistant(settings, embedder=torch_embedder).ingest([folder])
    by_torch = Assistant(settings, embedder=torch_embedder).search("tell me about PoLR", k=3)
    by_onnx = Assistant(settings, embedder=onnx_embedder).search("tell me about PoLR", k=3)
    assert [h.id for h in by_onnx] == [h.id for h in by_torch]
    assert by_onnx[0].score == pytest.approx(by_torch[0].score, abs=1e-4)


def test_unknown_backend_is_a_config_error():
    from assistant.embedding import Embedder
    from assistant.errors import ConfigError

    with pytest.raises(ConfigError):
        Embedder(backend="tensorflow")


def test_unwritable_cache_is_a_config_error(tmp_path):
    from assistant.embedding import Embedder
    from assistant.errors import ConfigError

    blocked = tmp_path / "file"
    blocked.write_text("not a folder")  # even root cannot make a folder inside a regular file
    with pytest.raises(ConfigError):
        Embedder(backend="onnx", cache_dir=blocked / "models").embed(["x"])


def test_an_export_that_cannot_run_is_one_config_error(tmp_path, monkeypatch):
    """The export runs as `python -m assistant.onnx_export` in a child; a ConfigError there (here: the
    onnx package missing) reaches the caller as the same one-line error, and no partial file stays."""
    from assistant.embedding import Embedder
    from assistant.errors import ConfigError

    blocker = tmp_path / "site" / "onnx"
    blocker.mkdir(parents=True)
    (blocker / "__init__.py").write_text("raise ImportError('not installed', name='onnx')\n")
    monkeypatch.setenv("PYTHONPATH", str(tmp_path / "site"))
    embedder = Embedder(backend="onnx", cache_dir=tmp_path / "models")
    with pytest.raises(ConfigError, match="needs onnx") as caught:
        embedder.model_file()
    assert "pip install onnx" in caught.value.hint
    assert [p.name for p in embedder.export_folder.iterdir()] == [".lock"]


def test_a_query_goes_before_long_work_waiting_for_the_encoder():
    """TurnTaking: when the encoder frees, a waiting query (a search someone waits on) takes it before the
    next slice of an answer's sentences that was waiting first."""
    import threading
    import time

    from assistant.embedding import TurnTaking

    turns, order = TurnTaking(), []

    def take(name: str, first: bool) -> None:
        with turns.hold(first=first):
            order.append(name)

    with turns.hold(first=False):  # the encoder busy with a slice
        slow = threading.Thread(target=take, args=("slice", False))
        slow.start()
        time.sleep(0.2)  # the slice waits first
        query = threading.Thread(target=take, args=("query", True))
        query.start()
        while not turns._first_waiting:  # the query waits too
            time.sleep(0.01)
    slow.join(10)
    query.join(10)
    assert order == ["query", "slice"]


def test_a_query_does_not_wait_for_long_work_holding_the_encoder(onnx_embedder):
    """A query (``FEW`` texts or fewer) has a session of its own: it is encoded while an answer's or an ingest's
    slice holds the shared one, and its vector is the one the shared session gives."""
    import threading

    alone = onnx_embedder.embed(TEXTS[:1])
    done = threading.Event()
    got = []

    def query() -> None:
        got.append(onnx_embedder.embed(TEXTS[:1]))
        done.set()

    with onnx_embedder._encode_lock.hold(first=False):  # the shared session busy with a slice, as long as it takes
        threading.Thread(target=query, daemon=True).start()
        assert done.wait(60), "the query waited for the long work"
    assert np.allclose(got[0], alone, atol=1e-5)
    assert np.allclose(onnx_embedder.embed(TEXTS * 3)[:1], alone, atol=1e-5)  # the shared session's vector
