"""`assistant eval`: retrieval, citation and abstention metrics on a labelled question set.

A question's expected papers are those whose abstract contains one of its ``relevant``
substrings; a question with none expected should be abstained from.
"""

from __future__ import annotations

import time


def evaluate(assistant, rows: list[dict], *, llm: str | None = None, k: int | None = None, answers: bool = True,
             progress=None) -> dict:
    texts = {p.id: p.text for p in assistant.papers()}
    per_question = []
    for number, row in enumerate(rows, 1):
        expected = {pid for pid, text in texts.items() if any(s in text for s in row["relevant"])}
        started = time.perf_counter()
        ranked = [c.id for c in assistant.searcher.candidates(row["question"])][:10]
        gated = [h.id for h in assistant.search(row["question"], k=k)]
        item = {"question": row["question"], "expected": sorted(expected), "ranked": ranked, "search": gated}
        if answers:
            answer = assistant.ask(row["question"], llm=llm, k=k)
            item["cited"] = [c.id for c in answer.citations]
            item["model"] = answer.model
            item["complete"] = answer.complete
            item["rewrites"] = dict(answer.rewrites)
        item["seconds"] = time.perf_counter() - started
        per_question.append(item)
        if progress:
            progress(number, len(rows), "questions")
    return {"metrics": metrics(per_question, answers), "questions": per_question}


def metrics(items: list[dict], answers: bool) -> dict:
    answerable = [i for i in items if i["expected"]]
    unanswerable = [i for i in items if not i["expected"]]
    out: dict = {"questions": len(items)}
    out["recall@5"] = _mean([len(set(i["ranked"][:5]) & set(i["expected"])) / len(i["expected"]) for i in answerable])
    out["mrr@10"] = _mean([next((1 / r for r, pid in enumerate(i["ranked"][:10], 1) if pid in i["expected"]), 0.0)
                           for i in answerable])
    out["search_precision"] = _mean([_precision(i["search"], i["expected"]) for i in answerable])
    out["search_recall"] = _mean([len(set(i["search"]) & set(i["expected"])) / len(i["expected"]) for i in answerable])
    out["search_abstention"] = _mean([1.0 if not i["search"] else 0.0 for i in unanswerable])
    if answers:
        precision = _mean([_precision(i["cited"], i["expected"]) for i in answerable])
        recall = _mean([len(set(i["cited"]) & set(i["expected"])) / len(i["expected"]) for i in answerable])
        out["citation_precision"] = precision
        out["citation_recall"] = recall
        out["citation_f1"] = 2 * precision * recall / (precision + recall) if precision + recall else 0.0
        out["abstention"] = _mean([1.0 if not i["cited"] else 0.0 for i in unanswerable])
        kept = sum(i["rewrites"]["kept"] for i in items)
        rejected = sum(i["rewrites"]["rejected"] for i in items)
        if kept + rejected:
            out["rewrites_kept"] = kept / (kept + rejected)
        out["model"] = ", ".join(sorted({i["model"] for i in items if i.get("cited")})) or "none"
    out["seconds_per_question"] = _mean([i["seconds"] for i in items])
    return out


def _precision(got: list[str], expected: set[str] | list[str]) -> float:
    return len(set(got) & set(expected)) / len(got) if got else 0.0


def _mean(values: list[float]) -> float:
    return sum(values) / len(values) if values else 0.0
