"""Acronyms read off the papers' own definitions, so a question's "RL" counts a paper's "reinforcement learning"."""

from __future__ import annotations

from assistant.acronyms import MOST_READINGS, definitions, readings


def test_definitions_are_read_off_the_abstracts():
    texts = ["We train with reinforcement learning (RL) and Group Relative Policy Optimization (GRPO) on large "
             "language models (LLMs).", "Process reward models (PRMs) and Chain-of-Thought (CoT) prompting.",
             "Reinforcement learning (RL) again.", "Results (see Table 2) and (ABC) without its words."]
    assert definitions(texts) == {"RL": "reinforcement learning", "GRPO": "group relative policy optimization",
                                  "LLM": "large language model", "PRM": "process reward model", "CoT": "chain of thought"}


def test_a_question_is_read_with_each_form():
    defined = {"RL": "reinforcement learning", "LLM": "large language model", "SFT": "supervised fine tuning"}
    assert readings("RL for LLMs", defined) == ["RL for LLMs", "reinforcement learning for LLMs", "RL for large language model",
                                                "reinforcement learning for large language model"]
    assert readings("papers on supervised fine-tuning", defined) == ["papers on supervised fine-tuning", "papers on SFT"]
    assert readings("proofs in Lean", defined) == ["proofs in Lean"]
    many = {f"A{c}": f"alpha {c.lower()}eta" for c in "BCDEFGHIJ"}
    assert len(readings(" ".join(many), many)) == MOST_READINGS


def test_rl_in_a_question_counts_a_paper_that_writes_it_out(corpus):
    """DeepEyes, VPO and GEB say "reinforcement learning" and never "RL"; other candidates define "(RL)"."""
    found = {c.meta.get("title", "").split(":")[0]: c for c in corpus.searcher.candidates("which papers use RL?", pool=400)}
    for name in ("DeepEyes", "VPO", "GEB"):
        without = corpus.searcher.lexical.paper_coverage("use RL", [found[name].id])[found[name].id]
        assert without < 0.5 < found[name].lexical, name  # "RL" is most of the question's weight


def test_an_acronym_typed_in_lower_case_is_read_too_unless_it_is_a_word():
    defined = {"LLM": "large language model", "PER": "prioritized experience replay", "IS": "importance sampling"}
    assert readings("llm reasoning", defined) == ["llm reasoning", "large language model reasoning"]
    assert readings("fewer tokens per answer", defined) == ["fewer tokens per answer"]  # "per" is a word
    assert readings("what is it", defined) == ["what is it"]


def test_a_lower_case_llm_counts_a_paper_that_writes_it_out(corpus):
    """PoLR says "Large language models" and never "LLM": typed "llm reasoning" it holds every word, as for "LLM"."""
    upper, lower = (next(c for c in corpus.searcher.candidates(q) if c.meta.get("title", "").startswith("PoLR"))
                    for q in ("LLM reasoning", "llm reasoning"))
    assert lower.lexical == upper.lexical > 0.9
