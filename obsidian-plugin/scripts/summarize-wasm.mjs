// The app's engine (vaultsum's WebAssembly build) from the command line: what the plugin's
// in-app backend does for one note, with Node's fs in place of Obsidian's vault. It prints on
// stdout what `vaultsum --vault DIR summarize-file --engine offline --dry-run NOTE` prints
// there, byte for byte (scripts/wasm-parity.sh checks it on every note of both vaults).
//
//   node obsidian-plugin/scripts/summarize-wasm.mjs --vault DIR --engine local [--focus TEXT] NOTE
//
// The module is scripts/wasm-build.sh's Node build (target/wasm-pkg/node), or the folder
// VAULTSUM_WASM_PKG names.
import { lstatSync, readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { createRequire } from "node:module";
import { randomBytes } from "node:crypto";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";

function fail(message, code = 1) {
  process.stderr.write(`vaultsum: ${message}\n`);
  process.exit(code);
}

let parsed;
try {
  parsed = parseArgs({
    allowPositionals: true,
    options: {
      vault: { type: "string" },
      engine: { type: "string", default: "offline" },
      focus: { type: "string", default: "" },
    },
  });
} catch (error) {
  fail(error.message, 2);
}
const { values, positionals } = parsed;
if (!values.vault) fail("give the vault with --vault DIR", 2);
if (positionals.length !== 1) fail("give one note path, relative to the vault", 2);
// `local` is the offline engine's old name, kept as the binary keeps it.
if (!["offline", "local"].includes(values.engine)) {
  fail(`only the offline engine runs here (--engine offline), not ${JSON.stringify(values.engine)}`, 2);
}
const root = resolve(values.vault);
const note = positionals[0].replaceAll("\\", "/").replace(/^\.\//, "");

const here = dirname(fileURLToPath(import.meta.url));
const pkg = process.env.VAULTSUM_WASM_PKG || join(here, "..", "..", "target", "wasm-pkg", "node");
let engine;
try {
  engine = createRequire(import.meta.url)(join(pkg, "vaultsum_wasm.js"));
} catch (error) {
  fail(`cannot load the WebAssembly engine from ${pkg} (build it with scripts/wasm-build.sh): ${error.message}`);
}

/** Every file of the vault, as the binary's index lists them: hidden names (`.obsidian`,
 *  `.trash`) skipped, symlinked folders not followed. */
function filesUnder(dir, found) {
  let entries;
  try {
    entries = readdirSync(join(root, dir), { withFileTypes: true });
  } catch {
    return found; // A folder it may not open is left out, as the binary's walk leaves it.
  }
  for (const entry of entries) {
    if (entry.name.startsWith(".")) continue;
    const path = dir ? `${dir}/${entry.name}` : entry.name;
    if (entry.isDirectory()) filesUnder(path, found);
    else if (entry.isSymbolicLink()) {
      let target;
      try {
        target = statSync(join(root, path));
      } catch {
        found.push(path); // A broken link is a name the index knows; its read says why.
        continue;
      }
      if (!target.isDirectory()) found.push(path);
    } else found.push(path);
  }
  return found;
}

const decoder = new TextDecoder("utf-8", { ignoreBOM: true });
const vault = new engine.AppVault(filesUnder("", []));

/** Gives the engine the note at `path`, or says why it cannot. */
function give(path) {
  const full = join(root, path);
  let stat;
  try {
    stat = lstatSync(full).isSymbolicLink() ? statSync(full) : lstatSync(full);
  } catch {
    vault.refuseNote(path, "not_found");
    return;
  }
  if (path.toLowerCase().endsWith(".canvas")) {
    vault.refuseNote(path, "unreadable"); // Canvases are not read by the app's engine yet.
  } else if (!stat.isFile()) {
    vault.refuseNote(path, "unreadable");
  } else if (stat.size > engine.AppVault.maxNoteBytes()) {
    vault.refuseNote(path, "too_large");
  } else {
    try {
      vault.addNote(path, decoder.decode(readFileSync(full)));
    } catch {
      vault.refuseNote(path, "unreadable");
    }
  }
}

const nonce = randomBytes(8).toString("hex");
let answer;
for (;;) {
  answer = JSON.parse(vault.previewOffline(note, values.focus, nonce));
  if (!answer.needs) break;
  answer.needs.forEach(give);
}
if (answer.error) fail(`${note}: ${answer.error}`);
process.stdout.write(`## Summary\n\n${answer.summary}\n`);
