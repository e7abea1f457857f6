"""Train the question-kind classifier (``assistant.reading.kinds``), score it leave-one-set-out, ship its weights.

    PYTHONPATH=. .venv/bin/python scripts/train_kinds.py [--no-rules] [--no-write]

Reads every labelled question set: ``tests/data/check*.jsonl``, ``tests/data/dev.jsonl`` and, when the
shared folder sits beside the repository, ``../shared/eval/*.jsonl`` (a file identical to one already read
is read once). A line's ``type`` is its kind; a line with none is a topic question (the dev sets). Left out:
``unanswerable`` (nothing in the store answers it, whatever its form: a property of the store, not of the
question) and ``followup`` conversations (their later turns lean on the last answer, which the
conversation's structure rules detect; their first turns carry no label).

Each set came from a different asker, so the figures that say how the model generalises are leave-one-set-out:
train on every other set (dropping questions that also appear, word for word, in the held-out one), predict the
held-out set. For a small grid of settings it prints the mean and worst held-out macro-F1, then for the best
setting each set's accuracy and macro-F1 (over the kinds the set is labelled with), the confusion matrix and
the calibration of the held-out probabilities (Brier score, expected calibration error, reliability by bins),
before and after a temperature fitted on them. Beside it, unless ``--no-rules``: the kind today's rules give
(``Assistant.plan(question).kind`` on a store of the bundled papers, built in a temp folder). The rules were
tuned on these same sets, so their figure is optimistic. Finally it trains on every set and writes
``assistant/reading/kinds.json`` (unless ``--no-write``).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import sys
import tempfile
import time
from pathlib import Path

# the fits are small (hundreds of questions, 384 numbers each): one BLAS thread is faster on a shared machine
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
os.environ.setdefault("OMP_NUM_THREADS", "1")

import numpy as np  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from assistant.reading.kinds import LEARNED_KINDS, WEIGHTS, KindClassifier  # noqa: E402

SHARED_EVAL = ROOT.parent / "shared" / "eval"
L2S = (1e-5, 3e-5, 1e-4, 3e-4)
FORM_SCALES = (0.0, 0.25, 1.0)
BINS = 10


def set_files() -> list[Path]:
    data = ROOT / "tests" / "data"
    files = sorted(data.glob("check*.jsonl"), key=lambda p: (len(p.stem), p.stem)) + [data / "dev.jsonl"]
    if SHARED_EVAL.is_dir():
        files += sorted(SHARED_EVAL.glob("*.jsonl"))
    else:
        print(f"note: {SHARED_EVAL} is missing; training on tests/data only")
    return files


def read_sets() -> tuple[list[dict], dict[str, int]]:
    """One row per labelled question: set, question, kind. Also how many lines were left out, by type."""
    rows, left_out, seen = [], {}, {}
    for path in set_files():
        digest = hashlib.sha256(path.read_bytes()).hexdigest()
        if digest in seen:
            print(f"note: {path} is identical to {seen[digest]}; read once")
            continue
        seen[digest] = path
        name = path.stem if path.parent.name == "data" else f"shared/{path.stem}"
        for number, line in enumerate(path.read_text().splitlines(), 1):
            if not line.strip():
                continue
            item = json.loads(line)
            kind = item.get("type", "topic")
            if kind in ("unanswerable", "followup") or "question" not in item:
                left_out[kind] = left_out.get(kind, 0) + 1
                continue
            rows.append({"set": name, "question": item["question"], "kind": kind})
    return rows, left_out


# -- figures -----------------------------------------------------------------------
def macro_f1(gold: list[str], got: list[str]) -> float:
    """Mean F1 over the kinds the questions are labelled with; a wrong prediction costs the labelled kind its
    recall, and the predicted kind its precision when the set has that kind. (Averaging over the predicted kinds
    too would score a set of topic questions only, 25 of 27 right, 0.32: the mean of .96 and two zeros.)"""
    f1s = []
    for kind in sorted(set(gold)):
        tp = sum(g == kind == p for g, p in zip(gold, got))
        fp = sum(p == kind != g for g, p in zip(gold, got))
        fn = sum(g == kind != p for g, p in zip(gold, got))
        f1s.append(2 * tp / (2 * tp + fp + fn) if tp else 0.0)
    return float(np.mean(f1s))


def accuracy(gold: list[str], got: list[str]) -> float:
    return float(np.mean([g == p for g, p in zip(gold, got)]))


def per_set(rows: list[dict], got: list[str]) -> dict[str, tuple[float, float, int]]:
    out = {}
    for name in dict.fromkeys(r["set"] for r in rows):
        idx = [i for i, r in enumerate(rows) if r["set"] == name]
        gold, pred = [rows[i]["kind"] for i in idx], [got[i] for i in idx]
        out[name] = (accuracy(gold, pred), macro_f1(gold, pred), len(idx))
    return out


def calibration(probs: np.ndarray, gold: np.ndarray) -> tuple[float, float, list[tuple[float, float, float, int]]]:
    """Brier score (mean over questions of the squared error summed over kinds), expected calibration error of
    the top probability (|confidence - accuracy| weighted by bin size), and the bins (low, confidence, accuracy, n)."""
    onehot = np.eye(probs.shape[1])[gold]
    brier = float(((probs - onehot) ** 2).sum(axis=1).mean())
    top, right = probs.max(axis=1), probs.argmax(axis=1) == gold
    bins, ece = [], 0.0
    for b in range(BINS):
        low, high = b / BINS, (b + 1) / BINS
        inside = (top >= low) & ((top < high) | (b == BINS - 1))
        if inside.any():
            conf, acc = float(top[inside].mean()), float(right[inside].mean())
            ece += inside.mean() * abs(conf - acc)
            bins.append((low, conf, acc, int(inside.sum())))
    return brier, float(ece), bins


def fit_temperature(scores: np.ndarray, gold: np.ndarray) -> float:
    """The temperature that minimises the held-out negative log-likelihood (one number: it keeps every ranking)."""
    from scipy.optimize import minimize_scalar

    def nll(log_t):
        s = scores / np.exp(log_t)
        s = s - s.max(axis=1, keepdims=True)
        return float(-(s[np.arange(len(gold)), gold] - np.log(np.exp(s).sum(axis=1))).mean())

    return float(np.exp(minimize_scalar(nll, bounds=(-3, 3), method="bounded").x))


# -- leave one set out ---------------------------------------------------------------
def leave_one_set_out(rows, vectors, **settings) -> tuple[list[str], np.ndarray]:
    """Each question's held-out prediction and scores (before softmax, columns in LEARNED_KINDS order)."""
    questions = [r["question"] for r in rows]
    scores = np.zeros((len(rows), len(LEARNED_KINDS)))
    for name in dict.fromkeys(r["set"] for r in rows):
        held = [i for i, r in enumerate(rows) if r["set"] == name]
        asked = {questions[i].strip().lower() for i in held}
        train = [i for i, r in enumerate(rows) if r["set"] != name and questions[i].strip().lower() not in asked]
        model = KindClassifier.train([questions[i] for i in train], [rows[i]["kind"] for i in train],
                                     vectors=vectors[train], **settings)
        x = model.inputs(vectors[held], [questions[i] for i in held])
        raw = x @ model.weights + model.bias
        for col, kind in enumerate(model.kinds):  # a kind missing from the training folds scores -inf
            scores[held, LEARNED_KINDS.index(kind)] = raw[:, col]
        for kind in set(LEARNED_KINDS) - set(model.kinds):
            scores[held, LEARNED_KINDS.index(kind)] = -np.inf
    return [LEARNED_KINDS[i] for i in scores.argmax(axis=1)], scores


def softmax(scores: np.ndarray) -> np.ndarray:
    s = scores - scores.max(axis=1, keepdims=True)
    return np.exp(s) / np.exp(s).sum(axis=1, keepdims=True)


def rules_kinds(rows) -> list[str]:
    """The kind today's rules plan for each question, on a fresh store of the bundled papers."""
    from assistant import Assistant, Settings

    with tempfile.TemporaryDirectory(prefix="train-kinds-") as home:
        assistant = Assistant(Settings.from_env(env={}, home=Path(home), llm="none"))
        assistant.ingest()
        return [assistant.plan(r["question"]).kind for r in rows]


def print_table(rows, columns: dict[str, list[str]]) -> None:
    tables = {label: per_set(rows, got) for label, got in columns.items()}
    names = list(next(iter(tables.values())))
    head = "".join(f" | {label:^13}" for label in columns)
    print(f"{'held-out set':<16}{'n':>4}{head}\n{'':<20}" + " | acc    macF1" * len(columns))
    for name in names:
        n = tables[next(iter(tables))][name][2]
        print(f"{name:<16}{n:>4}" + "".join(f" | {t[name][0]:.3f}  {t[name][1]:.3f}" for t in tables.values()))
    for label, pick in (("mean", np.mean), ("worst", np.min)):
        print(f"{label:<20}" + "".join(f" | {pick([v[0] for v in t.values()]):.3f}  {pick([v[1] for v in t.values()]):.3f}"
                                      for t in tables.values()))
    worst = [min(t, key=lambda k: t[k][1]) for t in tables.values()]
    print(f"{'worst set (F1)':<20}" + "".join(f" | {w:^13}" for w in worst))
    print(f"{'pooled':<20}" + "".join(
        f" | {accuracy([r['kind'] for r in rows], got):.3f}  {macro_f1([r['kind'] for r in rows], got):.3f}"
        for got in columns.values()))


def print_confusion(rows, got: list[str], title: str) -> None:
    predicted = list(LEARNED_KINDS) + sorted(set(got) - set(LEARNED_KINDS))
    print(f"\nconfusion, {title} (rows: labelled kind, columns: predicted)")
    print(f"{'':<14}" + "".join(f"{k[:12]:>13}" for k in predicted))
    for kind in LEARNED_KINDS:
        print(f"{kind:<14}" + "".join(
            f"{sum(r['kind'] == kind and g == p for r, g in zip(rows, got)):>13}" for p in predicted))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--no-rules", action="store_true", help="skip the rules' baseline (it builds a store)")
    parser.add_argument("--no-write", action="store_true", help=f"do not write {WEIGHTS.relative_to(ROOT)}")
    args = parser.parse_args()

    from assistant import Settings
    from assistant.embedding import Embedder

    rows, left_out = read_sets()
    sets = list(dict.fromkeys(r["set"] for r in rows))
    counts = {k: sum(r["kind"] == k for r in rows) for k in LEARNED_KINDS}
    print(f"{len(rows)} labelled questions from {len(sets)} sets: {counts}; left out: {left_out}")
    embedder = Embedder(backend=Settings.from_env(env={}).embed_backend)
    started = time.perf_counter()
    vectors = np.asarray(embedder.embed([r["question"] for r in rows]), dtype=np.float64)
    print(f"embedded with {embedder.name} ({embedder.backend}) in {time.perf_counter() - started:.1f}s")
    gold = np.array([LEARNED_KINDS.index(r["kind"]) for r in rows])

    print("\nleave-one-set-out grid (macro-F1 over held-out sets: mean / worst; pooled accuracy)")
    results = {}
    for form_scale in FORM_SCALES:
        for l2 in L2S:
            for balanced in (True, False):
                got, scores = leave_one_set_out(rows, vectors, l2=l2, form_scale=form_scale, balanced=balanced)
                table = per_set(rows, got)
                f1s = [v[1] for v in table.values()]
                results[(form_scale, l2, balanced)] = (float(np.mean(f1s)), float(np.min(f1s)), got, scores)
                print(f"  form_scale {form_scale:<5} l2 {l2:<7g} balanced {balanced!s:<5}  "
                      f"{np.mean(f1s):.3f} / {np.min(f1s):.3f}   acc {accuracy([r['kind'] for r in rows], got):.3f}")
    best = max(results, key=lambda key: results[key][0] + results[key][1])  # mean and worst alike
    form_scale, l2, balanced = best
    _, _, got, scores = results[best]
    embedding_only = max((key for key in results if key[0] == 0.0), key=lambda key: results[key][0] + results[key][1])
    print(f"chosen (best mean + worst macro-F1): form_scale {form_scale}, l2 {l2:g}, balanced {balanced}; "
          f"embedding only at its best ({embedding_only}): {results[embedding_only][0]:.3f} / {results[embedding_only][1]:.3f}")

    columns = {"classifier": got, "embed only": results[embedding_only][2]}
    if not args.no_rules:
        started = time.perf_counter()
        columns["rules (tuned)"] = rules_kinds(rows)
        print(f"rules planned {len(rows)} questions in {time.perf_counter() - started:.1f}s (with the store's ingest)")
    print("\nper held-out set (the rules were tuned on these very sets: their figure is optimistic)")
    print_table(rows, columns)
    print_confusion(rows, got, "classifier, held out")
    if "rules (tuned)" in columns:
        print_confusion(rows, columns["rules (tuned)"], "rules")

    temperature = fit_temperature(scores, gold)
    print(f"\ncalibration of the held-out probabilities (temperature fitted on them: {temperature:.3f})")
    for label, t in (("T=1", 1.0), (f"T={temperature:.2f}", temperature)):
        brier, ece, bins = calibration(softmax(scores / t), gold)
        print(f"  {label:<7} Brier {brier:.3f}  ECE {ece:.3f}   bins (confidence -> accuracy, n): " +
              ", ".join(f"{conf:.2f}->{acc:.2f} ({n})" for _, conf, acc, n in bins))
    top, right = softmax(scores / temperature).max(axis=1), np.array(got) == np.array([r["kind"] for r in rows])
    for floor in (0.5, 0.7, 0.9):
        sure = top >= floor
        print(f"  p >= {floor}: {sure.mean():.1%} of questions, accuracy {right[sure].mean():.3f} "
              f"(the rest: {right[~sure].mean() if (~sure).any() else float('nan'):.3f})")

    if args.no_write:
        return
    model = KindClassifier.train([r["question"] for r in rows], [r["kind"] for r in rows], embedder, vectors=vectors,
                                 l2=l2, form_scale=form_scale, balanced=balanced, temperature=temperature)
    table = per_set(rows, got)
    model.save(WEIGHTS, trained_on=f"{len(rows)} questions of {len(sets)} sets: {', '.join(sets)}",
               settings={"l2": l2, "balanced": balanced},
               held_out_macro_f1={"mean": round(float(np.mean([v[1] for v in table.values()])), 3),
                                  "worst": round(float(np.min([v[1] for v in table.values()])), 3)})
    print(f"\nwrote {WEIGHTS.relative_to(ROOT)} ({WEIGHTS.stat().st_size // 1024} KB)")


if __name__ == "__main__":
    main()
