// Bulk runs: the notes of a folder or of the vault, missing summaries filled in or stale ones
// refreshed. The binary's `summarize_folder` does the work: first it counts (a dry run, no
// paid call), then, once the person agrees, one call runs the notes at the configured
// concurrency and reports each as progress; the counts, the cost and the closing line are
// the binary's. This file asks, shows and records.

import { CallCancelled } from "../backend";
import { thousands, usageOf } from "../cost";
import { failureMessage, messageOf, type Host, type MediaCount } from "../host";
import { summaryArguments } from "../settings";
import { mediaWords } from "./summarize-note";

/** Which notes a run writes, as the binary names it. */
export type BulkKind = "missing" | "stale" | "missing_and_stale";

/** What a run would do, as the binary counted it. */
export interface BulkCount {
  notes: number;
  toSummarize: number;
  missing: number;
  stale: number;
  estimatedPromptTokens: number;
  offline: boolean;
  /** The model the run would pay for, as the binary is configured. */
  model: string;
  /** Images and recordings the notes embed, each a paid request before their summaries (counted when a model summarizes). */
  media?: MediaCount;
}

export type BulkOutcome =
  | { kind: "done"; line: string; details: Record<string, unknown> }
  | { kind: "nothing"; count: BulkCount }
  | { kind: "declined"; count: BulkCount }
  | { kind: "cancelled"; done: number; total: number }
  | { kind: "failed"; message: string };

export interface BulkRun {
  /** Vault-relative folder, `""` for the whole vault. */
  folder: string;
  only: BulkKind;
  /** Asked with the counts before anything is spent; the run starts only on true. */
  confirm: (count: BulkCount, question: string) => Promise<boolean>;
  /** Aborting cancels the run: the notes in flight are dropped before their write. */
  signal: AbortSignal;
}

/** Counts, asks, runs. Progress goes to the status bar; the cost to the day's total. */
export async function runBulk(host: Host, run: BulkRun): Promise<BulkOutcome> {
  const base = { ...summaryArguments(host.settings), folder: run.folder, only: run.only };
  const counted = await host.callTool("summarize_folder", { ...base, dry_run: true });
  if (counted.isError) return { kind: "failed", message: failureMessage(counted) };
  const d = counted.details;
  const n = (key: string) => (typeof d[key] === "number" ? d[key] : 0);
  const count: BulkCount = {
    notes: n("notes"),
    toSummarize: n("to_summarize"),
    missing: n("missing"),
    stale: n("stale"),
    estimatedPromptTokens: n("estimated_prompt_tokens"),
    offline: d.offline === true,
    model: typeof d.model === "string" ? d.model : "",
  };
  if (count.toSummarize === 0) return { kind: "nothing", count };
  if (!count.offline && Array.isArray(d.paths)) count.media = await host.mediaToRead(d.paths.filter((path): path is string => typeof path === "string"));
  if (!(await run.confirm(count, bulkQuestion(count, host.settings.pricePerMillion)))) {
    return { kind: "declined", count };
  }
  let done = 0;
  let spent: Record<string, unknown> = {};
  host.showProgress(`vaultsum 0/${count.toSummarize} (click to cancel)`);
  try {
    // Never more notes than the person agreed to: notes added meanwhile refuse the run.
    const result = await host.callTool("summarize_folder", { ...base, max_notes: count.toSummarize }, {
      signal: run.signal,
      onProgress: (progress) => {
        if (!progress.details) return;
        done = progress.progress;
        spent = progress.details;
        host.showProgress(`vaultsum ${done}/${count.toSummarize}: ${progress.message ?? ""} (click to cancel)`);
      },
    });
    if (result.isError) return { kind: "failed", message: result.text };
    const line = typeof result.details.line === "string" ? result.details.line : result.text;
    return { kind: "done", line, details: result.details };
  } catch (error) {
    if (!(error instanceof CallCancelled)) return { kind: "failed", message: messageOf(error) };
    // The answer never comes: what was spent until the cancel is in the last note's report.
    await host.recordCost({ cost: usageOf(spent) });
    return { kind: "cancelled", done, total: count.toSummarize };
  } finally {
    host.showProgress(undefined);
  }
}

/**
 * `312 without a summary, 14 stale: summarize 326 notes with MODEL? About 120,000 prompt tokens
 * (the notes' own text; embeds add more), about $0.11 at $0.90 per million. At least one request a note, …`
 */
export function bulkQuestion(count: BulkCount, pricePerMillion: number): string {
  const parts = [
    count.missing > 0 ? `${thousands(count.missing)} without a summary` : "",
    count.stale > 0 ? `${thousands(count.stale)} stale` : "",
  ].filter(Boolean);
  const notes = `${thousands(count.toSummarize)} note${count.toSummarize === 1 ? "" : "s"}`;
  if (count.offline) {
    return `${parts.join(", ")}: summarize ${notes} with the offline engine? Nothing leaves this computer and nothing is paid.`;
  }
  const tokens = thousands(count.estimatedPromptTokens);
  let cost = `About ${tokens} prompt tokens (the notes' own text; embedded notes, images and recordings add more)`;
  if (pricePerMillion > 0) {
    const dollars = (count.estimatedPromptTokens / 1_000_000) * pricePerMillion;
    cost += `, about $${dollars.toFixed(2)} at $${pricePerMillion} per million`;
  }
  const checked = "At least one request a note, one more when the fact check sends its summary back (a short one: the summary, not the note)";
  const media = count.media && count.media.images + count.media.recordings > 0 ? ` Before the summaries, the model reads ${mediaWords(count.media)}: one paid request each (a recording billed by its length; what was read before is not paid again).` : "";
  return `${parts.join(", ")}: summarize ${notes} with ${count.model || "the configured model"}? ${cost}. ${checked}.${media}`;
}
