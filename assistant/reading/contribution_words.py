"""The words of the rules' reading of kinds of contribution: the words that name each kind ("benchmark",
"theoretical"), what a dataset is for, the forms a method takes, and the frames that ask for a kind or set one aside.
``reading.contributions_asked`` and ``reading.examples`` read questions with them.
"""

from __future__ import annotations

import re

from ..query_words import ASKING_WORDS, FUNCTION_WORDS, NOT_TOPIC_WORDS
from ..schema import BENCHMARK


# What a question asks benchmark/dataset papers' resources to be for (ingest/contributions.py reads it off each
# paper): "benchmarks" are to evaluate on, "training data" to train on; a bare "dataset" or "corpus" is either.
DATA_USE_WORDS = {
    "evaluation": r"benchmarks?|test\s+suites?|testbeds?|leaderboards?|evaluation\s+(?:data(?:sets?)?|suites?|sets?)",
    "training": r"(?:(?:(?:pipelines?|frameworks?|methods?)\s+)?(?:for|to)\s+(?:synthesi[sz]\w*|generat\w*|produc\w*|curat\w*|construct\w*|creat\w*|(?:crank|churn|pump)\w*\s+out)\s+"
                r"(?:(?:training|synthetic|instruction|fine-tuning|sft)\s+)+data(?:sets?)?"  # "a pipeline for synthesizing training data"
                r"|(?:(?:training|fine-tuning|instruction|synthetic|preference|sft)[\s-]+)+(?:data(?:sets?)?|corpus|corpora|sets?)"
                r"|data(?:set)?(?=[\s-]+(?:synthesis|generation|curation|construction)))"
                r"(?:[\s-]+(?:synthesis|generation|curation|construction))?(?:[\s-]+(?:pipelines?|frameworks?))?",
}
DATA_USE_NAMES = {"evaluation": "benchmarks", "training": "training data"}

# What form a question asks method papers' methods to take (ingest/contributions.py reads it off each paper), asked as
# something a paper puts forward: a new architecture ("propose a new network architecture or layer design", "new
# attention mechanisms", "architecture papers"), or a new metric ("introduce a new metric or measure", "new evaluation
# metrics"). The bare nouns are a topic: "a theoretical analysis of core architectures like softmax attention" asks for
# theory on them, "papers that measure reasoning" or "propose to measure" for no metric.
METHOD_FORM_WORDS = {
    "architecture": r"(?:(?:neural\s+)?network\s+|model\s+)?(?:architecture\s+(?:components?|designs?|changes?)|architectures?|"
                    r"architectural\s+(?:components?|changes?|designs?|modifications?|innovations?|contributions?)|"
                    r"layers?(?:\s+designs?)?|attention\s+(?:mechanisms?|variants?|layers?|modules?)|backbones?|network\s+designs?)",
    "metric": r"(?:evaluation\s+|scoring\s+)?(?<!to\s)(?:metrics?|measures?|scores?|scoring\s+(?:functions?|rules?|methods?)|criteri(?:on|a))",
}
METHOD_FORM_NAMES = {"architecture": "new architectures", "metric": "new metrics"}
_PUT_FORWARD = (r"\b(?:new|novel|own|propos\w*|introduc\w*|design\w*|develop\w*|present\w*|contribut\w*|defin\w*)\s+"
                r"(?:(?:a|an|the|their|its|new|novel|own)\s+)*(?:[\w-]+\s+){0,2}?")
FORM_ASKED = {form: re.compile(_PUT_FORWARD + words + r"\b" + (r"|\barchitecture\s+papers?\b|\barchitectural\s+(?:papers?|work)\b"
                                                              if form == "architecture" else ""), re.IGNORECASE)
               for form, words in METHOD_FORM_WORDS.items()}
FORM_WORDS = {form: re.compile(rf"\b{words}\b", re.IGNORECASE) for form, words in METHOD_FORM_WORDS.items()}


def form_in(text: str) -> str | None:
    """The method form ``text`` asks for, if any (``METHOD_FORM_WORDS``)."""
    return next((form for form, pattern in FORM_ASKED.items() if pattern.search(text)), None)


KIND_SUFFIX = r"(?:-(?:style|type|heavy|focused|oriented))?"  # "analysis-style papers", "theory-heavy papers"
# The kinds of contribution ingest labels a paper with (ingest/contributions.py), and the words a question
# uses for each. "theorem proving" is a topic, not a kind: only "theory"/"theoretical" ask for theory.
CONTRIBUTION_WORDS = {
    BENCHMARK: r"benchmarks?|datasets?|corpus|corpora|test suites?|test\s+beds?|test\s+sets?|"
               r"(?:tests?|exams?)(?:\s+(?:or|and)\s+(?:tests?|exams?))?\s+(?:for|to)\s+(?:measur|evaluat|assess|gaug|scor)\w*|" + DATA_USE_WORDS["evaluation"] + "|"
               + DATA_USE_WORDS["training"],
    "theory": r"theor(?:y|ies|etical(?:ly)?)(?:\s+(?:analys[ie]s|frameworks?|results?|justifications?|foundations?|"
              r"insights?|evidence|guarantees?|proofs?|bounds?|treatments?|arguments?|characteri[sz]ations?|"
              r"understanding|perspectives?|contributions?|(?:or|and)\s+(?:proofs?|guarantees?|bounds?)))?|(?:formal|provable|convergence)\s+guarantees?|provabl[ey]"
              # what a theory paper does: "prove theorems about transformers", "derive generalization bounds"
              r"|prov(?:e|es|ed|ing)\s+(?:that|theorems?|convergence|(?:\w+\s+)?bounds?)"
              r"|(?:convergence|optimality|correctness)\s+proofs?"
              r"|(?:generali[sz]ation|regret|sample[\s-]complexity|error|convergence)\s+(?:bounds?|rates?)"
              r"|deriv(?:e|es|ed|ing)\s+(?:\w+\s+){0,2}?(?:bounds?|guarantees?|theorems?)"
              r"|(?:rigorous|mathematical|formal)\s+(?:theoretical\s+)?(?:analys[ie]s|treatments?|characteri[sz]ations?)"
              r"|(?:math|mathematical)\s+(?:theory|theories|proofs?)(?:\s+(?:or|and)\s+proofs?)?|guarantees",  # "real math theory", "bounds or guarantees"
    "empirical study/analysis": r"empirical(?:ly)?\s+(?:stud(?:y|ies)|analys[ie]s|investigations?|evaluations?)"
                                r"|(?:systematic|large-scale)\s+(?:stud(?:y|ies)|analys[ie]s|investigations?)"
                                r"|analysis" + KIND_SUFFIX + r"\s+(?:papers?|stud(?:y|ies))"
                                r"|(?:mostly|mainly|purely|primarily|largely|chiefly)\s+experiment(?:s|al)"
                                r"|(?<!theoretical\s)(?<!formal\s)(?<!rigorous\s)(?<!mathematical\s)analys[ie]s(?=\s+of\b)"  # "papers that are analyses of pre-training"
                                r"|(?:mainly|purely|primarily|mostly|largely|chiefly|predominantly)\s+empirical"  # "purely empirical"
                                r"|(?:analy[sz]e|analy[sz]es|investigate|investigates|examine|examines|explain|explains)"
                                r"\s+why\b"  # "which papers analyze why RL fine-tuning works?"
                                r"|stud(?:y|ies)\s+(?:that|which)\s+(?:analy[sz]e|investigate|examine|look\s+(?:at|into))\s+how\b",
    "survey/position": r"surveys?|position\s+(?:papers?|pieces?)|overviews?|literature\s+reviews?|reviews?\s+of\s+the\s+literature"
                       r"|review\s+(?:articles?|papers?)|(?:opinion|perspective)\s+(?:papers?|pieces?)|argue\s+(?:a|for\s+a)\s+position",
    "system/tool": r"toolkits?|(?:code\s+)?(?:librar(?:y|ies)|repositor(?:y|ies))|software|open-source\s+tools?|systems?\s+papers?"
                   r"|systems?\s+(?:or|and)\s+tools?|tools?\s+(?:or|and)\s+systems?"
                   # "a system or tool"; not what a paper uses something as ("AI as a tool for science")
                   r"|(?<!\bas\s)(?:an?|new|software)\s+(?:system|tool)(?:\s+or\s+(?:an?\s+)?(?:system|tool))?",
}
KIND_WORDS = "|".join(CONTRIBUTION_WORDS.values())  # any word naming a kind of contribution
CONTRIBUTION = {label: re.compile(rf"\b(?:{words})\b", re.IGNORECASE) for label, words in CONTRIBUTION_WORDS.items()}
DATA_USE = {use: re.compile(rf"\b(?:{words})\b", re.IGNORECASE) for use, words in DATA_USE_WORDS.items()}
# A question asks for a kind of paper when it asks what papers *are* or *contribute*, not what they use.
KIND_FRAME = re.compile(r"\b(?:introduc|propos|present|releas|contribut|build|construct|creat|offer|provid|new|"
                         r"giv|develop|deriv|conduct|has|have|prove|proves|proved|proving|argue|argues|"
                         r"(?:analy[sz]e|analy[sz]es|investigate|investigates|examine|examines|explain|explains)\s+why|"
                         r"are|is|any|mainly|purely|primarily|mostly|main|include|includes|including|contain|contains|containing)\w*\b",
                         re.IGNORECASE)
# A kind said of the papers themselves: "theory papers on attention", "any benchmark papers?", "analysis work on
# RL" (every paper with that label, as "are there any theoretical papers?" asks; "mainly" asks for the main one).
PAPER_KINDS = "theory theoretical benchmark dataset survey position analysis empirical system tool".split()
KIND_OF_PAPER = re.compile(r"\b(?:" + "|".join(PAPER_KINDS) + r"|architecture)" + KIND_SUFFIX + r"\s+(?:papers?|works?)\b",
                            re.IGNORECASE)
# A kind as the head of a fragment: "mamba theory", "agent benchmarks?", "rl theory papers"
KIND_LAST = re.compile(r"^[^?.!;:,]*?\b[\w-]+\s+(?:theory|theories|benchmarks?|datasets?|surveys?)(?:\s+(?:papers?|works?))?\s*[?.!]*\s*$",
                        re.IGNORECASE)
# A kind a paper brings to what it claims: "papers that back their claims with theory", "support their method
# with a theoretical analysis". Theory, since a paper contributes it; "train with synthetic data" uses data.
BACKED_BY = re.compile(r"\b(?:back(?:s|ed)?|support(?:s|ed)?|justif\w*|ground(?:s|ed)?|with)\s+(?:\w+\s+){0,3}?"
                        r"(?:theor(?:y|ies|etical(?:ly)?)|proofs?|guarantees?)\b", re.IGNORECASE)
# What follows these is what the question does *not* want ("empirical studies rather than new benchmarks").
_SETTING_ASIDE = r"rather than|instead of|as opposed to|not|but not|excluding|exclude|other than"
_CONCEDING = r"even if|even when|even where|even though|although|though|regardless of"  # a concession is not asked for either
EXCLUSION = re.compile(r"\b(?:" + _SETTING_ASIDE + "|" + _CONCEDING + r")\b.*$",
                        re.IGNORECASE | re.DOTALL)

# "not" that sets something aside, unlike "not just X", which asks for more than X and searches it too
NOT_SETTING_ASIDE = r"not(?!\s+(?:only|just|merely|simply|necessarily)\b)"
# A contrast inside a question, up to the end of its clause: "agents that are not language models, e.g.
# game-playing agents" searches for "agents that, e.g. game-playing agents". What a question sets aside is
# no topic to search for: its words would pull in the very papers it excludes. "Methods that do not need
# labels" stays whole: there the negation is the property asked for.
CONTRAST = re.compile(r"\s*\b(?:rather than|instead of|as opposed to|other than|but not|excluding|(?:please\s+)?exclude|"
                       r"(?:(?:that|which)\s+)?(?:have|has)\s+nothing\s+to\s+do\s+with|unrelated\s+to|outside\s+(?:of\s+)?|"
                       r"(?:are|is|were|was)\s+not|(?:are|is)n't|(?:(?<=,\s)|(?<=,))" + NOT_SETTING_ASIDE + r")"
                       r"\b[^,;.?!()]*\)?",  # "X, not a training trick"
                       re.IGNORECASE)


# what a question on a kind says in parentheses, or between two dashes, gives examples of the kind
ASIDE = re.compile(r"\([^()]*\)|\s(?:--|—|–)\s[^—–()]*?\s(?:--|—|–)\s")
# What a question on a kind sets aside, up to the end of its clause: the clause after it may be the topic ("analysis
# papers, not method papers, that test whether models generalize").
# A kind set aside ends there when the topic follows it: "methods rather than benchmarks for robot manipulation",
# "methods rather than datasets address long-video understanding"; not a clause on the kind ("not benchmarks that ...").
KIND_SET_ASIDE = re.compile(r"\b(?:" + _SETTING_ASIDE + r")\s+"
                             r"(?:\w+\s+){0,2}?(?:" + KIND_WORDS + r")\b"
                             r"(?=\s+(?!(?:that|which|who|whose|and|or|but|nor)\b)\w)(?!\s+\w+\s+(?:them|it|these|those|this)\b)",
                             re.IGNORECASE)
EXCLUDED_CLAUSE = re.compile(KIND_SET_ASIDE.pattern + r"|\b(?:" + _SETTING_ASIDE + "|" + _CONCEDING + r")\b[^,;.?!]*",
                              re.IGNORECASE)


# Words every paper of the store is about, and what a resource is used for: "benchmarks for evaluating models" names
# no topic the benchmarks must be on.
ANY_PAPER = frozenset("model models llm llms language large ai system systems neural network networks machine learning "
                       "evaluating evaluation evaluate testing assessing training".split())
# What a question on a kind says of the papers besides their topic: "give a theoretical analysis of ...", "back it
# with theory", "empirical studies that examine RL", "new curated benchmarks in the collection".
SAID_OF_THE_PAPERS = ASKING_WORDS | FUNCTION_WORDS | frozenset("""
new novel mainly purely primarily mostly main contribution contributions collection store kind kinds type types
introduce introduces introduced propose proposes proposed present presents presented contribute contributes
contributed include includes included including list show find give gives get release releases released releasing
offer offers offered provide provides provided dedicated specialized specialised curated high-quality large small
challenging standard custom back backs backed support supports supported develop develops derive derives conduct
conducts train trains trained put forward build builds built construct constructs collect collects collected newly
large-scale systematic something anything measure measures study studies examine examines investigate investigates
analyze analyzes analyse analyses explore explores prove proves proving argue argues i i'm i’m we we're we’re looking
searching interested need want actually really exactly
their its own method methods approach approaches tasks questions problems core itself themselves submission submissions
genuine actual real proper solid component components element elements side part giving offering providing
piece pieces idea ideas up brand-new shiny good contain contains containing""".split())  # "back their proposed method with theory": any paper's
# What a clause says of models doing things, naming no topic ("how existing models behave"): ``_topic_in_clause``
MODELS_DOING = ANY_PAPER | SAID_OF_THE_PAPERS | NOT_TOPIC_WORDS | frozenset("""existing current today behave behaves
behaving behavior behaviour behaviors behaviours work works working perform performs performance do does did happen
happens fail fails failing actually really well badly learn learns affect affects paradigm paradigms method methods
approach approaches technique techniques""".split())
