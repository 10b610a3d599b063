// "Summarize this note" and its variants: one summarize_file call; the binary reads, summarizes
// and writes through its verified write path. A preview is its dry run, and Insert or Replace the
// binary writing that very summary (`preview`). This file only asks, calls and says what happened.

import type { TFile } from "obsidian";

import { CallCancelled } from "../binary/server";
import { failureMessage, messageOf, type Host } from "../host";
import { notify, notifyError } from "../notify";
import { summaryArguments, type Into } from "../settings";

/** What a person chose for this one call, over the settings. */
export interface NoteChoice {
  focus?: string;
  prompt?: string;
  into?: Into;
  /** Replace the note's `## Summary` section instead of appending another. */
  replace?: boolean;
  /** Only make the summary: the outcome `previewed` carries it and its id; nothing is written. */
  dryRun?: boolean;
  /** Write the summary of that dry run as it was shown (no second model call). */
  preview?: string;
}

/** How a call ended, for the notice and for tests. */
export type NoteOutcome =
  | { kind: "written"; path: string; message: string }
  | { kind: "changed-meanwhile"; path: string; message: string }
  | { kind: "skipped"; path: string; message: string }
  | { kind: "failed"; path: string; message: string }
  | { kind: "cancelled"; path: string; message: string }
  | { kind: "previewed"; path: string; message: string; previewId: string };

export async function summarizeNote(host: Host, file: TFile, choice: NoteChoice = {}): Promise<NoteOutcome> {
  await host.saveIfOpen(file);
  // A preview is written with the arguments it was made with: the binary refuses others.
  const args: Record<string, unknown> = choice.preview ? { path: file.path, preview: choice.preview } : { ...summaryArguments(host.settings), path: file.path };
  if (choice.dryRun) args.dry_run = true;
  if (choice.focus?.trim()) args.focus = choice.focus.trim();
  if (choice.prompt?.trim()) args.prompt = choice.prompt.trim();
  if (choice.into) args.into = choice.into;
  if (choice.replace) args.replace = true;
  const retry = () => void summarizeNote(host, file, { ...choice, replace: true });
  let outcome: NoteOutcome;
  host.showProgress(`Summarizing ${file.basename}…`);
  try {
    const result = await host.callTool("summarize_file", args, {
      onProgress: (progress) => {
        if (progress.message) host.showProgress(`${file.basename}: ${progress.message}`);
      },
    });
    await host.recordCost(result.details);
    const path = typeof result.details.path === "string" ? result.details.path : file.path;
    if (result.isError) {
      // The binary's stable code decides, not its wording; its message (not the JSON) is shown.
      const why = failureMessage(result);
      outcome =
        result.details.code === "note_busy"
          ? { kind: "changed-meanwhile", path, message: `${path} changed while its summary was being written, so vaultsum left it as it is: ${why}` }
          : { kind: "failed", path, message: result.details.code === "no_api_key" ? why : `Could not summarize ${path}: ${why}` };
    } else if (result.details.dry_run === true) {
      // What would be written: the section, the property's abstract (`into`), or both.
      const [summary, abstract, into] = [String(result.details.summary), String(result.details.abstract), result.details.into];
      outcome = { kind: "previewed", path, message: into === "property" ? abstract : into === "both" ? `${summary}\n\nProperty: ${abstract}` : summary, previewId: String(result.details.preview_id) };
    } else if (typeof result.details.skipped === "string") {
      outcome = { kind: "skipped", path, message: `${path} left as it is: ${result.details.skipped}.` };
    } else if (result.details.stale === true) {
      outcome = {
        kind: "changed-meanwhile",
        path,
        message:
          `${path} changed while its summary was being made: your edits are kept and the summary ` +
          "was added after them, but it is already stale.",
      };
    } else {
      const where = result.details.into === "property" ? "the summary property of" : result.details.into === "both" ? "the summary section and property of" : "the summary section of";
      outcome = { kind: "written", path, message: `Summary written to ${where} ${path}.` };
    }
  } catch (error) {
    outcome =
      error instanceof CallCancelled
        ? { kind: "cancelled", path: file.path, message: `Summary of ${file.path} cancelled; the note is unchanged.` }
        : { kind: "failed", path: file.path, message: messageOf(error) };
  } finally {
    host.showProgress(undefined);
  }
  host.statesChanged([outcome.path]);
  if (outcome.kind === "changed-meanwhile") {
    notifyError(outcome.message, { label: "Summarize again", run: retry });
  } else if (outcome.kind === "failed") {
    notifyError(outcome.message);
  } else if (outcome.kind !== "previewed") {
    notify(outcome.message);
  }
  return outcome;
}
