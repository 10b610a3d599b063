// The settings tab: each setting, the binary that was found (or where it was looked for and
// how to install it), its version, and `vaultsum doctor`'s report.

import { App, PluginSettingTab, Setting } from "obsidian";

import type { Located } from "./binary/locate";
import { secretStorage } from "./secrets";
import type { BackendSetting, VaultsumSettings } from "./settings";

export interface SettingsHost {
  settings: VaultsumSettings;
  saveSettings(): Promise<void>;
  /** Applies what the binary starts with (the tab calls it when it closes). */
  applySettings(): Promise<void>;
  locate(): Located;
  /** Whether the vaultsum program can run here at all (false on a phone or tablet). */
  onDesktop(): boolean;
  /** How to install the program on this system. */
  installHint(): string;
  version(): Promise<string>;
  doctor(): Promise<string>;
  /** vaultsum's config file (folder rules live there), as the binary names it. */
  configFile(): Promise<{ path: string }>;
  openConfigFile(): Promise<void>;
}

// No getSettingDefinitions(): the declarative API (Obsidian 1.13) replaces display() where it
// exists and has no password control, so the keys would be shown in plain text, and the
// program, doctor and config rows would go. The review's one warning, a reasoned exception
// (docs/obsidian-plugin.md, Development; scripts/lint-gate.cjs lets only it through).
/** The settings typed as text. */
type TextKey = "baseUrl" | "model" | "apiKey" | "kagiKey" | "prompt" | "language" | "rollupFolder";

export class VaultsumSettingTab extends PluginSettingTab {
  constructor(
    app: App,
    private readonly host: SettingsHost & ConstructorParameters<typeof PluginSettingTab>[1],
  ) {
    super(app, host);
  }

  override display(): void {
    const { containerEl } = this;
    containerEl.empty();
    const settings = this.host.settings;
    const save = () => void this.host.saveSettings();
    if (!this.host.onDesktop()) {
      this.displayMobile(save);
      return;
    }

    new Setting(containerEl).setName("Program").setHeading();
    const located = this.host.locate();
    const found = new Setting(containerEl).setName("Program found");
    if (located.found) {
      found.setDesc(located.launcher.command);
      const versionEl = found.descEl.createDiv({ cls: "vaultsum-version", text: "Version: …" });
      void this.host.version().then(
        (version) => versionEl.setText(`Version: ${version}`),
        (error: unknown) => versionEl.setText(`Version: could not run it (${String(error)})`),
      );
    } else {
      found.setDesc(`${located.reason} Until then, notes are summarized by the engine inside Obsidian (offline, or by your provider's model with an API key). ${this.host.installHint()}`);
      const searched = found.descEl.createDiv({ cls: "vaultsum-searched" });
      searched.createSpan({ text: "Searched: " });
      searched.createSpan({ text: located.searched.join(", ") });
    }
    new Setting(containerEl)
      .setName("Summarize with")
      .setDesc("The vaultsum program when it is found, else the engine inside Obsidian: notes, folders and rollups, written as the program writes them, offline or by the model below. Selections, web pages, watching the vault and serving agents need the program.")
      .addDropdown((dropdown) =>
        dropdown
          .addOptions({ auto: "The program if found, else inside Obsidian", binary: "The vaultsum program", app: "The engine inside Obsidian" })
          .setValue(settings.backend)
          .onChange((value) => {
            settings.backend = value as BackendSetting;
            save();
          }),
      );
    new Setting(containerEl)
      .setName("Program path")
      .setDesc("Leave empty to search the usual install folders.")
      .addText((text) =>
        text.setPlaceholder("/path/to/vaultsum").setValue(settings.binaryPath).onChange((value) => {
          settings.binaryPath = value.trim();
          save();
        }),
      );
    const doctor = new Setting(containerEl).setName("Check the setup").setDesc("Runs `vaultsum doctor`: what is set up, what is missing, how to fix it.");
    const report = containerEl.createEl("pre", { cls: "vaultsum-doctor" });
    doctor.addButton((button) =>
      button.setButtonText("Run doctor").onClick(async () => {
        report.setText("Running…");
        try {
          report.setText(await this.host.doctor());
        } catch (error) {
          report.setText(String(error));
        }
      }),
    );

    // The "Summarizer" heading comes with the provider's settings (desktop and phone alike).
    const choice = (name: string, desc: string, key: "engine" | "into", options: Record<string, string>) =>
      new Setting(containerEl).setName(name).setDesc(desc).addDropdown((dropdown) =>
        dropdown.addOptions(options).setValue(settings[key]).onChange((value) => {
          (settings as unknown as Record<string, string>)[key] = value;
          save();
        }),
      );
    const kept = this.providerSettings(save);
    const text = (name: string, desc: string, key: TextKey, placeholder = "") => this.textSetting(name, desc, key, placeholder, save);
    const number = (name: string, desc: string, key: "maxPerHour" | "pricePerMillion") =>
      new Setting(containerEl)
        .setName(name)
        .setDesc(desc)
        .addText((input) =>
          input.setValue(String(settings[key])).onChange((value) => {
            const parsed = Number.parseFloat(value);
            if (Number.isFinite(parsed) && parsed >= 0) {
              settings[key] = key === "maxPerHour" ? Math.floor(parsed) : parsed;
              save();
            }
          }),
        );
    text("Kagi API key", `Enables “Summarize a web page”. ${kept}`, "kagiKey");

    new Setting(containerEl).setName("Summaries").setHeading();
    choice("Write the summary into", "Where each summary goes; folder rules decide when unset.", "into", { "": "As the config file says (a section unless set)", section: "A summary section", property: "The summary property", both: "Both" });
    text("Prompt", "A preset, or a link to a prompt note; empty lets the note and the folder rules decide.", "prompt", "Meeting, brief, or a prompt note");
    text("Language", "The summaries' language; empty for each note's own.", "language", "auto");
    text("Rollup folder", "Where rollups are saved.", "rollupFolder", "Reviews");
    new Setting(containerEl)
      .setName("Summarize new notes automatically")
      .setDesc("Runs vaultsum's watch mode for this vault while Obsidian is open.")
      .addToggle((toggle) =>
        toggle.setValue(settings.autoSummarize).onChange((value) => {
          settings.autoSummarize = value;
          save();
        }),
      );
    number("Most notes summarized automatically per hour", "Summaries beyond it wait for the next hour (watch's --max-per-hour).", "maxPerHour");
    number("Price per million prompt tokens", "Your provider's price, in dollars, for the estimate shown before a folder is summarized; 0 when unknown.", "pricePerMillion");
    const rules = new Setting(containerEl)
      .setName("Folder rules")
      .setDesc("Per-folder prompts and languages live in vaultsum's config file.")
      .addButton((button) => button.setButtonText("Open").onClick(() => this.host.openConfigFile()));
    void this.host.configFile().then((file) => rules.setDesc(`Per-folder prompts and languages live in vaultsum's config file: ${file.path}`), () => undefined);
  }

  /**
   * A text setting. Every one is read trimmed (binaryEnvironment, summaryArguments,
   * vaultFolder), so it is kept trimmed; a key is typed as a password.
   */
  private textSetting(name: string, desc: string, key: TextKey, placeholder: string, save: () => void): Setting {
    const settings = this.host.settings;
    return new Setting(this.containerEl)
      .setName(name)
      .setDesc(desc)
      .addText((input) => {
        if (key === "apiKey" || key === "kagiKey") input.inputEl.type = "password";
        input.setPlaceholder(placeholder).setValue(settings[key]).onChange((value) => {
          settings[key] = value.trim();
          save();
        });
      });
  }

  /**
   * The engine, the provider and the key: what is sent where. With the LLM engine and a key,
   * a summarized note (with what it embeds) goes to the provider's base URL; offline, nothing
   * leaves the device. Returns where the key is kept, for the other keys' descriptions.
   */
  private providerSettings(save: () => void): string {
    const { containerEl } = this;
    const settings = this.host.settings;
    new Setting(containerEl).setName("Summarizer").setHeading();
    new Setting(containerEl)
      .setName("Engine")
      .setDesc("LLM: each note summarized (a rollup's notes together), with the notes it embeds and the text of the documents it embeds (PDF, office files, tables, canvases), is sent to your provider (the base URL below; Fireworks by default) when an API key is set, and so are the images and recordings it embeds, to be described and transcribed by the provider's vision and speech models. Offline: extractive, nothing leaves this device.")
      .addDropdown((dropdown) =>
        dropdown
          .addOptions({ llm: "LLM", local: "Offline" })
          .setValue(settings.engine)
          .onChange((value) => {
            settings.engine = value as VaultsumSettings["engine"];
            save();
          }),
      );
    const text = (name: string, desc: string, key: TextKey, placeholder = "") => this.textSetting(name, desc, key, placeholder, save);
    text("Provider base URL", "An OpenAI-compatible endpoint, empty for Fireworks. Use https: over plain http the key and the notes travel readable (fine only for a server on this device or network).", "baseUrl", "https://api.fireworks.ai/inference/v1");
    text("Model", "Empty for the default model.", "model", "accounts/fireworks/models/gpt-oss-120b");
    const kept = secretStorage(this.app)
      ? "Kept in Obsidian's secret storage (the system's keychain), not in the plugin's data.json."
      : `This Obsidian (before 1.11.4) has no secret storage: kept in plain text in ${this.app.vault.configDir}/plugins/vaultsum/data.json. Update Obsidian to keep it in the keychain.`;
    text("API key", `Sent only to the provider's base URL. ${kept}`, "apiKey");
    return kept;
  }

  /**
   * On a phone or tablet: only what the engine inside Obsidian reads. The destination, prompt
   * and language are shown so that values synced from a desktop, which it does not follow, can
   * be cleared here.
   */
  private displayMobile(save: () => void): void {
    const { containerEl } = this;
    const settings = this.host.settings;
    new Setting(containerEl)
      .setName("On this device")
      .setDesc("Notes, folders and rollups are summarized by the engine inside Obsidian, with a preset prompt, into each note's summary section: offline, or by your provider's model when the engine is LLM and an API key is set. Selections and web pages need the vaultsum program on a computer.");
    this.providerSettings(save);
    new Setting(containerEl).setName("Summaries").setHeading();
    new Setting(containerEl)
      .setName("Write the summary into")
      .setDesc("Only the summary section is written on this device.")
      .addDropdown((dropdown) =>
        dropdown.addOptions({ "": "As the config file says (a section unless set)", section: "A summary section", property: "The summary property", both: "Both" }).setValue(settings.into).onChange((value) => {
          settings.into = value as VaultsumSettings["into"];
          save();
        }),
      );
    for (const [name, key] of [["Prompt", "prompt"], ["Language", "language"]] as const) {
      new Setting(containerEl)
        .setName(name)
        .setDesc("Empty for the built-in one; another is followed by the vaultsum program only.")
        .addText((input) =>
          input.setValue(settings[key]).onChange((value) => {
            settings[key] = value.trim();
            save();
          }),
        );
    }
  }

  /** Closing the tab applies the settings at once (otherwise they apply once typing rests). */
  override hide(): void {
    super.hide();
    void this.host.applySettings();
  }
}
