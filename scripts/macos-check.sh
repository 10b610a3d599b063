#!/usr/bin/env bash
# macOS, checked on this Linux machine with ../shared/tools/macos-check.sh (std built from source
# for the target, C dependencies compiled with Zig's bundled macOS headers): `cargo check
# --all-targets` of the whole workspace for aarch64-apple-darwin and x86_64-apple-darwin, with
# warnings denied. Checking only: linking needs Apple's SDK, so the suite itself runs on macOS
# runners in the release workflow.
set -euo pipefail
cd "$(dirname "$0")/.."
tool=../shared/tools/macos-check.sh
if [[ ! -f $tool ]]; then
  echo "macos-check: $tool is missing (the repository must sit beside ../shared)" >&2
  exit 1
fi

for target in aarch64 x86_64; do
  flag=()
  [[ $target == x86_64 ]] && flag=(--x86)
  echo "== macos-check check ($target-apple-darwin, warnings denied)"
  start=$SECONDS
  RUSTFLAGS="-D warnings" bash "$tool" check ${flag[@]+"${flag[@]}"} --workspace --exclude vaultsum-pdf --locked
  echo "macos-check: $target-apple-darwin checked in $((SECONDS - start)) s"
done
