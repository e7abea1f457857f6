"""``Filter``: which papers a search, an answer or a listing may use.

Parsed once, from whatever a front end has: ``"year=2026; file=a.txt"`` (the web API, the REPL),
a dict ``{"year": 2026, "file": ["a.txt", "b.txt"]}`` (the library, the API, also as JSON text), or
``FIELD=VALUE`` pairs and file names (``--where``, ``--source``). Several values of one field match
any of them; every field must hold. A paper-id restriction (follow-ups use the last answer's papers)
is part of the same object. Only ``assistant.store`` turns a Filter into Chroma's ``where``.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any, Iterable, Mapping

from .errors import InputError
from .schema import CONTRIBUTION_LABELS

# field -> the metadata key paper and chunk records hold it under
FIELDS = {"file": "files", "year": "year", "venue": "venue", "decision": "decision", "area": "primary_area",
          "keyword": "keywords", "contribution": "contributions"}
ALIASES = {"source": "file", "files": "file", "keywords": "keyword", "contributions": "contribution",
           "primary_area": "area", "primary area": "area", "areas": "area", "decisions": "decision"}
LIST_KEYS = {"files", "keywords", "contributions"}  # list metadata: a value matches when the list contains it
FACETS = ("file", "year", "venue", "decision", "area", "keyword", "contribution")  # the fields the browser offers, in order
# The kinds of contribution ingest labels papers with. A filter names one whole or by one of its words:
# contribution=benchmark, contribution=empirical.
CONTRIBUTIONS = CONTRIBUTION_LABELS
HINT = ('Write filters like "year=2026; file=a.txt" (fields: file, year, venue, decision, area, keyword, '
        'contribution).')
YEARS = (1, 9999)
# Groups of OpenReview decisions a filter may name instead of one decision ("decision=accepted"), each as what
# the decision starts with or holds, lower-cased: "Accept (Poster)", "Accept (Conditional Oral)" are accepted,
# the second oral too. A store's decisions are matched against them (``Filter.resolved``).
DECISION_GROUPS = {"accepted": ("accept", ""), "oral": ("accept", "oral"), "spotlight": ("accept", "spotlight"),
                   "poster": ("accept", "poster"), "rejected": ("reject", ""), "desk rejected": ("desk reject", ""),
                   "withdrawn": ("withdraw", "")}
DECISION_WORDS = {"accept": "accepted", "reject": "rejected", "desk reject": "desk rejected",
                  "desk-rejected": "desk rejected", "withdraw": "withdrawn"}
RESOLVED = ("decision", "area")  # fields whose values are read against the store's (``Filter.resolved``)


@dataclass(frozen=True)
class Filter:
    """Field conditions (``{"year": (2026,), "file": ("a.txt", "b.txt")}``) and an optional set of paper ids.

    ``Filter()`` lets every paper through. Build one with ``Filter.parse``; ``restricted_to(ids)``
    narrows it to some papers."""

    terms: tuple[tuple[str, tuple[Any, ...]], ...] = ()  # (field, values) in FIELDS order
    paper_ids: frozenset[str] | None = None

    @classmethod
    def parse(cls, value: Any = None, *, pairs: Iterable[str] = (), sources: Iterable[str] = (),
              max_values: int | None = None) -> "Filter":
        """A Filter from a Filter, None, text, JSON text, a dict, or ``FIELD=VALUE`` pairs, plus ``sources``
        (file names). Raises ``InputError`` naming what is wrong, and past ``max_values`` values in all."""
        if isinstance(value, Filter):
            return value.check(max_values)
        items = _items(value) + [_split(p) for p in pairs] + [("file", s) for s in sources]
        return cls.of(items, max_values)  # counts the values as it reads them

    @classmethod
    def of(cls, items: Iterable[tuple[str, Any]], max_values: int | None = None) -> "Filter":
        """(field, value) pairs as a Filter; stops at the first value past ``max_values``."""
        chosen: dict[str, list[Any]] = {}
        count = 0
        for name, value in items:
            field = _field(name)
            typed = _typed(field, name, value)
            count += 1
            if max_values is not None and count > max_values:
                raise _too_many(f"over {max_values:,}", max_values)
            if typed not in chosen.setdefault(field, []):
                chosen[field].append(typed)
        return cls(tuple((f, tuple(chosen[f])) for f in FIELDS if f in chosen))

    def check(self, max_values: int | None) -> "Filter":
        count = sum(len(values) for _f, values in self.terms)
        if max_values is not None and count > max_values:
            raise _too_many(f"{count:,}", max_values)
        return self

    @property
    def needs_resolving(self) -> bool:
        """Whether it names a decision or an area, which ``resolved`` reads against the store's values."""
        return any(field in RESOLVED for field, _values in self.terms)

    def resolved(self, known: Mapping[str, Iterable[Any]]) -> "Filter":
        """This filter with its decisions and areas as the store holds them (``known``: ``facet_values``):
        a group of decisions as every decision in it ("accepted": "Accept (Poster)", "Accept (Oral)"), an
        area by its whole name or an unambiguous part ("reinforcement learning"), in any case. Raises
        ``InputError`` naming a value that is none of them, with the values there are."""
        terms = []
        for field, values in self.terms:
            if field in RESOLVED:
                choices = [str(v) for v in known.get(field, [])]
                values = tuple(dict.fromkeys(v for value in values for v in
                                             (_decisions(value, choices) if field == "decision" else (_area(value, choices),))))
            terms.append((field, values))
        return Filter(tuple(terms), self.paper_ids)

    def restricted_to(self, paper_ids: Iterable[str]) -> "Filter":
        """Only these papers (and only those of them this filter already allows)."""
        ids = frozenset(paper_ids)
        return Filter(self.terms, ids if self.paper_ids is None else self.paper_ids & ids)

    @property
    def fields(self) -> dict[str, tuple[Any, ...]]:
        """``{field: values}`` in ``FIELDS`` order."""
        return dict(self.terms)

    @property
    def has_terms(self) -> bool:
        return bool(self.terms)

    def __bool__(self) -> bool:
        return bool(self.terms) or self.paper_ids is not None

    def allows(self, paper_meta: Mapping[str, Any]) -> bool:
        """Whether a paper record's metadata meets the field conditions (ids are not checked here)."""
        for field, values in self.terms:
            key = FIELDS[field]
            held = paper_meta.get(key)
            if key in LIST_KEYS:
                held_values = held if isinstance(held, list) else []
                if not any(v in held_values for v in values):
                    return False
            elif held not in values:
                return False
        return True

    def __str__(self) -> str:
        """``year=2026; file=a.txt; file=b.txt``: parses back to the same field conditions."""
        return "; ".join(f"{field}={v}" for field, values in self.terms for v in values)


def facet_values(records: Iterable[dict]) -> dict[str, list]:
    """The filter values that paper records (their metadata) have: ``{"file": [...], "year": [2026, ...],
    "venue": [...], "decision": [...], "keyword": [...]}``. A field no paper has gets ``[]``. Years are
    newest first, the rest in alphabetical order; each value works in ``Filter.parse({field: value})``."""
    found: dict[str, set] = {name: set() for name in FACETS}
    for meta in records:
        for name in FACETS:
            value = meta.get(FIELDS[name])
            values = value if FIELDS[name] in LIST_KEYS and isinstance(value, list) else [value]
            found[name].update(v for v in values if v not in (None, ""))
    return {name: sorted(values, reverse=True) if name == "year" else sorted(values, key=lambda v: str(v).lower())
            for name, values in found.items()}


def _items(value: Any) -> list[tuple[str, Any]]:
    if value is None or (isinstance(value, str) and not value.strip()):
        return []
    if isinstance(value, str):
        _text(value, "the filters")
    if isinstance(value, str) and value.strip().startswith("{"):
        try:
            value = json.loads(value)
        except ValueError:
            raise InputError(f"The filters {_clip(value)!r} are not valid JSON.", HINT) from None
    if isinstance(value, str):
        return [_split(part) for part in re.split(r"[;\n]", value) if part.strip()]
    if isinstance(value, Mapping):
        return [(str(name), v) for name, values in value.items()
                for v in (values if isinstance(values, (list, tuple, set)) else [values]) if v is not None]
    if isinstance(value, (list, tuple)) and all(isinstance(p, str) for p in value):
        return [_split(p) for p in value]
    raise InputError(f"The filters are a {type(value).__name__}, not text or a dict.", HINT)


def _split(pair: str) -> tuple[str, str]:
    if "=" not in pair:
        raise InputError(f"The filter {_clip(pair.strip())!r} is not FIELD=VALUE.", HINT)
    name, value = pair.split("=", 1)
    return name.strip(), value.strip()


def _field(name: Any) -> str:
    text = _text(str(name), "a filter field").strip().lower()
    field = ALIASES.get(text, text)
    if field not in FIELDS:
        raise InputError(f"Unknown filter field {_clip(str(name).strip())!r}.", HINT)
    return field


def _typed(field: str, name: str, value: Any) -> Any:
    if isinstance(value, (dict, list, tuple, set)):
        raise InputError(f"The filter {field}= has a {type(value).__name__} as its value, not a value.", HINT)
    text = _text(str(value), f"the filter {field}=").strip()
    if not text:
        raise InputError(f"The filter {str(name).strip()}= has no value.", HINT)
    if field == "year":
        try:
            year = int(text)
        except ValueError:
            year = None
        if year is None or not YEARS[0] <= year <= YEARS[1]:
            raise InputError(f"year={_clip(text)!r} is not a year.", "Write a year like year=2026.")
        return year
    if field == "keyword":
        return text.lower()
    if field == "contribution":
        return _contribution(text)
    return text


def decision_groups(decisions: Iterable[str]) -> list[str]:
    """The groups (``DECISION_GROUPS``) that hold one of ``decisions`` at least, in their order: what a filter
    can offer beside the decisions themselves."""
    lowered = [str(d).lower() for d in decisions]
    return [group for group, (start, holds) in DECISION_GROUPS.items()
            if any(d.startswith(start) and holds in d for d in lowered)]


def _decisions(value: str, known: list[str]) -> list[str]:
    """The store's decisions ``value`` names: one of them (in any case), or those of a group ("accepted")."""
    wanted = " ".join(value.lower().replace("_", " ").split())
    exact = [d for d in known if d.lower() == wanted]
    if exact:
        return exact
    group = DECISION_GROUPS.get(DECISION_WORDS.get(wanted, wanted))
    if group is not None:
        start, holds = group
        return [d for d in known if d.lower().startswith(start) and holds in d.lower()] or [value]
    named = ", ".join(DECISION_GROUPS)
    held = f"; or one the papers have: {', '.join(known)}" if known else " (no paper in the store has a decision)"
    raise InputError(f"decision={value!r} is not a decision.", f"Use a group: {named}{held}.")


def _area(value: str, known: list[str]) -> str:
    """The store's primary area ``value`` names: whole, or by a part that only one area holds."""
    wanted = " ".join(value.lower().split())
    exact = [a for a in known if a.lower() == wanted]
    if exact:
        return exact[0]
    holding = [a for a in known if wanted in a.lower()]
    if len(holding) == 1:
        return holding[0]
    if holding:
        raise InputError(f"area={value!r} is part of {len(holding)} primary areas: {'; '.join(holding)}.",
                         "Write more of the one you mean.")
    if not known:
        raise InputError(f"area={value!r}: no paper in the store has a primary area.",
                         "Ingest an export with a primary_area field (OpenReview's has one).")
    raise InputError(f"area={value!r} is not a primary area of the store's papers.",
                     f"Use one of them, or a part of one: {'; '.join(known)}.")


def _contribution(value: str) -> str:
    wanted = value.strip().lower()
    for kind in CONTRIBUTIONS:
        if wanted == kind or wanted in kind.replace("/", " ").split():
            return kind
    raise InputError(f"contribution={value!r} is not a kind of contribution.",
                     f"Use one of: {', '.join(CONTRIBUTIONS)} (or one word of it, like contribution=benchmark).")


def _text(value: str, what: str) -> str:
    """``value`` if it can be written as UTF-8: a lone surrogate ("\\ud800") cannot, and Chroma and the
    tokenizer fail on it with errors that name nothing."""
    try:
        value.encode("utf-8")
    except UnicodeEncodeError as exc:
        raise InputError(f"{what[0].upper()}{what[1:]} holds a character that is not text "
                         f"(U+{ord(value[exc.start]):04X}, a lone surrogate).",
                         "Send it as valid UTF-8 text.") from None
    return value


def _too_many(count: str, limit: int) -> InputError:
    return InputError(f"The filters hold {count} values; at most {limit:,} values per filter.",
                      "Choose fewer files, years or keywords (or raise ASSISTANT_MAX_FILTER_VALUES).")


def _clip(text: str, limit: int = 80) -> str:
    return text if len(text) <= limit else text[:limit] + "…"
