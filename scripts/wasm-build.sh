#!/usr/bin/env bash
# Builds vaultsum's engine as WebAssembly (crates/vaultsum-wasm, wasm32-unknown-unknown) and
# its JavaScript bindings with wasm-bindgen, into target/wasm-pkg/{node,web}. Prints the
# module's size, raw and gzipped.
#
# The wasm32 target's std is not installed here (`rustup target add` cannot download), so std
# is built from source (-Zbuild-std, RUSTC_BOOTSTRAP=1) with the std source that
# ../shared/tools/macos-check.sh fetches and links into a toolchain `mac-<rustc version>`
# (its `env` mode prepares it and changes nothing else). wasm-bindgen-cli, whose version must be
# the wasm-bindgen crate's (Cargo.lock), is installed once into ~/.cache/vaultsum-tools.
set -euo pipefail
cd "$(dirname "$0")/.."
export CARGO_TERM_COLOR=never

rust_ver=$(rustc -V | awk '{print $2}')
toolchain=mac-$rust_ver
if ! rustup run "$toolchain" rustc -V >/dev/null 2>&1 ||
  [[ ! -e $(rustup run "$toolchain" rustc --print sysroot)/lib/rustlib/src/rust/library ]]; then
  tool=../shared/tools/macos-check.sh
  [[ -f $tool ]] || { echo "wasm-build: $tool is missing (it prepares std's source)" >&2; exit 1; }
  bash "$tool" env >/dev/null
fi

bindgen_ver=$(python3 -c '
import tomllib
lock = tomllib.load(open("Cargo.lock", "rb"))
print(next(p["version"] for p in lock["package"] if p["name"] == "wasm-bindgen"))')
tools=${XDG_CACHE_HOME:-$HOME/.cache}/vaultsum-tools/wasm-bindgen-$bindgen_ver
bindgen=$tools/bin/wasm-bindgen
if [[ "$("$bindgen" --version 2>/dev/null)" != "wasm-bindgen $bindgen_ver" ]]; then
  echo "wasm-build: installing wasm-bindgen-cli $bindgen_ver into $tools (once)"
  cargo install -q wasm-bindgen-cli --version "$bindgen_ver" --root "$tools"
fi

start=$SECONDS
RUSTC_BOOTSTRAP=1 cargo "+$toolchain" build --locked --release -p vaultsum-wasm \
  --target wasm32-unknown-unknown -Zbuild-std=std,panic_abort
wasm=target/wasm32-unknown-unknown/release/vaultsum_wasm.wasm
rm -rf target/wasm-pkg
"$bindgen" --target nodejs --out-dir target/wasm-pkg/node "$wasm"
"$bindgen" --target web --out-dir target/wasm-pkg/web "$wasm"
module=target/wasm-pkg/web/vaultsum_wasm_bg.wasm
echo "wasm-build: $module: $(stat -c %s "$module") bytes, $(gzip -9c "$module" | wc -c) gzipped (built in $((SECONDS - start)) s)"
