"""Reading a question with learned models over its embedding, rather than with phrase rules.

``kinds``: what kind of question it is (topic, list, named, contribution, compare), with a probability.
"""

from .kinds import KindClassifier, form_features

__all__ = ["KindClassifier", "form_features"]
