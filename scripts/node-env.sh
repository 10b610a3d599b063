#!/usr/bin/env bash
# Installs the Node.js packages the tests use, each from its lockfile: the TypeScript MCP SDK
# as a real outside client (tests/mcp/ts-client/, about 30 MB) and the independent judge of
# written notes (tests/judge/: markdown-it, its footnote plugin, parse5, yaml; under 5 MB),
# seconds with a warm npm cache. Idempotent: a folder whose packages were installed after its
# lockfile last changed is left as it is.
set -euo pipefail
command -v npm >/dev/null || { echo "node-env.sh: npm is not installed; the TypeScript MCP client test and the hostile-corpus judge need Node.js 18+ and npm" >&2; exit 1; }
root="$(dirname "$0")/.."
for dir in tests/mcp/ts-client tests/judge; do
  (
    cd "$root/$dir"
    if [[ node_modules/.package-lock.json -nt package-lock.json ]]; then
      exit 0
    fi
    npm ci --no-audit --no-fund --ignore-scripts --loglevel=error
  )
done
