"""What the question plan costs, and how fast each kind of answer comes, on a store you name.

    ASSISTANT_HOME=STORE python bench/plan.py --questions ../shared/eval/dev2.jsonl ../shared/eval/dev.jsonl
    ASSISTANT_HOME=STORE python bench/plan.py --questions ... --local   # also the local model's first token

Figures, each the median over the questions (after two warm-up rounds):

- ``plan``: ``Assistant.plan`` alone (rules, name lookup), and ``find`` (plan + selection) against the
  search it replaces (``HybridSearcher.search_topics`` with the topic gate, no plan), run side by
  side, question by question;
- ``list answer``: ``ask(..., llm="none")`` of the list questions: the first page (what a user gets:
  the count and 20 papers), and every paper on one page (``--all``);
- ``comparison of 3``: ``ask`` of a plan comparing the three papers a list question found first;
- ``first token (local)``: with ``--local``, a comparison question answered by the packaged model:
  seconds to the answer's first piece and to the model's first token.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != ROOT / "bench"]
sys.path.insert(0, str(ROOT))


def timed(call, assistant) -> float:
    """Seconds ``call`` takes, with none of the searches it makes kept from an earlier call."""
    assistant.searcher.forget_recent()
    started = time.perf_counter()
    call()
    return time.perf_counter() - started


def median_ms(values: list[float]) -> str:
    return f"{statistics.median(values) * 1000:.1f} ms" if values else "-"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--questions", nargs="+", type=Path, required=True, help="question sets (JSON Lines)")
    parser.add_argument("--local", action="store_true", help="also time the local model's first token")
    args = parser.parse_args()

    from assistant import Assistant, Settings
    from assistant.batch import read_items
    from assistant.search import Gate

    assistant = Assistant(Settings.from_env(llm="none"))
    s = assistant.settings
    items = [item for path in args.questions for item in read_items(path) if not item.conversation]
    questions = [item.turns[0]["question"] for item in items]
    lists = [item.turns[0]["question"] for item in items if item.type == "list"]
    print(f"store: {assistant.stats()['papers']:,} papers; {len(questions)} questions, {len(lists)} of them lists")

    gate = Gate(s.min_score, s.relative_score)
    for _ in range(2):  # warm-up: encoder, collections, BM25
        for q in questions[:5]:
            assistant.find(q)
            assistant.searcher.search_topics(q, k=s.k, gate=gate)
    plan, find, search = [], [], []
    for q in questions:  # side by side, question by question
        plan.append(timed(lambda: assistant.plan(q), assistant))
        find.append(timed(lambda: assistant.find(q), assistant))
        search.append(timed(lambda: assistant.searcher.search_topics(q, k=s.k, gate=gate), assistant))
    print(f"plan alone                    p50 {median_ms(plan)}")
    print(f"find (plan + selection)       p50 {median_ms(find)}")
    print(f"search without a plan         p50 {median_ms(search)}   find / search {statistics.median(find) / statistics.median(search):.2f}x")

    for label, size in (("first page", 0), ("every paper", None)):
        answers, totals = [], []
        for q in lists:
            answer = None

            def ask():
                nonlocal answer
                answer = assistant.ask(q, llm="none", page_size=size)

            answers.append(timed(ask, assistant))
            totals.append(answer.total)
        if answers:
            print(f"list answer, {label:<12}     p50 {statistics.median(answers):.2f} s, max {max(answers):.2f} s; "
                  f"papers per list: median {statistics.median(totals):.0f}, max {max(totals)}")

    comparisons = []
    for q in lists:
        hits = assistant.find(q).hits[:3]
        if len(hits) == 3:
            plan3 = assistant.compare_plan([h.id for h in hits])
            comparisons.append(timed(lambda: assistant.ask(plan3.question, plan=plan3, llm="none"), assistant))
    if comparisons:
        print(f"comparison of 3 (--llm none)  p50 {statistics.median(comparisons):.2f} s, max {max(comparisons):.2f} s")

    if args.local:
        firsts, models = [], []
        for q in ["How does ZeroSiam differ from Test-Time Matching (TTM)?", "Compare PoLR and CRISP",
                  "what is lean4phys", "which papers reduce reasoning token usage"]:
            stream = assistant.stream(q, llm="local")
            for _ in stream:
                pass
            firsts.append(stream.answer.timings["first_token"])
            models.append(stream.answer.timings.get("model_first_token", float("nan")))
        print(f"first piece (local)           p50 {statistics.median(firsts):.2f} s; model's first token p50 "
              f"{statistics.median(models):.2f} s (4 questions, the model loaded by the first)")


if __name__ == "__main__":
    main()
