// The folder a new note goes into, made when missing: vaultsum never creates folders (a
// mistyped path must not grow a tree in the vault), but the rollup folder and Clippings/ are
// places the person chose in the settings, so the plugin makes them with Obsidian's own API.

import type { App } from "obsidian";

/** Creates the folder of `notePath` (vault-relative) when it does not exist yet. */
export async function ensureFolderOf(app: App, notePath: string): Promise<void> {
  const folder = notePath.includes("/") ? notePath.slice(0, notePath.lastIndexOf("/")) : "";
  if (folder && !app.vault.getAbstractFileByPath(folder)) await app.vault.createFolder(folder);
}
