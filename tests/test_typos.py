"""Misspelt words read as the papers spell them (``assistant.typos``), on a vocabulary of stems and on the store."""

from __future__ import annotations

import pytest

from assistant.bm25_tokens import stemmer

HELD = {"adapt": 3, "sequenc": 9, "benchmark": 12, "special": 2, "behavior": 4, "model": 40, "modal": 5, "golden": 1,
        "larg": 6, "cheap": 3}


def _respelled(query: str) -> str:
    from assistant.typos import respelled

    stem = stemmer().stemWord
    return respelled(query, stem, lambda term: HELD.get(term, 0))


@pytest.mark.parametrize("typed, read", [
    ("test-time adaptaton", "test-time adaptation"),  # a letter left out
    ("non-attention sequnce models", "non-attention sequence models"),
    ("benchmakrs for agents", "benchmarks for agents"),  # two letters swapped
    ("LLMs in specialised domains", "LLMs in specialized domains"),  # the British spelling
    ("how models behaviour", "how models behavior"),
    ("protein folding", "protein folding"),  # no slip away from a held word; 'golden' is held by one paper only
    ("modle", "modle"),  # too short to tell from other words
    ("GSM8K and Qwen", "GSM8K and Qwen"),  # names stay as typed
    ("quantization", "quantization"),  # a letter changed for another is no slip: 'quantitation' is another word
    ("which is the largest?", "which is the largest?"),  # 'large' with an ending, not a slip of 'larges'
    ("the cheapest one", "the cheapest one"),
])
def test_a_misspelt_long_word_is_read_as_the_papers_write_it(typed, read):
    assert _respelled(typed) == read


def test_a_word_of_english_is_no_slip_of_a_word_the_papers_hold():
    """'enumerate' is one letter from 'numerate', whose stem 'numer' ('numerical') the papers hold: as a word of
    English it stays as typed, and a slip still is read as the papers write it."""
    from assistant.typos import EnglishWords, respelled

    stem, held = stemmer().stemWord, {**HELD, "numer": 5, "expert": 3}
    english = EnglishWords()
    assert respelled("enumerate papers needing expertise", stem, lambda term: held.get(term, 0), english) \
        == "enumerate papers needing expertise"
    assert respelled("test-time adaptaton", stem, lambda term: held.get(term, 0), english) == "test-time adaptation"
    assert respelled("enumerate", stem, lambda term: held.get(term, 0)) == "numerate"  # without the word list


@pytest.mark.parametrize("typed, read", [
    ("bimanual manip from one demo", "bimanual manipulate from one demo"),  # the stem the papers hold: 'manipul'
    ("new archs for long sequences", "new architectures for long sequences"),  # a plural keeps its 's'
    ("llm evals", "llm evaluations"),
    ("lora finetuning", "lora finetuning"),  # begins no word whose stem a paper holds
    ("clip style vlm", "clip style vlm"),  # a word of English stays as typed
    ("sci ml", "sci ml"),  # too short: begins too many words
])
def test_a_shortened_word_is_read_as_the_word_it_begins_that_the_papers_hold(typed, read):
    from assistant.typos import EnglishWords, respelled

    held = {**HELD, "manipul": 1, "architectur": 3, "evalu": 20, "evaluat": 2}
    assert respelled(typed, stemmer().stemWord, lambda term: held.get(term, 0), EnglishWords()) == read


@pytest.mark.parametrize("typed, read", [
    ("how do ppl train agents w/o labels", "how do people train agents without labels"),
    ("diff topic: robots pls", "different topic: robots please"),
    ("what's the diff between them", "what's the difference between them"),
    ("u-net and w/ow", "u-net and w/ow"),  # inside a word, shorthand is no shorthand
    ("im looking for work on robots. whats there", "I'm looking for work on robots. what's there"),  # no apostrophe
    ("which r training-free", "which are training-free"),  # 'r' after a question word or a pronoun
    ("papers using r for stats", "papers using r for stats"),
    ("forget private info", "forget private information"),
])
def test_chat_shorthand_is_written_out(typed, read):
    from assistant.typos import written_out

    assert written_out(typed) == read


def test_a_question_asked_first_that_points_at_its_own_papers_is_searched(corpus):
    """"picking among them" points at the paths the question names, not at an earlier answer; a remark asking for
    them all and chat shorthand leave the question as it would be typed in full."""
    first = corpus.ask("what's out there for sampling several reasoning paths and then merging or picking among them?",
                       llm="none")
    assert not first.plan.unanchored and first.plan.kind == "list" and first.citations
    typed = corpus.ask("lean / formal theorem proving papers — need every one of them pls", llm="none")
    assert {c.title.split(":")[0] for c in typed.citations} == {"ProofOptimizer", "Lean4PHYS"}


def test_a_misspelt_question_finds_what_the_word_would(corpus):
    """'adaptaton' is in no abstract: as typed, the question looked like one on something the store lacks."""
    typed = {c.title.split(":")[0] for c in corpus.ask("which papers do test-time adaptaton?", llm="none").citations}
    right = {c.title.split(":")[0] for c in corpus.ask("which papers do test-time adaptation?", llm="none").citations}
    assert typed == right and {"ZeroSiam", "TTM"} <= typed


def test_a_misspelt_word_is_read_before_the_question_is_planned(corpus):
    """'diffrent' is no word of a comparison; 'different' is."""
    plan = corpus.plan("how is DeepEyes diffrent from RAPID in the way they combine perception and reasoning?")
    assert plan.kind == "compare" and "different" in plan.query


def test_a_shortened_question_finds_what_the_words_in_full_would(corpus):
    """'manip' and 'demo' are in no abstract; 'manip' read as the word the papers hold finds VLBiMan."""
    assert corpus.searcher.lexical.respelled("bimanual manip from one demo") == "bimanual manipulate from one demo"
    assert {c.title.split(":")[0] for c in corpus.ask("bimanual manip from one demo", llm="none").citations} \
        == {"VLBiMan"}


@pytest.mark.parametrize("typed, read", [
    ("wich papers use Lean?", "which papers use Lean?"),  # a word the question is read by, no paper's stem
    ("Wich of them use RL?", "Which of them use RL?"),  # at the start of a sentence
    ("waht about thier data", "what about their data"),
    ("it doesn't count", "it doesn't count"),  # "doesn" is part of a word, no slip of "does"
])
def test_a_misspelt_asking_word_is_read_as_that_word(typed, read):
    assert _respelled(typed) == read
