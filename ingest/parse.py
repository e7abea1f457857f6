"""Read abstracts from the three supported formats.

- ``.txt`` (the seed format): an optional header line, then abstracts separated by blank lines.
- ``.jsonl`` / ``.json`` lines and ``.csv``: an ``abstract`` field, optional metadata
  (``title``, ``authors``, ``id``, ``url`` or ``openreview_url``, ``keywords``, ``year``, ``venue``,
  ``decision``, ``primary_area``, ``tldr``), which is the shape of an OpenReview export: a flat row, or an
  API v2 note (fields under ``content``, each in a ``{"value": ...}`` wrapper, the tldr spelt ``TLDR``).
- any of them gzip-compressed (``.jsonl.gz``, ``.csv.gz``, ``.txt.gz``), read as a stream.

Every problem is reported as a ``Skipped`` with the file (and line) and what to do; one bad
file or line never stops the others.
"""

from __future__ import annotations

import codecs
import csv
import errno
import gzip
import io
import json
import os
import re
import stat
import zlib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Iterable, Iterator

from .records import METADATA_FIELDS, Record, Skipped, Source, clean_text

SUFFIXES = {".txt": "seed", ".jsonl": "jsonl", ".ndjson": "jsonl", ".csv": "csv"}
COMPRESSED = ".gz"  # any of SUFFIXES gzip-compressed: "iclr2026.jsonl.gz"
MAX_ABSTRACT_CHARS = 20_000  # the longest real abstracts are ~3,000 characters
MIN_ABSTRACT_CHARS = 40
MAX_FILE_BYTES = 1 << 30  # on disk, and once decompressed (a small gzip can hold a huge file)
MAX_LINE_CHARS = MAX_ABSTRACT_CHARS * 2
ENCODING_SAMPLE = 4 << 20
TOO_LONG = "\x00too-long"  # marks a block that held an over-long line
_BINARY_MAGIC = (b"\x89PNG", b"\xff\xd8\xff", b"GIF8", b"%PDF", b"PK\x03\x04", b"\x7fELF", b"\x1f\x8b")
_YEAR = re.compile(r"\b(19|20)\d{2}\b")
# OpenReview's forum ids ("00F7BfXLYJ"), and the fields only its exports have: a row with such an id, one of
# these fields and no url gets its forum page as its url.
_OPENREVIEW_ID = re.compile(r"[A-Za-z0-9_-]{8,14}")
_OPENREVIEW_FIELDS = ("forum", "primary_area", "submission_number", "number", "venueid", "invitation")
OPENREVIEW_FORUM = "https://openreview.net/forum?id={}"
_FIELD_ALIASES = {"openreview_url": "url", "tl;dr": "tldr"}  # other spellings of METADATA_FIELDS ("TLDR" is lowered)


@dataclass
class Parsed:
    records: list[Record] = field(default_factory=list)
    skipped: list[Skipped] = field(default_factory=list)
    files: list[Path] = field(default_factory=list)


def discover(paths: Iterable[Path | str]) -> tuple[list[Path], list[Skipped]]:
    """Expand folders into the supported files below them, in a stable order, and report every entry
    left out with its reason: other file types (grouped per type when there are many), what is not a
    regular file (FIFOs, sockets, devices), broken links, symlink loops and folders that cannot be read.
    Hidden entries (``.git``, ``.DS_Store``) are passed over silently."""
    files: list[Path] = []
    skipped: list[Skipped] = []
    for raw in paths:
        path = Path(raw).expanduser()
        problem = _entry_problem(path)
        if problem:
            skipped.append(Skipped(str(path), problem))
        elif path.is_dir():
            found: list[Path] = []
            other_types: dict[str, list[Path]] = {}
            _walk(path, found, other_types, skipped, seen=set())
            skipped.extend(_grouped(path, other_types))
            if not found:
                skipped.append(Skipped(str(path), "folder holds no .txt, .jsonl or .csv files"))
            files.extend(sorted(found))
        elif file_kind(path):
            files.append(path)
        else:
            skipped.append(Skipped(str(path), _unsupported(_suffix(path))))
    return files, skipped


GROUP_OVER = 3  # more skipped files of one type than this are reported as one line


def _entry_problem(path: Path) -> str | None:
    """Why ``path`` cannot be read as a file or folder of abstracts, or None."""
    try:
        mode = path.stat().st_mode
    except FileNotFoundError:
        return "broken symbolic link: its target does not exist" if path.is_symlink() else \
            "no such file or folder; check the path"
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            return "symlink loop: the link points back to itself; fix or remove it"
        return f"cannot read it ({exc.strerror or exc})"
    if stat.S_ISDIR(mode) or stat.S_ISREG(mode):
        return None
    kind = "a FIFO" if stat.S_ISFIFO(mode) else "a socket" if stat.S_ISSOCK(mode) else "a device"
    return f"not a regular file ({kind}); name a .txt, .jsonl or .csv file"


def _walk(folder: Path, found: list[Path], other_types: dict[str, list[Path]], skipped: list[Skipped],
          seen: set[tuple[int, int]]) -> None:
    """Collect the supported files below ``folder``. Folder links are followed once: a folder already
    seen on this walk (a link back up the tree) is reported as a loop rather than walked again."""
    try:
        info = folder.stat()
        entries = sorted(os.scandir(folder), key=lambda e: e.name)
    except OSError as exc:
        skipped.append(Skipped(str(folder), f"cannot read folder ({exc.strerror or exc}); check its permissions"))
        return
    if (info.st_dev, info.st_ino) in seen:
        skipped.append(Skipped(str(folder), "symlink loop: it leads back to a folder above it; not read twice"))
        return
    seen = seen | {(info.st_dev, info.st_ino)}
    for entry in entries:
        if entry.name.startswith("."):
            continue
        path = Path(entry.path)
        problem = _entry_problem(path)
        if problem:
            skipped.append(Skipped(str(path), problem))
        elif path.is_dir():
            _walk(path, found, other_types, skipped, seen)
        elif file_kind(path):
            found.append(path)
        else:
            other_types.setdefault(_suffix(path), []).append(path)


def _grouped(folder: Path, other_types: dict[str, list[Path]]) -> list[Skipped]:
    out: list[Skipped] = []
    for suffix, paths in sorted(other_types.items()):
        if len(paths) <= GROUP_OVER:
            out.extend(Skipped(str(p), _unsupported(suffix)) for p in paths)
            continue
        names = ", ".join(p.name for p in paths[:GROUP_OVER])
        label = suffix or "extensionless"
        out.append(Skipped(str(folder), f"{len(paths)} {label} files skipped ({names}, …): {_unsupported(suffix)}"))
    return out


def _unsupported(suffix: str) -> str:
    return (f"unsupported file type {suffix or '(no extension)'}: export abstracts as .txt, .jsonl or .csv "
            "(or gzip one: .jsonl.gz)")


def file_kind(path: Path) -> str | None:
    """"seed", "jsonl" or "csv" for a file of a supported type, compressed or not; None for any other."""
    return SUFFIXES.get(_inner_suffix(path))


def _compressed(path: Path) -> bool:
    return path.suffix.lower() == COMPRESSED


def _inner_suffix(path: Path) -> str:
    """The suffix of the format: ".jsonl" for both "a.jsonl" and "a.jsonl.gz"."""
    return Path(path.stem).suffix.lower() if _compressed(path) else path.suffix.lower()


def _suffix(path: Path) -> str:
    """The suffix a file is reported by: ".pdf", ".pdf.gz"."""
    return _inner_suffix(path) + COMPRESSED if _compressed(path) else path.suffix.lower()


class _TooBig(Exception):
    """A compressed file that decompresses to over MAX_FILE_BYTES."""


class _Capped(io.RawIOBase):
    """A decompressed stream that stops with ``_TooBig`` past ``limit`` bytes, so a gzip bomb is refused
    part way rather than filling memory or the disk."""

    def __init__(self, raw, limit: int) -> None:
        self._raw, self._left = raw, limit

    def readable(self) -> bool:
        return True

    def readinto(self, buffer) -> int:
        count = self._raw.readinto(buffer)
        self._left -= count
        if self._left < 0:
            raise _TooBig
        return count

    def close(self) -> None:
        self._raw.close()
        super().close()


def _opener(path: Path) -> Callable[[], io.BufferedIOBase]:
    """How to open ``path`` for its bytes, decompressed when it is gzipped."""
    if _compressed(path):
        return lambda: io.BufferedReader(_Capped(gzip.open(path, "rb"), MAX_FILE_BYTES))
    return lambda: path.open("rb")


# What a corrupt or cut-short gzip raises while it is read (zlib.error for bad data, EOFError when cut short).
_GZIP_ERRORS = (gzip.BadGzipFile, EOFError, zlib.error)


def parse_paths(paths: Iterable[Path | str]) -> Parsed:
    files, skipped = discover(paths)
    out = Parsed(skipped=skipped)
    for path in files:
        records, problems = parse_file(path)
        out.records.extend(records)
        out.skipped.extend(problems)
        if records:
            out.files.append(path)
    return out


def parse_file(path: Path, display_name: str | None = None) -> tuple[list[Record], list[Skipped]]:
    """Parse one file (gzipped or not); never raises for bad content."""
    name = display_name or path.name
    open_bytes = _opener(path)
    try:
        size = path.stat().st_size
        if size == 0:
            return [], [Skipped(str(path), "file is empty")]
        if size > MAX_FILE_BYTES:
            return [], [Skipped(str(path), f"file is {size >> 20} MB; split it into files under {MAX_FILE_BYTES >> 20} MB")]
        with open_bytes() as fh:
            head = fh.read(8192)
    except _GZIP_ERRORS as exc:
        return [], [Skipped(str(path), _gzip_problem(exc, 0))]
    except _TooBig:
        return [], [Skipped(str(path), _too_big_decompressed(0))]
    except OSError as exc:
        return [], [Skipped(str(path), f"cannot read file: {exc.strerror or exc}")]
    if not head:
        return [], [Skipped(str(path), "file is empty once decompressed")]
    problem = _binary_problem(head, compressed=_compressed(path))
    if problem:
        return [], [Skipped(str(path), problem)]
    kind = file_kind(path) or "seed"
    source_path = str(path.resolve())
    records: list[Record] = []
    problems: list[str] = []
    position = 0
    try:
        encoding = _detect_encoding(open_bytes, head)
        with io.TextIOWrapper(open_bytes(), encoding=encoding, errors="replace", newline="") as text:
            reader = {"seed": _seed, "jsonl": _jsonl, "csv": _csv}[kind]
            for item in reader(text):
                if isinstance(item, str):
                    problems.append(item)
                    continue
                position, abstract, metadata = item
                where = f"line {position}" if kind != "seed" else f"block {position}"
                if TOO_LONG in abstract or len(abstract) > 2 * MAX_ABSTRACT_CHARS:
                    problems.append(f"{where} is over {MAX_ABSTRACT_CHARS:,} characters, longer than any abstract; "
                                    "split it or fix the separators")
                    continue
                abstract = clean_text(abstract)
                if len(abstract) > MAX_ABSTRACT_CHARS:
                    problems.append(f"{where} is {len(abstract):,} characters, longer than any abstract "
                                    f"(limit {MAX_ABSTRACT_CHARS:,}); split it or fix the separators")
                    continue
                if len(abstract) < MIN_ABSTRACT_CHARS:
                    if kind != "seed" or abstract:
                        problems.append(f"{where} has no abstract text (under {MIN_ABSTRACT_CHARS} characters)")
                    continue
                records.append(Record(abstract, Source(name, source_path, position), metadata))
    except _GZIP_ERRORS as exc:  # what was read before the damage is kept; the file is not authoritative
        problems.append(_gzip_problem(exc, position))
    except _TooBig:
        problems.append(_too_big_decompressed(position))
    skipped = []
    if problems:
        shown = "; ".join(problems[:5]) + (f"; and {len(problems) - 5} more" if len(problems) > 5 else "")
        skipped.append(Skipped(str(path), shown))
    if not records and not problems:
        skipped.append(Skipped(str(path), "no abstracts found (file holds only whitespace or a header)"))
    return records, skipped


def _gzip_problem(exc: BaseException, position: int) -> str:
    after = f" after line {position}" if position else ""
    return (f"the gzip data is corrupt or cut short{after} ({exc or type(exc).__name__}); "
            "download or compress the file again")


def _too_big_decompressed(position: int) -> str:
    after = f" (stopped after line {position})" if position else ""
    return (f"file decompresses to over {MAX_FILE_BYTES >> 20} MB{after}; "
            f"split it into files under {MAX_FILE_BYTES >> 20} MB")


def _binary_problem(head: bytes, compressed: bool = False) -> str | None:
    if head.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        return None
    if head.startswith(b"\x1f\x8b") and not compressed:
        return "gzip-compressed, but not named so; add .gz to its name (papers.jsonl.gz) or decompress it"
    if head.startswith(_BINARY_MAGIC):
        return "binary file (image, PDF or archive), not text; export the abstracts as .txt, .jsonl or .csv"
    controls = sum(1 for b in head if b < 32 and b not in (9, 10, 13, 12)) + head.count(127)
    if head and controls / len(head) > 0.05:
        return "binary file (control bytes), not text; export the abstracts as .txt, .jsonl or .csv"
    return None


def _detect_encoding(open_bytes: Callable[[], io.BufferedIOBase], head: bytes) -> str:
    """UTF-8 (with or without BOM) or UTF-16 with a BOM; legacy cp1252 when the bytes are not UTF-8.

    A UTF-8 file with a few broken bytes stays UTF-8 (the bad bytes become U+FFFD); a file
    with no valid multi-byte UTF-8 at all but bytes over 0x7F is read as cp1252.
    """
    if head.startswith(codecs.BOM_UTF8):
        return "utf-8-sig"
    if head.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        return "utf-16"
    sample = bytearray()
    with open_bytes() as fh:
        try:  # in pieces, so a gzip cut short still gives what comes before the cut
            while len(sample) < ENCODING_SAMPLE and (piece := fh.read(1 << 16)):
                sample += piece
        except (*_GZIP_ERRORS, _TooBig):
            pass  # reported where the text is read
    sample = bytes(sample)
    decoded = sample.decode("utf-8", errors="replace")
    bad = decoded.count("\ufffd") - sample.decode("utf-8", errors="ignore").count("\ufffd")
    if bad == 0:
        return "utf-8"
    good_multibyte = sum(1 for ch in decoded if ord(ch) > 0x7F and ch != "\ufffd")
    return "utf-8" if good_multibyte > bad else "cp1252"


def _lines(text: io.TextIOBase) -> Iterator[str | None]:
    """Lines of the text; ``None`` for a line too long to be part of an abstract, which is
    consumed in pieces and never held whole, so one huge line cannot exhaust memory."""
    while True:
        line = text.readline(MAX_LINE_CHARS)
        if not line:
            return
        if len(line) >= MAX_LINE_CHARS and not line.endswith("\n"):
            while (rest := text.readline(MAX_LINE_CHARS)) and not rest.endswith("\n"):
                pass
            yield None
            continue
        yield line


def _seed(text: io.TextIOBase) -> Iterator[tuple[int, str, dict] | str]:
    lines: list[str] = []
    position = 0
    first = True
    header: dict[str, str] = {}
    for raw in _lines(text):
        line = TOO_LONG if raw is None else raw.strip()
        if line:
            lines.append(line)
            continue
        if lines:
            if first and len(lines) == 1 and _looks_like_header(lines[0]):
                header = _header_metadata(lines[0])
            else:
                position += 1
                yield position, " ".join(lines), dict(header)
            first = False
            lines = []
    if lines:
        position += 1
        yield position, " ".join(lines), dict(header)


def _looks_like_header(line: str) -> bool:
    return len(line) < 120 and not line.rstrip().endswith(".")


def _header_metadata(line: str) -> dict[str, str]:
    """'ICLR 2026 Papers' -> venue 'ICLR 2026', year '2026'."""
    meta: dict[str, str] = {}
    year = _YEAR.search(line)
    if year:
        meta["year"] = year.group(0)
        meta["venue"] = line[: year.end()].strip()
    return meta


def _unwrapped(raw):
    """A field's value, out of OpenReview API v2's ``{"value": ...}`` wrapper."""
    return raw["value"] if isinstance(raw, dict) and "value" in raw else raw


def _value(raw) -> str:
    raw = _unwrapped(raw)
    if raw is None:
        return ""
    if isinstance(raw, (list, tuple)):
        return ", ".join(_value(x) for x in raw if _value(x))
    return clean_text(str(raw))


def keywords(raw) -> list[str]:
    """The keywords of a row as a list: given as a list (whose items may hold several joined by ";", as 1,384
    ICLR 2026 papers' do: ["Reinforcement Learning; Signal Temporal Logic"]) or as one string joined by ";"
    or, when it holds no ";", by ","."""
    raw = _unwrapped(raw)
    if raw is None:
        return []
    if isinstance(raw, (list, tuple)):
        items = [part for item in raw for part in _value(item).split(";")]
    else:
        text = _value(raw)
        items = text.split(";" if ";" in text else ",")
    return list(dict.fromkeys(item.strip() for item in items if item.strip()))


def _fields(row: dict) -> tuple[str | None, dict]:
    note = isinstance(row.get("content"), dict)
    if note:  # OpenReview note: fields live under "content"
        row = {**{k: v for k, v in row.items() if k != "content"}, **row["content"]}
    lowered = {str(k).strip().lower(): v for k, v in row.items() if k is not None}
    for other, name in _FIELD_ALIASES.items():
        if other in lowered and not _value(lowered.get(name)):
            lowered[name] = lowered[other]
    if "abstract" not in lowered:
        return None, {}
    metadata: dict = {k: _value(lowered[k]) for k in METADATA_FIELDS if k in lowered and _value(lowered[k])}
    if "keywords" in lowered:
        metadata.pop("keywords", None)
        if found := keywords(lowered["keywords"]):
            metadata["keywords"] = found
    forum = _value(lowered.get("forum")) or metadata.get("id", "")
    if "url" not in metadata and _OPENREVIEW_ID.fullmatch(forum) and (note or any(k in lowered for k in _OPENREVIEW_FIELDS)):
        metadata["url"] = OPENREVIEW_FORUM.format(forum)
    if "year" not in metadata and (year := _YEAR.search(metadata.get("venue", ""))):  # a note's "ICLR 2026 Poster"
        metadata["year"] = year.group(0)
    return _value(lowered["abstract"]), metadata


def _jsonl(text: io.TextIOBase) -> Iterator[tuple[int, str, dict] | str]:
    for number, line in enumerate(_lines(text), 1):
        if line is None:
            yield f"line {number} is over {MAX_LINE_CHARS:,} characters, longer than any abstract"
            continue
        if not line.strip():
            continue
        try:
            row = json.loads(line)
        except ValueError:
            yield f"line {number} is not valid JSON"
            continue
        if not isinstance(row, dict):
            yield f"line {number} is not a JSON object"
            continue
        abstract, metadata = _fields(row)
        if abstract is None:
            yield f"line {number} has no 'abstract' field"
            continue
        yield number, abstract, metadata


def _csv(text: io.TextIOBase) -> Iterator[tuple[int, str, dict] | str]:
    csv.field_size_limit(MAX_ABSTRACT_CHARS * 4)
    bounded = (f'"{TOO_LONG}"\n' if line is None else line for line in _lines(text))
    reader = csv.DictReader(bounded)
    try:
        header = reader.fieldnames or []
    except csv.Error as exc:
        yield f"header row is not valid CSV ({exc})"
        return
    if "abstract" not in {str(h).strip().lower() for h in header}:
        yield f"no 'abstract' column (columns: {', '.join(map(str, header))[:200]}); add one"
        return
    while True:
        try:
            row = next(reader)
        except StopIteration:
            return
        except csv.Error as exc:
            yield f"line {reader.line_num}: {exc}"
            continue
        if any(TOO_LONG in str(v) for v in row.values()):
            yield f"line {reader.line_num} is over {MAX_LINE_CHARS:,} characters, longer than any abstract"
            continue
        abstract, metadata = _fields(row)
        yield reader.line_num, abstract or "", metadata
