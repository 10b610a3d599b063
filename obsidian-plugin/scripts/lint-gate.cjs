// `npm run lint`: eslint with the review bot's rules (eslint.config.mjs: one rule turned off, and
// only for the desktop side, src/binary/, which main.ts imports dynamically off mobile:
// no-nodejs-modules), failing on any error and on any warning but the one reasoned exception
// the docs give (docs/obsidian-plugin.md, Development): the settings tab keeps display(),
// because the declarative settings API of Obsidian 1.13 has no password control.
"use strict";

const { execFileSync } = require("node:child_process");
const path = require("node:path");

const root = path.resolve(__dirname, "..");
const EXCEPTION = { rule: "obsidianmd/settings-tab/prefer-setting-definitions", file: path.join("src", "settings-tab.ts") };

let output;
try {
  output = execFileSync(process.execPath, [path.join(path.dirname(require.resolve("eslint/package.json")), "bin", "eslint.js"), "--format", "json", "."], { cwd: root, encoding: "utf8", maxBuffer: 64 << 20 });
} catch (error) {
  // eslint exits 1 when it found an error; its report is still on stdout.
  output = error.stdout;
  if (!output) throw error;
}
const problems = [];
let excepted = 0;
for (const result of JSON.parse(output)) {
  for (const message of result.messages) {
    const where = `${path.relative(root, result.filePath)}:${message.line}:${message.column}`;
    if (message.severity === 1 && message.ruleId === EXCEPTION.rule && path.relative(root, result.filePath) === EXCEPTION.file) {
      excepted += 1;
      continue;
    }
    problems.push(`${where} ${message.severity === 2 ? "error" : "warning"} ${message.message} (${message.ruleId ?? "parse"})`);
  }
}
if (problems.length > 0) {
  console.error(problems.join("\n"));
  console.error(`lint: ${problems.length} problem(s)`);
  process.exit(1);
}
console.log(`lint: clean with the review's rules (${excepted} known warning: ${EXCEPTION.rule}, see docs/obsidian-plugin.md)`);
