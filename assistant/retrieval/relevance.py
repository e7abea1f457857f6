"""Whether a candidate paper belongs in a list: a logistic model over signals that mean the same at 49 papers and
at 20,000, fitted on data rather than written.

The signals of a candidate (``FEATURES``), all read off ``search.Candidate``:

- ``core``: the ranking core's fused score (``retrieval.ranking``), and ``gap``: how far under the best
  candidate's it is;
- ``chunk``: cosine of the query to the paper's best chunk; ``paper``: to its mean chunk vector;
- ``bm25``: BM25 over title and abstract, over the best paper's; ``coverage``: the share of the query's terms it
  holds (idf-weighted); ``phrased``: whether it holds each run of the query's topic words as a phrase.

No rank, and no count of papers: a rank means one thing in 49 papers and another in 20,000.

``scripts/fit_relevance.py`` fits the weights on the list questions of the labelled sets (``tests/data``, the shared
eval sets), whose every paper of the 49 bundled ones is judged, scores them leave-one-set-out (each set came from
another asker), and checks them on the real corpus: "papers on <keyword>" questions at 19,622 papers, the keyword
field withheld from the ranking, gold the papers carrying the keyword (``bench/corpus_sets.py``).

Measured as a list's cut, it lost to the list gate (``search.LIST_GATE``) in whole answers on the labelled sets
(docs/retrieval.md), so the gate cuts, and of the papers it leaves out those this model gives at least ``MAYBE``
are counted as "may be on it" (``search.RelevanceGate``).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Sequence

import numpy as np

from ..errors import ConfigError
from ..logistic import fit_softmax, read_weights

FEATURES = ("core", "gap", "chunk", "paper", "bm25", "coverage", "phrased")
WEIGHTS = Path(__file__).with_name("relevance.json")
FORMAT = 1  # bump when FEATURES or the file's layout change: old weights are then refused
MAYBE = 0.25  # as a cut, leave-one-set-out at 49 papers: P .772 R .819 at 0.2, .807 / .757 at 0.3 (docs/retrieval.md)
FROM_CORE = 300  # papers the ranking core adds to a list's candidates: the chunks alone miss many of a large list


def features(candidates: Sequence) -> np.ndarray:
    """(candidates, FEATURES) for one query's candidates (``search.Candidate``)."""
    if not candidates:
        return np.zeros((0, len(FEATURES)))
    best = max(c.core for c in candidates)
    return np.array([[c.core, c.core - best, c.dense, c.paper_dense, c.bm25_share, c.lexical, float(c.phrased)]
                     for c in candidates], dtype=np.float64)


@dataclass
class RelevanceModel:
    weights: np.ndarray  # (FEATURES,)
    bias: float
    about: dict | None = None

    def probabilities(self, x: np.ndarray) -> np.ndarray:
        """The probability that each row's paper is on the query's topic."""
        if x.shape[0] == 0:
            return np.zeros(0)
        return 1.0 / (1.0 + np.exp(-(x @ self.weights + self.bias)))

    # -- fitting and the shipped file -------------------------------------------------
    @classmethod
    def fit(cls, x: np.ndarray, labels: np.ndarray, groups: np.ndarray, *, l2: float = 1e-3) -> "RelevanceModel":
        """Fit to ``labels`` (1: the paper is on the query), each query (``groups``) weighing the same whatever
        its number of candidates."""
        x, y = np.asarray(x, dtype=np.float64), np.asarray(labels).astype(int)
        _, inverse, counts = np.unique(groups, return_inverse=True, return_counts=True)
        sample = 1.0 / counts[inverse]
        # two classes: the weights are the difference of their columns, whose L2 is half of each column's
        w, b = fit_softmax(x, y, 2, sample / sample.sum(), l2=2 * l2)
        return cls(w[:, 1] - w[:, 0], float(b[1] - b[0]))

    def save(self, path: Path | str = WEIGHTS, **about) -> None:
        data = {"format": FORMAT, "features": list(FEATURES), "bias": float(f"{self.bias:.5g}"),
                "weights": [float(f"{v:.5g}") for v in self.weights], "about": about}
        Path(path).write_text(json.dumps(data, indent=1) + "\n")

    @classmethod
    def load(cls, path: Path | str = WEIGHTS) -> "RelevanceModel":
        path = Path(path)
        hint = "Reinstall the package, or refit the weights with `python scripts/fit_relevance.py`."
        data = read_weights(path, "relevance", hint)
        if data.get("format") != FORMAT or data.get("features") != list(FEATURES):
            raise ConfigError(f"The relevance weights {path} are not format {FORMAT} over {', '.join(FEATURES)}.", hint)
        try:
            return cls(np.array(data["weights"], dtype=np.float64).reshape(len(FEATURES)), float(data["bias"]),
                       data.get("about"))
        except (KeyError, TypeError, ValueError) as error:
            raise ConfigError(f"The relevance weights {path} lack a field or hold a bad value ({error}).", hint) from None


@cache
def shipped_model() -> RelevanceModel:
    """The weights shipped with the package, read once a process."""
    return RelevanceModel.load()
