// Small dialogs that answer a promise: a line of text (a focus, a tag, a URL), a choice from a
// list (where a summary goes), a yes/no with an explanation (a bulk run, a large rollup).

import { App, Modal, Setting } from "obsidian";

/** A dialog that answers once: its answer, or `fallback` when it is closed without one. */
class AnswerModal<T> extends Modal {
  private answered = false;

  constructor(
    app: App,
    private readonly heading: string,
    private readonly build: (modal: AnswerModal<T>) => void,
    private readonly resolve: (value: T) => void,
    private readonly fallback: T,
  ) {
    super(app);
  }

  answer(value: T): void {
    this.answered = true;
    this.resolve(value);
    this.close();
  }

  override onOpen(): void {
    this.titleEl.setText(this.heading);
    this.build(this);
  }

  override onClose(): void {
    this.contentEl.empty();
    if (!this.answered) this.resolve(this.fallback);
  }
}

function ask<T>(app: App, title: string, fallback: T, build: (modal: AnswerModal<T>) => void): Promise<T> {
  return new Promise((resolve) => new AnswerModal(app, title, build, resolve, fallback).open());
}

/** Asks for one line of text; `undefined` when the dialog is closed without an answer. */
export function askText(app: App, title: string, placeholder: string, initial = ""): Promise<string | undefined> {
  return ask<string | undefined>(app, title, undefined, (modal) => {
    let value = initial;
    new Setting(modal.contentEl).addText((text) => {
      text.setPlaceholder(placeholder).setValue(value).onChange((typed) => (value = typed));
      text.inputEl.addEventListener("keydown", (event) => {
        if (event.key === "Enter") modal.answer(value);
      });
    });
    new Setting(modal.contentEl).addButton((button) => button.setButtonText("OK").setCta().onClick(() => modal.answer(value)));
  });
}

/** Asks to choose one of `options`, below `body` when given; `undefined` when closed. */
export function askChoice(app: App, title: string, options: string[], body?: string): Promise<string | undefined> {
  return ask<string | undefined>(app, title, undefined, (modal) => {
    if (body) modal.contentEl.createEl("pre", { text: body, cls: "vaultsum-preview" });
    const list = modal.contentEl.createDiv({ cls: "vaultsum-choices" });
    for (const option of options) {
      list.createEl("button", { text: option, cls: "vaultsum-choice" }).addEventListener("click", () => modal.answer(option));
    }
  });
}

/** Shows `body` and asks to go on; false when declined or closed. */
export async function askConfirm(app: App, title: string, body: string, yes: string): Promise<boolean> {
  return (await askChoice(app, title, [yes, "Cancel"], body)) === yes;
}
