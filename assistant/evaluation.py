"""`assistant eval`: retrieval, citation and abstention metrics on a labelled question set, per kind.

A question's expected papers are those whose abstract contains one of its ``relevant``
substrings; a question with none expected should be abstained from. Conversations run turn by
turn in one conversation, and each turn is scored on its own. List answers are scored on every
paper they cite, all pages together.
"""

from __future__ import annotations

import re
import time
from collections import defaultdict

_CITE = re.compile(r"\[(\d{1,3})\]")


def evaluate(assistant, items, *, llm: str | None = None, k: int | None = None, answers: bool = True,
             progress=None) -> dict:
    texts = {p.id: p.text for p in assistant.papers()}
    per_question = []
    total = sum(len(item.turns) for item in items)
    done = 0
    for item in items:
        conversation = assistant.conversation() if item.conversation else None
        kind = item.type or ("followup" if item.conversation else "topic")
        for turn_number, turn in enumerate(item.turns, 1):
            per_question.append(_score_turn(assistant, texts, turn, kind, turn_number if item.conversation else None,
                                            conversation, llm=llm, k=k, answers=answers))
            done += 1
            if progress:
                progress(done, total, "questions")
    return {"metrics": metrics(per_question, answers), "by_type": by_type(per_question, answers),
            "questions": per_question}


def _score_turn(assistant, texts, turn, kind, turn_number, conversation, *, llm, k, answers) -> dict:
    question = turn["question"]
    expected = {pid for pid, text in texts.items() if any(s in text for s in turn["relevant"])}
    started = time.perf_counter()
    item = {"question": question, "type": kind, "turn": turn_number, "expected": sorted(expected)}
    if conversation is None:
        item["ranked"] = [c.id for c in assistant.searcher.candidates(question)][:10]
        item["search"] = [h.id for h in assistant.find(question, k=k, page_size=None).hits]
    if answers or conversation is not None:
        answer = assistant.ask(question, llm=llm if answers else "none", k=k, conversation=conversation,
                               page_size=None)
        item["plan"] = answer.plan.as_dict() if answer.plan else None
        item["cited"] = [c.id for c in answer.citations]
        item["model"] = answer.model
        item["complete"] = answer.complete
        item["rewrites"] = dict(answer.rewrites)
        item["dangling"] = sum(1 for n in _CITE.findall(answer.answer) if int(n) not in {c.n for c in answer.citations})
        if kind == "compare":
            item["comparison_quoted"] = _quoted(answer)
    item["seconds"] = time.perf_counter() - started
    return item


def _quoted(answer) -> bool:
    """Whether the answer has a comparison whose approach and result cells are quoted from the cited abstracts."""
    if not answer.comparison or len(answer.comparison) < len(answer.citations):
        return False
    texts = {c.n: c.text for c in answer.citations}
    return all(row[column] in texts.get(row["n"], "") for row in answer.comparison for column in ("approach", "result")
               if row[column] != "not stated") and all(row["approach"] != "not stated" for row in answer.comparison)


def metrics(items: list[dict], answers: bool) -> dict:
    single = [i for i in items if "ranked" in i]
    answerable = [i for i in single if i["expected"]]
    unanswerable = [i for i in single if not i["expected"]]
    out: dict = {"questions": len(items)}
    if single:
        out["recall@5"] = _mean([len(set(i["ranked"][:5]) & set(i["expected"])) / len(i["expected"]) for i in answerable])
        out["mrr@10"] = _mean([next((1 / r for r, pid in enumerate(i["ranked"][:10], 1) if pid in i["expected"]), 0.0)
                               for i in answerable])
        out["search_precision"] = _mean([_precision(i["search"], i["expected"]) for i in answerable])
        out["search_recall"] = _mean([_recall(i["search"], i["expected"]) for i in answerable])
        out["search_abstention"] = _mean([1.0 if not i["search"] else 0.0 for i in unanswerable])
    if answers:
        out.update(_citation_metrics(items))
        kept = sum(i["rewrites"]["kept"] for i in items)
        rejected = sum(i["rewrites"]["rejected"] for i in items)
        if kept + rejected:
            out["rewrites_kept"] = kept / (kept + rejected)
        out["model"] = ", ".join(sorted({i["model"] for i in items if i.get("cited")})) or "none"
    out["seconds_per_question"] = _mean([i["seconds"] for i in items])
    return out


def _citation_metrics(items: list[dict]) -> dict:
    answerable = [i for i in items if i["expected"]]
    unanswerable = [i for i in items if not i["expected"]]
    precision = _mean([_precision(i["cited"], i["expected"]) for i in answerable])
    recall = _mean([_recall(i["cited"], i["expected"]) for i in answerable])
    f1 = 2 * precision * recall / (precision + recall) if precision + recall else 0.0
    out = {"citation_precision": precision if answerable else None, "citation_recall": recall if answerable else None,
           "citation_f1": f1 if answerable else None,
           "abstention": _mean([1.0 if not i["cited"] else 0.0 for i in unanswerable]) if unanswerable else None,
           "dangling_citations": sum(i.get("dangling", 0) for i in items)}
    return out


def by_type(items: list[dict], answers: bool) -> list[dict]:
    """One row per kind of question, and for conversations one per turn ("followup turn 2")."""
    if not answers:
        return []
    groups: dict[str, list[dict]] = defaultdict(list)
    for item in items:
        groups[item["type"]].append(item)
        if item["turn"] is not None:
            groups[f"{item['type']} turn {item['turn'] if item['turn'] < 3 else '3+'}"].append(item)
    rows = []
    for name in sorted(groups, key=lambda g: (g.split(" turn")[0], g)):
        group = groups[name]
        row = {"type": name, "questions": len(group), **_citation_metrics(group),
               "seconds_per_question": _mean([i["seconds"] for i in group])}
        compared = [i["comparison_quoted"] for i in group if "comparison_quoted" in i]
        if compared:
            row["comparison_quoted"] = _mean([1.0 if q else 0.0 for q in compared])
        rows.append(row)
    return rows


def _precision(got: list[str], expected: set[str] | list[str]) -> float:
    return len(set(got) & set(expected)) / len(got) if got else 0.0


def _recall(got: list[str], expected: set[str] | list[str]) -> float:
    return len(set(got) & set(expected)) / len(expected) if expected else 0.0


def _mean(values: list[float]) -> float:
    return sum(values) / len(values) if values else 0.0
