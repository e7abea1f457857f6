"""What parsing produces: one ``Record`` per abstract found, and ``Skipped`` for what could not be used."""

from __future__ import annotations

import hashlib
import re
import unicodedata
from dataclasses import dataclass, field

METADATA_FIELDS = ("title", "authors", "id", "url", "keywords", "year", "venue", "decision", "primary_area", "tldr")
_SPACE = re.compile(r"\s+")


def normalise(text: str) -> str:
    """The form two copies of one abstract share: NFKC, no NULs, single spaces, lower case."""
    text = unicodedata.normalize("NFKC", text).replace("\x00", "")
    return _SPACE.sub(" ", text).strip().lower()


def paper_id(text: str) -> str:
    """A stable id from the normalised text, so one abstract in two files is one paper."""
    return hashlib.sha256(normalise(text).encode("utf-8")).hexdigest()[:16]


_CONTROLS = {c: None for c in [*range(0, 9), *range(11, 32), *range(127, 160)]}


def clean_text(text: str) -> str:
    """Display form: NULs and control characters removed, whitespace collapsed."""
    text = unicodedata.normalize("NFC", text).translate(_CONTROLS)
    return _SPACE.sub(" ", text).strip()


@dataclass(frozen=True)
class Source:
    """Where a paper was found: the file's name, its resolved path, and the 1-based position in it."""

    file: str
    path: str
    position: int

    def as_dict(self) -> dict:
        return {"file": self.file, "path": self.path, "position": self.position}

    def label(self) -> str:
        return f"{self.file} #{self.position}"


@dataclass
class Record:
    text: str
    source: Source
    metadata: dict = field(default_factory=dict)  # str values; "keywords" a list of them

    @property
    def id(self) -> str:
        return paper_id(self.text)


@dataclass(frozen=True)
class Skipped:
    path: str
    reason: str

    def as_dict(self) -> dict:
        return {"path": self.path, "reason": self.reason}
