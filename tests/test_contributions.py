"""Kinds of contribution: the labeller against hand labels, labels in the store, the filter, relabelling.

The hand labels (tests/data/contributions.jsonl) are one reading of the 49 bundled abstracts.
Measured with scripts/contribution_report.py: the labeller reaches micro precision 1.00 and
recall 0.98 on all 49 (64 of 65 labels; it misses the analysis in THR's abstract). Those
figures are fitted: the rules were written with all 49 abstracts read, then corrected on six
papers. The rules as first written, before any correction, scored P 0.93 R 0.97. Crediting
each correction to the half (even / odd positions) whose paper prompted it and scoring on the
other half: tuned on the even half, the odd half scores P 0.97 R 0.94; tuned on the odd half,
the even half scores P 0.88 R 1.00; neither half's corrections changed the other half's
figures. The floor below sits under the fitted figures, so a rule change that loses labels
on these papers fails here.

The main contribution (ingest/main_contribution.py) is right on 49 of 49 papers, 16 of 16 among
those with several hand labels: fitted too, the rules as first written missed one (Lean4PHYS);
see scripts/contribution_report.py for what was fitted on what.
"""

from __future__ import annotations

import json

import numpy as np
import pytest

from tests.conftest import BUNDLED, DATA, run_cli

FLOOR = 0.95
MAIN_FLOOR = 0.95  # share of papers whose main contribution is the hand-labelled one


def _gold() -> list[dict]:
    return [json.loads(line) for line in (DATA / "contributions.jsonl").read_text().splitlines() if line.strip()]


def _abstracts() -> dict[str, tuple[str, str]]:
    from scripts.contribution_report import abstracts

    return abstracts([BUNDLED])


def test_hand_labels_cover_every_bundled_paper_once():
    from ingest.contributions import LABELS

    gold, texts = _gold(), _abstracts()
    assert sorted(r["id"] for r in gold) == sorted(texts) and len(gold) == 49
    for row in gold:
        assert texts[row["id"]][1].startswith(row["start"])
        assert row["labels"] and row["labels"] == [k for k in LABELS if k in row["labels"]]
        assert row["main"] in row["labels"]


def test_labeller_precision_and_recall_on_the_hand_labels():
    from ingest.contributions import LABELS, label
    from scripts.contribution_report import scores

    gold, texts = _gold(), _abstracts()
    predicted = {r["id"]: label(*texts[r["id"]]) for r in gold}
    micro = scores(gold, predicted)["micro"]
    assert micro["precision"] >= FLOOR and micro["recall"] >= FLOOR, micro
    for labels in predicted.values():  # at least one, in the one order
        assert labels and labels == [k for k in LABELS if k in labels]
    benchmarks = {r["id"] for r in gold if "benchmark/dataset" in r["labels"]}
    assert {pid for pid, labels in predicted.items() if "benchmark/dataset" in labels} == benchmarks


@pytest.mark.parametrize("title,text,expected", [
    ("", "This paper introduces LawBench: a benchmark of 3,000 legal questions. Models struggle on it.",
     ["benchmark/dataset"]),
    ("", "Agents are everywhere. In this survey, we review over 200 papers on LLM agents and organise them.",
     ["survey/position"]),
    ("Position: Agents Need Memory", "We argue that memory is the missing piece.", ["survey/position"]),
    ("", "We build OpenRL, an open-source library for reinforcement learning research.", ["system/tool"]),
    ("", "We prove convergence guarantees for Adam under heavy-tailed noise.", ["theory"]),
    ("", "Existing benchmarks are saturated. We propose FastNet, a pruning method. It is fast.", ["method"]),
    ("", "Deep networks are large. They are slow to run.", ["method"]),  # nothing claimed: the usual kind
])
def test_labeller_reads_the_usual_phrasings(title, text, expected):
    from ingest.contributions import label

    assert label(title, text) == expected


def test_main_contribution_on_the_hand_labels():
    from ingest.contributions import label
    from ingest.main_contribution import read
    from scripts.contribution_report import main_accuracy

    gold, texts = _gold(), _abstracts()
    found = {r["id"]: read(*texts[r["id"]]) for r in gold}
    for pid, contributions in found.items():
        assert contributions.labels == label(*texts[pid]) and contributions.main in contributions.labels
    table = main_accuracy(gold, found)
    assert table["labeller"]["accuracy"] >= MAIN_FLOOR, table
    # where there is a choice to make, the rules beat "the method if the paper has one"
    assert table["labeller, several kinds"]["right"] > table["method first, several kinds"]["right"], table


@pytest.mark.parametrize("start,main", [
    ("The recent empirical success of Mamba", "theory"),  # proofs, confirmed by experiments
    ("Attention-based regression models are often", "theory"),  # the analysis, then the method it motivates
    ("In AI-assisted decision-making", "theory"),  # bounds and justification around a calibration method
    ("Optimistic exploration is central", "theory"),  # GEB, put forward as "a novel theoretical framework"
    ("Experience replay enables data-efficient", "method"),  # ReaPER, proven better than PER
    ("Evaluating robot control policies is difficult", "system/tool"),  # WorldGym, an evaluation environment
    ("We present **Lean4PHYS**", "benchmark/dataset"),  # a benchmark and a library, no method
    ("The advent of Large Language Model (LLM)-powered agents", "method"),  # WebShaper makes its dataset
    ("A core challenge in scientific machine learning", "empirical study/analysis"),  # a study, then a fix
    ("Multimodal models have achieved remarkable progress", "method"),  # TTM, after an analysis of metrics
])
def test_main_contribution_of_bundled_papers(start, main):
    from ingest.main_contribution import main_contribution

    (title, text), = [pair for pair in _abstracts().values() if pair[1].startswith(start)]
    assert main_contribution(title, text) == main


@pytest.mark.parametrize("text,labels,main", [
    ("We prove that gradient descent on deep linear networks converges at a linear rate. Motivated by the "
     "proof, we propose FastGD, a step-size schedule. It is fast.", ["method", "theory"], "theory"),
    ("We introduce FooNet, a pruning method for vision transformers. We prove that FooNet preserves accuracy "
     "up to an error bound. FooNet beats baselines on ImageNet. FooNet is also cheap.", ["method", "theory"], "method"),
    ("We introduce LawBench, a benchmark of 3,000 legal questions. We also propose LawNet, a retrieval method "
     "for it. LawBench covers 12 areas of law. Frontier models struggle on LawBench.",
     ["benchmark/dataset", "method"], "benchmark/dataset"),
    ("We introduce LawNet, a retrieval method for legal questions. To train it, we also construct LawSet, a "
     "dataset of 3,000 questions. LawNet beats every baseline. LawNet is cheap.", ["benchmark/dataset", "method"], "method"),
    ("We propose a world-model-based policy evaluation environment (RoboGym). RoboGym ranks policies as the "
     "real world does.", ["method", "system/tool"], "system/tool"),
    ("In this survey, we review over 200 papers on LLM agents. We also propose a new taxonomy method.",
     ["method", "survey/position"], "survey/position"),
])
def test_main_contribution_reads_what_the_abstract_keeps_returning_to(text, labels, main):
    from ingest.main_contribution import read

    assert read("", text).labels == labels and read("", text).main == main


def test_data_uses_on_the_hand_labels():
    """What each bundled benchmark/dataset paper's resource is for, as written in the hand labels by reading
    the six abstracts (a benchmark to evaluate on, or data to train on); other papers have none."""
    from ingest.main_contribution import read

    gold, texts = _gold(), _abstracts()
    for row in gold:
        assert read(*texts[row["id"]]).data_uses == row.get("data_uses", []), row["start"]
    assert sum("data_uses" in row for row in gold) == 6


def test_a_framework_put_forward_as_theory_is_a_theory_contribution():
    """"X, a novel theoretical framework that provably ..." makes X, and each later mention of it, theory."""
    from ingest.main_contribution import read

    text = ("We introduce the Exploration Bound (EB), a novel theoretical framework that provably satisfies optimism. "
            "EB unifies prior bonuses. EB outperforms baselines on alignment tasks.")
    assert read("", text).labels == ["method", "theory"] and read("", text).main == "theory"
    text = "We introduce the Exploration Bonus (EB), a novel framework for exploration. EB outperforms baselines."
    assert read("", text).main == "method"


def test_method_forms_on_the_hand_labels():
    """Which bundled papers put forward a new architecture, as the hand labels say by reading the abstracts: ECA
    (a new attention), the Mesa layer paper ("a ... version of the recently proposed Mesa layer") and ZeroSiam
    ("an efficient asymmetric Siamese architecture"). Not the learned optimizer's "normalized optimizer
    architecture" (its contribution is an update rule), nor VIRF's "neuro-symbolic architecture" (a system). And
    which a new metric: THR ("a token-level metric"), TTM ("a group matching score") and ReaPER ("a novel measure
    of temporal difference error reliability"). And which a training-free one: AFS, ST-SimDiff and THINKMERGE
    ("training-free"), AutoEP ("bypasses training entirely"), PoLR ("the first inference-time method ... without
    requiring model fine-tuning"), CRISP ("a novel inference-time algorithm") and VLBiMan (skills from one human
    example, adapted "without policy retraining"); not RAPID, which works "without retraining" once its MLLM is
    "trained with VPO"."""
    from ingest.main_contribution import read

    gold, texts = _gold(), _abstracts()
    for row in gold:
        assert read(*texts[row["id"]]).method_forms == row.get("method_forms", []), row["start"]
    assert sum("architecture" in row.get("method_forms", []) for row in gold) == 3
    assert sum("metric" in row.get("method_forms", []) for row in gold) == 3
    assert sum("training-free" in row.get("method_forms", []) for row in gold) == 7


@pytest.mark.parametrize("text,forms", [
    ("We propose FlashMix, a linear attention layer for long sequences.", ["architecture"]),
    ("We introduce the Gated Residual Attention (GRA), which replaces softmax.", ["architecture"]),
    ("We propose a hybrid architecture that interleaves state space and attention blocks.", ["architecture"]),
    ("Here, we build on prior work and introduce a stable variant of the Hyena layer.", ["architecture"]),
    ("We propose RouteRL, a policy optimization method for agents.", []),
    ("We propose a training framework with a layer-wise learning rate schedule.", []),  # a framework, not a layer
    ("We study attention layers in pretrained transformers.", []),  # studied, not put forward
    ("We introduce AttnBench, a benchmark of long-context attention tasks.", []),  # a benchmark's topic
    ("We introduce Token Drift (TD), a token-level metric of how training moves each token.", ["metric"]),
    ("We propose an extension to PER by introducing a novel measure of error reliability.", ["metric"]),
    ("We show that widely used evaluation metrics underestimate models.", []),  # about others' metrics
    ("We propose FrameSkip, a training-free method that drops redundant video frames.", ["training-free"]),
    ("We introduce VoteTree, a decoding strategy that merges parallel reasoning traces.", ["training-free"]),
    ("We propose PromptFix, which repairs prompts without requiring any fine-tuning of the model.", ["training-free"]),
    ("We propose LensRL, a reinforcement learning algorithm for captioning. Once trained, it works with any "
     "reasoner without retraining.", []),  # trains its own model
    ("We propose DriftTTA, a test-time adaptation method that needs no labels, a plug-and-play module.", []),
    ("We propose a new optimizer that speeds up training of language models.", []),
])
def test_method_forms_read_what_a_method_is(text, forms):
    from ingest.main_contribution import read

    assert read("", text).method_forms == forms


@pytest.mark.parametrize("text,uses", [
    ("We introduce LawBench, a benchmark of 3,000 legal questions.", ["evaluation"]),
    ("We release CodeSet, a dataset for evaluating code agents on real repositories.", ["evaluation"]),
    ("We construct MathInstruct, a large instruction dataset, and fine-tune Llama on it.", ["training"]),
    ("We propose a scalable data synthesis pipeline that generates 1M dialogues.", ["training"]),
    ("We introduce LawNet, a retrieval method. To train it, we construct LawSet, a dataset of 3,000 questions.",
     ["training"]),
    ("We introduce LawBench, a benchmark of legal questions. We also release LawSet, a training corpus of 1M cases.",
     ["evaluation", "training"]),
    ("We introduce LawBench, a benchmark for legal reasoning, and LawSet, a training corpus of 1M cases.",
     ["evaluation", "training"]),  # two things put forward in one phrase: each read on its own
    ("We propose a new optimizer and a benchmark for optimizers.", ["evaluation"]),
    ("We propose FastNet, a pruning method. It is fast.", []),
])
def test_data_uses_read_what_a_resource_is_for(text, uses):
    from ingest.main_contribution import read

    assert read("", text).data_uses == uses


@pytest.mark.parametrize("text,labels", [
    ("We introduce LawSet, a training corpus of 1M legal cases.", ["benchmark/dataset"]),  # "training" is no method here
    ("We propose a training method and a synthetic dataset.", ["benchmark/dataset", "method"]),
    ("We introduce LawBench, a benchmark for legal reasoning, and LawNet, a retrieval model.", ["benchmark/dataset", "method"]),
])
def test_several_things_put_forward_in_one_phrase_are_each_labelled(text, labels):
    from ingest.contributions import label

    assert label("", text) == labels


def test_filter_accepts_every_label_and_its_words():
    from assistant.errors import InputError
    from assistant.filters import CONTRIBUTIONS, Filter
    from ingest.contributions import LABELS

    assert CONTRIBUTIONS == LABELS  # the filter layer keeps its own copy (it may not import ingest)
    assert Filter.parse(pairs=["contribution=benchmark"]).fields == {"contribution": ("benchmark/dataset",)}
    assert Filter.parse(pairs=["contribution=Empirical"]).fields == {"contribution": ("empirical study/analysis",)}
    assert Filter.parse("contribution=theory").fields == {"contribution": ("theory",)}
    with pytest.raises(InputError, match="contribution='benchmarks' is not a kind of contribution"):
        Filter.parse(pairs=["contribution=benchmarks"])


def _stored(store) -> tuple[dict[str, dict], dict[str, dict]]:
    store.open(None, create=False)
    papers = {pid: meta for pid, meta, _ in store.iter_papers()}
    got = store.chunks.get(include=["metadatas"])
    return papers, dict(zip(got["ids"], got["metadatas"]))


def test_ingest_stores_labels_on_papers_and_chunks(corpus):
    from ingest.contributions import VERSION, label
    from ingest.main_contribution import main_contribution

    texts = _abstracts()
    papers, chunks = _stored(corpus.store)
    assert len(papers) == 49
    for pid, meta in papers.items():
        assert meta["contributions"] == label("", texts[pid][1]) and meta["contributions_version"] == VERSION
        assert meta["main_contribution"] == main_contribution("", texts[pid][1])
    for meta in chunks.values():
        assert meta["contributions"] == papers[meta["paper_id"]]["contributions"]
    assert {pid for pid, meta in papers.items() if meta["main_contribution"] == "theory"} == \
        {r["id"] for r in _gold() if r["main"] == "theory"}
    facets = corpus.facets()["contribution"]
    assert "benchmark/dataset" in facets and "method" in facets


def test_where_contribution_through_the_cli(corpus_home):
    benchmarks = {r["id"] for r in _gold() if "benchmark/dataset" in r["labels"]}
    listed = run_cli("papers", "--where", "contribution=benchmark", "--json", home=corpus_home)
    assert listed.returncode == 0, listed.stderr
    assert {p["id"] for p in json.loads(listed.stdout)} == benchmarks

    found = run_cli("search", "a benchmark to evaluate language models", "--where", "contribution=benchmark",
                    "--json", home=corpus_home)
    assert found.returncode == 0, found.stderr
    hits = json.loads(found.stdout)
    hits = hits["results"] if isinstance(hits, dict) else hits
    assert hits and {h["id"] for h in hits} <= benchmarks

    wrong = run_cli("papers", "--where", "contribution=benchmarks", home=corpus_home)
    assert wrong.returncode != 0 and "is not a kind of contribution" in wrong.stderr
    assert "Traceback" not in wrong.stderr


def test_old_store_gains_labels_on_the_next_ingest_without_reembedding(make_assistant, embedder, monkeypatch, tmp_path):
    import ingest.pipeline as pipeline

    assistant = make_assistant(home=tmp_path / "old")
    assistant.ingest()
    store = assistant.store
    # An old store: papers and chunks written before there were labels, one with a title derived by older rules.
    papers, chunks = _stored(store)
    store.papers.update(ids=list(papers), metadatas=[{"contributions": None, "contributions_version": None}] * len(papers))
    reaper = next(pid for pid, m in papers.items() if m["title"].startswith("ReaPER"))
    store.papers.update(ids=[reaper], metadatas=[{"title": "PER: Prioritized Experience Replay"}])
    store.chunks.update(ids=list(chunks), metadatas=[{"contributions": None}] * len(chunks))
    assert not any("contributions" in m for m in _stored(store)[0].values())
    before = store.chunks.get(include=["embeddings"])

    calls = []
    real_embed = embedder.embed
    monkeypatch.setattr(embedder, "embed", lambda *a, **kw: calls.append(1) or real_embed(*a, **kw))
    report = assistant.ingest()
    assert (report.added, report.unchanged, report.relabelled) == (0, 49, 49)
    assert calls == []  # nothing was embedded again
    assert _stored(store)[0][reaper]["title"].startswith("ReaPER:")  # retitled, and found by its name
    assert reaper in assistant.searcher.lexical.read_names("tell me about ReaPER")[1]
    after = store.chunks.get(include=["embeddings"])
    assert after["ids"] == before["ids"] and np.array_equal(np.asarray(after["embeddings"]), np.asarray(before["embeddings"]))
    papers, chunks = _stored(store)
    assert all(m["contributions"] and m["main_contribution"] in m["contributions"]
               and m["contributions_version"] == pipeline.LABELLER_VERSION for m in papers.values())
    assert all(m["contributions"] == papers[m["paper_id"]]["contributions"] for m in chunks.values())
    assert {pid for pid, m in papers.items() if "benchmark/dataset" in m["contributions"]} == \
        {r["id"] for r in _gold() if "benchmark/dataset" in r["labels"]}

    # Labelled by the current rules: the next ingest leaves them alone.
    assert assistant.ingest().relabelled == 0
    # New rules (a new labeller version): relabelled again, still without embedding anything.
    monkeypatch.setattr(pipeline, "LABELLER_VERSION", pipeline.LABELLER_VERSION + 1)
    report = assistant.ingest()
    assert report.relabelled == 49 and report.added == 0 and calls == []
    assert all(m["contributions_version"] == pipeline.LABELLER_VERSION for m in _stored(store)[0].values())
    listed = run_cli("papers", "--where", "contribution=benchmark", "--json", home=tmp_path / "old")
    assert listed.returncode == 0, listed.stderr
    assert len(json.loads(listed.stdout)) == 6


def test_store_labelled_before_the_main_contribution_gains_it_on_the_next_ingest(make_assistant, embedder,
                                                                                  monkeypatch, tmp_path):
    from ingest.main_contribution import main_contribution

    assistant = make_assistant(home=tmp_path / "v1")
    assistant.ingest()
    store = assistant.store
    papers, _chunks = _stored(store)
    labels = {pid: meta["contributions"] for pid, meta in papers.items()}
    # As the first labeller left it: labels (version 1), no main contribution, no data uses.
    store.papers.update(ids=list(papers), metadatas=[{"main_contribution": None, "data_uses": None,
                                                      "contributions_version": 1}] * len(papers))
    assert not any("main_contribution" in m or "data_uses" in m for m in _stored(store)[0].values())
    assert all(p.as_dict()["main_contribution"] is None for p in assistant.papers())
    theory = {r["id"] for r in _gold() if r["main"] == "theory"}  # until then, read off the abstracts
    assert {c.id for c in assistant.ask("Which papers are purely theoretical?").citations} == theory
    benchmarks = {r["id"] for r in _gold() if "evaluation" in r.get("data_uses", [])}
    assert {c.id for c in assistant.ask("Which papers introduce a new benchmark?").citations} == benchmarks

    calls = []
    real_embed = embedder.embed
    monkeypatch.setattr(embedder, "embed", lambda *a, **kw: calls.append(1) or real_embed(*a, **kw))
    report = assistant.ingest()
    assert (report.added, report.relabelled) == (0, 49) and calls == []
    texts = _abstracts()
    papers, chunks = _stored(store)
    assert {pid: m["main_contribution"] for pid, m in papers.items()} == \
        {pid: main_contribution("", texts[pid][1]) for pid in papers}
    assert {pid: m["contributions"] for pid, m in papers.items()} == labels  # the labels stay as they were
    assert not any("main_contribution" in m or "data_uses" in m for m in chunks.values())  # on paper records only
    assert {pid for pid, m in papers.items() if m["data_uses"] == "evaluation"} == benchmarks
    shown = {p.id: p.as_dict()["main_contribution"] for p in assistant.papers()}
    assert shown == {pid: m["main_contribution"] for pid, m in papers.items()}


def test_costs_cut_on_the_hand_labels():
    """Which bundled papers say their own work cuts a cost, as the hand labels say by reading the abstracts. Of
    running a model: PoLR ("reducing token usage by up to 60%"), LASER-D ("reducing token usage by 64%"), the PRM
    weighting paper ("using only ~21.3% of the computation") and ST-SimDiff ("substantially reducing computational
    costs"). Of training one: SFPO ("4.93x fewer rollouts"), DPH-RL ("more training-efficient"), DevFT ("10.67x
    reduction in communication overhead") and the learned optimizer ("a tiny fraction of VeLO compute"). Not GEB
    or ReaPER (sample efficiency), nor AFS, whose "costly training procedures" are other work's."""
    from ingest.main_contribution import read

    gold, texts = _gold(), _abstracts()
    for row in gold:
        assert read(*texts[row["id"]]).savings == row.get("savings", []), row["start"]
    assert sum("inference" in row.get("savings", []) for row in gold) == 4
    assert sum("training" in row.get("savings", []) for row in gold) == 4


@pytest.mark.parametrize("text,cuts", [
    ("We propose SkipThink, which halts decoding early, reducing generated tokens by 40% at equal accuracy.",
     ["inference"]),
    ("Our cache policy lowers the latency of long-context serving.", ["inference"]),
    ("SparseRoll matches the baseline with 3x fewer rollouts.", ["training"]),
    ("Our schedule reaches the same loss with a 2.5x reduction in wall-clock training time.", ["training"]),
    ("Experiments show our pruning cuts inference FLOPs by half and reduces training time by 30%.",
     ["inference", "training"]),
    ("Existing methods reduce tokens by pruning. We propose a better pruning rule that improves accuracy.", []),
    ("Chain-of-thought prompting is computationally expensive.", []),  # a problem, not a saving
    ("Our bonus improves sample efficiency in RLHF.", []),  # data, not compute
    ("We study when transformers learn efficiently.", []),
])
def test_costs_cut_are_the_papers_own(text, cuts):
    from ingest.main_contribution import read

    assert read("", text).savings == cuts
