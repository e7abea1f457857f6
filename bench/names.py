"""Finding papers by name at any corpus size: "tell me about NAME" for papers sampled from a store.

For N papers whose titles lead with a coined name ("Rosix-4870: Adaptive Reasoning Sampling";
``assistant.spelling.name_kind``),
asks the store three ways and counts how often that paper is the first result and how often
the search returns nothing at all:

- as titled:      "tell me about Rosix-4870"
- lower case:     "tell me about rosix-4870"
- spaced:         "what is rosix 4870" (hyphens and inner capitals dropped, as people type)

    python bench/names.py --home $BENCH/home-20k --n 200
"""

from __future__ import annotations

import argparse
import random
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def spaced(name: str) -> str:
    """'Rosix-4870' -> 'rosix 4870', 'PoLR' -> 'polr', 'WebShaper' -> 'web shaper'."""
    return re.sub(r"(?<=[a-z])(?=[A-Z])", " ", name).replace("-", " ").lower()


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--home", type=Path, required=True, help="ASSISTANT_HOME of an ingested store")
    parser.add_argument("--n", type=int, default=200)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)

    from assistant import Assistant, Settings
    from assistant.spelling import name_kind, title_name

    assistant = Assistant(Settings.from_env(home=args.home, llm="none"))
    named = [(p.id, name) for p in assistant.papers() if (name := title_name(p.title)) and name_kind(name) == "coined"]
    sample = random.Random(args.seed).sample(named, min(args.n, len(named)))
    forms = {"as titled": lambda n: f"tell me about {n}", "lower case": lambda n: f"tell me about {n.lower()}",
             "spaced": lambda n: f"what is {spaced(n)}"}
    print(f"{len(sample)} of {len(named):,} named papers in a store of {assistant.stats()['papers']:,}")
    for label, ask in forms.items():
        first = empty = 0
        for pid, name in sample:
            hits = assistant.search(ask(name), k=5)
            first += bool(hits) and hits[0].id == pid
            empty += not hits
        print(f"  {label:<11} first {first / len(sample):6.1%}   nothing returned {empty / len(sample):6.1%}"
              f"   e.g. {ask(sample[0][1])!r}")


if __name__ == "__main__":
    main()
