"""What a question asks about, without the words that frame it: ``focus`` takes off "which papers", "is there
any work on" and afterthoughts, and ``topics`` splits what is left into the topics a question joins or lists.
"""

from __future__ import annotations

import re


# What the asker has heard of, before what they ask: "I keep hearing about AI that ...", "I've been reading about X"
# (a frame ``focus`` takes off, and a list question's opening: ``question_forms.is_list``)
HEARD_ABOUT = (r"(?:(?:i|we)\s+(?:keep|kept)\s+(?:hearing|reading|seeing)|(?:i've|i’ve|i\s+have|we've|we’ve|we\s+have)\s+"
               r"(?:been\s+)?(?:hearing|heard|reading|read)(?:\s+a\s+lot)?)\s+(?:about|of)")

# Words that frame a question rather than say what it is about: "which papers", "is there any work on",
# "anything new on", "do any papers", "I'm looking for research on", "what are the papers that".
_KINDS_OF_WORK = r"(?:papers?|works?|research|studies|articles|abstracts?|submissions?|methods?|approaches|techniques)"
_FRAME = re.compile(
    r"^\s*(?:(?:and|so|ok(?:ay)?|now),? )?(?:(?:can|could) you |please )*(?:"
    r"tell me (?:more )?about"
    rf"|what (?:is|are) (?:the |some |any )?(?:(?:most )?(?:recent|latest|newest|new) )?{_KINDS_OF_WORK}"
    r" (?:on|about|that|which|related to)"  # "what are the most recent papers on video?"
    r"|what(?:'s| is) (?:new|happening) (?:in|on|for|about|with)"  # "what's new in speech?"
    rf"|how many {_KINDS_OF_WORK}(?: (?:are|is)(?: there)?)?(?: (?:on|about|that|which))?"  # "how many papers are about RL?"
    rf"|(?:summari[sz]e|describe|review|explain) (?:the |all |these |some )?{_KINDS_OF_WORK}"
    r"(?: (?:on|about|that|which|related to))?"  # "summarize the papers on Lean"
    r"|what (?:work|research) is there (?:on|about)"
    r"|what (?:are|is) (?:the )?(?:recent |latest |new |current )?(?:advances|developments|progress|trends|state of the art)"
    r" (?:in|on|for|of)"  # "what are recent advances in multimodal reasoning?"
    r"|(?:has|have|did) (?:anyone|anybody|any(?:one)? (?:paper|work|study)) (?:worked|work|looked|look|studied|study|"
    r"written|write|done|do)(?: (?:on|at|about))?"  # "has anyone worked on theorem proving?"
    r"|what (?:could|can|should|might|would) (?:i|we|one) use (?:to|for)"  # "what could I use to adapt a model?"
    r"|what(?:'s| is) (?:out )?there (?:on|about|for|in|regarding)"  # "what's out there for long video?"
    r"|what(?:'s| is| are| about)"
    rf"|(?:which|what) {_KINDS_OF_WORK}(?: (?:do|does|are|is|have))?(?: (?:about|on)(?= \w))?"
    rf"|(?:show|find|list|give|get) (?:me )?(?:all |the |some |any |every )?{_KINDS_OF_WORK}"
    r"(?: (?:on|about|that|which|where|related to))?"
    rf"|(?:the |all (?:the )?)?{_KINDS_OF_WORK} (?:on|about|that|which|related to)"
    rf"|{_KINDS_OF_WORK}(?= \w+ed (?:on|with|by|for|in|from|to)\b)"  # "papers evaluated on AIME"
    rf"|{_KINDS_OF_WORK}(?= \w+ing\b)"  # "papers proposing new optimizers"
    rf"|(?:is|are) there (?:any |a |an )?(?:new |recent |other |more )?{_KINDS_OF_WORK}(?: (?:on|about|that|which))?"
    rf"|(?:do|does|did) (?:any|some) {_KINDS_OF_WORK}"
    rf"|(?:any|some) (?:new |recent )?{_KINDS_OF_WORK} (?:on|about|that|which|related to)"
    rf"|(?:any|some) (?:new |recent )?{_KINDS_OF_WORK}(?= \w+(?:ing|ed)\b)"  # "any papers using world models"
    rf"|(?:(?:i'm|i am|we're|we are) (?:looking|searching) for|(?:i|we) (?:search|look|seek)(?: for)?) (?:any |some |all |the )?"
    rf"{_KINDS_OF_WORK}(?: (?:on|about|that|which))?"  # "I search papers which ...", "I look for methods ..."
    rf"|i(?: want| need| would like|'d like) (?:to (?:see|read|find) )?(?:all |the |some |any |every )?{_KINDS_OF_WORK}"
    r"(?: (?:on|about|that|which|where)(?: (?:do|does) (?:something|anything) (?:with|on|about|involving))?)?"
    # "I want papers on video understanding", "I need every paper that does something with Lean 4"
    r"|(?:give|show|find|get) (?:me )?(?:everything|all|anything) (?:on|about)"  # "give me everything on GRPO"
    r"|(?:is|are) there anything (?:new |recent )?(?:on|about|in|for)"  # "is there anything about physics?"
    r"|what (?:new |recent |other )?(?:techniques|methods|approaches|ideas|solutions|algorithms) (?:are there|exist|have been"
    r" proposed)(?: (?:for|on|in|to))?"  # "what new techniques are there for test-time adaptation?"
    r"|what (?:has|have) (?:been |people |researchers )?(?:done|published|proposed|written|tried) (?:on|about|in|for|with|to)"
    r"|what (?:do|does) (?:we|you|the (?:store|collection|corpus)) have (?:on|about|for|in)"  # "what do we have on video?"
    r"|(?:i'm|i am|we're|we are) (?:writing|reading) (?:up )?(?:about|on)"  # "I'm writing about making models faster"
    rf"|{HEARD_ABOUT}"
    rf"|(?:i'm|i am|we're|we are) (?:interested|curious) (?:in|about)(?: (?:any |some |the )?{_KINDS_OF_WORK}"
    r"(?: (?:on|about|that|which))?)?"  # "I'm interested in papers about unlearning"
    rf"|(?:which|what) of the {_KINDS_OF_WORK}(?: (?:do|does|are|is|have))?(?: (?:about|on)(?= \w))?"
    r"|(?:and )?who (?:else )?(?=(?:\w+s|works on|is working on|uses)\b)"  # "who builds world models?"
    r"|anything (?:new |recent )?(?:on|about))\b\s*",
    re.IGNORECASE)


# "Who builds world models, and for what?": what the question asks of the papers it finds, naming no topic.
_AFTERTHOUGHT = re.compile(r",?\s+and\s+(?:for\s+what(?:\s+purposes?)?|what\s+for|how|why|to\s+what\s+end|in\s+what\s+ways?|"
                           r"with\s+what\s+results?|what\s+do\s+they\s+(?:find|show|report))\s*[?.!]*\s*$"
                           r"|,\s*(?:what|which)\s+(?:are|is)\s+(?:they|them|those|these|there|it)\s*[?.!]*\s*$"  # "papers about robot, what are they?"
                           r"|,\s*(?:which|what)\s+ones?\s*[?.!]*\s*$|,\s*any\s*[?.!]*\s*$"
                           r"|,\s*(?:which|what)\s+(?:papers|works|studies|ones)(?:\s+(?:do|does|did|have|has)\s+(?:that|this|it|so))?"
                           r"\s*[?.!]*\s*$", re.IGNORECASE)  # "test time scaling using PRMs, which papers do that?"


# "And is an LLM used as a reasoning engine for biology anywhere?": is there a paper on it at all
_ANYWHERE = re.compile(r"\s+(?:anywhere|at\s+all|in\s+(?:the|this)\s+(?:store|collection|corpus))\s*[?.!]*\s*$", re.IGNORECASE)
_IS_THERE = re.compile(r"^\s*(?:and\s+|so\s+)?(?:is|are|does|do)\s+(?:there\s+)?(?:an?\s+|any\s+)?", re.IGNORECASE)


def focus(query: str) -> str:
    """'which papers reduce reasoning token usage?' -> 'reduce reasoning token usage'."""
    query = _AFTERTHOUGHT.sub("", query.strip()) or query
    if _ANYWHERE.search(query) and not _FRAME.match(query):
        query = _IS_THERE.sub("", _ANYWHERE.sub("", query)) or query
    stripped = _FRAME.sub("", query.strip()).strip(" ?!.")
    stripped = _frame_words_off(_IF_ANY.sub("", stripped).strip()).strip(" -–—:")  # "cut compute cost - papers?"
    return stripped if len(stripped) >= 2 else query.strip()  # "how many papers are about RL?" -> "RL"


# What ``_FRAME``'s phrases leave of frames said another way: "Could you point me to work on X", "Which abstracts,
# if any, study X", "X: which papers?", "LLM unlearning: what's out there?". A word-by-word pass, since the ways of
# framing a question are more than one pattern can list: the words no topic starts or ends with, taken off its ends.
_IF_ANY = re.compile(r",?\s*\bif\s+any\b,?", re.IGNORECASE)
_LEADING = frozenset("""which what whats what's who where how do does did can could would will please tell
show give find list name point me us you i we i'd i'm we'd like want need looking searching for any all every some the a an
papers paper works abstracts abstract research studies articles article submissions submission whose enumerate identify there here anything everything something in
that about on regarding concerning related relevant to mentioning mention mentions discussing discuss discusses known exist
exists available anyone anybody people researchers of have has collection store corpus this stuff things""".split())
# Words that frame only after a frame word ("what kinds of methods reduce X", "where can I read about X")
_FRAMING_AFTER = frozenset("methods approaches techniques ways ideas read learn see know recent new latest current other "
                           "doing".split())
_COPULA = frozenset("is are was were am".split())  # framing before a frame word ("are about Lean"), not before a property
_REFERENCE = frozenset("ones one them those these it they".split())  # "which ones are not about LLMs?": leans on an answer
_LEADING_BEFORE = {"of": {"kinds", "kind", "types", "type", "sorts", "sort", "rundown", "overview", "summary", "summaries"},
                   "on": {"work", "progress"}, "about": {"work", "progress"},
                   "that": {"methods", "approaches", "techniques", "ways", "ideas"},
                   "for": {"methods", "approaches", "techniques", "ways", "ideas"},
                   "exist": {"methods", "approaches", "techniques", "ways", "ideas"}}  # a word that frames before these
_TRAILING = frozenset("papers paper works abstracts articles please anything there out what's whats which any at all are "
                      "is exist exists instead then too also".split())  # "what other papers involving robots are in
# the collection?", "what about audio instead?"
_TOKEN = re.compile(r"[\w'’]+|[—–:]|(?<=\s)-(?=\s)")


_DASHES = frozenset("—–:-")


def _frames(words: list[str], i: int) -> bool:
    """Whether ``words[i]``, after the frame words before it, frames the question rather than starts its topic."""
    word, after = words[i], words[i + 1:i + 2]
    if word in _LEADING or word in _DASHES or (i and word in _FRAMING_AFTER):
        return True
    if word in _COPULA:  # "are about Lean", not "are fast, cheap and accurate"
        return bool(after) and after[0] in _LEADING
    # "methods that reduce X" is framed; "methods that are fast, cheap and accurate" is the topic
    return bool(after) and word in _LEADING_BEFORE.get(after[0], ()) and not (
        i + 2 < len(words) and words[i + 2] in _COPULA)


def _frame_words_off(text: str) -> str:
    tokens = list(_TOKEN.finditer(text))
    words = [t.group().lower().replace("’", "'") for t in tokens]
    first = 0
    while first < len(words) and _frames(words, first):
        first += 1
    if first < len(words) and words[first] in _REFERENCE:
        return text
    last = len(words)
    while last > first and (words[last - 1] in _TRAILING or words[last - 1] in _DASHES):
        last -= 1
    if first == 0 and last == len(words):
        return text
    if first >= last:
        return text  # all frame: the caller keeps the question
    start = tokens[first].start() if first else 0
    end = tokens[last - 1].end() if last < len(words) else len(text)  # "... (TTM)" keeps its bracket
    return text[start:end].strip(" ,?!.")


_TOPIC_SPLIT = re.compile(r"\s*(?:,\s*|\s)(?:or|and)\s+(?:(?:papers|works|studies|research)\s+)?(?:on|about|for|in)\s+"
                          r"|\s*;\s*", re.IGNORECASE)  # "papers on Lean and (papers) on robots"
_WORD = re.compile(r"[\w\-]+")


def topics(query: str) -> list[str]:
    """'papers on Lean or on robots' -> ['papers on Lean', 'robots']; most questions are one topic.

    Splits where a conjunction starts a new prepositional topic ("or on", "and about"), at
    "or" between short topics after a frame ("papers on Lean or robots"), and at the commas of
    a list of short topics ("papers on Lean, robots, and audio"; "Lean proofs, robot
    manipulation or federated learning"); "in English and German", "vision and language" and
    long phrases stay whole.
    """
    query = _AFTERTHOUGHT.sub("", query) or query
    parts = [p for p in _TOPIC_SPLIT.split(query) if p.strip()]
    if len(parts) == 1:
        body = focus(query)
        if _names_a_topic(query, body) and re.search(r"\bor\b", body) and "," not in body:
            pieces = [re.sub(r"^(?:either|whether)\s+", "", p.strip(" ,?"), flags=re.IGNORECASE)
                      for p in re.split(r"\bor\b", body)]
            if all(1 <= len(_WORD.findall(p)) <= 3 for p in pieces):
                parts = pieces
        else:
            parts = _listed(body) or parts
    return parts if len(parts) > 1 else [query]


# A frame that ends where a topic's name begins: "papers on", "anything about", "tell me about".
_ENDS_BEFORE_A_NAME = re.compile(r"\b(?:on|about|in|for|to)\s*$", re.IGNORECASE)


def _names_a_topic(query: str, body: str) -> bool:
    """Whether the framed ``body`` of ``query`` is a noun phrase ("papers on Lean or robots": two topics)
    rather than a clause ("which papers build on or modify GRPO", "which papers study multilingual or
    cross-lingual LLMs"), whose "or" joins verbs or modifiers of one shared topic."""
    frame = _FRAME.match(query.strip())
    return body != query.strip() and bool(frame) and bool(_ENDS_BEFORE_A_NAME.search(frame.group(0).rstrip()))


# Words that make a phrase a clause rather than a list item: "the trade-offs between accuracy, latency
# and memory in LLM serving" is one topic, not three.
_NOT_AN_ITEM = re.compile(r"\b(?:the|a|an|between|in|of|for|with|on|to|by|from|at|that|which|is|are|how|what)\b",
                          re.IGNORECASE)


def _listed(body: str, longest: int = 3) -> list[str] | None:
    """The items of 'A, B and C' / 'A, B, or C' when there are three or more, each a bare phrase of
    at most ``longest`` words; None for anything else (one comma without a conjunction is no list)."""
    pieces = [p.strip(" ?.") for p in body.split(",")]
    if len(pieces) < 2:
        return None
    oxford = re.match(r"(?:and|or)\s+(.+)$", pieces[-1], re.IGNORECASE)
    if oxford:
        pieces[-1] = oxford.group(1)
    else:
        pair = re.match(r"(.+?)\s+(?:and|or)\s+(.+)$", pieces[-1], re.IGNORECASE)
        if not pair:
            return None
        pieces[-1:] = [pair.group(1), pair.group(2)]
    if len(pieces) >= 3 and all(1 <= len(_WORD.findall(p)) <= longest and not _NOT_AN_ITEM.search(p) for p in pieces):
        return pieces
    return None
