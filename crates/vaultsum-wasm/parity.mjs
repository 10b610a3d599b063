// The WebAssembly half of scripts/wasm-parity.sh: the same output as
// examples/parity_dump.rs, from the module scripts/wasm-build.sh made (wasm-bindgen's Node
// target), so that the two can be compared byte for byte.
//
//   node crates/vaultsum-wasm/parity.mjs PKG_DIR VAULT...
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { createRequire } from "node:module";

const [pkg, ...roots] = process.argv.slice(2);
// wasm-bindgen's Node target compiles and instantiates the module when it is required.
const loadStart = performance.now();
const engine = createRequire(import.meta.url)(join(pkg, "vaultsum_wasm.js"));
const loaded = performance.now() - loadStart;

function notesUnder(root, dir, found) {
  for (const entry of readdirSync(join(root, dir), { withFileTypes: true })) {
    if (entry.name.startsWith(".")) continue;
    const path = dir ? `${dir}/${entry.name}` : entry.name;
    if (entry.isDirectory()) notesUnder(root, path, found);
    else if (entry.name.endsWith(".md")) found.push(path);
  }
  return found;
}

// Byte order of the UTF-8 paths, as Rust's sort of Strings.
const byBytes = (a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b));
const utf8Length = (s) => Buffer.byteLength(s, "utf8");

const out = [];
let notes = 0;
const workStart = performance.now();
for (const root of roots) {
  const found = notesUnder(root, "", []).sort(byBytes);
  // `ignoreBOM`: keep a byte order mark, as Rust's from_utf8_lossy does.
  const texts = found.map((note) => new TextDecoder("utf-8", { ignoreBOM: true }).decode(readFileSync(join(root, note))));
  for (const [index, note] of found.entries()) {
    notes += 1;
    const text = texts[index];
    const other = texts[(index + 1) % texts.length];
    const summary = engine.summarizeOffline(text, 0, "", false);
    const cited = engine.summarizeOffline(text, 0, "", true);
    const policy = engine.policySummary(summary, text);
    const checked = engine.checkFacts(summary, text);
    const crossed = engine.checkFacts(summary, other);
    out.push(
      `==> ${note} <==\n${utf8Length(summary)}\n${summary}\n${utf8Length(cited)}\n${cited}\n` +
        `${utf8Length(policy)}\n${policy}\n${checked}${crossed}`,
    );
  }
}
const work = performance.now() - workStart;
process.stdout.write(out.join(""));
// Reading the files is inside `work`, as in the native half.
process.stderr.write(
  `WebAssembly: module loaded in ${loaded.toFixed(1)} ms; ${notes} notes in ${work.toFixed(1)} ms ` +
    `(${(work / notes).toFixed(2)} ms a note); Node's RSS ${(process.memoryUsage().rss / 2 ** 20).toFixed(0)} MiB\n`,
);
