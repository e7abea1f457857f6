"""`assistant ingest --openreview VENUE`: paging, resuming, rate limits and clean failures, against a
loopback stand-in of OpenReview's API v2 serving real ICLR 2026 submissions (built here from the shared
corpus, never committed). No test reaches the network."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import threading
import time
from functools import partial
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer

import pytest

from .conftest import ASSISTANT, ROOT, run_cli
from .standins.openreview_standin import OpenReviewStandIn, free_port, notes_from_corpus

CORPUS = ROOT.parent / "shared" / "corpus" / "iclr2026.jsonl.gz"
VENUE = "ICLR.cc/2026/Conference"
DOWNLOAD = "downloads/ICLR.cc_2026_Conference.jsonl"

pytestmark = pytest.mark.skipif(not CORPUS.exists(), reason=f"the ICLR 2026 corpus is not at {CORPUS}")


@pytest.fixture(scope="module")
def notes():
    """120 real submissions as API v2 notes: every 150th line of the corpus, withdrawn ones among them."""
    made = notes_from_corpus(CORPUS, 120, every=150)
    assert any(n["content"]["venueid"]["value"].endswith("/Withdrawn_Submission") for n in made)
    return made


def ingest(home, api, *args, page_size: int = 50):
    return run_cli("ingest", "--openreview", VENUE, "--openreview-page-size", str(page_size), *args, home=home,
                   env={"ASSISTANT_OPENREVIEW_URL": api.url})


def lines(path):
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def test_ingest_downloads_every_page_as_api_notes_and_the_papers_are_found(tmp_path, notes):
    home = tmp_path / "home"
    with OpenReviewStandIn(notes) as api:
        result = ingest(home, api, "--json")
        asked = api.note_requests()
    assert result.returncode == 0, result.stderr
    report = json.loads(result.stdout)
    assert report["download"]["notes"] == report["download"]["count"] == 120
    assert report["added"] == report["papers"] == 120 and report["skipped"] == []

    # The official client's paging: sort=id, 50 a page here, each page after the last id of the one before.
    ordered = sorted(notes, key=lambda n: n["id"])
    assert [r.get("after") for r in asked] == [None, ordered[49]["id"], ordered[99]["id"]]
    assert {(r["invitation"], r["sort"], r["limit"]) for r in asked} == {(f"{VENUE}/-/Submission", "id", "50")}

    saved = lines(home / DOWNLOAD)
    assert saved == ordered  # the notes as received, withdrawn ones kept with their venue
    assert not list((home / "downloads").glob("*.part")) and not list((home / "downloads").glob("*.state.json"))

    paper = next(n for n in notes if n["content"]["venueid"]["value"].endswith("/Withdrawn_Submission"))
    title = paper["content"]["title"]["value"]
    found = json.loads(run_cli("search", title, "--json", home=home).stdout)
    assert found["results"] and found["results"][0]["title"] == title
    withdrawn = {" ".join(n["content"]["title"]["value"].split()) for n in notes  # as cleaned at ingest
                 if n["content"]["venue"]["value"] == "ICLR 2026 Conference Withdrawn Submission"}
    listed = run_cli("papers", "--where", "venue=ICLR 2026 Conference Withdrawn Submission", "--json", home=home)
    assert {p["title"] for p in json.loads(listed.stdout)} == withdrawn  # the venue is there for a decision filter


def test_a_download_cut_or_interrupted_resumes_after_its_last_complete_page(tmp_path, notes):
    home = tmp_path / "home"
    few = notes[:60]
    ordered = sorted(few, key=lambda n: n["id"])
    part, state = home / (DOWNLOAD + ".part"), home / (DOWNLOAD + ".state.json")
    with OpenReviewStandIn(few) as api:
        api.fail_after_pages(1)  # the network goes after the first page
        cut = ingest(home, api, page_size=25)
        assert cut.returncode != 0 and "Traceback" not in cut.stderr
        assert len(cut.stderr.strip().splitlines()) == 1 and "resumes" in cut.stderr, cut.stderr
        assert [n["id"] for n in lines(part)] == [n["id"] for n in ordered[:25]]
        assert not (home / DOWNLOAD).exists()  # a half download is never the file ingest reads

        api.heal()
        api.requests.clear()
        api.slow_after_pages(1, seconds=120)  # the next page comes at once, the one after keeps it waiting
        env = {**os.environ, "ASSISTANT_HOME": str(home), "ASSISTANT_LLM": "none", "ASSISTANT_OPENREVIEW_URL": api.url}
        running = subprocess.Popen([str(ASSISTANT), "ingest", "--openreview", VENUE, "--openreview-page-size", "25"],
                                   env=env, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        deadline = time.monotonic() + 120
        while len(api.note_requests()) < 2 and time.monotonic() < deadline and running.poll() is None:
            time.sleep(0.2)
        running.send_signal(signal.SIGINT)  # Ctrl-C while page 3 is on its way
        _, stderr = running.communicate(timeout=60)
        assert running.returncode == 130 and stderr.strip() == "interrupted", stderr
        assert json.loads(state.read_text())["notes"] == 50 and len(lines(part)) == 50

        api.heal()
        api.requests.clear()
        resumed = ingest(home, api, "--json", page_size=25)
        asked = api.note_requests()
    assert resumed.returncode == 0, resumed.stderr
    report = json.loads(resumed.stdout)
    assert report["download"]["resumed_from"] == 50 and report["added"] == 60
    assert [r.get("after") for r in asked] == [ordered[49]["id"]]  # the finished pages are not asked for again
    assert not any(path == "/groups" for path, _ in api.requests)
    assert lines(home / DOWNLOAD) == ordered and not part.exists() and not state.exists()


def test_an_unreachable_server_is_one_line_and_a_failure(tmp_path):
    url = f"http://127.0.0.1:{free_port()}"
    result = run_cli("ingest", "--openreview", VENUE, home=tmp_path / "home", env={"ASSISTANT_OPENREVIEW_URL": url})
    assert result.returncode != 0 and "Traceback" not in result.stderr
    assert result.stderr.strip() == (f"Error: cannot reach {url} (ConnectError): check your connection, "
                                     "or download the export and run `assistant ingest FILE`.")


def test_a_rate_limit_is_waited_out_and_server_errors_retried(tmp_path, notes):
    from ingest.openreview import fetch

    with OpenReviewStandIn(notes) as api:
        api.rate_limit(1, seconds=1.5)
        shown = []
        started = time.monotonic()
        fetched = fetch(VENUE, tmp_path / "a.jsonl", base_url=api.url, page_size=50, backoff=0.05,
                        progress=lambda *bar: shown.append(bar))
        waited = time.monotonic() - started
        assert (fetched.notes, fetched.count, len(api.note_requests())) == (120, 120, 4)
        assert waited >= 1.2  # until the resetTime the 429 gave, not the short backoff
        assert shown == [(50, 120, "downloading"), (100, 120, "downloading"), (120, 120, "downloading")]

        api.requests.clear()
        api.server_errors(2)
        fetched = fetch(VENUE, tmp_path / "b.jsonl", base_url=api.url, page_size=50, backoff=0.05)
        assert fetched.notes == 120 and len(api.note_requests()) == 5
        assert lines(tmp_path / "b.jsonl") == sorted(notes, key=lambda n: n["id"])


def test_limits_that_do_not_lift_soon_unknown_venues_and_refusals_say_so(tmp_path, notes):
    from ingest.openreview import OpenReviewError, fetch

    with OpenReviewStandIn(notes) as api:
        api.rate_limit(1, seconds=3600)
        with pytest.raises(OpenReviewError, match=r"limiting requests \(Too many requests.*Wait 60 min, then rerun"):
            fetch(VENUE, tmp_path / "a.jsonl", base_url=api.url, backoff=0.05)
        assert len(api.note_requests()) == 1  # no hammering a server that said an hour

        with pytest.raises(OpenReviewError, match="OpenReview has no venue 'ICLR.cc/2099/Conference'"):
            fetch("ICLR.cc/2099/Conference", tmp_path / "b.jsonl", base_url=api.url)

        api.server_errors(10)
        with pytest.raises(OpenReviewError, match=r"HTTP 503 \(Service Unavailable\).*resumes"):
            fetch(VENUE, tmp_path / "c.jsonl", base_url=api.url, backoff=0.01)

        api.heal()
        api.requests.clear()
        api.server_errors(1, status=403)
        with pytest.raises(OpenReviewError, match=r"refused /notes with HTTP 403 \(Forbidden: you do not have"):
            fetch(VENUE, tmp_path / "e.jsonl", base_url=api.url)
        assert len(api.note_requests()) == 1  # a refusal is said, not retried

    pages = ThreadingHTTPServer(("127.0.0.1", 0), partial(SimpleHTTPRequestHandler, directory=str(tmp_path)))
    threading.Thread(target=pages.serve_forever, daemon=True).start()
    try:  # a web server that is no API, as a proxy or a mistyped address gives: not "no such venue"
        with pytest.raises(OpenReviewError, match=r"/groups answered HTTP 404 \(File not found\), not as OpenReview"):
            fetch(VENUE, tmp_path / "f.jsonl", base_url=f"http://127.0.0.1:{pages.server_address[1]}")
    finally:
        pages.shutdown()
        pages.server_close()

    with OpenReviewStandIn([]) as empty:
        with pytest.raises(OpenReviewError, match="lists no submissions"):
            fetch(VENUE, tmp_path / "d.jsonl", base_url=empty.url)
    assert not [p for p in tmp_path.glob("d.jsonl*") if p.suffix != ".lock"]  # no empty download left behind
