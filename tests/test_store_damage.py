"""A damaged or unwritable store ends every command in one line naming the folder, what is wrong and the fix;
the fix works; a store one may only read can still be searched; the web server starts anyway and says why
(issue 45). Each test damages its own copy of the bundled-corpus store."""

from __future__ import annotations

import os
import pwd
import shutil
import subprocess
import tempfile
import time
import urllib.request
from pathlib import Path

import pytest

from .conftest import ASSISTANT, ROOT, run_cli

QUERY = "proof simplification for Lean"
TEST_USER = "assistant-test"


def cut_in_half(path: Path) -> None:
    with path.open("r+b") as fh:
        fh.truncate(path.stat().st_size // 2)


def one_line(result) -> str:
    """The error a command printed, asserted to be one line and no traceback."""
    err = result.stderr.strip()
    assert result.returncode != 0, (result.stdout[-500:], err[-500:])
    assert "Traceback" not in err and len(err.splitlines()) == 1, err[-3000:]
    return err


@pytest.fixture
def store(corpus_home, tmp_path) -> Path:
    home = tmp_path / "home"
    shutil.copytree(corpus_home, home)
    return home


def vector_files(home: Path, name: str) -> list[Path]:
    found = list((home / "chroma").rglob(name))
    assert found, f"no {name} in the store: Chroma changed its layout"
    return found


# -- damaged files ----------------------------------------------------------------------------------
def test_a_cut_database_is_one_line_and_moving_it_aside_fixes_it(store):
    cut_in_half(store / "chroma" / "chroma.sqlite3")
    for args in (("search", QUERY), ("papers",), ("ingest",)):
        err = one_line(run_cli(*args, home=store, timeout=300))
        assert f"{store / 'chroma'} is damaged" in err and "chroma.sqlite3" in err, err
        assert f"mv {store / 'chroma'} {store / 'chroma'}.damaged" in err, err
    # the fix it names
    (store / "chroma").rename(store / "chroma.damaged")
    assert run_cli("ingest", home=store, timeout=600).returncode == 0
    found = run_cli("search", QUERY, home=store)
    assert found.returncode == 0 and "ProofOptimizer" in found.stdout, found.stderr[-2000:]


CORPUS = ROOT.parent / "shared" / "corpus" / "iclr2026.jsonl.gz"
SLICE = 250  # papers: ~1,500 chunks, past the 1,000 at which Chroma writes its vector index to files


@pytest.fixture(scope="module")
def indexed_store(tmp_path_factory) -> tuple[Path, Path]:
    """(store, the file it was loaded from): a store large enough that Chroma keeps its vectors in HNSW files
    (a small one's are rebuilt from its database, so cutting them harms nothing)."""
    import gzip

    if not CORPUS.exists():
        pytest.skip(f"needs the real corpus at {CORPUS} (../shared/corpus beside the repo)")
    folder = tmp_path_factory.mktemp("indexed")
    papers = folder / "slice.jsonl"
    with gzip.open(CORPUS, "rt", encoding="utf-8") as src, papers.open("w", encoding="utf-8") as out:
        for i, line in enumerate(src):
            if i >= SLICE:
                break
            out.write(line)
    home = folder / "home"
    loaded = run_cli("ingest", str(papers), home=home, env={"ASSISTANT_EMBED_PROCESS": "0"}, timeout=900)
    assert loaded.returncode == 0, loaded.stderr[-2000:]
    return home, papers


def damaged_copy(indexed_store, tmp_path, damage: str) -> Path:
    home = tmp_path / "home"
    shutil.copytree(indexed_store[0], home)
    if damage == "cut the vectors":
        for path in vector_files(home, "data_level0.bin"):
            cut_in_half(path)
    else:
        for path in vector_files(home, "index_metadata.pickle"):
            path.write_bytes(os.urandom(300))
    return home


INDEXED_QUERY = "a cybernetic framework for logical reasoning in video understanding"


def test_a_damaged_vector_index_is_one_line_naming_the_rebuild(indexed_store, tmp_path):
    home = damaged_copy(indexed_store, tmp_path, "garbage metadata")
    err = one_line(run_cli("search", INDEXED_QUERY, home=home))
    assert f"{home / 'chroma'} is damaged" in err and "vector index" in err, err
    assert "assistant ingest --rebuild" in err and "fewer filter values" not in err, err


def test_a_cut_vector_file_still_answers_and_an_ingest_on_it_works(indexed_store, tmp_path):
    """Cutting HNSW's data_level0.bin in half once ended a search in a 70-line traceback. Chroma (1.5) now reads
    the vectors it lacks from its database, so the search finds the paper, and the next ingest writes the
    file whole again: nothing to tell the user, and nothing lost."""
    home = damaged_copy(indexed_store, tmp_path, "cut the vectors")
    found = run_cli("search", INDEXED_QUERY, home=home)
    assert found.returncode == 0 and "CyberV" in found.stdout and "Traceback" not in found.stderr, found.stderr[-2000:]
    more = tmp_path / "one.jsonl"
    more.write_text('{"title": "A paper added to a store whose vector file was cut", "abstract": "We add one '
                    'abstract about cutting files in half to check that an ingest still works."}\n')
    added = run_cli("ingest", str(more), home=home, env={"ASSISTANT_EMBED_PROCESS": "0"}, timeout=900)
    assert added.returncode == 0 and "1 added" in added.stdout, added.stderr[-2000:]
    again = run_cli("search", INDEXED_QUERY, home=home)
    assert again.returncode == 0 and "CyberV" in again.stdout, again.stderr[-2000:]


def test_the_rebuild_the_message_names_repairs_the_vector_index(indexed_store, tmp_path):
    home = damaged_copy(indexed_store, tmp_path, "garbage metadata")
    rebuilt = run_cli("ingest", "--rebuild", str(indexed_store[1]), home=home, env={"ASSISTANT_EMBED_PROCESS": "0"},
                      timeout=900)
    assert rebuilt.returncode == 0, rebuilt.stderr[-2000:]
    found = run_cli("search", INDEXED_QUERY, home=home)
    assert found.returncode == 0 and "CyberV" in found.stdout, found.stderr[-2000:]


def test_the_web_server_starts_on_a_damaged_store_and_says_why(store, corpus_home, embedder):
    from assistant import Assistant, Settings
    from ui.web import WebApp, free_port

    cut_in_half(store / "chroma" / "chroma.sqlite3")
    port = free_port()
    env = {**os.environ, "ASSISTANT_HOME": str(store), "ASSISTANT_LLM": "none"}
    server = subprocess.Popen([str(ASSISTANT), "ui", "--port", str(port), "--no-ingest"], env=env, cwd=ROOT,
                              stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        deadline, up = time.monotonic() + 300, False
        while not up and server.poll() is None and time.monotonic() < deadline:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/gradio_api/info", timeout=5):
                    up = True
            except OSError:
                time.sleep(0.5)
        assert up, f"the server did not start: {server.stdout.read()[-3000:] if server.poll() is not None else ''}"
    finally:
        server.terminate()
        out, _ = server.communicate(timeout=60)
    assert "is damaged" in out and "Traceback" not in out, out[-3000:]
    # and the page's header says so
    app = WebApp(Assistant(Settings.from_env(env={}, home=store, llm="none"), embedder=embedder))
    with pytest.warns(UserWarning):
        _library, _sources, header = app.library_refresh()
    assert "store-problem" in header and "is damaged" in header and "chroma.sqlite3" in header


# -- a store this user may not write ------------------------------------------------------------------
def as_user_or_skip() -> list[str]:
    """The command prefix that runs a program as an unprivileged user (made here if need be)."""
    if os.geteuid() != 0:
        return []  # already unprivileged
    runner = shutil.which("setpriv")
    if runner is None or shutil.which("useradd") is None:
        pytest.skip("running as root without setpriv and useradd: cannot test as an unprivileged user")
    try:
        pwd.getpwnam(TEST_USER)
    except KeyError:
        made = subprocess.run(["useradd", "--system", "--no-create-home", "--shell", "/usr/sbin/nologin", TEST_USER],
                              capture_output=True, text=True)
        if made.returncode != 0 and "already exists" not in made.stderr:
            pytest.skip(f"cannot create the user {TEST_USER}: {made.stderr.strip()}")
    user = pwd.getpwnam(TEST_USER)
    return [runner, f"--reuid={user.pw_uid}", f"--regid={user.pw_gid}", "--clear-groups"]


@pytest.fixture
def read_only_store(corpus_home):
    """A copy of the store the test user may read but not write, in a folder that user can reach."""
    prefix = as_user_or_skip()
    scratch = Path(tempfile.mkdtemp(prefix="readonly-store-"))
    try:
        home = scratch / "home"
        shutil.copytree(corpus_home, home)
        models = scratch / "models"  # the ONNX export, readable: this user's own data folder is not there
        from assistant import Settings

        shutil.copytree(Settings.from_env().model_cache, models)
        work = scratch / "work"
        work.mkdir()
        for path in [scratch, *scratch.rglob("*")]:
            path.chmod(0o755 if path.is_dir() else 0o644)
        if os.geteuid() == 0:
            user = pwd.getpwnam(TEST_USER)
            os.chown(work, user.pw_uid, user.pw_gid)
        env = {**os.environ, "ASSISTANT_HOME": str(home), "ASSISTANT_LLM": "none", "ASSISTANT_MODEL_CACHE": str(models),
               "HOME": str(work), "XDG_DATA_HOME": str(work), "XDG_CACHE_HOME": str(work), "TMPDIR": str(work),
               "MPLCONFIGDIR": str(work)}
        yield home, prefix, env
    finally:
        shutil.rmtree(scratch, ignore_errors=True)


def run_as(prefix: list[str], env: dict, *args: str, timeout: int = 300):
    return subprocess.run([*prefix, str(ASSISTANT), *args], capture_output=True, text=True, env=env, timeout=timeout,
                          cwd="/")


def test_a_read_only_store_can_be_searched(read_only_store):
    home, prefix, env = read_only_store
    found = run_as(prefix, env, "search", QUERY)
    assert found.returncode == 0 and "ProofOptimizer" in found.stdout, found.stderr[-3000:]
    listed = run_as(prefix, env, "papers")
    assert listed.returncode == 0 and "49 papers" in listed.stderr, listed.stderr[-3000:]


def test_writing_a_read_only_store_is_one_line_naming_the_permission(read_only_store, tmp_path):
    home, prefix, env = read_only_store
    err = one_line(run_as(prefix, env, "ingest"))
    assert f"{home}" in err and "cannot be written by this user" in err and "write permission" in err, err
