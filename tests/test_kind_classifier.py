"""The learned reading of a question's kind (``assistant.reading.kinds``): trained on some askers' labelled
questions, it must predict another asker's, with the real encoder; the shipped weights load and read the
encoder's vectors; a damaged weights file is refused with the fix."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from assistant.errors import ConfigError
from assistant.reading.kinds import LEARNED_KINDS, WEIGHTS, KindClassifier

DATA = Path(__file__).parent / "data"


def _labelled(names: list[str]) -> list[tuple[str, str]]:
    rows = []
    for name in names:
        for line in (DATA / f"{name}.jsonl").read_text().splitlines():
            item = json.loads(line) if line.strip() else {}
            if item.get("type") in LEARNED_KINDS and "question" in item:
                rows.append((item["question"], item["type"]))
    return rows


def test_trained_on_some_askers_it_reads_another_askers_questions(embedder):
    train = _labelled([f"check{n}" for n in range(12, 34) if n != 22])
    held_out = _labelled(["check22"])  # another asker; none of its questions is trained on
    trained = {q for q, _ in train}
    held_out = [(q, kind) for q, kind in held_out if q not in trained]
    assert len(held_out) >= 15 and len({kind for _, kind in held_out}) >= 3
    model = KindClassifier.train([q for q, _ in train], [k for _, k in train], embedder, l2=1e-4, form_scale=0.25)
    got = model.predict_questions([q for q, _ in held_out], embedder)
    right = sum(kind == predicted for (_, kind), (predicted, _p) in zip(held_out, got))
    assert right / len(held_out) >= 0.75, list(zip(held_out, got))
    assert all(0.0 < p <= 1.0 for _, p in got)


def test_the_shipped_weights_read_the_encoders_vectors(embedder):
    model = KindClassifier.load()
    assert set(model.kinds) == set(LEARNED_KINDS)
    probs = model.probabilities(embedder.embed(["how does ZeroSiam compare to BlockSpec?"]),
                                ["how does ZeroSiam compare to BlockSpec?"])
    assert probs.shape == (1, len(model.kinds)) and abs(float(probs.sum()) - 1.0) < 1e-6


@pytest.mark.parametrize("content, says", [("{", "cannot be read"), ('{"format": 0}', "not format"),
                                           ('{"format": 1, "kinds": ["list"]}', "lack a field")])
def test_damaged_weights_are_refused_with_the_fix(tmp_path, content, says):
    path = tmp_path / "kinds.json"
    path.write_text(content)
    with pytest.raises(ConfigError) as error:
        KindClassifier.load(path)
    assert says in error.value.message and "train_kinds.py" in error.value.hint


def test_the_weights_file_ships_with_the_package():
    assert WEIGHTS.is_file(), "run `python scripts/train_kinds.py` and commit assistant/reading/kinds.json"


def test_a_question_describing_one_paper_is_read_as_on_a_topic(corpus):
    """The rules read "We present a benchmark of ..." as asking for benchmarks; the kind classifier is sure it asks
    for the paper on that topic, and its reading is the plan's (``Assistant._as_the_kind_model_reads``). A question
    asking for every paper of a kind stays one."""
    question = "We present a benchmark of real-world economically valuable tasks to evaluate AI models."
    plan = corpus.understand(question)
    assert plan.kind == "topic" and plan.source == "rules, kind model" and not plan.contributions
    assert corpus.find(question).hits[0].title.startswith("GDPval")
    for asking in ("which papers introduce a new benchmark?", "list every paper that proposes a dataset"):
        assert corpus.understand(asking).kind == "contribution", asking
