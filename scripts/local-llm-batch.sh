#!/usr/bin/env bash
# A batch of real notes summarized with default settings (no config file, no setting changed)
# by the project's real local server (../shared/tools/local-llm.sh: llama.cpp's server with
# SmolLM2-135M, one slot), reported as: notes summarized, loops caught, loops written, wall time
# against the sum of the server's own request times (llama.cpp's `total time` per request; an
# answer closed early prints none) and against the seconds the server was at work (its process
# used CPU in that second: at least 5 of 100 ticks, sampled each second; closed answers counted).
#
#   [VAULTSUM_BIN=target/debug/vaultsum] scripts/local-llm-batch.sh SOURCE_VAULT FOLDER...
#   e.g. scripts/local-llm-batch.sh tests/data/obsidian-tasks-docs "How To" "Other Plugins"
#
# The vault is copied to a temporary folder first; the source is never written.
set -euo pipefail
src=$1; shift
bin=${VAULTSUM_BIN:-target/debug/vaultsum}
tools=${VAULTSUM_SHARED_TOOLS:-$(dirname "$0")/../../shared/tools}
base=$(bash "$tools/local-llm.sh" url) || { echo "start the server: $tools/local-llm.sh start" >&2; exit 1; }
cache=${VAULTSUM_LLM_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/vaultsum-local-llm}
log=$cache/server.log
server_pid=$(cat "$cache/server.pid")
tmp=$(mktemp -d)
cp -r "$src" "$tmp/vault"
offset=$(stat -c %s "$log")
ticks() { awk '{print $14 + $15}' "/proc/$server_pid/stat"; }
(
  busy=0 total=0 prev=$(ticks)
  while [[ ! -e $tmp/stop ]]; do
    sleep 1
    now=$(ticks); total=$((total + 1))
    if ((now - prev >= 5)); then busy=$((busy + 1)); fi
    prev=$now
    echo "$busy $total" >"$tmp/busy"
  done
) &
sampler=$!
start=$(date +%s.%N)
env -i PATH="$PATH" HOME="$tmp" XDG_CONFIG_HOME="$tmp/config" XDG_STATE_HOME="$tmp/state" \
  VAULTSUM_CACHE_DIR="$tmp/cache" FIREWORKS_BASE_URL="$base" FIREWORKS_API_KEY=local \
  SUMMARIZE_MODEL=smollm2 RUST_LOG="${RUST_LOG:-warn}" \
  "$bin" --vault "$tmp/vault" summarize-file --engine llm --json "$@" \
  >"$tmp/results.jsonl" 2>"$tmp/stderr.txt" || true
end=$(date +%s.%N)
touch "$tmp/stop"; wait "$sampler"
tail -c +"$((offset + 1))" "$log" >"$tmp/server.log"
python3 - "$tmp" "$start" "$end" "$@" <<'PY'
import json, pathlib, re, sys
tmp, start, end, folders = pathlib.Path(sys.argv[1]), float(sys.argv[2]), float(sys.argv[3]), sys.argv[4:]
results = []
for line in (tmp / "results.jsonl").read_text().splitlines():
    try:
        results.append(json.loads(line))
    except ValueError:
        pass
notes = sorted(n for f in folders for n in (tmp / "vault" / f).rglob("*.md"))
ok = sum(1 for r in results if r.get("success") and not r.get("skipped"))
skipped = sum(1 for r in results if r.get("skipped"))
marker = "the model began repeating itself here"
caught = written = 0
for note in notes:
    text = note.read_text(errors="replace")
    # Only what vaultsum wrote: a note's own `## Summary` (skipped as up to date) is not ours.
    summary = text.split("<!-- vaultsum: note=", 1)[1] if "<!-- vaultsum: note=" in text else ""
    caught += marker in summary
    lines = [l.strip() for l in summary.splitlines() if len(l.strip()) >= 12]
    # A loop written: one line three times or more in the summary.
    written += any(lines.count(l) >= 3 for l in set(lines))
server = sum(float(m) for m in re.findall(r"total time =\s*([\d.]+) ms", (tmp / "server.log").read_text())) / 1000
wall = end - start
print(f"notes: {len(notes)}, skipped: {skipped}, summarized: {ok}, loops caught: {caught}, notes with a loop written: {written}")
busy, sampled = (int(x) for x in (tmp / "busy").read_text().split())
print(f"wall: {wall:.0f} s, server request times summed: {server:.0f} s, ratio {wall / server if server else float('nan'):.2f}")
print(f"server at work in {busy} of {sampled} seconds sampled: wall / busy {wall / busy if busy else float('nan'):.2f}")
for r in results:
    if not r.get("success"):
        print("failed:", r.get("path"), (r.get("error") or "")[:160])
print("stderr tail:", (tmp / "stderr.txt").read_text().strip().splitlines()[-1:] )
print("folder:", tmp)
PY
