"""The seam between reading a question and answering it: ``Assistant.understand`` reads the question once, into its
plan, and nothing after it reads the question's text again. An answer made from the plan with the question's text
withheld must cite the same papers and say the same, for questions of every kind and for follow-up turns."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

DATA = Path(__file__).parent / "data"
WITHHELD = "(the question is withheld)"


def _questions(name: str) -> tuple[list[str], list[list[str]]]:
    single, conversations = [], []
    for line in (DATA / f"{name}.jsonl").read_text().splitlines():
        item = json.loads(line) if line.strip() else {}
        if "conversation" in item:
            conversations.append([turn["question"] for turn in item["conversation"]])
        elif "question" in item:
            single.append(item["question"])
    return single, conversations


def _same_answer(assistant, question: str, conversation=None) -> None:
    plan = assistant.understand(question, conversation)
    blind = dataclasses.replace(plan, question=WITHHELD)
    seen = assistant.ask(question, plan=plan, llm="none")
    unseen = assistant.ask(WITHHELD, plan=blind, llm="none")
    assert [c.id for c in unseen.citations] == [c.id for c in seen.citations], question
    assert unseen.answer == seen.answer, question


def test_nothing_after_understand_reads_the_question(corpus):
    single, conversations = _questions("check3")
    assert len(single) >= 20 and conversations
    for question in single:
        _same_answer(corpus, question)
    for turns in conversations:
        conversation = corpus.conversation()
        for question in turns:
            _same_answer(corpus, question, conversation)
            corpus.ask(question, conversation=conversation, llm="none")  # the turn the next one follows


def test_what_a_kind_is_asked_on_and_what_is_compared_are_read_once(corpus):
    """Whether a contribution question names a topic or only qualifies the kind, and what a comparison sets side by
    side, are read into the plan: answered with the question withheld, each cites the same papers."""
    for question in ("Which papers introduce benchmarks to evaluate LLM-based agents?",
                     "Which papers contribute a new training dataset or a data synthesis pipeline?",
                     "Which papers include some theoretical analysis to support their method?",
                     "Which papers are mainly empirical studies or analyses of existing models/methods rather than "
                     "new-method papers?",
                     "I want the papers that are mostly experiments to understand why something happens or fails",
                     "Which papers introduce a new metric or measure as a core contribution, either to analyse "
                     "training or to score and evaluate models?",
                     "benchmarks for agents?",
                     "Which papers introduce a new benchmark?",
                     "compare the papers on Lean",
                     "compare the benchmark papers",
                     "compare LEXam and GDPval"):
        _same_answer(corpus, question)
