// Small dialogs that answer a promise: a line of text (a focus, a tag, a URL), a choice from a
// list (a prompt preset), a yes/no with an explanation (a large rollup).

import { App, Modal, Setting } from "obsidian";

/** Asks for one line of text; `undefined` when the dialog is closed without an answer. */
export function askText(app: App, title: string, placeholder: string, initial = ""): Promise<string | undefined> {
  return new Promise((resolve) => {
    const modal = new TextModal(app, title, placeholder, initial, resolve);
    modal.open();
  });
}

class TextModal extends Modal {
  private answered = false;

  constructor(
    app: App,
    private readonly heading: string,
    private readonly placeholder: string,
    private value: string,
    private readonly resolve: (value: string | undefined) => void,
  ) {
    super(app);
  }

  override onOpen(): void {
    this.titleEl.setText(this.heading);
    const submit = () => {
      this.answered = true;
      this.resolve(this.value);
      this.close();
    };
    new Setting(this.contentEl).addText((text) => {
      text.setPlaceholder(this.placeholder).setValue(this.value).onChange((value) => (this.value = value));
      text.inputEl.addEventListener("keydown", (event) => {
        if (event.key === "Enter") submit();
      });
    });
    new Setting(this.contentEl).addButton((button) => button.setButtonText("OK").setCta().onClick(submit));
  }

  override onClose(): void {
    this.contentEl.empty();
    if (!this.answered) this.resolve(undefined);
  }
}

/** Asks to choose one of `options`; `undefined` when closed. */
export function askChoice(app: App, title: string, options: string[]): Promise<string | undefined> {
  return new Promise((resolve) => {
    const modal = new ChoiceModal(app, title, options, resolve);
    modal.open();
  });
}

class ChoiceModal extends Modal {
  private answered = false;

  constructor(
    app: App,
    private readonly heading: string,
    private readonly options: string[],
    private readonly resolve: (value: string | undefined) => void,
  ) {
    super(app);
  }

  override onOpen(): void {
    this.titleEl.setText(this.heading);
    const list = this.contentEl.createDiv({ cls: "vaultsum-choices" });
    for (const option of this.options) {
      const button = list.createEl("button", { text: option, cls: "vaultsum-choice" });
      button.addEventListener("click", () => {
        this.answered = true;
        this.resolve(option);
        this.close();
      });
    }
  }

  override onClose(): void {
    this.contentEl.empty();
    if (!this.answered) this.resolve(undefined);
  }
}

/** Shows `body` and asks to go on; false when declined or closed. */
export function askConfirm(app: App, title: string, body: string, yes: string): Promise<boolean> {
  return new Promise((resolve) => {
    const modal = new ConfirmModal(app, title, body, yes, resolve);
    modal.open();
  });
}

class ConfirmModal extends Modal {
  private answered = false;

  constructor(
    app: App,
    private readonly heading: string,
    private readonly body: string,
    private readonly yes: string,
    private readonly resolve: (value: boolean) => void,
  ) {
    super(app);
  }

  override onOpen(): void {
    this.titleEl.setText(this.heading);
    this.contentEl.createEl("pre", { text: this.body, cls: "vaultsum-preview" });
    new Setting(this.contentEl)
      .addButton((button) =>
        button
          .setButtonText(this.yes)
          .setCta()
          .onClick(() => {
            this.answered = true;
            this.resolve(true);
            this.close();
          }),
      )
      .addButton((button) => button.setButtonText("Cancel").onClick(() => this.close()));
  }

  override onClose(): void {
    this.contentEl.empty();
    if (!this.answered) this.resolve(false);
  }
}
