"""A tqdm progress bar on stderr, shown only on a terminal, fed by the library's progress callbacks."""

from __future__ import annotations

import sys
from contextlib import contextmanager


@contextmanager
def progress_bar():
    from tqdm import tqdm

    bars: dict[str, tqdm] = {}

    def update(done: int, total: int, stage: str) -> None:
        bar = bars.get(stage)
        if bar is None:
            bar = bars[stage] = tqdm(total=total, desc=stage, unit="paper" if stage != "reading" else "file",
                                     file=sys.stderr, disable=None, leave=False)
        bar.update(done - bar.n)

    try:
        yield update
    finally:
        for bar in bars.values():
            bar.close()
