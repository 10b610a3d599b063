#!/usr/bin/env bash
# Creates .venv-mcp/ at the repository root with the Python `mcp` package, the real MCP client
# (and the baseline server of the cold-start benchmark) used by tests/mcp_python_client.rs and
# benches/mcp_cold_start.rs. Idempotent: an existing venv with `mcp` importable is kept.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
venv="$root/.venv-mcp"
python="${PYTHON:-python3}"
if [ -x "$venv/bin/python" ] && "$venv/bin/python" -c 'import mcp' 2>/dev/null; then
  echo "setup-venv: $venv already has mcp $("$venv/bin/python" -c 'import importlib.metadata as m; print(m.version("mcp"))')" >&2
  exit 0
fi
"$python" -m venv "$venv"
"$venv/bin/python" -m pip install --quiet --disable-pip-version-check "mcp>=1.9,<3" "httpx>=0.27"
echo "setup-venv: installed mcp $("$venv/bin/python" -c 'import importlib.metadata as m; print(m.version("mcp"))') into $venv" >&2
