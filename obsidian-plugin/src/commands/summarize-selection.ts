// "Summarize selection": the binary's summarize_text with `format: "callout"` answers the
// selected text's summary as a `> [!summary]` block, through the output policy already (only
// links the selection names stay links) and verified inert standing alone. The plugin only
// inserts it, through the editor (where unsaved text lives), below the block the selection ends in.

import type { Editor, TFile } from "obsidian";

import { failureMessage, messageOf, type Host } from "../host";
import { notify, notifyError } from "../notify";

/** Summarizes the selection into a callout below it; the block inserted, or undefined. */
export async function summarizeSelection(host: Host, editor: Editor, file: TFile | null): Promise<string | undefined> {
  const [text, from, to] = [editor.getSelection(), editor.getCursor("from"), editor.getCursor("to")];
  // A selection of whole lines ends at the start of the next one: its last line is the one before.
  const last = to.ch === 0 && to.line > from.line ? to.line - 1 : to.line;
  try {
    // Obsidian's parse of the note (saved first, so it parses what is shown): a block inserted in a code block, table, list or callout would be part of it, in the frontmatter it breaks the YAML.
    if (file) await host.saveIfOpen(file);
    const cache = file ? host.app.metadataCache.getFileCache(file) : null;
    if (from.line <= (cache?.frontmatterPosition?.end.line ?? -1)) throw new Error("The selection is in the note's properties (frontmatter), where a summary would break them; nothing was summarized.");
    host.showProgress("Summarizing the selection…");
    const result = await host.callTool("summarize_text", { text, format: "callout" });
    if (result.isError) throw new Error(`Could not summarize the selection: ${failureMessage(result)}`);
    // Typed meanwhile, the selection may have moved: nothing goes where it no longer is.
    if (editor.getRange(from, to) !== text) throw new Error("The selection changed while it was summarized; nothing was inserted.");
    const line = cache?.sections?.find((s) => s.position.start.line <= last && last <= s.position.end.line)?.position.end.line ?? last;
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
