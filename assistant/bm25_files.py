"""The BM25 index on disk, in one folder: ``manifest.json`` (format, revision, segment names, deleted rows),
``vocab.json`` (terms; a term's position is its id, only ever appended) and ``seg-*.npz`` (term counts
as a sparse docs x terms matrix, with the papers' ids and titles). Each file is replaced whole, and
the manifest last, so a reader sees one version of the index or the one before.
"""

from __future__ import annotations

import json
import os
import shutil
import zipfile
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
from scipy import sparse

from .locks import replacing, write_atomic

FORMAT = 5  # 3: compound words also indexed by their parts (bm25_tokens.with_parts); 4: hyphenated ones whole;
# 5: a title's coined name also in its plain spellings (latex.search_forms), and the keyword field's own index


@dataclass
class Segment:
    name: str
    counts: sparse.csr_matrix  # docs x terms (columns may be fewer than the vocabulary)
    ids: list[str]
    titles: list[str]
    deleted: set[int] = field(default_factory=set)  # rows of papers removed or retitled since

    def live(self) -> list[int]:
        return [row for row in range(len(self.ids)) if row not in self.deleted]

    def save(self, folder: Path) -> None:
        with replacing(folder / f"{self.name}.npz") as partial, partial.open("wb") as out:
            np.savez(out, data=self.counts.data, indices=self.counts.indices, indptr=self.counts.indptr,
                     shape=np.asarray(self.counts.shape), ids=np.asarray(self.ids, dtype=str),
                     titles=np.asarray(self.titles, dtype=str))

    @classmethod
    def new(cls, counts: sparse.csr_matrix, ids: list[str], titles: list[str]) -> "Segment":
        return cls(f"seg-{os.urandom(6).hex()}", counts, ids, titles)

    @classmethod
    def load(cls, folder: Path, name: str) -> "Segment":
        with np.load(folder / f"{name}.npz") as z:
            counts = sparse.csr_matrix((z["data"], z["indices"], z["indptr"]), shape=tuple(z["shape"]))
            return cls(name, counts, z["ids"].tolist(), z["titles"].tolist())


def read_manifest(folder: Path) -> dict:
    """The folder's manifest; {} when there is none, or of another format."""
    try:
        manifest = json.loads((folder / "manifest.json").read_text())
        return manifest if manifest.get("format") == FORMAT else {}
    except (OSError, ValueError):
        return {}


def read_index(folder: Path, manifest: dict) -> tuple[dict[str, int], list[Segment]] | None:
    """The vocabulary (term -> id) and segments ``manifest`` names; None when they are damaged."""
    try:
        terms = json.loads((folder / "vocab.json").read_text())
        segments = [Segment.load(folder, name) for name in manifest["segments"]]
        for seg in segments:
            seg.deleted = set(manifest.get("deleted", {}).get(seg.name, []))
    except (OSError, ValueError, KeyError, EOFError, zipfile.BadZipFile):
        return None
    return {term: i for i, term in enumerate(terms)}, segments


def write_index(folder: Path, revision: str, vocab: dict[str, int], segments: list[Segment]) -> None:
    """Write what is new, then the manifest, then drop the segments it no longer names."""
    names = {seg.name for seg in segments}
    for seg in segments:
        if not (folder / f"{seg.name}.npz").exists():
            seg.save(folder)
    terms = [""] * len(vocab)
    for term, i in vocab.items():
        terms[i] = term
    write_atomic(folder / "vocab.json", json.dumps(terms))
    manifest = {"format": FORMAT, "revision": revision, "segments": [seg.name for seg in segments],
                "deleted": {seg.name: sorted(seg.deleted) for seg in segments if seg.deleted},
                "papers": sum(len(seg.ids) - len(seg.deleted) for seg in segments)}
    write_atomic(folder / "manifest.json", json.dumps(manifest))
    for path in folder.glob("seg-*.npz"):  # merged away
        if path.stem not in names:
            path.unlink(missing_ok=True)


def clear(folder: Path) -> None:
    """Empty the folder but for its lock file."""
    for path in folder.iterdir():
        if path.name != ".lock":
            shutil.rmtree(path) if path.is_dir() else path.unlink()
