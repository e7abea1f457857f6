"""The question plan's rules, as a table of questions and the plan each should get (no store needed)."""

from __future__ import annotations

import pytest

from assistant.conversation import AskedKinds, Conversation, Turn
from assistant.reading.question_forms import compared_names
from assistant.reading.contributions_asked import contributions_asked
from assistant.plan import make_plan
from assistant.reading.for_answering import read_for_answering
from assistant.reading.query_focus import focus, topics


def plan_of(question: str, named: list[str] | None = None, followup=None):
    return read_for_answering(make_plan(question, query=focus(question), topics=[focus(t) for t in topics(question)],
                                        named=named or [], followup=followup), venue_words=[])


@pytest.mark.parametrize("question, kind", [
    ("proof simplification for Lean", "topic"),
    ("RL for speech or audio models?", "list"),  # a topic asked as a question: any papers on it?
    ("does RL transfer reasoning across languages better than SFT?", "topic"),
    ("work on cryptography or secure computation", "list"),
    ("Do any abstracts deal with catastrophic forgetting?", "list"),
    ("which papers reduce reasoning token usage?", "list"),
    ("anything on audio or speech language models?", "list"),
    ("Is there any work on protein folding?", "list"),
    ("How are researchers making agents cheaper to run?", "list"),  # what the field does: every paper
    ("Anything new on world models?", "list"),
    ("Lean and robotics papers", "list"),
    ("I'm looking for work on federated fine-tuning", "list"),
    ("Do any papers study Mamba?", "list"),
    ("Find me research on test-time adaptation", "list"),
    ("List benchmarks for LLM agents", "contribution"),
    ("How does PoLR reduce tokens?", "named"),
    ("Which papers introduce a new benchmark?", "contribution"),
    ("purely theoretical papers", "contribution"),
    ("Which papers are primarily empirical studies of training methods, rather than new benchmarks?", "contribution"),
    ("What is the Mesa layer paper about?", "named"),
    ("Compare PoLR and CRISP", "compare"),
    ("PoLR vs CRISP", "compare"),
    ("How is ZeroSiam different from TTM?", "compare"),
    ("Which papers try a problem several different ways at once and merge the results?", "list"),  # no comparison
    ("Are ZeroSiam and TTM different?", "compare"),
    ("does RL transfer reasoning better than supervised fine-tuning?", "topic"),  # no paper named
    # what there is, asked in words no rule knows: every paper that answers, unless it asks for one
    ("What could I use to make a model more robust to distribution shift?", "list"),
    ("what's out there for long video?", "list"),
    ("Are there evaluations built around professional tasks?", "list"),
    ("Which method makes self-consistency cheaper by expanding only promising prefixes?", "topic"),
    ("Is there a model that revisits audio segments while it reasons?", "topic"),
    ("Is there a paper on federated learning?", "list"),
    ("papers evaluated on AIME", "list"),
    ("Papers proposing new optimizers", "list"),
    ("Has anyone worked on formal theorem proving?", "list"),
    ("Give me everything on GRPO variants", "list"),
    ("What's new in speech recognition?", "list"),
    ("How many papers use GRPO?", "list"),
    ("What are recent advances in multimodal reasoning?", "list"),
    ("what is the state of the art in test-time adaptation?", "list"),
    ("compare the papers on Lean", "compare"),  # the best papers on a topic, side by side
    ("how do the papers on agents differ?", "compare"),
    ("What new techniques are there for test-time adaptation?", "list"),  # what the store holds on it
    ("What has been done on curriculum learning?", "list"),
    ("what do we have on image generation", "list"),
    ("Who builds world models, and for what?", "list"),  # "who" and a verb in the present: which papers
    ("LLMs applied to expert domains such as law or the life sciences", "list"),  # a topic given with examples
    ("Give me a rundown of work on test-time adaptation", "list"),
    ("Is anyone using world models for evaluation?", "list"),
    ("Where can I read about reward models?", "list"),
    ("whats there on robotics", "list"),
    ("What is known about RL exploration bonuses?", "list"),
    ("Tell me which papers focus on efficiency", "list"),
    ("What kinds of methods reduce hallucination?", "list"),
    ("curriculum learning approaches (adjusting how hard the examples are)", "list"),  # a plural kind of work
    ("And is an LLM used as a reasoning engine for biology anywhere?", "list"),
    ("What is GRPO-PTR and how is it different from standard GRPO?", "named"),  # set against a baseline, no paper
    ("hello", "out_of_scope"),
    ("thanks!", "out_of_scope"),
])
def test_the_rules_give_each_question_its_kind(question, kind):
    assert plan_of(question).kind == kind


@pytest.mark.parametrize("question, searched", [
    ("which papers reduce reasoning token usage?", "reduce reasoning token usage"),
    ("Anything new on world models?", "world models"),
    ("Do any papers study Mamba?", "study Mamba"),
    ("I'm looking for work on federated fine-tuning", "federated fine-tuning"),
    ("Find me research on test-time adaptation", "test-time adaptation"),
    ("What approaches reduce hallucination in multimodal models?", "reduce hallucination in multimodal models"),
    ("What are the papers that study unlearning?", "study unlearning"),
    ("Show papers related to GRPO", "GRPO"),
    ("What work is there on efficient reasoning?", "efficient reasoning"),
    ("Can you tell me about PoLR?", "PoLR"),
    ("Lean and robotics papers", "Lean and robotics"),
    ("What new techniques are there for test-time adaptation?", "test-time adaptation"),
    ("What has been done on curriculum learning?", "curriculum learning"),
    ("what do we have on image generation", "image generation"),
    ("I'm interested in papers about unlearning", "unlearning"),
    ("Is there anything about physics?", "physics"),
    ("Which of the papers use GRPO?", "use GRPO"),
    ("Who builds world models, and for what?", "builds world models"),  # what it asks of them is no topic
    # frames said in other ways: their words off either end of the topic
    ("Could you point me to work on federated learning?", "federated learning"),
    ("LLM unlearning — what's out there?", "LLM unlearning"),
    ("Efficient video LLMs: which papers?", "Efficient video LLMs"),
    ("Which papers, if any, study privacy?", "study privacy"),
    ("What kinds of methods reduce hallucination?", "reduce hallucination"),
    ("Where can I read about reward models?", "reward models"),
    ("Give me a rundown of work on test-time adaptation", "test-time adaptation"),
    ("Are any of the papers about robotics?", "robotics"),
    ("How does ZeroSiam differ from Test-Time Matching (TTM)?", "ZeroSiam differ from Test-Time Matching (TTM)"),
    ("papers on type theory", "type theory"),
    ("And is an LLM used as a reasoning engine for biology anywhere?", "LLM used as a reasoning engine for biology"),
    ("any work on recommender systems?", "recommender systems"),
    ("proof simplification for Lean", "proof simplification for Lean"),
    ("Is there a paper on federated learning?", "federated learning"),
    ("papers evaluated on AIME", "evaluated on AIME"),
    ("what's ZeroSiam?", "ZeroSiam"),
    ("Which papers are about mixture of experts?", "mixture of experts"),
    ("Any papers using world models for robotics?", "using world models for robotics"),
    ("I'd like to see papers about agents", "agents"),
    ("I want papers on video understanding", "video understanding"),
    ("Give me everything on GRPO variants", "GRPO variants"),
    ("Has anyone worked on formal theorem proving?", "formal theorem proving"),
    ("What's new in speech recognition?", "speech recognition"),
    ("How many papers are about RL?", "RL"),  # a two-letter topic is still a topic
    ("Summarize the papers on Lean", "Lean"),
    ("What are the most recent papers on video?", "video"),
    ("What are recent advances in multimodal reasoning?", "multimodal reasoning"),
    ("Papers proposing new optimizers", "proposing new optimizers"),
    ("I need every paper that does something with Lean 4.", "Lean 4"),
    ("Show me all work where LLMs act as agents", "LLMs act as agents"),
    ("what about audio instead?", "audio"),  # words no topic ends with
    ("and what about robotics then?", "robotics"),
])
def test_the_words_that_frame_a_question_are_not_searched(question, searched):
    """The frame would pull the search toward every abstract ("do any papers ..." abstained on Mamba)."""
    assert focus(question) == searched


def test_a_kind_asked_for_leaves_its_topic():
    assert plan_of("List benchmarks for LLM agents").topics == ["LLM agents"]
    for asked in ("What benchmarks were introduced?", "papers whose main contribution is a benchmark",
                  "Are there papers that release software?"):
        assert plan_of(asked).kind == "contribution" and plan_of(asked).topics == [], asked  # no topic is left


def test_a_question_on_which_of_two_named_papers_is_better_compares_them():
    assert plan_of("Is ZeroSiam better than TTM?", named=["z", "t"]).kind == "compare"
    assert compared_names("Is ProofOptimizer better than Lean4PHYS at proofs?") == ["ProofOptimizer", "Lean4PHYS"]
    # "TTM" is too short to be read as a name: one named paper and a second compared name will do
    assert plan_of("ZeroSiam or TTM: which is better for test-time adaptation?", named=["z"]).kind == "compare"
    assert compared_names("ZeroSiam or TTM: which is better for test-time adaptation?") == ["ZeroSiam", "TTM"]
    assert compared_names("Which works better, NuRL or SFPO?") == ["NuRL", "SFPO"]  # not "Which works better"
    assert compared_names("difference between SFPO and NuRL") == ["SFPO", "NuRL"]  # not "difference between SFPO"
    assert plan_of("Does RL transfer better than SFT?").kind == "topic"  # no paper named


def test_a_list_of_the_papers_not_on_a_topic():
    for asked, topic in (("Which papers do not use reinforcement learning?", "use reinforcement learning"),
                         ("papers that are not about LLMs", "LLMs"), ("which papers don't deal with agents?", "agents")):
        plan = plan_of(asked)
        assert plan.kind == "list" and plan.exclude and plan.query == topic, asked
        assert plan.as_dict()["exclude"] and plan.line() == f"list question: every paper not on {topic}"
    assert not plan_of("which papers don't use").exclude  # no topic to leave out
    kept = plan_of("Which papers study methods that do not need labels?")  # a property of the methods asked for
    assert not kept.exclude and kept.query == "study methods that do not need labels"


def test_a_named_paper_is_a_named_question_unless_it_asks_for_a_list():
    assert plan_of("tell me about PoLR", named=["p1"]).kind == "named"
    assert plan_of("which papers build on PoLR?", named=["p1"]).kind == "list"
    assert plan_of("who introduced the LEXam benchmark?", named=["p1"]).kind == "named"  # not a contribution question
    assert plan_of("who introduced a legal benchmark?").kind == "contribution"


@pytest.mark.parametrize("message, question", [
    ("I'm looking for analysis papers about how models behave. Which ones qualify?",
     "I'm looking for analysis papers about how models behave"),  # "qualify" asks nothing of its own
])
def test_what_the_asker_says_before_a_kind_question_is_not_searched(message, question):
    from assistant.reading.question_text import asked

    assert asked(message) == question and plan_of(asked(message)).kind == "contribution"


@pytest.mark.parametrize("question, topic", [
    ("Which reinforcement learning papers back their proposed method with theoretical guarantees (e.g. provable "
     "optimism or provably more efficient learning)?", "reinforcement learning"),  # the papers' topic; no examples
    ("Which speech papers introduce datasets?", "speech"),
    ("which papers contribute a new training dataset or a pipeline for synthesizing training data?", None),
    ("Which papers are primarily empirical studies or analyses — investigating how existing models behave — rather "
     "than pitching a new method?", None),  # what the studies do qualifies the kind
    ("Which theory papers are there?", None),
    ("I want the papers whose core contribution is theoretical: proofs, generalization or convergence bounds.", None),
    ("Which papers contribute a new training dataset or a data-synthesis pipeline for producing training data?", None),
    ("Which papers' main contribution is a new benchmark of tasks or questions for evaluating LLMs?", None),
    ("which ones are primarily benchmark papers?", None),
])
def test_the_topic_of_a_kind_question(question, topic):
    plan = plan_of(question)
    assert plan.kind == "contribution"
    assert (plan.query if plan.on_a_topic else None) == topic


@pytest.mark.parametrize("question, query", [
    ("papers about robot, what are they?", "robot"),
    ("cut token / compute cost of llm reasoning at inference - papers?", "llm reasoning"),  # less the saving asked
])
def test_what_a_list_asks_after_its_topic_is_no_topic(question, query):
    assert plan_of(question).kind == "list" and plan_of(question).query == query


def test_what_a_question_excludes_is_not_asked_for():
    assert contributions_asked("empirical studies of RL, rather than new benchmarks") == ["empirical study/analysis"]
    assert contributions_asked("papers on theorem proving in Lean") == []  # a topic, not a kind of paper
    assert contributions_asked("Are there any surveys?") == ["survey/position"]


def test_method_papers_said_of_the_papers_ask_for_the_kind_and_an_aside_in_parentheses_is_not_searched():
    """"method papers" names the kind the papers are ("a new benchmark" after it is their topic, not a kind), on the
    topic the rest names; what parentheses set aside ("(not benchmark)") is neither searched nor asked."""
    from assistant.reading.question_text import asked

    assert asked("Any method (not benchmark) submissions on formal theorem proving?") == \
        "Any method submissions on formal theorem proving?"
    assert asked("models that reason about images (not video, just images)") == \
        "models that reason about images (not video, just images)"  # it says what it wants too
    plan = plan_of("Which method papers adapt a trained model to a new benchmark using unlabeled test inputs?")
    assert plan.kind == "contribution" and plan.contributions == ["method"] and plan.on_a_topic
    assert contributions_asked("I'm looking for analysis papers, not method papers, that test X") == \
        ["empirical study/analysis"]
    assert not plan_of("Which papers introduce a new metric as a core contribution?").on_a_topic  # a form, no topic


def test_compared_names_are_read_off_the_question():
    assert compared_names("Compare NuRL, SFPO and THR - how does each change GRPO training?") == ["NuRL", "SFPO", "THR"]
    assert compared_names("How does Echo differ from EmotionThinker?") == ["Echo", "EmotionThinker"]
    assert compared_names("X vs Y") == ["X", "Y"]
    assert compared_names("Contrast ZeroSiam to TTM") == ["ZeroSiam", "TTM"]
    assert compared_names("What do PoLR and CRISP have in common?") == ["PoLR", "CRISP"]
    assert plan_of("compare the papers related to GRPO").compares_a_topic  # not "papers related" against "GRPO"
    assert plan_of("compare the papers related to GRPO").query == "GRPO"


def test_a_list_plan_pages_and_says_so_in_one_line():
    plan = plan_of("which papers use Lean?")
    assert plan.paged and plan.page == 1 and plan.page_size == 20
    assert plan.line() == "list question: every paper on use Lean"
    assert plan.as_dict()["kind"] == "list" and plan.as_dict()["page_size"] == 20


def test_follow_ups_are_resolved_against_the_last_answer():
    conversation = Conversation()
    conversation.add(Turn("which papers reduce inference cost?", "reduce inference cost", "...",
                          ["a", "b", "c"], ["A: x", "B: y", "C: z"], "list"))
    differ = conversation.resolve("how do they differ?")
    assert differ.restrict_to == ["a", "b", "c"]
    assert plan_of("how do they differ?", followup=differ).kind == "compare"
    subset = conversation.resolve("which of them use reinforcement learning?")
    assert subset.restrict_to == ["a", "b", "c"] and "reinforcement learning" in subset.query
    one = conversation.resolve("the one about Lean: what does it achieve?")
    assert one.pick_one and one.restrict_to == ["a", "b", "c"] and one.query.startswith("Lean")
    only = conversation.resolve("only the ones tested on math benchmarks")
    assert only.restrict_to == ["a", "b", "c"]
    switch = conversation.resolve("and for robotics?")
    assert switch.restrict_to is None and switch.switch_to == "robotics" and switch.last_kind == "list"
    # a switch said before a whole question: its "them" is the new topic, not the last answer's papers
    asked_of_it = conversation.resolve("And for vision-language models -- which papers train them with RL?")
    assert asked_of_it.restrict_to is None and asked_of_it.switch_to == "which papers train vision-language models with RL?"
    ordinal = conversation.resolve("tell me more about the second one")
    assert ordinal.restrict_to == ["b"] and "B: y" in ordinal.why
    for asked in ("compare them", "compare these", "contrast the three papers", "how do those differ?"):
        assert plan_of(asked, followup=conversation.resolve(asked)).kind == "compare", asked
    for asked, papers in (("compare the first two", ["a", "b"]), ("how do the last two differ?", ["b", "c"]),
                          ("compare [1] and [3]", ["a", "c"]), ("the first and third: what do they share?", ["a", "c"])):
        several = conversation.resolve(asked)
        assert several.restrict_to == papers, asked
        assert plan_of(asked, followup=several).kind == "compare" or "share" in asked
    for asked in ("summarize them", "describe those", "rank them by efficiency"):  # asked of each of them
        each = conversation.resolve(asked)
        assert each.restrict_to == ["a", "b", "c"] and each.whole_set, asked
        assert plan_of(asked, followup=each).kind == "followup", asked


def test_numbers_after_an_answer_of_one_paper_count_in_the_list_before_it():
    conversation = Conversation()
    conversation.add(Turn("which papers study exploration?", "exploration", "...", ["a", "b", "c", "d"],
                          ["A: w", "B: x", "C: y", "D: z"], "list"))
    first = conversation.resolve("the second one: what's the result?")
    assert first.restrict_to == ["b"] and first.whole_set and first.query == "result"  # about it, not a subset
    conversation.add(Turn("summarize the first one", "exploration", "...", ["a"], ["A: w"], "followup"))
    for asked, paper in (("what about the third?", "c"), ("the last one?", "d"), ("what about [3]?", "c"),
                         ("what does [1] evaluate on?", "a")):  # "[1]": the one paper of the last answer
        resolved = conversation.resolve(asked)
        assert resolved.restrict_to == [paper], asked
    assert "of an earlier answer" in conversation.resolve("what about the third?").why


def test_short_follow_ups_switch_topics_or_pick_from_the_two():
    conversation = Conversation()
    conversation.add(Turn("papers on Lean", "Lean", "...", ["a", "b"], ["A: x", "B: y"], "list"))
    assert conversation.resolve("and chemistry?").switch_to == "chemistry"
    assert conversation.resolve("Anything along those lines for physics?").switch_to == "physics"
    assert conversation.resolve("something similar for video?").switch_to == "video"
    assert conversation.resolve("and which of those uses RL?").switch_to is None
    two = conversation.resolve("which of the two uses RL?")
    assert two.restrict_to == ["a", "b"] and two.query == "RL"


def test_which_dont_is_the_rest_of_the_set_the_last_subset_chose_from():
    conversation = Conversation()
    conversation.add(Turn("which papers use RL?", "RL", "...", ["a", "b", "c", "d"], ["A", "B", "C", "D"], "list"))
    conversation.add(Turn("which of them use GRPO?", "GRPO", "...", ["b"], ["B"], "followup", within=["a", "b", "c", "d"]))
    conversation.add(Turn("how do those differ?", "GRPO", "...", ["b"], ["B"], "compare", within=["b"]))
    rest = conversation.resolve("which don't?")
    assert rest.left_out and rest.restrict_to == ["a", "c", "d"] and rest.whole_set
    conversation.add(Turn("do any of them use a KL penalty?", "KL", "...", [], [], "followup", within=["a", "c", "d"]))
    assert conversation.resolve("and which don't?").restrict_to == ["a", "c", "d"]  # none did: all of them
    more = conversation.resolve("tell me more")
    assert more.whole_set and more.restrict_to == ["b"]  # the last answer with papers


def test_similar_papers_lean_on_the_last_answer_and_a_topic_does_not():
    conversation = Conversation()
    conversation.add(Turn("tell me about PoLR", "PoLR", "...", ["a"], ["PoLR: Path of Least Resistance"], "named"))
    for asked in ("are there similar papers?", "anything related?", "more like this", "any papers like it?",
                  "find similar ones"):
        resolved = conversation.resolve(asked)
        assert resolved.like == ["a"] and resolved.restrict_to is None, asked
        assert plan_of(asked, followup=resolved).like == ["a"]
    for asked in ("which papers are related to GRPO?", "Show papers related to GRPO"):
        assert conversation.resolve(asked).like is None, asked


def test_which_and_a_verb_is_a_subset_and_what_about_the_ones_a_sibling_subset():
    conversation = Conversation()
    conversation.add(Turn("which papers introduce benchmarks?", "", "...", ["a", "b", "c"], ["A", "B", "C"], "contribution"))
    qwen = conversation.resolve("which use Qwen?")
    assert qwen.restrict_to == ["a", "b", "c"] and qwen.query == "Qwen" and not qwen.whole_set
    assert conversation.resolve("which are the papers on agents?").restrict_to is None  # a new question
    conversation.add(Turn("which of them evaluate frontier models?", "frontier models", "...", ["a"], ["A"], "followup",
                          within=["a", "b", "c"]))
    physics = conversation.resolve("what about the ones on physics?")
    assert physics.restrict_to == ["a", "b", "c"] and physics.query == "physics" and physics.sibling
    assert plan_of("what about the ones on physics?", followup=physics).the_set(3) == "the 3 papers the last answer chose from"
    assert not qwen.sibling and plan_of("which use Qwen?", followup=qwen).the_set(3) == "the 3 papers of the last answer"
    one = conversation.resolve("which one is about law?")  # of the one paper: is it?
    assert one.restrict_to == ["a"] and one.query == "law" and not one.whole_set and not one.pick_one


def test_superlatives_membership_and_out_of_those():
    conversation = Conversation()
    conversation.add(Turn("which papers introduce a benchmark?", "", "...", ["a", "b", "c"], ["A", "B", "C"], "contribution"))
    largest = conversation.resolve("Which is the largest?")
    assert largest.pick_one and largest.superlative and largest.query == "largest"
    assert largest.why == "the one of the last answer's 3 papers that is the largest"
    about = conversation.resolve("the one about law")
    assert about.pick_one and not about.superlative and about.query == "law"  # may be none of them
    assert conversation.resolve("Out of those, which use Qwen models?").query == "Qwen models"
    member = conversation.resolve("Is B among them?")
    plan = plan_of("Is B among them?", named=["b"], followup=member)
    assert plan.restrict_to == ["b"] and plan.whole_set and plan.resolution.startswith("the paper it names")


def test_superlatives_which_ones_and_the_others_lean_on_the_answers():
    conversation = Conversation()
    conversation.add(Turn("which papers reduce inference cost?", "reduce inference cost", "...",
                          ["a", "b", "c"], ["A: x", "B: y", "C: z"], "list"))
    most = conversation.resolve("which is the most efficient?")
    assert most.pick_one and most.restrict_to == ["a", "b", "c"] and most.query == "efficient"
    relies = conversation.resolve("which of them relies on reinforcement learning?")
    assert relies.query == "reinforcement learning"  # the words a subset is chosen by, not the verb
    ones = conversation.resolve("which ones use RL?")
    assert ones.restrict_to == ["a", "b", "c"] and ones.query == "RL" and not ones.whole_set
    conversation.add(Turn("which ones use RL?", "RL", "...", ["b"], ["B: y"], "followup"))
    others = conversation.resolve("what about the other ones?")
    assert others.left_out and others.restrict_to == ["a", "c"] and others.whole_set
    assert conversation.resolve("and the other one?").restrict_to == ["a", "c"]  # one or several, the ones left out
    assert plan_of("what about the other ones?", followup=others).kind == "followup"


@pytest.mark.parametrize("question, topic", [
    ("Are there benchmarks for medical question answering?", True),
    ("What new datasets are there for speech?", True),
    ("survey papers on reinforcement learning", True),
    ("Are there medical QA benchmarks?", True),
    ("Which papers introduce a new benchmark?", False),
    ("Are there any surveys or position papers in this collection?", False),
    ("Which papers include some theoretical analysis to support their method?", False),
    ("Which papers are primarily empirical studies of how existing models behave?", False),
    ("Which papers provide a theoretical analysis of core architectures like softmax attention?", True),
    ("Which papers offer theoretical guarantees?", False),
    ("Are there any papers on Lean that introduce a benchmark?", True),  # the topic said of the papers
    ("Which benchmarks are about law?", True),
    ("Which benchmarks are there?", False),
    ("which theory papers study attention?", True),  # the papers of the kind, and what they study
    ("benchmarks that examine agents", True),
    ("Which papers contribute synthetic training data?", False),  # "synthetic training" is the kind of data
    ("empirical studies that examine how models behave", False),
    ("Which empirical studies examine reinforcement learning?", True),  # the verb without "that"
    ("Which papers are analyses of pre-training?", True),
    ("Which benchmarks involve formal proofs?", True),
    ("Which papers are primarily empirical studies of how existing models behave?", False),  # "studies" a noun
    ("which papers are mostly theory, with proofs, about reinforcement learning?", True),  # said of the kind, then the topic
    ("theory papers, with proofs, about how attention works", True),  # what the clause asks is about attention
    ("analysis papers that study what RL fine-tuning does to LLMs", True),
    ("analysis papers that study how today's models behave", False),  # only models doing things
    ("Reinforcement learning papers with a theoretical component?", True),  # the topic said of the papers, no "which"
    ("looking for analysis-style papers that mainly investigate how LLMs behave", False),
])
def test_a_kind_on_a_topic_is_told_from_a_kind_qualified(question, topic):
    from assistant.reading.contributions_asked import names_a_topic

    assert names_a_topic(question) is topic


@pytest.mark.parametrize("question, topic", [
    ("Which papers give a theoretical analysis of a neural network architecture?", "neural network architecture"),
    ("Which empirical studies examine reinforcement learning?", "reinforcement learning"),
    ("Which papers release a code library or repository as a contribution?", ""),
    ("Which papers propose a new method and also back it with theoretical analysis?", ""),  # both kinds asked
    # what it sets aside ends with its clause: the clause after it is the topic
    ("I'm looking for analysis papers, not method papers, that test whether models generalize beyond their training",
     "test models generalize beyond training"),
    ("Are there benchmarks for agents that use LLM judges?", "agents LLM judges"),
    # what every paper is about, and what the resource is for, are no topic
    ("papers that introduce new benchmarks for evaluating language models", ""),
    ("Which papers introduce a dataset to train agents?", "agents"),
    ("Are there benchmarks for vision-language models?", "vision-language models"),
    # after a dash, a clause with commas is the topic; a list of short items gives examples of the kind
    ("Are there mostly theory papers - proving why a network stalls, or diverges, during training?",
     "network stalls diverges training"),
    ("Are there theory papers - proofs, bounds, guarantees?", ""),
    ("Which RL papers back their idea up with mathematical theory or proofs?", "RL"),
])
def test_the_topic_of_a_kind_question_is_what_is_left_of_it(question, topic):
    plan = plan_of(question)
    assert plan.kind == "contribution" and plan.query == topic


def test_what_a_resource_is_said_to_be_for():
    mainly = plan_of("Which papers mainly contribute a dataset or benchmark for evaluating models?")
    assert mainly.mainly and mainly.data_use == "evaluation" and mainly.query == ""
    assert plan_of("Which papers introduce a dataset to train agents?").data_use == "training"
    assert plan_of("Which papers introduce datasets for training and evaluating agents?").data_use is None
    # what the resource is for is the kind's, and what it is for on is the topic: not every benchmark paper
    for question, use, topic in [("which papers introduce benchmarks to evaluate LLM-based agents?", "evaluation",
                                  "LLM-based agents"),
                                 ("Which papers introduce a dataset to train agents?", "training", "agents")]:
        plan = plan_of(question)
        assert (plan.data_use, plan.query, plan.on_a_topic) == (use, topic, True), question


def test_a_kind_a_question_uses_is_not_a_kind_it_asks_for():
    assert contributions_asked("do any of them use math benchmarks?") == []
    assert contributions_asked("Which benchmarks do the papers evaluate on?") == []
    assert contributions_asked("which papers are evaluated on standard datasets?") == []
    assert contributions_asked("Which papers introduce a benchmark and evaluate on it?") == ["benchmark/dataset"]
    assert contributions_asked("Which papers contribute a new training dataset?") == ["benchmark/dataset"]
    # said of the benchmarks in the passive, a use too; a relative clause on what a paper introduces is not
    assert contributions_asked("Which ones report on AIME? I only want those where both benchmark families are "
                               "explicitly evaluated.") == []
    assert contributions_asked("which papers introduce a dataset that is used for training agents?") == \
        ["benchmark/dataset"]


def test_a_kind_with_examples_between_dashes_is_asked_for_and_a_label_sets_papers_aside():
    from assistant.reading.question_text import asked

    # the examples between dashes are of the kind, and "even when ..." is a concession: nothing is left to search
    theory = plan_of(asked("Excluding purely empirical work: every paper that contains formal theoretical analysis -- "
                           "proofs, bounds, or a theoretical framework -- even when the theory is secondary."))
    assert theory.kind == "contribution" and theory.contributions == ["theory"] and theory.query == ""
    assert theory.without == "purely empirical work"


def test_a_kind_a_question_sets_aside_or_leaves_open_is_not_asked_for():
    # what it excludes, what papers use something as, and "whether theoretical or empirical" ask for no kind
    assert contributions_asked("Which papers output images? Please exclude work where generation only serves as a "
                               "tool for evaluating some other system.") == []
    assert contributions_asked("anything on AI as a tool for natural science?") == []
    assert contributions_asked("Identify all submissions on state-space models, whether the treatment is theoretical "
                               "or empirical.") == []
    # a rigorous analysis is theory, not an empirical analysis
    assert contributions_asked("which papers' central contribution is a rigorous analysis of how transformers "
                               "train?") == ["theory"]
    assert contributions_asked("Which papers contribute a new system?") == ["system/tool"]
    # "real math theory, like proving bounds or guarantees": the kind, and examples of it; no topic is left
    theory = plan_of("which papers actually have real math theory in them, like proving bounds or guarantees?")
    assert theory.contributions == ["theory"] and theory.query == ""
    # "a theoretical treatment of X", "theoretical contributions in X": the kind, and X its topic
    assert plan_of("Are there papers giving a theoretical treatment of test-time scaling?").query == "test-time scaling"
    assert plan_of("I'm looking for theoretical contributions in reinforcement learning").query == "reinforcement learning"


def test_the_plan_knows_every_kind_of_contribution_the_labeller_gives():
    from assistant.filters import CONTRIBUTIONS
    from assistant.reading.contribution_words import CONTRIBUTION_WORDS

    # every label but "method", which nearly every paper has and no question asks for as a kind of paper
    assert set(CONTRIBUTION_WORDS) == set(CONTRIBUTIONS) - {"method"}


@pytest.mark.parametrize("question, searched", [
    ("Which papers propose RL methods for agents that are not language models, e.g. game-playing agents?",
     "propose RL methods for agents, e.g. game-playing agents"),
    ("Which papers train the model rather than only changing inference?", "train the model"),
    ("papers on video instead of images", "video"),
    ("Which papers study methods that do not need labels?", "study methods that do not need labels"),  # a property
    ("which ones are not about LLMs?", "which ones are not about LLMs"),  # nothing would be left to search for
    ("is there any classic RL work for agents outside of LLM fine-tuning?", "classic RL work for agents"),
])
def test_what_a_question_sets_aside_is_not_searched_for(question, searched):
    assert plan_of(question).query == searched


@pytest.mark.parametrize("question,found", [
    ("Is there work applying ML to the sciences, e.g. physics or biology?", ["physics", "biology"]),
    ("Which papers use formal verifiers like Lean or symbolic logic engines to check proofs?", ["Lean", "symbolic logic engines"]),
    ("getting LLMs past problems too hard for them, e.g. with hints or partial solutions", ["hints", "partial solutions"]),
    ("papers on parallel reasoning (e.g., self-consistency, voting)", ["self-consistency", "voting"]),
    ("papers on structured prediction such as this one", []),
    ("papers on structured prediction", []),
    # what the question sets against them is no example
    ("papers improving the optimizer itself, e.g. learned update rules, rather than the model", ["learned update rules"]),
    ("Which works apply ML to the natural sciences — physics, biology, PDE-type scientific computing?",
     ["physics", "biology", "PDE-type scientific computing"]),  # listed after a dash
    # a description of what is wanted names no instance of it
    ("what papers work with audio or speech, like a model that can listen?", []),
    ("alignment methods like RL or DPO", ["RL", "DPO"]),
    # several in parentheses are instances of the phrase before them; an aside that sets something apart is not
    ("papers on robots (grasping, locomotion / navigation)", ["grasping", "locomotion", "navigation"]),
    ("benchmarks in expert domains (law, medicine etc.)", ["law", "medicine"]),
    ("methods for images (not video, just pictures)", []),
    ("papers on learning from feedback (RLHF)", []),
])
def test_the_examples_a_question_gives(question, found):
    from assistant.reading.examples import examples

    assert examples(question) == found


@pytest.mark.parametrize("message, question", [
    ("I'm surveying methods for making chain-of-thought cheaper; which abstracts propose ways to shorten reasoning?",
     "which abstracts propose ways to shorten reasoning?"),
    ("I work on agents. Which papers study tool use?", "Which papers study tool use?"),
    ("which papers use Lean; and which use Coq?", "which papers use Lean; and which use Coq?"),  # two questions
    ("I need every paper on Lean", "I need every paper on Lean"),
    # a question that asks nothing of its own leaves the statement to ask it
    ("I'm interested in methods that make outputs more concise. What's there?",
     "I'm interested in methods that make outputs more concise"),
    ("Separate question: anything that builds on CLIP?", "anything that builds on CLIP?"),  # what it says of itself
    # what the answer is for: the asker's topic, not the question's ("a survey" asks for no survey)
    ("For a survey on multimodal reasoning: which papers propose new methods to improve visual reasoning?",
     "which papers propose new methods to improve visual reasoning?"),
    ("For my thesis, which papers use Lean?", "which papers use Lean?"),
    ("For a session on inference-time reasoning, I need every submission whose method samples many traces.",
     "I need every submission whose method samples many traces."),
    ("To seat reviewers with alignment expertise, enumerate every paper that uses RLHF.",
     "enumerate every paper that uses RLHF."),
    ("To what extent do LLMs reason, and which papers test it?", "To what extent do LLMs reason, and which papers test it?"),
    ("For a safety project we keep hearing about VIRF; what does the framework do?",
     "For a safety project we keep hearing about VIRF; what does the framework do?"),  # it says what "the framework" is
    ("Writing a related-work section on agents. Which papers build LLM agents?", "Which papers build LLM agents?"),
    # a request for the whole list after the question
    ("which papers use RL to train speech LLMs? want all of them", "which papers use RL to train speech LLMs?"),
    ("Are there papers applying ML to physics? List every one please.", "Are there papers applying ML to physics?"),
    ("Which papers use Lean? Give me the full list.", "Which papers use Lean?"),
    ("hey, which papers involve video?", "which papers involve video?"),
    ("Switching gears: is there any work on robots?", "is there any work on robots?"),
    # examples listed after the question are examples of it; "anything like that" asks for no similar papers
    ("Are there papers on languages other than English? Multilingual, cross-lingual, low-resource, anything like that.",
     "Are there papers on non-English languages, e.g. Multilingual, cross-lingual, low-resource?"),
    ("is there research on LLMs for languages that are not English?", "is there research on LLMs for non-English languages?"),
    ("papers on a language which isn't English", "papers on a non-English language"),
    # a remark after the question that asks nothing of its own; "that sort of thing" after examples
    ("what papers work with audio or speech, like a model that can listen?", "what papers work with audio or speech?"),
    ("Is there work on robots? I'd like to see everything in that space.", "Is there work on robots?"),
    ("formal verification papers — need every one of them for my survey", "formal verification papers?"),
    ("cut the cost of video understanding - papers?", "cut the cost of video understanding?"),
    # what the question sets aside, said after it, is a set of papers the list leaves out; "not sure" is none
    ("papers on model merging? not the prompting stuff", "papers on model merging, but not prompting?"),
    ("Which papers use Lean? Not the physics ones.", "Which papers use Lean, but not physics?"),
    ("papers on video? not RL papers", "papers on video, but not RL?"),
    ("Which papers use Lean? not sure", "Which papers use Lean? not sure"),
    ("Are there papers on adapting models at test time? Test-time training, self-training, that sort of thing.",
     "Are there papers on adapting models at test time, e.g. Test-time training, self-training?"),
    ("any work on model compression? pruning, distillation, low-rank, whatever", "any work on model compression, e.g. "
     "pruning, distillation, low-rank?"),
    # a label before the question that asks it again; a word of acknowledgement before a follow-up
    ("grpo variants / fixes - which papers propose a modified grpo?", "which papers propose a modified grpo?"),
    ("Lean: which papers use it?", "Lean: which papers use it?"),  # the label is what "it" is
    # a label that sets something aside, or names the kind of paper the request wants; what is first set beside it
    ("Excluding agents: every paper that uses RL", "every paper that uses RL, excluding agents?"),
    ("Beyond theorem proving, is there work that verifies LLM plans?", "is there work that verifies LLM plans?"),
    ("great, now which of them use RL?", "now which of them use RL?"),
    # a lead-in that the question after the dash restates
    ("ok and what about audio — are there papers on audio or speech language models?",
     "are there papers on audio or speech language models?"),
])
def test_what_the_asker_says_of_their_work_before_the_question_is_not_searched(message, question):
    from assistant.reading.question_text import asked

    assert asked(message) == question
    assert plan_of(asked(message)).kind == "list"


@pytest.mark.parametrize("message", ["diff?", "ok and the differences?", "compare?", "what's the diff"])
def test_a_comparison_asked_in_a_word_is_asked_of_the_last_answer(message):
    from assistant.reading.question_text import asked
    from assistant.typos import written_out

    assert asked(written_out(message)) == "how do they differ?"


def test_a_word_of_comparison_inside_a_question_is_no_comparison_in_a_word():
    from assistant.reading.question_text import asked

    assert asked("papers on different languages?") == "papers on different languages?"


@pytest.mark.parametrize("question,topic", [
    ("papers on reasoning efficiency, but not using RL", "RL"),
    ("which papers use Lean but not for physics?", "physics"),
    ("papers on video other than long video", "long video"),
    ("papers on agents excluding the ones about benchmarks", "benchmarks"),
    ("agents that are not language models", ""),  # a property of the agents, not a set to leave out
    # what an example says in its own clause is no set left out; a clause of its own after the examples is
    ("anything on pass@k in RL-trained LLMs? like RLVR boosting pass@1 but not pass@k", ""),
    ("papers on agents, e.g. web agents or planners, but not robots", "robots"),
    ("papers on reasoning efficiency", ""),
    ("RL fine-tuning that cares about pass@k and not just pass@1", ""),  # asks for more than pass@1
])
def test_the_topic_a_list_leaves_out(question, topic):
    from assistant.reading.examples import left_out_topic

    assert left_out_topic(question) == topic


@pytest.mark.parametrize("question, set_aside", [
    ("agents that are not language models", ("agents", "language models")),
    ("which papers train agents that aren't LLMs?", ("agents", "LLMs")),
    ("RL methods for agents which are not large language models, e.g. game-playing agents", ("agents", "large language models")),
    ("papers about sequence models that are not transformers", ("models", "transformers")),
    ("evaluation data that isn't English-only", None),  # a mass, not things counted: "dataset" papers lack "data"
    ("papers that are not about RL", None),  # the papers themselves: a topic left out, not a kind
    ("methods that are not trained with RL", None),  # how they are made, not what they are
    ("agents that are not only capable but safe", None),  # a degree, not a kind
])
def test_the_kind_a_question_sets_aside(question, set_aside):
    from assistant.kind_set_aside import kind_set_aside

    assert kind_set_aside(question) == set_aside
    plan = plan_of(question)
    assert plan.not_kind == (set_aside or ())
    assert (plan.as_dict().get("not_kind") or None) == (list(set_aside) if set_aside else None)
    assert plan.line().endswith(f", only {set_aside[0]} that are not {set_aside[1]}") if set_aside else \
        ", only " not in plan.line()


def test_a_thing_of_the_kind_is_one_the_kind_modifies_or_only_said_with_it():
    from assistant.kind_set_aside import of_the_kind

    defined = {"LLM": "large language model"}
    assert of_the_kind("We study LLM agents in bandits.", "agents", "language models", defined)
    assert of_the_kind("Large Language Model (LLM)-powered agents browse the web.", "agents", "language models", defined)
    assert of_the_kind("This turns the LLM into an interpretable agent.", "agents", "language models", defined)
    assert of_the_kind("We fine-tune SpeechLLMs for emotion.", "agents", "language models", defined)  # no agent at all
    assert not of_the_kind("Experience replay helps online reinforcement learning agents. It needs no "
                           "language-model fine-tuning.", "agents", "language models", defined)
    assert not of_the_kind("Sequence modeling is dominated by transformers. Our recurrent model is linear in time.",
                           "models", "transformers", {})


@pytest.mark.parametrize("question,means", [
    ("papers on test-time scaling of LLM reasoning with verifiers or reward models", ["verifiers", "reward models"]),
    ("which papers train agents via imitation or RL?", ["imitation", "RL"]),
    ("test time scaling using reward models or PRMs, which papers do that", ["reward models", "PRMs"]),
    ("Which works deal with models latching onto shortcuts or spurious correlations?", []),  # "deal with" is no means
    ("papers using reward models or verifiers at inference time", []),  # the means are the topic itself
    ("papers on test-time scaling with verifiers", []),  # one means: the topic's words already say it
    ("papers on applying ML to the sciences, e.g. physics or biology?", []),  # examples, not means
])
def test_the_means_a_list_asks_each_paper_to_use(question, means):
    plan = plan_of(question)
    assert plan.kind == "list" and plan.means == means
    assert (plan.as_dict().get("means") == means) if means else "means" not in plan.as_dict()
    if means:
        assert plan.line().endswith(f", using {' or '.join(means)}") and " with " not in plan.line()


def test_a_means_used_on_what_the_examples_are_of_is_still_asked():
    """"Use RL to train multimodal models (vision, audio or speech)": the examples are of the models, and each paper
    must still use RL; "(RLHF, preference optimization)" after "use human preference" are examples of the means."""
    rl = plan_of("which papers use reinforcement learning to train multimodal models (vision, audio or speech)?")
    assert rl.examples == ["vision", "audio", "speech"] and rl.means == ["reinforcement learning"]
    preference = plan_of("papers that use human preference to align models (RLHF, preference optimization)?")
    assert preference.examples and preference.means == []


def test_a_new_metric_is_a_form_of_method():
    for question in ("Which papers propose new evaluation metrics?", "Which papers introduce a new metric or measure as a "
                     "core contribution?", "Which papers propose a new scoring function for reward models?"):
        assert (plan_of(question).contributions, plan_of(question).method_form) == (["method"], "metric"), question
    assert plan_of("Which papers propose a new scoring function for reward models?").query == "reward models"
    for question in ("Which papers measure reasoning efficiency?", "papers that propose to measure calibration",
                     "Which papers report scores on AIME?"):
        assert plan_of(question).method_form is None, question


@pytest.mark.parametrize("question, kinds, topic", [
    ("Which papers propose a new network architecture or layer design?", ["method"], ""),
    ("Architecture papers: who proposes a new neural network layer or attention mechanism?", ["method"], ""),
    ("any new attention mechanisms?", ["method"], ""),
    ("What new architectures are there?", ["method"], ""),
    ("Which papers introduce novel architectures for sequence modeling?", ["method"], "sequence modeling"),
    ("papers proposing new layers for long-context language modeling", ["method"], "long-context language modeling"),
    ("Do any papers design a new model architecture and also give a theoretical analysis?", ["method", "theory"], ""),
])
def test_a_new_architecture_is_a_form_of_method(question, kinds, topic):
    """An architecture, layer or attention a paper puts forward is a method of that form (``method_form``): the
    papers ingest read one off; the topic left is what it is for."""
    plan = plan_of(question)
    assert (plan.kind, plan.contributions, plan.method_form, plan.query) == ("contribution", kinds, "architecture", topic)
    assert plan.as_dict()["method_form"] == "architecture"
    assert plan.line().startswith("contribution question: every method") and "(new architectures only)" in plan.line()


@pytest.mark.parametrize("question", [
    "Which papers provide a theoretical analysis of core architectures like softmax attention or state space models?",
    "theory papers on attention",
    "Which papers modify the transformer layer?",  # a list on what papers do to layers
    "Which papers study the layers of LLMs?",
    "which papers use a Siamese architecture?",
])
def test_architectures_as_a_topic_ask_for_no_form(question):
    assert plan_of(question).method_form is None


@pytest.mark.parametrize("question, kinds, mainly", [
    ("Which papers back their claims with theory?", ["theory"], False),  # a kind brought to what is claimed
    ("papers with theoretical guarantees", ["theory"], False),
    ("papers that train with synthetic data", [], False),  # data used, not contributed
    ("Are there any evaluation benchmarks in the collection?", ["benchmark/dataset"], False),  # a noun, not "evaluated on"
    ("Which papers provide formal guarantees?", ["theory"], False),
    ("Which papers present a system or tool?", ["system/tool"], False),
    ("Are there papers on multi-agent systems?", [], False),  # a topic, not a kind
    ("Which papers contribute synthetic training data?", ["benchmark/dataset"], False),
    ("which theory papers study attention?", ["theory"], False),  # a kind said of the papers
    ("Are there any analysis papers on RL for LLMs?", ["empirical study/analysis"], False),
    ("Which papers are purely empirical?", ["empirical study/analysis"], True),
    ("Which papers are analyses of pre-training?", ["empirical study/analysis"], False),
    ("Which papers give theoretical analyses of attention?", ["theory"], False),  # theory, not an empirical study
    ("Show me the systems or tools in the collection", ["system/tool"], False),
    ("Are there papers whose main contribution is a theoretical result?", ["theory"], True),
    # a kind that a "which" asks for, not one the papers use
    ("Which empirical studies examine reinforcement learning?", ["empirical study/analysis"], False),
    ("What surveys cover agents?", ["survey/position"], False),
    ("Which papers give a theoretical analysis of a neural network architecture?", ["theory"], False),
    ("Which papers release a code library or repository as a contribution?", ["system/tool"], False),
    # a kind set against another: the paper is the one and not the other, so it is its main contribution
    ("Which papers are empirical analyses rather than new methods?", ["empirical study/analysis"], True),
    ("Which papers introduce benchmarks, not methods?", ["benchmark/dataset"], True),
    ("Which papers introduce a benchmark rather than using an existing one?", ["benchmark/dataset"], False),
    # a concession is not asked for: the theory is
    ("Which papers include some theoretical analysis, even if they are mostly empirical?", ["theory"], False),
    # what a kind's papers do: prove, derive bounds, analyze why, argue a position
    ("Which papers prove theorems about transformers?", ["theory"], False),
    ("papers with convergence proofs", ["theory"], False),
    ("Which papers derive bounds on generalization?", ["theory"], False),
    ("What work is there on theorem proving or formal proofs in Lean?", [], False),  # a topic, not theory
    ("Which papers analyze why RL fine-tuning works?", ["empirical study/analysis"], False),
    ("any review articles on RL for LLMs?", ["survey/position"], False),
    ("Which papers argue a position?", ["survey/position"], False),
    ("new evaluation suites for LLM agents?", ["benchmark/dataset"], False),
    ("Which works build a test bed for evaluating robot policies?", ["benchmark/dataset"], False),
    # an analysis asked as the method a paper does not bring: its main contribution
    ("Which papers investigate the behaviour of LLMs without proposing a new method?", ["empirical study/analysis"], True),
    ("Which papers measure something rather than propose a method?", ["empirical study/analysis"], True),
    ("Which are analysis papers that study what RL does to LLMs, rather than proposing a new RL algorithm?",
     ["empirical study/analysis"], True),
    # a method only beside another kind the paper is to have too
    ("Which papers release a new dataset and also a method?", ["benchmark/dataset", "method"], False),
    ("Which papers propose a new benchmark and also evaluate methods on it?", ["benchmark/dataset"], False),
    # proofs a model writes or checks are a topic; proofs a paper backs its idea with are theory
    ("Which papers have models write proofs that a checker verifies?", [], False),
    ("Which papers back their method up with math theory or proofs?", ["theory"], False),
    # said casually: an exam for measuring models, studies of how models learn rather than ones pitching a
    # technique, a pipeline for churning out data
    ("Which papers introduce a new exam for measuring language models?", ["benchmark/dataset"], False),
    ("Which are studies that examine how LLMs learn, rather than ones pitching a new technique?",
     ["empirical study/analysis"], True),
    ("Which papers offer a pipeline for churning out training data?", ["benchmark/dataset"], False),
])
def test_how_a_question_asks_for_a_kind(question, kinds, mainly):
    from assistant.reading.contributions_asked import asks_mainly

    assert contributions_asked(question) == kinds
    assert asks_mainly(question) is mainly
    assert plan_of(question).kind == ("contribution" if kinds else "list")


def test_a_topic_switch_after_a_subset_keeps_the_kind_of_the_last_search():
    """"Which papers work on audio?", "which one builds a dataset?", "and what about video?": papers on video,
    not datasets on video; after "which papers introduce a benchmark?" and a subset, benchmarks on physics."""
    from assistant.conversation import AskedKinds

    conversation = Conversation()
    conversation.add(Turn("which papers work on audio?", "work on audio", "...", ["a", "b"], ["A: x", "B: y"], "list"))
    conversation.add(Turn("which one builds a dataset?", "builds dataset", "...", ["b"], ["B: y"], "followup",
                          AskedKinds(("benchmark/dataset",)), within=["a", "b"]))
    switch = conversation.resolve("and what about video?")
    assert switch.switch_to == "video" and switch.last_kind == "list" and switch.last_kinds == AskedKinds()
    benchmarks = Conversation()
    benchmarks.add(Turn("which papers introduce a benchmark?", "", "...", ["a", "b"], ["A: x", "B: y"], "contribution",
                        AskedKinds(("benchmark/dataset",))))
    benchmarks.add(Turn("which of them is about law?", "law", "...", ["b"], ["B: y"], "followup",
                        AskedKinds(("benchmark/dataset",)), within=["a", "b"]))
    assert benchmarks.resolve("and what about physics?").last_kinds.contributions == ("benchmark/dataset",)


def test_and_which_after_a_subset_asks_the_same_set_again():
    """"Which of them improve pass@k?", then "and which improve training stability?": another subset of the papers
    the last answer chose from; "and which of those use RL?" is a subset of the last answer itself."""
    conversation = Conversation()
    conversation.add(Turn("which papers use GRPO?", "GRPO", "...", ["a", "b", "c", "d"], ["A: w", "B: x", "C: y", "D: z"],
                          "list"))
    conversation.add(Turn("which of them improve pass@k?", "improve pass k", "...", ["b", "c"], ["B: x", "C: y"],
                          "followup", within=["a", "b", "c", "d"]))
    again = conversation.resolve("and which improve training stability?")
    assert again.restrict_to == ["a", "b", "c", "d"] and again.sibling and "training stability" in again.query
    those = conversation.resolve("and which of those use RL?")
    assert those.restrict_to == ["b", "c"] and not those.sibling


def test_a_subset_by_a_kind_a_paper_has():
    """"which of them has theory?": the papers of the last answer with the kind, not those using the word."""
    conversation = Conversation()
    conversation.add(Turn("papers on experience replay or exploration bonuses", "experience replay", "...",
                          ["a", "b"], ["A: x", "B: y"], "list"))
    question = "which of them has theory?"
    plan = plan_of(question, followup=conversation.resolve(question))
    assert plan.restrict_to == ["a", "b"] and plan.contributions == ["theory"]


def test_and_which_after_a_subset_asks_the_set_it_was_chosen_from():
    """"Which papers introduce benchmarks?", "which of them is about law?", "and which is about physics?"."""
    conversation = Conversation()
    conversation.add(Turn("Which papers introduce benchmarks?", "benchmarks", "...", ["a", "b", "c"],
                          ["A: x", "B: y", "C: z"], "contribution"))
    law = conversation.resolve("which of them is about law?")
    assert law.restrict_to == ["a", "b", "c"] and law.query == "law"
    conversation.add(Turn("which of them is about law?", "law", "...", ["b"], ["B: y"], "followup", within=["a", "b", "c"]))
    physics = conversation.resolve("and which is about physics?")
    assert physics.restrict_to == ["a", "b", "c"] and physics.query == "physics" and physics.sibling


@pytest.mark.parametrize("question, topic", [
    ("compare the two audio papers", "audio"),  # how many, not what about
    ("What is GRPO-PTR and how is it different from standard GRPO?", "GRPO-PTR"),  # the paper, not its baseline
    ("Which empirical analyses look at test-time compute?", "test-time compute"),
])
def test_counts_and_function_words_are_no_topic(question, topic):
    assert plan_of(question).query == topic


def test_follow_ups_asked_as_commands_and_references_to_the_last_topic():
    """"drop the ones that use GRPO", "filter to the papers about agents", "same question but for robotics",
    "any others?", "now show me benchmarks on this topic"."""
    conversation = Conversation()
    conversation.add(Turn("which papers use reinforcement learning?", "use reinforcement learning", "...",
                          ["a", "b", "c"], ["A: x", "B: y", "C: z"], "list"))
    drop = conversation.resolve("Drop the ones that use GRPO")
    assert drop.restrict_to == ["a", "b", "c"] and drop.exclude and drop.query == "GRPO"
    narrowed = conversation.resolve("Filter to the papers about agents")
    assert narrowed.restrict_to == ["a", "b", "c"] and not narrowed.whole_set and narrowed.query == "agents"
    assert conversation.resolve("Narrow it down to the ones on multimodal models").query == "multimodal models"
    same = conversation.resolve("Same question but for robotics")
    assert same.switch_to == "robotics" and same.restrict_to is None and same.last_kind == "list"
    others = conversation.resolve("Any others?")
    assert others.switch_to == "use reinforcement learning" and others.besides == ["a", "b", "c"]
    question = "Now show me benchmarks on this topic"
    this_topic = conversation.resolve(question)
    assert this_topic.restrict_to is None and this_topic.query.startswith("use reinforcement learning")
    plan = make_plan(question, query=focus(this_topic.query), topics=[focus(this_topic.query)], named=[])
    assert plan.kind == "contribution" and plan.contributions == ["benchmark/dataset"]
    assert plan.query == "reinforcement learning"


@pytest.mark.parametrize("question, items, rest", [
    ("Which ICLR 2026 papers study exploration?", [("venue", "ICLR 2026")], "Which papers study exploration?"),
    ("ICLR papers on test-time adaptation", [("venue", "ICLR 2026")], "papers on test-time adaptation"),  # its name
    ("papers from ICLR 2026 about robots", [("venue", "ICLR 2026")], "papers about robots"),
    ("Which 2026 papers use Lean?", [("year", 2026)], "Which papers use Lean?"),
    ("Which papers use GPT-4 in 2026?", [("year", 2026)], "Which papers use GPT-4?"),
    ("papers on Lean 4", [], "papers on Lean 4"),  # a number in a name is no year
    ("NeurIPS papers on RL", [], "NeurIPS papers on RL"),  # a venue the store lacks stays a word to search
])
def test_a_venue_or_year_the_store_holds_is_a_filter(question, items, rest):
    from assistant.venues import said_venues

    assert said_venues(question, ["ICLR 2026"], [2026]) == (items, rest)


def test_follow_ups_that_pick_by_a_modifier_a_comparative_or_add_a_paper():
    conversation = Conversation()
    conversation.add(Turn("which papers introduce a new benchmark?", "", "...", ["a", "b", "c"], ["A: x", "B: y", "C: z"],
                          "contribution", AskedKinds(("benchmark/dataset",))))
    lean = conversation.resolve("the Lean one: what does it contain?")
    assert lean.pick_one and lean.query == "Lean" and lean.restrict_to == ["a", "b", "c"]
    cheaper = conversation.resolve("Which is cheaper?")
    assert cheaper.pick_one and cheaper.superlative and cheaper.why.endswith("that is cheaper")
    physics = conversation.resolve("Any on physics?")  # a new search of the same kind
    assert physics.switch_to == "physics" and physics.last_kinds.contributions == ("benchmark/dataset",)
    others = conversation.resolve("Who else works on test-time adaptation?")
    assert others.switch_to == "test-time adaptation" and others.besides == ["a", "b", "c"]
    added = conversation.resolve("Add CRISP to the comparison")
    assert added.adding and added.restrict_to == ["a", "b", "c"]
    plan = make_plan("Add CRISP to the comparison", query="CRISP", topics=["CRISP"], named=["d"], followup=added)
    assert plan.kind == "compare" and plan.restrict_to == ["a", "b", "c", "d"] and plan.added == ["d"]
    assert plan.line() == "comparison of the 3 papers of the last answer with the 1 paper it adds"


def test_a_word_said_as_a_venue_is_told_from_other_unknown_words():
    from assistant.venues import venue_like

    assert venue_like("NeurIPS papers on RL", ["NeurIPS"]) == ["NeurIPS"]
    assert venue_like("papers accepted at ACL 2025 on parsing", ["ACL"]) == ["ACL"]
    assert venue_like("Which papers use Qwen3?", ["Qwen3"]) == []  # a model's name
    assert venue_like("papers on protein folding", ["protein"]) == []


def test_words_that_ask_or_wave_at_a_kind_of_thing_are_no_topic():
    """No paper of a small store holds "everything" or "stuff": left in a topic, they read as one the store lacks."""
    from assistant.query_words import topic_words

    assert topic_words("robots? want to see everything in that space") == "robots space"
    assert topic_words("sequence model stuff, ssms, that kind of thing") == "sequence model ssms"


def test_a_question_pointing_at_what_it_names_itself_leans_on_no_answer():
    """"picking among them" points at the reasoning paths the question names; "which of them" at nothing before."""
    from assistant.reading.references import leans_on_an_answer, points_inside

    question = "anything for sampling many reasoning paths and then picking among them?"
    assert leans_on_an_answer(question) and points_inside(question)
    assert not points_inside("which of them use RL?") and not points_inside("how do they differ?")


@pytest.mark.parametrize("asked_first, read", [
    ("Which of these papers build a world model?", "Which papers build a world model?"),
    ("Do any of these studies look at languages other than English?", "Do any studies look at languages other than English?"),
    ("Which of those submissions use Lean?", "Which submissions use Lean?"),
    ("which ones run experiments on Qwen models", "which papers run experiments on Qwen models"),
    ("which of them use RL?", "which of them use RL?"),  # leans on an answer: there is none to read it with
])
def test_these_papers_asked_first_are_the_stores(asked_first, read):
    from assistant.reading.references import of_the_store

    assert of_the_store(asked_first) == read


def test_what_a_list_says_around_its_topic():
    # examples after a spaced hyphen, as after a dash; a kind of method described ("methods where ...") asks for all
    agents = plan_of("LLM agents - web agents, decision-making agents, planners")
    assert agents.kind == "list" and agents.examples == ["web agents", "decision-making agents", "planners"]
    assert plan_of("test-time adaptation methods where the model updates itself on unlabeled data").kind == "list"
    # what has nothing to do with a topic is left out of the list, and is no topic to search
    rl = plan_of("RL algorithm papers that have nothing to do with LLMs")
    assert rl.kind == "list" and rl.without == "LLMs" and "LLMs" not in rl.query
    # "and what about ...?" frames a topic as "what about ...?" does
    assert focus("and what about training-free approaches that vote over traces?") == \
        "training-free approaches that vote over traces"


def test_a_paper_described_in_a_comparison_is_one_thing_to_compare():
    """"the other long-video paper (the one with X + Y)" is one paper set against the named one, not a baseline."""
    question = "compare ST-SimDiff with the other training-free long-video paper (the one with adaptive frame sampling)"
    assert compared_names(question) == ["ST-SimDiff", "other training-free long-video paper (the one with adaptive frame "
                                                      "sampling)"]
    assert plan_of(question, named=["st"]).kind == "compare"
    assert plan_of("What is GRPO-PTR and how does it differ from standard GRPO?", named=["g"]).kind == "named"
    # better than a technique in plain words: about the one paper; better than a name or a described paper: compared
    assert plan_of("What is TRU and why it is better than gradient ascent?", named=["t"]).kind == "named"
    assert plan_of("Is ZeroSiam better than TTM?", named=["z", "t"]).kind == "compare"
    assert plan_of("Is ZeroSiam better than the test-time matching paper?", named=["z"]).kind == "compare"
    # a paper described with commas and "and" inside is one thing; "how do X and Y relate?" compares them
    assert compared_names("Contrast ST-SimDiff with the long-video framework that combines frame sampling, dynamic "
                          "resolution, and query similarity: what does each keep?") == \
        ["ST-SimDiff", "long-video framework that combines frame sampling, dynamic resolution, and query similarity"]
    related = "How do the paper that trains a prover with expert iteration and RL and the paper that releases a physics benchmark relate?"
    assert compared_names(related) == ["paper that trains a prover with expert iteration and RL",
                                       "paper that releases a physics benchmark"]
    assert plan_of(related).kind == "compare"


def test_what_names_the_store_or_a_list_of_papers_is_no_topic_nor_kind():
    # "in the corpus" is the store the question asks of, not a corpus a paper contributes
    lean = plan_of("What's in the corpus on formal theorem proving with Lean?")
    assert lean.kind == "list" and lean.contributions == [] and lean.query == "formal theorem proving with Lean"
    assert contributions_asked("which papers introduce a new corpus?") == ["benchmark/dataset"]
    assert focus("I need every paper in this collection that learns from preference signals") == \
        "learns from preference signals"
    # a contrast in parentheses ends at its bracket: what follows it is still the topic
    train = plan_of("Which works train models (rather than only changing the decoding procedure) to produce parallel "
                    "reasoning paths?")
    assert train.query == "train models to produce parallel reasoning paths"


def test_papers_named_each_doing_something_are_compared():
    assert plan_of("How do SFPO, DPH-RL and THR each intervene in RL training?", named=["s", "d", "t"]).kind == "compare"
    assert plan_of("How does SFPO intervene in RL training?", named=["s"]).kind == "named"


def test_a_statement_of_what_the_asker_writes_about_and_whats_out_there_is_a_list():
    from assistant.reading.question_text import asked

    message = "I'm writing about making models think faster: shorter chains of thought. What's out there?"
    assert asked(message) == "I'm writing about making models think faster: shorter chains of thought"
    assert plan_of(asked(message)).kind == "list"
    assert plan_of(asked(message)).query == "models think"  # among the papers that cut inference cost
    assert plan_of(asked(message)).saves == "inference"
    assert focus("What other papers involving robots are in the collection?") == "involving robots"


def test_a_contrast_inside_an_example_is_searched_with_it():
    from assistant.reading.examples import without_contrasts

    assert without_contrasts("pass@k in RL-trained LLMs, like RLVR boosting pass@1 but not pass@k") == \
        "pass@k in RL-trained LLMs, like RLVR boosting pass@1 but not pass@k"
    assert without_contrasts("learned optimizers, e.g. learned update rules, rather than the model") == \
        "learned optimizers, e.g. learned update rules"


@pytest.mark.parametrize("question, kind", [
    ("stuff where the AI writes out several answers and merges them", "list"),  # a kind of thing, described
    ("training where the model gets a hint when the problem is too hard", "list"),
    ("robot papers?? anything with robots doing physical things", "list"),
    ("new test sets that check whether AI can do professional work", "contribution"),
    ("I want the papers that are mostly experiments to understand why something fails", "contribution"),
    ("proof simplification for Lean", "topic"),  # a search, as before
])
def test_casual_ways_of_asking_for_papers(question, kind):
    from assistant.reading.question_text import asked

    assert plan_of(asked(question)).kind == kind


def test_what_the_asker_says_before_and_inside_the_question_is_not_its_topic():
    from assistant.reading.question_text import asked

    assert asked("so I keep seeing GRPO everywhere. which papers tweak the RL training?") == \
        "which papers tweak the RL training?"


def test_examples_after_the_question_and_a_comparison_asked_first():
    from assistant.reading.references import points_inside
    from assistant.reading.question_text import asked

    assert asked("which papers use ML for science? like physics, biology, that kind of thing") == \
        "which papers use ML for science, e.g. physics, biology?"
    assert asked("papers about preference learning - preference feedback, RLHF, that kinda thing") == \
        "papers about preference learning - preference feedback, RLHF?"  # a fragment that lists asks for all
    # "the difference between those" names nothing "those" could point at: asked first, it leans on no answer it has
    assert not points_inside("what's the difference between those")
    assert points_inside("sampling several reasoning paths and then picking among them")


@pytest.mark.parametrize("question,found", [
    ("new benchmarks for professional work (law, medicine etc.)", ["law", "medicine"]),
    ("papers proving guarantees for RL, for example about sample efficiency or optimism", ["sample efficiency", "optimism"]),
    # examples of the kind itself, or of what its evidence is, are no topic
    ("papers with theory (proofs, guarantees) about RL", []),
    ("benchmarks (datasets or test suites) for agents", []),
    ("theoretical analyses of attention (with proofs or bounds)", []),
])
def test_the_examples_a_question_on_a_kind_gives_of_its_topic(question, found):
    from assistant.reading.examples import topic_examples

    assert topic_examples(question) == found


def test_examples_in_parentheses_are_instances_of_the_phrase_before_them():
    listed = plan_of("which papers train multimodal models with RL (vision or audio)?")
    assert listed.kind == "list" and listed.examples == ["vision", "audio"]
    assert listed.examples_of == "train multimodal models with RL"
    assert plan_of("which papers train multimodal models, e.g. vision or audio?").examples_of == ""  # alone, as ever
    kind = plan_of("new benchmarks for expert professional work (law, physics)?")
    assert kind.kind == "contribution" and kind.examples == ["law", "physics"] and kind.examples_of == "expert professional"
    assert kind.line().endswith("or clearly on law or physics") and kind.as_dict()["examples_of"] == "expert professional"


def test_a_clause_after_a_comma_that_says_not_is_set_aside_unless_it_asks_for_more():
    assert plan_of("papers whose main contribution is a simulator, not a training trick").query \
        == "main contribution is a simulator"
    assert plan_of("papers whose main contribution is a simulator").kind == "list"
    assert "English" in plan_of("papers on training LLMs for other languages, not only English?").query


@pytest.mark.parametrize("question,listed", [
    ("contrastive vision-language papers, all of them", True),
    ("audio or speech llm work", True),
    ("state space models, linear rnns etc", True),  # a fragment that lists asks for all of them
    ("new methods built on grpo", True),
    ("proof simplification for Lean", False),  # a search, as ever
    ("how does it work", False),
])
def test_a_fragment_that_asks_for_all_is_a_list(question, listed):
    from assistant.reading.question_text import asked

    assert (plan_of(asked(question)).kind == "list") is listed


@pytest.mark.parametrize("question,kind", [
    ("mamba theory", "contribution"),  # a kind as the head of a fragment: theory papers on Mamba
    ("agent benchmarks?", "contribution"),
    ("rl theory papers", "contribution"),
    ("legal reasoning benchmark in English and German", "topic"),  # a kind that is not the head: one paper described
    ("proof simplification for Lean", "topic"),
])
def test_a_kind_as_the_head_of_a_fragment_asks_for_that_kind(question, kind):
    from assistant.reading.question_text import asked

    plan = plan_of(asked(question))
    assert plan.kind == kind
    if kind == "contribution":
        assert plan.on_a_topic


@pytest.mark.parametrize("typed, read", [
    ("hi, are there papers with robots in the real world?", "are there papers with robots in the real world?"),
    ("thanks! any papers on Lean?", "any papers on Lean?"),
    ("cool, is there anything on audio?", "is there anything on audio?"),
    ("hi", "hi"),  # a greeting alone is small talk, not a question with nothing in it
])
def test_a_greeting_before_the_question_is_not_searched(typed, read):
    from assistant.reading.question_text import asked

    assert asked(typed) == read


@pytest.mark.parametrize("message, query", [
    ("I keep hearing about world models that let robots practise. Which papers are about that?",
     "world models that let robots practise"),
    ("I have been reading about test-time training. Anything here?", "test-time training"),
])
def test_what_the_asker_keeps_hearing_about_is_the_topic(message, query):
    from assistant.reading.question_text import asked

    plan = plan_of(asked(message))
    assert plan.kind == "list" and plan.query == query


@pytest.mark.parametrize("message, query", [
    ("Which papers train agents with RL? Please exclude training-free methods.", "train agents with RL"),
    ("I am looking for world models for robots; exclude papers that only generate videos.", "world models for robots"),
])
def test_what_a_sentence_of_its_own_excludes_is_not_searched(message, query):
    from assistant.reading.question_text import asked

    plan = plan_of(asked(message))
    assert plan.kind == "list" and plan.query == query and plan.topics == [query]


@pytest.mark.parametrize("message, question", [
    ("what about agents then in general, list all the agent ones", "what about agents then?"),
    ("papers on Lean, show me all of them", "papers on Lean?"),
])
def test_the_request_said_again_after_a_comma_is_not_searched(message, question):
    from assistant.reading.question_text import asked

    assert asked(message) == question


@pytest.mark.parametrize("message, kind", [
    ("models that read long documents - what's there", "list"),  # asked, typed without its question mark
    ("mamba variants: which papers", "list"),
    ("sfpo - what does it do", "named"),  # a question about a paper, not a list
])
def test_a_question_after_a_dash_typed_without_its_question_mark(message, kind):
    from assistant.reading.question_text import asked

    assert plan_of(asked(message), named=["SFPO"] if "sfpo" in message else None).kind == kind


@pytest.mark.parametrize("question, kind, query, without", [
    ("I'm citing work on length penalties for reasoning models. Give me every paper that shapes the RL reward by "
     "response length; inference-time pruning of traces doesn't count.", "list",
     "shapes the RL reward by response length", "inference-time pruning of traces"),
    ("Every paper on low-bit weight quantization of LLMs, grouped by post-training vs quantization-aware methods.",
     "list", "low-bit weight quantization of LLMs", ""),
    ("I need every inference-time method that samples multiple reasoning paths", "list", None, ""),
    ("Give me the theoretical papers, but please not the ones about reinforcement learning.", "contribution", "",
     "reinforcement learning"),
    ("Show me papers that build on GRPO or compare against GRPO.", "list", "build on GRPO or compare against GRPO", ""),
    ("anything on math proofs checked by lean", "list", None, ""),
])
def test_lead_ins_layouts_and_exclusions_said_around_a_list(question, kind, query, without):
    from assistant.reading.question_text import asked

    plan = plan_of(asked(question))
    assert plan.kind == kind
    assert query is None or plan.query == query
    assert plan.without == without


def test_a_name_said_before_the_question_is_what_it_asks_about():
    from assistant.reading.question_text import asked

    assert "ZeroSiam" in asked("My labmate mentioned ZeroSiam. What problem it solves?")
    assert asked("I keep seeing GRPO everywhere. Which papers fix the GRPO training so it works better?") \
        == "Which papers fix the GRPO training so it works better?"


@pytest.mark.parametrize("question, query, examples_of", [
    ("Which methods, not benchmarks, target autonomous driving?", "autonomous driving", ""),
    ("Which papers propose methods (not benchmarks) for legal reasoning?", "legal reasoning", ""),
    ("Any methods rather than benchmarks for robot manipulation?", "robot manipulation", ""),
    ("Which methods rather than datasets address long-video understanding?", "long-video understanding", ""),
    # examples said without parentheses are searched near the whole topic, not near "a specific domain" alone
    ("I look for methods, not benchmarks, for a specific domain like law, medicine or biology.",
     "specific domain like law medicine biology", ""),
])
def test_methods_set_against_another_kind_ask_for_the_method_papers_on_the_topic(question, query, examples_of):
    from assistant.reading.question_text import asked

    plan = plan_of(asked(question))
    assert (plan.kind, plan.contributions, plan.mainly) == ("contribution", ["method"], True)
    assert plan.query == query
    assert plan.examples_of == examples_of


def test_an_other_kind_set_aside_before_a_topic_leaves_the_topic_searched():
    from assistant.reading.question_text import asked

    plan = plan_of(asked("Which papers are empirical studies rather than new benchmarks for agents?"))
    assert (plan.kind, plan.contributions) == ("contribution", ["empirical study/analysis"])
    assert "agents" in plan.query


@pytest.mark.parametrize("question, training, searched", [
    ("Which papers propose training-free methods?", "free", ""),  # every training-free paper
    ("Which papers propose training-free methods for video?", "free", "propose methods for video"),
    ("training-free long video mllm tricks", "free", "long video mllm tricks"),
    ("aggregating multiple sampled reasoning traces at inference, no finetune — which papers", "free",
     "aggregating multiple sampled reasoning traces at inference"),
    ("inference-only methods for llm reasoning that dont need any finetuning of the model?", "free", None),
    ("We are benchmarking inference-time strategies and want to avoid any approach that requires fine-tuning the "
     "model; which papers propose such methods?", "free", None),  # what is avoided is not asked for
    ("which papers actually *train* LLMs to do parallel reasoning, instead of just sampling many paths at inference",
     "required", "to do parallel reasoning"),
    ("Which papers train the model rather than only changing inference?", "required", "train the model"),
    # no such property: what the papers are about, or what they are trained on
    ("Which papers train LLMs to produce text embeddings?", "", None),
    ("Which papers try to improve pass@k when training LLMs with RL?", "", None),
    ("papers on methods that require training data", "", None),
    ("which papers study RL training stability?", "", None),
    ("For a survey I need every paper that samples several reasoning paths and merges them -- or trains the model to "
     "reason along parallel paths", "", None),  # either
])
def test_how_a_method_uses_training_is_a_property_not_a_topic(question, training, searched):
    plan = plan_of(question)
    assert plan.training == training
    assert ("training" in plan.as_dict()) == bool(training)
    if searched is not None:
        assert plan.query == searched


@pytest.mark.parametrize("followup, training", [
    ("which of those are training-free?", "free"),
    ("Which of those work purely at inference time, without any extra training?", "free"),
    ("And which ones are explicitly training-free or need no fine-tuning?", "free"),
    ("which of those need no fine-tuning of the LLM itself", "free"),
    ("Which of these actually train the model rather than only changing inference?", "required"),
    ("Which of those require training or fine-tuning the model, rather than working purely at inference time?",
     "required"),
    ("Which of those does it by changing how the model is trained, rather than just how it's run?", "required"),
    ("which of those need rl training", ""),  # which training: searched for within the set
])
def test_a_follow_up_asking_how_its_papers_use_training_keeps_no_topic(followup, training):
    conversation = Conversation([Turn("which papers combine sampled reasoning paths?", "combine sampled reasoning paths",
                                      "", ["p1", "p2", "p3"], ["A: one", "B: two", "C: three"], kind="list")])
    plan = plan_of(followup, followup=conversation.resolve(followup))
    assert plan.kind == "followup" and plan.training == training
    if training:
        assert plan.query == "" and ", on " not in plan.resolution


def test_a_cost_said_in_a_clause_setting_papers_aside_is_not_asked_for():
    plan = plan_of("papers on multimodal reasoning over images with vlms, but not the ones about long video efficiency")
    assert plan.kind == "list" and plan.saves == "" and plan.without == "long video efficiency"


def test_x_vs_y_in_the_topic_of_a_which_papers_question_is_no_comparison():
    """"Which papers are about the exploration vs. exploitation problem?" names no paper to compare: a list."""
    topic = plan_of("Which papers are about the exploration vs. exploitation problem in RL with language models?")
    assert topic.kind == "list" and "exploration vs. exploitation" in topic.query
    assert plan_of("Which papers compare exploration vs. exploitation bonuses, and how do they differ?").kind == "compare"
    assert plan_of("PoLR vs CRISP", named=["p1", "p2"]).kind == "compare"


@pytest.mark.parametrize("question,saves,topic", [
    ("Which papers reduce the cost of LLM reasoning at inference time?", "inference", "LLM reasoning"),
    ("which papers make llm reasoning cheaper at inference time - fewer tokens, lower latency or less test-time "
     "compute?", "inference", "llm reasoning"),
    ("ways to make reasoning llms cheaper when they answer - less tokens, less compute", "inference", "reasoning llms"),
    ("Which papers make RL post-training of LLMs cheaper to run, e.g. fewer rollouts?", "training",
     "RL post-training of LLMs"),
    ("Which work makes self-consistency cheaper by expanding only promising prefixes?", "any",
     "self-consistency by expanding only promising prefixes"),
    ("Which papers improve LLM reasoning (accuracy or efficiency)?", "", None),  # either aim: no condition
    ("papers on sample-efficient reinforcement learning", "", None),
    ("Which papers spend extra compute at inference to improve accuracy?", "", None),
    ("world models that stand in for costly real-world experiments", "", None),
])
def test_a_question_asking_for_a_cost_cut_says_which(question, saves, topic):
    from assistant.savings_asked import savings_asked, without_savings_words
    from assistant.reading.query_focus import focus

    assert savings_asked(question) == saves
    if topic is not None:
        assert without_savings_words(focus(question)) == topic


@pytest.mark.parametrize("query,means", [
    ("use reinforcement learning to train multimodal models (vision, audio or speech)", ["reinforcement learning"]),
    ("apply RL to vision-language models", ["RL"]),
    ("use reward models to score LLM outputs at inference time", ["reward models"]),
    ("using AI to design or tune optimization algorithms", []),  # what every paper uses
    ("use of RL in robotics", []),  # "use of": the topic is the use
])
def test_what_a_list_says_its_papers_use_on_the_topic_is_a_means(query, means):
    from assistant.reading.examples import means_asked

    assert means_asked(query) == means


def test_numbers_into_a_long_list_read_as_its_papers():
    """A list of 30 papers: "the 6th", "the ninth", "papers 6 and 9" point into it as "[6]" does."""
    conversation = Conversation()
    ids = [f"p{n}" for n in range(1, 31)]
    conversation.add(Turn("which papers reduce reasoning token usage?", "reasoning token usage", "...", ids,
                          [f"Paper {n}: title" for n in range(1, 31)], "list"))
    for asked, papers in (("compare the 6th and the 9th", ["p6", "p9"]), ("how do the sixth and ninth differ?", ["p6", "p9"]),
                          ("compare papers 6 and 9", ["p6", "p9"]), ("compare sources 2, 12 and 21", ["p2", "p12", "p21"]),
                          ("compare [6] and [19]", ["p6", "p19"]), ("how do the 21st and 30th compare?", ["p21", "p30"])):
        several = conversation.resolve(asked)
        assert several is not None and several.restrict_to == papers, (asked, several)
        assert plan_of(asked, followup=several).kind == "compare", asked
    assert conversation.resolve("tell me more about the twelfth one").restrict_to == ["p12"]
    assert conversation.resolve("compare the 31st and the 6th").restrict_to != ["p31", "p6"]  # past the list
