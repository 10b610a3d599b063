// "Summarize this note" and its variants: one summarize_file call; the binary reads, summarizes
// and writes through its verified write path. A preview is its dry run, and Insert or Replace the
// binary writing that very summary (`preview`). This file only asks, calls and says what happened.

import type { TFile } from "obsidian";

import { CallCancelled } from "../backend";
import { failureMessage, messageOf, type Host, type MediaCount } from "../host";
import { notify, notifyError } from "../notify";
import { summaryArguments, type Into } from "../settings";
import { askChoice } from "../ui/modals";

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
  /** Over a summary already there: false answers Cancel without asking (no dialog to show). */
  ask?: boolean;
}

/** How a call ended, for the notice and for tests. */
export type NoteOutcome =
  | { kind: "written"; path: string; message: string }
  | { kind: "changed-meanwhile"; path: string; message: string }
  | { kind: "skipped"; path: string; message: string }
  | { kind: "failed"; path: string; message: string }
  | { kind: "cancelled"; path: string; message: string }
  | { kind: "declined"; path: string; message: string }
  | { kind: "previewed"; path: string; message: string; text: string; previewId: string };

/** Whether a summary written now would be a second `## Summary`: the binary says the note has one, and it goes there. */
export async function hasSummarySection(host: Host, file: TFile, into = host.settings.into): Promise<boolean> {
  if (into === "property") return false;
  const [note] = await host.noteStates(file.path);
  return note?.section !== undefined && note.section !== "missing";
}

/**
 * What the notice adds when embedded files could not be read (the expansion's `unread`: a
 * picture the server refused, an encrypted PDF): the summary was made without them.
 */
export function unreadWords(expansion: unknown): string {
  const unread = (expansion as { unread?: { path?: unknown; reason?: unknown }[] } | undefined)?.unread;
  if (!Array.isArray(unread) || unread.length === 0) return "";
  const named = unread.slice(0, 3).map((item) => `${String(item.path)} (${String(item.reason)})`);
  const more = unread.length > 3 ? `, and ${unread.length - 3} more` : "";
  return ` Made without ${unread.length === 1 ? "an embedded file" : `${unread.length} embedded files`} that could not be read: ${named.join("; ")}${more}.`;
}

/** Images a note's summary may have described without a question (one small paid request each); a recording is always asked for. */
export const IMAGES_WITHOUT_ASKING = 3;

/** `2 pictures and 1 recording`. */
export function mediaWords(media: MediaCount): string {
  const parts = [
    media.images > 0 ? `${media.images} picture${media.images === 1 ? "" : "s"}` : "",
    media.recordings > 0 ? `${media.recordings} recording${media.recordings === 1 ? "" : "s"}` : "",
  ].filter(Boolean);
  return parts.join(" and ");
}

/** What the question before a note's summary says of its images and recordings. */
export function mediaQuestion(media: MediaCount): string {
  const requests = media.images + media.recordings;
  return `Before its summary, the model is asked to describe each picture and transcribe each recording this note embeds (the notes it embeds included): ${mediaWords(media)}, ${requests} more paid request${requests === 1 ? "" : "s"}, each billed by your provider (a recording by its length). What was read before (the program keeps it in its cache; inside Obsidian, until Obsidian closes) is not paid again.`;
}

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
  try {
    // A second summary is never appended (and paid for) unasked.
    if (!choice.replace && !choice.preview && !choice.dryRun && (await hasSummarySection(host, file, choice.into))) {
      // A section edited since vaultsum wrote it holds the person's own words: said before Replace.
      const [state] = await host.noteStates(file.path);
      const edited = state?.section === "edited" || state?.section === "unmarked";
      const why = edited
        ? "Its summary section was changed since vaultsum wrote it (or not written by vaultsum): Replace deletes that whole section, everything under “## Summary” up to the next heading, your own text in it included. Add another keeps it and appends a new one."
        : "Replace writes the new summary in place of its summary section; Add another appends a second one.";
      const answer = choice.ask === false ? "Cancel" : await askChoice(host.app, `${file.basename} has a summary already`, ["Replace", "Add another", "Cancel"], why);
      if (answer !== "Replace" && answer !== "Add another") return { kind: "declined", path: file.path, message: `${file.path} has a summary already; nothing was done (Summarize this note again replaces it).` };
      if (answer === "Replace") args.replace = true;
    }
    // Asked to replace outright (Summarize this note again): still asked first when the
    // section holds text vaultsum did not write, which Replace would delete with it.
    if (choice.replace && !choice.preview && !choice.dryRun && choice.into !== "property") {
      const [state] = await host.noteStates(file.path);
      if (state?.section === "edited" || state?.section === "unmarked") {
        const answer = choice.ask === false ? "Cancel" : await askChoice(host.app, `${file.basename}: replace a changed summary?`, ["Replace", "Cancel"], "Its summary section was changed since vaultsum wrote it (or not written by vaultsum): Replace deletes that whole section, everything under “## Summary” up to the next heading, your own text in it included.");
        if (answer !== "Replace") return { kind: "declined", path: file.path, message: `${file.path}: its changed summary section was kept; nothing was done.` };
      }
    }
    // The images and recordings read before the summary are paid requests of their own: more
    // than a few, or any recording (billed by its length), are counted and asked for first.
    if (!choice.preview) {
      const media = await host.mediaToRead([file.path]);
      if (media && (media.recordings > 0 || media.images > IMAGES_WITHOUT_ASKING)) {
        const answer = choice.ask === false ? "Cancel" : await askChoice(host.app, `${file.basename}: ${mediaWords(media)} to read first`, ["Summarize", "Cancel"], mediaQuestion(media));
        if (answer !== "Summarize") return { kind: "declined", path: file.path, message: `${file.path}: nothing was sent and nothing was paid.` };
      }
    }
    host.showProgress(`Summarizing ${file.basename}…`);
    const result = await host.callTool("summarize_file", args, {
      onProgress: (progress) => {
        if (progress.message) host.showProgress(`${file.basename}: ${progress.message}`);
      },
    });
    const path = typeof result.details.path === "string" ? result.details.path : file.path;
    if (result.isError) {
      // The binary's stable code decides, not its wording; its message (not the JSON) is shown.
      const why = failureMessage(result);
      outcome =
        result.details.code === "note_busy"
          ? { kind: "changed-meanwhile", path, message: `${path} changed while its summary was being written, so vaultsum left it as it is: ${why}` }
          : { kind: "failed", path, message: result.details.code === "no_api_key" ? why : `Could not summarize ${path}: ${why}` };
    } else if (result.details.dry_run === true) {
      // What would be written: the section, the property's abstract (`into`), or both, shown apart; Copy takes the section's.
      const [summary, abstract, into] = [String(result.details.summary), String(result.details.abstract), result.details.into];
      const text = into === "property" ? abstract : summary;
      outcome = { kind: "previewed", path, message: into === "both" ? `${summary}\n\nIn the summary property: ${abstract}` : text, text, previewId: String(result.details.preview_id) };
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
      // Made inside Obsidian (no program here): said, with what made it, offline or which model.
      const inApp = result.details.engine === "in-app";
      const how = !inApp ? "" : result.details.offline === false ? ` (by ${String(result.details.model)}, from inside Obsidian)` : " (offline, inside Obsidian)";
      outcome = { kind: "written", path, message: `Summary written to ${where} ${path}${how}.${unreadWords(result.details.expansion)}` };
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
