"""A question that combines things no paper combines says so (``assistant.concepts``), on a real store."""

from __future__ import annotations

import json

from assistant.concepts import concepts

PROTEIN = {"title": "FoldNet: Protein Folding with Geometric Transformers",
           "abstract": "We predict protein folding pathways with a geometric transformer. Protein structures are "
                       "folded from amino acid sequences, and FoldNet improves structure accuracy on CASP targets."}
QUANTUM = {"title": "QubitNet: Error Mitigation for Quantum Computers",
           "abstract": "Noisy quantum computers limit circuit depth. We mitigate readout errors on superconducting "
                       "quantum computers with a learned model, reducing error rates on benchmark circuits."}
BOTH = {"title": "QFold: Protein Folding on Quantum Computers",
        "abstract": "We map protein folding to an optimisation problem solved on quantum computers, and fold small "
                    "peptides with a variational quantum algorithm on superconducting hardware."}
OTHERS = [{"title": f"Paper {i} on graph learning", "abstract": f"We study graph neural networks for task {i}. "
           "Message passing layers are trained on citation graphs and evaluated on node classification."}
          for i in range(6)]


def test_the_concepts_are_the_runs_of_topic_words():
    assert concepts("protein folding with quantum computers") == ["protein folding", "quantum computers"]
    assert concepts("any work on test-time adaptation for vision-language models?") == \
        ["test-time adaptation", "vision-language models"]
    assert concepts("which papers reduce reasoning token usage?") == []  # one run: one thing
    # joined by a coordinator, runs are alternatives: papers on either answer
    assert concepts("papers on robots and embodied AI") == [] and concepts("audio / speech llm papers?") == []
    assert concepts("a simulator or world model for robot learning") == ["simulator or world model", "robot learning"]
    assert concepts("papers on Lean") == []


def _store(make_assistant, tmp_path, rows):
    assistant = make_assistant()
    data = tmp_path / "papers.jsonl"
    data.write_text("\n".join(json.dumps(r) for r in rows))
    assistant.ingest([data])
    return assistant


def test_no_paper_on_both_is_said_and_the_nearest_on_each_are_grouped(make_assistant, tmp_path):
    assistant = _store(make_assistant, tmp_path, [PROTEIN, QUANTUM, *OTHERS])
    answer = assistant.ask("which papers are on protein folding with quantum computers?")
    assert answer.none_on_all == ["protein folding", "quantum computers"], answer.answer
    assert answer.answer.startswith("No paper in the store is on both protein folding and quantum computers."), \
        answer.answer
    by_topic = {c.title.split(":")[0]: c.topic for c in answer.citations}
    assert by_topic.get("FoldNet") == "protein folding" and by_topic.get("QubitNet") == "quantum computers", by_topic
    assert "**On protein folding:**" in answer.answer and "**On quantum computers:**" in answer.answer
    assert answer.as_dict()["none_on_all"] == ["protein folding", "quantum computers"]


def test_a_paper_on_both_is_answered_as_usual(make_assistant, tmp_path):
    assistant = _store(make_assistant, tmp_path, [PROTEIN, QUANTUM, BOTH, *OTHERS])
    answer = assistant.ask("protein folding with quantum computers")
    assert answer.none_on_all == [] and "No paper" not in answer.answer, answer.answer
    assert any(c.title.startswith("QFold") for c in answer.citations)
