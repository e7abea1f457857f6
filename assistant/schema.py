"""The records stored in Chroma: what a paper record and a chunk record hold, written by ``ingest`` and
read by the store, search and results. Change the layout here, and ``SCHEMA`` with it.

A paper record (id: the abstract's hash) holds the abstract as its document and, as metadata, its
``title`` (``title_given``: from the data, not derived), ``sources`` (JSON: every place it was found,
``{"file", "path", "position"}``), ``files`` (their names, for filters), ``n_chunks`` and the optional
fields of the data (``DATA_FIELDS``: ``authors``, ``url`` (its page, an OpenReview forum say), ``venue``,
``decision``, ``primary_area``, ``tldr`` (the authors' one-line summary), ``ext_id``, ``year``, ``keywords``), and
the kinds of contribution ingest labelled it with (``contributions``), the chief one among them
(``main_contribution``), what its benchmarks or datasets are for (``data_uses``) and what form its
method takes (``method_forms``) and what costs it cuts (``savings``), all by the rules of ``LABELLER_KEY``.

A chunk record (id ``{paper id}:{i}``) holds its vector and, as metadata, ``paper_id``, the fields
filters use (``FILTER_FIELDS``), and where its text lies in the abstract: ``start``/``end`` character
offsets, or (when the splitter did not cut it verbatim from the abstract) the ``passage`` itself.
"""

from __future__ import annotations

import json

SCHEMA = 2  # 2: chunk records point into their abstract instead of copying it
FILTER_FIELDS = ("year", "venue", "decision", "primary_area", "keywords", "contributions")  # copied onto chunks, with ``files``
# What a paper record holds from the data itself: written again when a file is ingested again, so a store
# ingested before a field was read (or an export with new decisions) gets it without re-embedding.
DATA_FIELDS = ("authors", "url", "venue", "decision", "primary_area", "tldr", "ext_id", "year", "keywords")
LABELLER_KEY = "contributions_version"  # which rules labelled a paper's ``contributions``: others are relabelled
# The kinds of contribution ingest labels a paper with (``ingest.contributions``), in the order label lists keep.
CONTRIBUTION_LABELS = ("benchmark/dataset", "method", "theory", "empirical study/analysis", "survey/position",
                       "system/tool")
BENCHMARK = CONTRIBUTION_LABELS[0]  # the one kind whose papers' resources have a use (``DATA_USES``)
MAIN_CONTRIBUTION = "main_contribution"  # on paper records only: no filter reads it from chunks
# On paper records only: what a benchmark/dataset paper's resources are for, "evaluation" and/or "training"
# joined by commas ("" for other papers: Chroma keeps no empty lists).
DATA_USES = "data_uses"
METHOD = CONTRIBUTION_LABELS[1]  # the one kind whose papers' methods have a form (``METHOD_FORMS``)
# On paper records only: what form a method paper's method takes, "architecture" (a new network architecture,
# layer or attention), "metric", "training-free" (it needs no training of the model), joined by commas, or "" (any
# other method, and other papers).
METHOD_FORMS = "method_forms"
# On paper records only: whether a method paper's method needs no training (its method forms hold "training-free"),
# a key of its own so that Chroma finds those papers without reading every record (20,049 records' metadata read
# through a filter on their labels took 4.2 s).
TRAINING_FREE = "training_free"
# On paper records only: what costs a paper's own work cuts (``ingest.efficiency``), "inference" (generated tokens,
# latency, test-time compute) and/or "training" (rollouts, wall-clock, convergence) joined by commas, or ""; and
# each as a key of its own that Chroma finds such papers by, as ``TRAINING_FREE``.
SAVINGS = "savings"
SAVING_PHASES = ("inference", "training")  # the order ``savings`` lists them in
SAVES = {phase: f"saves_{phase}" for phase in SAVING_PHASES}
BOOKKEEPING = frozenset({"title", "sources", "files", "n_chunks", "title_given", LABELLER_KEY})  # not shown as paper metadata


def chunk_id(paper_id: str, index: int) -> str:
    return f"{paper_id}:{index}"


def chunk_ids(paper_meta: dict, paper_id: str) -> list[str]:
    """Every chunk id of a paper, from its record (fetching chunks by id is fast; by a filter, slow)."""
    return [chunk_id(paper_id, i) for i in range(int(paper_meta.get("n_chunks", 1)))]


def data_uses(paper_meta: dict) -> list[str] | None:
    """What a paper's benchmarks or datasets are for (``DATA_USES``); None for a record labelled before
    ingest read it."""
    return _joined(paper_meta, DATA_USES)


def method_forms(paper_meta: dict) -> list[str] | None:
    """What form a paper's method takes (``METHOD_FORMS``); None for a record labelled before ingest read it."""
    return _joined(paper_meta, METHOD_FORMS)


def savings(paper_meta: dict) -> list[str] | None:
    """What costs a paper's work cuts (``SAVINGS``); None for a record labelled before ingest read them."""
    return _joined(paper_meta, SAVINGS)


def _joined(paper_meta: dict, key: str) -> list[str] | None:
    """A list stored joined by commas (Chroma keeps no empty lists); None when the record lacks ``key``."""
    value = paper_meta.get(key)
    return None if value is None else [item for item in str(value).split(",") if item]


def given_title(paper_meta: dict) -> str:
    """The paper's title when the data gave one ("" when it was derived from the abstract)."""
    return str(paper_meta.get("title", "")) if paper_meta.get("title_given") else ""


def read_sources(paper_meta: dict) -> list[dict]:
    return json.loads(paper_meta.get("sources", "[]"))


def with_sources(paper_meta: dict, sources: list[dict]) -> dict:
    """``paper_meta`` with ``sources`` and the ``files`` filters read from them."""
    return {**paper_meta, "sources": json.dumps(sources, ensure_ascii=False),
            "files": sorted({s["file"] for s in sources})}


def paper_metadata(title: str, title_given: bool, fields: dict, sources: list[dict], n_chunks: int) -> dict:
    """A paper record's metadata from what parsing found (``fields``: title, authors, id, year, ...)."""
    out: dict = with_sources({"title": title, "title_given": title_given}, sources)
    out["n_chunks"] = n_chunks
    out.update(data_fields(fields))
    return out


def data_fields(fields: dict) -> dict:
    """The ``DATA_FIELDS`` a paper record holds of what parsing found (keywords a list or a string)."""
    out: dict = {}
    for key in ("authors", "url", "venue", "decision", "primary_area", "tldr"):
        if fields.get(key):
            out[key] = str(fields[key])
    if fields.get("id"):
        out["ext_id"] = str(fields["id"])
    if str(fields.get("year", "")).strip().isdigit():
        out["year"] = int(str(fields["year"]).strip())
    given = fields.get("keywords", "")
    listed = given if isinstance(given, list) else str(given).replace(";", ",").split(",")
    keywords = list(dict.fromkeys(k.strip().lower() for k in listed if k.strip()))
    if keywords:
        out["keywords"] = keywords
    return out


def with_data_fields(paper_meta: dict, fields: dict) -> dict:
    """``paper_meta`` with the data fields that ``fields`` (what parsing found) gives, new or changed."""
    return {**paper_meta, **data_fields(fields)}


def shared_with_chunks(paper_meta: dict) -> dict:
    """The fields a paper's chunks carry too, so a filtered dense search needs no paper records."""
    return {k: paper_meta[k] for k in ("files", *FILTER_FIELDS) if k in paper_meta}


def chunk_metadata(paper_id: str, paper_meta: dict, span: tuple[int, int] | str) -> dict:
    """What a chunk record carries: its paper, the fields filters use, and where its text lies.

    ``span`` is the chunk's (start, end) in the abstract; a chunk the splitter did not cut
    verbatim out of the abstract (none in the bundled or benchmark corpora) keeps its own text."""
    out = {"paper_id": paper_id, **shared_with_chunks(paper_meta)}
    if isinstance(span, str):
        out["passage"] = span
    else:
        out["start"], out["end"] = span
    return out


def spans(text: str, pieces: list[str]) -> list[tuple[int, int] | str]:
    """Where each chunk lies in ``text``: chunks come in order and may overlap their predecessor."""
    found: list[tuple[int, int] | str] = []
    cursor = 0
    for piece in pieces:
        at = text.find(piece, cursor)
        if at < 0:
            found.append(piece)
            continue
        found.append((at, at + len(piece)))
        cursor = at + 1
    return found


def passage(chunk_meta: dict, paper_text: str) -> str:
    """A chunk's text: its span of the abstract (or, if the splitter changed it, its stored copy)."""
    if "passage" in chunk_meta:
        return chunk_meta["passage"]
    return paper_text[chunk_meta["start"]:chunk_meta["end"]]
