"""The structure rules of a follow-up: the words by which a question points at the last answer's papers ("those",
"the second one", "papers 6 and 9", "the one about X"), asks for more of them or for others, narrows them or sets some
aside. ``Conversation`` resolves a turn with them.
"""

from __future__ import annotations

import re

from .question_text import DASH
from ..query_words import topic_runs


_ORDINALS = {word: n for n, word in enumerate(
    "first second third fourth fifth sixth seventh eighth ninth tenth eleventh twelfth thirteenth fourteenth "
    "fifteenth sixteenth seventeenth eighteenth nineteenth twentieth".split(), 1)}
_ORDINAL_NUMBER = r"\d{1,3}(?:st|nd|rd|th)"  # "6th", "21st": a page holds up to 100 papers
ORDINAL = re.compile(r"\b(?:the\s+)?(" + "|".join(_ORDINALS) + r"|" + _ORDINAL_NUMBER + r"|last)\s*(?:one|paper|result|source|work)?\b"
                      r"|\[(\d+)\]|\b(?:paper|source|number|no\.?|#)\s*(\d+)\b", re.IGNORECASE)
# "papers 6 and 9", "sources 2, 5 and 7": the numbers after a plural
NUMBERED = re.compile(r"\b(?:papers|sources|numbers|nos\.?)\s+(\d+(?:\s*(?:,|and|&|or)\s*\d+)+)\b", re.IGNORECASE)
# Words that point at an earlier answer's papers, in every question that leans on one ("these papers", "the
# ones", "each of them", "do they", "what did they"); ``GROUP`` and ``_REFERS`` add their own.
_POINTING = (r"\b(?:those|these)\s+(?:papers|ones|works|methods)\b|(?<!\bnot\s)(?<!\bexcept\s)(?<!\bexcluding\s)\b(?:only\s+)?the\s+ones\b"
             r"|^\s*(?:just|only)\s+the\s+(?=[\w-]+(?:\s+[\w-]+)?\s+ones\b)"  # "just the image ones"
             r"|\b(?:either|any|each|both|none)\s+of\s+(?:them|those|these)\b|\bdo\s+(?:they|any of them)\b"
             r"|\b(?:how|where|why|what)\s+(?:do|did)\s+(?:they|those|these|the\s+(?:two|three|four|five)|both)\b"
             # the same said without "do" or "the": "how they are different?", "only ones tested on math"
             r"|\bhow\s+(?:they|those|these|both|the\s+two)\s+(?:are\s+|were\s+)?(?:differ|different|compare)\b"
             r"|^\s*(?:just|only)\s+ones\b")
_NARROWING = ("filter", "narrow", "restrict", "limit")  # "filter to the ones about agents": a subset
GROUP = re.compile(_POINTING + r"|\b(?:out\s+of|of|among|from|between)\s+(?:those|these|them|the above|the\s+(?:two|three|four|five))\b"
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
AND_WHICH = re.compile(r"^\s*(?:and|also)\s+which\b(?!\s+(?:of|among)\b)", re.IGNORECASE)
# What "going back to the robotics set" calls the answer, besides its topic
SET_WORDS = frozenset("the a an set list papers paper ones answer answers earlier first last previous question topic one "
                       "of on about".split())
# A reference to several papers, which one paper cannot be: "any of them", "which of those", "these"
PLURAL = re.compile(r"\b(?:them|those|these|they|ones)\b", re.IGNORECASE)


# "Going back to NuRL: what did they find?": the paper it names again, whatever "they" of the last answer says
BACK_TO = re.compile(r"^\s*(?:(?:ok(?:ay)?|so|and|now)[,\s]+)?(?:going|coming|getting)?\s*back\s+to\b|^\s*returning\s+to\b",
                     re.IGNORECASE)
# "is Lean4PHYS among them?": whether a paper the question names is one of the last answer's.
MEMBERSHIP = re.compile(r"\b(?:among|one\s+of|part\s+of|in|included\s+in)\s+(?:them|those|these|the\s+list|the\s+(?:last\s+)?answer)\b"
                        r"|\bincluded\b", re.IGNORECASE)
GROUP_REFERENCE = re.compile(r"\b(?:them|those|these|they|their|ones|either|both|\[\d+\])\b|\b(?:first|second|third|last)\s+one\b",
                             re.IGNORECASE)
SWITCH = re.compile(r"^\s*(?:switching topics?[:,]?\s*|(?:and|but|now|ok(?:ay)?|so)[,]?\s+(?:what|how)\s+about\s+"
                     r"|(?:(?:and|now|ok(?:ay)?|so)[,]?\s+)?(?:the\s+)?same\s+(?:question\s+|thing\s+)?(?:but\s+)?(?:for|on|about|in|with)\s+"
                     r"|(?:(?:and|so)[,]?\s+)?(?:any|anything|something|some|ones?)\s+(?:(?:similar|like\s+(?:that|this|those)|"
                     # "any on physics?", "anything along those lines for physics?"
                     r"along\s+(?:those|these|the\s+same)\s+lines)\s+)?(?:on|about|for|in)\s+"
                     r"|(?:what|how)\s+about\s+|(?:and|now)\s+(?:for|on|about|in)\s+"
                     r"|(?:ok(?:ay)?,?\s+)?(?:and|so)[,]?\s+(?:anything|any\s+papers?|something)\s+(?:(?:that|which)\s+(?=\w+s\b)|(?=using\b))"
                     r"|and\s+(?=[\w\-]+(?:\s+[\w\-]+){0,2}\s*[?.!]*\s*$))", re.IGNORECASE)  # "and chemistry?"
# A topic switch said before a whole question whose "them" is that topic: "And for vision-language models -- which
# papers train them with RL?" asks "which papers train vision-language models with RL?", of the whole store
SWITCH_THEN_ASKED = re.compile(r"^\s*(?:(?:and|now|so|ok(?:ay)?)[,]?\s+)?(?:(?:what|how)\s+about|for|on|in)\s+"
                                r"(?P<topic>[^—–:?,;]{2,60}?)\s*(?:\s-+\s|—|–|:|,)\s*(?P<asked>(?:which|what)\s+(?:papers?|works?|"
                                r"methods|ones)\s+[^?]*\b(?:them|they|their)\b[^?]*\??)\s*$", re.IGNORECASE)
THEM = re.compile(r"\b(?:them|they)\b", re.IGNORECASE)
OF_THE_SET = r"(?:of|among)\s+(?:them|those|these|the\s+two|both)\b"  # "which of those is ...": one of them
THE_ONE = re.compile(r"\b(?:the|which)\s+one\b(?:\s+(?:about|on|using|that|which|with|where|who))?"
                      r"|\bwhich\s+(?:one\s+|" + OF_THE_SET + r"\s+)?(?:is|was)\s+(?:the\s+)?(?:most|least|best|worst|(?=\w{2,}est\b))"  # "the largest"
                      # "which is cheaper?", "which of those is more about frames?"
                      r"|\bwhich\s+(?:one\s+|" + OF_THE_SET + r"\s+)?(?:is|was)\s+(?:more|less|better|worse|(?=\w{3,}er\b(?!\s+than)))",
                      re.IGNORECASE)
SUPERLATIVE = re.compile(r"\b(?:most|least|more|less)\s+[\w-]+|\b(?:best|worst|better|worse)\b(?:\s+[\w-]+)?|\b\w{2,}est\b"
                          r"|\b\w{3,}er\b", re.IGNORECASE)
# a superlative, not a comparative ("cheaper", "more X"): "the fewest demos" asks for one, never none
SUPERLATIVE_WORD = re.compile(r"\b(?:most|least|best|worst|\w{2,}est)\b", re.IGNORECASE)


def described_twice(question: str) -> bool:
    """Whether a question describes two papers of a set ("the two-arms one ... the one about safety")."""
    spans = sorted({m.span() for pattern in (THE_X_ONE, THE_ONE) for m in pattern.finditer(question)})
    apart = [span for i, span in enumerate(spans) if i == 0 or span[0] >= spans[i - 1][1]]
    return len(apart) >= 2


# What a pick sets the one it asks for against: "which of those is more about frames vs. dropping tokens?" asks
# for the one on frames
ALTERNATIVE = re.compile(r"\s+(?:vs\.?|versus|rather\s+than|instead\s+of|as\s+opposed\s+to|than)\s.*$", re.IGNORECASE | re.DOTALL)
MORE_ABOUT = re.compile(r"(?:more|less)\s+(?:about|on|into|of|for|with|in)", re.IGNORECASE)  # "more about", said of a topic
# Where the description of "the one that ..." ends and what is asked of it begins: "the one that clusters short
# prefixes: what does it achieve?", "the one using Lean — how big is it?"
DESCRIBED = re.compile(r"\s*(?::|" + DASH + r"|\?|;)\s*|,\s*(?=(?:what|how|which|does|do|is|are|can|tell)\b)", re.IGNORECASE)
# What asks about one paper as a whole, before the words that pick it: "tell me more about the one using a Siamese
# design", "summarize the Lean one". Not "which one ...", which asks which.
IN_GENERAL = re.compile(r"^\s*(?:(?:and|so|ok(?:ay)?|great|thanks|now),?\s+)*(?:(?:please\s+)?(?:tell|show)\s+me\s+"
                         r"(?:a\s+(?:bit|little)\s+|some\s+)?(?:more\s+)?about|(?:what|how)\s+about|more\s+(?:on|about)|"
                         r"(?:please\s+)?(?:describe|summari[sz]e|explain)|what(?:'s|\s+is)|details\s+(?:on|of|about))?\s*$",
                         re.IGNORECASE)
# "the Lean one: what does it contain?", "the physics one": the paper of the set on that
THE_X_ONE = re.compile(r"\bthe\s+(?!(?:" + "|".join(_ORDINALS) + "|" + _ORDINAL_NUMBER + r"|last|other|next|same|only|right|"
                        r"best|worst|new|old|latest|earlier|later|previous)\b)(?P<about>[\w-]+(?:\s+[\w-]+)?)\s+one\b", re.IGNORECASE)
# "what about the other ones?", "and the rest?", "and the other one?": the papers of the answer before the last that
# it left out.
OTHERS = re.compile(r"\b(?:the\s+)?(?:other|remaining)\s+(?:ones?|papers?|works?)\b|\bthe\s+others?\s*[?.!]*\s*$|\bthe\s+others\b|\bthe\s+rest\b"
                     r"|^\s*(?:and\s+)?(?:which|what about the ones that|the ones that)\s+(?:don[’']?t|do\s+not|doesn[’']?t|"
                     r"does\s+not|aren[’']?t|are\s+not|isn[’']?t|is\s+not)\s*[?.!]*\s*$", re.IGNORECASE)  # "which don't?"
# "are there others on physics?", "any other papers about law?": a new search, without the last answer's papers
ONE_LEFT = re.compile(r"\bthe\s+(?:other|remaining|last\s+remaining)\s+one\b", re.IGNORECASE)
OTHERS_ON = re.compile(r"^\s*(?:(?:and|so|ok(?:ay)?)[, ]+)?(?:are there |is there |what about |how about |show me |find |list "
                        r"|anything |any |who |what )?(?:any |some )?(?:others?|other (?:papers?|works?|ones|studies|research)|"
                        r"more papers?|else)(?:\s+(?:works?|is\s+working|has\s+worked|writes?|is\s+there))?"  # "who else works on X?"
                        r"\s+(?:on|about|in|for|using|with|related to)\s+(?P<topic>[^?!]+?)\s*[?.!]*\s*$",
                        re.IGNORECASE)
# "add CRISP to the comparison", "include THINKMERGE too": the last answer's papers, and the one it names
ADD_TO = re.compile(r"^\s*(?:(?:and|now|ok(?:ay)?|also|please)[, ]+)*(?:add|include|bring\s+in|throw\s+in)\s+\S.*?"
                     r"(?:\s+(?:to|into|in)\s+(?:the\s+)?(?:comparison|table|list|them|it|this|these|those)|\s+too|\s+as\s+well)?"
                     r"\s*[?.!]*\s*$", re.IGNORECASE)
# "any others?", "anything else?": a new search on the last topic, without the last answer's papers
ANY_OTHERS = re.compile(r"^\s*(?:(?:and|so|ok(?:ay)?)[, ]+)?(?:are\s+there\s+|is\s+there\s+)?(?:any\s+|some\s+)?(?:others?|"
                         r"other\s+(?:papers|ones|works)|anything\s+else|any\s+more|more\s+(?:papers|ones))\s*[?.!]*\s*$",
                         re.IGNORECASE)
# "now show me benchmarks on this topic": the last question's topic, said again
THIS_TOPIC = re.compile(r"\b(?:on|about|for|in|to)\s+(?:this|that|the\s+same)\s+(?:topic|subject|area|theme|problem)\b",
                         re.IGNORECASE)
# "are there similar papers?", "anything related?", "more like this": the papers closest to the last answer's
SIMILAR = re.compile(r"^\s*(?:(?:and|so|ok(?:ay)?)[, ]+)?(?:are there |is there |any |anything |find |show me |what are |"
                      r"give me |list )?(?:(?:any|some|other|more)\s+)*(?:similar|related)(?:\s+(?:papers?|works?|research|"
                      r"ones|studies))?(?:\s+to\s+(?:it|this|that|these|those|them|this one|that one))?\s*[?.!]*\s*$"
                      r"|\b(?:papers?|works?|anything|more|others?)\s+(?:like|similar\s+to)\s+(?:it|this|that|these|those|"
                      r"them)(?:\s+one)?\s*[?.!]*\s*$", re.IGNORECASE)
# "tell me more", "more details": about each paper of the last answer, asking nothing new
MORE = re.compile(r"^\s*(?:(?:please|ok(?:ay)?|and)[, ]+)?(?:tell me more|more(?: details| info(?:rmation)?)?|go on|"
                   r"elaborate|details)\s*(?:please)?\s*[.!?]*\s*$", re.IGNORECASE)
# "what is the dataset called?", "what are the main results?": the last answer's paper(s) by what any paper has
DEFINITE = re.compile(r"\bthe\s+(?:main\s+|key\s+|proposed\s+|new\s+|headline\s+|reported\s+|final\s+)?"
                       r"(?:datasets?|benchmarks?|models?|methods?|approach(?:es)?|frameworks?|results?|findings?|"
                       r"contributions?|limitations?|ideas?|architectures?|algorithms?|tasks?|experiments?|baselines?|"
                       r"metrics?|code|evaluations?|accuracy|speed-?ups?|improvements?|gains?|authors?)\b", re.IGNORECASE)
SINGLE = re.compile(r"\b(?:it|its|this paper|that paper|this one|that one|this work|that work)\b", re.IGNORECASE)
# "in RL this year?", "what's new this week?": a demonstrative before the question's last word, which is no word for
# an answer's papers, is that word's determiner, not a pointer to the last answer ("is that trained?" still points)
DETERMINER_PHRASE = re.compile(r"\b(?:this|that|these|those)\s+(?!(?:papers?|ones?|works?|methods?|approach(?:es)?|"
                                r"models?|results?|stud(?:y|ies)|techniques?|frameworks?|ideas?|benchmarks?|datasets?)\b)"
                                r"[a-z]+(?<!ed)\s*[?.!]*\s*$", re.IGNORECASE)
PRONOUN = re.compile(r"\b(?:they|them|their|it|its|this|that|these|those|more|else|also)\b", re.IGNORECASE)
FOLLOW_FRAME = re.compile(r"^\s*(?:and\s+|so\s+|ok(?:ay)?,?\s+)?(?:what|how)\s+about\s+|^\s*tell me more(?: about)?\s*"
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
    if OTHERS_ON.match(question):  # "are there other papers on Lean?" says what to search
        return False
    return bool(SIMILAR.search(question) or MORE.match(question) or OTHERS.search(question)
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


_COUNTS = {"two": 2, "three": 3, "four": 4, "five": 5, "2": 2, "3": 3, "4": 4, "5": 5}
# "the first two", "the last three", "the top 3": a run of the last answer's papers.
SPAN = re.compile(r"\b(?:the\s+)?(first|last|top)\s+(" + "|".join(_COUNTS) + r")\b(?:\s+(?:ones|papers|results|sources))?",
                   re.IGNORECASE)


def numbers_named(question: str, count: int) -> list[int]:
    """The citation numbers of the last answer (1..``count``) that ``question`` names, in order:
    "the first two" -> [1, 2]; "the last two" of 5 -> [4, 5]; "[1] and [3]" or "the first and third" -> [1, 3]."""
    span = SPAN.search(question)
    if span:
        size = min(_COUNTS[span.group(2).lower()], count)
        return list(range(count - size + 1, count + 1)) if span.group(1).lower() == "last" else list(range(1, size + 1))
    named: list[int] = []
    numbers = [int(n) for match in NUMBERED.finditer(question)
               for n in "".join(c if c.isdigit() else " " for c in match.group(1)).split()]
    for n in numbers + [ordinal_number(match, count) for match in ORDINAL.finditer(question)]:
        if 1 <= n <= count and n not in named:
            named.append(n)
    return named


def ordinal_number(match: re.Match, count: int) -> int:
    """The citation number an ``ORDINAL`` match names ("second" -> 2, "[3]" -> 3, "the last" -> ``count``); 0
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
SELECTS = re.compile(r"\b(?:which|whichever|only|(?<!they\s)(?<!\bit\s)(?<!\bwe\s)(?<!you\s)just|any|either|none|"
                      + "|".join(_NARROWING) + r"|the ones?|those (?:that|which|with|about|using|on|in))\b", re.IGNORECASE)
# "which of them don't use RL?", "the ones that are not about math": a subset by what its papers are not.
NEGATION = re.compile(r"\b(?:not|never|(?:do|does|did|are|is|were|was)n[’']?t|drop|remove|exclude|discard|leave\s+out)\b",
                       re.IGNORECASE)  # "drop the ones that use GRPO"

_FILLER = set("what which who how does do did is are was were the a an of about more tell me please and so ok okay "
              "one ones paper papers work works they them it its this that these those use uses using "
              "either also actually only just really any each both all show give list find "
              "rely relies relying employ employs leverage leverages apply applies adopt adopts involve involves "
              "now keep down cut".split()) | set(_NARROWING)  # what asks, not what about


def content(text: str) -> str:
    words = [w for w in re.findall(r"\w[\w\-@]*", re.sub(r"['’]s\b", "", text)) if w.lower() not in _FILLER]  # "Pass@k"
    while words and words[-1].lower() in _TRAILING:  # "what do they evaluate on?" -> "evaluate"
        words.pop()
    while words and words[0].lower() in _TRAILING:  # "which of them relies on RL?" -> "RL", not "on RL"
        words.pop(0)
    return " ".join(words)


_TRAILING = {"on", "in", "of", "for", "with", "to", "from", "by", "at", "about", "like"}
