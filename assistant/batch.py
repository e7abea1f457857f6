"""Read a batch of questions or a labelled question set.

One item per line: plain text, or JSON Lines. A JSON line is one question
(``{"question": ..., "type": ..., "relevant": [...]}``) or one conversation whose turns run in order
in one conversation (``{"conversation": [{"question": ..., "relevant": [...]}, ...]}``, or a list of
strings). ``relevant`` holds substrings of the abstracts that answer; an empty list means no paper does.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path

from .errors import InputError

TURN_SHAPE = '{"question": "...", "relevant": ["substring of an expected abstract", ...]}'


@dataclass
class Item:
    """One line of a batch: a single question (one turn) or a conversation (several)."""

    turns: list[dict]                 # each {"question": str, "relevant": list[str] | None}
    type: str | None = None
    conversation: bool = False
    line: int = 0
    extra: dict = field(default_factory=dict)


def read_items(path: Path, *, labelled: bool = False) -> list[Item]:
    """The items of ``path``; with ``labelled``, every turn must say which abstracts answer it."""
    try:
        lines = path.read_text(encoding="utf-8-sig").splitlines()
    except (OSError, UnicodeDecodeError) as exc:
        raise InputError(f"Cannot read {path}: {exc}.", "Give a UTF-8 text file with one question per line, "
                         "or JSON Lines.") from None
    items = []
    for number, line in enumerate(lines, 1):
        line = line.strip()
        if not line:
            continue
        if not line.startswith(("{", "[")):
            if labelled:
                raise InputError(f"{path}:{number} is not JSON.", f"Each line of a question set must be {TURN_SHAPE}.")
            items.append(Item([{"question": line, "relevant": None}], line=number))
            continue
        try:
            row = json.loads(line)
        except ValueError:
            raise InputError(f"{path}:{number} is not valid JSON.", "Fix the line, or give plain text questions.") from None
        items.append(_item(row, f"{path}:{number}", number, labelled))
    return items


def _item(row, where: str, number: int, labelled: bool) -> Item:
    if isinstance(row, list):
        row = {"conversation": row}
    if not isinstance(row, dict):
        raise InputError(f"{where} is neither a question nor a conversation.",
                         'Write {"question": "..."} or {"conversation": ["...", "..."]}.')
    kind = row.get("type")
    kind = str(kind) if kind not in (None, "") else None
    if "conversation" in row:
        turns = row["conversation"]
        if not isinstance(turns, list) or not turns:
            raise InputError(f"{where}: \"conversation\" must be a non-empty list of turns.",
                             'Write {"conversation": ["first question", "follow-up", ...]}.')
        return Item([_turn(t, f"{where} turn {i}", labelled) for i, t in enumerate(turns, 1)], kind, True, number)
    return Item([_turn(row, where, labelled)], kind, False, number)


def _turn(turn, where: str, labelled: bool) -> dict:
    if isinstance(turn, str):
        turn = {"question": turn}
    if not isinstance(turn, dict) or not str(turn.get("question") or "").strip():
        shape = TURN_SHAPE if labelled else '{"question": "..."}'
        raise InputError(f"{where} has no \"question\".", f"Each question needs {shape}.")
    relevant = turn.get("relevant")
    if relevant is not None and not (isinstance(relevant, list) and all(isinstance(r, str) for r in relevant)):
        raise InputError(f"{where}: \"relevant\" must be a list of strings.", f"Write {TURN_SHAPE}.")
    if labelled and relevant is None:
        raise InputError(f"{where} has no \"relevant\" list.", f"Write {TURN_SHAPE} ([] when no paper answers).")
    return {"question": str(turn["question"]).strip(), "relevant": relevant}


def read_questions(path: Path) -> list[str]:
    """Every question of ``path``, conversations' turns included, in order."""
    return [turn["question"] for item in read_items(path) for turn in item.turns]


def read_eval_set(path: Path) -> list[Item]:
    return read_items(path, labelled=True)
