// Where the vaultsum binary is: the path setting, else the folders installers put it in.
//
// An app started from the macOS Dock or the Windows Start menu does not get the shell's PATH
// (launchd and Explorer give a sparse one), so PATH alone misses `cargo install`'s ~/.cargo/bin,
// `uv tool install`'s ~/.local/bin and Homebrew's /opt/homebrew/bin. The plugin never downloads
// or installs the binary (Obsidian's developer policies): when nothing is found it says where it
// looked and how to install it.

import { existsSync, statSync } from "node:fs";
import * as path from "node:path";

/**
 * How to start vaultsum: the installed binary and the arguments before vaultsum's own. Never a
 * launcher that fetches it (`uvx vaultsum` would run whatever PyPI serves today).
 */
/** The system, as Node names it (`process.platform`: `linux`, `darwin`, `win32`, …). */
export type SystemName = typeof process.platform;

export interface Launcher {
  command: string;
  prefix: string[];
  /** How it was found, for the settings tab. */
  foundBy: "setting" | "search";
}

/** The outcome of a search: a launcher, or every folder that was looked in. */
export type Located =
  | { found: true; launcher: Launcher; searched: string[] }
  | { found: false; searched: string[]; reason: string };

/** What the search needs from the machine; the real one by default, a temporary one in tests. */
export interface Machine {
  platform: SystemName;
  env: Record<string, string | undefined>;
  home: string;
  isFile: (file: string) => boolean;
}

/** The machine Obsidian runs on. */
export function thisMachine(): Machine {
  return {
    platform: process.platform,
    env: process.env,
    home: process.env.HOME ?? process.env.USERPROFILE ?? "",
    isFile: (file) => {
      try {
        return existsSync(file) && statSync(file).isFile();
      } catch {
        return false;
      }
    },
  };
}

/** The install one-liners of the README's Install, one per system, shown when it is missing. */
export function installHint(platform: SystemName): string {
  const line =
    platform === "win32"
      ? "Windows: `uv tool install vaultsum` in PowerShell (or `pipx install vaultsum`)"
      : platform === "darwin"
        ? "macOS: `uv tool install vaultsum` (or `pipx install vaultsum`, `cargo install vaultsum`)"
        : "Linux: `uv tool install vaultsum` (or `pipx install vaultsum`, `cargo install vaultsum`)";
  return `Install it once in a terminal. ${line}. Then reload the plugin, or set the program's path in the vaultsum settings.`;
}

/**
 * The folders searched when no path is set, in order: Obsidian's PATH, then the folders
 * installers use, which the app's PATH often lacks. Duplicates are dropped.
 */
export function searchFolders(machine: Machine): string[] {
  const windows = machine.platform === "win32";
  const join = joinFor(machine.platform);
  const fromPath = (machine.env.PATH ?? machine.env.Path ?? "")
    .split(windows ? ";" : ":")
    .filter((folder) => folder.length > 0);
  const home = machine.home;
  const extra: string[] = [];
  if (home) {
    extra.push(join(home, ".cargo", "bin"), join(home, ".local", "bin"));
  }
  // uv's tool folder: UV_TOOL_BIN_DIR, else XDG_BIN_HOME, else ~/.local/bin (added above).
  for (const name of ["UV_TOOL_BIN_DIR", "XDG_BIN_HOME"]) {
    const folder = machine.env[name];
    if (folder) extra.push(folder);
  }
  if (windows) {
    const local = machine.env.LOCALAPPDATA;
    const appData = machine.env.APPDATA;
    if (local) extra.push(join(local, "Programs", "vaultsum"));
    if (appData) extra.push(join(appData, "Python", "Scripts"));
    if (home) extra.push(join(home, "scoop", "shims"));
  } else {
    extra.push("/opt/homebrew/bin", "/usr/local/bin", "/usr/bin");
  }
  return [...new Set([...fromPath, ...extra])];
}

/**
 * Finds vaultsum: `setting` when given (it must exist), else the first `vaultsum` in
 * [`searchFolders`], else nothing, with the folders searched.
 */
export function locateBinary(setting: string, machine: Machine = thisMachine()): Located {
  const configured = setting.trim();
  if (configured) {
    return machine.isFile(configured)
      ? { found: true, launcher: { command: configured, prefix: [], foundBy: "setting" }, searched: [] }
      : { found: false, searched: [configured], reason: `The vaultsum path in the settings does not exist: ${configured}.` };
  }
  const folders = searchFolders(machine);
  // On Windows an installer puts `vaultsum.exe`; `.cmd` shims are left out, they need a shell.
  const name = machine.platform === "win32" ? "vaultsum.exe" : "vaultsum";
  const binary = folders.map((folder) => joinFor(machine.platform)(folder, name)).find((candidate) => machine.isFile(candidate));
  if (binary) return { found: true, launcher: { command: binary, prefix: [], foundBy: "search" }, searched: folders };
  return { found: false, searched: folders, reason: "vaultsum was not found." };
}

/** Joins paths as `platform` does (a Windows search is tested on Linux too). */
function joinFor(platform: SystemName): (...parts: string[]) => string {
  return (...parts) => (platform === "win32" ? path.win32 : path.posix).join(...parts);
}

/** The notice text for a missing binary: what happened, where it looked, how to install it. */
export function missingBinaryMessage(located: Extract<Located, { found: false }>, platform = process.platform): string {
  return `${located.reason} Searched: ${located.searched.join(", ")}. ${installHint(platform)}`;
}
