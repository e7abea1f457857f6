"""Paper-level search on the bundled corpus: the right papers, and none when nothing fits."""

from __future__ import annotations

import pytest

from assistant.filters import Filter
from assistant.search import Gate

from .conftest import expected_ids


def test_reasoning_token_usage_finds_polr_and_laser_d(corpus):
    titles = [h.title for h in corpus.search("which papers reduce reasoning token usage", k=5)]
    assert any(t.startswith("PoLR") for t in titles)
    assert any(t.startswith("LASER-D") for t in titles)


def test_dev_questions_find_their_papers(corpus, dev_set):
    papers = corpus.papers()
    answerable = [row for row in dev_set if row["relevant"]]
    found = 0
    for row in answerable:
        expected = expected_ids(papers, row["relevant"])
        assert expected, row
        got = [h.id for h in corpus.search(row["question"], k=5)]
        found += bool(expected & set(got))
    assert found / len(answerable) >= 0.95


@pytest.mark.parametrize("question", ["tell me about PoLR", "what is LASER-D", "GDPval", "ThinkMerge",
                                      "what is WebShaper", "tell me about AdaBack", "tell me about Echo"])
def test_names_find_their_paper_first(corpus, question):
    name = question.split()[-1].lower()
    assert corpus.search(question, k=3)[0].title.lower().startswith(name)


@pytest.mark.parametrize("question, title", [("what is LaserD", "LASER-D"), ("explain THINK MERGE", "THINKMERGE"),
                                             ("what is Think-Merge?", "THINKMERGE"), ("deep eyes", "DeepEyes"),
                                             ("web shaper data synthesis", "WebShaper"), ("Parallel R1", "Parallel-R1")])
def test_names_typed_another_way_find_their_paper(corpus, question, title):
    hits = corpus.search(question, k=3)
    assert hits and hits[0].title.startswith(title + ":")


def test_name_speller_rewrites_only_other_spellings():
    from assistant.spelling import NameSpeller, title_name

    speller = NameSpeller(["LASER-D: Dynamic and Difficulty-aware", "Echo: a LALM capable of ...", "ECA: Extrapolative ...",
                           "Why LLMs perform sub-optimally in decision-making scenarios.", "EmotionThinker"])
    assert speller.respell("is LaserD better than laser d?") == "is LASER-D better than LASER-D?"
    assert speller.respell("emotion thinker for speech") == "EmotionThinker for speech"
    assert speller.respell("echo chambers and eca") == "echo chambers and eca"  # case only, or too short
    assert speller.respell("why LLMs perform sub-optimally") == "why LLMs perform sub-optimally"  # a phrase is no name
    assert title_name("PoLR: Path of Least Resistance") == "PoLR" and title_name("A theoretical framework for ...") is None


def test_name_speller_finds_coined_names_only():
    from assistant.spelling import NameSpeller

    speller = NameSpeller(["Rosix-4870: Adaptive Reasoning Sampling", "GRACE: Generative ...", "Echo: a LALM ...",
                           "PoLR: Path of Least Resistance", "Why LLMs perform sub-optimally."], ["r", "g", "e", "p", "w"])
    assert speller.named("what is rosix 4870, and how does it compare with polr?") == ["r", "p"]
    assert speller.named("compare PoLR with GRACE") == ["p", "g"]
    assert speller.named("grace under pressure; echo chambers; Echo") == []  # words, not names
    given = NameSpeller(["Deep Learning: a survey", "Self-Consistency: sampling ...", "LASER-D: Dynamic ..."], ["d", "s", "l"])
    assert given.named("deep learning and self-consistency for LASER-D") == ["l"]  # titles people gave
    assert given.named("what is laser-d") == []  # capitals are the name: typed in lower case it is found by search
    # a name of three capitals counts as the title writes it, in the order the question names them
    short = NameSpeller(["THR: Token Hidden Reward", "SFPO: Slow-Fast Policy Optimization", "ECA: Extrapolative ..."],
                        ["t", "s", "e"])
    assert short.named("How do SFPO and THR each change GRPO?") == ["s", "t"]
    assert short.named("thr, Eca, THRs or ECA-like") == []


def test_name_speller_tells_english_words_from_names():
    """Typed in lower case, an English word is the word ('faster', not the paper FASTer; 'grace'), and a name of
    capitals that is no English word is the name ('echosat' for ECHOSAT); 'DIAL-G2' is how 'DIAL-G²' is typed."""
    from assistant.spelling import NameSpeller, name_key
    from assistant.typos import EnglishWords

    speller = NameSpeller(["FASTer: Toward Efficient Models", "ECHOSAT: Estimating Canopy Height",
                           "DIAL-G²: Graph-Guided Dialectical Agent", "GRACE: Generative ..."], ["f", "e", "d", "g"],
                          words=EnglishWords())
    assert speller.named("a map of dynamics that is more accurate and faster") == []
    assert speller.named("what does FASTer do?") == ["f"]
    assert speller.named("echosat data sources") == ["e"]
    assert speller.named("DIAL-G2 what is it") == ["d"]
    assert speller.named("grace under pressure") == []
    # a title's hyphenated name of ordinary words names its paper when no other paper holds it joined
    held = {"blueprintbench": 1, "selfconsistency": 79}
    compound = NameSpeller(["Blueprint-Bench: Comparing spatial intelligence", "Self-Consistency: sampling ..."],
                           ["b", "s"], words=EnglishWords(), compound_papers=lambda name: held[name_key(name)])
    assert compound.named("blueprint bench findings") == ["b"]
    assert compound.named("self-consistency for reasoning") == []


def test_a_named_paper_is_found_even_when_the_encoder_misses_it(make_assistant, tmp_path):
    """A coined name means little to the encoder; naming the paper finds it at any corpus size."""
    folder = tmp_path / "papers"
    folder.mkdir()
    (folder / "named.txt").write_text(
        "header\n\nWe introduce QorVintax-4417 (Sparse Relay Calibration), a method for graph coloring that "
        "assigns colors by propagating constraints along sparse relays between distant vertices.\n\n"
        "We study how migrating birds navigate at night by sensing the geomagnetic field of the earth.\n")
    assistant = make_assistant(tmp_path / "home")
    assistant.ingest([folder])
    for question in ("tell me about QorVintax-4417", "what is qorvintax 4417?"):
        hits = assistant.search(question, k=5)
        assert hits and hits[0].title.startswith("QorVintax-4417"), question
        assert hits[0].score < assistant.settings.min_score  # the gate alone would have dropped it


def test_a_short_query_keeps_every_paper_holding_its_words(corpus):
    # ProofOptimizer's relevance (0.65) is under 0.85 x Lean4PHYS's (0.81): the relative cut alone dropped it.
    titles = [h.title for h in corpus.search("papers on Lean", k=5)]
    assert sorted(t.split(":")[0] for t in titles) == ["Lean4PHYS", "ProofOptimizer"]


def test_unanswerable_questions_return_nothing(corpus, dev_set):
    for row in dev_set:
        if not row["relevant"]:
            assert corpus.search(row["question"], k=5) == [], row["question"]


def test_result_shape(corpus):
    hit = corpus.search("proof simplification for Lean", k=1)[0]
    data = hit.as_dict()
    assert set(data) == {"id", "title", "sources", "score", "text", "passage", "topic", "contributions",
                         "main_contribution", "data_uses", "method_forms", "savings", "url", "primary_area", "tldr",
                         "decision"}
    assert data["url"] is None and data["primary_area"] is None  # the bundled abstracts give neither
    assert data["topic"] is None  # set only for a question on several topics
    assert data["contributions"] == ["method"]  # ProofOptimizer: its kinds of contribution, labelled at ingest
    assert data["main_contribution"] == "method" and data["data_uses"] == []  # no benchmark or dataset
    assert data["method_forms"] == []  # a proof-shortening model, not a new architecture
    assert data["savings"] == []  # it shortens proofs, and says no cost of its own is cut
    assert data["passage"] in data["text"] and len(data["text"]) > len(data["passage"])
    assert data["sources"][0]["file"].endswith(".txt")


def test_filter_by_source_file(corpus):
    hits = corpus.search("reasoning", k=10, where={"file": "004_6909a62b24dbb033.txt"})
    assert hits and all(any(s["file"] == "004_6909a62b24dbb033.txt" for s in h.sources) for h in hits)


def test_llama_index_retriever(corpus):
    from llama_index.core.base.base_retriever import BaseRetriever
    from llama_index.core.schema import NodeWithScore

    retriever = corpus.retriever(k=3)
    assert isinstance(retriever, BaseRetriever)
    nodes = retriever.retrieve("token pruning for long video MLLMs")
    assert nodes and isinstance(nodes[0], NodeWithScore)
    assert "ST-SimDiff" in nodes[0].node.get_content() and nodes[0].node.metadata["sources"]


def test_several_topics_each_get_their_papers(corpus):
    titles = [h.title for h in corpus.search("papers on Lean or on robots", k=6)]
    assert any(t.startswith(("ProofOptimizer", "Lean4PHYS")) for t in titles)
    assert any(t.startswith(("WorldGym", "VLBiMan")) for t in titles)
    hits = corpus.search("Lean, robots, and audio", k=5)  # a topic question: k bounds it
    # the topics take turns for the 5 places, then the hits come grouped by topic, in the question's order
    assert [h.topic for h in hits] == ["Lean", "Lean", "robots", "robots", "audio"]
    assert [h.title.split(":")[0] for h in hits[:2]] == ["Lean4PHYS", "ProofOptimizer"] and hits[4].title.startswith("Echo")
    assert [h.topic for h in corpus.search("Lean, robots, and audio", k=3)] == ["Lean", "robots", "audio"]
    assert {h.topic for h in corpus.search("proof simplification for Lean", k=3)} == {None}  # one topic: no label
    lean = next(h.id for h in hits if h.title.startswith("ProofOptimizer"))
    only, empty = corpus.searcher.search_topics("papers on Lean or on robots", k=5, gate=Gate(0.62, 0.85),
                                                where=Filter().restricted_to([lean]))  # one topic has hits
    assert [(h.id, h.topic) for h in only] == [(lean, "Lean")] and empty == ["robots"]
    listed = [h.title for h in corpus.search("papers on Lean, robots, and audio", k=1)]  # a list: k does not cut it
    assert [any(t.startswith(names) for t in listed) for names in (("ProofOptimizer", "Lean4PHYS"), ("WorldGym", "VLBiMan"), "Echo")] \
        == [True, True, True]


@pytest.mark.parametrize("query, parts", [
    ("papers on Lean or on robots", ["papers on Lean", "robots"]),
    ("papers on Lean or robots", ["Lean", "robots"]),
    ("anything about audio or video?", ["audio", "video"]),
    ("papers about either Lean or robots", ["Lean", "robots"]),
    ("which papers build on or modify GRPO?", None),  # "or" joins two verbs of one topic
    ("which papers study multilingual or cross-lingual LLMs?", None),  # ... or two modifiers of one noun
    ("legal reasoning benchmark in English and German", None),
    ("papers on test-time scaling of LLM reasoning with verifiers or reward models", None),
    ("papers on Lean, robots, and audio", ["Lean", "robots", "audio"]),  # a list, Oxford comma
    ("Lean proofs, robot manipulation or federated learning", ["Lean proofs", "robot manipulation", "federated learning"]),
    ("which papers study audio, video and law exams?", ["study audio", "video", "law exams"]),
    ("papers about vision and language", None),
    ("In RL, which methods explore better?", None),  # one comma and no list
    ("methods that are fast, cheap, and accurate", None),  # an item too long for a list
    ("What are the trade-offs between accuracy, latency and memory in LLM serving?", None),  # a clause, not a list
])
def test_topic_splitting(query, parts):
    from assistant.reading.query_focus import topics

    assert topics(query) == (parts or [query])


def test_filters_by_year_and_keyword(make_assistant, tmp_path):
    import json

    rows = [{"abstract": "We introduce OldNet, a convolutional network for image classification trained on photos.",
             "year": 2019, "keywords": "vision; classification"},
            {"abstract": "We introduce NewNet, a convolutional network for image classification trained with text.",
             "year": 2026, "keywords": "vision, multimodal", "decision": "Accept (oral)"}]
    path = tmp_path / "papers.jsonl"
    path.write_text("\n".join(json.dumps(r) for r in rows))
    assistant = make_assistant()
    assistant.ingest([path])
    assert [h.title.split(":")[0] for h in assistant.search("image classification network", where="year=2019")] == ["OldNet"]
    assert [h.title.split(":")[0] for h in assistant.search("image classification network", where=["keyword=multimodal"])] == ["NewNet"]
    assert [p.title.split(":")[0] for p in assistant.papers(where={"decision": "Accept (oral)"})] == ["NewNet"]


def test_bm25_takes_part_under_a_filter_and_respects_it(corpus):
    polr_file, other_file = "000_f1080e5cb02b8f2e.txt", "004_6909a62b24dbb033.txt"
    inside = corpus.searcher.candidates("tell me about PoLR", where=Filter.parse(sources=[polr_file]))
    assert inside[0].meta["title"].startswith("PoLR") and inside[0].bm25 > 0
    assert all(polr_file in c.meta["files"] for c in inside)
    outside = corpus.searcher.candidates("tell me about PoLR", where=Filter.parse(sources=[other_file]))
    assert outside and all(other_file in c.meta["files"] for c in outside)
    assert not any(c.meta["title"].startswith("PoLR") for c in outside)
    # a conversation's restriction to some papers (paper_id) combines with a filter
    polr = inside[0].id
    both = Filter.parse(sources=[polr_file]).restricted_to([polr])
    assert [c.id for c in corpus.searcher.candidates("path of least resistance", where=both)] == [polr]


def test_the_ranking_order_does_not_change_the_gate():
    """Candidates come in the ranking core's order; the gate still compares relevance with the best
    relevance, not with the first candidate's."""
    from assistant.search import Candidate, HybridSearcher

    a = Candidate("a", dense=0.70, passage="", lexical=0.0, bm25=0.0)   # best relevance, no query word
    b = Candidate("b", dense=0.60, passage="", lexical=0.2, bm25=9.0)   # second by dense, first by BM25
    c = Candidate("c", dense=0.30, passage="", lexical=0.1, bm25=3.0)

    searcher = HybridSearcher.__new__(HybridSearcher)
    searcher.candidates = lambda query, where=None, pool=None, from_core=None: [b, c, a]
    kept = searcher._gated("q", Gate(floor=0.5, ratio=0.85), where=None)
    assert [x.id for x in kept] == ["b", "a"]  # floor 0.85 x 0.70 (a's relevance), not x b's 0.67


def test_a_coined_word_of_the_question_keeps_the_papers_that_hold_it(corpus):
    """"MATH500" means nothing to the encoder (0.18 cosine from a paper reporting it): a paper that holds
    every coined word of a question is kept whatever its scores, as a named paper is."""
    from assistant.search import coined_words

    assert coined_words("report results on MATH500 and GPT-4") == ["math500", "gpt4"]
    assert coined_words("RL for LLMs and VLMs") == []  # acronyms and their plurals are words
    assert coined_words("something with Lean 4") == []  # a bare number names nothing: most abstracts hold a "4"
    lean = corpus.ask("I need every paper that does something with Lean 4.", llm="none", page_size=None)
    assert lean.citations and all("Lean" in c.text for c in lean.citations)
    holding = {p.id for p in corpus.papers() if "math500" in p.text.lower().replace("-", "")}
    answer = corpus.ask("Which papers report results on MATH500?", llm="none", page_size=None)
    assert len(holding) >= 2 and holding <= {c.id for c in answer.citations}
    assert corpus.ask("Which papers report results on MATH900?", llm="none").citations == []


def test_a_benchmark_named_in_capitals_keeps_the_papers_that_name_it(corpus):
    """"AIME" stems to "aim", as "aims" does, and the encoder knows it no better than "MATH500": a paper counts
    as holding it only if it writes the word ("AIME", "AIME2024"), and then is kept as for a coined word."""
    import re

    naming = {short_title(p.title) for p in corpus.papers() if re.search(r"(?<![A-Za-z])AIME(?![A-Za-z])", p.text)}
    aims = {short_title(p.title) for p in corpus.papers() if re.search(r"\baims?\b", p.text) and "AIME" not in p.text}
    answer = corpus.ask("Which papers report results on AIME?", llm="none", page_size=None)
    assert naming == {"THINKMERGE", "LASER-D", "PoLR", "Parallel-R1"} and "Lean4PHYS" in aims
    assert {short_title(c.title) for c in answer.citations} == naming
    # an acronym the abstracts spell out is a method or a concept, which a paper may name in passing: not kept so
    from assistant.acronyms import definitions
    from assistant.search import _undefined_capitals

    defined = definitions(p.text for p in corpus.papers())
    assert _undefined_capitals("papers that modify GRPO, evaluated on AIME or SQL", defined) == ["AIME", "SQL"]


def test_a_list_on_what_no_paper_mentions_finds_nothing(corpus):
    """"Protein" is in no abstract of the store, and nothing is near in meaning: the paper on cell biology that
    holds "structure" and "prediction" is no answer. A question whose unknown words are its verbs still finds
    its papers ("agents built on LLMs": no abstract says "built")."""
    protein = corpus.ask("papers on protein structure prediction", llm="none")
    assert protein.plan.kind == "list" and protein.citations == []
    assert protein.answer.startswith("No abstract in the store mentions \u201cprotein\u201d, and none is near this in meaning")
    assert corpus.lexical.unknown_words("quantizing LLM weights to low bit-widths") == ["quantizing", "bit-widths"]
    assert corpus.lexical.unknown_share("protein structure prediction") > 0.25
    assert corpus.lexical.unknown_share("mixture-of-experts") > 0  # the hyphenated word's parts are unknown too
    assert corpus.lexical.unknown_share("test-time training") == 0  # known parts: "testtime" does not count
    # a prefix on a word the papers hold makes no word of another field: "unlabeled" is "labeled" not yet labeled
    assert corpus.lexical.unknown_share("adapting on unlabeled test data") == 0
    assert corpus.lexical.unknown_share("recommender systems") > 0.25  # no "re-" taken off: no "commender"
    # a verb's form says how the topic is asked, not what field it is in: "writes", "tweaks", "built"
    assert corpus.lexical.unknown_share("the model tweaks its weights and writes several answers") == 0
    assert corpus.lexical.unknown_share("papers about agents built on LLMs") == 0
    assert corpus.lexical.unknown_share("protein folding") > 0.25 and corpus.lexical.unknown_share("watermarking") > 0.25
    built = corpus.ask("papers about agents built on LLMs", llm="none", page_size=None)
    assert "WebShaper" in {short_title(c.title) for c in built.citations}


def short_title(title: str) -> str:
    return title.split(":")[0]


def test_only_in_other_compounds():
    from assistant.search import only_in_other_compounds as other

    assert other("benchmarks of real-world tasks for models", "world", {"world", "model"})
    assert not other("a world model of cells and real-world data", "world", {"world", "model"})  # also alone
    assert not other("a world-model-based policy evaluation", "world", {"world", "model"})  # the modifier
    assert not other("non-attention architectures", "attention", {"attention"})  # a prefix
    assert not other("inference-time reward models", "time", {"infer", "time"})  # the compound asked
    assert not other("nothing of it here", "world", {"world"})  # not held at all: coverage says so already


def test_a_paper_without_the_head_of_a_hyphenated_compound_is_not_on_it(corpus):
    """"Test-time adaptation": the papers on test-time scaling hold the rare "test-time", not "adaptation"."""
    from assistant.query_words import compound_head

    assert compound_head("any work on test-time adaptation?") == "adaptation"
    assert compound_head("papers about LLM-based agents") == "agents"
    assert compound_head("training-free methods") is None  # a general head: about being training-free
    assert compound_head("world models") is None and compound_head("reduce reasoning token usage") is None
    found = {short_title(h.title) for h in corpus.find("Any work on test-time adaptation?", page_size=None).hits}
    assert found == {"ZeroSiam", "TTM"}  # not THINKMERGE, NuRL or SSFT, on test-time scaling or compute


def test_a_list_on_a_short_topic_finds_its_papers_however_they_say_it(corpus):
    """"World models" is said as "world model" and "world-model-based"; "formal methods" as "formal proofs"."""
    found = {short_title(h.title) for h in corpus.find("Which papers study world models?", page_size=None).hits}
    assert {"WorldGym", "VCWorld"} <= found
    # "real-world" is not a world: the papers on real-world tasks that mention models are not on world models
    assert not found & {"CRD", "VIRF", "GDPval", "A generalizable, feed-forward approach that predicts spatially adaptive bilateral grids…"}
    formal = {short_title(h.title) for h in corpus.find("papers on formal methods", page_size=None).hits}
    assert {"ProofOptimizer", "Lean4PHYS"} <= formal
    assert "Image synthesis is nevertheless possible using CLIP alone" in \
        {short_title(h.title)[:57] for h in corpus.find("Which papers work on image generation?", page_size=None).hits}


def test_a_capitalised_word_no_dictionary_has_is_a_name(corpus):
    """"Qwen" is a model family, as "Qwen3" is: every paper that reports on a Qwen model runs experiments on one,
    however far its abstract is from the words of the question. "Atari" and "Lean" are words of English too."""
    from assistant.search import proper_names
    from assistant.typos import EnglishWords

    english = EnglishWords()
    assert proper_names("which papers run experiments on Qwen models?", english) == ["qwen"]
    assert proper_names("papers on Atari, Lean or Transformers", english) == []
    qwen = corpus.ask("which papers run experiments on Qwen models?", llm="none", page_size=None)
    assert len(qwen.citations) == 4 and all("qwen" in c.text.lower() for c in qwen.citations)


@pytest.mark.xfail(strict=False, reason="fails at d27b4ec too on a fresh install (package versions drifted): 8 papers listed; open in issue 42's relevance decision")
def test_a_paper_holding_the_words_of_a_phrase_apart_is_no_sure_match(corpus):
    """"learned optimizers": every abstract on learning and optimization holds both stems, so holding every term of
    the query lets a paper past the list gate's ratio only if it holds the phrase; a general head ("RL algorithm")
    asks no phrase."""
    from assistant.search import FULL_COVERAGE

    titles = {p.id: p.title.split(":")[0] for p in corpus.papers()}
    found = corpus.searcher.candidates("learned optimizers", pool=400)
    full = [c for c in found if c.lexical >= FULL_COVERAGE]
    assert len(full) >= 5 and 1 <= sum(c.phrased for c in full) < len(full)
    listed = {titles[c.id] for c in corpus.ask("which papers are on learned optimizers?", llm="none").citations}
    assert len(listed) <= 4 and {titles[c.id] for c in full if c.phrased} <= listed
    assert all(c.phrased for c in corpus.searcher.candidates("RL algorithm", pool=400))


def test_a_search_made_again_is_kept_handed_out_as_copies_and_made_anew_once_the_store_changes(make_assistant, tmp_path):
    """An answer that searches a query twice (a list, then how near its examples' papers are) reads the store once;
    what it is handed can be changed without changing the next answer; an ingest makes the search anew."""
    folder = tmp_path / "papers"
    folder.mkdir()
    (folder / "a.txt").write_text("header\n\nWe study how migrating birds navigate at night by sensing the "
                                  "geomagnetic field of the earth.\n")
    assistant = make_assistant(tmp_path / "home")
    assistant.ingest([folder])
    searcher, reads = assistant.searcher, []
    query_chunks = searcher.store.query_chunks

    def counted(*args, **kwargs):
        reads.append(args)
        return query_chunks(*args, **kwargs)

    searcher.store.query_chunks = counted
    first = searcher.candidates("bird navigation")
    first[0].dense = -1.0
    again = searcher.candidates("bird navigation")
    assert len(reads) == 1 and [c.id for c in again] == [c.id for c in first] and again[0].dense > 0
    (folder / "b.txt").write_text("header\n\nBirds that migrate read the stars to keep their heading.\n")
    assistant.ingest([folder])
    after = searcher.candidates("bird navigation")
    assert len(reads) == 2 and len(after) == 2
