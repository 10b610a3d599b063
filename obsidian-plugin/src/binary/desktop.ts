// Everything of the plugin that needs Node, so a desktop app: finding, starting and talking to
// the vaultsum program. main.ts imports this module dynamically, only where Obsidian is not
// the mobile app, so the plugin loads on a phone (where the engine inside Obsidian runs).

export { binaryVersion, configFile, doctorReport, startWatch } from "./cli";
export { installHint, locateBinary, missingBinaryMessage, type SystemName } from "./locate";
import type { SystemName } from "./locate";
export { VaultsumServer } from "./server";

/** This system's name for install hints (`linux`, `darwin`, `win32`). */
export function platform(): SystemName {
  return process.platform;
}

/** Obsidian's own environment (PATH, HOME, proxies), which the program starts with. */
export function inheritedEnvironment(): Record<string, string | undefined> {
  return process.env;
}
