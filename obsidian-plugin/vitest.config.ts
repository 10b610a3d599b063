import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";
import { buildSync } from "esbuild";
import { defineConfig, type Plugin } from "vitest/config";

const pkg = new URL("../target/wasm-pkg/web/", import.meta.url);

/** The engine's and the document reader's modules, gzipped, as base64, as esbuild.config.mjs inlines them into main.js. */
const wasmModules: Record<string, string> = {
  "vaultsum-wasm-bytes": "vaultsum_wasm_bg.wasm",
  "vaultsum-documents-bytes": "vaultsum_documents_wasm_bg.wasm",
};
const wasmBytes: Plugin = {
  name: "vaultsum-wasm-bytes",
  resolveId: (id) => (id in wasmModules ? `\0${id}` : undefined),
  load: (id) => {
    const file = id.startsWith("\0") ? wasmModules[id.slice(1)] : undefined;
    return file ? `export default ${JSON.stringify(gzipSync(readFileSync(new URL(file, pkg)), { level: 9 }).toString("base64"))};` : undefined;
  },
};

/** The document reader's worker script, as esbuild.config.mjs builds it into main.js. */
const documentWorker: Plugin = {
  name: "vaultsum-document-worker",
  resolveId: (id) => (id === "vaultsum-document-worker" ? "\0vaultsum-document-worker" : undefined),
  load: (id) => {
    if (id !== "\0vaultsum-document-worker") return undefined;
    const built = buildSync({
      entryPoints: [fileURLToPath(new URL("./src/engine/document-worker.ts", import.meta.url))],
      bundle: true,
      write: false,
      format: "iife",
      platform: "browser",
      target: "es2022",
      alias: { "vaultsum-documents-wasm": fileURLToPath(new URL("vaultsum_documents_wasm.js", pkg)) },
      define: { "import.meta.url": '""' },
    });
    return `export default ${JSON.stringify(built.outputFiles[0].text)};`;
  },
};

// `obsidian` is types only on npm: tests use the small stub of the parts the plugin calls.
// Everything under it is real: the vaultsum binary over stdio, files on disk, a real DOM.
export default defineConfig({
  plugins: [wasmBytes, documentWorker],
  resolve: {
    alias: {
      obsidian: fileURLToPath(new URL("./tests/stubs/obsidian.ts", import.meta.url)),
      "vaultsum-wasm": fileURLToPath(new URL("vaultsum_wasm.js", pkg)),
      "vaultsum-documents-wasm": fileURLToPath(new URL("vaultsum_documents_wasm.js", pkg)),
    },
  },
  test: {
    environment: "happy-dom",
    include: ["tests/**/*.test.ts"],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    // Each test file starts its own binaries on its own vault copy; files run in parallel.
    pool: "forks",
  },
});
