"""Bad input, crashes, concurrent writers and random edit sequences: the store stays right."""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings as hsettings, strategies as st

from ingest.parse import parse_paths
from ingest.records import normalise

from .conftest import ASSISTANT, BUNDLED, ROOT, run_cli

GOOD = ["We introduce AlphaNet, a network for protein folding that predicts structures from sequences in seconds.",
        "We present BetaSolver, a solver for mixed integer programs that learns branching rules from data."]


def _env(home: Path) -> dict:
    return {**os.environ, "ASSISTANT_HOME": str(home), "ASSISTANT_LLM": "none"}


def _all_store_text(home: Path) -> str:
    """Every document and metadata value Chroma holds, read back through a fresh client."""
    import chromadb

    client = chromadb.PersistentClient(path=str(home / "chroma"))
    out = []
    for collection in client.list_collections():
        got = client.get_collection(collection.name).get(include=["documents", "metadatas"])
        out += [d or "" for d in got["documents"]] + [json.dumps(m) for m in got["metadatas"]]
    return "\n".join(out)


@pytest.fixture(scope="module")
def bad_folder(tmp_path_factory):
    folder = tmp_path_factory.mktemp("mixed")
    (folder / "good.txt").write_text("Good 2026\n\n" + "\n\n".join(GOOD) + "\n")
    (folder / "empty.txt").write_bytes(b"")
    (folder / "blank.txt").write_text("  \n\n \t \n")
    (folder / "png_named.txt").write_bytes(b"\x89PNG\r\n\x1a\n" + os.urandom(4000))
    (folder / "random.jsonl").write_bytes(random.Random(7).randbytes(8000))
    (folder / "nul.txt").write_bytes(b"Nul 2026\n\nWe introduce Gam\x00maFlow, a flow model for weather nowcasting that runs on radar images.\n")
    (folder / "cp1252.txt").write_bytes("Legacy 2026\n\nWe introduce CaféNet, a model that reads menus and predicts prices \u2014 fast.\n".encode("cp1252"))
    (folder / "utf16.txt").write_bytes("Wide 2026\n\nWe introduce DeltaSeg, a segmentation model for satellite images of farmland.\n".encode("utf-16"))
    (folder / "invalid.txt").write_bytes("Bytes 2026\n\nWe introduce EpsNet \u2014 a detector for birds in drone footage, robust to fog.\xff\xfe\n".encode("utf-8", "surrogateescape") if False else
                                         b"Bytes 2026\n\nWe introduce EpsNet \xe2\x80\x94 a detector for birds in drone footage, robust to fog \xff.\n")
    (folder / "huge.txt").write_bytes(b"Huge 2026\n\n" + b"word " * (10 * 1024 * 1024) + b"\n")  # one 50 MB line
    (folder / "noabstract.csv").write_text("title,summary\nA,B\n")
    (folder / "malformed.jsonl").write_text(json.dumps({"abstract": "We introduce ZetaQA, a question answering benchmark on tax law with 900 questions."})
                                            + "\n{broken\n" + json.dumps({"title": "no abstract"}) + "\n")
    return folder


EXPECTED_SKIPS = {"empty.txt": "empty", "blank.txt": "no abstracts", "png_named.txt": "binary", "random.jsonl": "binary",
                  "huge.txt": "longer than any abstract", "noabstract.csv": "no 'abstract' column",
                  "malformed.jsonl": "not valid JSON"}
INGESTED = ["AlphaNet", "BetaSolver", "GammaFlow", "CaféNet", "DeltaSeg", "EpsNet", "ZetaQA"]


def test_mixed_folder_ingests_good_files_and_reports_each_bad_one(bad_folder, tmp_path):
    home = tmp_path / "home"
    # a wrapper process, so ru_maxrss is this ingest's peak alone
    measure = ("import resource, subprocess, sys; r = subprocess.run(sys.argv[1:], capture_output=True, text=True); "
               "print(r.returncode); print(r.stdout, end=''); sys.stderr.write(r.stderr); "
               "print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)")
    result = subprocess.run([sys.executable, "-c", measure, str(ASSISTANT), "ingest", str(bad_folder), "--json"],
                            capture_output=True, text=True, env=_env(home), timeout=600)
    code, report_line, peak_kb = result.stdout.splitlines()
    assert int(code) == 1  # something was skipped
    report = json.loads(report_line)
    skipped = {Path(s["path"]).name: s["reason"] for s in report["skipped"]}
    for name, reason in EXPECTED_SKIPS.items():
        assert reason in skipped.get(name, ""), (name, skipped.get(name))
    assert "line 2 is not valid JSON" in skipped["malformed.jsonl"] and "line 3 has no 'abstract'" in skipped["malformed.jsonl"]
    assert report["papers"] == len(INGESTED) and report["added"] == len(INGESTED)
    assert int(peak_kb) < 2_500_000, f"peak RSS {int(peak_kb) // 1024} MB"  # the 50 MB line is never held whole

    papers = json.loads(run_cli("papers", "--json", home=home).stdout)
    text = " ".join(p["text"] for p in papers)
    for name in INGESTED:
        assert name in text
    assert "Café" in text and "\u2014" in text  # cp1252 and UTF-8 decoded as such
    assert "\x00" not in _all_store_text(home)

    readable = run_cli("ingest", str(bad_folder), home=home)
    assert readable.returncode == 1 and "0 added" in readable.stdout
    for name in EXPECTED_SKIPS:
        assert f"{name}:" in readable.stderr
    assert "Traceback" not in readable.stderr


def _synthetic_corpus(path: Path, n: int) -> list[str]:
    sentences = [s for r in parse_paths([BUNDLED]).records for s in r.text.split(". ") if len(s) > 60]
    rng = random.Random(11)
    rows = [f"We introduce Synth{i}Net, a method numbered {i}. " + ". ".join(rng.sample(sentences, 3)) + "."
            for i in range(n)]
    path.write_text("\n".join(json.dumps({"abstract": row}) for row in rows) + "\n")
    return rows


def _store_facts(home: Path) -> tuple[int, int, int]:
    """(papers, chunk count, chunks the paper records promise), read through a fresh client."""
    import chromadb

    client = chromadb.PersistentClient(path=str(home / "chroma"))
    if {c.name for c in client.list_collections()} != {"abstracts-papers", "abstracts-chunks"}:
        return 0, 0, 0  # killed before the store was created
    papers = client.get_collection("abstracts-papers").get(include=["metadatas"])
    chunks = client.get_collection("abstracts-chunks").get(include=["metadatas"])
    promised = sum(m["n_chunks"] for m in papers["metadatas"])
    committed = {pid for pid in papers["ids"]}
    committed_chunks = sum(1 for m in chunks["metadatas"] if m["paper_id"] in committed)
    return len(papers["ids"]), committed_chunks, promised


def test_kill_9_at_random_points_then_rerun_finishes_cleanly(tmp_path):
    corpus = tmp_path / "synthetic.jsonl"
    rows = _synthetic_corpus(corpus, 400)
    home = tmp_path / "home"
    rng = random.Random(2026)
    for _attempt in range(3):
        proc = subprocess.Popen([str(ASSISTANT), "ingest", str(corpus), "--json"], env=_env(home),
                                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, cwd=ROOT)
        time.sleep(rng.uniform(3.0, 12.0))
        proc.send_signal(signal.SIGKILL)
        proc.wait()
        if home.exists() and (home / "chroma").exists():
            papers, chunks, promised = _store_facts(home)
            assert chunks == promised  # every committed paper has all of its chunks
    final = run_cli("ingest", str(corpus), "--json", home=home)
    assert final.returncode == 0, final.stderr
    report = json.loads(final.stdout)
    assert report["papers"] == len(rows)
    papers, chunks, promised = _store_facts(home)
    assert papers == len(rows) and chunks == promised
    again = json.loads(run_cli("ingest", str(corpus), "--json", home=home).stdout)
    assert (again["added"], again["unchanged"]) == (0, len(rows))
    hits = json.loads(run_cli("search", "tell me about Synth123Net", "--json", home=home).stdout)["results"]
    assert hits and "Synth123Net" in hits[0]["text"]


def test_two_writers_on_one_store_never_hang_or_corrupt(tmp_path):
    corpus = tmp_path / "synthetic.jsonl"
    rows = _synthetic_corpus(corpus, 150)
    home = tmp_path / "home"
    procs = [subprocess.Popen([str(ASSISTANT), "ingest", str(corpus), "--json"], env=_env(home), cwd=ROOT,
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True) for _ in range(2)]
    outcomes = [p.communicate(timeout=600) + (p.returncode,) for p in procs]
    ok = [o for o in outcomes if o[2] == 0]
    busy = [o for o in outcomes if o[2] != 0]
    assert ok, outcomes
    for _out, err, _code in busy:
        assert "in use" in err and "Traceback" not in err
    assert json.loads(run_cli("ingest", str(corpus), "--json", home=home).stdout)["papers"] == len(rows)


def test_search_while_another_process_ingests(tmp_path, corpus_home):
    import shutil

    home = tmp_path / "home"
    shutil.copytree(corpus_home, home)
    corpus = tmp_path / "synthetic.jsonl"
    _synthetic_corpus(corpus, 200)
    writer = subprocess.Popen([str(ASSISTANT), "ingest", str(corpus)], env=_env(home), cwd=ROOT,
                              stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    try:
        for _ in range(3):
            result = run_cli("search", "proof simplification for Lean", "--json", home=home, timeout=120)
            assert result.returncode == 0, result.stderr
            assert json.loads(result.stdout)["results"][0]["title"].startswith("ProofOptimizer")
    finally:
        writer.wait(timeout=600)
    assert writer.returncode == 0, writer.stderr


POOL = ["We introduce Alpha{}, a model for reading chest X-rays that flags pneumonia early.",
        "We introduce Beta{}, a scheduler for GPU clusters that cuts job waiting time.",
        "We introduce Gamma{}, a benchmark of chemistry puzzles for language models.",
        "We introduce Delta{}, a planner for household robots that follows spoken instructions."]
ABSTRACTS = [template.format(i) for template in POOL for i in range(2)]
OPS = st.lists(st.tuples(st.sampled_from(["add", "readd", "edit", "remove"]), st.integers(0, 3),
                         st.lists(st.integers(0, len(ABSTRACTS) - 1), min_size=1, max_size=3)),
               min_size=1, max_size=5)


@hsettings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(ops=OPS)
def test_random_edits_keep_the_store_equal_to_the_files(ops, make_assistant, tmp_path_factory):
    folder = tmp_path_factory.mktemp("files")
    assistant = make_assistant(home=tmp_path_factory.mktemp("home"))
    model: dict[str, list[str]] = {}  # file name -> abstracts it holds
    for op, slot, picks in ops:
        name = f"f{slot}.txt"
        if op in ("add", "edit") or (op == "readd" and name not in model):
            model[name] = [ABSTRACTS[i] for i in dict.fromkeys(picks)]
            (folder / name).write_text("Papers 2026\n\n" + "\n\n".join(model[name]) + "\n")
        elif op == "remove" and name in model:
            del model[name]
            (folder / name).unlink()
        assistant.ingest([folder])
        expected: dict[str, set[str]] = {}
        for file, abstracts in model.items():
            for abstract in abstracts:
                expected.setdefault(normalise(abstract), set()).add(file)
        stored = {normalise(p.text): {s["file"] for s in p.sources} for p in assistant.papers()}
        assert stored == expected


def seed_file(path: Path, *abstracts: str) -> Path:
    path.write_text("Test Papers 2026\n\n" + "\n\n".join(abstracts) + "\n")
    return path


def test_a_long_running_process_sees_and_keeps_another_process_writes(make_assistant, tmp_path):
    """The web app's process and `assistant ingest` in a terminal share one embedded store: the
    first finds what the second added (embedded Chroma alone would not), and both processes'
    papers stay after its own next ingest."""
    home = tmp_path / "home"
    server = make_assistant(home)  # stands for the long-running web app
    server.ingest([seed_file(tmp_path / "a.txt", "We introduce AlphaNet, a network for protein folding "
                                                  "that predicts structures from sequences in seconds.")])
    assert server.search("protein folding network")[0].title.startswith("AlphaNet")

    terminal = seed_file(tmp_path / "b.txt", "We introduce Quokkanet, a detector for quokkas in camera-trap "
                                             "images that counts animals in remote islands.")
    assert run_cli("ingest", str(terminal), "--json", home=home).returncode == 0
    time.sleep(1.1)  # past the once-a-second check for other writers
    assert server.search("quokka detection in camera traps")[0].title.startswith("Quokkanet")
    assert server.lexical.search("Quokkanet", 1)

    server.ingest([seed_file(tmp_path / "c.txt", "We introduce WombatGPT, a language model for wombat "
                                                  "behaviour reports written by park rangers.")])
    listed = {p["title"].split(":")[0] for p in json.loads(run_cli("papers", "--json", home=home).stdout)}
    assert listed == {"AlphaNet", "Quokkanet", "WombatGPT"}
    for query, name in (("quokka detection in camera traps", "Quokkanet"), ("wombat behaviour reports", "WombatGPT")):
        hits = json.loads(run_cli("search", query, "--json", home=home).stdout)["results"]
        assert hits and hits[0]["title"].startswith(name), (query, hits)


# -- the encoder child ends with its parent (issue 45) ---------------------------------------------------
CORPUS = ROOT.parent / "shared" / "corpus" / "iclr2026.jsonl.gz"


def _children(pid: int) -> list[int]:
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            cmdline = (entry / "cmdline").read_bytes()
        except OSError:
            continue
        if int(stat[1]) == pid and b"ingest.encoder_process" in cmdline:
            found.append(int(entry.name))
    return found


def _cpu_seconds(pid: int) -> float:
    try:
        fields = (Path("/proc") / str(pid) / "stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _running(pid: int) -> bool:
    """Whether ``pid`` is alive (a zombie waiting for a reaper is not)."""
    try:
        return (Path("/proc") / str(pid) / "stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


@pytest.mark.skipif(not CORPUS.exists(), reason=f"needs the real corpus at {CORPUS} (../shared/corpus beside the repo)")
@pytest.mark.skipif(not Path("/proc").exists(), reason="finds the encoder child through /proc (Linux)")
def test_the_encoder_child_ends_when_its_ingest_is_killed(tmp_path):
    import gzip

    papers = tmp_path / "slice.jsonl"
    with gzip.open(CORPUS, "rt", encoding="utf-8") as src, papers.open("w", encoding="utf-8") as out:
        for i, line in enumerate(src):  # over the 256 new papers past which ingests encode in a child
            if i >= 600:
                break
            out.write(line)
    ingest = subprocess.Popen([str(ASSISTANT), "ingest", str(papers)], env={**_env(tmp_path / "home"),
                              "ASSISTANT_EMBED_PROCESS": "1"}, cwd=ROOT,
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    children: list[int] = []
    try:
        deadline = time.monotonic() + 300
        while not children and ingest.poll() is None and time.monotonic() < deadline:
            time.sleep(0.2)
            children = _children(ingest.pid)
        assert children, "the ingest never started its encoder process"
        # killed while the child encodes a window: loading the model costs it ~1.1 s of CPU
        while _cpu_seconds(children[0]) < 2.0 and ingest.poll() is None and time.monotonic() < deadline:
            time.sleep(0.05)
        assert _running(children[0]), "the encoder process ended before its ingest was killed"
        os.kill(ingest.pid, signal.SIGKILL)
        ingest.wait()
        killed = time.monotonic()
        while _running(children[0]) and time.monotonic() - killed < 3:
            time.sleep(0.05)
        assert not _running(children[0]), "the encoder process outlived its ingest by over 3 s"
    finally:
        if ingest.poll() is None:
            ingest.kill()
            ingest.wait()
        for child in children:
            if _running(child):
                os.kill(child, signal.SIGKILL)
