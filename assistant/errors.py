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
    def __init__(self, message: str, hint: str = "") -> None:
        super().__init__(message)
        self.message = message
        self.hint = hint

    def __str__(self) -> str:
        return f"{self.message} {self.hint}".strip() if self.hint else self.message


class ConfigError(AssistantError):
    pass


class StoreError(AssistantError):
    pass


class ModelMismatchError(StoreError):
    pass


class StoreBusyError(StoreError):
    pass


class InputError(AssistantError):
    pass


class LLMError(AssistantError):
    pass
