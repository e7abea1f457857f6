"""`assistant chat` driven end to end through a real pseudo-terminal."""

from __future__ import annotations

import os
import re
import shutil

import pexpect
import pytest

from .conftest import ASSISTANT, ROOT

PROMPT = "› "


@pytest.fixture
def chat(corpus_home, tmp_path):
    home = tmp_path / "home"
    shutil.copytree(corpus_home, home)

    def spawn(*args: str, **settings: str) -> pexpect.spawn:
        env = {**os.environ, "ASSISTANT_HOME": str(home), "ASSISTANT_LLM": "none", "TERM": "dumb", "NO_COLOR": "1",
               **settings}
        child = pexpect.spawn(str(ASSISTANT), ["chat", *args], env=env, cwd=str(ROOT), encoding="utf-8", timeout=120)
        child.expect("49 papers in the store")
        child.expect(PROMPT)
        return child

    return spawn


def test_chat_session_with_commands(chat, tmp_path):
    child = chat()
    child.sendline("which papers reduce reasoning token usage?")
    child.expect(r"\[2\]")
    second = re.findall(r"\*\*([^*]+)\*\* $", child.before)[-1]  # the title before the badge [2]
    child.expect(PROMPT)
    answer = child.before
    assert "PoLR" in answer or "LASER-D" in answer

    child.sendline("what about the second one?")
    child.expect("From the last answer:")
    child.expect(PROMPT)

    child.sendline("/sources")
    child.expect("evidence:")
    child.expect(PROMPT)

    child.sendline("/show 1")
    child.expect(re.escape(f"[1] {second}"))  # the follow-up's one source: the second paper of the list
    child.expect(PROMPT)

    child.sendline("/k 500")
    child.expect(re.escape("from 1 to 100 (ASSISTANT_MAX_K)"))  # the library's bound, not the REPL's own
    child.expect(PROMPT)
    child.sendline("/k 1")
    child.expect("at most 1 papers")
    child.expect(PROMPT)

    export = tmp_path / "chat.md"
    child.sendline(f"/export {export}")
    child.expect("Saved 2 answers")
    child.expect(PROMPT)
    text = export.read_text()
    assert "## 1. which papers reduce reasoning token usage?" in text and "References:" in text

    child.sendline("/reset")
    child.expect("New conversation")
    child.expect(PROMPT)
    child.sendline("/nonsense")
    child.expect("Unknown command")
    child.expect(PROMPT)

    child.sendline("/quit")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0


def test_history_and_ctrl_c_stops_only_the_answer(chat):
    child = chat("--llm", "local")
    # five papers to write about (~2 s with the local model), so Ctrl-C lands before the answer ends
    child.sendline("Lean, robots, and audio")  # a topic question on three topics: k=5 papers
    child.expect("5 papers in the store address this")  # the answer has started streaming
    child.sendintr()
    child.expect(r"\(stopped\)")
    child.expect("incomplete")
    child.expect(PROMPT)
    # the REPL is still alive and readline recalls the last question with the up arrow
    child.send("\x1b[A")
    child.expect("Lean, robots, and audio")
    child.sendcontrol("u")
    child.sendline("/llm none")
    child.expect("no LLM")
    child.expect(PROMPT)
    child.sendline("proof simplification for Lean")
    child.expect("ProofOptimizer")
    child.expect(PROMPT)
    child.sendeof()
    child.expect(pexpect.EOF)


def test_filters_in_the_chat(chat):
    child = chat("--source", "004_6909a62b24dbb033.txt")
    child.sendline("proof simplification for Lean")  # ProofOptimizer is in another file
    child.expect("match the filters")
    child.expect(PROMPT)
    child.sendline("/filter year=soon")
    child.expect("is not a year")
    child.expect(PROMPT)
    child.sendline("/filter off")
    child.expect("all papers")
    child.expect(PROMPT)
    child.sendline("proof simplification for Lean")
    child.expect("ProofOptimizer")
    child.expect(PROMPT)
    child.sendline("/filter file=000_f1080e5cb02b8f2e.txt")
    child.expect("only papers with file=000_f1080e5cb02b8f2e.txt")
    child.expect(PROMPT)
    child.sendline("/quit")
    child.expect(pexpect.EOF)


def test_a_bad_filter_flag_is_refused_before_the_chat_starts(corpus_home):
    from .conftest import run_cli

    result = run_cli("chat", "--where", "colour=blue", home=corpus_home)
    assert result.returncode != 0 and "Unknown filter field 'colour'" in result.stderr
    assert "Traceback" not in result.stderr


@pytest.mark.parametrize("quiet_env, styled", [({"TERM": "xterm"}, True), ({"TERM": "xterm", "NO_COLOR": "1"}, False),
                                               ({"TERM": "dumb"}, False)])
def test_terminal_styles_follow_no_color_and_dumb_terminals(corpus_home, quiet_env, styled):
    """On a terminal, titles are bold; NO_COLOR (no-color.org) or TERM=dumb turns every style off."""
    env = {k: v for k, v in os.environ.items() if k not in ("NO_COLOR", "TERM")}
    env.update(quiet_env, ASSISTANT_HOME=str(corpus_home), ASSISTANT_LLM="none")
    out = pexpect.run(f"{ASSISTANT} search 'tell me about PoLR'", env=env, cwd=str(ROOT), encoding="utf-8", timeout=120)
    assert "PoLR" in out
    assert ("\x1b[" in out) is styled


def test_ctrl_c_inside_the_local_models_log_callback_is_not_lost():
    """llama-cpp-python logs through a Python function that C calls; an exception raised there is
    dropped. Ctrl-C arriving there is noted instead, the answer is asked to stop (at the model's next
    token), and the streaming loop raises KeyboardInterrupt before printing more."""
    import signal
    import types

    from ui.interrupts import stoppable

    def frame_in(filename: str):
        return types.SimpleNamespace(f_code=types.SimpleNamespace(co_filename=filename, co_name="log"), f_back=None)

    before = signal.getsignal(signal.SIGINT)  # SIG_IGN when the tests run in a background job
    cancelled = []
    with stoppable(lambda: cancelled.append(True)) as pressed:
        handler = signal.getsignal(signal.SIGINT)
        handler(signal.SIGINT, frame_in("/venv/lib/python3.11/site-packages/llama_cpp/_logger.py"))
        assert pressed.is_set() and cancelled == [True]  # noted and passed on, not raised
        with pytest.raises(KeyboardInterrupt):
            handler(signal.SIGINT, frame_in("/venv/lib/python3.11/site-packages/llama_cpp/llama.py"))
    assert signal.getsignal(signal.SIGINT) == before  # restored


def test_a_ctrl_c_landing_in_a_finalizer_is_noted_not_dropped():
    """Python prints and drops an exception raised in ``__del__``: a Ctrl-C landing there (as one did in a
    ``regex`` finalizer during an ingest, which then ran to the end) sets the event for the caller to check,
    and the finalizer runs to its end."""
    import os
    import signal

    from ui.interrupts import stoppable

    finished = []

    class Finalized:
        def __del__(self):
            os.kill(os.getpid(), signal.SIGINT)  # the handler runs at the next bytecode, inside this finalizer
            finished.append(sum(range(1000)))

    with stoppable() as pressed:
        Finalized()  # dropped at once: CPython runs __del__ here
        assert pressed.is_set() and finished == [499500]
        with pytest.raises(KeyboardInterrupt):
            os.kill(os.getpid(), signal.SIGINT)
            sum(range(1000))


@pytest.mark.parametrize("delay", [0.1, 0.2])
def test_ctrl_c_soon_after_the_answer_starts_stops_it(chat, delay):
    """The window where Ctrl-C used to be lost: 0.1-0.2 s after the first line, while the local
    model loads and logs (2 of 7 presses were lost there before ui.interrupts)."""
    import time

    child = chat("--llm", "local")
    child.sendline("Lean, robots, and audio")  # a topic question on three topics: k=5 papers
    child.expect("5 papers in the store address this")
    time.sleep(delay)
    child.sendintr()
    child.expect(r"\(stopped\)")
    child.expect("incomplete")
    child.expect(PROMPT)
    child.sendeof()
    child.expect(pexpect.EOF)


def test_chat_follow_up_comparison_and_compare_command(chat):
    child = chat()
    child.sendline("which papers reduce reasoning token usage?")
    child.expect(r"list question: every paper on reasoning token usage, only those that cut the cost of inference")
    child.expect(PROMPT)
    listed = child.before
    assert "PoLR" in listed and "LASER-D" in listed

    child.sendline("how do they differ?")
    child.expect("comparison of the \\d papers of the last answer")
    child.expect("Headline result")
    assert "Approach" in child.before and "Evaluated on" in child.before
    child.expect(PROMPT)
    assert re.search(r"\[\d\] PoLR", child.before)  # the table's rows

    child.sendline("/show 1")
    child.expect("Approach: ")
    child.expect(PROMPT)

    child.sendline("/compare 1 9")
    child.expect("Usage: /compare N M")
    child.expect(PROMPT)
    child.sendline("/compare 1 2")
    child.expect("comparison of the 2 papers")
    child.expect("Headline result")
    child.expect(PROMPT)
    assert child.before.count("[1]") >= 1 and "[3]" not in child.before.split("Sources")[0]


def test_more_pages_a_list_under_the_filters_it_was_asked_with(chat, corpus):
    question, only = "which papers use reinforcement learning?", "file=004_6909a62b24dbb033.txt"
    found = corpus.find(question, where=only, page_size=None)
    filtered, maybe = found.hits, f" ({found.unsure:,} more may be)" if found.unsure else ""
    unfiltered = corpus.find(question, page_size=None).hits
    kept = {h.id for h in filtered}
    assert len(filtered) > 4 and any(h.id not in kept for h in unfiltered[3:6])
    child = chat("--where", only, ASSISTANT_PAGE_SIZE="3")
    child.sendline(question)
    child.expect(re.escape(f"{len(filtered)} papers matching the filters answer this{maybe}; 1\u20133:"))
    child.expect(PROMPT)
    first = child.before
    assert first.count(f"{len(filtered) - 3} more: /more") == 1
    assert "— written by none" in first  # the printing `assistant ask` uses, with the chat's hint and sources line

    child.sendline("/filter off")  # the chat's filters change; the list's next page keeps its own
    child.expect("Answers now use all papers")
    child.expect(PROMPT)
    child.sendline("/more")
    child.expect(re.escape(f"{len(filtered)} papers matching the filters answer this{maybe}; 4\u20136:"))
    child.expect(PROMPT)
    second = child.before
    assert all(f"] {h.title}" in second for h in filtered[3:6])
    assert not any(f"] {h.title}" in second for h in unfiltered[3:6] if h.id not in kept)
    rest = len(filtered) - 6
    assert second.count(f"{rest} more: /more") == (rest > 0)

    child.sendline("/quit")
    child.expect(pexpect.EOF)


def test_who_writes_is_said_once_at_the_start_not_after_every_answer(chat):
    """auto without an Ollama quotes the abstracts (bench/writers.py: the packaged 135M model is tens of times
    slower and its sentences rarely pass the check); the banner says so, and each answer ends with its writer
    only, not with why Ollama was not used."""
    from tests.standins.ollama_standin import free_port

    child = chat(ASSISTANT_LLM="auto", OLLAMA_HOST=f"http://127.0.0.1:{free_port()}")
    banner = child.before
    assert "Answers written by none" in banner and "Ollama is not reachable" in banner, banner
    child.sendline("which papers reduce reasoning token usage?")
    child.expect("written by none")
    child.expect(PROMPT)
    assert "not reachable" not in child.before, child.before
    child.sendline("/quit")
    child.expect(pexpect.EOF)
