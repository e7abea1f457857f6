"""Loopback stand-in for OpenReview's public API v2 (https://api2.openreview.net), serving given notes.

Why this exists: tests must never reach openreview.net (this machine has no internet anyway), yet
``ingest/openreview.py`` has to be checked against the API's real shapes and paging. This serves the two
endpoints a guest download uses, with the standard library only:

- ``GET /groups?id=VENUE`` -> ``{"groups": [{"id", "content": {"submission_name": {"value": "Submission"}}, ...}],
  "count": 1}``; an unknown id -> 404 ``{"name": "NotFoundError", "message": "Group Not Found: ...", "status": 404}``
- ``GET /notes?invitation=VENUE/-/Submission&limit=&offset=&after=&sort=`` -> ``{"notes": [...], "count": N}``,
  where ``count`` is every note the query matches (not the page), ``limit`` is capped at 1000, ``sort=id``
  orders by id and ``after=ID`` starts after that id (the official client's cursor), ``offset`` skips.

The notes are API v2 notes (``content.X.value``), made by ``notes_from_corpus`` from real lines of the
ICLR 2026 corpus, which is never committed: tests build them at run time.

It can misbehave on purpose: ``fail_after_pages(n)`` serves n pages of notes, then drops every later
connection without an answer (a network cut mid-download) until ``heal()``; ``rate_limit(k)`` answers the
next k notes requests with the API's 429 RateLimitError body; ``server_errors(k, status)`` with 503 or
another error; ``slow_after_pages(n, s)`` makes later pages wait s seconds (to interrupt a download). ``requests``
records every call as ``(path, params)``.

By hand::

    python tests/standins/openreview_standin.py --corpus ../shared/corpus/iclr2026.jsonl.gz --notes 300
"""

from __future__ import annotations

import argparse
import gzip
import json
import socket
import threading
from datetime import datetime, timedelta, timezone
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlsplit

API_LIMIT = 1000  # the server's most notes per page
VENUE_ID = "ICLR.cc/2026/Conference"
VENUE_NAME = "ICLR 2026"
SUBMISSION_CDATE = 1757998013559  # a real ICLR 2026 submission's cdate (ms); notes count up from it


def free_port() -> int:
    """A loopback TCP port nothing listens on (for connection-refused tests)."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def venue_of(decision: str | None, venue_id: str = VENUE_ID, name: str = VENUE_NAME) -> tuple[str, str]:
    """``(content.venue, content.venueid)`` of a submission with this decision, as OpenReview writes them:
    accepted ones get the venue's id and e.g. 'ICLR 2026 Poster'; rejected 'Submitted to ICLR 2026'
    (openreview-py ``tools.decision_to_venue``); withdrawn and desk-rejected ones their own buckets."""
    if decision and decision.startswith("Accept"):
        kind = decision.split("(", 1)[-1].rstrip(")").replace("Conditional ", "") if "(" in decision else ""
        return (f"{name} {kind}".strip(), venue_id)
    if decision == "Reject":
        return (f"Submitted to {name}", f"{venue_id}/Rejected_Submission")
    if decision == "Withdrawn":
        return (f"{name} Conference Withdrawn Submission", f"{venue_id}/Withdrawn_Submission")
    if decision == "Desk Rejected":
        return (f"{name} Conference Desk Rejected Submission", f"{venue_id}/Desk_Rejected_Submission")
    return (f"{name} Conference Submission", f"{venue_id}/Submission")


def note_from_paper(paper: dict, venue_id: str = VENUE_ID) -> dict:
    """One corpus line as the API v2 note OpenReview serves for it (fields a guest can read)."""
    number = int(paper["submission_number"])
    venue, venueid = venue_of(paper.get("decision"), venue_id)
    content: dict[str, Any] = {
        "title": {"value": paper["title"]},
        "abstract": {"value": paper["abstract"]},
        "keywords": {"value": list(paper.get("keywords") or [])},
        "primary_area": {"value": paper["primary_area"]},
        "venue": {"value": venue},
        "venueid": {"value": venueid},
        "pdf": {"value": f"/pdf/{paper['id']}.pdf"},
        "_bibtex": {"value": f"@inproceedings{{\nanonymous2025{paper['id'].lower()},\ntitle={{{paper['title']}}},\n"
                              f"author={{Anonymous}},\nbooktitle={{Submitted to {VENUE_NAME}}},\nyear={{2025}},\n"
                              f"url={{https://openreview.net/forum?id={paper['id']}}},\n}}"},
    }
    if paper.get("tldr"):
        content["TLDR"] = {"value": paper["tldr"]}
    cdate = SUBMISSION_CDATE + number * 1000
    return {
        "id": paper["id"], "forum": paper["id"], "number": number, "version": 2,
        "invitations": [f"{venue_id}/-/Submission", f"{venue_id}/-/Post_Submission", f"{venue_id}/-/Edit"],
        "domain": venue_id, "readers": ["everyone"], "writers": [venue_id],
        "signatures": [f"{venue_id}/Submission{number}/Authors"],
        "cdate": cdate, "tcdate": cdate, "mdate": cdate + 86_400_000, "tmdate": cdate + 86_400_000,
        "odate": 1758900000000, "license": "CC BY 4.0", "content": content,
    }


def notes_from_corpus(path: Path, count: int, *, every: int = 1, venue_id: str = VENUE_ID) -> list[dict]:
    """``count`` notes from the corpus file (every ``every``-th line), the same ones each time."""
    notes: list[dict] = []
    with gzip.open(path, "rt", encoding="utf-8") as lines:
        for number, line in enumerate(lines):
            if number % every == 0:
                notes.append(note_from_paper(json.loads(line), venue_id))
                if len(notes) == count:
                    break
    return notes


class OpenReviewStandIn:
    """An API v2 server on 127.0.0.1 in a background thread; ``with OpenReviewStandIn(notes) as api: api.url``."""

    def __init__(self, notes: list[dict], *, venue_id: str = VENUE_ID, host: str = "127.0.0.1", port: int = 0):
        self.notes = list(notes)
        self.venue_id = venue_id
        self.requests: list[tuple[str, dict[str, str]]] = []
        self._lock = threading.Lock()
        self._pages_left: int | None = None  # notes pages still served before connections drop
        self._rate_limited = 0
        self._rate_limit_seconds = 1.0
        self._errors = 0
        self._error_status = 503
        self._slow_after: int | None = None  # notes pages answered at once before each answer waits
        self._slow_seconds = 0.0
        self._healed = threading.Event()  # wakes the waiting answers
        self._server = _Server((host, port), self)
        self._thread: threading.Thread | None = None

    @property
    def url(self) -> str:
        host, port = self._server.server_address[:2]
        return f"http://{host}:{port}"

    def fail_after_pages(self, pages: int) -> None:
        """Serve ``pages`` notes pages, then drop every later connection unanswered."""
        self._pages_left = pages

    def slow_after_pages(self, pages: int, seconds: float) -> None:
        """Answer ``pages`` notes pages at once, then wait ``seconds`` (or until ``heal``) before each answer."""
        self._slow_after, self._slow_seconds = pages, seconds
        self._healed.clear()

    def heal(self) -> None:
        self._pages_left = self._slow_after = None
        self._errors = self._rate_limited = 0
        self._healed.set()

    def rate_limit(self, times: int = 1, seconds: float = 1.0) -> None:
        """Answer the next ``times`` notes requests 429, the limit lifting ``seconds`` later."""
        self._rate_limited = times
        self._rate_limit_seconds = seconds

    def server_errors(self, times: int = 1, status: int = 503) -> None:
        """Answer the next ``times`` notes requests with this HTTP error (503 Service Unavailable by default)."""
        self._errors, self._error_status = times, status

    def note_requests(self) -> list[dict[str, str]]:
        return [params for path, params in self.requests if path == "/notes"]

    def start(self) -> "OpenReviewStandIn":
        self._thread = threading.Thread(target=self._server.serve_forever, name="openreview-standin", daemon=True)
        self._thread.start()
        return self

    def stop(self) -> None:
        self._server.shutdown()
        self._server.server_close()

    def __enter__(self) -> "OpenReviewStandIn":
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    # -- what the handler asks -----------------------------------------------------------
    def answer(self, path: str, params: dict[str, str]) -> tuple[int, dict] | None:
        """``(status, body)`` for one GET, or None to drop the connection unanswered."""
        with self._lock:
            self.requests.append((path, params))  # on arrival, so a test sees a request still waiting
            wait = path == "/notes" and self._slow_after is not None and self._slow_after <= 0
            if path == "/notes" and self._slow_after is not None:
                self._slow_after -= 1
        if wait:
            self._healed.wait(self._slow_seconds)
        with self._lock:
            if path == "/groups":
                return self._groups(params)
            if path != "/notes":
                return 404, _error("NotFoundError", f"Cannot GET {path}", 404)
            if self._pages_left is not None:
                if self._pages_left <= 0:
                    return None
                self._pages_left -= 1
            if self._rate_limited:
                self._rate_limited -= 1
                return 429, _rate_limit_error(self._rate_limit_seconds)
            if self._errors:
                self._errors -= 1
                return self._error_status, _ERRORS.get(self._error_status, _error("Error", "Error", self._error_status))
            return self._notes(params)

    def _groups(self, params: dict[str, str]) -> tuple[int, dict]:
        if params.get("id") != self.venue_id:
            return 404, _error("NotFoundError", f"Group Not Found: {params.get('id')}", 404)
        group = {"id": self.venue_id, "domain": self.venue_id, "readers": ["everyone"], "members": [],
                 "content": {"submission_name": {"value": "Submission"}, "title": {"value": "ICLR 2026"},
                             "submission_id": {"value": f"{self.venue_id}/-/Submission"}}}
        return 200, {"groups": [group], "count": 1}

    def _notes(self, params: dict[str, str]) -> tuple[int, dict]:
        try:
            limit = min(int(params.get("limit", API_LIMIT)), API_LIMIT)
            offset = int(params.get("offset", 0))
        except ValueError:
            return 400, _error("ValidationError", "limit and offset must be integers", 400)
        matching = [n for n in self.notes if params.get("invitation") in n["invitations"]]
        key = "id" if params.get("sort", "").split(":")[0] == "id" else "number"
        matching.sort(key=lambda n: n[key])
        count = len(matching)  # every note the query matches, whatever page is asked for
        if params.get("after"):  # the official client's cursor, used with sort=id
            matching = [n for n in matching if n["id"] > params["after"]]
        return 200, {"notes": matching[offset:offset + limit], "count": count}


def _error(name: str, message: str, status: int) -> dict:
    return {"name": name, "message": message, "status": status, "details": {"reqId": "2025-11-22-1234567"}}


_ERRORS = {503: _error("ServiceUnavailableError", "Service Unavailable", 503),
           403: _error("ForbiddenError", "Forbidden: you do not have permission to read these notes", 403)}


def _rate_limit_error(seconds: float) -> dict:
    """The API's 429 body (as quoted in openreview issue threads), the limit lifting ``seconds`` from now."""
    reset = (datetime.now(timezone.utc) + timedelta(seconds=seconds)).strftime("%Y-%m-%dT%H:%M:%S.%f")[:-3] + "Z"
    return {"name": "RateLimitError", "status": 429,
            "message": "Too many requests: You have made 61 requests, surpassing the limit of 60 requests. "
                       f"Please try again in {seconds:g} seconds (2025-11-22-1234567)",
            "details": {"limit": 60, "remaining": 0, "resetTime": reset, "used": 61, "current": 61,
                        "reqId": "2025-11-22-1234567"}}


class _Server(ThreadingHTTPServer):
    daemon_threads = True

    def __init__(self, address: tuple[str, int], standin: OpenReviewStandIn) -> None:
        self.standin = standin
        super().__init__(address, _Handler)


class _Handler(BaseHTTPRequestHandler):
    server: _Server
    protocol_version = "HTTP/1.1"

    def log_message(self, format: str, *args: Any) -> None:  # quiet, like a server under test should be
        pass

    def do_GET(self) -> None:
        url = urlsplit(self.path)
        params = {key: values[-1] for key, values in parse_qs(url.query).items()}
        answer = self.server.standin.answer(url.path, params)
        if answer is None:  # a cut: close the socket without a status line
            self.close_connection = True
            self.connection.shutdown(socket.SHUT_RDWR)
            return
        status, body = answer
        data = json.dumps(body, ensure_ascii=False).encode("utf-8")
        try:
            self.send_response(status)
            self.send_header("Content-Type", "application/json; charset=utf-8")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)
        except (BrokenPipeError, ConnectionResetError):  # the client left while its answer waited
            self.close_connection = True


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpus", type=Path, required=True, help="iclr2026.jsonl.gz")
    parser.add_argument("--notes", type=int, default=300)
    parser.add_argument("--port", type=int, default=8080)
    args = parser.parse_args(argv)
    with OpenReviewStandIn(notes_from_corpus(args.corpus, args.notes), port=args.port) as api:
        print(f"OpenReview stand-in serving {args.notes} notes at {api.url}; Ctrl-C stops", flush=True)
        try:
            threading.Event().wait()
        except KeyboardInterrupt:
            pass


if __name__ == "__main__":
    main()
