"""The forms of a question read off its wording: a list of papers, a comparison, small talk, a question about
one paper, and the names a comparison sets against each other (``compared_names``).
"""

from __future__ import annotations

import re

from .query_focus import HEARD_ABOUT


_LIST = re.compile(
    r"^\s*(?:(?:and|so|ok(?:ay)?)[, ]+)?(?:which|what)\s+(?:papers|works|studies|methods|approaches|articles|abstracts|ones|"
    r"submissions)\b"
    r"|^\s*(?:which|what)\s+(?:\w+\s+){0,2}(?:papers|abstracts|submissions)\b"
    r"|^\s*(?:which|what)\s+(?:kinds?|types?|sorts?)\s+of\s+(?:\w+\s+){0,2}?(?:papers|methods|approaches|techniques|work|research)\b"
    r"|^\s*(?:(?:can|could)\s+you\s+)?(?:tell|show)\s+me\s+(?:which|what)\s+(?:papers|works|studies|abstracts)\b"
    r"|\b(?:papers|works|work|studies|research|articles|abstracts|submissions)\s+(?:on|about|that|which|whose|using|with|in|for|"
    r"where|related\s+to|regarding|concerning)\b"
    r"|\b(?:any|all|every|other)\s+(?:papers?|works?|studies|research|abstracts?|submissions?)\b"
    r"|,\s*(?:which|what)\s+(?:papers|works|studies)(?:\s+(?:do|does|did|have|has)\s+(?:that|this|it|so))?\s*[?.!]*\s*$"
    r"|\bevery\s+(?:[\w-]+\s+){1,2}?(?:papers?|works?|studies|methods?|approaches|techniques)\s+(?:that|which|on|about|where|"
    r"whose|for)\b"  # "every inference-time method that samples ...", "every RLVR paper that ..."
    r"|^\s*(?:any\s+)?(?:work|research)\s+(?:on|about)\b"  # "work on cryptography"
    r"|\bwhat\s+(?:work|research)\b|\bis\s+there\s+(?:any\s+|a\s+|an\s+)?(?:work|research|paper)|\bare\s+there\s+(?:any\s+)?papers?\b"
    r"|^\s*(?:papers|works|studies|articles)\s+\w+ed\s+(?:on|with|by|for|in|from|to)\b"
    r"|^\s*(?:papers|works|studies|articles|research|work|abstracts)\s+\w+ing\b"  # "papers proposing new optimizers"
    r"|^\s*(?:has|have|did)\s+(?:anyone|anybody)\b"  # "has anyone worked on theorem proving?"
    r"|^\s*(?:is|are)\s+(?:anyone|anybody|people|researchers)\s+\w+ing\b"  # "is anyone using world models?"
    r"|^\s*where\s+(?:can|could|do|should)\s+(?:i|we|one)\s+(?:read|find|learn|look)\b"  # "where can I read about X?"
    r"|\bwhat(?:'?s|\s+is)\s+(?:there|out\s+there|available)\s+(?:on|about|for|in|regarding)\b"  # "what's there on robotics"
    r"|\bwhat(?:'?s|\s+is)\s+(?:there\s+)?in\s+the\s+(?:collection|store|corpus|library)\s+(?:on|about|for|regarding)\b"
    r"|\bwhat\s+is\s+known\s+(?:about|on)\b"
    r"|\b(?:everything|anything)\s+(?:(?:in\s+(?:this|the)\s+(?:set|collection|store|corpus)|here)\s+)?(?:on|about|that|which|with|"
    r"involving)\b"  # "everything on GRPO", "anything with robots"
    r"|\bwhat(?:'s|\s+is)\s+(?:new|happening)\s+(?:in|on|for|about|with)\b"  # "what's new in speech?"
    r"|^\s*how\s+many\s+(?:papers|works|studies|articles)\b"  # "how many papers are about RL?": the count comes first
    r"|\bwhat\s+(?:are|is)\s+(?:the\s+)?(?:recent\s+|latest\s+|new\s+|current\s+)?(?:advances|developments|progress|"
    r"trends|state\s+of\s+the\s+art)\s+(?:in|on|for)\b"
    r"|^\s*how\s+(?:are|do|have|is)\s+(?:(?:the\s+)?(?:recent|new|current|other)\s+)?(?:people|researchers|authors|papers|works|studies)\b"
    r"|\banything\s+(?:new\s+|recent\s+)?(?:on|about|in|for)\b"
    r"|\bwhat\s+(?:new\s+|recent\s+|other\s+)?(?:techniques|methods|approaches|ideas|solutions|algorithms)\s+"
    r"(?:are\s+there|exist|have\s+been)\b"  # "what new techniques are there for test-time adaptation?"
    r"|\bwhat\s+(?:has|have)\s+(?:been\s+|people\s+|researchers\s+)?(?:done|published|proposed|written|tried)\s+"
    r"(?:on|about|in|for|with|to)\b"  # "what has been done on curriculum learning?"
    r"|^\s*what\s+(?:do|does)\s+(?:we|you|the\s+(?:store|collection|corpus))\s+have\s+(?:on|about|for|in)\b"
    r"|\w\s+(?:papers|works|studies|research|articles)\s*[?.!]*\s*$"
    r"|\b(?:list|show|find|give|name|enumerate|identify)\s+(?:me\s+)?(?:all|every|the|some|any)?\s*(?:papers?|works?|research|studies|abstracts?|"
    r"articles|submissions)\b"
    r"|\b(?:looking|searching)\s+for\s+(?:any\s+|some\s+)?(?:papers?|work|works|research|studies|methods|approaches|techniques)\b"
    r"|^\s*(?:i'm|i’m|i\s+am|we're|we’re|we\s+are)\s+(?:interested|curious)\s+(?:in|about)\b"
    r"|^\s*(?:i'm|i’m|i\s+am|we're|we’re|we\s+are)\s+(?:writing|reading)\s+(?:up\s+)?(?:about|on)\b"  # "I'm writing about X. What's out there?"
    r"|^\s*" + HEARD_ABOUT + r"\b"  # "I keep hearing about X. Which papers ...?"
    r"|^\s*(?:and\s+)?who\s+(?:else\s+)?(?:\w+s|works\s+on|is\s+working\s+on)\b"  # "who builds world models?"
    r"|\s(?:anywhere|at\s+all)\s*[?.!]*\s*$"  # "is an LLM used as a reasoning engine for biology anywhere?"
    # "test-time adaptation methods where the model updates itself": a kind of method, described
    r"|^\s*[\w-]+(?:\s+[\w-]+){0,4}?\s+(?:approaches|methods|techniques|algorithms)\s+(?:where|that|which|in\s+which|whose)\b"
    r"|^\s*(?:stuff|things|work|anything|something|[\w-]+)\s+(?:where|in\s+which|whereby)\b"  # "training where the model gets hints"
    # a search typed as a fragment that asks for all: "contrastive vlm papers, all of them", "non-attention seq models,
    # mamba rnn etc" (``asked``), "audio or speech llm work", "new methods built on grpo"
    r"|,\s*(?:all|each|every\s+one)\s+of\s+(?:them|those|these)\s*[?.!]*\s*$"
    r"|(?<!\bthis)(?<!\bthat)(?<!\bthe)(?<!\bit)(?<!\bdoes)(?<!\bwill)(?<!\bnot)(?<!\bto)\s+work\s*[?.!]*\s*$"
    r"|^\s*(?:(?:new|novel|recent)\s+)?(?:methods|approaches|techniques|algorithms)\s+(?:\w+ed|\w+ing|built|made|based)\s+"
    r"(?:on|with|by|for|in|from|to|upon)\b"
    r"|\w\s+(?:approaches|methods|techniques|algorithms)\s*(?:\([^)]*\))?\s*[?.!]*\s*$",  # "curriculum learning approaches"  # "I'm interested in methods that ..."
    re.IGNORECASE)
# "different" before a noun describes, it does not compare: "works on a problem several different ways at once",
# "decision-makers with different thinking abilities"; "how is X different from Y", "are they different?" compare.
COMPARISON_WORD = (r"compare[sd]?|comparison|comparing|vs\.?|versus|differ(?:s|ence|ences)?|contrast"
                    r"|different(?!\s+(?!(?:from|than|to|in|on|at|for|with|between|and|or|but)\b)[a-z])")
_COMPARE = re.compile(r"\b(?:" + COMPARISON_WORD + r"|similarit(?:y|ies)|in common|side\s+by\s+side)\b"
                      r"|^\s*how\s+(?:do|does)\s+.+\s(?:relate|relate\s+to\s+each\s+other)\s*[?.!]", re.IGNORECASE)  # "how do X and Y relate?"
# "Is ZeroSiam better than TTM?", "ZeroSiam or TTM: which is better?" compare papers, one of them at least named
# ("TTM" is too short a name to be told from a word); "does RL transfer better than SFT?" names no paper.
THAN = re.compile(r"\b(?:better|worse|faster|cheaper|stronger|weaker)\s+than\b"
                   r"|\bor\s+[^?]*?\b(?:more|less|better|worse|faster|cheaper|stronger|weaker)\b"  # "is X or Y more sample efficient?"
                   r"|\bwhich\s+(?:one\s+|of\s+(?:them|the\s+two)\s+)?"
                   r"(?:is|works|performs|does)\s+(?:better|worse|best|faster|cheaper|stronger)\b", re.IGNORECASE)
# What a comparison of the papers on a topic says around the topic: "compare the papers on Lean", "how do the
# papers on agents differ?"
COMPARE_FRAME = re.compile(r"^\s*(?:please\s+)?(?:compare|contrast)\s+|^\s*how\s+(?:do|does)\s+|\s+(?:differ|compare)\b.*$",
                            re.IGNORECASE)
_NAMED_FRAME = re.compile(r"^\s*(?:(?:can you |please )?tell me (?:more )?about|what(?:'s| is| are| does)|explain|"
                          r"describe|summari[sz]e|who (?:wrote|introduced|proposed|created|built|made)|how does)\b", re.IGNORECASE)
_SMALL_TALK = re.compile(r"^\s*(?:hi|hello|hey|thanks?(?: you)?|thank you|good (?:morning|evening|night)|bye|"
                         r"who are you|what can you do|help)\s*[.!?]*\s*$", re.IGNORECASE)


# "I'm surveying methods for making chain-of-thought cheaper; which abstracts propose ways to shorten reasoning?":
# what the asker says of themselves, then the question. Its frame is in the question, not in the statement before.
# A name in what the asker says first ("ZeroSiam", "LASER-D", "GRPO"), and a question that leans back on it
NAME_LIKE = re.compile(r"\b(?:[A-Z][a-z]+[A-Z][\w-]*|[A-Z]{2,}[\w-]*)")
FOR_ALL = re.compile(r"\b(?:every|each|all|everything|full|whole|complete)\b", re.IGNORECASE)


def is_list(question: str) -> bool:
    return bool(_LIST.search(question))


def is_compare(question: str) -> bool:
    return bool(_COMPARE.search(question))


def is_small_talk(question: str) -> bool:
    return bool(_SMALL_TALK.match(question))


def asks_about_one(question: str) -> bool:
    """'What is the Mesa layer paper about?', 'tell me about WebShaper': a question about one thing."""
    return bool(_NAMED_FRAME.search(question)) and not is_list(question)


# A paper described in a comparison, up to the next one or the end: "the paper that trains ... with expert iteration
# and RL", "the training-free long-video framework that combines adaptive frame sampling, dynamic resolution, and ..."
_DESCRIBED_PAPER = re.compile(r"\bthe\s+(?:[\w-]+\s+){0,4}?(?:paper|work|framework|method|model|approach|benchmark|system|one)\s+"
                              r"(?:that|which|where|whose)\b.*?(?=\s+(?:and|with|vs\.?|versus)\s+the\s+(?:[\w-]+\s+){0,4}?"
                              r"(?:paper|work|framework|method|model|approach|benchmark|system|one)\s+(?:that|which|where|whose)\b|$)",
                              re.IGNORECASE)


def compared_names(question: str) -> list[str]:
    """The things a comparison sets against each other, as written: 'Compare NuRL, SFPO and THR - how
    does each change GRPO training?' -> ['NuRL', 'SFPO', 'THR']; 'How does Echo differ from
    EmotionThinker?' -> ['Echo', 'EmotionThinker']."""
    text = re.sub(r":\s*(?:which|what|how|who|is|are|does|do)\b.*$", "", question, flags=re.IGNORECASE)  # "X or Y: which is better?"
    text = re.split(r"\s+[-–—:]\s+|\?|\.\s", text)[0]
    text = re.sub(r"^\s*which\s+(?:one\s+)?(?:is|works|performs|does)\s+\w+(?:\s+(?:for|on|at)\s+[^,:]+)?\s*[,:]\s*", "", text,
                  flags=re.IGNORECASE)  # "which works better, X or Y?"
    if re.match(r"\s*(?:please\s+)?(?:compare|contrast)\s", text, re.IGNORECASE) and not is_list(text):
        # "contrast ZeroSiam to TTM", not "compare the papers related to GRPO"
        text = re.sub(r"\s+(?:to|against)\s+", " versus ", text, flags=re.IGNORECASE)
    text = re.sub(r"^\s*(?:please\s+)?(?:compare|contrast)\s+|^\s*how\s+(?:does|do|is|are)\s+|^\s*(?:what\s+(?:is|are)\s+)?"
                  r"(?:the\s+)?differences?\s+between\s+|^\s*what\s+(?:do|does)\s+", "", text, flags=re.IGNORECASE)
    text = re.sub(r"\s+(?:have\s+in\s+common|share|have\s+to\s+do\s+with\s+each\s+other)\b.*$", "", text,
                  flags=re.IGNORECASE)  # "what do PoLR and CRISP have in common?"
    text = re.sub(r"\s+(?:differ|different|compare[sd]?|contrast)\b.*?\b(?:from|with|to)\s+", " versus ", text,
                  flags=re.IGNORECASE)
    text = re.sub(r"^\s*(?:please\s+)?(?:put|place|set|lay)\s+(?=.+\s+side\s+by\s+side\b)|\s+side\s+by\s+side\b.*$", "", text,
                  flags=re.IGNORECASE)  # "put AFS and ST-SimDiff side by side"
    if re.search(r"\bor\b", text, re.IGNORECASE):  # "is ReaPER or GEB more sample efficient?"
        text = re.sub(r"^\s*(?:is|are|does|do)\s+(?=.+\s+or\s)|\s+(?:more|less|better|worse|faster|cheaper|stronger|weaker)\b.*$",
                      "", text, flags=re.IGNORECASE)
    text = re.sub(r"^\s*(?:is|are|does|do)\s+(?=.+\s+than\s)", "", text, flags=re.IGNORECASE)  # "is X better than Y"
    text = re.sub(r"\s+(?:better|worse|faster|cheaper|stronger|weaker)\s+than\s+", " versus ", text, flags=re.IGNORECASE)
    text = re.sub(r"\s+(?:differ|different|compare|both)\b.*$", "", text, flags=re.IGNORECASE)
    text = re.sub(r"\s+(?:as|at|in terms of|for|on|when it comes to|in the ways?|in how|in what|in which|regarding|"
                  r"with respect to|concerning)\s+.*$", "", text, flags=re.IGNORECASE)  # "... in the way it combines X with Y"
    text = re.sub(r"\s+relate\s*$", "", text, flags=re.IGNORECASE)  # "how do X and Y relate?"
    # what is said in brackets, and a paper described ("the framework that combines X, Y, and Z"), is one thing
    asides = re.findall(r"\([^()]*\)", text) + [m.group() for m in _DESCRIBED_PAPER.finditer(text)]
    for number, aside in enumerate(asides):
        text = text.replace(aside, f"\0{number}\0", 1)
    pieces = re.split(r"\s*,\s*(?:and\s+|or\s+)?|\s+(?:and|vs\.?|versus|with|or)\s+", text, flags=re.IGNORECASE)
    pieces = [re.sub(r"\0(\d+)\0", lambda m: asides[int(m.group(1))], p) for p in pieces]
    names = [re.sub(r"^(?:the|a|an)\s+", "", p.strip(" ?.!"), flags=re.IGNORECASE) for p in pieces]
    return [n for n in names if n and len(n) <= 200]


# A question asking which papers there are, naming none: its "X vs. Y" is a topic ("which papers are about the
# exploration vs. exploitation problem?"), not two papers to compare
_WHICH_PAPERS = re.compile(r"^\s*(?:(?:and|so)[, ]+)?(?:which|what)\s+(?:papers|works|studies|abstracts|submissions)\b",
                           re.IGNORECASE)
_VS = re.compile(r"\s(?:vs\.?|versus)\s", re.IGNORECASE)


def vs_in_a_topic(question: str, named: list[str]) -> bool:
    """Whether the only comparison ``question`` makes is an "X vs. Y" inside the topic of a question asking which
    papers there are, naming none (``_WHICH_PAPERS``)."""
    return not named and bool(_WHICH_PAPERS.match(question)) and not is_compare(_VS.sub(" ", question))


# What several papers named each do: "How do SFPO, DPH-RL and THR each intervene in RL training?"
EACH_OF_THEM = re.compile(r"\b(?:each|respectively)\b", re.IGNORECASE)


# A pick of one paper by what it is or has: "which one is pure theory?", "which has a benchmark?"
PICKED_BY = re.compile(r"^\s*(?:and\s+)?which\s+(?:one\s+)?(?:is|has|was|had|offers|gives|provides|contributes)\b", re.IGNORECASE)


# A question asking what there is, which any number of papers answer: not "does RL transfer ...?", a yes or no
ASKS_WHICH = re.compile(r"^\s*(?:which|what|any|anything|show|list|find|give|get|(?:is|are)\s+there)\b", re.IGNORECASE)
# ... unless it asks for one: "which paper ...", "what is the method that ...", "is there a model that ..."
ONE_ASKED = re.compile(r"^\s*(?:(?:which|what)(?:'s|\s+is|\s+was)?|(?:is|are)\s+there)\s+(?:the\s+|a\s+|an\s+|one\s+)?(?:[\w-]+\s+)?"
                        r"(?:paper|work|study|article|method|approach|model|framework|system|technique|abstract)\b(?!s)",
                        re.IGNORECASE)


# One paper described, not a kind of papers: "tell me about the paper that proposes a group matching score"
ONE_PAPER = re.compile(r"\bthe\s+(?:paper|work|study|article|one)\s+(?:that|which|where|whose|with)\b", re.IGNORECASE)
# A question asked of the one paper it names: "what benchmark does LEXam introduce?", "which datasets does PoLR use?"
ASKS_OF_ONE = re.compile(r"^\s*(?:what|which|how|who|where|when|why)\b", re.IGNORECASE)


# What a paper is set against when it is no other paper: "standard GRPO", "vanilla transformers", "prior methods".
_BASELINE = re.compile(r"^(?:the\s+)?(?:standard|vanilla|plain|original|conventional|traditional|usual|regular|classic(?:al)?|"
                       r"baseline|existing|prior|previous|earlier|naive)\b"
                       r"|^(?:the\s+)?other\b(?!\s+(?:[\w-]+\s+){0,4}?(?:paper|one|work|study|method|approach)\b)",  # not "the other long-video paper"
                       re.IGNORECASE)


# A comparison the papers asked for make, said in the clause that describes them: "papers that build on GRPO or compare
# against GRPO", "works which compare with RLHF"
COMPARING_IN_A_CLAUSE = re.compile(r"\b(?:papers?|works?|studies|methods|ones)\s+(?:that|which|who)\b[^?]*?\b(?:compare[sd]?|comparing)"
                                    r"\s+(?:(?:themselves|it|them)\s+)?(?:against|to|with)\b", re.IGNORECASE)


def every_paper_on(question: str) -> bool:
    """Whether ``question`` asks for every paper on a topic, so that a "vs" in it is part of the topic: "every RLVR paper
    that deals with the Pass@1 vs Pass@k trade-off"."""
    return is_list(question) and bool(FOR_ALL.search(question))


# What a paper is said to beat, up to the end of the clause: "better than gradient ascent", "faster than TTM?"
_THAN_WHAT = re.compile(r"\b(?:better|worse|faster|cheaper|stronger|weaker)\s+than\s+(?P<other>[^?.!,;:]+)", re.IGNORECASE)


def better_than_a_technique(question: str) -> bool:
    """Whether what ``question`` says a paper is better than is a technique in plain words ("gradient ascent",
    "majority voting"), not another paper, which a comparison names ("TTM", "LASER-D") or describes ("the one on
    Lean")."""
    found = _THAN_WHAT.search(question)
    if not found:
        return False
    other = found.group("other").strip()
    return not NAME_LIKE.search(other) and not re.match(r"(?:the|that|this)\s+(?:[\w-]+\s+){0,3}?(?:paper|one|work|"
                                                          r"method|approach|framework|model|benchmark)\b", other, re.IGNORECASE)


def against_a_baseline(question: str) -> bool:
    """Whether what a comparison sets a paper against is a baseline (``_BASELINE``), not another paper."""
    return any(_BASELINE.match(n) for n in compared_names(question)[1:])


# A topic asked as a question, with no words to ask it: "RL for speech or audio models?" is "any papers on RL for
# speech or audio models?"; "proof simplification for Lean", a search, stays a topic.
BARE_QUESTION = re.compile(r"^(?!\s*(?:which|what|who|whom|whose|how|why|when|where|is|are|was|were|do|does|did|can|could|"
                            r"should|would|will|has|have|had|tell|show|list|find|give|get|compare|explain|describe|"
                            r"summari[sz]e)\b)[^?]+\?\s*$", re.IGNORECASE)
