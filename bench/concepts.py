"""Does the assistant say "no paper is on both" when, and only when, no paper is? Measured on pairs of the corpus's
own keywords (``assistant.concepts``):

- ``both``: two keywords that two or more papers carry together ("papers on A for B" has papers on both);
- ``neither``: two keywords of different primary areas that no paper carries together, and that no paper's title
  and abstract both write out (its nearest papers are on one or the other).

Each pair is asked as a list question ("papers on A for B", "A with B", "any work on A in B?"), with the keyword
field left out of the ranking (the gold comes from it). What each cited paper is near is kept, so the two cuts of
``assistant.concepts`` are fitted on the pairs of one half (``--fit``) and reported on the other.

    PYTHONPATH=. .venv/bin/python bench/concepts.py --home STORE [--pairs 120] [--fit]
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
import sys
import time
from collections import Counter
from itertools import combinations
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.corpus_sets import CORPUS, read_corpus  # noqa: E402

FORMS = ("papers on {a} for {b}", "{a} with {b}", "any work on {a} in {b}?")
LOW, HIGH = 10, 300


def pairs(papers: list[dict], n: int, seed: int = 0) -> list[dict]:
    """``n`` pairs of each kind (see the module's doc), each with its question and half."""
    from assistant.concepts import concepts

    carriers: dict[str, set[str]] = {}
    for p in papers:
        for k in dict.fromkeys(p["keywords"]):
            carriers.setdefault(k, set()).add(p["id"])
    usable = {k for k, ids in carriers.items() if LOW <= len(ids) <= HIGH and len(k) >= 3}
    area = {k: Counter(p.get("primary_area") for p in papers if k in p["keywords"]).most_common(1)[0][0]
            for k in usable}
    together = Counter(pair for p in papers
                       for pair in combinations(sorted(k for k in dict.fromkeys(p["keywords"]) if k in usable), 2))
    rng = random.Random(seed)
    both = [pair for pair, count in sorted(together.items()) if count >= 2]
    rng.shuffle(both)
    texts = [f"{p['title']} {p['abstract']}".lower() for p in papers]
    ordered = sorted(usable)
    neither: list[tuple[str, str]] = []
    while len(neither) < 4 * n:
        a, b = rng.sample(ordered, 2)
        if area[a] != area[b] and (min(a, b), max(a, b)) not in together \
                and not any(a in t and b in t for t in texts):
            neither.append((a, b))
    out = []
    for kind, chosen in (("both", both), ("neither", neither)):
        taken = 0
        for a, b in chosen:
            if taken == n:
                break
            if a in b or b in a:
                continue
            query = FORMS[taken % len(FORMS)].format(a=a, b=b)
            if len(concepts(query)) != 2:  # a keyword with a function word inside reads as more than one concept
                continue
            gold = sorted(carriers[a] & carriers[b])
            key = hashlib.sha1(f"{a}|{b}".encode()).digest()[0]
            out.append({"kind": kind, "query": query, "gold": gold, "half": "fit" if key % 2 == 0 else "report"})
            taken += 1
    return out


def ask(home: Path, questions: list[dict]) -> list[dict]:
    """Each question's cited papers, what each is near (``concepts.nearness``), and whether a gold one is cited."""
    from assistant import Assistant, Settings
    from assistant.concepts import concepts, nearness

    assistant = Assistant(Settings.from_env(env={}, home=home, llm="none"))
    searcher = assistant.searcher
    ext = {pid: str(meta.get("ext_id")) for pid, meta, _ in searcher.store.iter_papers()}
    weights = assistant.ranker.weights
    held, weights["keywords"] = weights.get("keywords", 0.0), 0.0
    rows = []
    try:
        for number, q in enumerate(questions, 1):
            searcher.forget_recent()
            start = time.perf_counter()
            found = assistant.find(q["query"], k=None, page_size=None)
            parts = concepts(found.plan.query) if found.plan.kind in ("list", "topic") else []
            near = nearness(searcher, parts, found.hits) if parts else {}
            rows.append({**q, "seconds": time.perf_counter() - start, "plan": f"{found.plan.kind}: {found.plan.query}",
                         "near": [[(c.coverage, c.dense) for c in near[h.id]] for h in found.hits] if parts else [],
                         "gold_cited": any(ext.get(h.id) in set(q["gold"]) for h in found.hits)})
            if number % 20 == 0:
                print(f"  {number}/{len(questions)} asked", file=sys.stderr)
    finally:
        weights["keywords"] = held
    return rows


def says_none(row: dict, coverage: float, dense: float) -> bool:
    return bool(row["near"]) and not any(all(c >= coverage or d >= dense for c, d in hit) for hit in row["near"])


def rates(rows: list[dict], coverage: float, dense: float) -> dict[str, float]:
    both = [r for r in rows if r["kind"] == "both"]
    neither = [r for r in rows if r["kind"] == "neither"]
    return {"false_none": sum(says_none(r, coverage, dense) for r in both) / max(1, len(both)),
            "true_none": sum(says_none(r, coverage, dense) for r in neither) / max(1, len(neither)),
            "both": len(both), "neither": len(neither)}


def fit(rows: list[dict], most_false: float = 0.01) -> tuple[float, float]:
    """The cuts with the most "none" said on ``neither`` pairs, among those saying it on at most ``most_false`` of
    the ``both`` pairs."""
    grid = [(c / 20, d / 100) for c in range(6, 21) for d in range(35, 81, 5)]
    allowed = [g for g in grid if rates(rows, *g)["false_none"] <= most_false] or grid
    return max(allowed, key=lambda g: (rates(rows, *g)["true_none"], -rates(rows, *g)["false_none"]))


def main() -> None:
    from assistant.concepts import ON_COVERAGE, ON_DENSE

    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--home", type=Path, required=True, help="a store holding the whole corpus")
    ap.add_argument("--pairs", type=int, default=120, help="pairs of each kind")
    ap.add_argument("--fit", action="store_true", help="fit the cuts on the fit half as well")
    ap.add_argument("--rows", type=Path, help="keep the answers' nearness in this JSON file, or read it if it exists")
    args = ap.parse_args()
    if args.rows and args.rows.exists():
        rows = json.loads(args.rows.read_text())
    else:
        rows = ask(args.home, pairs(read_corpus(CORPUS), args.pairs))
        if args.rows:
            args.rows.write_text(json.dumps(rows))
    report = [r for r in rows if r["half"] == "report"]
    cuts = {"shipped": (ON_COVERAGE, ON_DENSE)}
    if args.fit:
        cuts["fitted on the fit half"] = fit([r for r in rows if r["half"] == "fit"])
    print(f"{len(rows)} questions; report half: {len(report)}")
    print(f"{'cuts (coverage, dense)':32} {'false none on both':>20} {'none on neither':>16}")
    for name, (coverage, dense) in cuts.items():
        r = rates(report, coverage, dense)
        print(f"{name + f' ({coverage:.2f}, {dense:.2f})':32} {r['false_none']:>13.3f} of {r['both']:<4} "
              f"{r['true_none']:>9.3f} of {r['neither']}")
    both = [r for r in report if r["kind"] == "both"]
    print(f"both pairs whose answer cites a paper carrying both keywords: {sum(r['gold_cited'] for r in both)} "
          f"of {len(both)}")
    seconds = sorted(r["seconds"] for r in rows)
    print(f"seconds per question: p50 {seconds[len(seconds) // 2]:.2f}, p95 {seconds[int(len(seconds) * .95)]:.2f}")


if __name__ == "__main__":
    main()
