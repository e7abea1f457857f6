"""Screenshots of the browser chat on a store, for the README and docs: a list answer, then a comparison.

Starts `assistant ui --no-ingest` on ``--home`` (loopback), asks in Debian's chromium through Playwright, and
writes ``docs/conference-list.png`` and ``docs/conference-comparison.png`` (1,280 x 900 window):

    PYTHONPATH=. .venv/bin/python scripts/screenshots.py --home STORE     # e.g. the 19,622-paper store
"""

from __future__ import annotations

import argparse
import os
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
LIST_QUESTION = "which papers reduce reasoning token usage?"
FOLLOW_UP = "how do they differ?"
WAIT = 300_000  # ms: an answer on a busy machine


def main(argv: list[str] | None = None) -> None:
    from playwright.sync_api import sync_playwright

    from bench.procs import assistant_ui

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--home", type=Path, required=True)
    parser.add_argument("--out", type=Path, default=ROOT / "docs")
    args = parser.parse_args(argv)
    env = {**os.environ, "ASSISTANT_HOME": str(args.home), "ASSISTANT_LLM": "none", "GRADIO_ANALYTICS_ENABLED": "False",
           "ANONYMIZED_TELEMETRY": "False"}
    with assistant_ui(env, "--no-ingest") as (_server, url, _ready), sync_playwright() as p:
        browser = p.chromium.launch(executable_path="/usr/bin/chromium", args=["--headless=new", "--no-sandbox"])
        page = browser.new_page(viewport={"width": 1280, "height": 900})
        page.goto(url, timeout=WAIT)
        for turns, (question, name) in enumerate(((LIST_QUESTION, "conference-list"),
                                                  (FOLLOW_UP, "conference-comparison")), 1):
            page.fill("#question textarea", question)
            page.press("#question textarea", "Enter")
            page.wait_for_function(f"document.querySelectorAll('#chat-log .turn').length >= {turns} && "
                                   "!document.querySelector('#chat-log .a.pending')", timeout=WAIT)
            page.wait_for_timeout(500)  # the scroll to the new question
            page.screenshot(path=str(args.out / f"{name}.png"))
            print(f"wrote {args.out / f'{name}.png'}")
        browser.close()

if __name__ == "__main__":
    main()
