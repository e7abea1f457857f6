"""The kind of a question, read by a multinomial logistic regression over its embedding.

The rules in ``assistant.plan`` read the kind off English phrasings, and score far lower on question
sets they were not tuned on. This model reads the vector the encoder already computes for the
question, plus a few form features no phrase list is behind (how many coined names or all-capital
tokens it holds, its length, whether it quotes something), so it learns from labelled questions
rather than from rules written for them. ``scripts/train_kinds.py`` trains it on the labelled sets
of ``tests/data`` and the shared eval sets, scores it leave-one-set-out (each set came from a
different asker) and writes the weights shipped beside this file; nothing is trained at run time.

Kinds it knows: the question forms the sets label. ``followup`` is left to the conversation's
structure rules, ``out_of_scope`` has no labelled questions, and "unanswerable" is a property of
the store, not of the question's form.
"""

from __future__ import annotations

import json
import math
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Sequence

import numpy as np

from ..errors import ConfigError
from ..logistic import fit_softmax, read_weights, softmax
from ..spelling import name_kind

LEARNED_KINDS = ("topic", "list", "named", "contribution", "compare")
WEIGHTS = Path(__file__).with_name("kinds.json")
FORMAT = 1  # bump when the file's layout or the form features change: old weights are then refused

_TOKEN = re.compile(r"[\w][\w\-.]*\w|\w")
_QUOTED = re.compile(r"[\"“”]|(?<!\w)'|'(?!\w)")
FORM_FEATURES = ("one coined name", "two or more coined names", "one all-capital token",
                 "two or more all-capital tokens", "quotes", "log words", "ends with '?'")


def form_features(question: str) -> np.ndarray:
    """The question's form as numbers, in ``FORM_FEATURES`` order. A paper's name is mostly coined
    ('PoLR', 'Parallel-R1'), and a comparison names two or more; the embedding of a short question
    blurs how many names it holds, so they are counted here (``spelling.name_kind``, no word lists)."""
    tokens = _TOKEN.findall(question)
    kinds = [name_kind(token) for token in tokens]
    coined, capitals = kinds.count("coined"), kinds.count("capitals")
    return np.array([coined == 1, coined >= 2, capitals == 1, capitals >= 2,
                     bool(_QUOTED.search(question)), math.log1p(len(tokens)) / math.log(40),
                     question.rstrip().endswith("?")], dtype=np.float64)


@dataclass
class KindClassifier:
    """``predict`` gives each question's most likely kind and its probability; ``probabilities`` all of
    them. ``form_scale`` weighs the form features against the unit-length embedding (0: embedding only);
    ``temperature`` divides the scores, fitted on held-out predictions so the probabilities are calibrated."""

    kinds: tuple[str, ...]
    weights: np.ndarray  # (inputs, kinds)
    bias: np.ndarray  # (kinds,)
    form_scale: float = 0.0
    temperature: float = 1.0
    embedder: str = ""  # the encoder the training vectors came from, recorded so a mismatch can be seen

    @property
    def reads_form(self) -> bool:
        return self.form_scale > 0

    def inputs(self, vectors, questions: Sequence[str] | None = None) -> np.ndarray:
        """The rows the model reads: each question's vector, then its form features when it reads them."""
        vectors = np.atleast_2d(np.asarray(vectors, dtype=np.float64))
        if not self.reads_form:
            return vectors
        if questions is None or len(questions) != len(vectors):
            raise ValueError("this kind model reads the questions' form too: pass the questions with their vectors")
        return np.hstack([vectors, self.form_scale * np.array([form_features(q) for q in questions])])

    def probabilities(self, vectors, questions: Sequence[str] | None = None) -> np.ndarray:
        """(questions, kinds) probabilities, each row summing to one, columns in ``kinds`` order."""
        x = self.inputs(vectors, questions)
        if x.shape[1] != self.weights.shape[0]:
            raise ValueError(f"the kind model reads {self.weights.shape[0]} numbers a question, not {x.shape[1]}: "
                             "were the vectors made by another encoder?")
        return softmax((x @ self.weights + self.bias) / self.temperature)

    def predict(self, vectors, questions: Sequence[str] | None = None) -> list[tuple[str, float]]:
        """(kind, probability) of each question, most likely kind first."""
        probs = self.probabilities(vectors, questions)
        best = probs.argmax(axis=1)
        return [(self.kinds[i], float(row[i])) for i, row in zip(best, probs)]

    def predict_questions(self, questions: Sequence[str], embedder) -> list[tuple[str, float]]:
        """``predict`` over questions embedded by ``embedder`` (``assistant.embedding.Embedder``)."""
        questions = list(questions)
        return self.predict(embedder.embed(questions), questions)

    # -- training ------------------------------------------------------------------
    @classmethod
    def train(cls, questions: Sequence[str], labels: Sequence[str], embedder=None, *, vectors=None,
              l2: float = 1e-3, form_scale: float = 0.0, balanced: bool = True,
              temperature: float = 1.0) -> "KindClassifier":
        """Fit the weights to labelled questions, embedded by ``embedder`` (or given as ``vectors``).

        Minimises the mean cross-entropy plus ``l2``/2 times the squared weights (the biases are
        free), by L-BFGS. ``balanced`` weighs each kind's questions by the inverse of its count, so
        the rare kinds (topic, named) are not traded away for the common list questions."""
        questions, labels = list(questions), list(labels)
        if len(questions) != len(labels) or not questions:
            raise ValueError("train needs as many labels as questions, and at least one")
        kinds = tuple(k for k in LEARNED_KINDS if k in labels) + tuple(sorted(set(labels) - set(LEARNED_KINDS)))
        if vectors is None:
            vectors = embedder.embed(questions)
        model = cls(kinds, np.zeros((0, 0)), np.zeros(0), form_scale, temperature,
                    getattr(embedder, "name", "") if embedder is not None else "")
        x = model.inputs(vectors, questions)
        y = np.array([kinds.index(label) for label in labels])
        n, k = len(y), len(kinds)
        counts = np.bincount(y, minlength=k)
        sample = (n / (k * counts))[y] if balanced else np.ones(n)
        model.weights, model.bias = fit_softmax(x, y, k, sample / sample.sum(), l2=l2, maxiter=2000)
        return model

    # -- the shipped file ----------------------------------------------------------
    def save(self, path: Path | str = WEIGHTS, **about) -> None:
        """Write the weights as JSON (rounded: 5 significant digits change no prediction), with ``about``
        (what it was trained on, how it scored) kept beside them for whoever reads the file."""
        data = {"format": FORMAT, "kinds": list(self.kinds), "form_features": list(FORM_FEATURES),
                "form_scale": self.form_scale, "temperature": round(self.temperature, 4), "embedder": self.embedder,
                "about": about, "bias": [float(f"{v:.5g}") for v in self.bias],
                "weights": [[float(f"{v:.5g}") for v in row] for row in self.weights]}
        Path(path).write_text(json.dumps(data, separators=(",", ":")) + "\n")

    @classmethod
    def load(cls, path: Path | str = WEIGHTS) -> "KindClassifier":
        """The weights ``save`` wrote (by default the ones shipped with the package)."""
        path = Path(path)
        hint = "Reinstall the package, or rewrite the weights with `python scripts/train_kinds.py`."
        data = read_weights(path, "question-kind", hint)
        if data.get("format") != FORMAT:
            raise ConfigError(f"The question-kind weights {path} are not format {FORMAT}.", hint)
        try:
            model = cls(tuple(data["kinds"]), np.array(data["weights"], dtype=np.float64),
                        np.array(data["bias"], dtype=np.float64), float(data["form_scale"]),
                        float(data["temperature"]), str(data.get("embedder", "")))
        except (KeyError, TypeError, ValueError) as error:
            raise ConfigError(f"The question-kind weights {path} lack a field or hold a bad value ({error}).", hint) from None
        if model.weights.ndim != 2 or model.weights.shape[1] != len(model.kinds) or model.bias.shape != (len(model.kinds),):
            raise ConfigError(f"The question-kind weights {path} do not match their {len(model.kinds)} kinds.", hint)
        return model
