"""Ingestion into a real Chroma store: idempotent, incremental, and refusing to mix models."""

from __future__ import annotations

import pytest

from assistant import ModelMismatchError, StoreBusyError
from assistant import schema
from assistant.store import write_lock


A = "We introduce AlphaNet, a network for protein folding that predicts structures from sequences in seconds."
B = "We present BetaSolver, a solver for mixed integer programs that learns branching rules from data."
C = "We introduce GammaRL, a reinforcement learning method that trains robot policies from human videos."


def write_seed(path, *abstracts):
    path.write_text("Test Papers 2026\n\n" + "\n\n".join(abstracts) + "\n")


def test_bundled_corpus_then_nothing_to_do(corpus):
    assert corpus.stats()["papers"] == 49
    again = corpus.ingest()
    assert (again.added, again.unchanged, again.papers) == (0, 49, 49)
    assert again.chunks == corpus.stats()["chunks"]


def test_duplicates_keep_every_source(corpus):
    polr = next(p for p in corpus.papers() if "We introduce PoLR" in p.text)
    assert len(polr.sources) == 2
    assert {s["file"] for s in polr.sources} == {"000_f1080e5cb02b8f2e.txt", "001_9830726e7dff0e98.txt"}


def test_changed_file_updates_its_papers(make_assistant, tmp_path):
    folder = tmp_path / "in"
    folder.mkdir()
    write_seed(folder / "a.txt", A, B)
    assistant = make_assistant()
    first = assistant.ingest([folder])
    assert (first.added, first.papers) == (2, 2)

    write_seed(folder / "a.txt", A, C)  # B edited away, C new
    second = assistant.ingest([folder])
    assert (second.added, second.removed, second.unchanged, second.papers) == (1, 1, 1, 2)
    titles = {p.title.split(":")[0] for p in assistant.papers()}
    assert titles == {"AlphaNet", "GammaRL"}
    assert assistant.search("robot policies learned from human videos")[0].title.startswith("GammaRL")
    assert not [h for h in assistant.search("branching rules for integer programs") if h.title.startswith("BetaSolver")]


def test_same_abstract_in_a_second_file_adds_a_source_not_a_paper(make_assistant, tmp_path):
    write_seed(tmp_path / "one.txt", A)
    write_seed(tmp_path / "two.txt", A, B)
    assistant = make_assistant()
    assistant.ingest([tmp_path / "one.txt"])
    report = assistant.ingest([tmp_path / "two.txt"])
    assert (report.added, report.updated, report.papers) == (1, 1, 2)
    alpha = next(p for p in assistant.papers() if p.title.startswith("AlphaNet"))
    assert [s["file"] for s in alpha.sources] == ["one.txt", "two.txt"]
    assert assistant.papers(where={"file": "one.txt"})[0].id == alpha.id
    hit = assistant.search("protein folding from sequences", where={"file": "two.txt"})[0]
    assert hit.id == alpha.id and hit.passage and hit.passage in A  # the update kept the chunk's span


def test_a_bad_file_loses_nothing_already_stored(make_assistant, tmp_path):
    path = tmp_path / "a.txt"
    write_seed(path, A, B)
    assistant = make_assistant()
    assistant.ingest([path])
    path.write_bytes(b"\x89PNG\r\n\x1a\n" + bytes(100))  # the file is overwritten by an image
    report = assistant.ingest([path])
    assert report.papers == 2 and report.skipped and "binary" in report.skipped[0].reason


def test_opening_with_another_model_is_refused(make_assistant, tmp_path):
    from assistant import Assistant, Settings
    from assistant.embedding import packaged_model_path

    write_seed(tmp_path / "a.txt", A)
    make_assistant().ingest([tmp_path / "a.txt"])
    other_model = tmp_path / "my-finetuned-minilm"
    other_model.symlink_to(packaged_model_path())  # another model folder, as a user would configure
    other = Assistant(Settings.from_env(env={"ASSISTANT_EMBED_MODEL": str(other_model)}, home=tmp_path / "home"))
    with pytest.raises(ModelMismatchError) as err:
        other.search("protein folding")
    message = str(err.value)
    assert "all-MiniLM-L6-v2" in message and "my-finetuned-minilm" in message and "--rebuild" in message


def test_changed_chunking_is_refused(make_assistant, tmp_path):
    write_seed(tmp_path / "a.txt", A)
    make_assistant().ingest([tmp_path / "a.txt"])
    with pytest.raises(ModelMismatchError) as err:
        make_assistant(chunk_tokens=128, chunk_overlap=16).search("protein folding")
    assert "ASSISTANT_CHUNK_TOKENS" in str(err.value)


def _chunk_texts(store) -> dict[str, str]:
    chunks = store.chunks.get(include=["metadatas"])
    papers = store.get_papers(sorted({m["paper_id"] for m in chunks["metadatas"]}))
    return {cid: schema.passage(meta, papers[meta["paper_id"]][1]) for cid, meta in zip(chunks["ids"], chunks["metadatas"])}


def test_no_chunk_exceeds_the_model_window(corpus, embedder):
    assert corpus.stats()["chunks"] > 49
    texts = _chunk_texts(corpus.store)
    longest = max(embedder.count_tokens(text) for text in texts.values())
    assert longest + 2 <= embedder.max_tokens  # +[CLS] and [SEP]
    assert len(texts) > 49  # long abstracts were split


def test_chunk_records_hold_spans_of_the_abstract_not_copies(corpus, embedder):
    """Each text is stored once: a chunk record points into its paper's abstract, and the span
    it points at is exactly the chunk the splitter made (so the stored vector is of that text)."""
    from ingest.chunking import Chunker

    assert corpus.stats()["chunks"] > 49
    chunks = corpus.store.chunks.get(include=["documents", "metadatas"], limit=60)
    assert not any(chunks["documents"])
    assert all({"start", "end"} <= set(meta) for meta in chunks["metadatas"])
    texts = _chunk_texts(corpus.store)
    chunker = Chunker(embedder, corpus.settings)
    for pid, (_meta, abstract) in list(corpus.store.get_papers(sorted({c.split(":")[0] for c in texts})).items())[:10]:
        made = chunker.split(abstract)
        assert [texts[f"{pid}:{i}"] for i in range(len(made))] == made


def test_a_store_of_an_older_schema_is_refused_with_the_fix(make_assistant, tmp_path):
    write_seed(tmp_path / "a.txt", A)
    first = make_assistant()
    first.ingest([tmp_path / "a.txt"])
    meta = dict(first.store.chunks.metadata)
    first.store.chunks.modify(metadata={**meta, "schema": 1})
    with pytest.raises(ModelMismatchError) as err:
        make_assistant().search("protein folding")
    assert "earlier version" in str(err.value) and "--rebuild" in str(err.value)
    report = make_assistant().ingest([tmp_path / "a.txt"], rebuild=True)
    assert report.papers == 1 and make_assistant().search("protein folding")


def test_second_writer_is_told_the_store_is_in_use(settings):
    with write_lock(settings):
        with pytest.raises(StoreBusyError) as err:
            with write_lock(settings):
                pass
    assert "in use" in str(err.value)


def test_rebuild_starts_over(make_assistant, tmp_path):
    write_seed(tmp_path / "a.txt", A, B)
    assistant = make_assistant()
    assistant.ingest([tmp_path / "a.txt"])
    report = assistant.ingest([tmp_path / "a.txt"], rebuild=True)
    assert (report.added, report.papers) == (2, 2)


def test_chunks_match_plain_sentence_splitting(embedder):
    """Counting word pieces from one encoding per abstract must not move any chunk boundary."""
    from llama_index.core.node_parser import SentenceSplitter

    from assistant import Settings
    from assistant.settings import bundled_corpus
    from ingest.chunking import Chunker
    from ingest.parse import parse_paths

    settings = Settings.from_env(env={})
    chunker = Chunker(embedder, settings)
    assert chunker.counter is not None  # the packaged model's tokenizer takes the fast path
    plain = SentenceSplitter(chunk_size=settings.chunk_tokens, chunk_overlap=settings.chunk_overlap,
                             tokenizer=embedder.tokenize)
    texts = [r.text for r in parse_paths([bundled_corpus()]).records]
    texts += ["Hello wörld, x3.5 playing;; naïve ##test 中文 " * 9, "a,, b;; c.. " * 40, "e\u0301t\u00e9 " * 80,
              "x" * 700, "Ünïcödé—dash…ellipsis “quotes” " * 10, "Short one."]
    expected = [[c for c in plain.split_text(t) if c.strip()] or [t] for t in texts]
    assert chunker.split_all(texts) == expected
    assert [chunker.split(t) for t in texts[-6:]] == expected[-6:]


def test_a_folder_walk_reports_every_entry_it_leaves_out(tmp_path):
    import json
    import os

    from .conftest import run_cli

    folder = tmp_path / "papers"
    (folder / "sub").mkdir(parents=True)
    write_seed(folder / "good.txt", A)
    for i in range(12):
        (folder / f"paper{i:02}.pdf").write_bytes(b"%PDF-1.4")
    (folder / "weights.bin").write_bytes(b"\x00\x01")
    (folder / "figure.png").write_bytes(b"\x89PNG")
    os.mkfifo(folder / "pipe.txt")
    os.symlink("loop.txt", folder / "loop.txt")  # a link to itself
    os.symlink("..", folder / "sub" / "up")  # a folder link back up the tree
    (folder / ".git").mkdir()  # hidden: passed over silently
    result = run_cli("ingest", str(folder), "--json", home=tmp_path / "home")
    assert result.returncode == 1, result.stderr  # the README: exit code 1 when anything was skipped
    report = json.loads(result.stdout)
    assert report["added"] == 1
    reasons = {(s["path"].removeprefix(str(folder)).lstrip("/") or "."): s["reason"] for s in report["skipped"]}
    assert reasons["."].startswith("12 .pdf files skipped (paper00.pdf, paper01.pdf, paper02.pdf, …): "
                                   "unsupported file type .pdf: export abstracts as .txt, .jsonl or .csv")
    assert reasons["weights.bin"].startswith("unsupported file type .bin") and "figure.png" in reasons
    assert reasons["pipe.txt"].startswith("not a regular file (a FIFO)")
    assert reasons["loop.txt"].startswith("symlink loop")
    assert reasons["sub/up"].startswith("symlink loop")
    assert len(report["skipped"]) == 6 and not any(".git" in path for path in reasons)


def test_a_fifo_or_symlink_loop_named_directly_gets_its_real_reason(tmp_path):
    from ingest.parse import discover

    os = __import__("os")
    os.mkfifo(tmp_path / "pipe.txt")
    os.symlink("loop.txt", tmp_path / "loop.txt")
    os.symlink("gone.txt", tmp_path / "broken.txt")
    files, skipped = discover([tmp_path / "pipe.txt", tmp_path / "loop.txt", tmp_path / "broken.txt", tmp_path / "no.txt"])
    reasons = [s.reason for s in skipped]
    assert files == [] and reasons[0].startswith("not a regular file (a FIFO)") and reasons[1].startswith("symlink loop")
    assert reasons[2].startswith("broken symbolic link") and reasons[3].startswith("no such file or folder")


def test_an_unreadable_sub_folder_is_reported(request, python):
    """Run as an unprivileged user (root reads every folder), so the permission check is real."""
    import os
    import shutil
    import subprocess
    import tempfile
    from pathlib import Path

    folder = Path(tempfile.mkdtemp(prefix="assistant-walk-"))  # under /tmp, which any user can enter
    request.addfinalizer(lambda: (os.chmod(folder / "locked", 0o755), shutil.rmtree(folder)))
    (folder / "locked").mkdir()
    write_seed(folder / "good.txt", A)
    write_seed(folder / "locked" / "hidden.txt", B)
    os.chmod(folder / "locked", 0o000)
    os.chmod(folder, 0o755)
    code = f"from ingest.parse import discover; files, skipped = discover([{str(folder)!r}]); " \
           "print([f.name for f in files]); print([(s.path, s.reason) for s in skipped])"
    command = [python, "-c", code]
    if os.geteuid() == 0:
        if not shutil.which("setpriv"):
            pytest.skip("running as root without setpriv to drop privileges")
        command = ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", *command]
    out = subprocess.run(command, capture_output=True, text=True, timeout=120, cwd=os.path.dirname(os.path.dirname(__file__)))
    assert out.returncode == 0, out.stderr
    files, skipped = out.stdout.splitlines()
    assert files == "['good.txt']"
    assert f"('{folder / 'locked'}', 'cannot read folder (Permission denied); check its permissions')" in skipped
