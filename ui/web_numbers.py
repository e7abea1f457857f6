"""The whole numbers the page and the API read from their callers (``k``, ``page``): one parser, one refusal."""

from __future__ import annotations

import re
import reprlib
from typing import Any

from assistant.errors import InputError

_WHOLE = re.compile(r"[+-]?\d{1,12}(?:\.0*)?")  # "5", "+5", "5.0": JSON clients (MCP) may send 5.0


def whole_number(value: Any, name: str, most: int, *, default: int, what: str) -> int:
    """``value`` as a whole number from 1 to ``most``: an int, or a float or text that is one (5.0, "5",
    " 5.0 "); left out (None or blank text) it is ``default``. Anything else is an InputError naming
    ``name`` (``what`` it is), its range and the fix."""
    if value is None or (isinstance(value, str) and not value.strip()):
        return default
    number = None
    if isinstance(value, int) and not isinstance(value, bool):
        number = value
    elif isinstance(value, float) and value.is_integer():
        number = int(value)
    elif isinstance(value, str) and _WHOLE.fullmatch(value.strip()):
        number = int(value.strip().split(".")[0])
    if number is not None and 1 <= number <= most:
        return number
    fix = f"Pass a whole number from 1 to {most:,}, or leave {name} out for {default:,}."
    if isinstance(value, dict) or (isinstance(value, str) and "=" in value):
        fix += " Filters go in `where`."
    raise InputError(f"{name}={reprlib.repr(value)} is not {what}.", fix)
