"""Who should write the answers: the abstracts' own words ("none") against the local model, per kind of question.

For a sample of a labelled set's questions of each kind, the same question is answered once with each writer,
as the browser does (its default page of papers; a follow-up in its conversation). It prints, per kind and
writer, latency p50 / p95, citation precision / recall, and of the sentences the model wrote how many passed the
check against their evidence (the others are shown as the abstract's quote):

    python bench/writers.py                                # bundled papers, tests/data/check20.jsonl (every kind), 2 per kind
    python bench/writers.py --home STORE --per-kind 3      # e.g. the 19,622-paper store
    python bench/writers.py --writers none,local,ollama    # with an Ollama running

Citations are chosen by retrieval and the plan, never by the model, so P / R must be the same for every writer:
a writer is worth its latency only through the sentences it rewrites and the checker keeps.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != ROOT / "bench"]
sys.path.insert(0, str(ROOT))

KINDS = ("list", "contribution", "followup", "topic", "named", "compare")


def sample(items, per_kind: int) -> list:
    """The first ``per_kind`` items of each kind, in the set's order."""
    taken: dict[str, int] = {}
    chosen = []
    for item in items:
        kind = item.type or ("followup" if item.conversation else "topic")
        if taken.get(kind, 0) < per_kind:
            taken[kind] = taken.get(kind, 0) + 1
            chosen.append((kind, item))
    return chosen


def answer_item(assistant, texts: dict, kind: str, item, writer: str) -> list[dict]:
    """One row per turn: seconds, P, R, the model's sentences kept / rejected."""
    from assistant.evaluation import _precision, _recall

    conversation = assistant.conversation() if item.conversation else None
    rows = []
    for turn in item.turns:
        expected = {pid for pid, text in texts.items() if any(s in text for s in turn["relevant"])}
        started = time.perf_counter()
        answer = assistant.ask(turn["question"], llm=writer, conversation=conversation)
        seconds = time.perf_counter() - started
        cited = [c.id for c in answer.citations]
        rows.append({"kind": kind, "seconds": seconds, "complete": answer.complete, "model": answer.model,
                     "p": _precision(cited, expected) if expected or cited else 1.0,
                     "r": _recall(cited, expected) if expected else 1.0, **answer.rewrites})
    return rows


def p95(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--home", type=Path, help="a store (default: the bundled papers in a temp folder)")
    parser.add_argument("--set", type=Path, default=ROOT / "tests" / "data" / "check20.jsonl")  # a set of every kind
    parser.add_argument("--per-kind", type=int, default=2)
    parser.add_argument("--writers", default="none,local")
    args = parser.parse_args(argv)

    from assistant import Assistant, Settings
    from assistant.batch import read_items

    writers = args.writers.split(",")
    with tempfile.TemporaryDirectory(prefix="writers-") as tmp:
        assistant = Assistant(Settings.from_env(env={}, home=args.home or Path(tmp), llm="none"))
        if not assistant.stats().get("papers"):
            assistant.ingest()
        texts = {p.id: p.text for p in assistant.papers()}
        chosen = sample(read_items(args.set, labelled=True), args.per_kind)
        for writer in writers:  # loaded before the clock starts
            backend, _note = assistant.backend(writer)
            if backend is not None and hasattr(backend, "model"):
                backend.model
        rows: dict[str, list[dict]] = {w: [] for w in writers}
        for kind, item in chosen:
            for writer in writers:
                rows[writer] += answer_item(assistant, texts, kind, item, writer)
            print(f"  {kind}: {item.turns[0]['question'][:70]}", file=sys.stderr, flush=True)
        papers = assistant.stats()["papers"]

    print(f"{papers:,} papers, {args.set.name}, {args.per_kind} per kind; seconds per answer, citation P / R, "
          "the model's sentences kept / written")
    print(f"{'kind':<13} {'writer':<8} {'n':>3} {'p50 s':>7} {'p95 s':>7} {'P':>6} {'R':>6} {'kept':>9} {'incomplete':>10}")
    for kind in (*KINDS, "all"):
        for writer in writers:
            group = [r for r in rows[writer] if kind in ("all", r["kind"])]
            if not group:
                continue
            seconds = [r["seconds"] for r in group]
            kept = sum(r.get("kept", 0) for r in group)
            written = kept + sum(r.get("rejected", 0) for r in group)
            print(f"{kind:<13} {writer:<8} {len(group):>3} {statistics.median(seconds):7.2f} {p95(seconds):7.2f} "
                  f"{statistics.mean(r['p'] for r in group):6.3f} {statistics.mean(r['r'] for r in group):6.3f} "
                  f"{f'{kept}/{written}':>9} {sum(not r['complete'] for r in group):>10}")


if __name__ == "__main__":
    main()
