"""Fit the list relevance decision (``assistant.retrieval.relevance``), score it leave-one-set-out, check it on the
real corpus, and write its weights.

    python scripts/fit_relevance.py [--home STORE [--every 1] [--n 400]] [--no-write]

The fit: every list question of the labelled sets (``tests/data/check*.jsonl``, ``../shared/eval/dev2.jsonl``),
on a store of the 49 bundled papers made in a temp folder, where each set judged every paper. Its candidates are
what a list question's search gives (``HybridSearcher.candidates``, ``FROM_CORE`` papers from the ranking core);
a candidate is right when it is one of the set's relevant papers. Leave-one-set-out (each set came from another
asker): for each cut the mean precision and recall over the held-out sets, and the worst set, beside today's
list gate (``search.LIST_GATE``) on the same candidates.

With ``--home``: the weights fitted on every set, scored at the scale of STORE (a store of the corpus slice, see
bench/retrieval.py) on "papers on <keyword>" for keywords carried by 10-300 papers, the keyword field withheld from
the ranking, gold the papers carrying the keyword; beside the list gate and fixed cuts of the ranking core. Many
papers on a topic do not carry its keyword, so that precision is a lower bound.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

KEEPS = (0.2, 0.25, 0.3, 0.4, 0.5, 0.6)
SETS = sorted((ROOT / "tests" / "data").glob("check*.jsonl")) + [ROOT.parent / "shared" / "eval" / "dev2.jsonl"]


def judged_lists(home: Path) -> list[dict]:
    """Every list question of ``SETS`` with its candidates on the bundled papers, and the ids it judged right."""
    from assistant import Assistant, Settings
    from assistant.retrieval.relevance import FROM_CORE
    from assistant.selection import LIST_POOL

    assistant = Assistant(Settings.from_env(env={}, home=home, llm="none"))
    assistant.ingest()
    papers = assistant.papers()
    rows = []
    for path in (p for p in SETS if p.is_file()):
        for line in path.read_text().splitlines():
            item = json.loads(line) if line.strip() else {}
            if item.get("type") != "list":
                continue
            gold = {p.id for p in papers if any(s in p.text for s in item["relevant"])}
            if gold:
                plan = assistant.plan(item["question"])
                candidates = assistant.searcher.candidates(plan.query, pool=LIST_POOL, from_core=FROM_CORE)
                rows.append({"set": path.stem, "gold": gold, "candidates": candidates})
    return rows


def precision_recall(rows: list[dict], answer) -> tuple[float, float]:
    p, r = [], []
    for row in rows:
        got = set(answer(row))
        hit = len(got & row["gold"])
        p.append(hit / len(got) if got else 0.0)
        r.append(hit / len(row["gold"]))
    return statistics.mean(p), statistics.mean(r)


def fitted(rows: list[dict]):
    from assistant.retrieval.relevance import RelevanceModel, features

    x = np.vstack([features(r["candidates"]) for r in rows])
    y = np.concatenate([[float(c.id in r["gold"]) for c in r["candidates"]] for r in rows])
    groups = np.concatenate([[i] * len(r["candidates"]) for i, r in enumerate(rows)])
    return RelevanceModel.fit(x, y, groups)


def kept_by(model, keep: float):
    from assistant.retrieval.relevance import features

    def answer(row):
        cands = row["candidates"]
        return [c.id for c, p in zip(cands, model.probabilities(features(cands))) if p >= keep or c.named or c.coined]
    return answer


def leave_one_set_out(rows: list[dict]) -> None:
    from assistant.search import LIST_GATE

    names = sorted({r["set"] for r in rows})
    models = {name: fitted([r for r in rows if r["set"] != name]) for name in names}

    def report(label, answer_for):
        per = {name: precision_recall([r for r in rows if r["set"] == name], answer_for(name)) for name in names}
        f1 = {n: 2 * p * r / (p + r) if p + r else 0.0 for n, (p, r) in per.items()}
        worst = min(f1, key=f1.get)
        print(f"  {label:<22} P {statistics.mean(p for p, _ in per.values()):.3f}  "
              f"R {statistics.mean(r for _, r in per.values()):.3f}   worst {worst}: "
              f"P {per[worst][0]:.3f} R {per[worst][1]:.3f}")

    print(f"{len(rows)} list questions of {len(names)} sets, 49 papers; mean over held-out sets")
    report("list gate (today)", lambda name: lambda row: [c.id for c in LIST_GATE.passing(row["candidates"])])
    for keep in KEEPS:
        report(f"relevance >= {keep}", lambda name, keep=keep: kept_by(models[name], keep))


def at_scale(model, home: Path, every: int, n: int) -> None:
    from bench.corpus_sets import CORPUS, keyword_set, read_corpus
    from bench.retrieval import Bench
    from assistant.retrieval.relevance import FROM_CORE
    from assistant.search import LIST_GATE
    from assistant.selection import LIST_POOL

    papers = read_corpus(CORPUS, every=every)
    bench = Bench(home, papers)
    searcher = bench.assistant.searcher
    searcher.ranker.weights["keywords"] = 0.0  # the gold is the keyword field
    rows = []
    for q in keyword_set(papers, n):
        candidates = searcher.candidates(q["query"], pool=LIST_POOL, from_core=FROM_CORE)
        for c in candidates:
            c.id = bench.to_ext.get(c.id, c.id)
        rows.append({"gold": set(q["gold"]), "candidates": candidates})
    print(f"\n{len(papers):,} papers, {len(rows)} 'papers on <keyword>' questions (the keyword field withheld)")
    systems = {"list gate (today)": lambda row: [c.id for c in LIST_GATE.passing(row["candidates"])]}
    for cut in (50, 200):
        systems[f"core@{cut}"] = lambda row, cut=cut: [c.id for c in row["candidates"][:cut]]
    systems.update({f"relevance >= {keep}": kept_by(model, keep) for keep in KEEPS})
    for name, answer in systems.items():
        p, r = precision_recall(rows, answer)
        size = statistics.median(len(answer(row)) for row in rows)
        print(f"  {name:<22} P {p:.3f}  R {r:.3f}  papers (median) {size:.0f}")


def main(argv: list[str] | None = None) -> None:
    from assistant.retrieval.relevance import FEATURES, MAYBE

    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--home", type=Path, help="a store of the corpus slice, to check the weights at its scale")
    parser.add_argument("--every", type=int, default=1)
    parser.add_argument("--n", type=int, default=400, help="keyword questions at scale")
    parser.add_argument("--no-write", action="store_true")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="fit-relevance-") as tmp:
        rows = judged_lists(Path(tmp))
        leave_one_set_out(rows)
        model = fitted(rows)
    print("\nfitted on every set: " + ", ".join(f"{f} {w:+.2f}" for f, w in zip(FEATURES, model.weights))
          + f", bias {model.bias:+.2f}")
    if args.home:
        at_scale(model, args.home, args.every, args.n)
    if not args.no_write:
        model.save(fitted_on=f"{len(rows)} list questions of {len({r['set'] for r in rows})} labelled sets, "
                             "49 bundled papers", maybe=MAYBE)
        print("\nwrote assistant/retrieval/relevance.json")


if __name__ == "__main__":
    main()
