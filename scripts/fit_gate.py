"""Fit the list gate on half of the labelled questions and report it on the other half, both ways round.

    ASSISTANT_HOME=STORE .venv/bin/python scripts/fit_gate.py ../shared/eval/dev.jsonl ../shared/eval/dev2.jsonl

The store must hold the abstracts the question sets were labelled on (``assistant ingest``). Uses every
question the rules plan as a list (single questions and the first turns of conversations, whatever their
``type``) and the ``unanswerable`` ones (a list gate must also abstain), searched with the plan's query,
split into two folds by alternating lines. Each question's candidates are read as the list gate reads them (its
unknown words too: ``Gate.unheard``). For each fold it picks the (floor, ratio, abstain) of the grid with the
best mean F1 on that fold, and prints that choice's precision, recall and F1 on both folds; then the
figures of the gate the code ships (``search.LIST_GATE``) on each fold.
"""

from __future__ import annotations

import itertools
import sys
from pathlib import Path

from assistant import Assistant, Settings
from assistant.batch import read_eval_set
from assistant.search import LIST_GATE, Gate
from assistant.reading.query_focus import focus

FLOORS = [x / 100 for x in range(40, 66, 2)]
RATIOS = [x / 100 for x in range(50, 96, 5)]
ABSTAINS = [x / 100 for x in range(40, 60, 2)]
COVERAGES = [0.0, 0.4, 0.5, 0.6, 0.7]
CLOSES = [0.9, 0.95, 1.0]


def score(questions: list[dict], *gate: float) -> tuple[float, float, float]:
    f1s, ps, rs = [], [], []
    for q in questions:
        got = Gate(*gate, unheard=LIST_GATE.unheard).passing(q["cands"])
        hits = sum(c.id in q["gold"] for c in got)
        if not q["expected"]:
            f1s.append(1.0 if not got else 0.0)
            continue
        p, r = (hits / len(got) if got else 0.0), hits / q["expected"]
        ps.append(p)
        rs.append(r)
        f1s.append(2 * p * r / (p + r) if p + r else 0.0)
    mean = lambda xs: sum(xs) / len(xs) if xs else 0.0  # noqa: E731
    return mean(f1s), mean(ps), mean(rs)


def main(paths: list[str]) -> None:
    assistant = Assistant(Settings.from_env(llm="none"))
    texts = {p.id: p.text for p in assistant.papers()}
    questions = []
    for path in paths:
        for item in read_eval_set(Path(path)):
            turn = item.turns[0]
            plan = assistant.plan(turn["question"])
            if plan.kind != "list" and item.type != "unanswerable":
                continue
            gold = {pid for pid, text in texts.items() if any(s in text for s in turn["relevant"])}
            cands = assistant.searcher.candidates(plan.query or focus(turn["question"]), pool=400)
            questions.append({"question": turn["question"], "expected": len(gold), "gold": gold, "cands": cands})
    folds = [questions[0::2], questions[1::2]]
    grid = [g for g in itertools.product(FLOORS, RATIOS, ABSTAINS, COVERAGES, CLOSES) if g[3] or g[4] == 1.0]
    print(f"{len(questions)} questions (planned as lists, and unanswerable), folds of {len(folds[0])} and {len(folds[1])}")
    print("| fitted on | floor, ratio, abstain, coverage, close | F1 / P / R on the fitted fold | F1 / P / R on the held-out fold |")
    print("|---|---|---|---|")
    for i in (0, 1):
        best = max(grid, key=lambda g: (round(score(folds[i], *g)[0], 4), -g[1]))
        fit, held = score(folds[i], *best), score(folds[1 - i], *best)
        print(f"| fold {i + 1} | {', '.join(f'{x:.2f}' for x in best)} | "
              f"{fit[0]:.3f} / {fit[1]:.3f} / {fit[2]:.3f} | {held[0]:.3f} / {held[1]:.3f} / {held[2]:.3f} |")
    shipped = (LIST_GATE.floor, LIST_GATE.ratio, LIST_GATE.abstain, LIST_GATE.coverage, LIST_GATE.close)
    for i in (0, 1):
        f = score(folds[i], *shipped)
        print(f"shipped gate {shipped} on fold {i + 1}: F1 {f[0]:.3f}, P {f[1]:.3f}, R {f[2]:.3f}")


if __name__ == "__main__":
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    main(sys.argv[1:])
