#!/usr/bin/env bash
# Parity of the WebAssembly engine with the native one: for every note of vault-fixture/ and
# of the vendored real vault, the offline summary (with and without section citations) and
# what the output policy lets into the note, computed by the same functions built natively
# (crates/vaultsum-wasm/examples/parity_dump.rs) and built as WebAssembly, run in Node
# (crates/vaultsum-wasm/parity.mjs). The two outputs must be equal byte for byte.
#
# Then the whole summary, as a person gets it: for every note of both vaults, what
# `node obsidian-plugin/scripts/summarize-wasm.mjs --vault DIR --engine local NOTE` prints
# (the plugin's in-app engine: embeds expanded, the offline summary, the fact check, the output
# policy) against what `vaultsum --vault DIR summarize-file --engine local --dry-run NOTE`
# prints, with no config file and no key (VAULTSUM_BIN: the binary; default the debug build).
# Then the writes: each vault copied twice, every note summarized into one copy by the binary
# and into the other by the app's engine (`--write`), then again with `--replace`; the two
# copies must be the same files, byte for byte, after each pass. Then the same through a fake
# OpenAI server: the request bodies and the summaries (see below).
#
# Documents: a third vault made here holds every document file of the repository (PDF, DOCX,
# PPTX, XLSX, ODS, CSV, TSV, canvas: the fixtures of crates/vaultsum-documents/tests/fixtures/
# and eval/), and a note embedding each (a PDF also as its page 1 and page 2). Its notes go
# through the dry runs, offline and through the model, where the request bodies carry each
# document's text (or the words of its failure) as the binary and the app's reader (the
# document module, crates/vaultsum-documents-wasm) extracted it.
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

docs=$work/documents
mkdir -p "$docs/Embeds"
documents=0
while IFS= read -r -d '' file; do
  file=${file#./}
  mkdir -p "$docs/$(dirname "$file")"
  cp "$file" "$docs/$file"
  embeds=("$file")
  case ${file,,} in *.pdf) embeds+=("$file#page=1" "$file#page=2") ;; esac
  for embed in "${embeds[@]}"; do
    documents=$((documents + 1))
    printf '# %s\n\nWhat the file %s holds, as its note embeds it.\n\n![[%s]]\n' \
      "$(basename "$file")" "$embed" "$embed" >"$docs/Embeds/Document $documents.md"
  done
done < <(find . \( -path ./target -o -name node_modules -o -name .git \) -prune -o -type f \
  \( -iname '*.pdf' -o -iname '*.docx' -o -iname '*.pptx' -o -iname '*.xlsx' -o -iname '*.ods' \
  -o -iname '*.csv' -o -iname '*.tsv' -o -iname '*.canvas' \) -print0 | sort -z)
[[ $documents -gt 60 ]] || { echo "wasm-parity: only $documents document embeds made" >&2; exit 1; }
echo "wasm-parity: $docs: $documents notes, each embedding a document file of the repository (or one page of a PDF)"

bin=${VAULTSUM_BIN:-target/debug/vaultsum}
if [[ -z ${VAULTSUM_BIN:-} ]]; then cargo build -q --locked --bin vaultsum; fi
[[ -x $bin ]] || { echo "wasm-parity: no binary at $bin" >&2; exit 1; }
mkdir -p "$work/home" "$work/cache"
native_env=(env -i "PATH=$PATH" "HOME=$work/home" "VAULTSUM_CONFIG=" "VAULTSUM_CACHE_DIR=$work/cache")
compared=0
failed=0
refused=0
t_native=0
t_wasm=0
for vault in "${vaults[@]}" "$docs"; do
  while IFS= read -r -d '' file; do
    note=${file#"$vault"/}
    t0=$(date +%s%N)
    "${native_env[@]}" "$bin" --vault "$vault" summarize-file --engine local --dry-run "$note" \
      >"$work/cli.native" 2>"$work/cli.native.err" || true
    t1=$(date +%s%N)
    VAULTSUM_WASM_PKG="$PWD/target/wasm-pkg/node" node obsidian-plugin/scripts/summarize-wasm.mjs \
      --vault "$vault" --engine local "$note" >"$work/cli.wasm" 2>"$work/cli.wasm.err" || true
    t2=$(date +%s%N)
    t_native=$((t_native + t1 - t0))
    t_wasm=$((t_wasm + t2 - t1))
    compared=$((compared + 1))
    if [[ ! -s $work/cli.native ]]; then
      # No summary (a template with no prose): the app's engine must refuse it too, saying
      # the same (the binary's first line of stderr, `vaultsum: NOTE: why`).
      refused=$((refused + 1))
      if [[ -s $work/cli.wasm || "$(head -1 "$work/cli.native.err")" != "$(head -1 "$work/cli.wasm.err")" ]]; then
        failed=$((failed + 1))
        echo "wasm-parity: FAIL: $vault/$note: the binary refused it, the app's engine did not say the same:" >&2
        head -1 "$work/cli.native.err" >&2
        head -c 300 "$work/cli.wasm" "$work/cli.wasm.err" >&2
      fi
    elif ! cmp -s "$work/cli.native" "$work/cli.wasm"; then
      failed=$((failed + 1))
      echo "wasm-parity: FAIL: $vault/$note: the app's engine prints something else:" >&2
      head -c 300 "$work/cli.wasm.err" >&2
      diff "$work/cli.native" "$work/cli.wasm" | head -20 >&2
    fi
  done < <(find "$vault" -path '*/.*' -prune -o -type f -name '*.md' -print0 | sort -z)
done
[[ $compared -gt 100 ]] || { echo "wasm-parity: only $compared notes summarized" >&2; exit 1; }
[[ $failed -eq 0 ]] || { echo "wasm-parity: $failed of $compared notes differ" >&2; exit 1; }
echo "wasm-parity: summarize-file --dry-run on $compared notes ($refused refused by both, same words): the app's engine prints the binary's bytes; per note, process included: binary $((t_native / compared / 1000000)) ms, Node + WebAssembly $((t_wasm / compared / 1000000)) ms"

for vault in "${vaults[@]}"; do
  rm -rf "$work/by-binary" "$work/by-app"
  cp -r "$vault" "$work/by-binary"
  cp -r "$vault" "$work/by-app"
  for pass in write replace; do
    flag=()
    if [[ $pass == replace ]]; then flag=(--replace); fi
    written=0
    while IFS= read -r -d '' file; do
      note=${file#"$vault"/}
      "${native_env[@]}" "$bin" --vault "$work/by-binary" summarize-file --engine local "${flag[@]}" "$note" >/dev/null 2>&1 || true
      VAULTSUM_WASM_PKG="$PWD/target/wasm-pkg/node" node obsidian-plugin/scripts/summarize-wasm.mjs \
        --vault "$work/by-app" --engine local --write "${flag[@]}" "$note" >/dev/null 2>"$work/write.err" || true
      written=$((written + 1))
    done < <(find "$vault" -path '*/.*' -prune -o -type f -name '*.md' -print0 | sort -z)
    if ! diff -r -x '.*' "$work/by-binary" "$work/by-app" >"$work/write.diff"; then
      echo "wasm-parity: FAIL: $vault, $pass pass: the app's engine wrote other notes than the binary:" >&2
      head -30 "$work/write.diff" >&2
      exit 1
    fi
    changed=$({ diff -rq -x '.*' "$vault" "$work/by-app" || true; } | wc -l)
    [[ $changed -gt 5 ]] || { echo "wasm-parity: $vault, $pass pass: only $changed notes written" >&2; exit 1; }
    echo "wasm-parity: $vault, $pass pass: $written notes summarized into a copy by each, $changed changed, the same bytes"
  done
done

# Through a model: the fake OpenAI server (tests/fake/openai_chat.py: real HTTP, OpenAI's
# streamed format, an invented fact in about half of the answers so the fact check's
# corrective request is made too) answers both. For every note of both vaults, the binary with
# a key and no config file (`summarize-file --dry-run`) and the app's engine (`--engine llm`)
# must send the same request bodies, byte for byte, and print the same summary; the key must
# appear in neither's output. Images are described and recordings transcribed first (the vision
# request; the transcription form, logged as its hash with the boundary made canonical): the
# binary sends those at once, so they are compared as a set; the summary's requests after them
# in order. Then the write through the model, on vault-fixture, every note (the composition is
# the one compared on both vaults above; this pass checks that what comes back from the model
# is written the same).
fake_log=$work/requests
python3 tests/fake/openai_chat.py "$fake_log" "$work/port" &
fake_pid=$!
trap 'kill "$fake_pid" 2>/dev/null; rm -rf "$work"' EXIT
for _ in $(seq 200); do
  [[ -s $work/port ]] && break
  kill -0 "$fake_pid" 2>/dev/null || { echo "wasm-parity: the fake OpenAI server did not start" >&2; exit 1; }
  sleep 0.05
done
[[ -s $work/port ]] || { echo "wasm-parity: the fake OpenAI server did not say its port" >&2; exit 1; }
key=sk-parity-$(od -An -N8 -tx1 /dev/urandom | tr -d ' \n')
llm_vars=("FIREWORKS_API_KEY=$key" "FIREWORKS_BASE_URL=http://127.0.0.1:$(cat "$work/port")/v1")
compared=0
failed=0
media=0
requests=0
embedded=0
# A log's media requests (sorted: sent at once by the binary), then the others in order.
canonical() { { grep '"image_url"\|^POST ' "$1" | sort; grep -v '"image_url"\|^POST ' "$1"; } || true; }
for vault in "${vaults[@]}" "$docs"; do
  while IFS= read -r -d '' file; do
    note=${file#"$vault"/}
    : >"$fake_log"
    # No description or transcript kept from an earlier note: each run shows what it asks.
    rm -rf "$work/cache"
    "${native_env[@]}" "${llm_vars[@]}" "$bin" --vault "$vault" summarize-file --dry-run "$note" \
      >"$work/llm.native" 2>"$work/llm.native.err" || true
    mv "$fake_log" "$work/bodies.native"
    : >"$fake_log"
    env "${llm_vars[@]}" VAULTSUM_WASM_PKG="$PWD/target/wasm-pkg/node" node obsidian-plugin/scripts/summarize-wasm.mjs \
      --vault "$vault" --engine llm "$note" >"$work/llm.wasm" 2>"$work/llm.wasm.err" || true
    mv "$fake_log" "$work/bodies.wasm"
    compared=$((compared + 1))
    if grep -qF "$key" "$work/llm.native" "$work/llm.native.err" "$work/llm.wasm" "$work/llm.wasm.err"; then
      echo "wasm-parity: FAIL: $vault/$note: the API key appears in an output" >&2
      failed=$((failed + 1))
    fi
    media=$((media + $(grep -c '"image_url"\|^POST ' "$work/bodies.native" || true)))
    if grep -q '\[Embedded \(pdf\|document\|file\): \|\[Embedded: [^]]*\.canvas\]' "$work/bodies.native"; then embedded=$((embedded + 1)); fi
    requests=$((requests + $(wc -l <"$work/bodies.native")))
    if ! cmp -s <(canonical "$work/bodies.native") <(canonical "$work/bodies.wasm"); then
      failed=$((failed + 1))
      echo "wasm-parity: FAIL: $vault/$note: the app's engine sent other requests than the binary ($(wc -l <"$work/bodies.native") against $(wc -l <"$work/bodies.wasm")):" >&2
      diff <(tr ',' '\n' <"$work/bodies.native") <(tr ',' '\n' <"$work/bodies.wasm") | head -10 >&2
    elif [[ ! -s $work/llm.native ]] || ! cmp -s "$work/llm.native" "$work/llm.wasm"; then
      failed=$((failed + 1))
      echo "wasm-parity: FAIL: $vault/$note: through the model, the app's engine prints something else:" >&2
      head -3 "$work/llm.native.err" "$work/llm.wasm.err" >&2
      diff "$work/llm.native" "$work/llm.wasm" | head -20 >&2
    fi
  done < <(find "$vault" -path '*/.*' -prune -o -type f -name '*.md' -print0 | sort -z)
done
[[ $compared -gt 100 ]] || { echo "wasm-parity: only $compared notes compared through the model" >&2; exit 1; }
[[ $media -gt 50 ]] || { echo "wasm-parity: only $media images and recordings read through the model" >&2; exit 1; }
[[ $embedded -gt 60 ]] || { echo "wasm-parity: only $embedded notes sent a document to the model" >&2; exit 1; }
[[ $failed -eq 0 ]] || { echo "wasm-parity: $failed of $compared notes differ through the model" >&2; exit 1; }
echo "wasm-parity: through the fake OpenAI server, $compared notes: the same $requests request bodies ($media of them images described and recordings transcribed; $embedded notes with a document's text, or why there is none, in them) and the same summaries, byte for byte"

for vault in vault-fixture; do
  rm -rf "$work/by-binary" "$work/by-app"
  cp -r "$vault" "$work/by-binary"
  cp -r "$vault" "$work/by-app"
  written=0
  while IFS= read -r -d '' file; do
    note=${file#"$vault"/}
    written=$((written + 1))
    rm -rf "$work/cache"
    "${native_env[@]}" "${llm_vars[@]}" "$bin" --vault "$work/by-binary" summarize-file "$note" >/dev/null 2>&1 || true
    env "${llm_vars[@]}" VAULTSUM_WASM_PKG="$PWD/target/wasm-pkg/node" node obsidian-plugin/scripts/summarize-wasm.mjs \
      --vault "$work/by-app" --engine llm --write "$note" >/dev/null 2>&1 || true
  done < <(find "$vault" -path '*/.*' -prune -o -type f -name '*.md' -print0 | sort -z)
  if ! diff -r -x '.*' "$work/by-binary" "$work/by-app" >"$work/write.diff"; then
    echo "wasm-parity: FAIL: $vault, through the model: the app's engine wrote other notes than the binary:" >&2
    head -30 "$work/write.diff" >&2
    exit 1
  fi
  changed=$({ diff -rq -x '.*' "$vault" "$work/by-app" || true; } | wc -l)
  [[ $changed -gt 5 ]] || { echo "wasm-parity: $vault, through the model: only $changed notes written" >&2; exit 1; }
  echo "wasm-parity: $vault, written through the model: $written notes, $changed changed, the same bytes"
done
