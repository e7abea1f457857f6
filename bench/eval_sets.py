"""Whole answers on every labelled set of the 49 bundled papers, per kind, and two runs side by side.

    python bench/eval_sets.py run OUT.json [--home STORE]     # every tests/data/check*.jsonl, dev, ../shared dev2
    python bench/eval_sets.py compare BEFORE.json AFTER.json  # mean P / R per kind over the sets, the worst set

Each set is scored by ``assistant.evaluation.evaluate`` with ``--llm none`` (the figures `assistant eval FILE`
prints), on a store of the bundled papers (made in a temp folder unless ``--home``). ``compare`` prints, for
each kind, the mean over sets of citation precision and recall, the set with the lowest F1, abstention, and
every set whose F1 for a kind moved by more than .05. To compare two commits, run ``run`` in a worktree of each.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

KINDS = ("list", "contribution", "followup", "topic", "named", "compare")
SETS = sorted((ROOT / "tests" / "data").glob("check*.jsonl")) + [ROOT / "tests" / "data" / "dev.jsonl",
                                                                 ROOT.parent / "shared" / "eval" / "dev2.jsonl"]


def run(out: Path, home: Path | None) -> None:
    from assistant import Assistant, Settings
    from assistant.batch import read_items
    from assistant.evaluation import evaluate

    with tempfile.TemporaryDirectory(prefix="eval-sets-") as tmp:
        assistant = Assistant(Settings.from_env(env={}, home=home or Path(tmp), llm="none"))
        if not assistant.stats().get("papers"):
            assistant.ingest()
        report = {}
        for path in (p for p in SETS if p.is_file()):
            report[path.stem] = evaluate(assistant, read_items(path, labelled=True), llm="none")["by_type"]
            print(f"  {path.stem}", file=sys.stderr, flush=True)
    out.write_text(json.dumps(report))


def compare(before: dict, after: dict) -> None:
    def row(report, name, kind):
        return {r["type"]: r for r in report.get(name, [])}.get(kind)

    print(f"{'kind':<13} {'P before':>8} {'R before':>8} {'P after':>8} {'R after':>8}   worst set by F1, before / after")
    for kind in KINDS:
        pairs = [(name, row(before, name, kind), row(after, name, kind)) for name in before]
        pairs = [p for p in pairs if p[1] and p[2]]
        if not pairs:
            continue
        mean = lambda side, key: statistics.mean(p[side].get(key) or 0.0 for p in pairs)  # noqa: E731
        worst = [min(pairs, key=lambda p, side=side: p[side].get("citation_f1") or 0.0) for side in (1, 2)]
        print(f"{kind:<13} {mean(1, 'citation_precision'):8.3f} {mean(1, 'citation_recall'):8.3f} "
              f"{mean(2, 'citation_precision'):8.3f} {mean(2, 'citation_recall'):8.3f}   "
              f"{worst[0][0]} {worst[0][1].get('citation_f1') or 0:.3f} / {worst[1][0]} {worst[1][2].get('citation_f1') or 0:.3f}"
              f"  ({len(pairs)} sets)")
    abstaining = [(row(before, n, "unanswerable"), row(after, n, "unanswerable")) for n in before]
    abstaining = [(b, a) for b, a in abstaining if b and a]
    if abstaining:
        print(f"abstention    {statistics.mean(b['abstention'] for b, _ in abstaining):.3f} -> "
              f"{statistics.mean(a['abstention'] for _, a in abstaining):.3f}  ({len(abstaining)} sets)")
    for name in before:
        for kind in KINDS:
            b, a = row(before, name, kind), row(after, name, kind)
            if b and a and abs((b.get("citation_f1") or 0) - (a.get("citation_f1") or 0)) > 0.05:
                print(f"  {name:<8} {kind:<13} F1 {b.get('citation_f1') or 0:.3f} -> {a.get('citation_f1') or 0:.3f}")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    commands = parser.add_subparsers(dest="command", required=True)
    ran = commands.add_parser("run")
    ran.add_argument("out", type=Path)
    ran.add_argument("--home", type=Path)
    compared = commands.add_parser("compare")
    compared.add_argument("before", type=Path)
    compared.add_argument("after", type=Path)
    args = parser.parse_args(argv)
    if args.command == "run":
        run(args.out, args.home)
    else:
        compare(json.loads(args.before.read_text()), json.loads(args.after.read_text()))


if __name__ == "__main__":
    main()
