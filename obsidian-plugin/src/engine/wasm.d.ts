// The engine's WebAssembly module (scripts/wasm-build.sh's web build) as base64, inlined into
// main.js by esbuild.config.mjs and by vitest.config.ts in tests; decoded with `atob`, which
// every Obsidian has (Node's Buffer is not there on mobile).
declare module "vaultsum-wasm-bytes" {
  const base64: string;
  export default base64;
}
