"""Give freed heap memory back to the system (glibc only; a no-op elsewhere): between ingest windows and BM25 batches.

Why this exists: Chroma's embedded client (Rust, with hnswlib in C++) grows its vector index by
allocating a larger block and freeing the old one, and every window frees the previous window's
texts, tokens and vectors. glibc keeps such freed memory inside its heaps, where it still counts
as resident; nothing in Python or chromadb asks for it back. ``malloc_trim(0)`` returns the free
pages of every heap to the kernel.
"""

from __future__ import annotations

import ctypes
import ctypes.util
from functools import lru_cache


@lru_cache(maxsize=1)
def _malloc_trim():
    name = ctypes.util.find_library("c")
    try:
        trim = ctypes.CDLL(name).malloc_trim if name else None
    except (OSError, AttributeError):  # not glibc (musl, macOS): nothing to do
        return None
    if trim is not None:
        trim.argtypes, trim.restype = [ctypes.c_size_t], ctypes.c_int
    return trim


def release_free_memory() -> None:
    trim = _malloc_trim()
    if trim is not None:
        trim(0)
