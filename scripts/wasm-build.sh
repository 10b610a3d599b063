#!/usr/bin/env bash
# Builds vaultsum's engine (crates/vaultsum-wasm: vaultsum-engine) and its document reader
# (crates/vaultsum-documents-wasm: vaultsum-documents), two WebAssembly modules for
# wasm32-unknown-unknown, and their JavaScript bindings with wasm-bindgen, into
# target/wasm-pkg/{node,web}. Prints each module's size, raw and gzipped.
#
# Where the wasm32 target's std is not installed (here `rustup target add` cannot download),
# std is built from source (-Zbuild-std, RUSTC_BOOTSTRAP=1) with the std source that
# ../shared/tools/macos-check.sh fetches and links into a toolchain `mac-<rustc version>`
# (its `env` mode prepares it and changes nothing else). wasm-bindgen-cli, whose version must be
# the wasm-bindgen crate's (Cargo.lock), is installed once into ~/.cache/vaultsum-tools.
set -euo pipefail
cd "$(dirname "$0")/.."
export CARGO_TERM_COLOR=never

# With the wasm32 target installed (rustup target add wasm32-unknown-unknown), that is used;
# else std is built from source with the toolchain macos-check.sh links.
build=(cargo build)
if ! rustc --print target-libdir --target wasm32-unknown-unknown 2>/dev/null | xargs -I{} test -d {}; then
  rust_ver=$(rustc -V | awk '{print $2}')
  toolchain=mac-$rust_ver
  has_std_source() {
    rustup run "$toolchain" rustc -V >/dev/null 2>&1 &&
      [[ -e $(rustup run "$toolchain" rustc --print sysroot)/lib/rustlib/src/rust/library ]]
  }
  if ! has_std_source; then
    tool=../shared/tools/macos-check.sh
    [[ -f $tool ]] || { echo "wasm-build: no wasm32 target installed, and $tool (which fetches std's source) is missing" >&2; exit 1; }
    bash "$tool" env >/dev/null
    has_std_source || { echo "wasm-build: $tool did not leave a toolchain $toolchain with std's source" >&2; exit 1; }
  fi
  export RUSTC_BOOTSTRAP=1 # lets the stable compiler take -Zbuild-std
  build=(cargo "+$toolchain" build -Zbuild-std=std,panic_abort)
fi

bindgen_ver=$(awk '/^name = "wasm-bindgen"$/ { getline; gsub(/[^0-9.]/, ""); print; exit }' Cargo.lock)
[[ -n $bindgen_ver ]] || { echo "wasm-build: no wasm-bindgen in Cargo.lock" >&2; exit 1; }
tools=${XDG_CACHE_HOME:-$HOME/.cache}/vaultsum-tools/wasm-bindgen-$bindgen_ver
bindgen=$tools/bin/wasm-bindgen
if [[ "$("$bindgen" --version 2>/dev/null)" != "wasm-bindgen $bindgen_ver" ]]; then
  echo "wasm-build: installing wasm-bindgen-cli $bindgen_ver into $tools (once)"
  # Not --locked: the CLI's own lock file may name a release the registry mirror lacks; its
  # version is pinned, and it only turns the module's exports into JavaScript.
  cargo install -q wasm-bindgen-cli --version "$bindgen_ver" --root "$tools"
fi

# No path of the machine that built them in the modules (panic messages name source files): the
# home folder, Cargo's registry and this checkout are written as `~`, `/cargo` and `.`, so a
# module built elsewhere from the same sources and toolchain has the same bytes (rustc applies
# the last prefix that matches). With --target, RUSTFLAGS reach only the modules' code, not
# the build scripts.
cargo_home=${CARGO_HOME:-$HOME/.cargo}
export RUSTFLAGS="${RUSTFLAGS:-} --remap-path-prefix=$HOME=~ --remap-path-prefix=$cargo_home=/cargo --remap-path-prefix=$PWD=."
start=$SECONDS
"${build[@]}" --locked --release -p vaultsum-wasm -p vaultsum-documents-wasm --target wasm32-unknown-unknown
rm -rf target/wasm-pkg
for name in vaultsum_wasm vaultsum_documents_wasm; do
  wasm=target/wasm32-unknown-unknown/release/$name.wasm
  # No name or producers section: 280 KB of function names nobody reads in the plugin.
  # `__wbg_reset_state` (experimental in wasm-bindgen): a fresh instance of the module after a
  # trap (a panic aborts), where the glue would otherwise keep the one that trapped.
  "$bindgen" --target nodejs --remove-name-section --remove-producers-section --experimental-reset-state-function --out-dir target/wasm-pkg/node "$wasm"
  "$bindgen" --target web --remove-name-section --remove-producers-section --experimental-reset-state-function --out-dir target/wasm-pkg/web "$wasm"
  module=target/wasm-pkg/web/${name}_bg.wasm
  echo "wasm-build: $module: $(wc -c <"$module") bytes, $(gzip -9c "$module" | wc -c) gzipped"
done
echo "wasm-build: built in $((SECONDS - start)) s"
