"""The list relevance decision (``assistant.retrieval.relevance``): fitted, it learns which signals say a candidate
is on the topic; the shipped weights load and a damaged file is refused with the fix; a list answer says how many
more papers may be on it."""

from __future__ import annotations

import numpy as np
import pytest

from assistant.errors import ConfigError
from assistant.retrieval.relevance import FEATURES, WEIGHTS, RelevanceModel, features


def test_the_fit_learns_which_signals_say_relevant():
    rng = np.random.default_rng(0)
    n = 600
    x = rng.normal(size=(n, len(FEATURES)))
    on_topic = (2.0 * x[:, FEATURES.index("bm25")] + x[:, FEATURES.index("chunk")] + rng.normal(0, 0.5, n)) > 0.5
    groups = np.repeat(np.arange(30), n // 30)
    model = RelevanceModel.fit(x, on_topic.astype(float), groups)
    weights = dict(zip(FEATURES, model.weights))
    assert weights["bm25"] > weights["chunk"] > max(abs(weights[f]) for f in ("gap", "paper", "phrased"))
    probs = model.probabilities(x)
    assert ((probs >= 0.5) == on_topic).mean() > 0.85


def test_the_shipped_weights_load():
    assert WEIGHTS.is_file(), "run `python scripts/fit_relevance.py` and commit assistant/retrieval/relevance.json"
    model = RelevanceModel.load()
    assert model.weights.shape == (len(FEATURES),)
    assert model.probabilities(np.zeros((0, len(FEATURES)))).shape == (0,)


@pytest.mark.parametrize("content, says", [("[", "cannot be read"), ('{"format": 1, "features": ["core"]}', "not format"),
                                           ('{"format": 1, "features": %s}' % list(FEATURES), "lack a field")])
def test_damaged_weights_are_refused_with_the_fix(tmp_path, content, says):
    path = tmp_path / "relevance.json"
    path.write_text(content.replace("'", '"'))
    with pytest.raises(ConfigError) as error:
        RelevanceModel.load(path)
    assert says in error.value.message and "fit_relevance.py" in error.value.hint


def test_a_list_counts_the_papers_it_may_have_left_out(corpus):
    """On the bundled papers: a list answer gives the papers past the list gate, and counts (without listing) the
    candidates the gate left out that the fitted decision gives at least ``MAYBE``; the answer's first line says
    how many, and its JSON holds the count."""
    from assistant.retrieval.relevance import MAYBE, shipped_model
    from assistant.selection import LIST_POOL
    from assistant.search import LIST_DECISION, LIST_GATE

    question = "which papers are on reasoning in language models?"
    found = corpus.find(question)
    assert found.plan.kind == "list" and len(found.hits) >= 3 and found.unsure > 0
    candidates = corpus.searcher.candidates(found.plan.query, pool=LIST_POOL, from_core=LIST_DECISION.from_core)
    passing = {c.id for c in LIST_GATE.passing(candidates)}
    assert {h.id for h in found.hits} <= passing
    probability = dict(zip((c.id for c in candidates), shipped_model().probabilities(features(candidates))))
    unsure = {c.id for c in candidates if c.id not in passing and probability[c.id] >= MAYBE}
    assert found.unsure == len(unsure - {h.id for h in found.hits})
    answer = corpus.ask(question, llm="none")
    assert f"({found.unsure:,} more may be)" in answer.answer.splitlines()[0]
    assert answer.as_dict()["unsure"] == found.unsure
