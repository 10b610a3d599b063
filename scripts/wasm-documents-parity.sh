#!/usr/bin/env bash
# Parity of the WebAssembly module's document reader with the native binary's: every document
# file of the repository (PDF, DOCX, PPTX, XLSX, ODS, CSV, TSV, canvas; build output and
# node_modules left out), each PDF also as its page 1 and page 2, extracted the way the binary
# extracts an embed (crates/vaultsum-wasm/examples/documents_dump.rs:
# `MediaDescriber::extract_document`, pages on several threads, under the time limit) and by
# the module's `extractDocument` in Node (crates/vaultsum-wasm/documents-parity.mjs: the same
# extractors, pages one by one, no time limit). The two outputs, `{"text": …}` or
# `{"error": …}` for each, must be equal byte for byte. The two extractions take about a second
# together; the builds take the rest (each a few minutes on 2 cores when the other toolchain's
# build ran in between: wasm-build.sh builds with its own toolchain and shares the host
# artifacts in target/release with the native example).
set -euo pipefail
cd "$(dirname "$0")/.."
export CARGO_TERM_COLOR=never
bash scripts/wasm-build.sh
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cargo build -q --locked --release -p vaultsum-wasm --example documents_dump
native=target/release/examples/documents_dump
files=()
while IFS= read -r -d '' file; do files+=("${file#./}"); done < <(
  find . \( -path ./target -o -name node_modules -o -name .git \) -prune -o -type f \
    \( -iname '*.pdf' -o -iname '*.docx' -o -iname '*.pptx' -o -iname '*.xlsx' -o -iname '*.ods' \
    -o -iname '*.csv' -o -iname '*.tsv' -o -iname '*.canvas' \) -print0 | sort -z)
[[ ${#files[@]} -gt 30 ]] || { echo "wasm-documents-parity: only ${#files[@]} documents found" >&2; exit 1; }
t0=$(date +%s%N)
"$native" "${files[@]}" >"$work/native" 2>"$work/native.time"
t1=$(date +%s%N)
node crates/vaultsum-wasm/documents-parity.mjs "$PWD/target/wasm-pkg/node" "${files[@]}" >"$work/wasm" 2>"$work/wasm.time"
t2=$(date +%s%N)
extractions=$(grep -c '^==> ' "$work/native" || true)
texts=$(grep -c '^{"text":' "$work/native" || true)
if ! cmp -s "$work/native" "$work/wasm"; then
  echo "wasm-documents-parity: FAIL: the WebAssembly module's text differs from the native binary's:" >&2
  diff "$work/native" "$work/wasm" | cut -c1-300 | head -40 >&2
  exit 1
fi
cat "$work/native.time" "$work/wasm.time"
echo "wasm-documents-parity: ${#files[@]} documents, $extractions extractions ($texts texts, $((extractions - texts)) errors), byte-identical ($(wc -c <"$work/native") bytes); native $(((t1 - t0) / 1000000)) ms, Node + WebAssembly $(((t2 - t1) / 1000000)) ms (processes included)"
