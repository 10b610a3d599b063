// Rollups: one summarize_notes call that selects, summarizes and saves into the rollup folder
// (the binary creates it when missing, by its one policy for new folders: inside the vault,
// never hidden, never through a symlink); the note is opened when done. A selection over the
// limit is first previewed (the binary's dry run: the notes and the paid calls) and made only
// when the person agrees.

import { TFile, type App } from "obsidian";

import { CallCancelled } from "../binary/server";
import { messageOf, type Host } from "../host";
import { notify, notifyError } from "../notify";

/** Which notes a rollup draws on. */
export type RollupSelection =
  | { kind: "this-week" }
  | { kind: "last-week" }
  | { kind: "this-month" }
  | { kind: "tag"; tag: string }
  | { kind: "links-of"; path: string; basename: string };

/** The tool's selection arguments and the note it is saved to, for a selection on `today`. */
export function rollupRequest(
  selection: RollupSelection,
  folder: string,
  today: Date,
): { args: Record<string, unknown>; saveTo: string } {
  const day = (date: Date) =>
    `${date.getFullYear()}-${String(date.getMonth() + 1).padStart(2, "0")}-${String(date.getDate()).padStart(2, "0")}`;
  const prefix = folder.replace(/\/+$/, "");
  const at = (name: string) => (prefix ? `${prefix}/${name}.md` : `${name}.md`);
  const monday = (date: Date) => {
    const copy = new Date(date.getFullYear(), date.getMonth(), date.getDate());
    copy.setDate(copy.getDate() - ((copy.getDay() + 6) % 7));
    return copy;
  };
  const plusDays = (date: Date, days: number) => new Date(date.getFullYear(), date.getMonth(), date.getDate() + days);
  switch (selection.kind) {
    case "this-week":
    case "last-week": {
      const first = plusDays(monday(today), selection.kind === "last-week" ? -7 : 0);
      const last = plusDays(first, 6);
      return { args: { from: day(first), to: day(last) }, saveTo: at(`Week of ${day(first)}`) };
    }
    case "this-month": {
      const first = new Date(today.getFullYear(), today.getMonth(), 1);
      const last = new Date(today.getFullYear(), today.getMonth() + 1, 0);
      return { args: { from: day(first), to: day(last) }, saveTo: at(`Month ${day(first).slice(0, 7)}`) };
    }
    case "tag": {
      const tag = selection.tag.replace(/^#/, "").trim();
      return { args: { tag }, saveTo: at(`Tag ${tag.replace(/\//g, "-")} ${day(today)}`) };
    }
    case "links-of":
      return { args: { links_of: selection.path }, saveTo: at(`Links of ${selection.basename} ${day(today)}`) };
  }
}

/** How many notes a refusal for size names (`123 notes selected, more than max_notes (100)`). */
export function selectedCount(text: string): number | undefined {
  const match = /(\d+) notes selected/.exec(text);
  return match ? Number(match[1]) : undefined;
}

export type RollupOutcome =
  | { kind: "saved"; path: string }
  | { kind: "declined"; count: number }
  | { kind: "failed"; message: string };

/**
 * Makes the rollup. `confirm` is asked when the selection is over the limit, with the count and
 * the binary's preview; it answers whether to go on.
 */
export async function makeRollup(
  host: Host,
  selection: RollupSelection,
  confirm: (count: number, preview: string) => Promise<boolean>,
  today = new Date(),
): Promise<RollupOutcome> {
  const { args, saveTo } = rollupRequest(selection, host.settings.rollupFolder, today);
  const call = (extra: Record<string, unknown>) =>
    host.callTool("summarize_notes", { ...args, save_to: saveTo, ...extra }, {
      onProgress: (progress) => {
        if (progress.message) host.showProgress(`Rollup: ${progress.message}`);
      },
    });
  let outcome: RollupOutcome;
  try {
    host.showProgress("Rollup: selecting notes…");
    // The selection is counted first by the binary's dry run (no paid call, nothing written),
    // so a selection over the limit is shown before anything is made or any folder created.
    let limit = host.settings.rollupLimit;
    const { save_to: _unused, ...selectionOnly } = { save_to: saveTo, ...args };
    const count = await host.callTool("summarize_notes", { ...selectionOnly, dry_run: true, max_notes: limit });
    const over = count.isError && count.details.error === "too_many_notes" ? selectedCount(count.text) : undefined;
    if (over !== undefined) {
      const preview = await host.callTool("summarize_notes", { ...selectionOnly, dry_run: true, max_notes: over });
      if (!(await confirm(over, preview.text))) {
        return { kind: "declined", count: over };
      }
      limit = over;
    }
    const result = await call({ max_notes: limit });
    await host.recordCost(result.details);
    outcome = result.isError ? { kind: "failed", message: `Rollup not made: ${result.text}` } : { kind: "saved", path: saveTo };
  } catch (error) {
    outcome = { kind: "failed", message: error instanceof CallCancelled ? "Rollup cancelled." : messageOf(error) };
  } finally {
    host.showProgress(undefined);
  }
  if (outcome.kind === "saved") {
    const file = await waitForFile(host.app, outcome.path);
    if (file) await host.app.workspace.getLeaf(true).openFile(file);
    notify(`Rollup saved to ${outcome.path}.`);
  } else if (outcome.kind === "failed") {
    notifyError(outcome.message);
  }
  return outcome;
}

/**
 * The file once Obsidian has noticed it: the binary wrote it on disk, and the vault learns of
 * it from its file watcher, so it may take a moment (at most `timeoutMs`).
 */
export function waitForFile(app: App, path: string, timeoutMs = 5_000): Promise<TFile | undefined> {
  const now = app.vault.getAbstractFileByPath(path);
  if (now instanceof TFile) return Promise.resolve(now);
  return new Promise((resolve) => {
    const ref = app.vault.on("create", (file) => {
      if (file.path === path && file instanceof TFile) {
        app.vault.offref(ref);
        window.clearTimeout(timer);
        resolve(file);
      }
    });
    const timer = window.setTimeout(() => {
      app.vault.offref(ref);
      const late = app.vault.getAbstractFileByPath(path);
      resolve(late instanceof TFile ? late : undefined);
    }, timeoutMs);
  });
}
