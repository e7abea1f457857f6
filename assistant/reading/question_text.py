"""What a question asks, without what surrounds it: ``asked`` takes off lead-ins ("ok so"), what the asker
says of themselves, labels ("Agents: which ..."), remarks after the question and asides in parentheses.
"""

from __future__ import annotations

import re

from ..query_words import GENERAL_HEADS, NOT_TOPIC_WORDS
from .contribution_words import KIND_WORDS, NOT_SETTING_ASIDE
from .examples import NOT_A_TOPIC
from .question_forms import COMPARISON_WORD, FOR_ALL, NAME_LIKE, is_list


REFERENCES = {"it", "this", "that", "this one", "that one", "this paper", "that paper", "they", "them", "these",
               "those", "both", "each", "either"}  # what a comparison calls the last answer's papers
_BACK_TO_IT = re.compile(r"\b(?:it|its|they|their|them|this\s+(?:one|paper|method))\b", re.IGNORECASE)
_ABOUT_THE_ASKER = re.compile(r"^\s*(?:(?:so|ok(?:ay)?|well|hmm+|and)[,\s]+)?(?:i|i'm|i am|we|we're|we are|my|our|as\s+(?:a|an)|"
                              r"(?:currently\s+)?(?:writing|working\s+on|preparing|reviewing))\b[^;?]*?(?:;|[.!:](?=\s))\s*(?P<asked>"
                              r"(?:which|what|are|is|do|does|did|any|how|can|could|show|list|find|give|get)\b[^;]+)$",
                              re.IGNORECASE)


# The same request said again after a comma, and "in general": "what about robots then in general, list all the robot
# ones" asks for robot papers
_LIST_THEM_ALL = re.compile(r"\s+in\s+general\b(?=\s*[,?.!]|\s*$)|,\s*(?:and\s+)?(?:please\s+)?(?:list|show|give)\s+(?:me\s+)?"
                            r"(?:all|every)\s+(?:of\s+)?(?:the\s+)?(?:[\w-]+\s+){0,2}?(?:ones|papers|of\s+them)\s*[.!?]*\s*$",
                            re.IGNORECASE)
# A kind of thing other than one of them is a property, not a set of papers left out: "languages other than English"
# asks for non-English languages, as does "languages that are not English" ("papers on video other than long video"
# leaves out the papers on long video)
_OTHER_THAN = re.compile(r"\b(?P<kind>languages?|modalities|domains|tasks|inputs)\s+(?:other\s+than|besides|"
                         r"(?:that|which)\s+(?:is|are)(?:\s+not|n't))\s+(?P<other>[\w-]+)",
                         re.IGNORECASE)
# The question asked again in a word after it: "... a variant of it. Which papers are those?"
_WHICH_ARE_THEY = re.compile(r"(?<=[?.!])\s*(?:so\s+)?(?:which|what)\s+(?:papers|ones|works)\s+(?:are\s+(?:those|these|they|there))"
                             r"\s*[?.!]*\s*$", re.IGNORECASE)
# "Multilingual, cross-lingual, low-resource, anything like that": examples, not a follow-up asking for similar papers
# ", that sort of thing", ", whatever", "etc.": the examples before it are all the question gives
_LIKE_THAT = re.compile(r"(?:,\s*(?:or\s+|and\s+)?(?:anything|something|stuff|things)\s+(?:like\s+(?:that|this)|similar|along\s+those\s+lines)"
                        r"|(?:,\s*|\s+)(?:or\s+|and\s+)?(?:that|this)\s+(?:(?:sort|kind|type)\s+of|kinda|sorta)\s+(?:thing|stuff)"
                        r"|(?:,\s*(?:or\s+)?|\s+or\s+)whatever|(?:,\s*|\s+)(?:etc\.?|and\s+so\s+on|and\s+the\s+like|or\s+similar))"
                        r"\s*[.!?]*\s*$", re.IGNORECASE)
# "..., like a model that can listen": a kind described again in other words, naming no instance of it (``examples``)
# and adding words no abstract uses ("listen" beside "audio or speech"). Not "e.g. a system that browses the web",
# which gives an instance.
_LIKE_A_KIND = re.compile(r"(?:,\s*|\s+)like\s+(?:a|an|the|some|any)\s+(?:"
                          + "|".join(sorted(GENERAL_HEADS)) + r")\s+(?:that|which|who)\s+[^,;.?!()]+(?=[.!?]*\s*$)",
                          re.IGNORECASE)
_LISTED_AFTER = re.compile(r"^(?P<asked>[^?]{8,})\?\s+(?P<items>(?!(?:which|what|who|how|why|when|where|is|are|do|does|can|could|if|and|"
                           r"but|only|not|no)\b)[\w-]+(?:\s+[\w-]+){0,3}(?:,\s*(?:or\s+|and\s+)?[\w-]+(?:\s+[\w-]+){0,3}){1,6})"
                           r"\s*[.!]?\s*$", re.IGNORECASE)
DASH = r"(?:—|–|\s-\s)"  # a dash between clauses: an em or en dash, or a hyphen with spaces around it
# A question after a dash or colon typed without its question mark: "ai that watches long videos - what's there"
_UNMARKED_QUESTION = re.compile(r"\S\s*(?:" + DASH + r"|:)\s*(?:what(?:'s|\s+is)\s+(?:out\s+)?there|which|any|anything|are\s+there|is\s+there)\b"
                                r"(?:[^?]*[^?\s])?\s*$",
                                re.IGNORECASE)
# A lead-in that a whole question after a dash restates: "ok and what about audio — are there papers on audio or
# speech language models?" asks the question after the dash.
_LEAD_IN = re.compile(r"^\s*(?:(?:ok(?:ay)?|so|and|now|also|well|hmm+)[,\s]+)*(?:(?:what|how)\s+about\s+[^—–?]{1,40}?|"
                      r"(?:ok(?:ay)?|so|and|now|next|also))\s*(?:" + DASH + r"|:)\s*(?P<asked>[^—–]+)$", re.IGNORECASE)
# A label before the question that asks it again: "grpo variants / fixes - which papers propose a modified grpo?"
_LABEL = re.compile(r"^\s*(?P<label>[^—–:?.!;]{2,60}?)\s*(?:" + DASH + r"|:)\s*(?P<asked>(?:which|what|who|are|is|any|do|does)\b[^—–:]+)$",
                    re.IGNORECASE)
# A label before a request that says what the request leaves out: "Excluding purely empirical work: every paper that ..."
_LABELLED_REQUEST = re.compile(r"^\s*(?P<label>[^—–:?.!;]{3,50}?)\s*:\s*(?P<asked>(?:every|all|each|which|what|list|show|give|"
                               r"find|any|papers?)\b[^:]+)$", re.IGNORECASE)
_SET_ASIDE_LABEL = re.compile(r"^(?:excluding|except(?:\s+for)?|not|no|without|other\s+than|leaving\s+out)\s+\S", re.IGNORECASE)


# What a question first sets beside what it asks: "Beyond theorem proving, is there work that ...?" asks only the rest
# (that is no exclusion: "besides accuracy, which papers measure cost?" does not set accuracy papers aside)
_BESIDE = re.compile(r"^\s*(?:beyond|besides|apart\s+from|aside\s+from|in\s+addition\s+to|on\s+top\s+of)\s+[^,;:?]{2,60},\s*"
                     r"(?=(?:is|are|do|does|which|what|who|any|anything|every|all|list|show|find|give|papers?)\b)", re.IGNORECASE)


def _with_the_label(question: str) -> str:
    """A labelled request said as one question: "Excluding X: every paper that Y" is "every paper that Y, excluding
    X" (the scope of the exclusion is the whole request)."""
    found = _LABELLED_REQUEST.match(question)
    if not found or not _SET_ASIDE_LABEL.match(label := found.group("label").strip()):
        return question
    return f"{found.group('asked').strip().rstrip(' ?.!')}, {label[0].lower()}{label[1:]}?"


# A word of acknowledgement before a follow-up: "ok and for video?", "great, now which of them use RL?"
_INTERJECTION = re.compile(r"^\s*(?:ok(?:ay)?|alright|all\s+right|great|thanks|thank\s+you|cool|nice|hmm+|got\s+it|i\s+see|hey|hi|hello)"
                           r"\s*[,.!]?\s+(?=(?:and|what|how|which|now|then|so|but|only|also|tell|show|compare|are|is|do|does|"
                           r"can|could|any|anything|papers|list|find|give|who|where)\b)", re.IGNORECASE)  # "hi, are there ..."
# What the asker wants the answer for, before the question: "For a survey on multimodal reasoning: which papers ...",
# "For my thesis, which papers use Lean?", "To seat reviewers with alignment expertise, enumerate every paper ...".
# Its topic is the asker's, not the question's (a "survey" asks for none). Not a clause that goes on to say
# something ("For a safety project we keep hearing about VIRF; what does it do?").
_PURPOSE_NOUNS = (r"survey|review|thesis|dissertation|paper|project|talk|lecture|course|section|paragraph|report|proposal|post|"
                  r"class|seminar|group|grant|chapter|tutorial|session|track|workshop|panel|meeting|piece|article|newsletter|"
                  r"deck|slides|discussion|roundup|overview|reading\s+list")
# What a request after it starts with: a question, or words asking for the papers ("I need every submission whose ...")
_REQUEST = (r"(?=(?:which|what|are|is|do|does|any|how|can|could|show|list|find|give|get|who|enumerate|identify|name|collect|"
            r"gather|point|please|i\s+(?:need|want|would\s+like)|i'd\s+like|we\s+(?:need|want))\b)")
_PURPOSE = re.compile(r"^\s*(?:(?:for|as\s+part\s+of)\s+(?:a|an|my|our|the)\s+(?:[\w-]+\s+){0,3}?(?:" + _PURPOSE_NOUNS + r")\b"
                      r"|to\s+(?!(?:what|which|how|whom|this|that|the|these|those)\b)(?:help\s+)?[a-z]+\s+(?:[\w'-]+\s+){0,8}?[\w'-]+(?=,))"  # "To seat reviewers with alignment expertise, ..."
                      r"(?:(?!\b(?:we|i|i'm|we're|you)\b)[^;?])*?(?:[,;:]|[.!](?=\s)|(?=\s+(?:i|we)\s+(?:need|want)\b))\s*" + _REQUEST,
                      re.IGNORECASE)  # "For the test-time scaling paragraph I need every paper that ..."
# "Separate question: anything on CLIP?", "New topic - papers on robots": what the message says of the question
_NEW_QUESTION = re.compile(r"^\s*(?:(?:(?:a|one|another|separate|new|different|unrelated|other)\s+)+(?:question|topic|thing|one)|"
                           r"switching\s+(?:gears|topics?)|changing\s+(?:the\s+)?(?:subject|topic)|on\s+another\s+note)\s*"
                           r"(?:[:;,.!-]|—|–)\s*", re.IGNORECASE)


_ANSWERING = frozenset("qualify qualifies fit fits count counts match matches exist exists apply applies ones out available "
                       "anything something".split())
# What a remark after the question may say and still ask nothing of its own: "? I'd like to see everything in that
# space.", "— need every one of them for my related work section", "? want the full list"
_REMARKING = frozenset("""
every each all one ones full whole complete list them those these they like space area field topic topics related section
survey review thesis chapter report project talk lecture course proposal grant blog post reading overview
""".split())
_AFTER_THE_QUESTION = re.compile(r"(?:(?<=[?.!])\s+|\s*" + DASH + r"\s*)(?P<remark>(?!(?:which|what|who|how|is|are|do|does|can|could|"
                                 r"any|not|no|but|only|except)\b)[^?.!—–]+?)[?.!]*\s*$", re.IGNORECASE)  # not a question of its own ("What's there?")
# What the question sets aside, said after it: "? not the mllm stuff", ". Not the RL ones."
# ("not sure" is no set): the papers said as "the X", "any X" or "X stuff / ones / papers"
_NOT_AFTER = re.compile(r"(?<=[?.!])\s+(?:but\s+)?not\s+(?:(?:the|any)\s+(?P<topic>[\w/-]+(?:\s+[\w/-]+){0,3}?)"
                        r"(?:\s+(?:stuff|ones|papers|work|things))?|(?P<kind>[\w/-]+(?:\s+[\w/-]+){0,2}?)\s+(?:stuff|ones|papers|things))"
                        r"(?P<where>\s+(?:in|on|about|with|using|for)\s+[\w/-]+(?:\s+[\w/-]+){0,2})?"  # ". Not the formal proof ones in Lean."
                        r"\s*[.!?]*\s*$", re.IGNORECASE)
# What the question sets aside after it, said as what does not count: "; inference-time pruning of traces doesn't count",
# "; evaluation-only benchmarks are out"
_OUT_AFTER = re.compile(r"(?:(?<=[?.!])|\s*;)\s*(?P<topic>[^?.!;]+?)\s+(?:(?:doesn't|does\s+not|don't|do\s+not)\s+count|"
                        r"(?:is|are)\s+(?:out|excluded|out\s+of\s+scope))\s*[.!?]*\s*$", re.IGNORECASE)
# What the question sets aside in a sentence of its own: "? Please exclude methods based purely on SFT.", "; exclude
# architectures whose layers merely solve an optimization problem in the forward pass". Not searched; nor taken for a
# topic whose papers the list leaves out (``left_out_topic``): such a sentence describes a property ("exclude papers
# that only generate videos"), and the papers nearest it in meaning are often those asked for (over the sets of
# tests/data, leaving them out lost 2 right papers of "long-video understanding ...; exclude papers that only
# generate videos" and removed 1 wrong one).
_EXCLUDED_AFTER = re.compile(r"(?:(?<=[?.!;])|\s*;)\s*(?:please\s+)?(?:exclude|excluding|leave\s+out|omit|skip|ignore)\s+"
                             r"(?P<topic>[^?.!;]+?)\s*[.!?]*\s*$", re.IGNORECASE)


def _but_not(question: str, said_after: re.Match, topic: str) -> str:
    """The question before what ``said_after`` sets aside, with ``topic`` set aside as a list question does it."""
    return f"{question[:said_after.start()].rstrip(' ?.!,;')}, but not {topic}?"


# How the asker wants the list laid out, which says nothing of what is in it: ", grouped by whether they need any
# training", "grouped by post-training vs quantization-aware methods" (the answer groups by topic or kind itself)
_GROUPED_BY = re.compile(r"\s*(?:,|;|\s+-+|\s+[—–])?\s*\b(?:grouped|organi[sz]ed|sorted|split|broken\s+down|clustered)\s+"
                         r"(?:by|according\s+to|into)\s+[^?.!;]*", re.IGNORECASE)


def _without_remarks(question: str) -> str:
    """``question`` without the remarks after it that ask nothing of their own (``_REMARKING``), still a question if
    the remark asked it ("cut reasoning cost - papers?") or asked for them all ("lean papers — need every one of
    them" is "lean papers?")."""
    while (found := _AFTER_THE_QUESTION.search(question)) and not has_content(found.group("remark"), _REMARKING) \
            and has_content(question[:found.start()]):
        head = question[:found.start()].rstrip(" ,;:")
        asks = question.rstrip().endswith("?") or FOR_ALL.search(found.group("remark"))
        question = head + "?" if asks and not head.endswith("?") else head
    return question


# A comparison asked in a word after an answer: "diff?", "differences?", "and the difference?", "compare?"
_BARE_COMPARISON = re.compile(r"^\s*(?:(?:ok(?:ay)?|so|and|hmm+|then|now)[,\s]+)*(?:(?:what'?s|what\s+is|what\s+are)\s+)?"
                              r"(?:the\s+|any\s+)?(?:diffs?|" + COMPARISON_WORD + r")"
                              r"\s*[?.!]*\s*$", re.IGNORECASE)


# A kind set aside in parentheses after methods, which makes method the kind asked: "methods (not benchmarks) for X"
_KIND_IN_PARENS = re.compile(r"(?<=\bmethods)\s*\(((?:" + NOT_SETTING_ASIDE + r"|rather\s+than|instead\s+of|but\s+not|other\s+than)"
                             r"\s+(?:\w+\s+){0,2}?(?:" + KIND_WORDS + r"))\)", re.IGNORECASE)
# What a question sets aside in parentheses: "method (not benchmark) submissions on theorem proving", "papers
# (rather than blog posts) on X"; no topic to search, and no kind asked
_ASIDE_IN_PARENS = re.compile(r"\s*\((?:" + NOT_SETTING_ASIDE + r"|no|except|excluding|rather\s+than|instead\s+of|but\s+not|"
                              r"other\s+than)\b[^(),]*\)", re.IGNORECASE)  # not "(not video, just images)", which says what it wants too


def asked(question: str) -> str:
    """The question a message asks, without what the asker first says of their own work; or that statement,
    when the question after it asks nothing of its own ("I'm interested in methods that shorten outputs.
    What's there?")."""
    if _BARE_COMPARISON.match(question):
        return "how do they differ?"
    question = _KIND_IN_PARENS.sub(r", \1,", question)  # "methods (not benchmarks) for X": the kind set aside is said
    question = _ASIDE_IN_PARENS.sub("", question)
    question = re.sub(r"\bbut\s+please\s+not\b", "but not", question, flags=re.IGNORECASE)  # "..., but please not the ones on RL"
    if _UNMARKED_QUESTION.search(question):  # "ai that watches long videos - what's there": asked, with no "?"
        question = question.rstrip(" .!") + "?"
    for said_around in (_NEW_QUESTION, _PURPOSE, _LIST_THEM_ALL, _WHICH_ARE_THEY, _LIKE_THAT,
                        _LIKE_A_KIND):
        said = said_around.sub("", question) or question  # what the message says around its question
        if said_around in (_LIKE_THAT, _LIST_THEM_ALL) and said != question and "?" not in said:
            said += "?"  # "non-attention seq models, mamba rnn etc": a fragment that lists asks for all of them
        question = said
    set_aside = _NOT_AFTER.search(question)  # "...? not the mllm stuff": "..., but not mllm?"
    if set_aside and has_content(question[:set_aside.start()]):
        topic = (set_aside.group("topic") or set_aside.group("kind")) + (set_aside.group("where") or "")
        question = _but_not(question, set_aside, topic)
    out = _OUT_AFTER.search(question)  # "...; X doesn't count": "..., but not X?"
    if out and has_content(question[:out.start()]) and has_content(out.group("topic")):
        question = _but_not(question, out, out.group("topic").strip())
    excluded = _EXCLUDED_AFTER.search(question)
    if excluded and has_content(question[:excluded.start()]):
        question = f"{question[:excluded.start()].rstrip(' ?.!,;')}?"
    question = _GROUPED_BY.sub("", question)
    question = _without_remarks(question)
    question = _OTHER_THAN.sub(lambda m: f"non-{m.group('other')} {m.group('kind')}", question)
    listed = _LISTED_AFTER.match(question)  # "... other than English? Multilingual, cross-lingual, low-resource."
    if listed:  # "...? like physics, biology": "like" says they are examples already
        items = re.sub(r"^(?:like|such\s+as|e\.g\.,?|for\s+example,?)\s+", "", listed.group("items"), flags=re.IGNORECASE)
        question = f"{listed.group('asked')}, e.g. {items}?"
    question = _INTERJECTION.sub("", question) or question
    question = _with_the_label(_BESIDE.sub("", question))
    lead_in = _LEAD_IN.match(question) or _LABEL.match(question)
    # "which papers use it?" says nothing of its own: the label is what "it" is
    if lead_in and is_list(lead_in.group("asked")) and has_content(lead_in.group("asked"), REFERENCES | NOT_A_TOPIC):
        question = lead_in.group("asked").strip()
    found = _ABOUT_THE_ASKER.match(question)
    if not found or (_BACK_TO_IT.search(found.group("asked")) and not NAME_LIKE.search(found.group("asked"))
                     and NAME_LIKE.search(question[:found.start("asked")])):
        return question  # "My labmate mentioned ZeroSiam. What problem does it solve?": the name is what "it" is
    if not has_content(found.group("asked"), _ANSWERING, words=r"[a-z]+"):
        return question[:found.start("asked")].strip(" ;.!:")
    return found.group("asked").strip()


def has_content(question: str, ignoring: frozenset | set = frozenset(), words: str = r"[a-z][\w-]*") -> bool:
    """Whether a question says what it is about, beyond function and asking words and ``ignoring``."""
    return any(len(w) > 2 and w not in NOT_TOPIC_WORDS and w not in ignoring for w in re.findall(words, question.lower()))
