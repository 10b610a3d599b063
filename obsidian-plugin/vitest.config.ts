import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

// `obsidian` is types only on npm: tests use the small stub of the parts the plugin calls.
// Everything under it is real: the vaultsum binary over stdio, files on disk, a real DOM.
export default defineConfig({
  resolve: {
    alias: {
      obsidian: fileURLToPath(new URL("./tests/stubs/obsidian.ts", import.meta.url)),
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
