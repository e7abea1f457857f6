"""A capable model proposes the question plan, and the rules check it: scripted, realistic proposals
over Ollama's real wire protocol (the stand-in), against the real store and embedding model."""

from __future__ import annotations

import json

import pytest

from assistant import Assistant, Settings
from assistant.plan_proposal import CONTRIBUTION_LABELS, SCHEMA
from ingest.contributions import LABELS

from .standins.ollama_standin import StandIn

NO_PARAGRAPH = json.dumps({"sentences": []})  # the synthesized paragraph's turn: nothing to add


@pytest.fixture(scope="module")
def server():
    with StandIn(model_name="llama3.1:8b") as standin:
        yield standin


def via(url: str, home, embedder, **overrides) -> Assistant:
    settings = Settings.from_env(env={"OLLAMA_HOST": url}, home=home, ollama_model="llama3.1:8b", llm="ollama",
                                 max_tokens=24, **overrides)
    return Assistant(settings, embedder=embedder)


def plan_requests(server) -> list[dict]:
    return [body for _method, path, body in server.requests
            if path == "/api/chat" and isinstance(body.get("format"), dict) and "kind" in body["format"]["properties"]]


def proposal(kind: str, topics: list[str], contributions: list[str] | None = None, mainly: bool = False) -> str:
    return json.dumps({"kind": kind, "topics": topics, "contributions": contributions or [], "mainly": mainly})


def test_an_accepted_proposal_plans_the_question(server, corpus_home, embedder):
    question = "proofs in Lean as well as robot manipulation"
    rules = via(server.url, corpus_home, embedder, llm_plans=False).plan(question)
    assert rules.kind == "topic" and len(rules.topics) == 1  # the rules read one topic
    server.requests.clear()
    server.script = [proposal("list", ["proofs in Lean", "robot manipulation"]), NO_PARAGRAPH]
    answer = via(server.url, corpus_home, embedder).ask(question)
    assert answer.plan.kind == "list" and answer.plan.topics == ["proofs in Lean", "robot manipulation"]
    assert answer.plan.source == "ollama:llama3.1:8b"
    assert answer.plan.line().endswith("(planned by ollama:llama3.1:8b)")
    by_topic = {c.topic for c in answer.citations}
    assert by_topic == {"proofs in Lean", "robot manipulation"}  # retrieval found papers for each topic
    assert any("Lean" in c.text for c in answer.citations if c.topic == "proofs in Lean")
    assert any("robot" in c.text.lower() for c in answer.citations if c.topic == "robot manipulation")
    request = plan_requests(server)[0]
    assert request["format"] == SCHEMA and question in request["messages"][-1]["content"]


TOKENS = "which papers reduce reasoning token usage?"


@pytest.mark.parametrize("question, reply, why", [
    (TOKENS, proposal("list", ["quantum chemistry"]), "the topic 'quantum chemistry' is not in the question"),
    (TOKENS, proposal("list", ["reasoning"]), "the topics leave out most of the question"),
    (TOKENS, proposal("topic", ["reduction_token usage"]), "the topic 'reduction_token usage' finds no paper"),
    (TOKENS, proposal("named", ["reasoning token usage"]), "the question names no paper the store knows"),
    (TOKENS, proposal("out_of_scope", []), "whether a question is about the papers is the rules' call"),
    (TOKENS, proposal("contribution", ["reasoning token usage"], []), "the question does not ask what papers contribute"),
    (TOKENS, "Sure! This is a list question about reasoning tokens.", "not a plan"),
    (TOKENS, json.dumps({"kind": "list", "topics": "reasoning"}), "not a plan"),
    ("What does PoLR do?", proposal("list", ["PoLR"]),
     "the question names papers the store knows, so it is a question about them"),
    ("Which papers do not use reinforcement learning?", proposal("list", ["use reinforcement learning"]),
     "a list of the papers not on a topic is the rules' call"),
    ("Which papers reduce reasoning token usage, but not using RL?", proposal("list", ["reduce reasoning token usage"]),
     "a list of the papers not on a topic is the rules' call"),
])
def test_a_proposal_the_rules_refuse_leaves_the_rules_plan(server, corpus_home, embedder, question, reply, why):
    rules = via(server.url, corpus_home, embedder, llm_plans=False).ask(question)
    server.script = [reply, NO_PARAGRAPH]
    answer = via(server.url, corpus_home, embedder).ask(question)
    assert answer.plan.source == f"rules (ollama:llama3.1:8b's plan refused: {why})"
    assert (answer.plan.kind, answer.plan.query) == (rules.plan.kind, rules.plan.query)
    assert [c.id for c in answer.citations] == [c.id for c in rules.citations]  # the same papers, cited alike
    assert "planned by" not in answer.plan.line()


def test_a_kind_the_rules_miss_is_answered_from_the_labels(server, corpus_home, embedder):
    question = "Which papers put forward new yardsticks for measuring models?"
    rules = via(server.url, corpus_home, embedder, llm_plans=False).plan(question)
    assert rules.kind != "contribution"  # "yardsticks" is not among the rules' words for a benchmark
    server.script = [proposal("contribution", [], ["benchmark/dataset"]), NO_PARAGRAPH]
    answer = via(server.url, corpus_home, embedder).ask(question)
    assert answer.plan.kind == "contribution" and answer.plan.contributions == ["benchmark/dataset"]
    assert answer.citations and all("benchmark/dataset" in c.contributions for c in answer.citations)
    assert {c.title.split(":")[0] for c in answer.citations} >= {"LEXam"}


def test_later_pages_reuse_the_proposal(server, corpus_home, embedder):
    assistant = via(server.url, corpus_home, embedder, page_size=1)
    question = "which papers look at Lean proofs or robot manipulation?"
    server.requests.clear()
    server.script = [proposal("list", ["Lean proofs", "robot manipulation"]), NO_PARAGRAPH, NO_PARAGRAPH]
    first = assistant.ask(question)
    second = assistant.ask(question, page=2)
    assert len(plan_requests(server)) == 1  # the second page did not ask the model again
    assert first.plan.topics == second.plan.topics == ["Lean proofs", "robot manipulation"]
    assert first.citations[0].id != second.citations[0].id


def test_no_proposal_is_asked_for_when_planning_is_off_or_the_model_is_tiny(server, corpus_home, embedder, corpus):
    server.requests.clear()
    server.script = [NO_PARAGRAPH]
    answer = via(server.url, corpus_home, embedder, llm_plans=False).ask("which papers reduce reasoning token usage?")
    assert answer.plan.source == "rules" and not plan_requests(server)
    local = corpus.ask("which papers reduce reasoning token usage?", llm="local")
    assert local.plan.source == "rules" and local.model.startswith("local:")


def test_the_schema_offers_the_labels_ingest_gives():
    assert CONTRIBUTION_LABELS == LABELS
    assert SCHEMA["properties"]["contributions"]["items"]["enum"] == list(LABELS)
