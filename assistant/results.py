"""What search returns: papers, not chunks."""

from __future__ import annotations

from dataclasses import dataclass, field

from . import schema


PAPER_FIELDS = ("url", "primary_area", "tldr", "decision")  # a paper's fields from the data, when it has them


class PaperFields:
    """What the data says of a paper (its OpenReview page, primary area, tldr, decision), read from the mapping
    ``_data_fields`` gives; None for a field the data did not give."""

    def _data_fields(self) -> dict:
        raise NotImplementedError

    @property
    def url(self) -> str | None:
        """Its page (an OpenReview forum), when the data gave one."""
        return self._data_fields().get("url")

    @property
    def primary_area(self) -> str | None:
        return self._data_fields().get("primary_area")

    @property
    def tldr(self) -> str | None:
        """The authors' one-line summary, when the data gave one."""
        return self._data_fields().get("tldr")

    @property
    def decision(self) -> str | None:
        return self._data_fields().get("decision")


@dataclass
class PaperHit(PaperFields):
    """One paper found: its record (``sources``: where it was found), ``score`` (its relevance), the
    abstract as ``text`` and the ``passage`` of it that matched best."""

    id: str
    title: str
    sources: list[dict]
    score: float
    text: str
    passage: str
    metadata: dict = field(default_factory=dict)
    topic: str | None = None  # the part of a several-topic question this paper was found for

    @classmethod
    def from_store(cls, pid: str, meta: dict, text: str, score: float = 0.0, passage: str = "",
                   topic: str | None = None) -> "PaperHit":
        extra = {k: v for k, v in meta.items() if k not in schema.BOOKKEEPING}
        return cls(pid, meta.get("title", pid), schema.read_sources(meta), score, text, passage or text, extra, topic)

    @property
    def contributions(self) -> list[str]:
        """The kinds of contribution ingest labelled the paper with."""
        return list(self.metadata.get("contributions") or [])

    @property
    def main_contribution(self) -> str | None:
        """The chief of them (None in a store ingested before there were main contributions)."""
        return self.metadata.get(schema.MAIN_CONTRIBUTION)

    @property
    def data_uses(self) -> list[str]:
        """What its benchmarks or datasets are for ("evaluation", "training"); [] for other papers."""
        return schema.data_uses(self.metadata) or []

    @property
    def method_forms(self) -> list[str]:
        """What form its method takes ("architecture"); [] for other papers."""
        return schema.method_forms(self.metadata) or []

    @property
    def savings(self) -> list[str]:
        """What costs its work cuts ("inference", "training"); [] for other papers."""
        return schema.savings(self.metadata) or []

    def _data_fields(self) -> dict:
        return self.metadata

    def source_labels(self) -> list[str]:
        return [f"{s['file']} #{s['position']}" for s in self.sources]

    def as_dict(self) -> dict:
        return {"id": self.id, "title": self.title,
                "sources": [{"file": s["file"], "position": s["position"], "path": s["path"]} for s in self.sources],
                "score": round(self.score, 4), "text": self.text, "passage": self.passage, "topic": self.topic,
                "contributions": self.contributions, "main_contribution": self.main_contribution,
                "data_uses": self.data_uses, "method_forms": self.method_forms, "savings": self.savings,
                "url": self.url, "primary_area": self.primary_area, "tldr": self.tldr, "decision": self.decision}
