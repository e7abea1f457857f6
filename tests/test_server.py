"""Scale out: the CLI against a real Chroma server on loopback (ASSISTANT_CHROMA_URL).

Two clients with different ASSISTANT_HOMEs share one server: what one ingests the other
finds, and each client's BM25 index (kept in its own home) is rebuilt from the server when
the store's revision stamp changes.
"""

from __future__ import annotations

import json
import shutil

import pytest

from bench.procs import chroma_server as start_chroma_server

from .conftest import BUNDLED, ROOT, run_cli

CHROMA = ROOT / ".venv" / "bin" / "chroma"
FIRST = "000_f1080e5cb02b8f2e.txt"   # holds PoLR
SECOND = "004_6909a62b24dbb033.txt"  # holds ProofOptimizer


@pytest.fixture
def chroma_server(tmp_path):
    if not CHROMA.exists():
        pytest.fail(f"{CHROMA} is missing: chromadb's `chroma` command should be installed with it")
    data = tmp_path / "server-data"
    with start_chroma_server(data, tmp_path / "chroma.log") as (url, _pid):
        yield url, data


def _json(result):
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)


def _stamp(home):
    stamps = [p for p in (home / "lexical").glob("*/manifest.json") if not p.parent.name.endswith("-keywords")]
    assert len(stamps) == 1, stamps
    return json.loads(stamps[0].read_text())


def test_two_clients_share_a_chroma_server(chroma_server, tmp_path):
    url, data = chroma_server
    env = {"ASSISTANT_CHROMA_URL": url}
    first, second = tmp_path / "first", tmp_path / "second"
    first.mkdir()
    second.mkdir()
    shutil.copy(BUNDLED / FIRST, first / FIRST)
    shutil.copy(BUNDLED / SECOND, second / SECOND)
    home_a, home_b = tmp_path / "client-a", tmp_path / "client-b"

    report = _json(run_cli("ingest", str(first), "--json", home=home_a, env=env))
    assert report["added"] == report["papers"] > 10 and report["skipped"] == []
    assert not (home_a / "chroma").exists(), "the data must live on the server, not in the client's home"
    assert any(data.iterdir()), "the server wrote nothing"

    hits = _json(run_cli("search", "tell me about PoLR", "--json", home=home_a, env=env))["results"]
    assert hits[0]["title"].startswith("PoLR")

    # A second client, another home: same papers, and a BM25 index built from the server.
    papers_a = {p["id"] for p in _json(run_cli("papers", "--json", home=home_a, env=env))}
    papers_b = {p["id"] for p in _json(run_cli("papers", "--json", home=home_b, env=env))}
    assert papers_a == papers_b and len(papers_a) == report["papers"]
    hits = _json(run_cli("search", "tell me about PoLR", "--json", home=home_b, env=env))["results"]
    assert hits[0]["title"].startswith("PoLR")
    stamp_a, stamp_b = _stamp(home_a), _stamp(home_b)
    assert stamp_b["revision"] == stamp_a["revision"] and stamp_b["papers"] == len(papers_a)

    # The first client adds papers: the second sees them, and its BM25 index follows.
    more = _json(run_cli("ingest", str(second), "--json", home=home_a, env=env))
    assert more["added"] > 10 and more["papers"] == report["papers"] + more["added"]
    hits = _json(run_cli("search", "tell me about ProofOptimizer", "--json", home=home_b, env=env))["results"]
    assert hits[0]["title"].startswith("ProofOptimizer")
    rebuilt = _stamp(home_b)
    assert rebuilt["revision"] != stamp_b["revision"] and rebuilt["revision"] == _stamp(home_a)["revision"]
    assert rebuilt["papers"] == more["papers"]
    assert len(rebuilt["segments"]) == 2  # the new papers were added as a segment, the first one kept


def test_bm25_alone_works_through_the_server(chroma_server, tmp_path):
    """The lexical side on its own (no embedding model): BM25 over papers read from the server."""
    from assistant import Assistant, Settings

    url, _data = chroma_server
    folder = tmp_path / "papers"
    folder.mkdir()
    shutil.copy(BUNDLED / FIRST, folder / FIRST)
    _json(run_cli("ingest", str(folder), "--json", home=tmp_path / "writer", env={"ASSISTANT_CHROMA_URL": url}))

    reader = Assistant(Settings.from_env(env={}, home=tmp_path / "reader", chroma_url=url, llm="none"))
    assert reader.store.open(None, create=False)
    top_id, _score = reader.lexical.search("PoLR path of least resistance", 3)[0]
    meta, _text = reader.store.get_papers([top_id])[top_id]
    assert meta["title"].startswith("PoLR")
    assert reader.lexical.folder.is_relative_to(tmp_path / "reader")
