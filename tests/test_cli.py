"""The `assistant` command's JSON contract and its errors, through real subprocesses."""

from __future__ import annotations

import json

from .conftest import run_cli


def test_ingest_json_then_idempotent(tmp_path):
    home = tmp_path / "home"
    first = run_cli("ingest", "--json", home=home)
    assert first.returncode == 0, first.stderr
    report = json.loads(first.stdout)
    assert report["papers"] == 49 and report["added"] == 49 and report["skipped"] == []
    assert report["chunks"] > 49
    second = json.loads(run_cli("ingest", "--json", home=home).stdout)
    assert (second["added"], second["unchanged"], second["papers"]) == (0, 49, 49)

    result = run_cli("search", "which papers reduce reasoning token usage", "--k", "5", "--json", home=home)
    found = json.loads(result.stdout)
    assert found["plan"]["kind"] == "list" and found["total"] == len(found["results"])
    hits = found["results"]
    assert {"id", "title", "sources", "score", "text", "passage"} <= set(hits[0])
    titles = " ".join(h["title"] for h in hits)
    assert "PoLR" in titles and "LASER-D" in titles

    batch = tmp_path / "q.jsonl"
    batch.write_text('{"question": "proof simplification for Lean"}\n{"question": "knowledge graphs for drug discovery"}\n')
    lines = run_cli("search", "--batch", str(batch), "--json", home=home).stdout.splitlines()
    rows = [json.loads(line) for line in lines]
    assert [r["question"] for r in rows] == ["proof simplification for Lean", "knowledge graphs for drug discovery"]
    assert rows[0]["results"][0]["title"].startswith("ProofOptimizer") and rows[1]["results"] == []
    assert [r["plan"]["kind"] for r in rows] == ["topic", "topic"]

    papers = json.loads(run_cli("papers", "--json", home=home).stdout)
    assert len(papers) == 49 and {"id", "title", "sources", "text"} <= set(papers[0])

    readable = run_cli("search", "tell me about PoLR", home=home).stdout
    assert readable.startswith("named paper: PoLR\n1. PoLR")


def test_mistakes_are_one_clear_line(tmp_path):
    home = tmp_path / "home"
    empty = run_cli("search", "anything", home=home)
    assert empty.returncode != 0 and "assistant ingest" in empty.stderr and "Traceback" not in empty.stderr

    missing = run_cli("ingest", str(tmp_path / "nope.txt"), "--json", home=home)
    assert missing.returncode == 1
    assert json.loads(missing.stdout)["skipped"][0]["reason"].startswith("no such file")

    bad_setting = run_cli("search", "x", home=home, env={"ASSISTANT_LLM": "gpt9"})
    assert bad_setting.returncode != 0 and "ASSISTANT_LLM" in bad_setting.stderr and "Traceback" not in bad_setting.stderr

    bad_filter = run_cli("search", "x", "--where", "colour=red", home=home)
    assert "Unknown filter field" in bad_filter.stderr and "Traceback" not in bad_filter.stderr


def test_every_command_has_help_with_examples(tmp_path):
    for command in ("ingest", "search", "papers", "ask", "chat", "eval", "ui"):
        result = run_cli(command, "--help", home=tmp_path)
        assert result.returncode == 0 and "Usage: assistant" in result.stdout, command
        assert "assistant " + command.split()[0] in result.stdout or command in ("chat", "ui"), command


def test_answers_show_markdown_bold_as_bold_only_on_a_colour_terminal():
    import click

    import ui.cli  # noqa: F401  (the command group, which registers the answering commands, loads first)
    from ui.terminal import for_terminal

    piece = "\n\n**On Lean:**\n- **ProofOptimizer** [2]: a **5.3** gain"
    with click.Context(click.Command("ask"), color=True):
        shown = for_terminal(piece)
    assert "**" not in shown and click.style("On Lean:", bold=True) in shown
    assert click.unstyle(shown) == piece.replace("**", "")
    with click.Context(click.Command("ask"), color=False):  # NO_COLOR, TERM=dumb
        assert for_terminal(piece) == piece
    assert for_terminal(piece) == piece  # no command context, and pytest's stdout is no terminal


def test_a_list_page_says_once_how_many_more_and_which_page_is_next(corpus_home):
    """The library's answer counts the papers on later pages (``more``, ``next_page`` in the JSON); the
    terminal says how to see them, once."""
    question, env = "which papers use reinforcement learning?", {"ASSISTANT_PAGE_SIZE": "3"}
    found = json.loads(run_cli("search", question, "--json", home=corpus_home, env=env).stdout)
    total = found["total"]
    assert total > 6 and (found["more"], found["next_page"]) == (total - 3, 2)

    answer = json.loads(run_cli("ask", question, "--page", "2", "--json", home=corpus_home, env=env).stdout)
    assert [c["n"] for c in answer["citations"]] == [4, 5, 6]
    assert (answer["total"], answer["more"], answer["next_page"]) == (total, total - 6, 3)
    assert f"{total - 6} more" not in answer["answer"]

    shown = run_cli("ask", question, "--page", "2", home=corpus_home, env=env)
    assert shown.returncode == 0, shown.stderr
    assert shown.stdout.count(f"{total - 6} more") == 1 and f"{total - 6} more: --page 3, or --all" in shown.stdout
    listed = run_cli("search", question, "--page", "2", home=corpus_home, env=env).stdout
    assert listed.count(f"{total - 6} more") == 1 and f"{total - 6} more: --page 3, or --all" in listed

    last = -(-total // 3)
    final = json.loads(run_cli("ask", question, "--page", str(last), "--json", home=corpus_home, env=env).stdout)
    assert final["citations"] and (final["more"], final["next_page"]) == (0, None)
    assert " more: --page" not in run_cli("ask", question, "--page", str(last), home=corpus_home, env=env).stdout


def test_k_is_bounded_by_the_max_k_setting_not_by_the_command(corpus_home):
    """``--k`` takes any number the library takes (up to ``ASSISTANT_MAX_K``); over it, the error names the setting."""
    question = "which theoretical papers study attention?"
    wide = json.loads(run_cli("search", question, "--k", "30", "--json", home=corpus_home).stdout)
    assert wide["plan"] is not None
    too_many = run_cli("ask", question, "--k", "31", "--llm", "none", home=corpus_home, env={"ASSISTANT_MAX_K": "30"})
    assert too_many.returncode != 0 and "Traceback" not in too_many.stderr
    assert "k=31" in too_many.stderr and "ASSISTANT_MAX_K" in too_many.stderr


def test_training_free_methods_are_listed_with_their_label(corpus_home):
    """The terminal shows each paper's kinds with what form its method takes, and the plan line what was asked."""
    result = run_cli("ask", "Which papers propose training-free methods for video?", home=corpus_home)
    assert result.returncode == 0, result.stderr
    assert "only those whose method needs no training" in result.stdout
    sources = [line for line in result.stdout.splitlines() if line.startswith("[")]
    assert len(sources) == 2 and all("[method (training-free)" in line for line in sources)
    assert sources[1].endswith("[method (training-free); cuts inference cost]")  # ST-SimDiff: "reducing computational costs"
    found = json.loads(run_cli("search", "training-free long video", "--json", home=corpus_home).stdout)
    assert found["plan"]["training"] == "free"
    assert all(hit["method_forms"] == ["training-free"] for hit in found["results"])
