#!/usr/bin/env bash
# Creates .venv/ with the Python packages the tests use as real outside clients (the `mcp` SDK).
# Idempotent: does nothing when the venv already has them.
set -euo pipefail
cd "$(dirname "$0")/.."
if [[ -x .venv/bin/python ]] && .venv/bin/python -c 'import mcp' 2>/dev/null; then
  exit 0
fi
python3 -m venv .venv
.venv/bin/pip install -q --disable-pip-version-check -r scripts/requirements-test.txt
