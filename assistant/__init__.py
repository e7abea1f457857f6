"""A local research assistant over paper abstracts: search them, and answer with checkable citations."""

from .core import Assistant
from .errors import (AssistantError, ConfigError, InputError, LLMError, ModelMismatchError, StoreBusyError,
                     StoreError)
from .results import PaperHit
from .settings import Settings

__all__ = ["Assistant", "AssistantError", "ConfigError", "InputError", "LLMError", "ModelMismatchError",
           "PaperHit", "Settings", "StoreBusyError", "StoreError"]
