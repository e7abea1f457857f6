"""Parsing the three input formats into records, with every problem reported by file."""

from __future__ import annotations

import gzip
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
    assert records[0].metadata["keywords"] == ["benchmarks", "chemistry"]
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


# -- the OpenReview export, whole ---------------------------------------------------------------------------
EXPORT_ROW = {"id": "00F7BfXLYJ", "title": "CyberV", "abstract": ABSTRACT, "keywords": ["Video Understanding"],
              "primary_area": "reinforcement learning", "tldr": "A loop that corrects video MLLMs.",
              "decision": "Accept (Oral)", "venue": "ICLR 2026", "year": 2026,
              "openreview_url": "https://openreview.net/forum?id=00F7BfXLYJ", "submission_number": 6845}


def test_jsonl_gz_is_read_whole_with_every_field(tmp_path):
    path = tmp_path / "iclr.jsonl.gz"
    with gzip.open(path, "wt", encoding="utf-8") as fh:
        fh.write(json.dumps(EXPORT_ROW) + "\n" + json.dumps({**EXPORT_ROW, "abstract": ABSTRACT + " More."}) + "\n")
    records, skipped = parse_file(path)
    assert not skipped and [r.source.position for r in records] == [1, 2]
    assert records[0].source.file == "iclr.jsonl.gz"
    assert records[0].metadata == {
        "title": "CyberV", "id": "00F7BfXLYJ", "url": "https://openreview.net/forum?id=00F7BfXLYJ",
        "keywords": ["Video Understanding"], "year": "2026", "venue": "ICLR 2026", "decision": "Accept (Oral)",
        "primary_area": "reinforcement learning", "tldr": "A loop that corrects video MLLMs."}


def test_csv_gz_is_read(tmp_path):
    path = tmp_path / "papers.csv.gz"
    with gzip.open(path, "wt", encoding="utf-8", newline="") as fh:
        fh.write('title,abstract,primary_area,keywords\n"FooBench","' + ABSTRACT + '",datasets and benchmarks,"a; b"\n')
    records, skipped = parse_file(path)
    assert not skipped and len(records) == 1
    assert records[0].metadata == {"title": "FooBench", "primary_area": "datasets and benchmarks", "keywords": ["a", "b"]}


def test_gz_files_are_found_in_folders_and_other_gz_are_refused(tmp_path):
    with gzip.open(tmp_path / "a.jsonl.gz", "wt") as fh:
        fh.write(json.dumps({"abstract": ABSTRACT}) + "\n")
    (tmp_path / "notes.pdf.gz").write_bytes(gzip.compress(b"%PDF-1.4"))
    parsed = parse_paths([tmp_path])
    assert [p.name for p in parsed.files] == ["a.jsonl.gz"] and len(parsed.records) == 1
    assert [s.reason for s in parsed.skipped] == [
        "unsupported file type .pdf.gz: export abstracts as .txt, .jsonl or .csv (or gzip one: .jsonl.gz)"]


@pytest.mark.parametrize("name, content, reason", [
    ("corrupt.jsonl.gz", b"\x1f\x8b\x08\x00" + bytes(range(256)) * 4, "gzip data is corrupt or cut short"),
    ("plain.jsonl.gz", (json.dumps({"abstract": ABSTRACT}) + "\n").encode(), "gzip data is corrupt or cut short"),
    ("empty-inside.jsonl.gz", gzip.compress(b""), "empty once decompressed"),
    ("unnamed.jsonl", gzip.compress(b'{"abstract": "x"}\n'), "add .gz to its name"),
], ids=["corrupt", "not-gzip", "empty-inside", "gzip-not-named-so"])
def test_bad_gzip_is_one_clear_line_naming_the_file(tmp_path, name, content, reason):
    path = tmp_path / name
    path.write_bytes(content)
    records, skipped = parse_file(path)
    assert records == [] and len(skipped) == 1
    assert skipped[0].path == str(path) and reason in skipped[0].reason


def test_gzip_cut_short_keeps_what_came_before_and_says_where(tmp_path):
    lines = "".join(json.dumps({"abstract": f"{ABSTRACT} Paper {i}."}) + "\n" for i in range(2000))
    whole = gzip.compress(lines.encode())
    path = tmp_path / "cut.jsonl.gz"
    path.write_bytes(whole[: len(whole) // 2])
    records, skipped = parse_file(path)
    assert 0 < len(records) < 2000 and len(skipped) == 1
    assert f"corrupt or cut short after line {len(records)}" in skipped[0].reason


def test_gzip_that_decompresses_past_the_cap_is_refused(tmp_path, monkeypatch):
    import ingest.parse as parse

    monkeypatch.setattr(parse, "MAX_FILE_BYTES", 50_000)
    path = tmp_path / "bomb.jsonl.gz"
    path.write_bytes(gzip.compress(("".join(json.dumps({"abstract": f"{ABSTRACT} {i}"}) + "\n" for i in range(1000))).encode()))
    assert path.stat().st_size < 50_000
    records, skipped = parse_file(path)
    assert len(skipped) == 1 and "decompresses to over" in skipped[0].reason and len(records) < 1000


def test_openreview_api_v2_notes(tmp_path):
    note = {"id": "Zx9Kp2LmQa", "forum": "Zx9Kp2LmQa", "number": 12,
            "content": {"title": {"value": "Nested"}, "abstract": {"value": ABSTRACT},
                        "keywords": {"value": ["LLM; agents", "planning"]},
                        "primary_area": {"value": "reinforcement learning"}, "TLDR": {"value": "Agents plan."},
                        "venue": {"value": "ICLR 2026 Poster"}, "authors": {"value": ["A. One", "B. Two"]}}}
    path = tmp_path / "notes.jsonl"
    path.write_text(json.dumps(note) + "\n")
    (record,), skipped = parse_file(path)
    assert not skipped
    assert record.metadata == {"title": "Nested", "authors": "A. One, B. Two", "id": "Zx9Kp2LmQa",
                               "url": "https://openreview.net/forum?id=Zx9Kp2LmQa",
                               "keywords": ["LLM", "agents", "planning"], "venue": "ICLR 2026 Poster",
                               "year": "2026", "primary_area": "reinforcement learning", "tldr": "Agents plan."}


@pytest.mark.parametrize("keywords, expected", [
    (["LLM", "agents"], ["LLM", "agents"]),
    (["Reinforcement Learning; Signal Temporal Logic"], ["Reinforcement Learning", "Signal Temporal Logic"]),
    (["a; b", "c", "a"], ["a", "b", "c"]),
    ("LLM; agents; planning", ["LLM", "agents", "planning"]),
    ("LLM, agents", ["LLM", "agents"]),
    ("graph learning, GNN; molecules", ["graph learning, GNN", "molecules"]),  # ";" joins: the "," is inside one
    ({"value": ["x; y"]}, ["x", "y"]),
    ("", None), ([], None), (None, None),
])
def test_keyword_shapes(tmp_path, keywords, expected):
    path = tmp_path / "k.jsonl"
    path.write_text(json.dumps({"abstract": ABSTRACT, "keywords": keywords}) + "\n")
    (record,), _ = parse_file(path)
    assert record.metadata.get("keywords") == expected


@pytest.mark.parametrize("row, url", [
    ({"url": "https://example.org/p1", "openreview_url": "https://openreview.net/forum?id=AbCdEfGh12"},
     "https://example.org/p1"),
    ({"openreview_url": "https://openreview.net/forum?id=AbCdEfGh12"}, "https://openreview.net/forum?id=AbCdEfGh12"),
    ({"id": "AbCdEfGh12", "primary_area": "optimization"}, "https://openreview.net/forum?id=AbCdEfGh12"),
    ({"id": "AbCdEfGh12", "forum": "ZyXwVuTs98"}, "https://openreview.net/forum?id=ZyXwVuTs98"),
    ({"id": "AbCdEfGh12"}, None),  # an id alone may be anyone's: no OpenReview field, no link made up
    ({"id": "paper 17", "primary_area": "optimization"}, None),  # not an OpenReview id
])
def test_url_from_the_row_or_its_openreview_id(tmp_path, row, url):
    path = tmp_path / "u.jsonl"
    path.write_text(json.dumps({"abstract": ABSTRACT, **row}) + "\n")
    (record,), _ = parse_file(path)
    assert record.metadata.get("url") == url


def test_paper_record_keeps_the_new_fields_and_chunks_the_filtered_ones():
    from assistant import schema

    fields = {"title": "T", "url": "https://openreview.net/forum?id=x", "primary_area": "optimization",
              "tldr": "Short.", "decision": "Reject", "keywords": ["LLM", "Agents", "llm"]}
    meta = schema.paper_metadata("T", True, fields, [{"file": "a.jsonl", "path": "/a.jsonl", "position": 1}], 1)
    assert (meta["url"], meta["primary_area"], meta["tldr"], meta["decision"]) == \
        ("https://openreview.net/forum?id=x", "optimization", "Short.", "Reject")
    assert meta["keywords"] == ["llm", "agents"]
    chunk = schema.chunk_metadata("p", meta, (0, 5))
    assert chunk["primary_area"] == "optimization" and chunk["decision"] == "Reject"
    assert "tldr" not in chunk and "url" not in chunk
