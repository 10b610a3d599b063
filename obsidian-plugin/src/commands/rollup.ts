// Rollups: one summarize_notes call that selects, summarizes and saves into the rollup folder
// (the binary creates it when missing, by its one policy for new folders: inside the vault,
// never hidden, never through a symlink); the note is opened when done. The binary resolves
// the period (`this-week`, …) from the person's local date and counts the selection first (a
// dry run); a selection over the limit, or paying the LLM more than once, is shown and made only when the person agrees.

import { normalizePath, TFile, type App, type TAbstractFile } from "obsidian";

import { CallCancelled } from "../backend";
import { dayOf } from "../cost";
import { messageOf, type Host } from "../host";
import { notify, notifyError } from "../notify";

/** Which notes a rollup draws on. */
export type RollupSelection =
  | { kind: "period"; period: "this-week" | "last-week" | "this-month" }
  | { kind: "tag"; tag: string }
  | { kind: "links-of"; path: string; basename: string };

/** The tool's selection arguments for a selection made on `today`. */
export function selectionArguments(selection: RollupSelection, today: Date): Record<string, unknown> {
  switch (selection.kind) {
    case "period":
      return { period: selection.period, today: dayOf(today) };
    case "tag":
      return { tag: selection.tag.replace(/^#/, "").trim() };
    case "links-of":
      return { links_of: selection.path };
  }
}

/** The note's name: by the first day the binary resolved for a period, else by today. */
export function rollupName(selection: RollupSelection, from: unknown, today: Date): string {
  const first = typeof from === "string" ? from : dayOf(today);
  switch (selection.kind) {
    case "period":
      return selection.period === "this-month" ? `Month ${first.slice(0, 7)}` : `Week of ${first}`;
    case "tag":
      return `Tag ${selection.tag.replace(/^#/, "").trim().replace(/\//g, "-")} ${dayOf(today)}`;
    case "links-of":
      return `Links of ${selection.basename} ${dayOf(today)}`;
  }
}

/** A folder setting as a vault path: `/Reviews/` and `Reviews` alike; `""` for the root. */
export function vaultFolder(folder: string): string {
  return normalizePath(folder.trim()).replace(/^\/+|\/+$/g, "");
}

export type RollupOutcome =
  | { kind: "saved"; path: string }
  | { kind: "declined"; count: number }
  | { kind: "failed"; message: string };

/** More notes than any vault's selection: the dry run counts them all, refusing none. */
const COUNT_ALL = 1_000_000;

/**
 * Makes the rollup. `confirm` is asked when the selection is over the limit or the LLM would be
 * paid more than once (its images and recordings counted), with the count and the preview; it
 * answers whether to go on.
 */
export async function makeRollup(
  host: Host,
  selection: RollupSelection,
  confirm: (count: number, preview: string) => Promise<boolean>,
  today = new Date(),
): Promise<RollupOutcome> {
  const args = selectionArguments(selection, today);
  let outcome: RollupOutcome;
  try {
    host.showProgress("Rollup: selecting notes…");
    // Counted first by the binary's dry run (no paid call, nothing written, no folder made).
    const counted = await host.callTool("summarize_notes", { ...args, dry_run: true, max_notes: COUNT_ALL });
    if (counted.isError) throw new Error(`Rollup not made: ${counted.text}`);
    const [count, paid, media] = [counted.details.note_count, counted.details.paid_calls, counted.details.media_to_read].map((n) => (typeof n === "number" ? n : 0));
    // The preview says the notes, the paid calls and the pictures and recordings to describe
    // (each a paid call of its own): asked when over the limit, or when the LLM would be paid
    // more than once.
    if ((count > host.settings.rollupLimit || (paid + media > 1 && counted.details.engine === "llm")) && !(await confirm(count, counted.text))) {
      return { kind: "declined", count };
    }
    const folder = vaultFolder(host.settings.rollupFolder);
    const name = rollupName(selection, counted.details.from, today);
    const saveTo = folder ? `${folder}/${name}.md` : `${name}.md`;
    const result = await host.callTool(
      "summarize_notes",
      { ...args, save_to: saveTo, max_notes: Math.max(count, host.settings.rollupLimit) },
      { onProgress: (progress) => progress.message && host.showProgress(`Rollup: ${progress.message}`) },
    );
    outcome = result.isError ? { kind: "failed", message: `Rollup not made: ${result.text}` } : { kind: "saved", path: saveTo };
  } catch (error) {
    outcome = { kind: "failed", message: error instanceof CallCancelled ? "Rollup cancelled." : messageOf(error) };
  } finally {
    host.showProgress(undefined);
  }
  if (outcome.kind === "saved") {
    await openWhenCreated(host.app, outcome.path);
    notify(`Rollup saved to ${outcome.path}.`);
  } else if (outcome.kind === "failed") {
    notifyError(outcome.message);
  }
  return outcome;
}

/**
 * Opens the note the binary wrote, once Obsidian has noticed it: the vault learns of it from
 * its file watcher, so it may take a moment (at most `timeoutMs`).
 */
export async function openWhenCreated(app: App, path: string, timeoutMs = 5_000): Promise<void> {
  const file =
    app.vault.getAbstractFileByPath(path) ??
    (await new Promise<TAbstractFile | null>((resolve) => {
      const ref = app.vault.on("create", (created) => {
        if (created.path !== path) return;
        app.vault.offref(ref);
        window.clearTimeout(timer);
        resolve(created);
      });
      const timer = window.setTimeout(() => {
        app.vault.offref(ref);
        resolve(app.vault.getAbstractFileByPath(path));
      }, timeoutMs);
    }));
  if (file instanceof TFile) await app.workspace.getLeaf(true).openFile(file);
}
