"""Shared fixtures: the real embedding model, real Chroma stores in temp folders, the real CLI."""

from __future__ import annotations

import gzip
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
DATA = Path(__file__).resolve().parent / "data"
BUNDLED = ROOT / "data" / "iclr2026"
ASSISTANT = ROOT / ".venv" / "bin" / "assistant"
CORPUS = ROOT.parent / "shared" / "corpus" / "iclr2026.jsonl.gz"  # the real conference, beside the repository

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("ANONYMIZED_TELEMETRY", "False")
os.environ.setdefault("GRADIO_ANALYTICS_ENABLED", "False")


@pytest.fixture(scope="session")
def embedder():
    """The encoder the settings choose by default, so the shared stores are what a user's would be."""
    from assistant import Settings
    from assistant.embedding import Embedder

    return Embedder(backend=Settings.from_env(env={}).embed_backend)


@pytest.fixture
def settings(tmp_path):
    from assistant import Settings

    return Settings.from_env(env={}, home=tmp_path / "home", llm="none")


@pytest.fixture
def make_assistant(embedder, tmp_path):
    """Build an Assistant on a fresh store; shares the loaded embedding model across tests."""
    from assistant import Assistant, Settings

    def make(home: Path | None = None, **overrides):
        settings = Settings.from_env(env={}, home=home or tmp_path / "home", **{"llm": "none", **overrides})
        return Assistant(settings, embedder=embedder)

    return make


@pytest.fixture(scope="session")
def corpus_home(tmp_path_factory, embedder):
    """One store holding the bundled corpus, ingested once for every read-only test."""
    from assistant import Assistant, Settings

    home = tmp_path_factory.mktemp("corpus-home")
    Assistant(Settings.from_env(env={}, home=home, llm="none"), embedder=embedder).ingest()
    return home


@pytest.fixture
def corpus(corpus_home, embedder):
    from assistant import Assistant, Settings

    return Assistant(Settings.from_env(env={}, home=corpus_home, llm="none"), embedder=embedder)


@pytest.fixture(scope="session")
def dev_set():
    return [json.loads(line) for line in (DATA / "dev.jsonl").read_text().splitlines() if line.strip()]


def run_cli(*args: str, home: Path, input: str | None = None, env: dict | None = None, timeout: int = 300):
    """Run the installed `assistant` command as a user would."""
    full_env = {**os.environ, "ASSISTANT_HOME": str(home), "ASSISTANT_LLM": "none", **(env or {})}
    return subprocess.run([str(ASSISTANT), *args], capture_output=True, text=True, input=input,
                          env=full_env, timeout=timeout, cwd=ROOT)


def expected_ids(papers, relevant: list[str]) -> set[str]:
    return {p.id for p in papers if any(s in p.text for s in relevant)}


@pytest.fixture(scope="session")
def python():
    return sys.executable


@pytest.fixture(scope="session")
def real_slice(tmp_path_factory, embedder):
    """Every 10th paper of the real corpus (1,963), ingested once."""
    if not CORPUS.exists():
        pytest.skip(f"the real corpus is not at {CORPUS}")
    from assistant import Assistant, Settings

    folder = tmp_path_factory.mktemp("real-slice")
    path = folder / "slice.jsonl.gz"
    with gzip.open(CORPUS, "rt", encoding="utf-8") as src, gzip.open(path, "wt", encoding="utf-8") as out:
        for number, line in enumerate(src):
            if number % 10 == 0:
                out.write(line)
    plain = folder / "slice.jsonl"  # read as plain JSON lines, whatever compressed files the parser reads
    with gzip.open(path, "rt", encoding="utf-8") as src, plain.open("w", encoding="utf-8") as out:
        shutil.copyfileobj(src, out)
    path.unlink()
    home = folder / "home"
    Assistant(Settings.from_env(env={}, home=home, llm="none"), embedder=embedder).ingest([plain])
    return home
