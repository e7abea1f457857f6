"""Prove the Ollama stand-in speaks the protocol the official ``ollama`` client expects.

Our Ollama backend is tested against the stand-in instead of a real server, so
the stand-in itself must be checked against the real client library: if these
pass, the client parses every reply shape, and each fault mode shows the
client-visible symptom a reliability test will rely on.
"""

from __future__ import annotations

import json
import time
from typing import Any, Iterator

import httpx
import ollama
import pytest

try:
    from tests.standins.ollama_standin import FAULT_MODES, StandIn, free_port
except ModuleNotFoundError:  # pytest run without the repo root on sys.path
    from standins.ollama_standin import FAULT_MODES, StandIn, free_port

MODEL = "smollm2:135m"
MESSAGES = [{"role": "user", "content": "Say hello in one short sentence."}]
OPTIONS: dict[str, Any] = {"num_predict": 16, "temperature": 0, "seed": 7}


@pytest.fixture(scope="module")
def standin() -> Iterator[StandIn]:
    """One server (and one model load) for the whole module; faults are switched per test."""
    with StandIn() as server:
        yield server


@pytest.fixture
def server(standin: StandIn) -> Iterator[StandIn]:
    """The shared server, reset to healthy with an empty request log around each test."""
    standin.set_fault("none")
    standin.requests.clear()
    yield standin
    standin.set_fault("none")


@pytest.fixture
def client(server: StandIn) -> ollama.Client:
    # The timeout only guards against hangs: llama.cpp slows sharply when other work holds the cores.
    return ollama.Client(host=server.url, timeout=120)


def _chat_stream(client: ollama.Client, seen: list[ollama.ChatResponse]) -> None:
    """Consume a streamed chat into ``seen`` so a test can inspect it even after an error."""
    for chunk in client.chat(model=MODEL, messages=MESSAGES, stream=True, options=OPTIONS):
        seen.append(chunk)


# ------------------------------------------------------------------- protocol
def test_root_and_version(server: StandIn) -> None:
    assert httpx.get(server.url + "/").text == "Ollama is running"
    assert httpx.get(server.url + "/api/version").json() == {"version": "0.12.0"}


def test_list_reports_served_model(client: ollama.Client) -> None:
    models = client.list().models
    assert [m.model for m in models] == [MODEL]
    assert models[0].size and models[0].size > 0
    assert models[0].details is not None and models[0].details.format == "gguf"
    assert models[0].modified_at is not None and len(models[0].digest or "") == 64


def test_show(client: ollama.Client) -> None:
    info = client.show(MODEL)
    assert info.capabilities == ["completion"]
    assert info.details is not None and info.details.family == "llama"
    assert info.modelinfo is not None and info.modelinfo["general.architecture"] == "llama"
    assert info.template


def test_show_unknown_model_is_404(client: ollama.Client) -> None:
    with pytest.raises(ollama.ResponseError) as err:
        client.show("nope:1b")
    assert err.value.status_code == 404
    assert err.value.error == "model 'nope:1b' not found"


def test_chat_stream_generates_text_and_final_stats(client: ollama.Client, server: StandIn) -> None:
    chunks: list[ollama.ChatResponse] = []
    _chat_stream(client, chunks)
    *parts, final = chunks
    text = "".join(c.message.content or "" for c in parts)
    assert text.strip(), "the real model must have produced text"
    assert all(c.done is False and c.message.role == "assistant" for c in parts)
    assert final.done is True and final.done_reason in ("stop", "length")
    assert final.message.content == ""
    assert final.eval_count and 0 < final.eval_count <= OPTIONS["num_predict"]
    assert final.prompt_eval_count and final.prompt_eval_count > 0
    assert final.total_duration and final.eval_duration and final.prompt_eval_duration
    method, path, body = server.requests[-1]
    assert (method, path, body["options"]["num_predict"]) == ("POST", "/api/chat", 16)


def test_chat_non_stream(client: ollama.Client) -> None:
    reply = client.chat(model=MODEL, messages=MESSAGES, stream=False, options=OPTIONS)
    assert reply.done is True and reply.done_reason in ("stop", "length")
    assert (reply.message.content or "").strip()
    assert reply.eval_count and reply.eval_count > 0


def test_chat_honours_num_predict_length(client: ollama.Client) -> None:
    reply = client.chat(
        model=MODEL,
        messages=[{"role": "user", "content": "Write a long story about a dragon."}],
        options={**OPTIONS, "num_predict": 4},
    )
    assert reply.done_reason == "length" and reply.eval_count == 4


def test_generate_stream_and_non_stream(client: ollama.Client) -> None:
    chunks = list(client.generate(model=MODEL, prompt="The sky is", stream=True, options=OPTIONS))
    assert "".join(c.response for c in chunks[:-1]).strip()
    assert chunks[-1].done is True and chunks[-1].response == "" and (chunks[-1].eval_count or 0) > 0
    whole = client.generate(model=MODEL, prompt="The sky is", stream=False, options=OPTIONS)
    assert whole.done is True and whole.response.strip()


def test_chat_unknown_model_is_404(client: ollama.Client) -> None:
    with pytest.raises(ollama.ResponseError) as err:
        client.chat(model="nope:1b", messages=MESSAGES, stream=True, options=OPTIONS).__next__()
    assert err.value.status_code == 404
    assert err.value.error == 'model "nope:1b" not found, try pulling it first'


def test_untagged_name_means_latest(client: ollama.Client, server: StandIn) -> None:
    with pytest.raises(ollama.ResponseError) as err:
        client.chat(model="smollm2", messages=MESSAGES, stream=False)
    assert err.value.status_code == 404  # "smollm2" is "smollm2:latest", not ":135m"


# --------------------------------------------------------------------- faults
def test_connection_refused_on_free_port() -> None:
    dead = ollama.Client(host=f"http://127.0.0.1:{free_port()}", timeout=5)
    with pytest.raises(ConnectionError):
        dead.list()


def test_fault_missing_model(client: ollama.Client, server: StandIn) -> None:
    server.set_fault("missing_model")
    with pytest.raises(ollama.ResponseError) as err:
        client.chat(model=MODEL, messages=MESSAGES, stream=False, options=OPTIONS)
    assert err.value.status_code == 404 and "not found" in err.value.error
    assert client.list().models == []


def test_fault_slow_first_token(client: ollama.Client, server: StandIn) -> None:
    server.set_fault("slow_first_token", slow_seconds=1.5)
    impatient = ollama.Client(host=server.url, timeout=0.5)
    with pytest.raises(httpx.ReadTimeout):
        list(impatient.chat(model=MODEL, messages=MESSAGES, stream=True, options=OPTIONS))
    started = time.monotonic()
    stream = client.chat(model=MODEL, messages=MESSAGES, stream=True, options=OPTIONS)
    first = next(stream)
    assert time.monotonic() - started >= 1.4
    rest = list(stream)
    assert first.done is False and rest[-1].done is True


def test_fault_cut_stream(client: ollama.Client, server: StandIn) -> None:
    server.set_fault("cut_stream")
    chunks: list[ollama.ChatResponse] = []
    with pytest.raises(httpx.RemoteProtocolError):  # chunked body ends early, as when Ollama dies
        _chat_stream(client, chunks)
    assert 1 <= len(chunks) <= 3
    assert not any(c.done for c in chunks)
    with pytest.raises(httpx.RemoteProtocolError):  # non-streaming: no reply at all
        client.chat(model=MODEL, messages=MESSAGES, stream=False, options=OPTIONS)


def test_fault_malformed_json(client: ollama.Client, server: StandIn) -> None:
    server.set_fault("malformed_json")
    chunks: list[ollama.ChatResponse] = []
    with pytest.raises(json.JSONDecodeError):
        _chat_stream(client, chunks)
    assert chunks and not any(c.done for c in chunks)


def test_fault_unavailable(client: ollama.Client, server: StandIn) -> None:
    server.set_fault("unavailable")
    with pytest.raises(ollama.ResponseError) as err:
        client.chat(model=MODEL, messages=MESSAGES, stream=True, options=OPTIONS).__next__()
    assert (err.value.status_code, err.value.error) == (503, "server busy")


def test_fault_switch_over_http(client: ollama.Client, server: StandIn) -> None:
    control = server.url + "/__standin/fault"
    assert httpx.post(control, json={"mode": "unavailable"}).json()["mode"] == "unavailable"
    with pytest.raises(ollama.ResponseError):
        client.chat(model=MODEL, messages=MESSAGES, stream=False, options=OPTIONS)
    assert httpx.post(control, json={"mode": "bogus"}).status_code == 400
    httpx.post(control, json={"mode": "none"})
    assert client.chat(model=MODEL, messages=MESSAGES, stream=False, options=OPTIONS).done is True
    assert all(not path.startswith("/__standin") for _, path, _ in server.requests)


def test_fault_chosen_by_constructor(standin: StandIn) -> None:
    """A second instance reuses the loaded model, so per-instance faults are cheap."""
    with StandIn(fault="unavailable") as busy:
        assert busy.url != standin.url
        with pytest.raises(ollama.ResponseError) as err:
            ollama.Client(host=busy.url).chat(model=MODEL, messages=MESSAGES, stream=False)
        assert err.value.status_code == 503
    with pytest.raises(ValueError):
        StandIn(fault="bogus")


def test_every_fault_mode_is_covered() -> None:
    assert set(FAULT_MODES) == {
        "none", "missing_model", "slow_first_token", "cut_stream", "malformed_json", "unavailable"
    }
