"""Sentence-aligned chunks measured in the embedding model's own word pieces.

llama-index's ``SentenceSplitter`` does the splitting and merging. What we add is how it
counts word pieces: the splitter measures the whole abstract, then every sentence, clause
or word group it considers, one tokenizer call each (~12 per abstract, half of the
chunker's time). ``PieceCounter`` instead tokenizes each abstract once and answers the
splitter's counts from that encoding: a piece of the abstract that starts and ends on a
word boundary of the tokenizer's pre-tokenizer has exactly the word pieces of that span,
because the BERT normaliser and pre-tokenizer work character by character and word by
word. Anything else (a piece not found, a boundary inside a word, a tokenizer whose
pre-tokenizer we cannot vouch for) is counted by the tokenizer itself, so the chunks are
the same as with plain counting (tests/test_ingest.py checks it on the bundled corpus).
"""

from __future__ import annotations

from bisect import bisect_left
from typing import Callable


class PieceCounter:
    """``len(counter(text))`` is the number of word pieces in ``text``, for pieces of ``current``."""

    def __init__(self, tokenizer, fallback: Callable[[str], list[int]]) -> None:
        self.tokenizer = tokenizer  # a ``tokenizers.Tokenizer`` without truncation or special tokens
        self.fallback = fallback
        self.text = ""
        self.starts: list[int] = []
        self.ends: list[int] = []
        self.words: list[int | None] = []
        self.cursor = 0

    @staticmethod
    def supports(tokenizer) -> bool:
        """Only BERT's per-character normaliser and word-level pre-tokenizer make spans exact."""
        if tokenizer is None:
            return False
        norm, pre = type(tokenizer.normalizer).__name__, type(tokenizer.pre_tokenizer).__name__
        return norm in ("BertNormalizer", "NoneType") and pre == "BertPreTokenizer"

    def encode_all(self, texts: list[str]) -> list:
        """One batch call for many abstracts: the Rust tokenizer runs it without holding the GIL."""
        return self.tokenizer.encode_batch(texts, add_special_tokens=False)

    def reset(self, text: str, enc=None) -> None:
        enc = enc or self.tokenizer.encode(text, add_special_tokens=False)
        self.text, self.cursor = text, 0
        self.starts = [start for start, _ in enc.offsets]
        self.ends = [end for _, end in enc.offsets]
        self.words = enc.word_ids

    def __call__(self, piece: str) -> range | list[int]:
        if piece == self.text:
            return range(len(self.starts))
        # The splitter asks about pieces left to right (nested ones too), so look from the last
        # one on. Any occurrence would do: equal text on word boundaries has equal pieces.
        at = self.text.find(piece, self.cursor) if piece else -1
        if at < 0:
            at = self.text.find(piece) if piece else -1
            if at < 0:
                return self.fallback(piece)
        self.cursor = at
        n = self._span(at, at + len(piece))
        return self.fallback(piece) if n is None else range(n)

    def _span(self, begin: int, end: int) -> int | None:
        first, stop = bisect_left(self.starts, begin), bisect_left(self.starts, end)
        words, total = self.words, len(self.starts)
        if first > 0 and self.ends[first - 1] > begin:  # a piece straddles the start
            return None
        if stop > first and self.ends[stop - 1] > end:  # or the end
            return None
        if 0 < first < total and words[first] is not None and words[first] == words[first - 1]:
            return None  # starts inside a word
        if 0 < stop < total and words[stop] is not None and words[stop] == words[stop - 1]:
            return None  # ends inside a word
        return stop - first


class Chunker:
    """Sentence-aligned chunks of at most ``settings.chunk_tokens`` word pieces."""

    def __init__(self, embedder, settings) -> None:
        from llama_index.core.node_parser import SentenceSplitter

        tokenizer = embedder.tokenizer
        self.counter = PieceCounter(tokenizer, embedder.tokenize) if PieceCounter.supports(tokenizer) else None
        self.splitter = SentenceSplitter(chunk_size=settings.chunk_tokens, chunk_overlap=settings.chunk_overlap,
                                         tokenizer=self.counter or embedder.tokenize)

    def split(self, text: str, encoding=None) -> list[str]:
        if self.counter is not None:
            self.counter.reset(text, encoding)
        return [c for c in self.splitter.split_text(text) if c.strip()] or [text]

    def split_all(self, texts: list[str]) -> list[list[str]]:
        encodings = self.counter.encode_all(texts) if self.counter is not None else [None] * len(texts)
        return [self.split(text, enc) for text, enc in zip(texts, encodings)]
