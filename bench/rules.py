"""Which phrase rules generalize: for each compiled pattern of ``assistant/`` and ``ingest/``, the question sets on
which turning it off changes a question's plan.

    python bench/rules.py [--home STORE] [--out rules.json]

Every labelled set (``bench/eval_sets.SETS``) came from a different asker. A rule that changes plans on one set
only was fitted to that set's wording; one that changes them on many reads something general. The first turn
of each question is planned (``Assistant.plan``, no conversation) with every pattern in place, and again with each
pattern in turn made to match nothing (a search finds nothing, a substitution leaves the text as it was, a split
keeps it whole). Only the questions a pattern matched are planned again. Prints, per pattern, the sets and the
questions whose plan it changes, fewest sets first; ``--out`` keeps the table as JSON.
"""

from __future__ import annotations

import argparse
import collections
import importlib
import json
import pkgutil
import re
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from eval_sets import SETS  # noqa: E402  (bench/ is not a package)

_NONE = re.compile(r"(?!)")  # matches nothing


class Watched:
    """A compiled pattern that records the questions it matched, and can be turned off (matching nothing)."""

    def __init__(self, pattern: re.Pattern, name: str, log: dict) -> None:
        self._pattern, self.name, self._log, self.off = pattern, name, log, False
        self.asking: str | None = None

    def _use(self):
        return _NONE if self.off else self._pattern

    def _seen(self, matched) -> None:
        if matched and self.asking is not None:
            self._log[self.name].add(self.asking)

    def finditer(self, *a, **k):
        found = list(self._use().finditer(*a, **k))
        self._seen(found)
        return iter(found)

    def __getattr__(self, attr):  # .pattern, .flags, .groupindex
        return getattr(self._pattern, attr)


def _watching(method: str, matched):
    """A ``Watched`` method that calls the pattern's own (or the one matching nothing) and records a match."""
    def call(self, *args, **kwargs):
        found = getattr(self._use(), method)(*args, **kwargs)
        self._seen(matched(found, args))
        return found
    return call


for _method, _matched in {"search": lambda found, a: found, "match": lambda found, a: found,
                          "fullmatch": lambda found, a: found, "findall": lambda found, a: found,
                          "split": lambda parts, a: len(parts) > 1,
                          "sub": lambda out, a: out != a[1], "subn": lambda out, a: out[1]}.items():
    setattr(Watched, _method, _watching(_method, _matched))


def watch_all(log: dict) -> dict[str, Watched]:
    """Every module-level pattern of the two packages (also inside dicts, lists and tuples), swapped for a
    ``Watched`` in each module that holds it; keyed by 'module.NAME'."""
    import assistant
    import ingest

    modules = []
    for package in (assistant, ingest):
        for info in pkgutil.walk_packages(package.__path__, package.__name__ + "."):
            if info.name.split(".")[-1] in ("__main__", "onnx_export"):
                continue
            try:
                modules.append(importlib.import_module(info.name))
            except Exception:  # noqa: BLE001 - a module needing an optional extra
                continue
    by_id: dict[int, Watched] = {}

    def wrapped(pattern, name):
        if id(pattern) not in by_id:
            by_id[id(pattern)] = Watched(pattern, name, log)
        return by_id[id(pattern)]

    for module in modules:
        for attr, value in list(vars(module).items()):
            name = f"{module.__name__.removeprefix('assistant.')}.{attr}"
            if isinstance(value, re.Pattern):
                setattr(module, attr, wrapped(value, name))
            elif isinstance(value, dict) and value and all(isinstance(v, re.Pattern) for v in value.values()):
                setattr(module, attr, {key: wrapped(v, f"{name}[{key}]") for key, v in value.items()})
            elif isinstance(value, (list, tuple)) and value and all(isinstance(v, re.Pattern) for v in value):
                setattr(module, attr, type(value)(wrapped(v, f"{name}[{i}]") for i, v in enumerate(value)))
    return {w.name: w for w in by_id.values()}


def first_turns() -> list[tuple[str, str]]:
    from assistant.batch import read_items

    return [(path.stem, item.turns[0]["question"]) for path in SETS if path.is_file()
            for item in read_items(path, labelled=True)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--home", type=Path)
    parser.add_argument("--out", type=Path)
    args = parser.parse_args()
    from assistant import Assistant, Settings

    log: dict[str, set[str]] = collections.defaultdict(set)
    watched = watch_all(log)
    questions = first_turns()
    sets_of: dict[str, set[str]] = collections.defaultdict(set)
    for name, question in questions:
        sets_of[question].add(name)
    with tempfile.TemporaryDirectory(prefix="rules-") as tmp:
        assistant = Assistant(Settings.from_env(env={}, home=args.home or Path(tmp), llm="none"))
        if not assistant.stats().get("papers"):
            assistant.ingest()

        def planned(question):
            for w in watched.values():
                w.asking = question
            try:
                return json.dumps(assistant.plan(question).as_dict(), sort_keys=True, default=str)
            except Exception as error:  # noqa: BLE001 - a rule off may break a reading: that is a change too
                return f"error: {type(error).__name__}"
            finally:
                for w in watched.values():
                    w.asking = None

        base = {q: planned(q) for _set, q in questions}
        print(f"{len(base)} questions, {len(watched)} patterns, {sum(1 for v in log.values() if v)} matched some",
              file=sys.stderr)
        table = {}
        for name, w in sorted(watched.items()):
            matched = sorted(log.get(name, ()))
            w.off = True
            changed = [q for q in matched if planned(q) != base[q]]
            w.off = False
            sets = sorted({s for q in changed for s in sets_of[q]})
            table[name] = {"matched": len(matched), "changed": len(changed), "sets": sets, "examples": changed[:3]}
    rows = sorted(table.items(), key=lambda kv: (len(kv[1]["sets"]), kv[1]["changed"], kv[0]))
    print(f"{'pattern':<58} {'matched':>7} {'changed':>7} {'sets':>4}")
    for name, row in rows:
        print(f"{name:<58} {row['matched']:7d} {row['changed']:7d} {len(row['sets']):4d}  {', '.join(row['sets'][:4])}")
    if args.out:
        args.out.write_text(json.dumps(table, indent=1))


if __name__ == "__main__":
    main()
