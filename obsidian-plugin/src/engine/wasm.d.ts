// The engine's WebAssembly module as bytes (scripts/wasm-build.sh's web build), inlined into
// main.js by esbuild's binary loader and by vitest.config.ts in tests.
declare module "vaultsum-wasm-bytes" {
  const bytes: Uint8Array;
  export default bytes;
}
