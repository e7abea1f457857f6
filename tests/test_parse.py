"""Parsing the three input formats into records, with every problem reported by file."""

from __future__ import annotations

import json

import pytest

from ingest.names import derive_title, find_name
from ingest.parse import parse_file, parse_paths
from ingest.records import paper_id

from .conftest import BUNDLED

ABSTRACT = ("We introduce FooBench, a benchmark of 500 chemistry problems for language models. "
            "Models solve only 12% of them, which shows large room for improvement in scientific reasoning.")


def test_seed_format_blocks_and_duplicates_across_files():
    parsed = parse_paths([BUNDLED])
    assert len(parsed.records) == 57
    assert len({r.id for r in parsed.records}) == 49
    assert not parsed.skipped
    first = parsed.records[0]
    assert first.source.file.endswith(".txt") and first.source.position == 1
    assert first.metadata == {"year": "2026", "venue": "ICLR 2026"}  # read from the header line


def test_id_ignores_case_and_whitespace_differences():
    assert paper_id("Hello   world.\n") == paper_id("hello world.")
    assert paper_id("Hello world.") != paper_id("Hello world!")


def test_jsonl_with_openreview_shape(tmp_path):
    path = tmp_path / "export.jsonl"
    rows = [
        {"id": "abc", "title": "FooBench", "abstract": ABSTRACT, "keywords": ["benchmarks", "chemistry"], "year": 2026},
        {"content": {"title": {"value": "Nested"}, "abstract": {"value": ABSTRACT.replace("Foo", "Bar")},
                     "venue": {"value": "ICLR 2026 Poster"}}},
    ]
    path.write_text("\n".join(json.dumps(r) for r in rows) + "\n")
    records, skipped = parse_file(path)
    assert not skipped
    assert [r.metadata.get("title") for r in records] == ["FooBench", "Nested"]
    assert records[0].metadata["keywords"] == "benchmarks, chemistry"
    assert records[1].metadata["venue"] == "ICLR 2026 Poster"
    assert records[1].source.position == 2


def test_csv_with_metadata(tmp_path):
    path = tmp_path / "papers.csv"
    path.write_text('title,abstract,decision\n"FooBench","' + ABSTRACT + '",Accept (poster)\n')
    records, skipped = parse_file(path)
    assert not skipped and len(records) == 1
    assert records[0].metadata == {"title": "FooBench", "decision": "Accept (poster)"}


@pytest.mark.parametrize("name, content, reason", [
    ("empty.txt", b"", "empty"),
    ("blank.txt", b"   \n\n  \n", "no abstracts"),
    ("image.txt", b"\x89PNG\r\n\x1a\n" + bytes(200), "binary"),
    ("noabstract.jsonl", b'{"title": "x"}\n', "no 'abstract' field"),
    ("broken.jsonl", b'{"abstract": "' + ABSTRACT.encode() + b'"}\n{not json\n', "not valid JSON"),
    ("nocol.csv", b"title,summary\nx,y\n", "no 'abstract' column"),
])
def test_problems_name_the_file_and_reason(tmp_path, name, content, reason):
    path = tmp_path / name
    path.write_bytes(content)
    _records, skipped = parse_file(path)
    assert len(skipped) == 1
    assert skipped[0].path == str(path)
    assert reason in skipped[0].reason


def test_missing_path_and_unsupported_type_are_reported(tmp_path):
    (tmp_path / "notes.pdf").write_bytes(b"%PDF-1.4")
    parsed = parse_paths([tmp_path / "nope.txt", tmp_path / "notes.pdf"])
    reasons = {s.path.rsplit("/", 1)[-1]: s.reason for s in parsed.skipped}
    assert "no such file" in reasons["nope.txt"]
    assert "unsupported file type" in reasons["notes.pdf"]


@pytest.mark.parametrize("fragment, name", [
    ("We introduce PoLR (Path of Least Resistance)", "PoLR"),
    ("The resulting method is termed LASER-D", "LASER-D"),
    ("We introduce THINKMERGE", "THINKMERGE"),
    ("We introduce GDPval", "GDPval"),
    ("We introduce ProofOptimizer", "ProofOptimizer"),
    ("Developmental Federated Tuning (DevFT)", "DevFT"),
    # "researchers introduced Prioritized Experience Replay (PER)" and "an extension to PER": PER is prior work
    ("Reliability-adjusted Prioritized Experience Replay (ReaPER)", "ReaPER"),
    ("We propose EmotionThinker", "EmotionThinker"),  # not the GRPO-PTR it also defines where "we" speak
])
def test_derived_titles_name_what_the_paper_introduces(fragment, name):
    text = next(r.text for r in parse_paths([BUNDLED]).records if fragment in r.text)
    assert find_name(text) == name
    assert derive_title(text).startswith(name)


@pytest.mark.parametrize("fragment, title", [
    ("we present Echo, a LALM", "Echo: a LALM capable of"),  # a plain word used as a name
    ("We introduce a framework (CRD)", "CRD: a framework to decompose concept-level rules"),  # the aside dropped
    ("IS data synthesis framework WebShaper", "WebShaper: a formalization-driven IS data synthesis framework"),
    ("training-free framework named ST-SimDiff", "ST-SimDiff: a training-free framework"),
    ("adaptive backtracking (AdaBack)", "AdaBack: adaptive backtracking"),  # spelled out in lower case
    ("Extrapolative Correlation Attention (ECA)", "ECA: Extrapolative Correlation Attention"),  # not PCC, a loss
    ("we propose **Parallel-R1**", "Parallel-R1: the first reinforcement learning framework"),  # past "(RL)"
    ("Set Supervised Fine-Tuning", "SSFT: Set Supervised Fine-Tuning"),  # "Fine-Tuning" is no name
    ("we closely examine three prevalent failure modes", "Why LLMs perform sub-optimally in decision-making"),
    # no name: the first claim that stands alone ("we start by developing"), not a later one pointing back
    ("weighted aggregation of responses", "A theoretical framework for optimally combining signals"),
])
def test_derived_titles_read_like_titles(fragment, title):
    text = next(r.text for r in parse_paths([BUNDLED]).records if fragment in r.text)
    assert derive_title(text).startswith(title)


def test_title_without_a_name_is_a_short_phrase():
    title = derive_title("In this work we show that small models can learn long division from examples. "
                         "We train many of them and report the results in detail across settings.")
    assert title.startswith("Small models can learn long division")
    assert len(title.split()) <= 11


def test_title_skips_a_claim_that_points_back():
    title = derive_title("Sparse models are hard to train. We propose a schedule that calibrates these gates per layer. "
                         "We show that gradient noise sets the best sparsity of a layer.")
    assert title.startswith("Gradient noise sets the best sparsity")
