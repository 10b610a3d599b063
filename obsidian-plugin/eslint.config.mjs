// The rules the Obsidian directory's review applies (eslint-plugin-obsidianmd's recommended set,
// with typescript-eslint's type-checked rules), on the plugin's sources and tests.
import { defineConfig } from "eslint/config";
import obsidianmd from "eslint-plugin-obsidianmd";
import globals from "globals";

export default defineConfig([
  // main.js is the build; scripts/ are release tooling run by Node, not shipped in the plugin.
  { ignores: ["main.js", "node_modules/**", "scripts/**"] },
  ...obsidianmd.configs.recommended,
  {
    languageOptions: {
      parserOptions: {
        projectService: {
          allowDefaultProject: ["eslint.config.mjs", "esbuild.config.mjs"],
        },
        tsconfigRootDir: import.meta.dirname,
      },
    },
  },
  {
    // What needs Node is the desktop side: src/binary/ is reached only through main.ts's
    // `await import("./binary/desktop")`, made when !Platform.isMobile (tests/mobile.test.ts
    // loads the released main.js with no Node module and no Node global). Tests and the build
    // run in Node, never in Obsidian.
    files: ["src/binary/**", "tests/**", "vitest.config.ts", "esbuild.config.mjs"],
    rules: { "obsidianmd/no-nodejs-modules": "off" },
    // Node's globals (process, Buffer) only there: the code a phone runs is linted without them.
    languageOptions: { globals: { ...globals.node } },
  },
  {
    // The stub stands in for Obsidian itself: it builds the DOM helpers the plugin's rules
    // ask the plugin to use, so those rules do not apply to it.
    files: ["tests/stubs/**"],
    rules: {
      "obsidianmd/prefer-create-el": "off",
      "obsidianmd/no-global-this": "off",
      "obsidianmd/hardcoded-config-path": "off",
    },
  },
]);
