"""Sentence-level evidence: the sentence of each abstract that best supports it being cited."""

from __future__ import annotations

import re

from ingest.efficiency import saving_sentence
from ingest.training_free import stating_sentence

from .search import LEXICAL_WEIGHT
from .reading.query_focus import focus
from .spelling import title_name

_ABBREVIATIONS = ("e.g.", "i.e.", "et al.", "etc.", "vs.", "cf.", "Fig.", "Eq.", "Sec.", "approx.", "resp.")
_BOUNDARY = re.compile(r"(?<=[.!?])[\"'\u201d)\]]*\s+(?=[A-Z0-9\"'\u201c(\[*_$\\])")


def sentences(text: str) -> list[str]:
    """Split an abstract into sentences, keeping common abbreviations whole."""
    protected = text
    for i, abbr in enumerate(_ABBREVIATIONS):
        protected = protected.replace(abbr, f"\x00{i}\x00")
    parts = [p.strip() for p in _BOUNDARY.split(protected) if p.strip()]
    out = []
    for part in parts:
        for i, abbr in enumerate(_ABBREVIATIONS):
            part = part.replace(f"\x00{i}\x00", abbr)
        out.append(part)
    return out or [text.strip()]


# A sentence in which the authors speak ("we show", "our method", "this paper") states what the paper
# did; one without is often background, and a background sentence cited as the paper's evidence
# misleads: for "meta-training a learned optimizer cheaply", the best match on words alone was
# "prior work, VeLO, ... failed to generalize beyond 600M parameters". The bonus only breaks
# near ties: on the dev and check questions it changed 7 of the cited sentences, 5 for the better
# (docs/retrieval.md, "Evidence sentences").
_OWN_CLAIM = re.compile(r"\b(?:we|our|this (?:paper|work)|here)\b", re.IGNORECASE)
OWN_CLAIM_BONUS = 0.05
# A list's quote says what each paper does, not the field's textbook opening ("Machine unlearning aims to remove
# ..."), which is the sentence nearest the topic: on 20 list questions at 19,622 papers, 62 of 190 quotes were an
# abstract's first sentence; with this penalty 46, and 90 instead of 77 state the paper's own work ("we propose").
OPENING_PENALTY = 0.06
OPENING_AFTER = 3  # sentences an abstract needs for its first to be read as its setting


# A sentence that only says where the code or data is ("Anonymous repository: [this URL](...LEXam-anonymous)") is
# no evidence of what the paper does, yet a name inside its link made it the best match for "tell me about
# LEXam". It loses to any sentence on the paper's content, and wins when the question asks where the code is.
_AVAILABILITY = re.compile(r"https?://|\\url\{|\]\(|\bavailable (?:at|in|on|from)\b|\bproject page\b|"
                           r"\banonymous repository\b", re.IGNORECASE)
_ASKS_AVAILABILITY = re.compile(r"\b(?:code|repo(?:sitory)?|link|url|github|website|project page|download|open[- ]source)\b",
                                re.IGNORECASE)
AVAILABILITY_PENALTY = 0.5


_ASKING = set("what which who how why is are was were does do did the a an about of in on for to its it this that "
               "paper papers work tell me please explain describe summarize summarise".split())


def about_the_paper(query: str, title: str) -> str:
    """What a question about one named paper asks of it: 'what problem does LASER-D solve' -> 'problem solve',
    so its evidence is the sentence on the problem rather than the one holding the name ('The resulting method
    is termed LASER-D'); the query itself when it asks nothing else ('tell me about LASER-D')."""
    name = title_name(title, shortest=1)
    if not name:
        return query
    rest = re.sub(rf"(?<![\w-]){re.escape(name)}(?![\w-])", " ", query, flags=re.IGNORECASE)
    words = [w for w in re.findall(r"[\w\-]+", rest) if w.lower() not in _ASKING and len(w) > 2]
    return " ".join(words) if rest != query and words else query


def asks_in_general(query: str, title: str) -> bool:
    """Whether a question about one named paper asks nothing in particular of it: 'tell me more about LASER-D',
    'what is DPH-RL?', not 'what problem does LASER-D solve?' (``about_the_paper``)."""
    return about_the_paper(query, title) == query


_INTRODUCES = re.compile(r"\b(?:we|this (?:paper|work)|our)\b.{0,80}?\b(?:propos|introduc|present|develop|design|"
                         r"term|call|nam|dub|build|construct|releas|launch)\w*"
                         r"|\b(?:our|the proposed)\s+(?:\w+\s+)?(?:method|framework|approach|model|algorithm|benchmark|"
                         r"dataset|system|technique|architecture)\b"  # "Our framework, Diversity-Preserving Hybrid RL (DPH-RL), ..."
                         r"|\b(?:is|are)\s+(?:termed|called|named|dubbed)\b", re.IGNORECASE)


def introducing(text: str, title: str) -> str | None:
    """The sentence of an abstract in which the authors put forward the thing its title names ("we propose
    DPH-RL, ..."): what "what is DPH-RL?" asks, where the best match on the bare name may be any sentence that
    names it ("Additionally, DPH-RL is more training-efficient ..."). None when no sentence does."""
    name = title_name(title, shortest=1)
    named = re.compile(rf"(?<![\w-]){re.escape(name)}(?![\w-])", re.IGNORECASE) if name else None
    return next((s for s in sentences(text) if (named is None or named.search(s)) and _INTRODUCES.search(s)), None)


_PUT_FORWARD_KINDS = {"benchmark/dataset", "system/tool", "survey/position"}


def _puts_forward(plan) -> bool:
    """Whether every kind a plan asks for is a thing a paper puts forward: a benchmark, a tool, a survey, or a
    method of a form asked ("a new architecture"); not a theory or a study, said in what it shows."""
    return all(kind in _PUT_FORWARD_KINDS or (kind == "method" and bool(plan.method_form)) for kind in plan.contributions)


def quotes(plan, hits, embedder, lexical) -> dict[str, str]:
    """Each cited paper's evidence sentence: the one that best answers the topic it was found for; for a question
    about one named paper, the one on what it asks of the paper, or where the authors put it forward ("what is
    DPH-RL?"); for a list of the whole store, or of a kind of contribution a paper puts forward (a benchmark, a tool,
    a new architecture) on no topic, where each paper puts its work forward; for training-free methods, or ones that
    cut a cost, where each says so."""
    evidence: dict[str, str] = {}
    if plan.training == "free":  # "training-free methods for video": where each paper says it needs no training
        evidence = {h.id: sentence for h in hits if (sentence := stating_sentence(sentences(h.text)))}
    if plan.saves and plan.kind in ("list", "contribution"):  # "which papers make LLM reasoning cheaper?": where each
        # paper says what it saves (a topic question asks more of its few papers: "... cheaply that still scales")
        evidence |= {h.id: sentence for h in hits
                     if h.id not in evidence and (sentence := saving_sentence(sentences(h.text), h.text, plan.saves))}
    if plan.whole_store or (plan.kind == "contribution" and not plan.on_a_topic and _puts_forward(plan)):
        # "show me all papers", "which papers introduce a new benchmark?": where each paper puts its work forward (a
        # theory or a study is in sentences that say what it shows, which the question's words find)
        evidence |= {h.id: sentence for h in hits if h.id not in evidence and (sentence := introducing(h.text, h.title))}
    elif plan.kind == "named" and len(hits) == 1:
        query, paper = plan.query or plan.whole, hits[0]
        asked = about_the_paper(query, paper.title)  # "what problem does LASER-D solve?": the problem, not the name
        intro = introducing(paper.text, paper.title) if asked == query else None  # it asks nothing in particular
        if intro:  # "what is DPH-RL?"
            return {paper.id: intro}
        return {paper.id: best_sentences(asked, {paper.id: paper.text}, embedder, lexical)[paper.id][0]}
    rest = [h for h in hits if h.id not in evidence]
    for topic in dict.fromkeys(h.topic for h in rest):
        texts = {h.id: h.text for h in rest if h.topic == topic}
        found = best_sentences(topic or plan.query or plan.whole, texts, embedder, lexical,
                               opening_penalty=OPENING_PENALTY if len(hits) > 1 else 0.0)  # one paper: asked of it
        evidence.update({pid: sentence for pid, (sentence, _score) in found.items()})
    return evidence


def best_sentences(query: str, texts: dict[str, str], embedder, lexical,
                   opening_penalty: float = 0.0) -> dict[str, tuple[str, float]]:
    """For each paper: (its sentence most relevant to the query, that sentence's relevance).

    Relevance is scored like papers are (dense + weighted lexical coverage), one batch of
    embeddings for all candidate sentences, plus a small bonus for the authors' own claims.
    """
    query = focus(query)
    keyed = [(pid, s) for pid, text in texts.items() for s in sentences(text)]
    if not keyed:
        return {}
    opening = {pid: found[0] for pid, text in texts.items()
               if opening_penalty and len(found := sentences(text)) >= OPENING_AFTER}
    vectors = embedder.embed([query] + [s for _, s in keyed])
    dense = vectors[1:] @ vectors[0]
    coverage = lexical.coverage(query, {str(i): s for i, (_, s) in enumerate(keyed)})
    best: dict[str, tuple[str, float]] = {}
    links_asked = bool(_ASKS_AVAILABILITY.search(query))
    for i, (pid, sentence) in enumerate(keyed):
        score = float(dense[i]) + LEXICAL_WEIGHT * coverage.get(str(i), 0.0)
        if _OWN_CLAIM.search(sentence):
            score += OWN_CLAIM_BONUS
        if opening.get(pid) == sentence:  # an abstract's first sentence most often sets the scene
            score -= opening_penalty
        if _AVAILABILITY.search(sentence):  # the link answers "where is the code?", and nothing else
            score += AVAILABILITY_PENALTY if links_asked else -AVAILABILITY_PENALTY
        if pid not in best or score > best[pid][1]:
            best[pid] = (sentence, score)
    return best


def supported(claim: str, evidence: str, allowed: str = "") -> bool:
    """True when a generated sentence says nothing the evidence does not. ``allowed`` is what else
    it may draw on (the question and the paper's title). The sentence must:

    - carry only numbers the source has, with the same unit ("a 5.3% gain" for "a **5.3** gain" is not);
    - use only words and names the source has: a 135M model that calls a video model "a large
      language model for face recognition" adds only two such words to a long sentence;
    - restate the evidence, not just the title or the question: at least half of its words, and
      three at least, come from the evidence sentence ("A surprising finding from a paper." says nothing).
    """
    source = f"{evidence} {allowed}".lower()
    given = numbers(source)
    bare = {n for n, _unit in given}
    if any((n, unit) not in given if unit else n not in bare for n, unit in numbers(claim)):
        return False
    words = _content_words(claim)
    if not words:
        return False
    in_source = _stems(source)
    if any(w[:5] not in in_source for w in words):
        return False
    from_evidence = _stems(evidence)
    return sum(w[:5] in from_evidence for w in words) >= max(3, len(words) / 2)


def drawn_from(phrase: str, source: str) -> bool:
    """True when every word and number of a short phrase (a topic a model proposes) is in ``source``,
    and it has a word that says something: "Lean proofs" is drawn from "papers on proofs in Lean"."""
    words = _content_words(phrase)
    stems = _stems(source)
    bare = {n for n, _unit in numbers(source)}
    return bool(words) and all(w[:5] in stems for w in words) and all(n in bare for n, _unit in numbers(phrase))


def share_kept(phrases: list[str], text: str) -> float:
    """The share of ``text``'s content words that some phrase keeps: 0.25 for ["reasoning"] out of
    "reduce reasoning token usage"."""
    words = set(_content_words(text))
    kept = _stems(" ".join(phrases))
    return sum(w[:5] in kept for w in words) / len(words) if words else 1.0


def _content_words(text: str) -> list[str]:
    return [w for w in _WORD.findall(text.lower()) if w not in _COMMON]


def _stems(text: str) -> set[str]:
    """Five-letter prefixes: a crude stemmer that lets "resolutions" stand for "resolution"."""
    return {w[:5] for w in _WORD.findall(text.lower())}


_WORD = re.compile(r"[a-z][a-z\-]{2,}")


# A number with what makes it a quantity: "64%" and "64" are different claims ("a 5.3 improvement" on a
# benchmark is points, not percent). Digits inside a word count ("Qwen3" -> 3); "1.5B" is 1.5.
_NUMBER = re.compile(r"(?<![\d.,])(\d[\d,]*(?:\.\d+)?)(?:\s*(%|percent\b|×|x\b))?", re.IGNORECASE)
_UNITS = {"percent": "%", "×": "x"}


def numbers(text: str) -> set[tuple[str, str]]:
    """(number, unit) pairs in ``text``: ``{("64", "%"), ("5.3", "")}`` for "by **64**% ... a 5.3 gain".

    Markdown emphasis is dropped first, since abstracts write "**64**%"."""
    found = set()
    for match in _NUMBER.finditer(text.replace("*", "")):
        number = match.group(1).replace(",", "").rstrip(".")
        unit = (match.group(2) or "").lower()
        found.add((number, _UNITS.get(unit, unit)))
    return found


_COMMON = set("""
this that these those with from into than then they them their there which while where when what about also paper
papers study work works method methods approach propose proposes proposed present presents show shows shown using used
uses based such more most less other some each both many much well only over under between through across within
answer question finding findings sentence research authors
the and for are was were can has had have its our new use via all any may how who why but yet per one
""".split())
