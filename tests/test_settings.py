"""Settings come from one place, and what the README and ``assistant.__all__`` say about them stays true."""

from __future__ import annotations

import dataclasses
import re
from pathlib import Path

import pytest

from assistant import Assistant, Settings

from .conftest import ROOT

NOT_SETTINGS = {"NO_COLOR"}  # read by the terminal front end itself, as the convention asks (no-color.org)
ALSO_READ_AS = {"ollama_host": "OLLAMA_HOST"}  # Ollama's own variable, which its users already set


def readme_settings() -> dict[str, str]:
    """Each variable of the README's configuration table, with its default as written there."""
    text = (ROOT / "README.md").read_text()
    table = text[text.index("## Configuration"):]
    table = table[:table.index("\n## ", 1)]
    rows = {}
    for line in table.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) < 3 or not cells[0].startswith("`"):
            continue
        names = re.findall(r"`([A-Z_]+)`", cells[0])
        defaults = [d.strip() for d in cells[1].split(" / ")] if len(names) > 1 else [cells[1]]
        assert len(defaults) == len(names), f"README row {line!r}: one default per variable"
        rows.update(zip(names, defaults))
    return rows


def written_default(f: dataclasses.Field) -> str | None:
    """A field's default as the README writes it; None for "unset" (a packaged model, say)."""
    value = f.default_factory() if f.default is dataclasses.MISSING else f.default
    if value is None:
        return None
    if isinstance(value, bool):
        return "`1`" if value else "`0`"
    if isinstance(value, float):
        return f"`{value:g}`"
    if isinstance(value, Path):
        return f"`{str(value).replace(str(Path.home()), '~', 1)}`"
    return f"`{value}`"


def test_the_readme_lists_every_setting_with_its_variable_and_default(monkeypatch):
    monkeypatch.delenv("XDG_DATA_HOME", raising=False)  # the defaults a user without it sees
    rows = readme_settings()
    fields = {ALSO_READ_AS.get(f.name, f"ASSISTANT_{f.name.upper()}"): f for f in dataclasses.fields(Settings)}
    assert set(fields) - set(rows) == set(), "settings the README does not list"
    assert set(rows) - set(fields) - NOT_SETTINGS == set(), "README rows that are no setting"
    for variable, f in fields.items():
        want = written_default(f)
        if want is None:
            assert rows[variable] == "unset" or rows[variable].startswith("packaged"), variable
        else:
            assert rows[variable] == want, variable


def test_the_model_cache_is_a_setting_and_the_assistant_uses_it(tmp_path):
    """The folder of the ONNX exports comes from Settings (ASSISTANT_MODEL_CACHE), as every setting does."""
    settings = Settings.from_env(env={"ASSISTANT_MODEL_CACHE": str(tmp_path / "models"),
                                      "ASSISTANT_HOME": str(tmp_path / "home")})
    assert settings.model_cache == tmp_path / "models"
    assert Assistant(settings).embedder.cache_dir == tmp_path / "models"
    default = Settings.from_env(env={"XDG_DATA_HOME": str(tmp_path / "data"), "ASSISTANT_HOME": str(tmp_path / "h")})
    assert default.model_cache == tmp_path / "data" / "research-assistant" / "models"


@pytest.mark.parametrize("name", __import__("assistant").__all__)
def test_every_public_name_exists_and_says_what_it_is(name):
    import assistant

    obj = getattr(assistant, name)  # AttributeError: __all__ names something that is not there
    doc = obj.__dict__.get("__doc__") if isinstance(obj, type) else obj.__doc__
    # a dataclass without a docstring gets its signature as one, which documents nothing
    assert doc and doc.strip() and not doc.startswith(f"{name}("), f"assistant.{name} has no docstring"
