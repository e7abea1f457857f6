"""Papers' names as people type them: 'LaserD', 'laser d' or 'THINK MERGE' for LASER-D and THINKMERGE.

BM25 splits 'LASER-D' into 'laser' (and drops 'd') and keeps 'LaserD' as one unknown term, so a
name typed without its hyphen, with a space inside, or run together finds nothing. Titles lead
with the name of what a paper introduces ('PoLR: Path of Least Resistance'), so the names are
read off the titles, and a query that spells one of them otherwise is rewritten to the title's
spelling before it is searched. Spellings that differ only in case are left as typed: they
search the same, and 'echo' in a question is as likely the word as the model called Echo.
"""

from __future__ import annotations

import itertools
import re
import unicodedata
from typing import Iterable

_NOT_ALNUM = re.compile(r"[^0-9a-z]+")
_WORD = re.compile(r"[\w][\w\-.]*")
_PARTS = re.compile(r"[\s\-]+")  # the words of a name: 'Parallel-R1' -> 'Parallel', 'R1'; 'THINK MERGE' -> 2
MIN_KEY = 4  # shorter names ('ECA', 'PER') are left to BM25 and the encoder
MAX_SPAN = 3  # words a typed name may be split into ('think merge', 'parallel r 1')


def name_key(text: str) -> str:
    """'LASER-D', 'Laser D' and 'laserd' all give 'laserd'; 'DIAL-G²' and 'dial g2' give 'dialg2'."""
    return _NOT_ALNUM.sub("", unicodedata.normalize("NFKC", text).lower())


def title_name(title: str, shortest: int = MIN_KEY) -> str | None:
    """The name a title leads with: 'PoLR' for 'PoLR: Path of Least Resistance', 'EmotionThinker' for
    'EmotionThinker'; None for a title that is a phrase ('Why LLMs perform sub-optimally ...'), or for a name
    shorter than ``shortest`` letters (the speller's default skips 'GEB', too short to find in typed text)."""
    head = title.split(":", 1)[0].strip()
    if not head or len(head.split()) > 2 or len(name_key(head)) < shortest:
        return None
    return head


def name_kind(name: str) -> str | None:
    """'coined' for a name no word could be: a digit, or mixed case inside a word ('Parallel-R1',
    'PoLR', 'GDPval', 'WebShaper'); 'capitals' for one that is distinctive only by its capitals
    ('CRISP', 'LASER-D', 'GRACE', which may be words); None for ordinary words, however
    capitalised ('Echo', 'Deep Learning', 'Self-Consistency', 'Attention Sinks')."""
    words = [w for w in _PARTS.split(name) if w]
    if any(any(ch.isdigit() for ch in w) or (any(c.isupper() for c in w[1:]) and any(c.islower() for c in w[1:]))
           for w in words):
        return "coined"
    if any(len(w) >= 2 and w.isupper() for w in words):
        return "capitals"
    return None


class NameSpeller:
    """Finds the store's paper names in a query, however they are typed, and writes them the titles' way."""

    def __init__(self, titles: Iterable[str], ids: Iterable[str] = (), words=frozenset(), compound_papers=None) -> None:
        self.words = words  # English words (``typos.EnglishWords``): typed in lower case, one is the word, no name
        # papers holding a hyphenated name's words joined, as one term ('blueprintbench'), or None: unknown
        self.compound_papers = compound_papers
        self.names: dict[str, str] = {}
        self.papers: dict[str, list[str]] = {}
        self.short: dict[str, list[str]] = {}  # names of three capitals ('THR', 'ECA'): found only as written
        for title, pid in itertools.zip_longest(titles, ids):
            name = title_name(title, shortest=3)
            if name and len(name_key(name)) >= MIN_KEY:
                self.names.setdefault(name_key(name), name)
                if pid is not None:
                    self.papers.setdefault(name_key(name), []).append(pid)
            elif name and pid is not None and re.fullmatch(r"[A-Z]{3}", name):
                self.short.setdefault(name, []).append(pid)

    def _found(self, query: str):
        """(start, end, typed, name) of each name in the query, longest spans first, left to right."""
        words = list(_WORD.finditer(query))
        i = 0
        while i < len(words):
            for span in range(min(MAX_SPAN, len(words) - i), 0, -1):
                typed = query[words[i].start():words[i + span - 1].end()].rstrip(".")
                name = self.names.get(name_key(typed))
                if name:
                    yield words[i].start(), words[i].start() + len(typed), typed, name
                    i += span
                    break
            else:
                i += 1

    def read(self, query: str) -> tuple[str, list[str]]:
        """The query with names written the titles' way, and the papers it names, in one pass.

        'what is LaserD' -> ('what is LASER-D', [LASER-D's id]). Coined names count however they are
        typed ('PoLR' as 'polr', 'Rosix-4870' as 'rosix 4870'); names in capitals only when typed in
        capitals or respelled into them ('CRISP', 'LASER-D'); ordinary words never, so a question about
        'grace', 'echo' or 'deep learning' names no paper. A name of three capitals ('THR') counts only as the
        title writes it."""
        pieces, last, found = [], 0, []  # found: (where in the query, paper) of each paper named
        for start, end, typed, name in self._found(query):
            if typed.isalpha() and typed.islower() and typed in self.words:  # "faster" is the word, not FASTer
                continue
            if typed.lower() != name.lower():
                pieces += [query[last:start], name]
                last, typed = end, name
            kind = name_kind(name)
            if kind is None and not self._coined_compound(name):
                continue
            if kind == "capitals" and typed != typed.upper() and not self._no_word(typed):
                continue
            found += [(start, pid) for pid in self.papers.get(name_key(name), [])]
        for short in re.finditer(r"(?<![\w-])[A-Z]{3}(?![\w-])", query):  # 'THR' as the title writes it, not 'thr'
            found += [(short.start(), pid) for pid in self.short.get(short.group(), [])]
        return "".join(pieces) + query[last:], list(dict.fromkeys(pid for _, pid in sorted(found, key=lambda f: f[0])))

    def _coined_compound(self, name: str) -> bool:
        """Whether a title's hyphenated name of ordinary words is coined: no paper but its own holds the words
        joined ('Blueprint-Bench', 'Know-the-Ropes'), where 79 papers hold 'self-consistency'."""
        if self.compound_papers is None or "-" not in name:
            return False
        return self.compound_papers(name) <= len(self.papers.get(name_key(name), []))

    def _no_word(self, typed: str) -> bool:
        """Whether a name of capitals typed otherwise ('echosat' for ECHOSAT) is no English word, so it names the
        paper: 'grace' or 'crisp' is the word. Without a word list, no typed form is known not to be a word."""
        return bool(self.words) and not any(w in self.words for w in _PARTS.split(typed.lower()) if w)

    def respell(self, query: str) -> str:
        """'what is LaserD' -> 'what is LASER-D'; a query naming no paper comes back unchanged."""
        return self.read(query)[0]

    def named(self, query: str) -> list[str]:
        """The papers a query names, in the order it names them (see ``read``)."""
        return self.read(query)[1]
