"""The Ollama backend against a loopback stand-in that speaks Ollama's HTTP API with the real local model."""

from __future__ import annotations

import importlib.util

import pytest

from assistant import Assistant, LLMError, Settings

from .standins.ollama_standin import StandIn, free_port

QUESTION = "which papers reduce reasoning token usage"


@pytest.fixture(scope="module")
def server():
    with StandIn(model_name="smollm2:135m", slow_seconds=2.0) as standin:
        yield standin


@pytest.fixture
def via(corpus_home, embedder):
    def make(url: str, **overrides) -> Assistant:
        settings = Settings.from_env(env={"OLLAMA_HOST": url}, home=corpus_home,
                                     **{"ollama_model": "smollm2:135m", "llm": "ollama", **overrides})
        return Assistant(settings, embedder=embedder)

    return make


def test_answer_through_ollama(server, via):
    server.set_fault("none")
    stream = via(server.url).stream(QUESTION)
    pieces = list(stream)
    answer = stream.answer
    assert answer.model == "ollama:smollm2:135m" and answer.complete
    assert {"PoLR", "LASER-D"} <= {c.title.split(":")[0] for c in answer.citations}
    assert len(pieces) >= 3
    assert any(path == "/api/chat" for _method, path, _body in server.requests)


def test_auto_prefers_ollama_then_quotes_the_abstracts(server, via, tmp_path):
    """Without Ollama, auto does not pick the packaged 135M model (bench/writers.py: tens of times slower,
    and the check keeps almost none of its sentences): the answer quotes, and says nothing about it at its
    end (the front ends show the backend's state once). A capable GGUF the user set is used."""
    from assistant.llm import resolve_auto
    from assistant.synthesis import MIN_LOCAL_BYTES

    server.set_fault("none")
    assert via(server.url, llm="auto").ask(QUESTION).model == "ollama:smollm2:135m"
    fallback = via(f"http://127.0.0.1:{free_port()}", llm="auto")
    answer = fallback.ask(QUESTION)
    assert answer.model == "none" and answer.citations and answer.complete and not answer.note
    choice, why = resolve_auto(fallback.settings)
    assert choice == "none" and "not reachable" in why
    big = tmp_path / "capable.gguf"
    with big.open("wb") as fh:  # sparse: only its size is read here
        fh.truncate(MIN_LOCAL_BYTES)
    capable = via(f"http://127.0.0.1:{free_port()}", llm="auto", local_model=str(big)).settings
    assert resolve_auto(capable)[0] == ("local" if importlib.util.find_spec("llama_cpp") else "none")


def test_connection_refused_names_the_fix(via):
    with pytest.raises(LLMError) as err:
        via(f"http://127.0.0.1:{free_port()}").ask(QUESTION)
    assert "not reachable" in str(err.value) and "ollama serve" in str(err.value)


def test_missing_model_says_pull_it(server, via):
    server.set_fault("missing_model")
    try:
        with pytest.raises(LLMError) as err:
            via(server.url).ask(QUESTION)
        assert "ollama pull smollm2:135m" in str(err.value)
    finally:
        server.set_fault("none")


@pytest.mark.parametrize("fault, words", [
    ("cut_stream", "closed the connection"),
    ("malformed_json", "malformed"),
    ("unavailable", "503"),
])
def test_faults_mid_answer_mark_it_incomplete_and_the_next_works(server, via, fault, words):
    assistant = via(server.url)
    healthy = assistant.ask(QUESTION)  # the backend is chosen while the server is healthy
    server.set_fault(fault)
    try:
        broken = assistant.ask(QUESTION)
    finally:
        server.set_fault("none")
    assert not broken.complete and words in broken.note
    assert "incomplete" in broken.answer.lower()
    again = assistant.ask(QUESTION)
    assert again.complete and [c.id for c in again.citations] == [c.id for c in healthy.citations]


def test_slow_first_token_times_out_cleanly(server, via):
    # generous: the stand-in shares two cores with the tests, and in CI with an ingest beside them, where a healthy
    # answer's calls once took over 4 s
    assistant = via(server.url, llm_timeout=8.0)
    assistant.ask(QUESTION)
    server.set_fault("slow_first_token", slow_seconds=40.0)
    try:
        slow = assistant.ask(QUESTION)
    finally:
        server.set_fault("none")
    assert not slow.complete and "did not answer within" in slow.note
    assert assistant.ask(QUESTION).complete
