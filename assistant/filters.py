"""Turn `--where FIELD=VALUE` and `--source FILE` into a Chroma where clause over chunk metadata."""

from __future__ import annotations

from typing import Any, Iterable

from .errors import InputError

FIELDS = {"file": "files", "source": "files", "year": "year", "venue": "venue", "decision": "decision",
          "keyword": "keywords", "keywords": "keywords", "contribution": "contributions", "contributions": "contributions"}
LIST_FIELDS = {"files", "keywords", "contributions"}
FACETS = ("file", "year", "venue", "decision", "keyword", "contribution")  # the fields a front end offers, in this order
# The kinds of contribution ingest labels papers with (ingest/contributions.py LABELS; a test keeps the two equal).
# A filter names one whole or by one of its words: contribution=benchmark, contribution=empirical.
CONTRIBUTIONS = ("benchmark/dataset", "method", "theory", "empirical study/analysis", "survey/position", "system/tool")


def facet_values(records: Iterable[dict]) -> dict[str, list]:
    """The filter values that paper records (their metadata) have: ``{"file": [...], "year": [2026, ...],
    "venue": [...], "decision": [...], "keyword": [...]}``. A field no paper has gets ``[]``. Years are
    newest first, the rest in alphabetical order; each value works in ``build_where([f"{field}={value}"])``."""
    found: dict[str, set] = {name: set() for name in FACETS}
    for meta in records:
        for name in FACETS:
            value = meta.get(FIELDS[name])
            values = value if FIELDS[name] in LIST_FIELDS and isinstance(value, list) else [value]
            found[name].update(v for v in values if v not in (None, ""))
    return {name: sorted(values, reverse=True) if name == "year" else sorted(values, key=lambda v: str(v).lower())
            for name, values in found.items()}


def build_where(pairs: Iterable[str] = (), sources: Iterable[str] = (), **fields: Any) -> dict | None:
    """``build_where(["year=2026"], ["a.txt"])`` -> ``{"$and": [{"year": 2026}, {"files": {"$contains": "a.txt"}}]}``."""
    return where_for([_split(p) for p in pairs] + [("file", s) for s in sources] + [(k, v) for k, v in fields.items() if v])


def where_for(items: Iterable[tuple[str, Any]]) -> dict | None:
    """``(field, value)`` pairs as a where clause: a field's values are alternatives, every field must hold."""
    clauses: list[dict] = []
    by_field: dict[str, list[Any]] = {}
    for name, value in items:
        key = FIELDS.get(name.lower())
        if key is None:
            raise InputError(f"Unknown filter field {name!r}.",
                             f"Use one of: {', '.join(sorted(set(FIELDS) - {'source', 'keywords', 'contributions'}))}.")
        by_field.setdefault(key, []).append(_typed(key, value))
    for key, values in by_field.items():
        if key in LIST_FIELDS:
            options = [{key: {"$contains": v}} for v in values]
        else:
            options = [{key: v} for v in values]
        clauses.append(options[0] if len(options) == 1 else {"$or": options})
    if not clauses:
        return None
    return clauses[0] if len(clauses) == 1 else {"$and": clauses}


def _split(pair: str) -> tuple[str, str]:
    if "=" not in pair:
        raise InputError(f"Filter {pair!r} is not FIELD=VALUE.", "Write it like --where year=2026.")
    name, value = pair.split("=", 1)
    return name.strip(), value.strip()


def _typed(key: str, value: Any) -> Any:
    if key == "year":
        try:
            return int(value)
        except (TypeError, ValueError):
            raise InputError(f"year={value!r} is not a year.", "Write it like --where year=2026.") from None
    if key == "keywords":
        return str(value).strip().lower()
    if key == "contributions":
        return _contribution(str(value))
    return str(value)


def _contribution(value: str) -> str:
    wanted = value.strip().lower()
    for kind in CONTRIBUTIONS:
        if wanted == kind or wanted in kind.replace("/", " ").split():
            return kind
    raise InputError(f"contribution={value!r} is not a kind of contribution.",
                     f"Use one of: {', '.join(CONTRIBUTIONS)} (or one word of it, like contribution=benchmark).")
