// The plugin as the Obsidian directory and BRAT get it: manifest.json keeps the directory's
// rules, versions.json knows this version, and main.js loads in Node with the `obsidian`
// module stubbed (as Obsidian loads it: CommonJS, `obsidian` provided by the app) and exports
// a Plugin class and ends with the third-party notices, and its two WebAssembly modules are the
// ones scripts/wasm-build.sh built (target/wasm-pkg/web). Run from scripts/package-check.sh after
// `npm run build`.
"use strict";

const { execFileSync } = require("node:child_process");
const fs = require("node:fs");
const Module = require("node:module");
const path = require("node:path");

const root = path.resolve(__dirname, "..");
const fail = (message) => {
  console.error(`obsidian plugin: FAIL: ${message}`);
  process.exit(1);
};

const manifest = JSON.parse(fs.readFileSync(path.join(root, "manifest.json"), "utf8"));
const expectedVersion = process.argv[2];
if (manifest.id !== "vaultsum") fail(`manifest id is ${JSON.stringify(manifest.id)}, not "vaultsum"`);
for (const field of ["id", "name"]) {
  if (/obsidian/i.test(manifest[field])) fail(`manifest ${field} contains "obsidian"`);
}
if (/plugin/i.test(manifest.name) || /plugin$/i.test(manifest.id)) fail("manifest id or name contains \"plugin\"");
if (typeof manifest.description !== "string" || manifest.description.length > 250 || !manifest.description.endsWith(".")) {
  fail(`manifest description must end with a period and have at most 250 characters (it has ${manifest.description?.length})`);
}
// The engine inside Obsidian needs no Node module (tests/mobile.test.ts loads main.js with none),
// so the plugin is offered on mobile too; what needs the program says so there.
if (manifest.isDesktopOnly !== false) fail("manifest isDesktopOnly must be false (the engine inside Obsidian runs on mobile)");
if (!/^\d+\.\d+\.\d+$/.test(manifest.minAppVersion ?? "")) fail("manifest minAppVersion is not a version");
if (expectedVersion && manifest.version !== expectedVersion) {
  fail(`manifest version ${manifest.version} differs from the workspace's ${expectedVersion}`);
}
const versions = JSON.parse(fs.readFileSync(path.join(root, "versions.json"), "utf8"));
if (versions[manifest.version] !== manifest.minAppVersion) {
  fail(`versions.json does not map ${manifest.version} to ${manifest.minAppVersion}`);
}

// What the community directory reads at the repository's root.
const repository = path.resolve(root, "..");
for (const file of ["manifest.json", "versions.json"]) {
  const atRoot = path.join(repository, file);
  if (!fs.existsSync(atRoot)) fail(`${file} is missing at the repository's root (the directory reads it there)`);
  const same = JSON.stringify(JSON.parse(fs.readFileSync(atRoot, "utf8"))) === JSON.stringify(JSON.parse(fs.readFileSync(path.join(root, file), "utf8")));
  if (!same) fail(`${file} at the repository's root differs from obsidian-plugin/${file}: copy it over`);
}
const license = path.join(repository, "LICENSE");
if (!fs.existsSync(license) || !fs.readFileSync(license, "utf8").startsWith("MIT License")) {
  fail("LICENSE (MIT, as Cargo.toml and package.json declare) is missing at the repository's root");
}
// The directory finds a release by the manifest's version as its tag: `0.1.0`, not `v0.1.0`.
const release = fs.readFileSync(path.join(repository, ".github", "workflows", "release.yml"), "utf8");
if (/tags:\s*\[\s*"v/.test(release) || !release.includes('"$GITHUB_REF_NAME" != "$version"')) {
  fail("release.yml must run on tags that are the bare version (0.1.0) and check the tag against it");
}
// The review's rules as it runs them: nothing of the recommended set off for the sources but
// the one reasoned exception, `no-nodejs-modules` for the desktop side only (src/binary/, which
// main.ts imports dynamically off mobile; tests/mobile.test.ts loads main.js with no Node).
const lintConfig = fs.readFileSync(path.join(root, "eslint.config.mjs"), "utf8");
const desktopSide = 'files: ["src/binary/**", "tests/**", "vitest.config.ts", "esbuild.config.mjs"],\n    rules: { "obsidianmd/no-nodejs-modules": "off" },';
const beforeStub = lintConfig.slice(0, lintConfig.indexOf('files: ["tests/stubs/**"]')).replace(desktopSide, "");
if (/"off"|: 0\b/.test(beforeStub)) fail("eslint.config.mjs turns a rule off for the plugin's sources (beyond no-nodejs-modules for src/binary/); the review runs them all");

// A stand-in `obsidian` module: every name the bundle takes from it is a class (or a no-op
// function), which is all loading the bundle needs; nothing runs until Obsidian calls onload.
class Stub {}
const obsidian = new Proxy({ Plugin: class Plugin {} }, {
  get: (target, name) => (name in target ? target[name] : name === "__esModule" ? false : Stub),
});
const load = Module._load;
Module._load = function (request, ...rest) {
  if (request === "obsidian") return obsidian;
  if (request === "electron") return {};
  return load.call(this, request, ...rest);
};
const mainJs = path.join(root, "main.js");
const exported = require(mainJs);
const PluginClass = exported.default ?? exported;
if (typeof PluginClass !== "function" || !(PluginClass.prototype instanceof obsidian.Plugin)) {
  fail("main.js does not export a Plugin class");
}
for (const method of ["onload", "onunload"]) {
  if (typeof PluginClass.prototype[method] !== "function") fail(`the plugin class has no ${method}`);
}
// The review flags code built at run time; the SDK's default schema validator (ajv) does it, so
// esbuild.config.mjs leaves it out for the eval-free one the plugin passes.
const bundle = fs.readFileSync(mainJs, "utf8");
if (/\bnew Function\(|\beval\(/.test(bundle)) fail("main.js contains `new Function(` or `eval(` (is ajv back in the bundle?)");
// Obsidian releases main.js without a file beside it for the licences of the code it carries,
// so esbuild.config.mjs ends it with their notices (scripts/third-party-notices.py): a `/*!`
// comment naming the Rust crates compiled into the two modules and the npm packages bundled.
const notices = bundle.slice(bundle.lastIndexOf("/*!\nThird-party software")).trimEnd();
if (!notices.startsWith("/*!") || !notices.endsWith("*/") || notices.slice(3, -2).includes("*/")) {
  fail("main.js does not end with the third-party notices (esbuild.config.mjs's footer)");
}
for (const name of ["vaultsum-pdf", "calamine", "quick-xml", "wasm-bindgen", "fflate", "@modelcontextprotocol/sdk"]) {
  if (!notices.includes(`\n- ${name} `)) fail(`main.js's third-party notices do not list ${name}`);
}
if (!notices.includes("(a fork of pdf_oxide ") || !notices.includes("PDFOxide\nCopyright")) fail("main.js's third-party notices lack pdf_oxide's (PDFOxide's NOTICE)");
// The modules inlined in main.js are those in target/wasm-pkg/web, byte for byte
// (scripts/module-hashes.mjs, which anyone can run on a released main.js).
const builtDir = path.join(repository, "target", "wasm-pkg", "web");
let moduleLines;
try {
  moduleLines = execFileSync(process.execPath, [path.join(__dirname, "module-hashes.mjs"), mainJs, builtDir], { encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });
} catch (error) {
  fail(`main.js's WebAssembly modules are not target/wasm-pkg/web's (scripts/module-hashes.mjs):\n${error.stdout ?? ""}${error.stderr ?? error.message}`);
}
const modules = moduleLines.trim().split("\n").map((line) => line.split(" "));
const size = fs.statSync(mainJs).size;
console.log(
  `obsidian plugin ${manifest.version} (minAppVersion ${manifest.minAppVersion}): manifest ok (and at the root), LICENSE, tag rule, lint config ok, no eval, ` +
    `main.js ${(size / 1024).toFixed(0)} KiB loads and exports ${PluginClass.name}, ` +
    `its ${modules.length} WebAssembly modules are target/wasm-pkg/web's (${modules.map(([name, , sha]) => `${name} ${sha.slice(0, 12)}`).join(", ")}), ` +
    `ends with the notices of ${notices.slice(0, notices.indexOf("\n==== [")).match(/^- /gm).length} third-party packages (${(Buffer.byteLength(notices) / 1024).toFixed(0)} KiB)`,
);
