#!/usr/bin/env bash
# The one-step installs, built and smoke-tested as a user would get them (CI, Linux x86_64):
#   1. rust-version tells the truth (scripts/check-rust-version.py);
#   2. the Python wheel (maturin) installed into a fresh venv with pip, and run with
#      `uvx --from WHEEL vaultsum` (uv from PyPI, fresh cache): MCP initialize + tools/list
#      through the installed command (scripts/mcp_smoke.py);
#   3. the MCP Bundle (.mcpb) validated, packed, unpacked into a fresh folder and launched the
#      way Claude Desktop would (command and env computed by the mcpb library);
#   4. `cargo publish --workspace --dry-run --locked` (packages and verify-builds every crate);
#   5. actionlint on .github/workflows/;
#   6. the Obsidian plugin built (obsidian-plugin/main.js), its manifest checked against the
#      directory's rules, the root's manifest.json and versions.json equal to the plugin's,
#      LICENSE at the root, releases tagged with the bare version, the review's lint config,
#      and main.js loaded in Node with the `obsidian` module stubbed.
# Installs what it needs by itself: Python tools in .pkg-tools/venv, the mcpb CLI in
# .pkg-tools/npm, the `mcp` client in .venv (scripts/python-env.sh). Any step that cannot run
# fails the script. Prints one summary line per step at the end.
#
# PACKAGE_CHECK_PROFILE=release builds the wheel as released (slower); CI uses the dev profile.
set -euo pipefail
cd "$(dirname "$0")/.."
export CARGO_TERM_COLOR=never

MCPB_VERSION=2.1.2
UV_VERSION=0.13.9
PROFILE=${PACKAGE_CHECK_PROFILE:-dev}
TOOLS=.pkg-tools
started=$SECONDS
summary=()

fail() {
  echo "package-check: FAIL: $*" >&2
  exit 1
}
step() { echo "== package-check: $*"; }
done_step() {
  summary+=("$1")
  echo "   $1"
}

[[ "$(uname -s) $(uname -m)" == "Linux x86_64" ]] ||
  fail "runs on Linux x86_64 only (this is $(uname -s) $(uname -m))"
for tool in python3 node npm cargo; do
  command -v "$tool" >/dev/null || fail "$tool is not installed"
done

work=$(mktemp -d "${TMPDIR:-/tmp}/vaultsum-package-check.XXXXXX")
trap 'rm -rf "$work"' EXIT

step "tools"
bash scripts/python-env.sh || fail "could not create .venv with the mcp client (scripts/python-env.sh)"
stamp="$TOOLS/venv/.requirements"
if ! cmp -s scripts/requirements-package.txt "$stamp" 2>/dev/null; then
  rm -rf "$TOOLS/venv"
  python3 -m venv "$TOOLS/venv" || fail "python3 -m venv failed"
  "$TOOLS/venv/bin/pip" install -q --disable-pip-version-check -r scripts/requirements-package.txt ||
    fail "could not install scripts/requirements-package.txt from PyPI"
  cp scripts/requirements-package.txt "$stamp"
fi
mcpb_pkg="$TOOLS/npm/node_modules/@anthropic-ai/mcpb"
if [[ "$(node -p "require('./$mcpb_pkg/package.json').version" 2>/dev/null)" != "$MCPB_VERSION" ]]; then
  mkdir -p "$TOOLS/npm"
  npm install --prefix "$TOOLS/npm" --no-audit --no-fund --loglevel=error \
    "@anthropic-ai/mcpb@$MCPB_VERSION" >/dev/null || fail "could not install @anthropic-ai/mcpb from npm"
fi
MCPB="$TOOLS/npm/node_modules/.bin/mcpb"
PY=.venv/bin/python

version=$(python3 -c 'import tomllib; print(tomllib.load(open("Cargo.toml","rb"))["workspace"]["package"]["version"])')
py_version=$(python3 -c 'import tomllib; print(tomllib.load(open("pyproject.toml","rb"))["project"]["version"])')
[[ "$py_version" == "$version" ]] ||
  fail "pyproject.toml has version $py_version, Cargo.toml $version: make them equal"

step "1/6 rust-version"
line=$(python3 scripts/check-rust-version.py) || fail "rust-version check (see above)"
done_step "rust-version: $line"

step "2/6 wheel ($PROFILE profile)"
t0=$SECONDS
"$TOOLS/venv/bin/maturin" build --locked --profile "$PROFILE" --out "$work/wheel" ||
  fail "maturin build"
build_secs=$((SECONDS - t0))
wheels=("$work"/wheel/vaultsum-"$version"-*.whl)
[[ ${#wheels[@]} == 1 && -f "${wheels[0]}" ]] || fail "expected one wheel in $work/wheel: ${wheels[*]}"
wheel=${wheels[0]}
wheel_mb=$(python3 -c "import os,sys; print(f'{os.path.getsize(sys.argv[1])/1e6:.1f}')" "$wheel")

python3 -m venv "$work/pip-venv" || fail "python3 -m venv failed"
"$work/pip-venv/bin/pip" install -q --disable-pip-version-check "$wheel" || fail "pip install $wheel"
installed="$work/pip-venv/bin/vaultsum"
[[ -x "$installed" ]] || fail "pip installed no vaultsum command"
[[ "$("$installed" --version)" == "vaultsum $version" ]] ||
  fail "installed vaultsum --version says '$("$installed" --version)', expected 'vaultsum $version'"
pip_smoke=$("$PY" scripts/mcp_smoke.py --summarize "Meetings/2024-03-04 Weekly sync.md" "$installed" mcp) ||
  fail "MCP smoke test of the pip-installed vaultsum"

python3 -m venv "$work/uv-venv" || fail "python3 -m venv failed"
"$work/uv-venv/bin/pip" install -q --disable-pip-version-check "uv==$UV_VERSION" ||
  fail "could not install uv from PyPI"
# A host launches `uvx` with its own environment, so the fresh cache goes on the command line;
# --offline: the wheel has no dependencies, nothing may come from an index.
uvx_smoke=$("$PY" scripts/mcp_smoke.py env "UV_CACHE_DIR=$work/uv-cache" "UV_TOOL_DIR=$work/uv-tools" \
  UV_PYTHON_DOWNLOADS=never "$work/uv-venv/bin/uvx" --offline --from "$wheel" vaultsum mcp) ||
  fail "MCP smoke test of uvx --from $wheel vaultsum mcp"
uvx_secs=$(sed -E 's/.* ([0-9.]+) seconds from launch.*/\1/' <<<"$uvx_smoke")
done_step "wheel: $(basename "$wheel") $wheel_mb MB ($PROFILE profile, built in ${build_secs}s); pip venv: tools/list in $(sed -E 's/.* ([0-9.]+) seconds from launch.*/\1/' <<<"$pip_smoke") s, offline summarize_file OK; uvx (fresh cache): tools/list in $uvx_secs s"

step "3/6 mcpb"
python3 scripts/stage-mcpb.py --binary "$installed" --platform linux --out "$work/mcpb-stage" ||
  fail "staging the bundle"
validate=$("$MCPB" validate "$work/mcpb-stage/manifest.json" 2>&1) || fail "mcpb validate: $validate"
"$MCPB" pack "$work/mcpb-stage" "$work/vaultsum-$version-linux-x86_64.mcpb" >"$work/pack.log" 2>&1 ||
  fail "mcpb pack: $(cat "$work/pack.log")"
mcpb_mb=$(python3 -c "import os,sys; print(f'{os.path.getsize(sys.argv[1])/1e6:.1f}')" "$work/vaultsum-$version-linux-x86_64.mcpb")
"$MCPB" unpack "$work/vaultsum-$version-linux-x86_64.mcpb" "$work/mcpb-unpacked" >/dev/null ||
  fail "mcpb unpack"
[[ -x "$work/mcpb-unpacked/server/vaultsum" ]] || fail "the unpacked bundle has no executable server/vaultsum"
cp -r vault-fixture "$work/mcpb-vault"
node scripts/mcpb_config.mjs "$mcpb_pkg" "$work/mcpb-unpacked" \
  "{\"vault\": \"$work/mcpb-vault\"}" >"$work/mcpb-launch.json" ||
  fail "computing the bundle's launch command with the mcpb library"
mcpb_smoke=$("$PY" scripts/mcp_smoke.py --summarize "Meetings/2024-03-04 Weekly sync.md" \
  --launch-json "$work/mcpb-launch.json") || fail "MCP smoke test of the unpacked bundle"
done_step "mcpb: $(basename "$work"/*.mcpb) $mcpb_mb MB; validate: '$validate'; unpacked server/vaultsum with optional settings unset: tools/list in $(sed -E 's/.* ([0-9.]+) seconds from launch.*/\1/' <<<"$mcpb_smoke") s, offline summarize_file OK"

step "4/6 cargo publish --workspace --dry-run --locked"
# The benches are left out of the root package on purpose (its `include`): cargo names each one.
# A packaged member is verified as a workspace of its own, without the root's [profile.dev];
# giving it the same settings lets it reuse the dependencies the tests and the wheel built
# (measured after a test build: 1.6 min instead of 5.6). Keep equal to Cargo.toml's.
same_profile=(--config 'profile.dev.debug="line-tables-only"' --config 'profile.dev.package."*".debug=false')
# Cargo unpacks each packaged member from its temporary registry into
# $CARGO_HOME/registry/src/-HASH/ (HASH from this checkout's path) and reuses an unpacked copy
# that is already there, so a second run in the same folder would verify against the members
# as the first run packaged them. Only our own crates are removed, and only from such
# path-named registries.
rm -rf "${CARGO_HOME:-$HOME/.cargo}"/registry/src/-*/vaultsum-*
if ! cargo publish --workspace --dry-run --locked "${same_profile[@]}" >"$work/publish.log" 2>&1; then
  grep -v '^warning: ignoring benchmark' "$work/publish.log" >&2
  fail "cargo publish --workspace --dry-run --locked"
fi
grep -E '^ +(Packaged|Verifying|Finished|Uploading) |^(error|warning)' "$work/publish.log" |
  grep -v '^warning: ignoring benchmark' || true
packaged=$(grep -cE '^ +Packaged ' "$work/publish.log" || true)
sizes=$(grep -E '^ +Packaged ' "$work/publish.log" | sed -E 's/.*\(([^)]*) compressed\).*/\1/' | paste -sd, -)
[[ "$packaged" == 6 ]] || fail "expected 6 packaged crates (vaultsum-pdf, vaultsum-engine, vaultsum-documents, vaultsum-core, vaultsum-tools, vaultsum; vaultsum-wasm and vaultsum-documents-wasm are not published), cargo packaged $packaged"
done_step "cargo publish --dry-run: 6 crates packaged and verified (compressed: $sizes)"

step "5/6 actionlint"
al_version=$("$TOOLS/venv/bin/actionlint" --version | head -1)
"$TOOLS/venv/bin/actionlint" -shellcheck "$TOOLS/venv/bin/shellcheck" || fail "actionlint"
done_step "actionlint ($al_version, with shellcheck): $(find .github/workflows -name '*.yml' | wc -l) workflow(s) clean"

step "6/6 obsidian plugin"
# npm ci only when the lockfile's packages are not there yet (.ci/run installed them already).
if [[ ! -d obsidian-plugin/node_modules ]]; then
  (cd obsidian-plugin && npm ci --no-audit --no-fund --loglevel=error >/dev/null) ||
    fail "npm ci in obsidian-plugin/ failed"
fi
# The engine inside Obsidian is bundled into main.js: built first (a no-op when it is current).
bash scripts/wasm-build.sh >/dev/null || fail "the WebAssembly engine did not build (scripts/wasm-build.sh)"
(cd obsidian-plugin && npm run --silent build >/dev/null) || fail "the plugin did not build"
plugin_line=$(node obsidian-plugin/scripts/package-check.cjs "$version") || fail "obsidian plugin check"
done_step "$plugin_line"

echo
echo "== package-check summary ($((SECONDS - started)) s)"
printf '  %s\n' "${summary[@]}"
