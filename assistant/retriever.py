"""The assistant's search as a llama-index retriever: one node per paper, with its sources as metadata."""

from __future__ import annotations

from typing import Any

from llama_index.core.base.base_retriever import BaseRetriever
from llama_index.core.schema import NodeWithScore, QueryBundle, TextNode


class PaperRetriever(BaseRetriever):
    def __init__(self, assistant, k: int | None = None, where: dict[str, Any] | None = None) -> None:
        super().__init__()
        self._assistant = assistant
        self._k = k
        self._where = where

    def _retrieve(self, query_bundle: QueryBundle) -> list[NodeWithScore]:
        hits = self._assistant.search(query_bundle.query_str, k=self._k, where=self._where)
        return [NodeWithScore(node=TextNode(id_=hit.id, text=hit.text,
                                            metadata={"title": hit.title, "sources": hit.source_labels(),
                                                      "passage": hit.passage,
                                                      **({"topic": hit.topic} if hit.topic else {})}),
                              score=hit.score) for hit in hits]
