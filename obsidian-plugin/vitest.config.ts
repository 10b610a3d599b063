import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { defineConfig, type Plugin } from "vitest/config";

const pkg = new URL("../target/wasm-pkg/web/", import.meta.url);

/** The engine's module as base64, as esbuild.config.mjs inlines it into main.js. */
const wasmBytes: Plugin = {
  name: "vaultsum-wasm-bytes",
  resolveId: (id) => (id === "vaultsum-wasm-bytes" ? "\0vaultsum-wasm-bytes" : undefined),
  load: (id) =>
    id === "\0vaultsum-wasm-bytes"
      ? `export default ${JSON.stringify(readFileSync(new URL("vaultsum_wasm_bg.wasm", pkg)).toString("base64"))};`
      : undefined,
};

// `obsidian` is types only on npm: tests use the small stub of the parts the plugin calls.
// Everything under it is real: the vaultsum binary over stdio, files on disk, a real DOM.
export default defineConfig({
  plugins: [wasmBytes],
  resolve: {
    alias: {
      obsidian: fileURLToPath(new URL("./tests/stubs/obsidian.ts", import.meta.url)),
      "vaultsum-wasm": fileURLToPath(new URL("vaultsum_wasm.js", pkg)),
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
