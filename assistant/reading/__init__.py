"""Reading a question: what it asks, of what kind, and what it points at in the last answer.

Learned, over the question's embedding:

- ``kinds``: what kind of question it is (topic, list, named, contribution, compare), with a probability.

Read off the question's words (the rules ``assistant.plan`` and ``assistant.conversation`` make a plan with):

- ``question_text``, ``query_focus``: what is asked, without its frame and the remarks around it;
- ``question_forms``: a list, a comparison, small talk, a question about one paper;
- ``examples``: the examples and means a question gives, and what it sets aside;
- ``contribution_words``, ``contributions_asked``: kinds of contribution asked for;
- ``references``: the words that point at the last answer's papers.
"""

from .kinds import KindClassifier, form_features

__all__ = ["KindClassifier", "form_features"]
