"""Label a paper with its kinds of contribution, read off its own abstract.

Abstracts announce what they contribute in a few set phrases: "we introduce X, a benchmark
for ...", "we prove ...", "we conduct a systematic study of ...", "this position paper ...".
A phrase counts only when the paper is its subject ("we", "our", "this paper", a passive
"is developed", or a name the paper introduced); "existing benchmarks" or "researchers
introduced PER" are about other work. What a paper introduces is classified by the head
nouns of the phrase after the verb: a "benchmark" or "dataset" is a resource, a "method",
"framework" or named artifact is a method, a "library" or "platform" a tool.

Rules rather than an LLM or a classifier: ingest must stay fast (this runs on every new
paper), the labels must not depend on the answering model, and 49 hand-labelled papers are
too few to train on. Everything here is plain ``re`` over the sentences of one abstract.

While reading, ``Evidence`` also keeps, sentence by sentence, the kinds each sentence is about
(its ``trail``), from which ``ingest.main_contribution`` picks the paper's chief kind, what a
resource is for (``data_uses``): a benchmark to evaluate on, or data to train on ("EmotionCoT-35K, an
emotional reasoning dataset" built "to achieve" a model is training data, not a benchmark), and what
form a method takes (``method_forms``): a new architecture ("ZeroSiam, an efficient asymmetric Siamese
architecture", "a ... version of the recently proposed Mesa layer") or not.
"""

from __future__ import annotations

import re

from assistant.schema import CONTRIBUTION_LABELS as LABELS  # the order every label list comes in

BENCHMARK, METHOD, THEORY, EMPIRICAL, SURVEY, TOOL = LABELS
# Stored beside the labels; a store whose papers carry another version is relabelled (metadata only) on
# the next ingest. Raise it whenever a rule here or in ingest.main_contribution changes what a paper gets.
VERSION = 10  # 2: the main contribution; 3: what a benchmark/dataset is for; 4: each of several things put forward;
# 5: derived titles read again (a name another work introduced, "researchers introduced PER", is not the paper's);
# 6: what form a method takes (a new architecture); 7: or a new metric, and "by introducing X" puts X forward;
# 8: or a training-free one (``ingest.training_free``); 9: that also as a key of its own (``schema.TRAINING_FREE``);
# 10: what costs a paper cuts (``ingest.efficiency``, ``schema.SAVINGS``)

# Where an abstract's sentences break, and the markup ("**64**%", "$\\sim$") read past (ingest.efficiency too).
SENTENCE_BREAK = re.compile(r"(?<=[.!?])\s+(?=[A-Z*_\"'(\[\\])")
MARKUP = re.compile(r"[*_`$\\{}]+")
_ASIDE = re.compile(r"\s*\([^()]*\)")
_WORD = re.compile(r"[A-Za-z0-9][\w'\-]*")

# "we", "our", "this paper": the paper speaking of itself.
OWN_VOICE = re.compile(r"\b(?:we|our|us|this (?:paper|work|study|article|survey)|here)\b", re.I)
# The verbs a paper uses to put forward what it contributes, as "we [adverbs] VERB".
_CONTRIBUTE = re.compile(
    r"\b(?:we|(?:this|our)\s+(?:paper|work|study|article))\s+"
    r"(?:(?:join|follow|build\s+on|extend|revisit)\s+[\w\s-]{1,40}?\s+and\s+)?"  # "we join this line of work and introduce"
    r"(?:(?:also|first|further|then|additionally|next|now|"
    r"hence|therefore|thus|finally|newly|here|instead|jointly|carefully|systematically|comprehensively|empirically|"
    r"start\s+by)\s+)*"
    r"(?P<verb>introduc\w*|present\w*|propos\w*|develop\w*|design\w*|devis\w*|construct\w*|build\w*|built|"
    r"creat\w*|curat\w*|collect\w*|releas\w*|launch\w*|contribut\w*|establish\w*|provid\w*|offer\w*|"
    r"formulat\w*|conduct\w*|perform\w*|carr(?:y|ied)\s+out|open-sourc\w*|put\s+forward)\s+(?P<rest>.*)", re.I)
# "a data generation pipeline is developed": what comes before the verb, back to the last comma. The
# verb is searched for, not the phrase before it: a lazy match of that phrase tries every start.
_PASSIVE = re.compile(r"\b(?:is|are|was|were)\s+(?:\w+ly\s+)?(?:developed|proposed|introduced|constructed|built|curated|"
                      r"released|collected|created|designed)\b", re.I)
# Where the noun phrase after the verb ends: a relative clause, a preposition, a purpose.
# Words inside hyphenated compounds ("world-model-based", "in-context") do not end it.
_PHRASE_END = re.compile(r"[;:.!?]|(?<![\w-])(?:that|which|where|whose|who|to|for|from|with|on|in|across|using|via|by|"
                         r"through|of|into|under|over|based|derived|tailored|designed|called|named|termed|dubbed|capable|"
                         r"evaluating|measuring|assessing|covering|containing|comprising|spanning|targeting|featuring|"
                         r"consisting|and\s+(?:show|demonstrate|find|evaluate|study|use|apply))(?![\w-])", re.I)
_PHRASE_WORDS = 16
# "..., and LawSet, a training corpus", "... and a benchmark for X": the next of several things put forward (a new
# name or "a/an/our ...", not "and the results show")
_NEXT_CONTRIBUTION = re.compile(r",?\s+(?:and|as\s+well\s+as|along\s+with|together\s+with|plus)\s+"
                                r"(?=(?:a|an|our)\s|[A-Z][\w\-]*(?:\s*[,:(]|\s+(?:a|an)\s))")
_BY_PUTTING = re.compile(r"\s+by\s+(?:introducing|proposing|defining|designing|developing)\s+(?=(?:a|an|the|our)\s)", re.I)
_ACRONYM = re.compile(r"[^()]{0,80}?\((?P<acronym>[A-Z][\w\-]*[A-Z][\w\-]*)\)")  # "a framework (CRD) to ..."
_CONTAINS = re.compile(r"\s+(?:includes|contains|comprises|consists\s+of|bundles)\s+(?P<rest>.*)")

_KINDS = {
    BENCHMARK: {"benchmark", "benchmarks", "dataset", "datasets", "corpus", "corpora", "testbed", "testbeds",
                "leaderboard", "test-suite"},
    METHOD: {"method", "methods", "approach", "algorithm", "framework", "model", "architecture", "technique",
             "strategy", "mechanism", "module", "objective", "loss", "protocol", "paradigm", "pipeline", "scheme",
             "layer", "metric", "measure", "estimator", "procedure", "recipe", "regularizer", "optimizer",
             "extension", "variant", "version", "target", "formulation", "network", "agent", "encoder", "decoder",
             "planner", "solver", "system", "solution", "bonus", "score", "criterion", "concept", "attention",
             "policy", "prompting", "decoding", "sampling", "fine-tuning", "training", "tuning", "learning"},
    TOOL: {"library", "toolkit", "toolbox", "package", "platform", "software", "tool", "tools", "service", "repository",
           "environment", "api", "interface", "codebase", "gym"},
    SURVEY: {"survey", "review", "overview", "tutorial"},  # "position paper" is a phrase: _POSITION
}
_DATA_PHRASE = re.compile(r"\b(?:training|synthetic|instruction|preference|annotated|labell?ed)\s+(?:data|dataset|corpus)\b|"
                          r"\bdata(?:set)?\s+(?:synthesis|generation|curation|collection|construction)\b|"
                          r"\btest\s+suite\b|\bdata\s+set\b", re.I)
# What a resource is for (``Evidence.data_uses``): a benchmark evaluates; a dataset the paper's own sentence
# does not put to evaluation, or a data synthesis pipeline, is what models train on.
EVALUATION, TRAINING = "evaluation", "training"
DATA_USES = (EVALUATION, TRAINING)
_EVALUATION_NOUNS = {"benchmark", "benchmarks", "testbed", "testbeds", "leaderboard", "test-suite"}
_EVALUATION_CUE = re.compile(r"\b(?:evaluat\w*|assess\w*|benchmark\w*|test\s+suites?)\b", re.I)
_TRAINING_DATA = re.compile(r"\b(?:training|synthetic|instruction|preference)\s+(?:data|dataset|corpus)\b|"
                            r"\bdata(?:set)?\s+(?:synthesis|generation|curation|construction)\b", re.I)
# What form a method takes (``Evidence.method_forms``): a new architecture when the head noun of what the paper
# puts forward is one of these ("the Extrapolative Correlation Attention", "a Siamese architecture"), or is a
# "version" or "variant" of one ("a chunkwise parallelizable version of the recently proposed Mesa layer"); a new
# metric when it is a metric, a measure or a score ("THR, a token-level metric", "a group matching score"). Not
# "module" or "component": a retrieval module or a pipeline's component is part of a system, not of a network.
# A method that needs no training of the model is a form too, read off the whole abstract (``ingest.training_free``).
ARCHITECTURE, METRIC, TRAINING_FREE = "architecture", "metric", "training-free"
METHOD_FORMS = (ARCHITECTURE, METRIC, TRAINING_FREE)
_FORM_NOUNS = {ARCHITECTURE: {"architecture", "layer", "attention"},  # method nouns (_KINDS), as _head_noun reads them
               METRIC: {"metric", "measure", "score", "criterion"}}
_VARIANT_NOUNS = {"version", "variant", "extension", "generalization", "generalisation"}
_OF_AN_ARCHITECTURE = re.compile(r"\s*of\s+(?:(?:the|a|an|its|our)\s+)?(?:[\w-]+\s+){0,4}?(?:" +
                                 "|".join(sorted(_FORM_NOUNS[ARCHITECTURE] | {"transformer", "backbone"})) + r")s?\b", re.I)
_NOT_DATA = re.compile(r"\bdataset\s+(?:distillation|condensation|pruning|selection|bias|shift)\b", re.I)
_STUDY_NOUN = re.compile(r"\b(?:study|studies|investigation|analysis|analyses|evaluation|examination|comparison|audit)\b", re.I)
_STUDY_QUALIFIER = re.compile(r"\b(?:systematic|comprehensive|empirical|large-scale|extensive|in-depth|thorough|"
                              r"controlled|careful|rigorous\s+empirical)\b", re.I)
# A framework put forward as theory: what the paper names that way, and mentions after, is a theory contribution
_THEORETICAL_HEAD = re.compile(r"\btheoretical\s+(?:framework|model|formulation|foundation)s?\b", re.I)
_THEORY_WORD = re.compile(r"\btheoretical(?:ly)?\b(?![\s-]+(?:motivated|inspired|grounded))", re.I)

# Study cues. Setting out to answer a question about how things behave is a study by itself; a claim
# about how existing work behaves ("we show that widely used metrics underestimate ...") is a study
# only beside another cue, since method papers open with one such observation to motivate themselves.
_STUDY_VERB = r"(?:study|studies|investigate|examine|analy[sz]e|evaluate|quantify|measure|probe|characteri[sz]e|assess|understand)"
_STUDY = [
    re.compile(r"\bwe\s+(?:\w+\s+){0,2}?(?:systematically|empirically|comprehensively|closely|carefully|extensively|"
               r"thoroughly|rigorously)\s+" + _STUDY_VERB + r"\b", re.I),
    re.compile(r"\b(?:we|to)\s+" + _STUDY_VERB + r"\s+(?:whether|why|how|what|when|if|the\s+extent)\b", re.I),
    re.compile(r"\bwe\s+(?:\w+\s+)?revisit\b", re.I),
    re.compile(r"\bour\s+(?:study|investigation)\s+(?:yields?|reveals?|shows?|finds?|uncovers?)\b", re.I),
]
_FINDING = re.compile(r"\b(?:show|find|found|demonstrate|reveal|observe|uncover|suggest|indicate)s?\s+that\s+"
                      r"(?:the\s+|these\s+|many\s+|most\s+|such\s+)?(?:existing|current|widely[\s-]used|standard|common|"
                      r"prevailing|popular|established|state-of-the-art|today's|off-the-shelf)\b", re.I)
_THEORY = [
    re.compile(r"\bwe\s+(?:\w+\s+){0,2}?(?:prove[sd]?|derived?)\b(?!\s+from)", re.I),
    re.compile(r"\bprovabl[ey]\b|\b(?:convergence|approximation|statistical|formal|optimality|recovery)\s+guarantees?\b",
               re.I),
    re.compile(r"\b(?:sample|iteration|query)\s+complexity\b|\bconvergence\s+(?:rate|guarantee)s?\b|\bnon-asymptotic\b|"
               r"\b(?:upper|lower|generalization|regret|error)\s+(?:bounds|bound\s+(?:on|for))\b|\btheorem\b(?!\s+prov)", re.I),
]
_POSITION = re.compile(r"\bposition\s+paper\b|\bthis\s+(?:paper|work)\s+(?:argues|takes\s+the\s+position)\b|"
                       r"\bwe\s+(?:take\s+the\s+position|advocate|call\s+(?:on|for)\s+the\s+(?:community|field))\b|"
                       r"\bwe\s+(?:\w+\s+)?(?:survey|review)\s+(?:the|recent|existing|over|more\s+than|\d+)\b|"
                       r"\b(?:in\s+)?this\s+(?:survey|review|position\s+paper)\b", re.I)
_OPEN_SOURCE = re.compile(r"\bopen[\s-]sourc\w*\b[^.]{0,40}\b(?:library|toolkit|package|platform|software|tool)\b", re.I)
_TITLE = [
    (SURVEY, re.compile(r"^\s*position\s*:|\bposition\s+paper\b|\bsurvey\b|\bsystematic\s+review\b|\ba\s+review\s+of\b|"
                        r"\boverview\s+of\b", re.I)),
    (BENCHMARK, re.compile(r"\b(?:benchmark|dataset|corpus)\b", re.I)),
    (TOOL, re.compile(r"\b(?:library|toolkit|toolbox)\b", re.I)),
]


def label(title: str, text: str) -> list[str]:
    """The kinds of contribution ``text`` (an abstract) claims, in ``LABELS`` order; at least one.

    ``title`` is the paper's own title if it has one ("" otherwise): "A Survey of ..." or
    "X: A Benchmark for ..." say what the paper is even when the abstract is terse."""
    return evidence(title, text).labels()


def evidence(title: str, text: str) -> "Evidence":
    """Everything the rules read in a paper's title and abstract (see ``label``)."""
    found = Evidence()
    found.read_title(title)
    for sentence in SENTENCE_BREAK.split(MARKUP.sub("", text)):
        found.read(sentence)
    return found


class Evidence:
    """What the sentences of one abstract have said so far, and the names it introduced.

    ``score`` counts the cues for each kind (a title's word among them); ``sentences`` counts the
    sentences that gave each kind, to tell a paper's main contribution from one mentioned once in
    passing. ``trail`` holds, per sentence in order (the title first), the kinds that sentence is
    about: what its cues give, but of a contribution phrase only its head ("a data synthesis
    framework" is a framework), and the kind of any name the abstract coined earlier that it
    mentions ("GEB consistently outperforms ...")."""

    def __init__(self) -> None:
        self.score = {kind: 0 for kind in LABELS}
        self.sentences = {kind: 0 for kind in LABELS}
        self.findings = 0  # claims about how existing work behaves (see _FINDING)
        self.named_method = False  # a coined name introduced as a method: the paper's method, not a side fix
        self.names: dict[str, set[str]] = {}  # name -> kinds it was introduced as
        self.trail: list[set[str]] = []  # per sentence, the kinds it is about
        self.finding_at: list[int] = []  # the trail positions of the findings
        self.coined: dict[str, str] = {}  # name or its acronym -> the head kind it was introduced as
        self.introduced_at: dict[str, int] = {}  # name -> the trail position of the sentence introducing it
        self.data_uses: set[str] = set()  # what its benchmarks and datasets are for (EVALUATION, TRAINING)
        self.method_forms: set[str] = set()  # what form its methods take (METHOD_FORMS)
        self._sentence = ""  # the sentence being read
        self._current: set[str] = set()  # kinds the sentence being read gave
        self._about: set[str] = set()  # kinds the sentence being read is about (its trail entry)

    def add(self, kind: str, head: bool = True) -> None:
        self.score[kind] += 1
        self._current.add(kind)
        if head:
            self._about.add(kind)

    def read_title(self, title: str) -> None:
        self._current, self._about = set(), set()
        self._sentence = MARKUP.sub("", title)
        for kind, pattern in _TITLE:
            if title and pattern.search(self._sentence):
                self.add(kind)
                if kind == BENCHMARK:
                    self._data_use(self._sentence)
        self.trail.append(self._about)

    def read(self, sentence: str) -> None:
        self._current, self._about = set(), set()
        self._sentence = sentence
        coined_before = set(self.coined)
        own = bool(OWN_VOICE.search(sentence)) or any(sentence.startswith(name + " ") for name in self.names)
        for match in _CONTRIBUTE.finditer(sentence):
            self._contributed(match.group("rest"))
        passive = _PASSIVE.search(sentence)
        if passive:
            before = re.split(r"[,;:]", sentence[:passive.start()])[-1]
            self._classify(before.split()[-10:], named=None)
        self._containment(sentence)
        if own:
            theoretical = bool(_THEORY_WORD.search(sentence) or any(p.search(sentence) for p in _THEORY))
            if theoretical:
                self.add(THEORY)
            if any(p.search(sentence) for p in _STUDY):
                self.add(EMPIRICAL)
            elif _FINDING.search(sentence) and not theoretical:  # "we theoretically show that existing ..." is theory
                self.findings += 1
                self.finding_at.append(len(self.trail))
            if _POSITION.search(sentence):
                self.add(SURVEY)
            if _OPEN_SOURCE.search(sentence):
                self.add(TOOL)
        for kind in self._current:
            self.sentences[kind] += 1
        for name, kind in self.coined.items():  # as they stand now: "X includes a benchmark" made X one
            if name in coined_before and re.search(r"(?<![\w-])" + re.escape(name) + r"(?![\w-])", sentence):
                self._about.add(kind)
        self.trail.append(self._about)

    def _contributed(self, rest: str) -> None:
        """The phrases after "we introduce/propose/conduct ...": what the paper puts forward, each of "LawBench,
        a benchmark, and LawSet, a training corpus" on its own."""
        for part in _NEXT_CONTRIBUTION.split(rest, maxsplit=3):
            for piece in _BY_PUTTING.split(part, maxsplit=1):  # "an extension to PER by introducing a novel measure"
                self._contribution(piece)

    def _contribution(self, rest: str) -> None:
        """One thing the paper puts forward: "LawBench, a benchmark for legal reasoning"."""
        acronym = _ACRONYM.match(rest)
        rest = _ASIDE.sub("", rest)
        name = _leading_name(rest)
        if name:  # "LEXam: a benchmark ..." reads as "LEXam, a benchmark ..."
            after = rest[rest.index(name) + len(name):]
            rest = name + ", " + after.lstrip(" :,\u2014-")
        end = _PHRASE_END.search(rest)
        phrase = rest[:end.start()] if end else rest
        kinds = self._classify(_WORD.findall(phrase)[:_PHRASE_WORDS], named=name, text=phrase)
        if METHOD in kinds and _head_noun(phrase, {METHOD}) in _VARIANT_NOUNS and end \
                and _OF_AN_ARCHITECTURE.match(rest, end.start()):  # "a stable version of the Mesa layer"
            self.method_forms.add(ARCHITECTURE)
        if _STUDY_NOUN.search(phrase):
            if _THEORY_WORD.search(phrase):
                self.add(THEORY)
            elif _STUDY_QUALIFIER.search(phrase):
                self.add(EMPIRICAL)
        theoretical = bool(_THEORETICAL_HEAD.search(phrase))  # "GEB, a novel theoretical framework": a theory
        if theoretical:
            self.add(THEORY)
        if name:
            self.names[name] = kinds
            self.introduced_at[name] = len(self.trail)
        head = THEORY if theoretical else _head(phrase, kinds)
        for coined in (name, acronym and acronym.group("acronym")):
            if coined and head:
                self.coined[coined] = head

    def _classify(self, words: list[str], named: str | None, text: str | None = None) -> set[str]:
        """The kinds a contribution phrase gives (``words``, or ``text`` as written, for its commas);
        the trail takes only its head's (``_head``)."""
        phrase = " ".join(words)
        kinds = {kind for kind, nouns in _KINDS.items() if any(w.lower() in nouns for w in words)}
        if METHOD in kinds and _TRAINING_DATA.search(phrase):  # "a training corpus" is no training method
            rest = _WORD.findall(_TRAINING_DATA.sub(" ", phrase))
            if not any(w.lower() in _KINDS[METHOD] for w in rest):
                kinds.discard(METHOD)
                kinds.add(BENCHMARK)
        if _DATA_PHRASE.search(phrase):
            kinds.add(BENCHMARK)
        if BENCHMARK in kinds and _NOT_DATA.search(phrase) and not _DATA_PHRASE.search(phrase):
            kinds.discard(BENCHMARK)
        if BENCHMARK in kinds:
            self._data_use(text if text is not None else phrase)
        if named and not kinds:
            kinds = {METHOD}  # "we introduce PoLR, the first inference-time ..." names a new artifact
        head = _head(text if text is not None else phrase, kinds)
        for kind in kinds:
            self.add(kind, head=kind == head)
        noun = _head_noun(text if text is not None else phrase, {METHOD}) if head == METHOD else None
        self.method_forms |= {form for form, nouns in _FORM_NOUNS.items() if noun in nouns}
        if named and METHOD in kinds:
            self.named_method = True
        return kinds

    def _data_use(self, phrase: str) -> None:
        """What the resource a contribution phrase names is for: "a benchmark", or "a dataset" in a sentence
        that evaluates with it, is for evaluation; "training data", "a data generation pipeline", or a dataset
        the sentence does not evaluate with, for training."""
        words = {w.lower() for w in _WORD.findall(phrase)}
        if words & _EVALUATION_NOUNS or re.search(r"\btest\s+suite\b", phrase, re.I):
            self.data_uses.add(EVALUATION)
        elif _TRAINING_DATA.search(phrase) or not _EVALUATION_CUE.search(self._sentence):
            self.data_uses.add(TRAINING)
        else:
            self.data_uses.add(EVALUATION)

    def _containment(self, sentence: str) -> None:
        """ "Lean4PHYS includes LeanPhysBench, a benchmark": a named collection of resources is not a method."""
        for name, kinds in list(self.names.items()):
            match = _CONTAINS.match(sentence, len(name)) if sentence.startswith(name) else None
            if not match:
                continue
            inner_name = _leading_name(match.group("rest"))
            inner = self._classify(_WORD.findall(_ASIDE.sub("", match.group("rest")))[:_PHRASE_WORDS], named=inner_name)
            if inner_name and _head(match.group("rest"), inner):
                self.coined[inner_name] = _head(match.group("rest"), inner)
            if METHOD in kinds and inner & {BENCHMARK, TOOL} and METHOD not in inner:
                self.score[METHOD] -= 1
                self.sentences[METHOD] -= 1
                self.names[name] = kinds - {METHOD}
                at = self.introduced_at.get(name, len(self.trail))  # the collection was never a method
                (self.trail[at] if at < len(self.trail) else self._about).discard(METHOD)
                self.coined[name] = _head(match.group("rest"), inner) or BENCHMARK  # it is what it holds

    def labels(self) -> list[str]:
        score = dict(self.score)
        if self.findings and (score[EMPIRICAL] or self.findings >= 2):
            score[EMPIRICAL] += self.findings
        # A study or a resource paper often ends with "we propose a simple fix": one unnamed mention is
        # not a method contribution when the rest of the abstract is about the study or the resource.
        if self.sentences[METHOD] == 1 and not self.named_method and \
                self.sentences[EMPIRICAL] + self.sentences[BENCHMARK] >= 2:
            score[METHOD] = 0
        chosen = [kind for kind in LABELS if score[kind] > 0]
        return chosen or [METHOD]


def _head(phrase: str, kinds: set[str]) -> str | None:
    """The kind of a contribution phrase's head noun: the last word of a kind in its first noun phrase
    (up to the first comma that has one), so "a policy evaluation environment" is a tool and "a data
    synthesis framework" a method. A phrase with a kind but no such word (a data phrase, a bare name)
    has the one kind it was given, or the first in ``LABELS`` order."""
    if not kinds:
        return None
    for part in phrase.split(","):
        heads = [kind for word in _WORD.findall(part) for kind, nouns in _KINDS.items()
                 if kind in kinds and word.lower() in nouns]
        if heads:
            return heads[-1]
    return next(kind for kind in LABELS if kind in kinds)


def _head_noun(phrase: str, kinds: set[str]) -> str | None:
    """The head noun of a contribution phrase among the nouns of ``kinds``, lower-cased, found as ``_head``
    finds its kind: "ZeroSiam, an efficient asymmetric Siamese architecture" -> "architecture"."""
    for part in phrase.split(","):
        nouns = [word.lower() for word in _WORD.findall(part) if any(word.lower() in _KINDS[k] for k in kinds)]
        if nouns:
            return nouns[-1]
    return None


def _leading_name(rest: str) -> str | None:
    """The coined name a contribution phrase starts with: "PoLR, the first ...", "the General Exploratory Bonus"."""
    match = re.match(r"(?:the\s+)?(?P<name>[A-Z][\w\-]*(?:\s+[A-Z][\w\-]*){0,4})(?=[\s,.;:]|$)", rest)
    if not match:
        return None
    name = match.group("name")
    if name.split()[0] in {"A", "An", "The", "This", "These", "Our", "It", "In", "On", "We"}:
        return None
    return name
