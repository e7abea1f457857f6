"""Misspelt words of a query, read as the word the papers hold: 'test-time adaptaton' searches 'adaptation'; chat
shorthand written out first ('ppl', 'w/o', 'diff topic'); a shortened word in full ('manip', 'archs', 'evals':
``_written_in_full``).

A word no paper holds counts against a question twice: BM25 finds nothing for it, and a question much
of whose weight is in unknown words is taken for one on something the store lacks (``search.unheard_of``)
and abstains. So a long word whose stem the index lacks is replaced by the one spelling a single slip
away (a letter left out, one too many, or two swapped) whose stem the most papers hold, two papers at
least. Not a letter changed for another: that is how real words the store lacks become words it holds
('folding' a name, 'golding'; 'quantization', 'quantitation').

Our own few lines rather than a spelling library (pyspellchecker, symspellpy): those correct towards a
dictionary of English words, while what matters here is the vocabulary of the papers in the store, and
the index holds it only as stems, so each candidate spelling is stemmed before it is looked up.
Words shorter than ``MIN_LENGTH`` letters are left alone: one edit turns too many short words into
others ('model' and 'modal'). So are words with capitals or digits, which name things ('GSM8K'), and a
held word with an ending the stemmer keeps ('largest' is 'large', not a slip of 'larges'). So is a word of English
(``EnglishWords``): 'enumerate' and 'expertise' are no slips of 'numerate' and 'expertize', though the store holds
those stems and not theirs.
"""

from __future__ import annotations

import bisect
import itertools
import re
from typing import Callable, Container

MIN_LENGTH = 7
MIN_PAPERS = 2  # a spelling only one paper holds is as likely another word
_LETTERS = "abcdefghijklmnopqrstuvwxyz"
_WORD = re.compile(r"(?<![\w-])[a-z]+(?![\w])")  # a lower-case word, or the last part of a hyphenated one
_CAPITALIZED = re.compile(r"(?<![\w-])[A-Z][a-z]{3,5}(?![\w-])")  # as long as a slip of an asking word can be


def _edits(word: str) -> list[str]:
    """Every spelling one slip away from ``word`` (a letter dropped, added, or two swapped), after its American
    spellings ('specialised' -> 'specialized'), which come first."""
    splits = [(word[:i], word[i:]) for i in range(len(word) + 1)]
    american = [re.sub(pattern, written, word) for pattern, written in _AMERICAN]
    deletes = [a + b[1:] for a, b in splits if b]
    swaps = [a + b[1] + b[0] + b[2:] for a, b in splits if len(b) > 1]
    inserts = [a + c + b for a, b in splits for c in _LETTERS]
    return [s for s in dict.fromkeys(american + sorted(set(deletes + swaps + inserts))) if s != word]


_AMERICAN = [(r"is(e[sd]?|ing|ation|ations|er|ers)$", r"iz\1"), (r"ys(e[sd]?|ing)$", r"yz\1"), (r"our(s|ed)?$", r"or\1"),
             (r"tre(s)?$", r"ter\1")]


# Endings the stemmer leaves on a word it does not know as one: "largest" is "large" and "-est", no slip of "larges"
_ENDINGS = ("est", "er", "ers", "ly", "ness", "ing", "ed", "s")


def _with_ending(word: str, endings: tuple[str, ...], is_base: Callable[[str], bool]) -> bool:
    """Whether ``word`` is a base of three letters or more that ``is_base`` accepts, with one of ``endings``."""
    return any(word.endswith(ending) and len(word) - len(ending) >= 3 and is_base(word[:-len(ending)]) for ending in endings)


def _inflected(word: str, stem: Callable[[str], str], papers_holding: Callable[[str], int]) -> bool:
    """Whether ``word`` is a word the papers hold with an ending ("largest", "cheapest", "fastest")."""
    return _with_ending(word, _ENDINGS, lambda base: any(papers_holding(stem(b)) > 0 for b in (base, base + "e")))


# Verb forms no ending gives: what a question says was done, not what it is about ("agents built on LLMs")
_IRREGULAR = frozenset("built made written wrote done did given gave taken took got gotten found brought thought kept left "
                       "ran run went gone shown seen saw told".split())


def a_verb_form(word: str, english: Container[str]) -> bool:
    """Whether lower-case ``word`` is a verb's form, a word of ``english`` with an ending ("writes", "tweaks") or
    irregular ("built"): it says how a topic is asked rather than what field it is in. A plural noun is one too
    ("proteins"); its singular is not."""
    return word in _IRREGULAR or (not word.endswith("ss") and _with_ending(word, ("es", "s", "ed", "d"),
                                                                          lambda base: base in english))


# Chat shorthand, written out: "how do ppl guarantee ...", "diff topic:", "methods w/o labels"
_SHORTHAND = {"ppl": "people", "pls": "please", "plz": "please", "thx": "thanks", "abt": "about", "smth": "something",
              "sth": "something", "esp": "especially", "info": "information", "u": "you", "ur": "your", "w/": "with", "w/o": "without",
              "diff": "different", "im": "I'm", "ive": "I've", "whats": "what's", "dont": "don't", "doesnt": "doesn't",
              "isnt": "isn't", "arent": "aren't", "thats": "that's"}  # an apostrophe left out
# The words before an "r" that means "are": "which r training-free", "how r they different"
_BEFORE_ARE = re.compile(r"\b(?:which|what|who|how|they|them|these|those|there|you|u|we)\s+$", re.IGNORECASE)
_SHORT = re.compile(r"(?<![\w/-])(?:w/o|w/|[a-z]+)(?![\w/-])")


def written_out(query: str) -> str:
    """``query`` with its chat shorthand written out (``_SHORTHAND``); 'diff between' is 'difference between', and
    'which r' is 'which are'."""
    def full(match: re.Match) -> str:
        word = match.group()
        if word == "diff" and re.match(r"\s+(?:between|of)\b", query[match.end():]):
            return "difference"
        if word == "r" and _BEFORE_ARE.search(query[:match.start()]):
            return "are"  # "which r training-free", not the letter of a name ("the R language")
        return _SHORTHAND.get(word, word)

    return _SHORT.sub(full, query)


class EnglishWords:
    """The words of English, as pyspellchecker's word-frequency list holds them (read on first use: 0.14 s). A word
    seen fewer than ``MIN_COUNT`` times in its sources is left out: the list's rarest entries are slips too
    ('expertize', 'numerate'). The list is American: 'optimisation' is not in it, and is respelled."""

    MIN_COUNT = 100

    def __init__(self) -> None:
        self._checker = None
        self._sorted: list[str] | None = None

    def _words(self):
        if self._checker is None:
            from spellchecker import SpellChecker

            self._checker = SpellChecker(distance=1)
        return self._checker

    def __contains__(self, word: str) -> bool:
        return self.count(word) >= self.MIN_COUNT

    def count(self, word: str) -> int:
        """How often ``word`` is seen in the list's sources."""
        return self._words()[word]

    def starting_with(self, prefix: str) -> list[str]:
        """The words of English that begin with ``prefix`` (the sorted list is made on first use)."""
        if self._sorted is None:
            counts = self._words().word_frequency.dictionary
            self._sorted = sorted(w for w, n in counts.items() if n >= self.MIN_COUNT and w.isalpha())
        start = bisect.bisect_left(self._sorted, prefix)
        found = []
        for word in itertools.islice(self._sorted, start, None):
            if not word.startswith(prefix):
                break
            found.append(word)
        return found


def respelled(query: str, stem: Callable[[str], str], papers_holding: Callable[[str], int],
              english: Container[str] = ()) -> str:
    """``query`` with its chat shorthand written out, and each long lower-case word whose stem no paper holds
    written as the one spelling a slip away that the most papers hold (``papers_holding(stem)``); a word with no
    such spelling, or with two spellings held equally, or a word of ``english``, stays as typed."""
    def fix(match: re.Match) -> str:
        word = match.group()
        if len(word) < MIN_SHORTENED or papers_holding(stem(word)) > 0 or word in english \
                or _inflected(word, stem, papers_holding):
            return word
        if len(word) < MIN_LENGTH:
            asking = None if match.string[match.end():match.end() + 1] in "'’" else _asking_word(word)  # not "doesn't"
            return asking or _written_in_full(word, stem, papers_holding, english)
        held: dict[str, tuple[int, str]] = {}  # stem -> (papers holding it, a spelling giving it)
        for spelling in _edits(word):
            term = stem(spelling)
            if term not in held:
                count = papers_holding(term)
                if count >= MIN_PAPERS:
                    held[term] = (count, spelling)
        return _most_held(held) or word

    def fix_capitalized(match: re.Match) -> str:  # "Wich papers ...": a sentence's first word, else a name
        word = match.group().lower()
        if papers_holding(stem(word)) > 0 or word in english or not (asking := _asking_word(word)):
            return match.group()
        return asking.capitalize()

    return _CAPITALIZED.sub(fix_capitalized, _WORD.sub(fix, written_out(query)))


# The words a question is read by (its kind, and what it leans on), which no paper's stems may hold: the index leaves
# most of them out, so a slip of one ("wich papers", "waht", "thier") is read against this list instead.
_ASKING_WORDS = frozenset("which what where whose these those their there they them does about papers paper other "
                          "only with".split())


def _asking_word(word: str) -> str | None:
    """The one asking word (``_ASKING_WORDS``) a slip away from ``word``: "wich" -> "which"; None if there is none or
    more than one."""
    if word in _ASKING_WORDS:
        return None
    found = {spelling for spelling in _edits(word) if spelling in _ASKING_WORDS}
    return found.pop() if len(found) == 1 else None


def _most_held(held: dict[str, tuple[int, str]]) -> str | None:
    """The word of the stem the most papers hold (``held``: stem -> (papers holding it, its word)); None when there
    is none, or two are held equally. Stable: of one count, the first found stays."""
    ranked = sorted(held.values(), key=lambda found: -found[0])
    if not ranked or (len(ranked) > 1 and ranked[1][0] == ranked[0][0]):
        return None
    return ranked[0][1]


MIN_SHORTENED = 4  # "manip", "archs", "eval": shorter ones ("sci", "seq") begin too many words


def _written_in_full(word: str, stem: Callable[[str], str], papers_holding: Callable[[str], int],
                     english) -> str:
    """A short word no paper holds and no word of English (``respelled`` asks), read as the word of English it begins
    whose stem the most papers hold: "manip" -> "manipulation", "archs" -> "architectures" (a plural keeps its "s");
    as typed when it begins no such word, or two equally held, or ``english`` cannot list words by their beginning."""
    if not hasattr(english, "starting_with"):
        return word
    plural = word.endswith("s") and len(word) > MIN_SHORTENED
    base = word[:-1] if plural else word
    held: dict[str, tuple[int, str]] = {}  # stem -> (papers holding it, its commonest word: "manipulation")
    for full in english.starting_with(base):
        if len(full) < len(base) + 3 or (plural and full.endswith("s")):
            continue
        term = stem(full)
        if term in held:
            if english.count(full) > english.count(held[term][1]):
                held[term] = (held[term][0], full)
        elif (count := papers_holding(term)) > 0:
            held[term] = (count, full)
    full = _most_held(held)
    return full + ("s" if plural else "") if full else word
