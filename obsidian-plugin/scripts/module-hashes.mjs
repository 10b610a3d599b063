// The two WebAssembly modules inside a main.js (the engine and the document reader, which
// esbuild.config.mjs inlines gzipped, as base64 string literals), taken out of it again, so
// anyone can check that a released main.js carries the modules built from the source:
//
//   node scripts/module-hashes.mjs MAIN_JS [BUILT_DIR]
//
// prints, for each module found in MAIN_JS, `NAME SIZE SHA256` (SIZE in bytes, as built). A
// module is every long base64 string literal that decodes to gzip whose content begins with the
// WebAssembly magic `\0asm`, so nothing depends on the order or the names esbuild gives them.
// Without BUILT_DIR each is named by what it exports (the document reader `extractDocument`,
// the engine `appvault_new`), `module-N` in its order in MAIN_JS otherwise. With BUILT_DIR (the
// modules scripts/wasm-build.sh built, ../target/wasm-pkg/web), each is named by the file of
// BUILT_DIR with its sha256 and compared with it byte for byte; it exits 1, naming the module,
// when a module of main.js is none of BUILT_DIR's .wasm files or one of them is not in main.js.
// Node's standard library only. The release publishes its output as wasm-modules.txt.
import { createHash } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { gunzipSync } from "node:zlib";

const fail = (message, code = 1) => {
  process.stderr.write(`module-hashes: FAIL: ${message}\n`);
  process.exit(code);
};

const [mainJs, builtDir, ...extra] = process.argv.slice(2);
if (!mainJs || extra.length > 0 || mainJs === "-h" || mainJs === "--help") {
  fail("usage: node scripts/module-hashes.mjs MAIN_JS [BUILT_DIR]", 2);
}

const WASM_MAGIC = Buffer.from([0x00, 0x61, 0x73, 0x6d]);
// A module's name by an export only it has (wasm-bindgen keeps the Rust names).
const NAME_BY_EXPORT = [
  ["extractDocument", "vaultsum_documents_wasm_bg.wasm"],
  ["appvault_new", "vaultsum_wasm_bg.wasm"],
];
const sha256 = (bytes) => createHash("sha256").update(bytes).digest("hex");

// The names a module exports: its export section (id 7), read from the binary format.
function exportNames(bytes) {
  let at = 8; // magic and version
  const leb = () => {
    let value = 0;
    for (let shift = 0; ; shift += 7) {
      const byte = bytes[at++];
      value += (byte & 0x7f) * 2 ** shift;
      if (!(byte & 0x80)) return value;
    }
  };
  while (at < bytes.length) {
    const id = bytes[at++];
    const size = leb();
    const end = at + size;
    if (id === 7) {
      const names = [];
      for (let count = leb(); count > 0; count -= 1) {
        const length = leb();
        names.push(bytes.toString("utf8", at, at + length));
        at += length + 1; // the name, then the kind
        leb(); // the index
      }
      return names;
    }
    at = end;
  }
  return [];
}

let text;
try {
  text = readFileSync(mainJs, "utf8");
} catch (error) {
  fail(`cannot read ${mainJs}: ${error.message}`);
}
const modules = [];
for (const match of text.matchAll(/(["'`])([A-Za-z0-9+/]{1024,}={0,2})\1/g)) {
  const gzip = Buffer.from(match[2], "base64");
  if (gzip[0] !== 0x1f || gzip[1] !== 0x8b) continue;
  let bytes;
  try {
    bytes = gunzipSync(gzip);
  } catch {
    continue;
  }
  if (!bytes.subarray(0, 4).equals(WASM_MAGIC)) continue;
  const exported = new Set(exportNames(bytes));
  const named = NAME_BY_EXPORT.find(([name]) => exported.has(name));
  modules.push({ name: named ? named[1] : `module-${modules.length + 1}`, bytes, sha: sha256(bytes) });
}
if (modules.length === 0) fail(`${mainJs} holds no gzipped WebAssembly module (a base64 string of gzip starting with \\0asm)`);

const problems = [];
if (builtDir) {
  let files;
  try {
    files = readdirSync(builtDir).filter((file) => file.endsWith(".wasm")).sort();
  } catch (error) {
    fail(`cannot read ${builtDir}: ${error.message}`);
  }
  if (files.length === 0) fail(`${builtDir} holds no .wasm file (run scripts/wasm-build.sh)`);
  const built = new Map(files.map((file) => {
    const bytes = readFileSync(join(builtDir, file));
    return [sha256(bytes), { file, bytes }];
  }));
  const found = new Set();
  for (const module of modules) {
    const same = built.get(module.sha);
    if (same && same.bytes.equals(module.bytes)) {
      module.name = same.file;
      found.add(same.file);
      continue;
    }
    const namesake = files.includes(module.name) ? readFileSync(join(builtDir, module.name)) : null;
    if (namesake) {
      let offset = 0;
      while (offset < Math.min(namesake.length, module.bytes.length) && namesake[offset] === module.bytes[offset]) offset += 1;
      problems.push(
        `${module.name} differs: ${module.bytes.length} bytes in ${mainJs} (sha256 ${module.sha}), ` +
          `${namesake.length} in ${join(builtDir, module.name)} (sha256 ${sha256(namesake)}); first difference at byte ${offset}`,
      );
      found.add(module.name);
    } else {
      problems.push(`${module.name} (${module.bytes.length} bytes, sha256 ${module.sha}) in ${mainJs} is none of ${builtDir}'s modules`);
    }
  }
  for (const file of files) {
    if (!found.has(file)) problems.push(`${file} (${join(builtDir, file)}) is missing from ${mainJs}`);
  }
}

for (const module of modules) console.log(`${module.name} ${module.bytes.length} ${module.sha}`);
if (problems.length > 0) {
  for (const problem of problems) process.stderr.write(`module-hashes: FAIL: ${problem}\n`);
  process.exit(1);
}
if (builtDir) {
  process.stderr.write(`module-hashes: the ${modules.length} modules in ${mainJs} are ${builtDir}'s, byte for byte\n`);
}
