"""The real OpenReview export read whole and used: urls, primary areas, tldrs and decisions stored, shown,
and filtered on, on a slice of the ICLR 2026 corpus through the real `assistant` command."""

from __future__ import annotations

import gzip
import json
import os

import pytest

from assistant.errors import InputError
from assistant.filters import Filter
from assistant.latex import plain

from .conftest import ROOT, run_cli

CORPUS = ROOT.parent / "shared" / "corpus" / "iclr2026.jsonl.gz"
ABSTRACT = ("We introduce FooBench, a benchmark of 500 chemistry problems for language models. "
            "Models solve only 12% of them, which shows large room for improvement in scientific reasoning.")
DECISIONS = ["Accept (Oral)", "Accept (Poster)", "Accept (Conditional Poster)", "Desk Rejected", "Reject", "Withdrawn"]
AREAS = ["reinforcement learning", "learning theory", "learning on graphs and other geometries & topologies",
         "applications to robotics, autonomy, planning"]
KNOWN = {"decision": DECISIONS, "area": AREAS}


# -- filters on decisions and areas ----------------------------------------------------------------------
@pytest.mark.parametrize("where, field, values", [
    ("decision=accepted", "decision", ("Accept (Oral)", "Accept (Poster)", "Accept (Conditional Poster)")),
    ("decision=Accept", "decision", ("Accept (Oral)", "Accept (Poster)", "Accept (Conditional Poster)")),
    ("decision=oral", "decision", ("Accept (Oral)",)),
    ("decision=poster", "decision", ("Accept (Poster)", "Accept (Conditional Poster)")),
    ("decision=withdrawn", "decision", ("Withdrawn",)),
    ("decision=rejected", "decision", ("Reject",)),
    ("decision=desk rejected", "decision", ("Desk Rejected",)),
    ("decision=accept (poster)", "decision", ("Accept (Poster)",)),  # one decision, in any case
    ("decision=oral; decision=withdrawn", "decision", ("Accept (Oral)", "Withdrawn")),
    ("area=reinforcement learning", "area", ("reinforcement learning",)),
    ("area=Robotics", "area", ("applications to robotics, autonomy, planning",)),
    ("primary_area=graphs", "area", ("learning on graphs and other geometries & topologies",)),
])
def test_decision_groups_and_area_parts_resolve_to_the_stores_values(where, field, values):
    assert Filter.parse(where).resolved(KNOWN).fields[field] == values


@pytest.mark.parametrize("where, said, valid", [
    ("decision=maybe", "decision='maybe' is not a decision", "accepted, oral, spotlight, poster, rejected"),
    ("area=quantum chemistry", "area='quantum chemistry' is not a primary area", "reinforcement learning; learning theory"),
    ("area=learning", "area='learning' is part of 3 primary areas", "learning on graphs"),
])
def test_unknown_decisions_and_areas_are_refused_by_name_with_the_valid_values(where, said, valid):
    with pytest.raises(InputError) as caught:
        Filter.parse(where).resolved(KNOWN)
    assert said in str(caught.value) and valid in str(caught.value)


# -- a store ingested before the fields were read gets them on the next ingest ---------------------------
def test_ingesting_the_same_file_again_adds_the_new_fields_without_re_embedding(make_assistant, tmp_path):
    path = tmp_path / "export.jsonl"
    rows = [{"id": f"AbCdEfGh1{i}", "title": f"Paper {i}", "abstract": f"{ABSTRACT} Variant {i}."} for i in range(3)]
    path.write_text("".join(json.dumps(r) + "\n" for r in rows))
    assistant = make_assistant()
    first = assistant.ingest([path])
    assert (first.added, first.papers) == (3, 3)
    assert all(p.primary_area is None and p.url is None for p in assistant.papers())

    richer = [{**r, "primary_area": "datasets and benchmarks", "decision": "Accept (Oral)" if i else "Withdrawn",
               "openreview_url": f"https://openreview.net/forum?id={r['id']}", "tldr": "A chemistry benchmark."}
              for i, r in enumerate(rows)]
    path.write_text("".join(json.dumps(r) + "\n" for r in richer))
    again = assistant.ingest([path])
    assert (again.added, again.updated, again.papers, again.chunks) == (0, 3, 3, first.chunks)
    papers = assistant.papers()
    assert {p.url for p in papers} == {f"https://openreview.net/forum?id={r['id']}" for r in rows}
    assert {p.primary_area for p in papers} == {"datasets and benchmarks"} and papers[0].tldr == "A chemistry benchmark."
    # the chunks carry the area and decision too: a filtered dense search finds the papers
    assert {h.title for h in assistant.search("chemistry benchmark", where="area=benchmarks; decision=oral")} == \
        {"Paper 1", "Paper 2"}
    assert assistant.ingest([path]).unchanged == 3  # nothing new the third time


# -- the real corpus through the real command ------------------------------------------------------------
@pytest.fixture(scope="module")
def slice_home(tmp_path_factory):
    """A store of 200 papers of the ICLR 2026 export (every 98th line), as a .jsonl.gz, ingested by the CLI."""
    if not CORPUS.exists():
        pytest.skip(f"the ICLR 2026 corpus is not at {CORPUS} (shared/ beside the repository)")
    folder = tmp_path_factory.mktemp("openreview")
    sliced = folder / "iclr2026-slice.jsonl.gz"
    with gzip.open(CORPUS, "rt", encoding="utf-8") as src, gzip.open(sliced, "wt", encoding="utf-8") as out:
        out.writelines(line for number, line in enumerate(src) if number % 98 == 0)
    home = folder / "home"
    done = run_cli("ingest", str(sliced), "--json", home=home, timeout=900)
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    assert report["added"] == report["papers"] == 201 and report["skipped"] == []
    return home


def _search(home, query, *where, k="10"):
    result = run_cli("search", query, "--k", k, "--json", *(f"--where={w}" for w in where), home=home)
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)["results"]


QUERY = "reinforcement learning for language model reasoning"


def test_search_json_shows_url_area_tldr_and_decision(slice_home):
    hits = _search(slice_home, QUERY)
    assert hits
    assert all(h["url"].startswith("https://openreview.net/forum?id=") for h in hits)
    assert all(h["primary_area"] for h in hits) and {"tldr", "decision"} <= set(hits[0])


def test_where_area_restricts_the_results(slice_home):
    everything = _search(slice_home, QUERY)
    assert {h["primary_area"] for h in everything} != {"reinforcement learning"}  # the filter has work to do
    hits = _search(slice_home, QUERY, "area=reinforcement learning")
    assert hits and {h["primary_area"] for h in hits} == {"reinforcement learning"}


def test_where_decision_accepted_restricts_the_results(slice_home):
    everything = _search(slice_home, QUERY)
    assert any(not (h["decision"] or "").startswith("Accept") for h in everything)
    hits = _search(slice_home, QUERY, "decision=accepted")
    assert hits and all(h["decision"].startswith("Accept") for h in hits)
    withdrawn = _search(slice_home, QUERY, "decision=withdrawn")
    assert withdrawn and {h["decision"] for h in withdrawn} == {"Withdrawn"}


@pytest.mark.parametrize("where, said", [("area=quantum gardening", "is not a primary area"),
                                         ("area=learning", "primary areas"),
                                         ("decision=maybe", "is not a decision")])
def test_unknown_area_or_decision_is_one_clear_error(slice_home, where, said):
    result = run_cli("search", QUERY, "--where", where, home=slice_home)
    assert result.returncode != 0 and "Traceback" not in result.stderr
    assert said in result.stderr


def test_terminal_shows_latex_in_quotes_and_titles_as_plain_text(slice_home, tmp_path):
    """A quote holding ``\\%`` prints with ``%``, a title's LaTeX as text, in `search` and in `ask` (its answer
    and its sources); the JSON keeps the abstract as stored, which citations quote exactly."""
    papers = json.loads(run_cli("papers", "--json", home=slice_home).stdout)
    marked = [p for p in papers if "\\%" in p["text"]]
    assert marked
    # which of these papers' results quote a sentence with "\%": asked in one batch
    questions = [f"how much does {plain(p['title']).split(':')[0]} improve?" for p in marked]
    batch = tmp_path / "questions.jsonl"
    batch.write_text("".join(json.dumps({"question": q}) + "\n" for q in questions))
    answers = [json.loads(line) for line in
               run_cli("ask", "--batch", str(batch), "--k", "1", "--json", home=slice_home).stdout.splitlines()]
    quoting = [(a["question"], a["citations"][0]) for a in answers
               if a["citations"] and "\\%" in a["citations"][0]["evidence"]]
    assert quoting, "no answer quotes a sentence with \\%"
    question, cited = quoting[0]
    assert cited["evidence"] in cited["text"]  # the stored abstract, quoted exactly

    printed = run_cli("ask", question, "--k", "1", home=slice_home, env={"NO_COLOR": "1"}).stdout
    assert "\\%" not in printed
    assert printed.count(plain(cited["evidence"].strip())) == 2  # in the answer and under Sources
    assert plain(cited["title"]) in printed and cited["url"] in printed

    hit = _search(slice_home, question, k="1")[0]
    shown = run_cli("search", question, "--k", "1", home=slice_home, env={"NO_COLOR": "1"}).stdout
    assert plain(hit["passage"].strip()) in shown and plain(hit["title"]) in shown and hit["url"] in shown
    assert "\\%" not in shown


def test_for_terminal_converts_the_pieces_around_the_bold():
    from ui.terminal import for_terminal

    os.environ.pop("FORCE_COLOR", None)
    assert for_terminal("\u201cby 90\\% on **12.5\\%** of $\\alpha$-tasks\u201d") == \
        "\u201cby 90% on **12.5%** of α-tasks\u201d"

