"""The synthesized paragraph of a capable model: scripted, realistic replies over Ollama's real wire
protocol (the stand-in), and every sentence held to the evidence it cites."""

from __future__ import annotations

import json

import pytest

from assistant import Assistant, Settings
from assistant.synthesis import capable

from .standins.ollama_standin import StandIn

QUESTION = "How does ZeroSiam differ from Test-Time Matching (TTM)?"
FINE = "ZeroSiam is an efficient asymmetric Siamese architecture tailored for test-time entropy minimization."
INVENTED_CITATION = "TTM bootstraps model performance without any external supervision."
NUMBER_NOT_IN_ABSTRACT = "ZeroSiam avoids collapse and improves accuracy by 12.5% over prior methods."
WRONG_PAPER = "TTM is an efficient asymmetric Siamese architecture tailored for entropy minimization."


@pytest.fixture(scope="module")
def server():
    with StandIn(model_name="llama3.1:8b") as standin:
        yield standin


def via(url: str, home, embedder, llm_plans: bool = False) -> Assistant:
    """The assistant on the stand-in; planning by the model is off unless a test scripts a plan too."""
    settings = Settings.from_env(env={"OLLAMA_HOST": url}, home=home, ollama_model="llama3.1:8b", llm="ollama",
                                 max_tokens=24, llm_plans=llm_plans)
    return Assistant(settings, embedder=embedder)


@pytest.mark.parametrize("bad", [INVENTED_CITATION, NUMBER_NOT_IN_ABSTRACT, WRONG_PAPER])
def test_only_sentences_the_evidence_supports_survive(server, corpus_home, embedder, bad):
    cites = [7] if bad == INVENTED_CITATION else [2] if bad == WRONG_PAPER else [1]
    server.script = [json.dumps({"sentences": [{"text": FINE, "cites": [1]}, {"text": bad, "cites": cites}]})]
    answer = via(server.url, corpus_home, embedder).ask(QUESTION)
    assert [c.title.split(":")[0] for c in answer.citations] == ["ZeroSiam", "TTM"]  # retrieval decides
    assert answer.synthesis["sentences"] == [{"text": FINE, "cites": [1]}]
    assert answer.synthesis["dropped"] == 1 and answer.synthesis["model"] == "ollama:llama3.1:8b"
    assert answer.answer.startswith(FINE + " [1]") and bad not in answer.answer
    assert "[7]" not in answer.answer and answer.comparison  # the table is still there
    request = next(body for method, path, body in server.requests if path == "/api/chat" and body.get("format"))
    assert request["format"]["properties"]["sentences"]["items"]["properties"]["cites"]["items"]["enum"] == [1, 2]


def test_beside_a_comparison_at_most_two_sentences_are_kept(server, corpus_home, embedder):
    server.requests.clear()
    server.script = [json.dumps({"sentences": [{"text": FINE, "cites": [1]}] * 3})]
    answer = via(server.url, corpus_home, embedder).ask(QUESTION)
    assert answer.comparison and len(answer.synthesis["sentences"]) == 2 and answer.synthesis["dropped"] == 1
    assert "more than 2 sentences" in answer.synthesis["reasons"][0]
    request = next(body for method, path, body in server.requests if path == "/api/chat" and body.get("format"))
    assert request["format"]["properties"]["sentences"]["maxItems"] == 2


def test_a_reply_that_is_not_json_adds_nothing(server, corpus_home, embedder):
    server.script = ["Sure! Here is a comparison of the papers: they are both great [1][2]."]
    answer = via(server.url, corpus_home, embedder).ask(QUESTION)
    assert answer.synthesis["sentences"] == [] and "not the JSON" in answer.synthesis["reasons"][0]
    assert answer.answer.startswith("Comparing 2 papers:")


def test_the_tiny_model_keeps_the_extractive_forms(corpus):
    backend, _note = corpus.backend("local")
    assert not capable(backend)
    answer = corpus.ask(QUESTION, llm="local")
    assert answer.synthesis is None and answer.model.startswith("local:")
    assert [c.title.split(":")[0] for c in answer.citations] == ["ZeroSiam", "TTM"]
    assert answer.answer.startswith("Comparing 2 papers:")


def test_a_capable_model_condenses_a_follow_up_and_the_rules_check_it(server, corpus_home, embedder):
    assistant = via(server.url, corpus_home, embedder)
    conversation = assistant.conversation()
    server.script = [json.dumps({"sentences": []})]  # the first answer's paragraph: nothing to add
    assistant.ask("which papers reduce reasoning token usage?", conversation=conversation)
    # a rewrite that stays within the two questions is used as the query
    server.script = [json.dumps({"standalone": "which papers reduce reasoning token usage and what accuracy"}),
                     json.dumps({"sentences": []})]
    good = assistant.ask("what about its accuracy?", conversation=conversation)
    assert good.plan.query == "reduce reasoning token usage and what accuracy"
    assert good.plan.source == "rules, with ollama:llama3.1:8b's rewrite"
    assert good.plan.resolution.startswith("rewritten by ollama:llama3.1:8b")
    # a rewrite that brings in a topic of its own is refused: the rules' reading stands
    server.script = [json.dumps({"standalone": "which papers on protein folding report accuracy"}),
                     json.dumps({"sentences": []})]
    bad = assistant.ask("what about its accuracy?", conversation=conversation)
    assert bad.plan.source == "rules" and "protein" not in bad.plan.query
    assert bad.plan.resolution.startswith("read with the last question")
