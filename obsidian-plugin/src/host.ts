// What commands and views need from the plugin: the app, the settings, the server, and the
// places results go (cost, the summaries' states). An interface so each command file depends
// on this, not on the plugin class.

import type { App, TFile } from "obsidian";

import type { CallOptions, ToolResult } from "./backend";
import type { VaultsumSettings } from "./settings";
import type { NoteState } from "./states";

/** Images to describe and recordings to transcribe before a summary. */
export interface MediaCount {
  images: number;
  recordings: number;
}

export interface Host {
  app: App;
  settings: VaultsumSettings;
  /** Calls a tool of the vault's `vaultsum mcp`, its `details.cost` added to the day's total; errors of the binary itself are thrown. */
  callTool(name: string, args: Record<string, unknown>, options?: CallOptions): Promise<ToolResult>;
  /** Adds `details.cost` to the day's total (what a cancelled call spent, from its progress). */
  recordCost(details: Record<string, unknown>): Promise<void>;
  /** Each note's state under `target` (the binary's summary_status). */
  noteStates(target?: string): Promise<NoteState[]>;
  /** Tells the side view and the status bar that these notes may have a new state. */
  statesChanged(paths: string[]): void;
  /** Shows a progress line in the status bar; `undefined` clears it. */
  showProgress(text: string | undefined): void;
  /**
   * The images and recordings a summary of each note at `paths` would have a model read first
   * (one paid request each), or undefined when summaries are not made by a model (the offline
   * engine): counted, nothing sent.
   */
  mediaToRead(paths: string[]): Promise<MediaCount | undefined>;
  /** Saves the note first if it is open with unsaved changes (a summary never costs a keystroke). */
  saveIfOpen(file: TFile): Promise<void>;
}

/** The message of anything thrown. */
export function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** A failed call's message: the plugin's words for a `details.code` it knows, else the binary's (not its JSON). */
export function failureMessage(result: ToolResult): string {
  if (result.details.code === "no_api_key") return "No API key: set one in the vaultsum settings (API key), or choose the offline engine there.";
  return typeof result.details.error === "string" && result.text.startsWith("{") ? result.details.error : result.text;
}
