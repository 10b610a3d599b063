#!/usr/bin/env bash
# Reruns the ROUGE evaluation of the local engine (eval/rouge.py) and the throughput comparison
# with summa (benches/local_vs_summa.rs). Needs python3 (3.9+) and network access the first
# time, to install eval/requirements.txt into eval/.venv. Not part of `cargo test`.
#   eval/run.sh            ROUGE table
#   eval/run.sh --bench    ROUGE table, then the throughput bench (release build)
set -euo pipefail
cd "$(dirname "$0")/.."
if [ ! -x eval/.venv/bin/python ]; then
  python3 -m venv eval/.venv
  eval/.venv/bin/pip install --quiet -r eval/requirements.txt
fi
cargo build --quiet --bin vaultsum
target_dir=$(cargo metadata --format-version 1 --no-deps | eval/.venv/bin/python -c 'import json,sys; print(json.load(sys.stdin)["target_directory"])')
bench=false
args=()
for arg in "$@"; do
  if [ "$arg" = --bench ]; then bench=true; else args+=("$arg"); fi
done
eval/.venv/bin/python eval/rouge.py "$target_dir/debug/vaultsum" ${args[@]+"${args[@]}"}
if $bench; then
  SUMMA_PYTHON="$PWD/eval/.venv/bin/python" cargo bench --bench local_vs_summa
fi
