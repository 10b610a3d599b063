// The status bar item: the active note's summary state, or the progress of a running call
// (clicking it then cancels a folder run).

import { STATE_LABELS } from "./summaries-view";

/** The words for a note's state in the status bar: current / stale / none. */
export function statusBarText(state: string | undefined): string {
  if (state === undefined) return "";
  if (state === "missing") return "Summary: none";
  return `Summary: ${(STATE_LABELS[state] ?? state).toLowerCase()}`;
}
