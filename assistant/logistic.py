"""The two small learned parts' shared pieces: a weighted multinomial logistic regression fitted by L-BFGS, and the
reading of a shipped weights file with errors that carry the fix (``reading.kinds``, ``retrieval.relevance``).
scipy's optimiser does the fitting; no scikit-learn is installed for two models of a few thousand numbers."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np

from .errors import ConfigError


def softmax(scores: np.ndarray) -> np.ndarray:
    scores = scores - scores.max(axis=1, keepdims=True)
    exp = np.exp(scores)
    return exp / exp.sum(axis=1, keepdims=True)


def fit_softmax(x: np.ndarray, y: np.ndarray, classes: int, sample: np.ndarray, *, l2: float,
                maxiter: int = 15000) -> tuple[np.ndarray, np.ndarray]:
    """Weights (inputs, classes) and biases (classes,) minimising the ``sample``-weighted cross-entropy of the class
    indices ``y`` plus ``l2``/2 times the squared weights (the biases are free)."""
    from scipy.optimize import minimize

    n, d, k = len(y), x.shape[1], classes
    onehot = np.eye(k)[y]

    def loss(theta):
        w, b = theta[:d * k].reshape(d, k), theta[d * k:]
        probs = softmax(x @ w + b)
        value = -(sample * np.log(probs[np.arange(n), y] + 1e-12)).sum() + 0.5 * l2 * (w * w).sum()
        residual = (probs - onehot) * sample[:, None]
        return value, np.concatenate([(x.T @ residual + l2 * w).ravel(), residual.sum(axis=0)])

    theta = minimize(loss, np.zeros(d * k + k), jac=True, method="L-BFGS-B", options={"maxiter": maxiter}).x
    return theta[:d * k].reshape(d, k), theta[d * k:]


def read_weights(path: Path, what: str, hint: str) -> dict:
    """The JSON object of a weights file, or a ``ConfigError`` naming ``what`` and the file."""
    try:
        data = json.loads(Path(path).read_text())
    except FileNotFoundError:
        raise ConfigError(f"The {what} weights {path} are missing.", hint) from None
    except (OSError, ValueError) as error:
        raise ConfigError(f"The {what} weights {path} cannot be read ({error}).", hint) from None
    if not isinstance(data, dict):
        raise ConfigError(f"The {what} weights {path} are not a JSON object.", hint)
    return data
