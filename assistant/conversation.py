"""Conversation state and follow-up resolution.

A 135M model rewrites follow-ups unreliably, so references are resolved by rules over
the previous answer's citations: "the second one" is citation [2], "those" are all of
them, and a short question leaning on "it"/"they" is read together with the last query.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace

from .plan import DASH, is_compare, is_list, the_papers
from .query_words import topic_runs

_ORDINALS = {word: n for n, word in enumerate(
    "first second third fourth fifth sixth seventh eighth ninth tenth eleventh twelfth thirteenth fourteenth "
    "fifteenth sixteenth seventeenth eighteenth nineteenth twentieth".split(), 1)}
_ORDINAL_NUMBER = r"\d{1,3}(?:st|nd|rd|th)"  # "6th", "21st": a page holds up to 100 papers
_ORDINAL = re.compile(r"\b(?:the\s+)?(" + "|".join(_ORDINALS) + r"|" + _ORDINAL_NUMBER + r"|last)\s*(?:one|paper|result|source|work)?\b"
                      r"|\[(\d+)\]|\b(?:paper|source|number|no\.?|#)\s*(\d+)\b", re.IGNORECASE)
# "papers 6 and 9", "sources 2, 5 and 7": the numbers after a plural
_NUMBERED = re.compile(r"\b(?:papers|sources|numbers|nos\.?)\s+(\d+(?:\s*(?:,|and|&|or)\s*\d+)+)\b", re.IGNORECASE)
# Words that point at an earlier answer's papers, in every question that leans on one ("these papers", "the
# ones", "each of them", "do they", "what did they"); ``_GROUP`` and ``_REFERS`` add their own.
_POINTING = (r"\b(?:those|these)\s+(?:papers|ones|works|methods)\b|(?<!\bnot\s)(?<!\bexcept\s)(?<!\bexcluding\s)\b(?:only\s+)?the\s+ones\b"
             r"|^\s*(?:just|only)\s+the\s+(?=[\w-]+(?:\s+[\w-]+)?\s+ones\b)"  # "just the image ones"
             r"|\b(?:either|any|each|both|none)\s+of\s+(?:them|those|these)\b|\bdo\s+(?:they|any of them)\b"
             r"|\b(?:how|where|why|what)\s+(?:do|did)\s+(?:they|those|these|the\s+(?:two|three|four|five)|both)\b"
             # the same said without "do" or "the": "how they are different?", "only ones tested on math"
             r"|\bhow\s+(?:they|those|these|both|the\s+two)\s+(?:are\s+|were\s+)?(?:differ|different|compare)\b"
             r"|^\s*(?:just|only)\s+ones\b")
_NARROWING = ("filter", "narrow", "restrict", "limit")  # "filter to the ones about agents": a subset
_GROUP = re.compile(_POINTING + r"|\b(?:out\s+of|of|among|from|between)\s+(?:those|these|them|the above|the\s+(?:two|three|four|five))\b"
                    r"|\bonly\s+(?:those|these)\b|\btheir\b|\bwhich of (?:them|those|these)\b|\bwhich ones\b"
                    # "filter to the papers about agents", "narrow it down to the multimodal ones"
                    r"|^\s*(?:(?:and|now|ok(?:ay)?|so)[, ]+)?(?:" + "|".join((*_NARROWING, "cut")) + r")(?:\s+(?:it|them|this|these|those|"
                    r"the\s+(?:list|answer)))?(?:\s+down)?\s+to\b"
                    r"|\b(?:compare|contrast)\s+(?:them|these|those|both|all\s+of\s+them|the\s+(?:two|three|four|papers))\b"
                    # "summarize them", "describe those", "rank them by efficiency": something asked of each of them
                    r"|\b(?:summari[sz]e|describe|explain|review|rank|sort|order|list)\s+(?:them|these|those|both|all\s+of\s+them)\b"
                    # "which use Qwen?", "and which report AIME results?", "which has a theoretical framework behind it?":
                    # "which" and a verb, after an answer
                    r"|^\s*(?:(?:and|so|ok(?:ay)?)[, ]+)?which\s+(?:use[sd]?|report(?:s|ed)?|evaluate[sd]?|are|were|is|was|do|"
                    r"does|did|have|has|had|propose[sd]?|stud(?:y|ies|ied)|introduce[sd]?|rel(?:y|ies|ied)|appl(?:y|ies|ied)|target(?:s|ed)?|"
                    r"train(?:s|ed)?|focus(?:es|ed)?|need(?:s|ed)?|handle[sd]?|address(?:es|ed)?|test(?:s|ed)?|"
                    r"measure[sd]?|compare[sd]?|improve[sd]?|reduce[sd]?|achieve[sd]?|outperform(?:s|ed)?|show(?:s|ed)?|"
                    r"require[sd]?|work(?:s|ed)?|combine[sd]?|extend(?:s|ed)?|build(?:s)?|leverage[sd]?|employ(?:s|ed)?|"
                    r"adopt(?:s|ed)?|involve[sd]?|consider(?:s|ed)?|mention(?:s|ed)?|include[sd]?|cover(?:s|ed)?|"
                    r"support(?:s|ed)?|generali[sz]e[sd]?|can|could|also)\b(?!\s+(?:the\s+)?(?:papers|works|studies)\b)",
                    re.IGNORECASE)
# "and which improve stability?" (not "and which of those ..."): after a subset, another question of its set
_AND_WHICH = re.compile(r"^\s*(?:and|also)\s+which\b(?!\s+(?:of|among)\b)", re.IGNORECASE)
# What "going back to the robotics set" calls the answer, besides its topic
_SET_WORDS = frozenset("the a an set list papers paper ones answer answers earlier first last previous question topic one "
                       "of on about".split())
# A reference to several papers, which one paper cannot be: "any of them", "which of those", "these"
_PLURAL = re.compile(r"\b(?:them|those|these|they|ones)\b", re.IGNORECASE)


# "Going back to NuRL: what did they find?": the paper it names again, whatever "they" of the last answer says
BACK_TO = re.compile(r"^\s*(?:(?:ok(?:ay)?|so|and|now)[,\s]+)?(?:going|coming|getting)?\s*back\s+to\b|^\s*returning\s+to\b",
                     re.IGNORECASE)
# "is Lean4PHYS among them?": whether a paper the question names is one of the last answer's.
MEMBERSHIP = re.compile(r"\b(?:among|one\s+of|part\s+of|in|included\s+in)\s+(?:them|those|these|the\s+list|the\s+(?:last\s+)?answer)\b"
                        r"|\bincluded\b", re.IGNORECASE)
GROUP_REFERENCE = re.compile(r"\b(?:them|those|these|they|their|ones|either|both|\[\d+\])\b|\b(?:first|second|third|last)\s+one\b",
                             re.IGNORECASE)
_SWITCH = re.compile(r"^\s*(?:switching topics?[:,]?\s*|(?:and|but|now|ok(?:ay)?|so)[,]?\s+(?:what|how)\s+about\s+"
                     r"|(?:(?:and|now|ok(?:ay)?|so)[,]?\s+)?(?:the\s+)?same\s+(?:question\s+|thing\s+)?(?:but\s+)?(?:for|on|about|in|with)\s+"
                     r"|(?:(?:and|so)[,]?\s+)?(?:any|anything|something|some|ones?)\s+(?:(?:similar|like\s+(?:that|this|those)|"
                     # "any on physics?", "anything along those lines for physics?"
                     r"along\s+(?:those|these|the\s+same)\s+lines)\s+)?(?:on|about|for|in)\s+"
                     r"|(?:what|how)\s+about\s+|(?:and|now)\s+(?:for|on|about|in)\s+"
                     r"|(?:ok(?:ay)?,?\s+)?(?:and|so)[,]?\s+(?:anything|any\s+papers?|something)\s+(?:(?:that|which)\s+(?=\w+s\b)|(?=using\b))"
                     r"|and\s+(?=[\w\-]+(?:\s+[\w\-]+){0,2}\s*[?.!]*\s*$))", re.IGNORECASE)  # "and chemistry?"
# A topic switch said before a whole question whose "them" is that topic: "And for vision-language models -- which
# papers train them with RL?" asks "which papers train vision-language models with RL?", of the whole store
_SWITCH_THEN_ASKED = re.compile(r"^\s*(?:(?:and|now|so|ok(?:ay)?)[,]?\s+)?(?:(?:what|how)\s+about|for|on|in)\s+"
                                r"(?P<topic>[^—–:?,;]{2,60}?)\s*(?:\s-+\s|—|–|:|,)\s*(?P<asked>(?:which|what)\s+(?:papers?|works?|"
                                r"methods|ones)\s+[^?]*\b(?:them|they|their)\b[^?]*\??)\s*$", re.IGNORECASE)
_THEM = re.compile(r"\b(?:them|they)\b", re.IGNORECASE)
_OF_THE_SET = r"(?:of|among)\s+(?:them|those|these|the\s+two|both)\b"  # "which of those is ...": one of them
_THE_ONE = re.compile(r"\b(?:the|which)\s+one\b(?:\s+(?:about|on|using|that|which|with|where|who))?"
                      r"|\bwhich\s+(?:one\s+|" + _OF_THE_SET + r"\s+)?(?:is|was)\s+(?:the\s+)?(?:most|least|best|worst|(?=\w{2,}est\b))"  # "the largest"
                      # "which is cheaper?", "which of those is more about frames?"
                      r"|\bwhich\s+(?:one\s+|" + _OF_THE_SET + r"\s+)?(?:is|was)\s+(?:more|less|better|worse|(?=\w{3,}er\b(?!\s+than)))",
                      re.IGNORECASE)
_SUPERLATIVE = re.compile(r"\b(?:most|least|more|less)\s+[\w-]+|\b(?:best|worst|better|worse)\b(?:\s+[\w-]+)?|\b\w{2,}est\b"
                          r"|\b\w{3,}er\b", re.IGNORECASE)
# a superlative, not a comparative ("cheaper", "more X"): "the fewest demos" asks for one, never none
_SUPERLATIVE_WORD = re.compile(r"\b(?:most|least|best|worst|\w{2,}est)\b", re.IGNORECASE)


def _described_twice(question: str) -> bool:
    """Whether a question describes two papers of a set ("the two-arms one ... the one about safety")."""
    spans = sorted({m.span() for pattern in (_THE_X_ONE, _THE_ONE) for m in pattern.finditer(question)})
    apart = [span for i, span in enumerate(spans) if i == 0 or span[0] >= spans[i - 1][1]]
    return len(apart) >= 2


# What a pick sets the one it asks for against: "which of those is more about frames vs. dropping tokens?" asks
# for the one on frames
_ALTERNATIVE = re.compile(r"\s+(?:vs\.?|versus|rather\s+than|instead\s+of|as\s+opposed\s+to|than)\s.*$", re.IGNORECASE | re.DOTALL)
_MORE_ABOUT = re.compile(r"(?:more|less)\s+(?:about|on|into|of|for|with|in)", re.IGNORECASE)  # "more about", said of a topic
# Where the description of "the one that ..." ends and what is asked of it begins: "the one that clusters short
# prefixes: what does it achieve?", "the one using Lean — how big is it?"
_DESCRIBED = re.compile(r"\s*(?::|" + DASH + r"|\?|;)\s*|,\s*(?=(?:what|how|which|does|do|is|are|can|tell)\b)", re.IGNORECASE)
# What asks about one paper as a whole, before the words that pick it: "tell me more about the one using a Siamese
# design", "summarize the Lean one". Not "which one ...", which asks which.
_IN_GENERAL = re.compile(r"^\s*(?:(?:and|so|ok(?:ay)?|great|thanks|now),?\s+)*(?:(?:please\s+)?(?:tell|show)\s+me\s+"
                         r"(?:a\s+(?:bit|little)\s+|some\s+)?(?:more\s+)?about|(?:what|how)\s+about|more\s+(?:on|about)|"
                         r"(?:please\s+)?(?:describe|summari[sz]e|explain)|what(?:'s|\s+is)|details\s+(?:on|of|about))?\s*$",
                         re.IGNORECASE)
# "the Lean one: what does it contain?", "the physics one": the paper of the set on that
_THE_X_ONE = re.compile(r"\bthe\s+(?!(?:" + "|".join(_ORDINALS) + "|" + _ORDINAL_NUMBER + r"|last|other|next|same|only|right|"
                        r"best|worst|new|old|latest|earlier|later|previous)\b)(?P<about>[\w-]+(?:\s+[\w-]+)?)\s+one\b", re.IGNORECASE)
# "what about the other ones?", "and the rest?", "and the other one?": the papers of the answer before the last that
# it left out.
_OTHERS = re.compile(r"\b(?:the\s+)?(?:other|remaining)\s+(?:ones?|papers?|works?)\b|\bthe\s+others?\s*[?.!]*\s*$|\bthe\s+others\b|\bthe\s+rest\b"
                     r"|^\s*(?:and\s+)?(?:which|what about the ones that|the ones that)\s+(?:don[’']?t|do\s+not|doesn[’']?t|"
                     r"does\s+not|aren[’']?t|are\s+not|isn[’']?t|is\s+not)\s*[?.!]*\s*$", re.IGNORECASE)  # "which don't?"
# "are there others on physics?", "any other papers about law?": a new search, without the last answer's papers
_ONE_LEFT = re.compile(r"\bthe\s+(?:other|remaining|last\s+remaining)\s+one\b", re.IGNORECASE)
_OTHERS_ON = re.compile(r"^\s*(?:(?:and|so|ok(?:ay)?)[, ]+)?(?:are there |is there |what about |how about |show me |find |list "
                        r"|anything |any |who |what )?(?:any |some )?(?:others?|other (?:papers?|works?|ones|studies|research)|"
                        r"more papers?|else)(?:\s+(?:works?|is\s+working|has\s+worked|writes?|is\s+there))?"  # "who else works on X?"
                        r"\s+(?:on|about|in|for|using|with|related to)\s+(?P<topic>[^?!]+?)\s*[?.!]*\s*$",
                        re.IGNORECASE)
# "add CRISP to the comparison", "include THINKMERGE too": the last answer's papers, and the one it names
_ADD_TO = re.compile(r"^\s*(?:(?:and|now|ok(?:ay)?|also|please)[, ]+)*(?:add|include|bring\s+in|throw\s+in)\s+\S.*?"
                     r"(?:\s+(?:to|into|in)\s+(?:the\s+)?(?:comparison|table|list|them|it|this|these|those)|\s+too|\s+as\s+well)?"
                     r"\s*[?.!]*\s*$", re.IGNORECASE)
# "any others?", "anything else?": a new search on the last topic, without the last answer's papers
_ANY_OTHERS = re.compile(r"^\s*(?:(?:and|so|ok(?:ay)?)[, ]+)?(?:are\s+there\s+|is\s+there\s+)?(?:any\s+|some\s+)?(?:others?|"
                         r"other\s+(?:papers|ones|works)|anything\s+else|any\s+more|more\s+(?:papers|ones))\s*[?.!]*\s*$",
                         re.IGNORECASE)
# "now show me benchmarks on this topic": the last question's topic, said again
_THIS_TOPIC = re.compile(r"\b(?:on|about|for|in|to)\s+(?:this|that|the\s+same)\s+(?:topic|subject|area|theme|problem)\b",
                         re.IGNORECASE)
# "are there similar papers?", "anything related?", "more like this": the papers closest to the last answer's
_SIMILAR = re.compile(r"^\s*(?:(?:and|so|ok(?:ay)?)[, ]+)?(?:are there |is there |any |anything |find |show me |what are |"
                      r"give me |list )?(?:(?:any|some|other|more)\s+)*(?:similar|related)(?:\s+(?:papers?|works?|research|"
                      r"ones|studies))?(?:\s+to\s+(?:it|this|that|these|those|them|this one|that one))?\s*[?.!]*\s*$"
                      r"|\b(?:papers?|works?|anything|more|others?)\s+(?:like|similar\s+to)\s+(?:it|this|that|these|those|"
                      r"them)(?:\s+one)?\s*[?.!]*\s*$", re.IGNORECASE)
# "tell me more", "more details": about each paper of the last answer, asking nothing new
_MORE = re.compile(r"^\s*(?:(?:please|ok(?:ay)?|and)[, ]+)?(?:tell me more|more(?: details| info(?:rmation)?)?|go on|"
                   r"elaborate|details)\s*(?:please)?\s*[.!?]*\s*$", re.IGNORECASE)
# "what is the dataset called?", "what are the main results?": the last answer's paper(s) by what any paper has
_DEFINITE = re.compile(r"\bthe\s+(?:main\s+|key\s+|proposed\s+|new\s+|headline\s+|reported\s+|final\s+)?"
                       r"(?:datasets?|benchmarks?|models?|methods?|approach(?:es)?|frameworks?|results?|findings?|"
                       r"contributions?|limitations?|ideas?|architectures?|algorithms?|tasks?|experiments?|baselines?|"
                       r"metrics?|code|evaluations?|accuracy|speed-?ups?|improvements?|gains?|authors?)\b", re.IGNORECASE)
_SINGLE = re.compile(r"\b(?:it|its|this paper|that paper|this one|that one|this work|that work)\b", re.IGNORECASE)
# "in RL this year?", "what's new this week?": a demonstrative before the question's last word, which is no word for
# an answer's papers, is that word's determiner, not a pointer to the last answer ("is that trained?" still points)
_DETERMINER_PHRASE = re.compile(r"\b(?:this|that|these|those)\s+(?!(?:papers?|ones?|works?|methods?|approach(?:es)?|"
                                r"models?|results?|stud(?:y|ies)|techniques?|frameworks?|ideas?|benchmarks?|datasets?)\b)"
                                r"[a-z]+(?<!ed)\s*[?.!]*\s*$", re.IGNORECASE)
_PRONOUN = re.compile(r"\b(?:they|them|their|it|its|this|that|these|those|more|else|also)\b", re.IGNORECASE)
_FOLLOW_FRAME = re.compile(r"^\s*(?:and\s+|so\s+|ok(?:ay)?,?\s+)?(?:what|how)\s+about\s+|^\s*tell me more(?: about)?\s*"
                           r"|^\s*(?:which|what) of (?:those|these|them)\s*|\b(?:out\s+of|of|among|from) (?:those|these|them)\b",
                           re.IGNORECASE)


# "Which of these papers build a world model?" asked first: "these papers" are the store's, as the asker sees them
_THESE_PAPERS = re.compile(r"\b(?:(?:of|among|from)\s+)?(?:these|those)\s+(?=(?:papers|works|abstracts|articles|studies|submissions|publications)\b)", re.IGNORECASE)


def of_the_store(question: str) -> str:
    """``question`` asked with no earlier answer to lean on, its "these papers" read as the store's: "Which of these
    papers build a world model?" -> "Which papers build a world model?"; "which ones run experiments on Qwen?" ->
    "which papers run experiments on Qwen?"."""
    return _WHICH_ONES.sub(r"\g<which> papers", _THESE_PAPERS.sub("", question))


_WHICH_ONES = re.compile(r"^\s*(?P<which>which|what)\s+ones\b(?!\s+of\b)", re.IGNORECASE)


def leans_on_an_answer(question: str) -> bool:
    """Whether ``question`` is about an earlier answer's papers and names nothing else to search: "how do they
    differ?", "tell me more", "are there similar papers?", "which of them use RL?", "the second one"."""
    if _OTHERS_ON.match(question):  # "are there other papers on Lean?" says what to search
        return False
    return bool(_SIMILAR.search(question) or _MORE.match(question) or _OTHERS.search(question)
                or _REFERS.search(question) or _LEANING_ORDINAL.search(question)
                or re.match(r"^\s*(?:and\s+)?how\s+(?:do|did|does)\s+(?:they|these|those|the\s+two|both)\s+"
                            r"(?:differ|compare)", question, re.IGNORECASE))


def points_inside(question: str) -> bool:
    """Whether what ``question``'s "them" or "those" points at is named before it in the question itself, two
    words of a topic at least: "sampling several reasoning paths and then picking among them", "lean papers, and
    every one of them". Asked first, such a question leans on no answer ("which of them use RL?" does)."""
    found = _REFERS.search(question)
    said = [w for run in topic_runs(question[:found.start()]) for w in run if w.lower() not in _COMPARING] if found else []
    return len(said) >= 2  # "what's the difference between those" names nothing of its own


# What a comparison says of the papers it compares, naming no topic: "the difference between those"
_COMPARING = frozenset("differ differs different difference differences compare compared comparison contrast similar "
                       "similarity similarities common".split())


# "of them", "these papers", "do they": words that point at an earlier answer's papers (not "their", which a
# question's own papers may own: "papers that prove their method")
_REFERS = re.compile(_POINTING + r"|\b(?:of|among|from|between)\s+(?:those|these|them)\b"
                     r"|\b(?:compare|contrast)\s+(?:them|these|those|both)\b", re.IGNORECASE)
# "the second one", "[2]", "paper 3": a number into an earlier answer (not "the first paper to use Lean")
_LEANING_ORDINAL = re.compile(r"\b(?:the\s+)?(?:" + "|".join(_ORDINALS) + r"|last)\s+one\b|\[\d+\]", re.IGNORECASE)


@dataclass(frozen=True)
class AskedKinds:
    """The kinds of contribution an answer's papers were chosen for: whether as main contributions, of
    benchmark/dataset papers which use ("evaluation", "training"), and of method papers which form
    ("architecture"). A topic switch and a subset keep them."""

    contributions: tuple[str, ...] = ()
    mainly: bool = False
    data_use: str | None = None
    method_form: str | None = None

    @classmethod
    def of(cls, plan) -> "AskedKinds":
        return cls(tuple(plan.contributions), plan.mainly, plan.data_use, plan.method_form)

    def give(self, plan) -> None:
        """Make ``plan`` hold to these kinds."""
        plan.contributions, plan.mainly = list(self.contributions), self.mainly
        plan.data_use, plan.method_form = self.data_use, self.method_form


@dataclass
class Turn:
    question: str
    query: str
    answer: str
    citation_ids: list[str]
    citation_titles: list[str]
    kind: str = "topic"  # the plan kind that answered it: a topic switch ("and for robotics?") keeps it
    kinds: AskedKinds = AskedKinds()  # what its papers were chosen for
    within: list[str] | None = None  # a follow-up: the papers it chose from (its answer's are some of them)


@dataclass
class Resolved:
    query: str                       # what to retrieve with
    restrict_to: list[str] | None    # only these paper ids, or None for the whole store
    rewritten: bool = False
    why: str = ""                    # how the question was read, for the plan line
    pick_one: bool = False           # "the one about Lean": the single paper of the set that fits best
    switch_to: str | None = None     # "and for robotics?": a new search on this topic, same kind as the last
    last_kind: str = "topic"
    last_kinds: AskedKinds = AskedKinds()  # the kinds of contribution the last answer held to
    besides: list[str] | None = None  # "are there others on physics?": the new search leaves out these papers
    exclude: bool = False            # "which of them don't use RL?": the papers of the set the query does not fit
    whole_set: bool = False          # "what do they evaluate on?": about every paper of the set, not a subset
    left_out: bool = False           # "what about the other ones?": an earlier answer's papers the last one left out
    like: list[str] | None = None    # "are there similar papers?": the papers of the store closest to these
    sibling: bool = False            # the set is the one the last answer chose from ("what about the ones on X?")
    superlative: bool = False        # "which is the largest?": the one that fits best, never none
    adding: bool = False             # "add CRISP to the comparison": the last answer's papers and the one it names
    definite: bool = False           # "what is the dataset called?": about each paper, whatever kinds it names
    in_general: bool = False         # "tell me more about the second one": one paper, nothing in particular asked of it


# How wide a switched topic is to be read, which asks nothing of the last answer: "and for robotics more broadly?"
_BROADLY = re.compile(r"\s+(?:more\s+(?:broadly|generally)|in\s+general|(?:more\s+)?generally|overall|at\s+large)(?=\s*[?.!]*\s*$)",
                      re.IGNORECASE)


# Turns a conversation remembers (the oldest are forgotten): a long-running server holds up to
# API_CONVERSATIONS of them, which must not grow with every question asked.
TURNS_KEPT = 20


@dataclass
class Conversation:
    turns: list[Turn] = field(default_factory=list)

    def reset(self) -> None:
        self.turns.clear()

    def add(self, turn: Turn) -> None:
        self.turns.append(turn)
        del self.turns[:-TURNS_KEPT]

    @property
    def answered(self) -> bool:
        """Whether an earlier answer cited papers a follow-up could be about."""
        return any(t.citation_ids for t in self.turns)

    def resolve(self, question: str) -> Resolved:
        question = _BROADLY.sub("", question) or question  # "and for robotics more broadly?" switches to robotics
        earlier = self._gone_back_to(question)
        if earlier is not None:  # "Going back to the robotics set: which one ...?" asks it of that answer
            turns, rest = earlier
            resolved = Conversation(turns).resolve(rest)
            if resolved.restrict_to is not None:
                why = resolved.why.replace("the last answer", "that answer")
                return replace(resolved, why=f"{why}, going back to the answer on {turns[-1].query}")
        last = next((t for t in reversed(self.turns) if t.citation_ids), None)
        if not self.turns:
            return Resolved(question, None)
        # the last question about the papers: "thanks!" in between does not change what "and for robotics?" continues
        previous = next((t for t in reversed(self.turns) if t.kind != "out_of_scope"), self.turns[-1])
        others_on = _OTHERS_ON.match(question)
        if others_on and last:  # "are there others on physics?"
            topic = others_on.group("topic")
            return Resolved(topic, None, True, f"a new search on {topic}, besides {the_papers(len(last.citation_ids))}",
                            switch_to=topic, last_kind=previous.kind, last_kinds=previous.kinds,
                            besides=list(last.citation_ids))
        if _ANY_OTHERS.match(question) and last:  # "any others?": the last topic again, less what it gave
            topic = previous.query or last.query
            return Resolved(topic, None, True, f"a new search on {topic}, besides {the_papers(len(last.citation_ids))}",
                            switch_to=topic, last_kind=previous.kind, last_kinds=previous.kinds,
                            besides=list(last.citation_ids))
        if _ADD_TO.match(question) and last:  # "add CRISP to the comparison"
            return Resolved(last.query, list(last.citation_ids), True,
                            f"{the_papers(len(last.citation_ids))}, and the paper it adds", whole_set=True, adding=True)
        if _THIS_TOPIC.search(question) and previous.query:  # "benchmarks on this topic?"
            query = f"{previous.query} {_content(_THIS_TOPIC.sub(' ', question))}".strip()
            return Resolved(query, None, True, f"on the last question's topic: {previous.query}")
        one_left = bool(_ONE_LEFT.search(question))  # "the other one", "the remaining one"
        others = self._left_out(every_pick=one_left) if _OTHERS.search(question) else None
        if others:  # "what about the other ones?"
            ids, count = others
            remaining = _content(_OTHERS.sub(" ", _SWITCH.sub(" ", question)))
            # "what does the other one achieve?" asks about that paper, not for the ones that "achieve"
            return Resolved(remaining or last.query, ids, True,
                            f"the {len(ids)} of an earlier answer's {count} papers that the last answer left out"
                            if not one_left or len(ids) > 1 else f"the one of an earlier answer's {count} papers not yet answered",
                            whole_set=not remaining or one_left or len(ids) == 1, left_out=True)
        if _OTHERS.search(question) and not one_left and last and last.citation_ids \
                and not _content(_OTHERS.sub(" ", _SWITCH.sub(" ", question))):
            # "what about the other ones?" when the last answer left none out: said so, not searched as a topic
            return Resolved(last.query, [], True, "the papers an earlier answer had that the last one left out: none",
                            whole_set=True, left_out=True)
        switched = _SWITCH_THEN_ASKED.match(question)
        if switched:
            topic = switched.group("topic").strip()
            asked = re.sub(r"\btheir\b", f"{topic}'s", _THEM.sub(topic, switched.group("asked")), flags=re.IGNORECASE)
            searched = next((t for t in reversed(self.turns) if t.kind != "out_of_scope" and t.within is None), previous)
            return Resolved(asked, None, True, f"a new search on {topic}", switch_to=asked, last_kind=searched.kind,
                            last_kinds=searched.kinds)
        switch = _SWITCH.match(question)
        leans = _ORDINAL.search(question) or _GROUP.search(question) or _PRONOUN.search(_SWITCH.sub("", question))
        if switch and not leans:
            topic = _SWITCH.sub("", question).strip(" ?.!")
            # the kind of the last search, not of a subset chosen from it since: "and what about video?" after
            # "which papers work on audio?" and "which one builds a dataset?" asks for papers on video
            searched = next((t for t in reversed(self.turns) if t.kind != "out_of_scope" and t.within is None), previous)
            return Resolved(topic, None, True, f"a new search on {topic}", switch_to=topic, last_kind=searched.kind,
                            last_kinds=searched.kinds)
        rest = _FOLLOW_FRAME.sub(" ", question)
        if last and _SIMILAR.search(question):  # "are there similar papers?"
            one = len(last.citation_ids) == 1  # its title says what to quote the others on; a set's question
            return Resolved(last.citation_titles[0] if one else last.query, None, True,
                            f"papers like {the_papers(len(last.citation_ids))}"
                            + (f" ({last.citation_titles[0].split(':')[0]})" if one else ""), like=list(last.citation_ids))
        if last and _MORE.match(question):  # "tell me more"
            return Resolved(last.query, list(last.citation_ids), True, the_papers(len(last.citation_ids)),
                            whole_set=True)
        if last:
            one = _THE_ONE.search(question) or _THE_X_ONE.search(question)
            # "the bimanual one", "the one on a specific language" after an answer of one paper pick in the latest
            # answer of several ("which one is about law?" asks it of the one paper)
            described = bool(one) and one.group().lower().startswith("the")
            among = self._latest_of_several(last) if described else last
            ids = list(among.citation_ids)
            which = f"{'the last' if among is last else 'an earlier'} answer's {len(ids)} papers"
            if described and last.within and set(last.within) > set(last.citation_ids):
                # "the one that clusters prefixes" after a subset: any paper of the set the subset chose from
                ids = list(last.within)
                which = f"the {len(ids)} papers the last answer chose from"
            if one and len(ids) > 1 and is_compare(question) and _described_twice(question):
                # "how is the two-arms one different from the one about safety?": both are of the set, compared
                return Resolved(among.query, ids, True, f"{which}, the two it describes among them")
            if one and len(ids) > 1:
                described_as, *asked_of_it = _DESCRIBED.split(question[one.end():], maxsplit=1)
                described_as = _ALTERNATIVE.sub("", described_as)
                about = (_content(one.group("about")) if one.re is _THE_X_ONE else "") \
                    or _content(described_as) or _content(_THE_ONE.sub(" ", rest))
                best = not re.match(r"(?:the|which)\s+one\b", one.group(), re.IGNORECASE)  # "which is the largest?"
                said = _SUPERLATIVE.search(question, one.start()) if best else None
                comparative = bool(said) and not _SUPERLATIVE_WORD.match(said.group())
                how = (f" that is {said.group()} {about}" if said and _MORE_ABOUT.fullmatch(said.group()) and about
                       else f" that is {'' if comparative else 'the '}{said.group()}" if said
                       else f" about {about}" if about else " that fits it best")
                in_general = described and bool(_IN_GENERAL.match(question[:one.start()])) \
                    and not (asked_of_it and _content(asked_of_it[0]))
                return Resolved(about or among.query, ids, True, f"the one of {which}{how}",
                                pick_one=True, superlative=best or bool(_SUPERLATIVE_WORD.search(question, one.end())),
                                in_general=in_general)
            numbered = last
            several = _numbers_named(question, len(last.citation_ids))
            if len(several) < 2 and len(last.citation_ids) == 1:  # "compare the first three" after one paper: the
                numbered = self._latest_of_several(last)  # list before it
                several = _numbers_named(question, len(numbered.citation_ids))
            numbering = numbered.citation_ids
            if len(several) < 2 and last.within and last.within[:len(last.citation_ids)] == last.citation_ids:
                # the best k of a longer set ("how do they differ?" after 81 papers): its numbers go on into the set
                wider = _numbers_named(question, len(last.within))
                if len(wider) > 1:
                    several, numbering = wider, last.within
            if len(several) > 1:  # "compare the first two", "[1] and [3]: how do they differ?"
                remaining = _content(_ORDINAL.sub(" ", _SPAN.sub(" ", _NUMBERED.sub(" ", rest))))
                which = "the last answer" if numbered is last else "an earlier answer"
                return Resolved(remaining or numbered.query, [numbering[n - 1] for n in several], True,
                                f"papers {', '.join(f'[{n}]' for n in several)} of {which}")
            ordinal = _ORDINAL.search(question)
            if ordinal:
                numbered, n = self._numbered(ordinal, last)
                if numbered is not None:
                    remaining = _content(_ORDINAL.sub(" ", rest))
                    which = "the last answer" if numbered is last else "an earlier answer"
                    return Resolved(remaining or numbered.query, [numbered.citation_ids[n - 1]], True,
                                    f"paper [{n}] of {which} ({numbered.citation_titles[n - 1]})",
                                    whole_set=True,  # about that paper: "the second one: what's the result?"
                                    in_general=bool(_IN_GENERAL.match(question[:ordinal.start()]))
                                    and not _content(question[ordinal.end():]))
            # the set the last answer chose a subset from, if it did
            chosen_from = previous.within if previous.within and len(previous.within) > len(previous.citation_ids) else None
            and_which = _AND_WHICH.match(question)
            # or "which one ..." of one, or "and which is about physics?" after a subset: the set it was chosen from
            if _GROUP.search(question) or (one and len(last.citation_ids) == 1) or (and_which and chosen_from):
                group_rest = _THE_ONE.sub(" ", _GROUP.sub(" ", rest))
                negated = _NEGATION.search(group_rest)
                if negated and _content(group_rest[:negated.start()]):  # "about training, not just eval": what
                    group_rest, negated = group_rest[:negated.start()], None  # they are about, then a contrast
                remaining = _content(_NEGATION.sub(" ", group_rest))
                ids, papers = list(last.citation_ids), the_papers(len(last.citation_ids))
                several = self._latest_of_several(last)
                if len(ids) == 1 and _PLURAL.search(question) and several is not last and not chosen_from:
                    # "does any of them use PRMs?" after "tell me more about PoLR": "them" are the papers of the
                    # latest answer of several, not the one paper told about
                    ids, papers = list(several.citation_ids), f"the {len(several.citation_ids)} papers of an earlier answer"
                elif len(ids) == 1 and chosen_from and _THE_ONE.search(last.question) \
                        and (is_compare(question) or re.search(r"\bboth\b", question, re.IGNORECASE)
                             or re.search(r"\b" + _OF_THE_SET, question, re.IGNORECASE)):
                    # "how do they differ? both use RL, no?" after "which one of them is about emotion?": the set
                    # that one was picked from, since one paper is not compared (after "only the ones on math",
                    # which found one, "those two" are not the set it was chosen from); or "which of them ...?",
                    # a subset of that set again
                    ids, papers = list(chosen_from), the_papers(len(chosen_from), chosen_from=True)
                # "what about the ones on physics?" after "which of them evaluate frontier models?": another subset
                # of the same set
                # (or "and which improve stability?" after "which of them improve pass@k?": the same set again)
                sibling = bool((switch or and_which) and chosen_from)
                if sibling:
                    ids, papers = list(previous.within), the_papers(len(previous.within), chosen_from=True)
                if one is not None and one.re is _THE_ONE and len(ids) > 1 and not negated:
                    # "and which one needs the fewest demos?" after a subset of one: the one of the set it chose from
                    return Resolved(remaining or last.query, ids, True, f"the one of {papers}"
                                    + (f" about {remaining}" if remaining else " that fits it best"), pick_one=True,
                                    superlative=bool(_SUPERLATIVE_WORD.search(question, one.end())), sibling=sibling)
                if negated and remaining:
                    return Resolved(remaining, ids, True, f"those of {papers} that are not on {remaining}", exclude=True,
                                    sibling=sibling)
                whole = not _SELECTS.search(question)  # "what do they evaluate on?" asks about each of them
                return Resolved(remaining or last.query, ids, True,
                                f"{'each of ' if whole and remaining and len(ids) > 1 else ''}{papers}"
                                + (f", on {remaining}" if remaining else ""), whole_set=whole, sibling=sibling)
            if len(last.citation_ids) == 1 and _SINGLE.search(question):
                remaining = _content(_SINGLE.sub(" ", rest))
                return Resolved(remaining or last.query, list(last.citation_ids), True,
                                f"the paper of the last answer ({last.citation_titles[0]})",
                                whole_set=not _SELECTS.search(question))  # "only if it uses RL": may be none
        definite = _DEFINITE.search(question) if last else None
        if definite and not is_list(question) and len(_content(_DEFINITE.sub(" ", question)).split()) <= 2:
            # "what is the dataset called?" after an answer: its papers' dataset, not every dataset paper
            return Resolved(_content(question), list(last.citation_ids), True, the_papers(len(last.citation_ids)),
                            whole_set=True, definite=True)
        if _PRONOUN.search(_DETERMINER_PHRASE.sub(" ", question)) and len(_content(question).split()) <= 6:
            query = f"{previous.query} {_content(rest)}".strip()
            return Resolved(query, None, True, f"read with the last question: {query}")
        return Resolved(question, None)

    def _gone_back_to(self, question: str) -> tuple[list["Turn"], str] | None:
        """The turns up to the earlier answer a question goes back to, and what it asks of it: "Going back to the
        robotics/embodied set: which one offers safety guarantees?" -> the turns up to the answer whose query
        shares a word with "robotics/embodied", and "which one offers safety guarantees?"."""
        back = BACK_TO.match(question)
        if back is None:
            return None
        head, sep, rest = (re.split(r"(:|,|" + DASH + ")", question[back.end():], maxsplit=1) + ["", ""])[:3]
        words = {w.lower() for w in re.findall(r"\w[\w-]*", head)} - _SET_WORDS
        if not sep or not rest.strip() or not words:
            return None
        for i in range(len(self.turns) - 1, -1, -1):
            turn = self.turns[i]
            if turn.citation_ids and words & {w.lower() for w in re.findall(r"\w[\w-]*", f"{turn.query} {turn.question}")}:
                return self.turns[:i + 1], rest.strip()
        return None

    def kinds_for(self, plan) -> AskedKinds:
        """The kinds of contribution the answer to ``plan`` holds to: the plan's own, or for a follow-up within
        the last answer, that answer's ("which of them are about law?" after "which papers introduce a
        benchmark?" still holds benchmarks)."""
        if plan.contributions:
            return AskedKinds.of(plan)
        answered = next((t for t in reversed(self.turns) if t.citation_ids), None)  # the set it restricts to
        if plan.restrict_to is not None and answered is not None:
            return answered.kinds
        return AskedKinds()

    def _latest_of_several(self, last: Turn) -> Turn:
        """The latest answer that cited several papers ("what about the third?" after an answer of one counts in
        it), or ``last`` when there is none."""
        return next((t for t in reversed(self.turns) if len(t.citation_ids) > 1), last)

    def _numbered(self, ordinal: re.Match, last: Turn) -> tuple[Turn | None, int]:
        """The answer a paper number refers to, and the number: the last answer's, but after an answer of one
        paper ("summarize the first one") a word ordinal counts in the latest answer of several ("what about
        the third?", "the last one?"), while "[1]" is still the one paper on the screen; a number past the
        end of one answer is tried in the other. (None, 0) when neither has that many papers."""
        several = self._latest_of_several(last)
        order = (several, last) if ordinal.group(1) and len(last.citation_ids) == 1 else (last, several)
        for turn in order[:1] if several is last else order:
            n = _ordinal_number(ordinal, len(turn.citation_ids))
            if 1 <= n <= len(turn.citation_ids):
                return turn, n
        return None, 0

    def _left_out(self, every_pick: bool = False) -> tuple[list[str], int] | None:
        """The papers of an earlier answer that the last one, a subset of it, left out, and how many that
        earlier answer had: the set the last follow-up that chose some of its papers chose from (all of it
        when it chose none: "which of them use a KL penalty?", then "which don't?"), past follow-ups about
        every paper of their set ("which use RL?", "how do those differ?", "which don't?"); else the latest
        answer that holds more than the last one's papers; None when there is none. With ``every_pick`` ("the
        remaining one"), less every paper the follow-ups in a row on that set have picked."""
        turns = [t for t in self.turns if t.kind != "out_of_scope"]
        for at in range(len(turns) - 1, -1, -1):
            turn = turns[at]
            if turn.within is None:
                break
            picked = set(turn.citation_ids)
            if every_pick:  # "the one that uses rationales", then "what about the remaining one?"
                for before in reversed(turns[:at]):
                    if before.within != turn.within:
                        break
                    picked |= set(before.citation_ids)
            rest = [pid for pid in turn.within if pid not in picked]
            if rest:
                return rest, len(turn.within)
        answered = [t for t in self.turns if t.citation_ids]
        if len(answered) < 2:
            return None
        last = set(answered[-1].citation_ids)
        earlier = next((t for t in reversed(answered[:-1]) if last < set(t.citation_ids)), None)
        if earlier is None:
            return None
        return [pid for pid in earlier.citation_ids if pid not in last], len(earlier.citation_ids)


_COUNTS = {"two": 2, "three": 3, "four": 4, "five": 5, "2": 2, "3": 3, "4": 4, "5": 5}
# "the first two", "the last three", "the top 3": a run of the last answer's papers.
_SPAN = re.compile(r"\b(?:the\s+)?(first|last|top)\s+(" + "|".join(_COUNTS) + r")\b(?:\s+(?:ones|papers|results|sources))?",
                   re.IGNORECASE)


def _numbers_named(question: str, count: int) -> list[int]:
    """The citation numbers of the last answer (1..``count``) that ``question`` names, in order:
    "the first two" -> [1, 2]; "the last two" of 5 -> [4, 5]; "[1] and [3]" or "the first and third" -> [1, 3]."""
    span = _SPAN.search(question)
    if span:
        size = min(_COUNTS[span.group(2).lower()], count)
        return list(range(count - size + 1, count + 1)) if span.group(1).lower() == "last" else list(range(1, size + 1))
    named: list[int] = []
    numbers = [int(n) for match in _NUMBERED.finditer(question)
               for n in "".join(c if c.isdigit() else " " for c in match.group(1)).split()]
    for n in numbers + [_ordinal_number(match, count) for match in _ORDINAL.finditer(question)]:
        if 1 <= n <= count and n not in named:
            named.append(n)
    return named


def _ordinal_number(match: re.Match, count: int) -> int:
    """The citation number an ``_ORDINAL`` match names ("second" -> 2, "[3]" -> 3, "the last" -> ``count``); 0
    for none. It may exceed ``count``."""
    word = (match.group(1) or "").lower()
    if word == "last":
        return count
    if word[:1].isdigit():  # "6th"
        return int(word[:-2])
    return _ORDINALS.get(word) or int(match.group(2) or match.group(3) or 0)


# Words that pick some papers of a set ("which of them", "only the ones", "does either of them"); a question
# about a set without them ("what do they evaluate on?", "what are their results?") is about each paper.
# ("just" after its subject is an adverb: "do they need training, or they just plug in?" asks it of each)
_SELECTS = re.compile(r"\b(?:which|whichever|only|(?<!they\s)(?<!\bit\s)(?<!\bwe\s)(?<!you\s)just|any|either|none|"
                      + "|".join(_NARROWING) + r"|the ones?|those (?:that|which|with|about|using|on|in))\b", re.IGNORECASE)
# "which of them don't use RL?", "the ones that are not about math": a subset by what its papers are not.
_NEGATION = re.compile(r"\b(?:not|never|(?:do|does|did|are|is|were|was)n[’']?t|drop|remove|exclude|discard|leave\s+out)\b",
                       re.IGNORECASE)  # "drop the ones that use GRPO"

_FILLER = set("what which who how does do did is are was were the a an of about more tell me please and so ok okay "
              "one ones paper papers work works they them it its this that these those use uses using "
              "either also actually only just really any each both all show give list find "
              "rely relies relying employ employs leverage leverages apply applies adopt adopts involve involves "
              "now keep down cut".split()) | set(_NARROWING)  # what asks, not what about


def _content(text: str) -> str:
    words = [w for w in re.findall(r"\w[\w\-@]*", re.sub(r"['’]s\b", "", text)) if w.lower() not in _FILLER]  # "Pass@k"
    while words and words[-1].lower() in _TRAILING:  # "what do they evaluate on?" -> "evaluate"
        words.pop()
    while words and words[0].lower() in _TRAILING:  # "which of them relies on RL?" -> "RL", not "on RL"
        words.pop(0)
    return " ".join(words)


_TRAILING = {"on", "in", "of", "for", "with", "to", "from", "by", "at", "about", "like"}
