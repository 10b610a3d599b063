#!/usr/bin/env bash
# Creates .venv/ with the Python packages the tests use as real outside clients (the `mcp` SDK).
# Idempotent: does nothing when the venv already has them.
set -euo pipefail
cd "$(dirname "$0")/.."
# The venv's interpreter: bin/python, or Scripts/python.exe on Windows (Git Bash).
venv_python() { if [[ -x .venv/Scripts/python.exe ]]; then echo .venv/Scripts/python.exe; else echo .venv/bin/python; fi; }
if [[ -x $(venv_python) ]] && "$(venv_python)" -c 'import mcp' 2>/dev/null; then
  exit 0
fi
"$(command -v python3 || command -v python)" -m venv .venv
"$(venv_python)" -m pip install -q --disable-pip-version-check -r scripts/requirements-test.txt
