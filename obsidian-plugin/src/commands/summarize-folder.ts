// "Summarize a folder" and "Refresh stale summaries": summarize_file for each note of the
// folder as `vaultsum status` lists it, two at a time, as the command line's batch does. The
// binary decides each note (a current summary is left, a stale one replaced only on a
// refresh, one edited by hand never); this file counts what it answered and says it in the
// command line's closing words (the same line `vaultsum summarize-file FOLDER` ends with).

import { CallCancelled } from "../binary/server";
import { leftOutCount, type StatusListing } from "../binary/cli";
import { addUsage, costClause, NO_USAGE, usageOf, type Usage } from "../cost";
import { messageOf, type Host } from "../host";
import { summaryArguments } from "../settings";

/** What became of one note: `cancelled` when its call was stopped (nothing written). */
export type NoteResult = "summarized" | "skipped" | "failed" | "cancelled";

/** What a folder run reports as it goes, in order: start, one `note` per note, end. */
export type FolderEvent =
  | { kind: "start"; total: number }
  | { kind: "note"; done: number; total: number; path: string; result: NoteResult; text: string }
  | { kind: "end"; counts: FolderCounts; usage: Usage; line: string };

export interface FolderCounts {
  notes: number;
  summarized: number;
  skipped: number;
  failed: number;
  /** Notes whose call was stopped by a second cancel (each left unchanged). */
  stopped: number;
  /** Notes never started because the run was cancelled. */
  notStarted: number;
  /** Entries of the folder the binary's scan left out (a symlink out of the vault, a FIFO…). */
  leftOut: number;
  cancelled: boolean;
}

export interface FolderRun {
  /** The folder, vault-relative (`""` for the whole vault). */
  folder: string;
  /** Replace stale summaries too (never one edited by hand). */
  refresh: boolean;
  /** Stops new notes from starting; the notes in flight finish and are written whole. */
  stop: AbortSignal;
  onEvent?: (event: FolderEvent) => void;
}

/** How many notes are summarized at once (the binary's own limiter bounds the LLM calls). */
export const FOLDER_CONCURRENCY = 2;

/** Lists the folder's notes with the binary, runs them, and returns the closing counts. */
export async function summarizeFolder(
  host: Host & { noteStates(target?: string): Promise<StatusListing> },
  run: FolderRun,
): Promise<FolderEvent & { kind: "end" }> {
  const listing = await host.noteStates(run.folder || undefined);
  const notes = listing.notes.map((note) => note.path);
  const total = notes.length;
  const emit = (event: FolderEvent) => run.onEvent?.(event);
  emit({ kind: "start", total });
  const counts: FolderCounts = {
    notes: total,
    summarized: 0,
    skipped: 0,
    failed: 0,
    stopped: 0,
    notStarted: 0,
    leftOut: leftOutCount(listing.leftOut),
    cancelled: false,
  };
  let usage = NO_USAGE;
  let next = 0;
  let done = 0;
  const base = { ...summaryArguments(host.settings), skip_current: true, refresh: run.refresh };
  const worker = async () => {
    while (next < notes.length && !run.stop.aborted) {
      const path = notes[next++];
      let result: NoteResult;
      let text: string;
      try {
        const answer = await host.callTool("summarize_file", { ...base, path }, {
          onProgress: (progress) => {
            if (progress.message) host.showProgress(`vaultsum ${done}/${total}: ${path}: ${progress.message}`);
          },
        });
        usage = addUsage(usage, usageOf(answer.details));
        await host.recordCost(answer.details);
        result = answer.isError ? "failed" : typeof answer.details.skipped === "string" ? "skipped" : "summarized";
        text = answer.isError ? answer.text : typeof answer.details.skipped === "string" ? answer.details.skipped : "summarized";
      } catch (error) {
        result = error instanceof CallCancelled ? "cancelled" : "failed";
        text = error instanceof CallCancelled ? "cancelled; the note is unchanged" : messageOf(error);
      }
      counts[result === "cancelled" ? "stopped" : result] += 1;
      done += 1;
      host.showProgress(`vaultsum ${done}/${total} (click to cancel)`);
      emit({ kind: "note", done, total, path, result, text });
    }
  };
  try {
    host.showProgress(`vaultsum 0/${total} (click to cancel)`);
    await Promise.all(Array.from({ length: Math.min(FOLDER_CONCURRENCY, total) }, worker));
  } finally {
    host.showProgress(undefined);
  }
  counts.notStarted = total - done;
  counts.cancelled = run.stop.aborted && (counts.notStarted > 0 || counts.stopped > 0);
  host.statesChanged(notes);
  // The binary runs the engine the plugin's setting gives it (VAULTSUM_ENGINE), so the setting
  // says whether nothing used means "offline" or "no requests".
  const offline = host.settings.engine === "local";
  const end = { kind: "end" as const, counts, usage, line: closingLine(counts, usage, offline) };
  emit(end);
  return end;
}

/**
 * The command line's closing line, without its `vaultsum: `: `12 notes: 3 summarized, 8 skipped,
 * 1 failed, 2 left out; 3 requests, 1,240 prompt + 300 completion tokens, 0 media calls`, or
 * `2 notes: 2 summarized, offline` (the cost as `costClause` says it); after a cancel, how many
 * were not started (and what the scan left out, which the command line's interrupted line omits).
 */
export function closingLine(counts: FolderCounts, usage: Usage, offline: boolean): string {
  const plural = (n: number, noun: string) => `${n} ${noun}${n === 1 ? "" : "s"}`;
  let line = counts.cancelled
    ? `Cancelled: ${counts.summarized} of ${plural(counts.notes, "note")} summarized, ${counts.notStarted} not started`
    : `${plural(counts.notes, "note")}: ${counts.summarized} summarized`;
  if (counts.skipped > 0) line += `, ${counts.skipped} skipped`;
  if (counts.failed > 0) line += `, ${counts.failed} failed`;
  if (counts.stopped > 0) line += `, ${counts.stopped} stopped unwritten`;
  if (counts.leftOut > 0) line += `, ${counts.leftOut} left out`;
  return `${line}${costClause(usage, offline)}`;
}
