// vaultsum's WebAssembly modules (scripts/wasm-build.sh's web build), the engine and the
// document reader, each gzipped and as base64, inlined into main.js by esbuild.config.mjs and by
// vitest.config.ts in tests; decoded with `atob` and inflated with fflate (src/engine/modules.ts),
// which work in every Obsidian (Node's Buffer and zlib are not there on mobile).
declare module "vaultsum-wasm-bytes" {
  const base64: string;
  export default base64;
}
declare module "vaultsum-documents-bytes" {
  const base64: string;
  export default base64;
}
// The document reader's Web Worker (src/engine/document-worker.ts, bundled by esbuild with the
// reader's glue into one script), as text: started from a Blob by src/engine/modules.ts.
declare module "vaultsum-document-worker" {
  const script: string;
  export default script;
}
