"""Errors the assistant raises for things a user can fix.

    AssistantError            every expected failure; carries ``hint``, the fix
    ├── ConfigError           a setting has a bad value
    ├── StoreError            the vector store cannot be opened or used
    │   ├── ModelMismatchError  the store was built with another embedding model
    │   └── StoreBusyError      another process is writing to the store
    ├── InputError            a file or question the user gave cannot be used
    └── LLMError              the language model failed (not running, missing, cut off)

Front ends print ``str(error)`` (message and hint on one line) and exit non-zero;
nothing in this hierarchy should ever reach a user as a traceback.
"""

from __future__ import annotations


class AssistantError(Exception):
    """Every expected failure: ``message`` says what went wrong, ``hint`` how to fix it."""

    def __init__(self, message: str, hint: str = "") -> None:
        super().__init__(message)
        self.message = message
        self.hint = hint

    def __str__(self) -> str:
        return f"{self.message} {self.hint}".strip() if self.hint else self.message


class ConfigError(AssistantError):
    """A setting has a bad value."""


class StoreError(AssistantError):
    """The vector store cannot be opened or used."""


class ModelMismatchError(StoreError):
    """The store was built with another embedding model, chunking or schema."""


class StoreBusyError(StoreError):
    """Another process is writing to the store."""


class InputError(AssistantError):
    """A file or question the user gave cannot be used."""


class LLMError(AssistantError):
    """The language model failed (not running, missing, cut off)."""
