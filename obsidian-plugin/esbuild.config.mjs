// Bundles src/main.ts into one main.js, as Obsidian loads it: CommonJS, with `obsidian`,
// `electron`, the CodeMirror packages Obsidian provides and Node's built-in modules left to the
// app (they are there at run time in a desktop-only plugin); no ajv (below).
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { builtinModules } from "node:module";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";
import esbuild from "esbuild";

const production = process.argv[2] === "production";
// `node esbuild.config.mjs production /tmp/main.js` builds elsewhere (a check of the bundle).
const outfile = process.argv[3] ?? "main.js";

// The MCP SDK's default schema validator (ajv) compiles schemas with `new Function`, which the
// directory's review flags. The plugin hands the Client the SDK's eval-free validator
// (src/binary/server.ts), so the module of the default is swapped for it and ajv is left out.
const noAjv = {
  name: "no-ajv",
  setup(build) {
    build.onResolve({ filter: /\/validation\/ajv-provider\.js$/ }, () => ({ path: "ajv-provider", namespace: "no-ajv" }));
    build.onLoad({ filter: /.*/, namespace: "no-ajv" }, () => ({
      contents: 'export { CfWorkerJsonSchemaValidator as AjvJsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/cfworker";',
      resolveDir: import.meta.dirname,
    }));
  },
};

// vaultsum's two WebAssembly modules (scripts/wasm-build.sh's web build), the engine and the
// document reader, each gzipped and inlined as base64 (src/engine/modules.ts inflates them with
// fflate at load; esbuild's binary loader would decode with Node's Buffer, which mobile does not
// have). Gzipped, the two take 4.4 MB of main.js instead of 12 MB as they are.
const wasmModules = {
  "vaultsum-wasm-bytes": "vaultsum_wasm_bg.wasm",
  "vaultsum-documents-bytes": "vaultsum_documents_wasm_bg.wasm",
};
const wasmBytes = {
  name: "vaultsum-wasm-bytes",
  setup(build) {
    build.onResolve({ filter: /^vaultsum-(wasm|documents)-bytes$/ }, (args) => ({ path: args.path, namespace: "vaultsum-wasm-bytes" }));
    build.onLoad({ filter: /.*/, namespace: "vaultsum-wasm-bytes" }, (args) => ({
      contents: `export default ${JSON.stringify(gzipSync(readFileSync(new URL(`../target/wasm-pkg/web/${wasmModules[args.path]}`, import.meta.url)), { level: 9 }).toString("base64"))};`,
      loader: "js",
    }));
  },
};

// The notices of the third-party code in main.js (the Rust crates compiled into the two modules,
// the npm packages bundled): MIT, BSD, Zlib and the like ask that they go with every copy, and
// Obsidian releases main.js, manifest.json and styles.css only, so they end main.js, in a `/*!`
// comment that minifiers keep. scripts/third-party-notices.py reads them offline from the
// packages' folders (Cargo's cache, which scripts/wasm-build.sh filled, and node_modules); a
// `*/` in a licence's text would end the comment early.
const notices = execFileSync("python3", [fileURLToPath(new URL("../scripts/third-party-notices.py", import.meta.url)), "-"], {
  encoding: "utf8",
  stdio: ["ignore", "pipe", "inherit"],
  maxBuffer: 16 * 1024 * 1024,
});

// The document reader's Web Worker (src/engine/document-worker.ts with the reader's glue), built
// into one script first and carried in main.js as text (`vaultsum-document-worker`): a worker
// made from a Blob needs its whole code at hand.
const documentWorker = {
  name: "vaultsum-document-worker",
  setup(build) {
    build.onResolve({ filter: /^vaultsum-document-worker$/ }, () => ({ path: "worker", namespace: "vaultsum-document-worker" }));
    build.onLoad({ filter: /.*/, namespace: "vaultsum-document-worker" }, async () => {
      const built = await esbuild.build({
        entryPoints: [fileURLToPath(new URL("src/engine/document-worker.ts", import.meta.url))],
        bundle: true,
        write: false,
        format: "iife",
        platform: "browser",
        target: "es2022",
        minify: production,
        logLevel: "silent",
        alias: { "vaultsum-documents-wasm": fileURLToPath(new URL("../target/wasm-pkg/web/vaultsum_documents_wasm.js", import.meta.url)) },
        // The glue's fallback (fetch the module beside it by URL) is never taken: the module is given.
        define: { "import.meta.url": '""' },
      });
      return { contents: `export default ${JSON.stringify(built.outputFiles[0].text)};`, loader: "js" };
    });
  },
};

const context = await esbuild.context({
  entryPoints: ["src/main.ts"],
  bundle: true,
  external: [
    "obsidian",
    "electron",
    "@codemirror/*",
    "@lezer/*",
    ...builtinModules,
    ...builtinModules.map((name) => `node:${name}`),
  ],
  format: "cjs",
  platform: "node",
  target: "es2022",
  logLevel: "info",
  sourcemap: production ? false : "inline",
  treeShaking: true,
  minify: production,
  outfile,
  plugins: [noAjv, wasmBytes, documentWorker],
  // vaultsum's engine and document reader: wasm-bindgen's glue bundled (their modules are
  // `vaultsum-wasm-bytes` and `vaultsum-documents-bytes`).
  alias: {
    "vaultsum-wasm": "../target/wasm-pkg/web/vaultsum_wasm.js",
    "vaultsum-documents-wasm": "../target/wasm-pkg/web/vaultsum_documents_wasm.js",
    // fflate's browser build: its Node build (what `platform: "node"` picks) requires Node's
    // modules, which mobile does not have.
    fflate: "./node_modules/fflate/esm/browser.js",
  },
  // The glue's fallback (fetch the module beside it by URL) is never taken: the bytes are given.
  define: { "import.meta.url": '""' },
  footer: { js: `/*!\n${notices.replaceAll("*/", "* /")}*/` },
});

if (production) {
  await context.rebuild();
  await context.dispose();
} else {
  await context.watch();
}
