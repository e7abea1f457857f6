"""The packages import one way: foundation (assistant/ settings, errors, records, store, embedder, BM25)
<- ingest/ <- the facade (``Assistant``, search and answers) <- ui/.

Read from the source (every import, at the top of a module or inside a function), so a lazy import
that breaks the stack fails here too. The facade calling ``ingest`` is allowed: it sits above it.
"""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

from .conftest import ROOT

# The assistant modules above ingest/. Every other module of assistant/ is foundation, so a new one
# starts at the bottom of the stack until it is named here.
FACADE = {"assistant", "assistant.core", "assistant.search", "assistant.answer", "assistant.conversation",
          "assistant.evidence", "assistant.llm", "assistant.evaluation", "assistant.batch", "assistant.retriever",
          "assistant.plan", "assistant.plan_proposal", "assistant.selection", "assistant.comparison",
          "assistant.synthesis", "assistant.concepts", "assistant.reading.question_forms", "assistant.reading.question_text",
          "assistant.reading.contributions_asked"}
ENTRY_POINTS = {"assistant.__main__"}  # `python -m assistant`: the command line, above every layer


def layer(module: str) -> int:
    """0 foundation, 1 ingest, 2 facade, 3 ui; -1 for anything outside the project."""
    top = module.split(".")[0]
    if top == "ui":
        return 3
    if top == "ingest":
        return 1
    if top == "assistant":
        return 2 if module in FACADE or module in ENTRY_POINTS else 0
    return -1


def imports(source: str, module: str, is_package: bool = False) -> set[str]:
    """Every project module ``module``'s source imports, relative imports resolved."""
    package = module if is_package else module.rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = package.split(".")[:len(package.split(".")) - node.level + 1]
                base = ".".join(parts + ([base] if base else []))
            # `from assistant import schema` imports assistant.schema; `from assistant import Assistant`, the package
            for alias in node.names:
                module_named = f"{base}.{alias.name}"
                found.add(module_named if _module_file(module_named) is not None else base)
    return {name for name in found if layer(name) >= 0}


def _module_file(module: str) -> Path | None:
    path = ROOT.joinpath(*module.split("."))
    for candidate in (path.with_suffix(".py"), path / "__init__.py"):
        if candidate.exists():
            return candidate
    return None


def violations(module: str, imported: set[str]) -> list[str]:
    here = layer(module)
    if module in ENTRY_POINTS:
        return []
    wrong = []
    for name in sorted(imported):
        there = layer(name)
        # the facade may call ingest (Assistant.ingest); nothing else imports a layer above its own
        if there > here and not (here == 2 and there == 1):
            wrong.append(f"{module} imports {name}")
        elif here == 1 and there == 2:
            wrong.append(f"{module} (ingest) imports the facade {name}")
    return wrong


def project_modules() -> dict[str, Path]:
    modules = {}
    for package in ("assistant", "ingest", "ui"):
        for path in sorted((ROOT / package).glob("*.py")):
            name = package if path.stem == "__init__" else f"{package}.{path.stem}"
            modules[name] = path
    return modules


def test_every_import_goes_down_the_stack():
    wrong = []
    for module, path in project_modules().items():
        found = imports(path.read_text(), module, is_package=path.name == "__init__.py")
        wrong += violations(module, found - {module})
    assert not wrong, "imports against the layers:\n" + "\n".join(wrong)


def test_no_module_imports_another_modules_private_names():
    """What two modules share is public (ui/cli_common.py for the CLI's commands), never ``_name``."""
    wrong = []
    for module, path in project_modules().items():
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom) and (node.level or layer(node.module or "") >= 0):
                wrong += [f"{module} imports {alias.name} from {'.' * node.level}{node.module or ''}"
                          for alias in node.names if alias.name.startswith("_") and not alias.name.startswith("__")]
    assert not wrong, "\n".join(wrong)


def test_the_contract_catches_an_import_up_the_stack():
    """The checker itself: each kind of wrong import is found, and the allowed ones are not."""
    assert violations("assistant.store", imports("from ingest.pipeline import ingest_paths", "assistant.store"))
    assert violations("assistant.lexical", imports("def f():\n    from .core import Assistant", "assistant.lexical"))
    assert violations("assistant.settings", imports("from assistant import Assistant", "assistant.settings"))
    assert violations("ingest.pipeline", imports("from assistant.search import focus", "ingest.pipeline"))
    assert violations("ingest.pipeline", imports("import ui.cli", "ingest.pipeline"))
    assert violations("assistant.core", imports("from ui.web import serve", "assistant.core"))
    assert not violations("assistant.core", imports("from ingest.pipeline import ingest_paths", "assistant.core"))
    assert not violations("ingest.pipeline", imports("from assistant.store import Store", "ingest.pipeline"))
    assert not violations("ui.cli", imports("from assistant import Assistant", "ui.cli"))
    assert not violations("ingest.pipeline", imports("from assistant import schema", "ingest.pipeline"))


def test_importing_the_core_and_ingest_loads_no_front_end():
    """At run time too: every module below ui/, imported, leaves ``ui`` unloaded."""
    below = [name for name in project_modules() if layer(name) < 3 and name not in ENTRY_POINTS]
    code = ("import importlib, sys\n"
            f"for name in {below!r}: importlib.import_module(name)\n"
            "front = sorted(m for m in sys.modules if m.split('.')[0] == 'ui')\n"
            "assert not front, f'loaded {front}'")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert done.returncode == 0, done.stderr


def test_python_dash_m_assistant_runs_the_command_line():
    done = subprocess.run([sys.executable, "-m", "assistant", "--help"], capture_output=True, text=True, cwd=ROOT,
                          timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("Usage: assistant")
