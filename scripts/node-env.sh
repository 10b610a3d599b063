#!/usr/bin/env bash
# Installs the TypeScript MCP SDK the tests use as a real outside client
# (tests/mcp/ts-client/, from its lockfile; about 30 MB, seconds with a warm npm cache).
# Idempotent: does nothing when the packages were installed after the lockfile last changed.
set -euo pipefail
command -v npm >/dev/null || { echo "node-env.sh: npm is not installed; the TypeScript MCP client test needs Node.js 18+ and npm" >&2; exit 1; }
cd "$(dirname "$0")/../tests/mcp/ts-client"
if [[ node_modules/.package-lock.json -nt package-lock.json ]]; then
  exit 0
fi
npm ci --no-audit --no-fund --ignore-scripts --loglevel=error
