// "Summarize a web page": the binary's `summarize` tool (Kagi's Universal Summarizer) with
// `save_to`, which writes a new note with `source` and `summarized` properties (and creates
// `Clippings/` when missing); then it is opened.

import { messageOf, type Host } from "../host";
import { notify, notifyError } from "../notify";
import { dayOf } from "../cost";
import { openWhenCreated } from "./rollup";

/** The new note's path: `Clippings/<host> <path words> <date>.md`, safe as a file name. */
export function clippingPath(url: string, today: Date): string {
  let name = url;
  try {
    const parsed = new URL(url);
    const words = parsed.pathname.split("/").filter(Boolean).slice(-1)[0] ?? "";
    name = [parsed.hostname.replace(/^www\./, ""), words].filter(Boolean).join(" ");
  } catch {
    // Not a URL the browser parses: the binary will say so; the name is only a fallback.
  }
  const safe = name.replace(/[\\/:*?"<>|#^[\]]+/g, " ").replace(/\s+/g, " ").trim().slice(0, 80);
  return `Clippings/${safe} ${dayOf(today)}.md`;
}

export async function summarizeUrl(host: Host, url: string, today = new Date()): Promise<string | undefined> {
  const saveTo = clippingPath(url.trim(), today);
  try {
    host.showProgress("Summarizing the web page…");
    const result = await host.callTool("summarize", { url: url.trim(), save_to: saveTo });
    if (result.isError) {
      notifyError(`Could not summarize ${url}: ${result.text}`);
      return undefined;
    }
  } catch (error) {
    notifyError(messageOf(error));
    return undefined;
  } finally {
    host.showProgress(undefined);
  }
  await openWhenCreated(host.app, saveTo);
  notify(`Web page summarized into ${saveTo}.`);
  return saveTo;
}
