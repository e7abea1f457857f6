"""The BM25 index follows the store incrementally and scores like an index built from scratch."""

from __future__ import annotations

import json
import shutil

import numpy as np
import pytest

from assistant.lexical import MAX_SEGMENTS, LexicalIndex
from tests.conftest import BUNDLED

QUERIES = ["PoLR path of least resistance", "proof simplification for Lean", "token pruning for long video",
           "reward models at inference time", "virtual cell perturbation", "legal reasoning benchmark German",
           "Zeta protein folding", "mixed integer programs"]


def fresh_copy(index: LexicalIndex, folder) -> LexicalIndex:
    """An index of the same store built from nothing, in another folder."""
    return LexicalIndex(index.store, folder)


def assert_same_results(a: LexicalIndex, b: LexicalIndex) -> None:
    for query in QUERIES:
        got, want = a.search(query, 10), b.search(query, 10)
        assert [pid for pid, _ in got] == [pid for pid, _ in want], query
        assert np.allclose([s for _, s in got], [s for _, s in want], rtol=1e-5), query


def test_scores_rank_like_bm25s(corpus):
    """Same tokens, same BM25 variant as bm25s (Lucene's): the same ranking over the bundled corpus."""
    import bm25s

    index = corpus.searcher.lexical
    index.ensure_current()
    papers = {p.id: p for p in corpus.papers()}
    ids = sorted(papers)
    texts = [f"{papers[i].title}. {papers[i].title}. {papers[i].text}" for i in ids]
    reference = bm25s.BM25(method="lucene", k1=1.5, b=0.75)
    reference.index(index.tokenize(texts), show_progress=False)
    for query in QUERIES[:6]:
        docs, scores = reference.retrieve(index.tokenize([query]), k=8, show_progress=False)
        want = [(ids[int(d)], float(s)) for d, s in zip(docs[0], scores[0]) if s > 0]
        got = index.search(query, 8)
        assert [pid for pid, _ in got] == [pid for pid, _ in want], query
        ratios = [g / w for (_, g), (_, w) in zip(got, want)]
        assert np.allclose(ratios, ratios[0], rtol=1e-4), query  # one constant factor: (k1 + 1)


def test_adding_and_removing_files_touches_only_what_changed(make_assistant, tmp_path):
    folder = tmp_path / "in"
    folder.mkdir()
    first, second = sorted(BUNDLED.glob("*.txt"))[:2]
    shutil.copy(first, folder / first.name)
    assistant = make_assistant()
    assistant.ingest([folder])
    index = assistant.lexical
    manifest = json.loads((index.folder / "manifest.json").read_text())
    assert manifest["revision"] == assistant.store.revision()  # the ingest wrote the index, for every process
    assert index._by_term is None  # and did not build the query's structures, which the next query loads
    before = index.describe()
    assert len(before["segments"]) == 1 and before["deleted"] == 0
    segment_file = index.folder / f"{before['segments'][0]}.npz"
    stamp = segment_file.stat().st_mtime_ns, segment_file.read_bytes()

    shutil.copy(second, folder / second.name)
    report = assistant.ingest([folder])
    after = index.describe()
    assert after["segments"][0] == before["segments"][0] and len(after["segments"]) == 2
    assert (segment_file.stat().st_mtime_ns, segment_file.read_bytes()) == stamp  # not rewritten
    assert after["papers"] == report.papers == before["papers"] + report.added
    assert_same_results(index, fresh_copy(index, tmp_path / "scratch-1"))

    (folder / first.name).unlink()  # its papers leave the store; those also in `second` stay
    report = assistant.ingest([folder])
    removed = index.describe()
    assert removed["papers"] == report.papers and report.removed > 0
    # rows marked deleted, or (past MAX_DELETED_SHARE) the segments merged without them
    merged = removed["segments"] != after["segments"]
    assert (len(removed["segments"]), removed["deleted"]) == (1, 0) if merged else removed["deleted"] == report.removed
    live = {p.id for p in assistant.papers()}
    for query in QUERIES:
        assert {pid for pid, _ in index.search(query, 50)} <= live
    assert_same_results(index, fresh_copy(index, tmp_path / "scratch-2"))


def test_many_small_changes_merge_segments(make_assistant, tmp_path):
    folder = tmp_path / "in"
    folder.mkdir()
    assistant = make_assistant()
    for n in range(MAX_SEGMENTS + 2):
        (folder / f"p{n}.txt").write_text(
            f"Batch {n}\n\nWe introduce Zeta{n}Net, a method for protein folding number {n} that predicts "
            f"structures from sequences and mixed integer programs.\n")
        assistant.ingest([folder])
        assert len(assistant.lexical.describe()["segments"]) <= MAX_SEGMENTS
    assert assistant.lexical.describe()["papers"] == MAX_SEGMENTS + 2
    top, _score = assistant.lexical.search("Zeta7Net", 1)[0]
    assert "Zeta7Net" in assistant.store.get_papers([top])[top][1]
    assert_same_results(assistant.lexical, fresh_copy(assistant.lexical, tmp_path / "scratch"))


def test_a_damaged_index_is_rebuilt_from_the_store(corpus, tmp_path):
    index = fresh_copy(corpus.searcher.lexical, tmp_path / "lex")
    index.ensure_current()
    (index.folder / "vocab.json").write_text("{not json")
    reopened = fresh_copy(corpus.searcher.lexical, tmp_path / "lex")
    top, _ = reopened.search("PoLR path of least resistance", 1)[0]
    assert corpus.store.get_papers([top])[top][0]["title"].startswith("PoLR")
    assert reopened.describe()["papers"] == 49


@pytest.mark.parametrize("query", ["", "the of and", "zzzzunknownterm"])
def test_queries_without_known_terms_find_nothing(corpus, query):
    assert corpus.searcher.lexical.search(query, 5) == []


def test_coverage_read_off_the_index_equals_coverage_of_the_text(corpus):
    index = corpus.searcher.lexical
    papers = {p.id: p for p in corpus.papers()}
    for query in QUERIES:
        from_index = index.paper_coverage(query, list(papers))
        from_text = index.coverage(query, {pid: f"{p.title} {p.text}" for pid, p in papers.items()})
        assert set(from_index) == set(papers)
        assert np.allclose([from_index[pid] for pid in papers], [from_text[pid] for pid in papers]), query
    assert index.paper_coverage("PoLR", ["not-a-paper"]) == {}


def test_compound_words_are_also_indexed_by_their_parts(corpus):
    """"Lean" finds Lean4PHYS, whose abstract says only "Lean4", "Lean4PHYS" and "LeanPhysBench";
    before, the whole word was the only term, and BM25 ranked it 4th behind papers without Lean."""
    from assistant.bm25_tokens import with_parts

    assert with_parts("Lean4PHYS and LeanPhysBench on AIME2024") == (
        "Lean4PHYS and LeanPhysBench on AIME2024 Lean 4 PHYS Lean Phys Bench AIME 2024")
    assert with_parts("LLMs, CRISP and plain words") == "LLMs, CRISP and plain words"  # nothing to split
    top = [pid for pid, _ in corpus.searcher.lexical.search("Lean", 2)]
    titles = {p.id: p.title.split(":")[0] for p in corpus.papers()}
    assert sorted(titles[pid] for pid in top) == ["Lean4PHYS", "ProofOptimizer"]


def test_hyphenated_compounds_count_whole(corpus):
    """"test-time adaptation" is a term of its own: a paper saying it holds more of the query than one with
    "test", "time" and "adaptation" apart."""
    from assistant.bm25_tokens import with_parts

    assert with_parts("test-time training and chain-of-thought") == (
        "test-time training and chain-of-thought testtime chainofthought")
    assert with_parts("a - b and -- c") == "a - b and -- c"  # no word joined by a hyphen
    shares = corpus.searcher.lexical.coverage("test-time adaptation", {
        "whole": "We propose a test-time adaptation method.",
        "apart": "At test time, the time budget limits domain adaptation."})
    assert shares["whole"] > shares["apart"] and shares["whole"] > 0.99



@pytest.mark.parametrize("query, words", [
    ("Which papers report results on AIME?", "AIME"),
    ("what work is there on audio?", "audio"),
    ("papers that study world models", "world models"),
    ("partial supervision between SFT and RL", "partial supervision between SFT RL"),  # how things relate stays
    ("what is it?", "what is it?"),  # nothing left: the query itself
    ("any system-type papers on GRPO-style methods?", "system GRPO methods"),  # "-type", "-style": of that kind
    ("give me the ones of this type", "give me the ones of this type"),
    ("ok, a model that learns from his own guesses when nobody gives it labels", "model learns guesses gives labels"),
])
def test_topic_words_leave_out_the_words_of_asking(query, words):
    from assistant.query_words import topic_words

    assert topic_words(query) == words
