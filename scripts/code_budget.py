"""The code's budget (issue 42): regular-expression sites in assistant/ and ingest/, and the largest modules.

    python scripts/code_budget.py          # totals, the modules over budget and the ten with most sites

A site is one call of ``re``'s functions in the source (``re.compile``, ``re.search``, ``re.sub``, ...), counted
from the syntax tree, so a pattern built in a loop counts once and a comment never counts.
"""

from __future__ import annotations

import argparse
import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("assistant", "ingest")
RE_FUNCTIONS = {"compile", "search", "match", "fullmatch", "sub", "subn", "findall", "finditer", "split"}
MAX_SITES = 120
MAX_MODULE_BYTES = 40_000


def regex_sites(source: str) -> int:
    return sum(1 for node in ast.walk(ast.parse(source))
               if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
               and node.func.attr in RE_FUNCTIONS and isinstance(node.func.value, ast.Name) and node.func.value.id == "re")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.parse_args()
    modules = sorted(p for package in PACKAGES for p in (ROOT / package).rglob("*.py"))
    sites = {p: regex_sites(p.read_text(encoding="utf-8")) for p in modules}
    sizes = {p: p.stat().st_size for p in modules}
    total = sum(sites.values())
    largest = max(modules, key=sizes.get)
    print(f"regular-expression sites: {total} (budget {MAX_SITES}) in {sum(1 for n in sites.values() if n)} of "
          f"{len(modules)} modules")
    print(f"largest module: {largest.relative_to(ROOT)} {sizes[largest] / 1000:.1f} KB (budget {MAX_MODULE_BYTES // 1000} KB)")
    for path in sorted((p for p in modules if sizes[p] > MAX_MODULE_BYTES), key=sizes.get, reverse=True):
        print(f"  over budget: {path.relative_to(ROOT)} {sizes[path] / 1000:.1f} KB")
    print("most sites:")
    for path in sorted(modules, key=sites.get, reverse=True)[:10]:
        print(f"  {sites[path]:4d}  {path.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
