#!/usr/bin/env bash
# Parity of the WebAssembly engine with the native one: for every note of vault-fixture/ and
# of the vendored real vault, the offline summary (with and without section citations) and
# what the output policy lets into the note, computed by the same functions built natively
# (crates/vaultsum-wasm/examples/parity_dump.rs) and built as WebAssembly, run in Node
# (crates/vaultsum-wasm/parity.mjs). The two outputs must be equal byte for byte.
set -euo pipefail
cd "$(dirname "$0")/.."
export CARGO_TERM_COLOR=never
bash scripts/wasm-build.sh
vaults=(vault-fixture tests/data/obsidian-tasks-docs)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cargo build -q --locked --release -p vaultsum-wasm --example parity_dump
native=target/release/examples/parity_dump
t0=$(date +%s%N)
"$native" "${vaults[@]}" >"$work/native" 2>"$work/native.time"
t1=$(date +%s%N)
node crates/vaultsum-wasm/parity.mjs "$PWD/target/wasm-pkg/node" "${vaults[@]}" >"$work/wasm" 2>"$work/wasm.time"
t2=$(date +%s%N)
notes=$(grep -c '^==> ' "$work/native" || true)
[[ $notes -gt 100 ]] || { echo "wasm-parity: only $notes notes found" >&2; exit 1; }
if ! cmp -s "$work/native" "$work/wasm"; then
  echo "wasm-parity: FAIL: the WebAssembly engine's output differs from the native one's:" >&2
  diff "$work/native" "$work/wasm" | head -40 >&2
  exit 1
fi
cat "$work/native.time" "$work/wasm.time"
echo "wasm-parity: $notes notes, byte-identical ($(wc -c <"$work/native") bytes); native $(((t1 - t0) / 1000000)) ms, Node + WebAssembly $(((t2 - t1) / 1000000)) ms (including Node's start and the module's instantiation)"
