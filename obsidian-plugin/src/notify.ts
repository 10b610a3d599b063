// Notices: what the person sees when something finished or failed, with an action button
// where there is something to do (retry, open).

import { Notice } from "obsidian";

/** How long a notice stays: errors longer, so they can be read (obsidian-git shows 10 s). */
export const NOTICE_MS = 6_000;
export const ERROR_NOTICE_MS = 12_000;

/** Shows `message`; with `action`, a button that runs it and closes the notice. */
export function notify(message: string, action?: { label: string; run: () => void }, timeout = NOTICE_MS): Notice {
  if (!action) return new Notice(message, timeout);
  let button: HTMLButtonElement | undefined;
  const fragment = createFragment((body) => {
    body.createSpan({ text: message });
    button = body.createEl("button", { text: action.label, cls: "vaultsum-notice-action" });
  });
  const notice = new Notice(fragment, timeout);
  button?.addEventListener("click", () => {
    notice.hide();
    action.run();
  });
  return notice;
}

/** Shows an error. */
export function notifyError(message: string, action?: { label: string; run: () => void }): Notice {
  return notify(message, action, ERROR_NOTICE_MS);
}
