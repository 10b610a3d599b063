// The WebAssembly half of scripts/wasm-documents-parity.sh: the same output as
// examples/documents_dump.rs, from the module scripts/wasm-build.sh made (wasm-bindgen's Node
// target) through `extractDocument`, so that the two can be compared byte for byte.
//
//   node crates/vaultsum-wasm/documents-parity.mjs PKG_DIR FILE...
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { createRequire } from "node:module";

const [pkg, ...files] = process.argv.slice(2);
// wasm-bindgen's Node target compiles and instantiates the module when it is required.
const loadStart = performance.now();
const engine = createRequire(import.meta.url)(join(pkg, "vaultsum_wasm.js"));
const loaded = performance.now() - loadStart;

const out = [];
let count = 0;
let extracting = 0;
for (const file of files) {
  const bytes = readFileSync(file);
  // As the native half: a PDF whole, then its page 1 and page 2.
  const pages = /\.pdf$/i.test(file) ? [undefined, 1, 2] : [undefined];
  for (const page of pages) {
    count += 1;
    const started = performance.now();
    let answer;
    try {
      answer = engine.extractDocument(file, bytes, page);
    } catch (error) {
      // A parser's panic traps the module (panic = "abort"); say which file, with its words.
      process.stderr.write(`documents-parity: ${file} page ${page ?? "all"}: ${error} (${engine.lastPanic()})\n`);
      process.exit(1);
    }
    extracting += performance.now() - started;
    out.push(`==> ${file} page ${page ?? "all"} <==\n${Buffer.byteLength(answer, "utf8")}\n${answer}\n`);
  }
}
process.stdout.write(out.join(""));
process.stderr.write(
  `WebAssembly: module loaded in ${loaded.toFixed(1)} ms; ${count} extractions in ${extracting.toFixed(1)} ms; ` +
    `Node's RSS ${(process.memoryUsage().rss / 2 ** 20).toFixed(0)} MiB\n`,
);
