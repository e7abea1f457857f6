"""The question plan: what kind of question this is, what to search for, and how to answer.

Every question becomes one ``Plan`` before anything is searched. Search, answers, the CLI,
the REPL and the web app all read it, and ``--json`` shows it. The plan is made by rules
that need no LLM (the 135M default model cannot be trusted to classify), over the
question's wording and the papers it names:

- ``named``: a question about one paper it names ("tell me about PoLR", "what is lean4phys");
- ``compare``: two or more papers set against each other ("compare X and Y", "X vs Y",
  "how do they differ?" after an answer);
- ``contribution``: papers by kind of contribution ("new benchmarks on agents?", "purely
  theoretical papers"), answered from the labels ingest gave each paper;
- ``list``: every paper that answers ("which papers use Lean?", "anything on audio?");
- ``followup``: a question about the last answer's papers ("which of them use RL?");
- ``out_of_scope``: not a question about papers ("hello", "thanks");
- ``topic``: the rest, a few best papers ("proof simplification for Lean").

A follow-up's resolution (which papers it keeps, and why) is part of the plan too.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from typing import Any

from .schema import METHOD
from .reading.query_focus import focus
from .savings_asked import ANY, INFERENCE, TRAINING, savings_asked, what_is_saved, without_savings_words
from .kind_set_aside import kind_set_aside
from .training_asked import FREE, REQUIRED, training_asked, without_training_words
from .reading.contribution_words import CONTRIBUTION, DATA_USE_NAMES, METHOD_FORM_NAMES
from .reading.contributions_asked import (asks_every_kind, asks_mainly, contributions_asked, data_use, method_form,
                                          without_contribution_words, without_the_use)
from .reading.examples import (MEANS, NOT_A_TOPIC, USED_ON, examples, left_out_topic, means_asked,
                               only_paren_examples, topic_examples, used_means, without_contrasts, without_examples)
from .reading.question_forms import (ASKS_OF_ONE, ASKS_WHICH, BARE_QUESTION, COMPARE_FRAME, COMPARING_IN_A_CLAUSE,
                                     EACH_OF_THEM, ONE_ASKED, ONE_PAPER, PICKED_BY, THAN, against_a_baseline,
                                     asks_about_one, better_than_a_technique, compared_names, every_paper_on,
                                     is_compare, is_list, is_small_talk, vs_in_a_topic)
from .reading.question_text import REFERENCES, has_content


KINDS = ("topic", "list", "named", "contribution", "compare", "followup", "out_of_scope")
FORMS = {"topic": "quotes", "list": "list", "named": "paper", "contribution": "list", "compare": "comparison",
         "followup": "quotes", "out_of_scope": "none"}
PAGE_SIZE = 20


@dataclass
class Plan:
    """How one question is answered. ``as_dict()`` is what ``--json`` shows under ``plan``."""

    question: str
    kind: str
    query: str                                  # what retrieval searches for
    topics: list[str] = field(default_factory=list)
    form: str = "quotes"                        # quotes | list | paper | comparison | none
    contributions: list[str] = field(default_factory=list)  # kinds of contribution asked for
    papers: list[str] = field(default_factory=list)         # ids the question names (named, compare)
    restrict_to: list[str] | None = None        # a follow-up: only these papers (the last answer's)
    resolution: str = ""                        # a follow-up: what it was read as, and why
    filters: dict[str, Any] | None = None       # the filters in force, as given
    page: int = 1
    page_size: int | None = PAGE_SIZE           # None: every paper at once (--all)
    source: str = "rules"                       # rules, or the LLM backend whose proposal the rules accepted
    pick_one: bool = False                      # a follow-up about one paper of the last answer ("the one about Lean")
    mainly: bool = False                        # "(which of them are) mainly theoretical": papers whose main
                                                # contribution is that kind
    exclude: bool = False                       # the papers the query does NOT fit: of the last answer's (a
                                                # follow-up) or of the store ("which papers don't use RL?")
    whole_set: bool = False                     # a follow-up about each paper of the set ("what do they evaluate on?")
    left_out: bool = False                      # the set is an earlier answer's papers the last one left out
                                                # ("what about the other ones?")
    like: list[str] = field(default_factory=list)  # "are there similar papers?": the papers closest to these
    sibling: bool = False                       # restrict_to is the set the last answer chose from, not its papers
    superlative: bool = False                   # pick_one by a superlative ("the largest"): the best fit, never none
    data_use: str | None = None                 # benchmark/dataset papers only of this use: "evaluation" for
                                                # "benchmarks", "training" for "training data" (see DATA_USE_WORDS)
    method_form: str | None = None              # method papers only of this form: "architecture" for "a new network
                                                # architecture or layer", "metric" for "a new metric" (METHOD_FORM_WORDS)
    outside: int = 0                            # a follow-up no paper of the last answer's (this many) fitted,
                                                # answered from the whole store (``beyond_the_set``)
    besides: list[str] = field(default_factory=list)  # papers left out of the answer: the last answer's, for
                                                # "are there others on physics?"
    without: str = ""                           # a list less the papers a list on this topic gives ("..., but not
                                                # using RL")
    examples: list[str] = field(default_factory=list)  # a list question's examples of what it asks for ("e.g.
                                                # physics or biology"): a paper clearly on one answers it too
    examples_of: str = ""                       # what the examples are instances of, when a paper clearly on one must
                                                # be near it too ("RL for multimodal models (vision or audio)": not
                                                # every vision paper)
    not_kind: tuple[str, ...] = ()              # (thing, kind): a list of papers on things that are not of that kind
                                                # ("agents that are not language models": ``kind_set_aside``)
    means: list[str] = field(default_factory=list)  # what a list asks each paper to use, one of them ("... with
                                                # verifiers or reward models": ``means_asked``)
    unanchored: bool = False                    # a follow-up ("how do they differ?") with no earlier answer to lean on
    compared_best: int = 0                      # a comparison of a set larger than an answer shows: the best this
                                                # many of it ("how do they differ?" after 81 papers), set on answering
    added: list[str] = field(default_factory=list)  # a comparison after an answer: the papers it adds to that
                                                # answer's ("how does it compare to TTM?", "add CRISP to the comparison")
    every_kind: bool = False                    # a paper must have every kind asked, not one of them ("a new method
                                                # and also a theoretical analysis")
    training: str = ""                          # "free": only papers whose method needs no training of the model
                                                # ("training-free methods for video"); "required": none of those
                                                # ("which of them actually train the model?"): ``training_asked``
    saves: str = ""                             # only papers whose work cuts this cost: "inference", "training" or
                                                # "any" ("make LLM reasoning cheaper at inference"): ``savings_asked``
    whole_adds: bool = True                     # a list of papers that cut a cost: the question whole says more of
                                                # the saving than its query, so it is searched too; not when the query
                                                # is the resource cut ("reduce reasoning token usage")
    in_general: bool = False                    # a follow-up about one paper of the last answer that asks nothing in
                                                # particular of it ("tell me more about the second one"): answered
                                                # with its row of quotes too, as "tell me more about LASER-D" is
    # What answering needs of the question's own words, read with the rest of the plan (``read_for_answering``), so
    # that nothing after the plan reads the question again:
    whole: str = ""                             # the question less its frame (``query_focus.focus``), searched whole by
                                                # a list of papers that cut a cost
    asked_names: list[str] = field(default_factory=list)  # naming words the question holds ("AIME", "GSM8K")
    asked_compounds: list[str] = field(default_factory=list)  # hyphenated terms it asks about, not those it negates
    compared: list[str] = field(default_factory=list)  # what a comparison sets side by side, as the question says it
    picks_by_what: bool = False                 # "the one about emotions": picks one paper by what it is
    venue_words: list[str] = field(default_factory=list)  # venues the question names
    names_a_topic: bool = False                 # its words name a topic beyond a kind asked for (``on_a_topic``)

    def __post_init__(self) -> None:
        if self.kind not in KINDS:
            raise ValueError(f"unknown plan kind {self.kind!r}")

    @property
    def whole_store(self) -> bool:
        """A list of every paper in the store ("show me all papers"): the rest of the store, less no topic."""
        return self.kind == "list" and self.exclude and not self.query.strip()

    @property
    def paged(self) -> bool:
        """Whether the answer lists every relevant paper (in pages) rather than the top ``k``."""
        return self.form == "list"

    @property
    def earlier(self) -> int:
        """How many papers come on the pages before this one (0 for an answer that is not paged)."""
        return (self.page - 1) * self.page_size if self.paged and self.page_size else 0

    @property
    def on_a_topic(self) -> bool:
        """A contribution question on a topic, which narrows the papers of the kind: one the question names
        ("benchmarks for agents"), or the new topic of a conversation that asked for the kind before ("and in
        physics?"); not a clause that only qualifies the kind ("empirical studies of how models behave")."""
        return bool(self.query.strip()) and self.names_a_topic

    @property
    def compares_a_topic(self) -> bool:
        """A comparison of the best papers on a topic ("compare the papers on Lean"), not of papers it names
        or of the last answer's."""
        return (self.kind == "compare" and not self.papers and self.restrict_to is None
                and len(self.compared) < 2)

    def _comparison_line(self, about: str) -> str:
        names = self.compared
        if self.restrict_to:
            # "how does it compare to LASER-D?": the last answer's paper(s) against those the question names
            against = [n for n in names if n.lower() not in REFERENCES] \
                if any(n.lower() in REFERENCES for n in names) else []
            own = len(self.restrict_to) - len(self.added)
            if self.added and not against:  # "add CRISP to the comparison"
                return f"comparison of {the_papers(own)} with the {len(self.added)} paper{'s' if len(self.added) > 1 else ''} it adds"
            if not against and self.resolution.startswith("papers ["):  # "compare the first three"
                return f"comparison of {self.resolution}"
            if not against and self.compared_best:  # "how do they differ?" after a long list: its best k
                return f"comparison of the {self.compared_best} best of {the_papers(len(self.restrict_to))}"
            if not against:
                return (f"comparison of {the_papers(len(self.restrict_to))}" if len(self.restrict_to) > 1
                        else "comparison of the last answer's papers: it has only one")
            return f"comparison of {the_papers(own)} with {' and '.join(against)}"
        if self.compares_a_topic and self.contributions:
            return f"comparison of the {self.kinds_text()} papers" + (f" on {about}" if self.query.strip() else "")
        if self.compares_a_topic:
            return f"comparison of the best papers on {about}"
        return "comparison: " + (" vs ".join(names) if len(names) > 1 else about)

    def _not_kind_note(self) -> str:
        """', only agents that are not language models', or '' when the plan sets no kind aside."""
        return f", only {self.not_kind[0]} that are not {self.not_kind[1]}" if self.not_kind else ""

    def kinds_text(self, only: str = " ({} only)") -> str:
        """The kinds asked for, as the answer names them: 'theory or survey/position', 'benchmark/dataset
        (benchmarks only)'; ``only`` frames the data use."""
        return (" and " if self.every_kind else " or ").join(self.contributions) + self.use_note(only)

    def the_set(self, count: int) -> str:
        """What a follow-up's set of ``count`` papers is: 'the 3 papers of the last answer', or for another subset
        of the set the last answer chose from, 'the 8 papers the last answer chose from' (``the_papers``)."""
        return the_papers(count, chosen_from=self.sibling)

    def not_in_the_set(self) -> str:
        """What a follow-up answered from the whole store (``beyond_the_set``) found of the last answer's papers:
        'none of the 2 papers of the last answer is about emotions'."""
        the_set = self.the_set(self.outside)
        return f"{the_set} is not about {self.query}" if self.outside == 1 else f"none of {the_set} is about {self.query}"

    def use_note(self, only: str = " ({} only)") -> str:
        """' (benchmarks only)', ' (training data only)', ' (new architectures only)', or '' when any paper of the
        kinds will do."""
        notes = [DATA_USE_NAMES[self.data_use]] if self.data_use else []
        notes += [METHOD_FORM_NAMES[self.method_form]] if self.method_form else []
        return only.format(" and ".join(notes)) if notes else ""

    def later(self, shown: int, total: int) -> int:
        """How many of ``total`` papers come on later pages, after this page's ``shown``."""
        if not self.paged or not self.page_size or not shown:
            return 0
        return max(0, total - (self.page - 1) * self.page_size - shown)

    def page_after(self, more: int) -> int | None:
        """The page that lists the next of ``more`` papers on later pages, or None when there are none."""
        return self.page + 1 if more else None

    def as_dict(self) -> dict:
        out = {"kind": self.kind, "query": self.query, "topics": self.topics, "form": self.form,
               "contributions": self.contributions, "papers": self.papers, "filters": self.filters,
               "source": self.source}
        if self.paged:
            out.update(page=self.page, page_size=self.page_size)
        if self.kind == "contribution" or self.mainly:
            out["mainly"] = self.mainly
        if self.every_kind:
            out["every_kind"] = True
        if self.data_use:
            out["data_use"] = self.data_use
        if self.method_form:
            out["method_form"] = self.method_form
        if self.exclude and self.restrict_to is None:
            out["exclude"] = True
        if self.restrict_to is not None:
            out.update(restrict_to=self.restrict_to, resolution=self.resolution, exclude=self.exclude,
                       whole_set=self.whole_set, left_out=self.left_out)
        if self.like:
            out.update(like=self.like, resolution=self.resolution)
        if self.unanchored:
            out.update(unanchored=True, resolution=self.resolution)
        if self.kind == "contribution" and self.resolution:
            out["resolution"] = self.resolution
        if self.besides:
            out["besides"] = self.besides
        if self.outside:
            out.update(outside=self.outside, resolution=self.resolution)
        if self.examples:
            out["examples"] = self.examples
        if self.examples_of:
            out["examples_of"] = self.examples_of
        if self.without:
            out["without"] = self.without
        if self.not_kind:
            out["not_kind"] = list(self.not_kind)
        if self.means:
            out["means"] = self.means
        if self.in_general:
            out["in_general"] = True
        if self.training:
            out["training"] = self.training
        if self.saves:
            out["saves"] = self.saves
        return out

    def line(self) -> str:
        """One quiet line for the terminal and the web: 'list question: every paper on …'."""
        about = " / ".join(self.topics) if len(self.topics) > 1 else self.query
        if self.kind == "list":
            if self.means and (said := MEANS.search(about)):  # "on test-time scaling, using verifiers or ..."
                about = about[:said.end("head")] + about[said.end():]
            by_label_only = (self.training or self.saves) and not about.strip()  # "training-free methods", "cheaper"
            text = ("list question: every paper" if by_label_only else "list question: every paper in the store"
                    if self.whole_store else f"list question: every paper {'not ' if self.exclude else ''}on {about}")
            if self.means and not USED_ON.match(about.strip()):  # "every paper on use RL to train ...": said
                text += f", using {' or '.join(self.means)}"
            if self.examples:
                text += f", or clearly on {' or '.join(self.examples)}"
            if self.without:
                text += f", less those on {self.without}"
            text += self._not_kind_note()
        elif self.kind == "contribution":
            kinds, only = (" and " if self.every_kind else " or ").join(self.contributions), self.use_note()
            text = (f"contribution question: every paper whose main contribution is {kinds}{only}" if self.mainly
                    else f"contribution question: every {kinds} paper{only}") + (f" on {about}" if self.on_a_topic else "")
            if self.examples:
                text += f", or clearly on {' or '.join(self.examples)}"
            if self.without:
                text += f", less those on {self.without}"
            text += self._not_kind_note()
            if self.resolution:  # "none has it as its main contribution": the papers that bring it (``broadened``)
                text += f" ({self.resolution})"
        elif self.kind == "named":
            text = f"named paper: {about}"
        elif self.like and self.kind == "topic":
            text = f"topic question: {self.resolution}"
        elif self.kind == "compare":
            text = self._comparison_line(about)
        elif self.kind == "followup":
            text = f"follow-up: {self.resolution}" if self.resolution else f"follow-up on {about}"
        elif self.kind == "out_of_scope":
            text = "not a question about the papers"
        else:
            text = f"topic question: the best papers on {about}" if about.strip() else "topic question: the best papers in the store"
            text += self._not_kind_note()
        notes = [TRAINING_NOTES[self.training]] if self.training else []
        notes += [SAVINGS_NOTES[self.saves]] if self.saves else []
        if notes:  # "every paper that cuts the cost of inference", "every paper on video, only those that ..."
            said = " and ".join(notes)
            text += f" {said.replace('that cut ', 'that cuts ')}" if text == "list question: every paper" \
                else f", only those {said}"
        if self.besides:
            text += f", besides {the_papers(len(self.besides))}"
        if self.filters:
            text += " (filtered)"
        if not self.source.startswith("rules"):
            text += f" (planned by {self.source})"
        return text


def broadened(plan: Plan) -> Plan | None:
    """The plan to answer when no paper has the kind ``plan`` asks for as its main contribution ("which papers make
    their own training data as a main contribution?"): every paper that brings that kind, said so. None for any
    other plan."""
    if plan.kind != "contribution" or not plan.mainly or plan.every_kind:
        return None
    kinds = DATA_USE_NAMES[plan.data_use] if plan.data_use else " or ".join(plan.contributions)
    return replace(plan, mainly=False, resolution=f"none has {kinds} as its main contribution; these bring it beside another")


def beyond_the_set(plan: Plan) -> Plan | None:
    """The plan to answer when no paper of the last answer fits a follow-up that picks one paper by what it is
    ("the one about emotions" after an answer without it): the paper of the whole store that fits it best, said
    so. The asker remembers a paper of an earlier answer, or one the last answer missed. None for a subset ("which
    of them are evaluated on AIME?" is rightly answered by none of them), a follow-up about every paper of the set,
    one asking for the papers not fitting, for a kind of contribution (the labels said no), or with nothing to
    search."""
    if plan.kind != "followup" or plan.restrict_to is None or plan.exclude or plan.whole_set or plan.contributions \
            or not plan.query.strip() or plan.unanchored \
            or not (plan.pick_one or plan.picks_by_what):
        return None
    outside = replace(plan, restrict_to=None, outside=len(plan.restrict_to))
    return replace(outside, resolution=f"{outside.not_in_the_set()}; the paper of the whole store on it")


def unanchored(question: str, filters: str | None) -> Plan:
    """The plan of a follow-up asked with no earlier answer to lean on ("how do they differ?" first): no
    search, since its words ("differ", "them") say nothing about what to find."""
    return Plan(question=question, kind="followup", query="", form=FORMS["followup"], filters=filters,
                unanchored=True, resolution="it asks about an earlier answer, and there is none")


def set_name(count: int, *, chosen_from: bool = False) -> str:
    """How answers and plan lines name a follow-up's set of ``count`` papers: 'papers of the last answer', or
    for another subset of the set the last answer chose from, 'papers the last answer chose from'."""
    papers = "paper" if count == 1 else "papers"
    return f"{papers} the last answer chose from" if chosen_from else f"{papers} of the last answer"


def the_papers(count: int, *, chosen_from: bool = False) -> str:
    """'the paper of the last answer', 'the 3 papers of the last answer', 'the 8 papers the last answer chose from'."""
    name = set_name(count, chosen_from=chosen_from)
    return f"the {name}" if count == 1 else f"the {count} {name}"


# "Which papers don't use RL?", "papers that are not about agents": every paper of the store but those on a topic.
# A negation inside what is asked for ("methods that do not need labels") is a property, not this.
_NOT_ON = re.compile(r"^\s*(?:(?:which|what)\s+(?:papers|works|studies)|(?:list|show)\s+(?:me\s+)?(?:all\s+|the\s+)?papers|papers)"
                     r"\s+(?:(?:that|which)\s+)?(?:do\s+not|don[’']t|does\s+not|doesn[’']t|are\s+not|aren[’']t|never)\s+"
                     r"(?:(?:deal|work)\s+with\s+|(?:about|on)\s+)?(?P<topic>.+?)\s*[?.!]*\s*$", re.IGNORECASE)


# "papers like PoLR", "anything similar to LASER-D?", "what else is close to ZeroSiam?"
_LIKE_NAMED = re.compile(r"\b(?:papers?|works?|anything|something|others?|more|research|studies|else)\s+(?:\w+\s+)?"
                         r"(?:like|similar\s+to|close\s+to|related\s+to)\s+(?P<name>[^?.!]+)", re.IGNORECASE)


# "show me all papers", "list every abstract in the store", "what papers do you have?": the whole store, by title
_EVERY_PAPER = re.compile(
    r"^\s*(?:please\s+|can you\s+|could you\s+)?(?:show|list|give|get)(?:\s+me)?\s+(?:all|every)(?:\s+of)?(?:\s+the)?\s+"
    r"(?:papers?|abstracts?|works?)(?:\s+(?:in|of)\s+(?:the\s+)?(?:store|collection|corpus|library|database))?\s*[?.!]*\s*$"
    r"|^\s*what\s+(?:papers|abstracts)\s+(?:are\s+(?:there\s+)?in\s+(?:the\s+)?(?:store|collection|corpus|library|database)|"
    r"do\s+you\s+have|does\s+the\s+(?:store|collection)\s+(?:have|hold|contain))\s*[?.!]*\s*$"
    r"|^\s*(?:list|show)\s+(?:me\s+)?(?:the\s+)?(?:papers|abstracts)\s*[?.!]*\s*$", re.IGNORECASE)


def asks_for_every_paper(question: str) -> bool:
    return bool(_EVERY_PAPER.match(question))


def make_plan(question: str, *, query: str, topics: list[str], named: list[str], filters: dict | None = None,
              followup: "Any" = None) -> Plan:
    """The rules' plan for ``question``. ``query`` is its focus, ``topics`` its parts, ``named`` the
    papers whose names it holds (in order); ``followup`` a conversation's resolution, when it leans on
    the last answer."""
    plan = _planned(question, query=query, topics=topics, named=named, filters=filters, followup=followup)
    # not a cost said in a clause that sets papers aside ("..., but not the ones about long video efficiency")
    saves = savings_asked(without_contrasts(question)) if plan.kind in _OF_ANY_TRAINING and plan.restrict_to is None \
        and not plan.like else ""
    if saves:
        plan = _cutting_a_cost(plan, saves)
    training = training_asked(question) if plan.kind in _OF_ANY_TRAINING else ""
    if not training:
        return plan
    # "training-free methods for video": the training-free papers among those on what is left ("methods for video")
    said = lambda text: has_content(without_contribution_words(text), NOT_A_TOPIC)  # noqa: E731 ("propose methods": no)
    query = without_training_words(plan.query)
    if plan.restrict_to is not None and not said(without_training_words(without_contrasts(question))):
        query = ""  # "which of those does it by changing how the model is trained?": nothing else is asked
    if not said(query) and training == REQUIRED and plan.restrict_to is None:
        return replace(plan, training=training)  # "which papers train the model rather than ...?": on that, as said
    query = query if said(query) else ""
    rest = [t for t in map(without_training_words, plan.topics) if said(t)]
    without = plan.without if said(without_training_words(plan.without)) else ""  # "but not the ones that need RL
    # training": said by ``training`` itself
    resolution = plan.resolution
    if plan.restrict_to is not None and not query:  # "the 3 papers of the last answer, on training-free": said after
        resolution = re.sub(r", on [^,]*$", "", resolution)
    return replace(plan, training=training, query=query, without=without, resolution=resolution,
                   topics=rest if len(rest) == len(plan.topics) else ([query] if query else []))


def _cutting_a_cost(plan: Plan, saves: str) -> Plan:
    """``plan`` for a question asking for papers that cut a cost ("which papers reduce the cost of LLM reasoning at
    inference time?"): searched, less the words of the saving ("LLM reasoning"), among the papers that cut it; every
    such paper when nothing else is asked ("which papers make training cheaper?")."""
    said = lambda text: has_content(without_contribution_words(text), NOT_A_TOPIC)  # noqa: E731
    query, whole_adds = without_savings_words(plan.query), True
    if not said(what_is_saved(query)):  # "which papers reduce reasoning token usage?": the resource is all it is
        query = what_is_saved(plan.query)  # about; "which papers make inference cheaper?": nothing but the saving
        whole_adds = False  # the whole question adds only the cutting ("reduce") to the resource searched
    topics = [t for t in map(without_savings_words, plan.topics) if said(t)]
    query = query if said(query) else ""
    examples = [e for e in plan.examples if said(without_savings_words(e))]  # "e.g. fewer rollouts": the saving's
    return replace(plan, saves=saves, query=query, examples=examples if query else [], whole_adds=whole_adds,
                   topics=topics if len(topics) == len(plan.topics) else ([query] if query else []))


_OF_ANY_TRAINING = ("list", "topic", "contribution", "followup")  # kinds of question that may ask it of their papers
TRAINING_NOTES = {FREE: "whose method needs no training", REQUIRED: "whose method trains the model"}
SAVINGS_NOTES = {INFERENCE: "that cut the cost of inference", TRAINING: "that cut the cost of training",
                 ANY: "that cut a cost"}


def _planned(question: str, *, query: str, topics: list[str], named: list[str], filters: dict | None = None,
             followup: "Any" = None) -> Plan:
    query, topics = without_contrasts(query), [without_contrasts(t) for t in topics]
    base = dict(question=question, query=query, topics=topics, filters=filters or None)
    if is_small_talk(question):
        return Plan(kind="out_of_scope", form=FORMS["out_of_scope"], **base)
    if followup is None and asks_for_every_paper(question):  # every paper: none is "not on" the empty topic
        return Plan(kind="list", form=FORMS["list"], exclude=True, **{**base, "query": "", "topics": []})
    if followup is not None and followup.like:  # "are there similar papers?"
        return Plan(kind="followup", form=FORMS["followup"], like=list(followup.like), resolution=followup.why,
                    **{**base, "query": followup.query, "topics": [followup.query]})
    if followup is not None and followup.restrict_to is not None:
        papers = list(followup.restrict_to)
        added = []
        if (is_compare(question) or followup.adding) and named and not followup.pick_one:  # "how does it compare to LASER-D?"
            added = [pid for pid in named if pid not in papers]
            papers = list(dict.fromkeys([*papers, *named]))
        elif named and set(named) & set(papers) and not followup.pick_one:  # "is Lean4PHYS among them?": that one
            followup = replace(followup, restrict_to=[pid for pid in papers if pid in named], whole_set=True,
                               why=f"the paper it names, one of the {len(papers)} of the last answer")
            papers = list(followup.restrict_to)
        kind = "compare" if (is_compare(question) or (followup.adding and added)) and not followup.pick_one else "followup"
        form = FORMS[kind] if not followup.pick_one else "paper"
        # "the dataset": theirs, of any kind; "the emotion one: what dataset do they build?" asks it of the one picked
        # (but "which one is pure theory?" picks the one by its kind)
        kinds = [] if followup.definite or (followup.pick_one and not PICKED_BY.match(question)) \
            else contributions_asked(question)
        return Plan(kind=kind, form=form, papers=list(papers) if kind == "compare" else [],
                    added=added if kind == "compare" else [],
                    restrict_to=papers, resolution=followup.why, pick_one=followup.pick_one,
                    exclude=followup.exclude and kind == "followup", whole_set=followup.whole_set,
                    left_out=followup.left_out, sibling=followup.sibling, superlative=followup.superlative,
                    contributions=kinds, mainly=bool(kinds) and asks_mainly(question), data_use=data_use(question, kinds),
                    method_form=method_form(question, kinds), every_kind=len(kinds) > 1 and asks_every_kind(question),
                    in_general=followup.in_general and kind == "followup" and not kinds,
                    **{**base, "query": without_contrasts(followup.query),
                       "topics": [without_contrasts(followup.query)]})
    if len(named) <= 1 and is_compare(question) and against_a_baseline(question):
        # "What is GRPO-PTR and how does it differ from standard GRPO?": about the one paper, set against no other
        about = focus(compared_names(question)[0])
        return Plan(kind="named", form=FORMS["named"], papers=list(named), **{**base, "query": about, "topics": [about]})
    if len(named) == 1 and not is_compare(question) and better_than_a_technique(question):
        # "What is TRU and why is it better than gradient ascent?": about TRU, set against a technique, not a paper
        return Plan(kind="named", form=FORMS["named"], papers=list(named), **base)
    if (is_compare(question) and (len(named) >= 2 or (len(compared_names(question)) >= 2 and not every_paper_on(question)
                                                       and not vs_in_a_topic(question, named)))) \
            or (len(named) >= 2 and EACH_OF_THEM.search(question)) \
            or (THAN.search(question) and (len(named) >= 2 or (named and len(compared_names(question)) >= 2))):
        return Plan(kind="compare", form=FORMS["compare"], papers=list(named), **base)
    if is_compare(question) and is_list(COMPARE_FRAME.sub("", question)) and not COMPARING_IN_A_CLAUSE.search(question) \
            and not vs_in_a_topic(question, named):
        # "compare the papers on Lean"; not "papers that build on GRPO or compare against GRPO", a list
        about = re.sub(r"^(?:the|all|these|those)\s+(?:(?:two|three|four|five|six|\d+)\s+)?|^(?:two|three|four|five|six|\d+)\s+",
                       "", without_contrasts(focus(COMPARE_FRAME.sub("", question))),
                       flags=re.IGNORECASE)
        kinds = [label for label, pattern in CONTRIBUTION.items() if pattern.search(about)]
        if kinds:  # "compare the benchmark papers": the papers of that kind (on the topic left, if any)
            rest = without_contribution_words(about)
            return Plan(kind="compare", form=FORMS["compare"], contributions=kinds, data_use=data_use(about, kinds),
                        **{**base, "query": rest, "topics": [rest] if rest else []})
        return Plan(kind="compare", form=FORMS["compare"], **{**base, "query": about, "topics": [about]})
    like = _LIKE_NAMED.search(question)
    if like and named:  # "papers like PoLR": the papers closest to it, not PoLR itself
        return Plan(kind="topic", form=FORMS["topic"], like=list(named), papers=list(named),
                    resolution=f"papers like {like.group('name').strip()}", **base)
    if len(named) == 1 and asks_about_one(question):  # "who introduced the LEXam benchmark?" is about LEXam
        return Plan(kind="named", form=FORMS["named"], papers=list(named), **base)
    if len(named) == 1 and ASKS_OF_ONE.match(question) and not is_list(question):
        return Plan(kind="named", form=FORMS["named"], papers=list(named), **base)  # "what benchmark does LEXam introduce?"
    kinds = contributions_asked(question)
    if kinds == [METHOD] and ONE_PAPER.search(question):  # "the paper that proposes a group matching score": that one
        kinds = []
    if kinds:
        form, use = method_form(question, kinds), data_use(question, kinds)
        use_said = without_the_use(query) if use else query  # "benchmarks to evaluate X": X
        rest, given = without_contribution_words(use_said, form), topic_examples(question)
        return Plan(kind="contribution", form=FORMS["contribution"], contributions=kinds, mainly=asks_mainly(question),
                    examples=given, without=left_out_topic(question), not_kind=kind_set_aside(question) or (),
                    examples_of=without_contribution_words(without_examples(query), form) if given and only_paren_examples(question) else "",
                    data_use=use, method_form=form,
                    every_kind=len(kinds) > 1 and asks_every_kind(question),
                    **{**base, "query": rest, "topics": [rest] if rest else []})
    if named and not is_list(question) and len(named) == 1:
        return Plan(kind="named", form=FORMS["named"], papers=list(named), **base)
    # "Which papers don't use RL?": the papers a list on "use RL" would leave out ("which papers don't use" says
    # too little to be that)
    not_on = _NOT_ON.match(question)
    if not_on and re.search(r"\b(?!(?:use|uses|using|study|studies|deal|work|have|has|about|with|on)\b)\w{2,}",
                            not_on.group("topic"), re.IGNORECASE):
        about = focus(not_on.group("topic"))
        return Plan(kind="list", form=FORMS["list"], exclude=True, **{**base, "query": about, "topics": [about]})
    about_one = asks_about_one(question)
    # a topic given with examples of it ("LLMs in expert domains such as law or the life sciences") asks for all, as
    # does "what could I use to adapt a model at test time?": every paper that answers, not the few best
    given = examples(question)
    if is_list(question) or (not named and (BARE_QUESTION.match(question) or given or (
            not about_one and ASKS_WHICH.match(question) and not ONE_ASKED.match(question)))):
        # with examples, only a means used on something ("use RL to train multimodal models (vision or audio)"):
        # examples of a means' alternatives ("with verifiers, e.g. Lean") ask for no means
        return Plan(kind="list", form=FORMS["list"], examples=given, without=left_out_topic(question),
                    not_kind=kind_set_aside(question) or (), examples_of=without_examples(query) if only_paren_examples(question) else "",
                    means=means_asked(query) if not given else used_means(query, given), **base)
    if about_one:
        return Plan(kind="named", form=FORMS["named"], papers=list(named), **base)
    return Plan(kind="topic", form=FORMS["topic"], not_kind=kind_set_aside(question) or (), **base)
