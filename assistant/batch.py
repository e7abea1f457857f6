"""Read a batch of questions: one per line, or JSON Lines with a "question" field."""

from __future__ import annotations

import json
from pathlib import Path

from .errors import InputError


def read_questions(path: Path) -> list[str]:
    try:
        lines = path.read_text(encoding="utf-8-sig").splitlines()
    except (OSError, UnicodeDecodeError) as exc:
        raise InputError(f"Cannot read {path}: {exc}.", "Give a UTF-8 text file with one question per line.") from None
    questions = []
    for number, line in enumerate(lines, 1):
        line = line.strip()
        if not line:
            continue
        if line.startswith("{"):
            try:
                row = json.loads(line)
            except ValueError:
                raise InputError(f"{path}:{number} is not valid JSON.", "Fix the line, or give plain text questions.") from None
            if not isinstance(row, dict) or not str(row.get("question", "")).strip():
                raise InputError(f"{path}:{number} has no \"question\" field.", 'Each JSON line needs {"question": "..."}.')
            questions.append(str(row["question"]).strip())
        else:
            questions.append(line)
    return questions


def read_eval_set(path: Path) -> list[dict]:
    rows = []
    try:
        lines = path.read_text(encoding="utf-8-sig").splitlines()
    except (OSError, UnicodeDecodeError) as exc:
        raise InputError(f"Cannot read {path}: {exc}.", "Give a JSON Lines file of {\"question\", \"relevant\"}.") from None
    for number, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            row = json.loads(line)
            question, relevant = str(row["question"]), list(row.get("relevant", []))
        except (ValueError, KeyError, TypeError):
            raise InputError(f"{path}:{number} is not an eval line.",
                             'Each line must be {"question": "...", "relevant": ["substring of an expected abstract", ...]}.') from None
        rows.append({"question": question, "relevant": [str(r) for r in relevant]})
    return rows
