"""Locks between processes, and files replaced whole: for the store's writer, the BM25 index and the ONNX export.

The locks are ``filelock``'s (``flock`` on Linux, released by the kernel when a process dies), held on
a file that stays in place, so every process locks the same inode.
"""

from __future__ import annotations

import os
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator

from filelock import FileLock, Timeout


class LockBusy(Exception):
    """Another process holds the lock and the caller chose not to wait."""


@contextmanager
def locked(path: Path, wait: bool = True) -> Iterator[None]:
    """Hold the lock file ``path`` (made if missing; its folder must exist) for the block.

    Other processes wait for it, or, when ``wait`` is off, this raises ``LockBusy`` at once.

    A process that may not write the lock file (a store shared read-only) holds nothing: it cannot
    write what the lock guards either, so it only reads, and what it reads is replaced whole
    (``replacing``); a write it then tries fails with its own PermissionError."""
    lock = FileLock(str(path))
    try:
        lock.acquire(timeout=-1 if wait else 0)
    except Timeout:
        raise LockBusy(str(path)) from None
    except PermissionError:
        yield
        return
    try:
        yield
    finally:
        lock.release()


@contextmanager
def replacing(target: Path) -> Iterator[Path]:
    """A path to write ``target``'s new content to; on success it replaces ``target`` in one step, so
    readers see the old file or the new one, never half of one. On failure the partial file goes.
    (``np.savez`` adds ``.npz`` to a path without it: give it an open file.)"""
    partial = target.with_name(f"{target.name}.{os.getpid()}.part")
    try:
        yield partial
        os.replace(partial, target)
    finally:
        partial.unlink(missing_ok=True)


def write_atomic(target: Path, text: str) -> None:
    """``target.write_text(text)``, replacing the file in one step (see ``replacing``)."""
    with replacing(target) as partial:
        partial.write_text(text)
