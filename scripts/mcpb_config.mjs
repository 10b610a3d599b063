// Prints, as JSON, the command, args and env an MCP host launches an unpacked .mcpb bundle
// with, computed by the mcpb library's own `getMcpConfigForManifest` (what Claude Desktop uses
// to resolve `${__dirname}` and `${user_config.*}`), for the given user configuration. Only the
// required settings are given, so optional ones fall back to their manifest defaults.
//
//   node scripts/mcpb_config.mjs MCPB_PACKAGE_DIR UNPACKED_BUNDLE_DIR USER_CONFIG_JSON
//
// MCPB_PACKAGE_DIR is the installed @anthropic-ai/mcpb (node_modules/@anthropic-ai/mcpb).
import { readFileSync } from "node:fs";
import { join, sep } from "node:path";
import { pathToFileURL } from "node:url";

const [packageDir, bundleDir, userConfigJson] = process.argv.slice(2);
if (!packageDir || !bundleDir || !userConfigJson) {
  console.error("usage: node mcpb_config.mjs MCPB_PACKAGE_DIR UNPACKED_BUNDLE_DIR USER_CONFIG_JSON");
  process.exit(2);
}
const mcpb = await import(pathToFileURL(join(packageDir, "dist", "index.js")).href);
const manifest = JSON.parse(readFileSync(join(bundleDir, "manifest.json"), "utf8"));
const config = await mcpb.getMcpConfigForManifest({
  manifest,
  extensionPath: bundleDir,
  systemDirs: {},
  userConfig: JSON.parse(userConfigJson),
  pathSeparator: sep,
  logger: console,
});
if (!config) {
  console.error("mcpb: no MCP configuration for this manifest and user configuration");
  process.exit(1);
}
process.stdout.write(JSON.stringify({ command: config.command, args: config.args ?? [], env: config.env ?? {} }, null, 2) + "\n");
