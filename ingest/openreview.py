"""Download a conference's submissions from OpenReview's public API v2 into a JSON-lines file.

``fetch`` writes each note as the API sent it (``{"id", "number", "content": {"title": {"value": ..}}}``),
one a line, so the normal ingest reads the file like any OpenReview export. Withdrawn and desk-rejected
submissions are kept: their ``content.venue`` / ``content.venueid`` say so, and a decision filter can use it.

How the official client pages (openreview-py, ``openreview/api/client.py`` ``get_all_notes`` and
``openreview/tools.py`` ``efficient_iterget``): ``GET /notes?invitation=<venue>/-/Submission`` with
``limit`` (``OpenReviewClient.limit = 1000``, the server's cap) and ``sort=id``; the first answer's ``count``
is the total, and each next page asks for the notes ``after`` the last id of the one before. The
submission invitation's name comes from the venue group (``GET /groups?id=<venue>``,
``content.submission_name``, "Submission" for ICLR), as openreview's own docs recipe does.

Resuming: pages go to ``<name>.jsonl.part``; after each complete page a small state file beside it records
the bytes written, the notes and the last id, replaced atomically. A rerun after an interruption cuts the
part file back to the last complete page and goes on after that id; a finished download is renamed to
``<name>.jsonl`` and its state removed, so a half download is never read as a whole one. A run after a
finished one downloads afresh (decisions and abstracts change), replacing the file only once it is whole.
"""

from __future__ import annotations

import json
import os
import re
import time
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path
from typing import Callable

import httpx

from assistant.errors import AssistantError
from assistant.locks import LockBusy, locked, write_atomic

DEFAULT_URL = "https://api2.openreview.net"
PAGE_LIMIT = 1000  # the most notes one request may ask for (openreview-py's OpenReviewClient.limit)
TIMEOUT = httpx.Timeout(60.0, connect=15.0)
RATE_LIMIT_RETRIES = 5  # 429s in a row before giving up
SERVER_RETRIES = 3  # 5xx answers or dropped connections in a row before giving up
MAX_WAIT = 120.0  # seconds; a rate limit lifting later than this ends the run (a rerun resumes)
STATE_VERSION = 1

Progress = Callable[[int, int, str], None]


class OpenReviewError(AssistantError):
    """OpenReview could not be reached, refused, or holds no such venue."""


@dataclass(frozen=True)
class Fetched:
    """What one ``fetch`` left on disk: the file, its notes, the API's count, and what this run did."""

    path: Path
    notes: int
    count: int
    requests: int
    resumed_from: int  # notes already downloaded by an interrupted run, not asked for again

    def as_dict(self) -> dict:
        return {"path": str(self.path), "notes": self.notes, "count": self.count, "requests": self.requests,
                "resumed_from": self.resumed_from}


def download_name(venue_id: str) -> str:
    """``ICLR.cc/2026/Conference`` -> ``ICLR.cc_2026_Conference``: one flat, portable file name per venue."""
    name = re.sub(r"[^A-Za-z0-9._-]+", "_", venue_id.strip()).strip("._")
    if not name:
        raise OpenReviewError(f"{venue_id!r} is not an OpenReview venue id.",
                              "Give one like ICLR.cc/2026/Conference (the id in the venue page's address).")
    return name


def fetch(venue_id: str, dest: Path, *, base_url: str = DEFAULT_URL, client: httpx.Client | None = None,
          progress: Progress | None = None, page_size: int = PAGE_LIMIT, backoff: float = 1.0) -> Fetched:
    """Download every submission of ``venue_id`` into ``dest`` (a ``.jsonl`` file), resuming an earlier
    interrupted download of the same venue. Raises ``OpenReviewError`` with a one-line reason."""
    if not 1 <= page_size <= PAGE_LIMIT:
        raise OpenReviewError(f"page size {page_size} is out of range.", f"Use 1 to {PAGE_LIMIT}.")
    base_url = base_url.strip().rstrip("/")
    if not re.match(r"https?://[^/\s]+", base_url):
        raise OpenReviewError(f"ASSISTANT_OPENREVIEW_URL={base_url!r} is not an http(s) address.",
                              f"Set it like {DEFAULT_URL}, or unset it.")
    own_client = client is None
    api = _Api(client or httpx.Client(timeout=TIMEOUT, headers={"Accept": "application/json"}), base_url, backoff)
    dest = Path(dest)
    dest.parent.mkdir(parents=True, exist_ok=True)
    try:
        with locked(dest.with_name(dest.name + ".lock"), wait=False):
            return _download(api, venue_id.strip(), dest, progress, page_size)
    except LockBusy:
        raise OpenReviewError(f"Another process is downloading {venue_id} into {dest.parent}.",
                              "Wait for it to finish, then run the command again.") from None
    finally:
        if own_client:
            api.client.close()


def _download(api: "_Api", venue_id: str, dest: Path, progress: Progress | None, page_size: int) -> Fetched:
    part = dest.with_name(dest.name + ".part")
    state_path = dest.with_name(dest.name + ".state.json")
    state = _resumable(state_path, part, venue_id, api.base_url)
    resumed_from = state["notes"] if state else 0
    if state is None:
        invitation = f"{venue_id}/-/{api.submission_name(venue_id)}"
        state = {"version": STATE_VERSION, "venue_id": venue_id, "base_url": api.base_url, "invitation": invitation,
                 "count": None, "notes": 0, "bytes": 0, "after": None}
        part.write_bytes(b"")
    with open(part, "r+b") as out:
        out.truncate(state["bytes"])  # drop whatever a cut-off run wrote after its last complete page
        out.seek(state["bytes"])
        if progress and state["count"]:
            progress(state["notes"], state["count"], "downloading")
        while True:
            params = {"invitation": state["invitation"], "sort": "id", "limit": page_size}
            if state["after"]:
                params["after"] = state["after"]
            page = api.notes(params)
            notes = page["notes"]
            if state["count"] is None:
                state["count"] = int(page.get("count") or 0)
            if not notes:
                break
            if state["after"] and notes[0]["id"] <= state["after"]:  # a server ignoring the cursor would loop
                raise OpenReviewError(f"{api.base_url}/notes sent notes again instead of those after {state['after']}.",
                                      "Is ASSISTANT_OPENREVIEW_URL an OpenReview API v2 server?")
            out.write(b"".join(json.dumps(note, ensure_ascii=False).encode("utf-8") + b"\n" for note in notes))
            out.flush()
            os.fsync(out.fileno())
            state.update(notes=state["notes"] + len(notes), bytes=out.tell(), after=notes[-1]["id"])
            write_atomic(state_path, json.dumps(state))
            if progress:
                progress(state["notes"], max(state["count"], state["notes"]), "downloading")
            if len(notes) < page_size and state["notes"] >= state["count"]:
                break  # a short page can also mean a server capping the limit lower: then go on
    if state["notes"] == 0:
        part.unlink(missing_ok=True)
        state_path.unlink(missing_ok=True)
        raise OpenReviewError(f"OpenReview lists no submissions for {venue_id!r} (invitation {state['invitation']}).",
                              "Check the venue id, e.g. ICLR.cc/2026/Conference, on its OpenReview page.")
    os.replace(part, dest)
    state_path.unlink(missing_ok=True)
    return Fetched(dest, state["notes"], state["count"], api.requests, resumed_from)


def _resumable(state_path: Path, part: Path, venue_id: str, base_url: str) -> dict | None:
    """The state of an interrupted download of this venue from this server, or None to start afresh."""
    try:
        state = json.loads(state_path.read_text(encoding="utf-8"))
        size = part.stat().st_size
    except (OSError, ValueError):
        return None
    if (not isinstance(state, dict) or state.get("version") != STATE_VERSION or state.get("venue_id") != venue_id
            or state.get("base_url") != base_url or not isinstance(state.get("bytes"), int) or state["bytes"] > size):
        return None
    return state


class _Api:
    """GETs against the API with the retries a long download needs, and one-line errors."""

    def __init__(self, client: httpx.Client, base_url: str, backoff: float) -> None:
        self.client = client
        self.base_url = base_url
        self.backoff = backoff
        self.requests = 0

    def submission_name(self, venue_id: str) -> str:
        groups = self._get("/groups", {"id": venue_id}, missing_venue=venue_id).get("groups") or []
        if not groups:
            raise _no_venue(venue_id)
        name = (groups[0].get("content") or {}).get("submission_name") or {}
        value = name.get("value") if isinstance(name, dict) else name
        return value if isinstance(value, str) and value.strip() else "Submission"

    def notes(self, params: dict) -> dict:
        page = self._get("/notes", params)
        if not isinstance(page.get("notes"), list) or not all(isinstance(n, dict) and n.get("id") for n in page["notes"]):
            raise OpenReviewError(f"{self.base_url}/notes answered without a list of notes.",
                                  "Is ASSISTANT_OPENREVIEW_URL an OpenReview API v2 server?")
        return page

    def _after_failure(self, failed: int, message: str) -> int:
        """One more failed try: wait before the next (doubling each time), or give up past ``SERVER_RETRIES``."""
        failed += 1
        if failed > SERVER_RETRIES:
            raise OpenReviewError(message, _RERUN) from None
        time.sleep(self.backoff * 2 ** (failed - 1))
        return failed

    def _get(self, path: str, params: dict, *, missing_venue: str | None = None) -> dict:
        rate_limited = failed = 0
        while True:
            self.requests += 1
            try:
                response = self.client.get(self.base_url + path, params=params)
            except (httpx.ConnectError, httpx.ConnectTimeout) as exc:  # no server, no route: retrying will not help now
                raise _unreachable(self.base_url, exc) from None
            except (httpx.TimeoutException, httpx.RemoteProtocolError, httpx.ReadError) as exc:
                failed = self._after_failure(failed, f"{self.base_url} stopped answering ({type(exc).__name__}).")
                continue
            except httpx.HTTPError as exc:
                raise _unreachable(self.base_url, exc) from None
            if response.status_code == 429:
                rate_limited += 1
                wait = _rate_limit_wait(response, self.backoff * 2 ** (rate_limited - 1))
                if rate_limited > RATE_LIMIT_RETRIES or wait > MAX_WAIT:
                    raise OpenReviewError(f"OpenReview is limiting requests ({_message(response)}).",
                                          f"Wait {max(1, round(wait / 60))} min, then rerun: {_RERUN_SHORT}") from None
                time.sleep(wait)
                continue
            if response.status_code >= 500:
                failed = self._after_failure(failed, f"OpenReview answered HTTP {response.status_code} "
                                                     f"({_message(response)}).")
                continue
            if response.status_code >= 400 and _api_error(response) is None:  # a proxy or another server
                raise OpenReviewError(f"{self.base_url}{path} answered HTTP {response.status_code} "
                                      f"({_message(response)}), not as OpenReview's API does.",
                                      "Is ASSISTANT_OPENREVIEW_URL an OpenReview API v2 server?")
            if response.status_code == 404 and missing_venue:
                raise _no_venue(missing_venue)
            if response.status_code >= 400:
                raise OpenReviewError(f"OpenReview refused {path} with HTTP {response.status_code} "
                                      f"({_message(response)}).", "Check the venue id and ASSISTANT_OPENREVIEW_URL.")
            try:
                body = response.json()
            except ValueError:
                body = None
            if not isinstance(body, dict):
                raise OpenReviewError(f"{self.base_url}{path} did not answer JSON.",
                                      "Is ASSISTANT_OPENREVIEW_URL an OpenReview API v2 server?")
            return body


_RERUN_SHORT = "the download resumes after its last complete page."
_RERUN = f"Rerun later: {_RERUN_SHORT}"


def _unreachable(base_url: str, exc: Exception) -> OpenReviewError:
    return OpenReviewError(f"cannot reach {base_url} ({type(exc).__name__}):",
                           "check your connection, or download the export and run `assistant ingest FILE`.")


def _no_venue(venue_id: str) -> OpenReviewError:
    return OpenReviewError(f"OpenReview has no venue {venue_id!r}.",
                           "Check the id on the venue's OpenReview page, e.g. ICLR.cc/2026/Conference.")


def _api_error(response: httpx.Response) -> dict | None:
    """The API's JSON error body (``{"name": "NotFoundError", "message": ..., "status": 404}``, the shape
    openreview-py's ``tools.get_group`` reads), or None for an answer from something else (a proxy, a web page)."""
    try:
        body = response.json()
    except ValueError:
        return None
    return body if isinstance(body, dict) and isinstance(body.get("name"), str) and "message" in body else None


def _message(response: httpx.Response) -> str:
    """The API's own error message (``{"name", "message", "status", "details"}``), on one line."""
    try:
        body = response.json()
        text = body.get("message") if isinstance(body, dict) else None
    except ValueError:
        text = None
    text = str(text or response.reason_phrase or "no reason given")
    return " ".join(text.split())[:200]


def _rate_limit_wait(response: httpx.Response, default: float) -> float:
    """Seconds until the limit lifts: ``Retry-After``, or the body's ``details.resetTime`` (the API's
    RateLimitError carries one, e.g. ``{"details": {"resetTime": "2026-08-31T08:59:25.212Z"}}``)."""
    header = response.headers.get("Retry-After", "")
    if header.strip().isdigit():
        return float(header)
    try:
        reset = response.json()["details"]["resetTime"]
        when = datetime.fromisoformat(str(reset).replace("Z", "+00:00"))
        return max(default, (when - datetime.now(timezone.utc)).total_seconds())
    except (ValueError, KeyError, TypeError, AttributeError):
        return default
