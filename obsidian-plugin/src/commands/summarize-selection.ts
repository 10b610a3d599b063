// "Summarize selection": the binary's summarize_text with `format: "callout"` answers the
// selected text's summary as a `> [!summary]` block, through the output policy already (only
// links the selection names stay links) and verified inert standing alone. The plugin only
// inserts it, through the editor (where unsaved text lives), below the selection's last line.

import type { Editor } from "obsidian";

import { failureMessage, messageOf, type Host } from "../host";
import { notify, notifyError } from "../notify";

/** Summarizes the selection into a callout below it; the block inserted, or undefined. */
export async function summarizeSelection(host: Host, editor: Editor): Promise<string | undefined> {
  const [text, from, to] = [editor.getSelection(), editor.getCursor("from"), editor.getCursor("to")];
  host.showProgress("Summarizing the selection…");
  try {
    const result = await host.callTool("summarize_text", { text, format: "callout" });
    await host.recordCost(result.details);
    if (result.isError) throw new Error(`Could not summarize the selection: ${failureMessage(result)}`);
    // Typed meanwhile, the selection may have moved: nothing goes where it no longer is.
    if (editor.getRange(from, to) !== text) throw new Error("The selection changed while it was summarized; nothing was inserted.");
    // A selection of whole lines ends at the start of the next one: the block goes after the last selected line.
    const line = to.ch === 0 && to.line > from.line ? to.line - 1 : to.line;
    editor.replaceRange(`\n\n${result.text}\n`, { line, ch: editor.getLine(line).length });
    notify("Summary inserted below the selection.");
    return result.text;
  } catch (error) {
    notifyError(messageOf(error));
    return undefined;
  } finally {
    host.showProgress(undefined);
  }
}
