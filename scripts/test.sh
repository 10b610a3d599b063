#!/usr/bin/env bash
# The test command of the README: sets up the Python and TypeScript MCP clients the MCP tests
# drive the server with (a virtualenv in .venv/ from PyPI; tests/mcp/ts-client/node_modules
# from npm), then runs every Rust test.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/python-env.sh
bash scripts/node-env.sh
# vendor/pdf_oxide is pdf_oxide's code: its own tests are not vaultsum's (vendor/VENDORED.md).
cargo test --locked --workspace --exclude vaultsum-pdf "$@"
