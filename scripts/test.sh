#!/usr/bin/env bash
# The test command of the README: sets up the Python MCP client the MCP tests drive the server
# with (a virtualenv in .venv/, from PyPI), then runs every Rust test.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/python-env.sh
cargo test --locked --workspace "$@"
