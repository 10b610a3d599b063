// The vaultsum plugin: commands, menus, the side view, the status bar item and the settings,
// all over one `vaultsum mcp` per vault, or, without the program, over vaultsum's engine inside
// Obsidian (engine/in-app.ts). It holds no summarizing, reading or writing logic: every action
// is a call of a tool of one of the two (see host.ts for what commands get).


import { FileSystemAdapter, MarkdownView, Menu, Platform, Plugin, TAbstractFile, TFile, TFolder, type WorkspaceLeaf } from "obsidian";

import { ServerError, type CallOptions, type ToolResult } from "./backend";
import type * as Desktop from "./binary/desktop";
import type { Launcher, Located } from "./binary/locate";
import type { VaultsumServer } from "./binary/server";
import { makeRollup, vaultFolder, type RollupSelection } from "./commands/rollup";
import { InAppBackend, type ModelAccess } from "./engine/in-app";
import { endDocumentReader } from "./engine/modules";
import { runBulk, type BulkKind, type BulkOutcome } from "./commands/summarize-folder";
import { hasSummarySection, summarizeNote, type NoteChoice } from "./commands/summarize-note";
import { summarizeSelection } from "./commands/summarize-selection";
import { summarizeUrl } from "./commands/summarize-url";
import { recordUsage, todaysUsage, usageOf, type DayCost, type Usage } from "./cost";
import { messageOf, type Host, type MediaCount } from "./host";
import { notify, notifyError } from "./notify";
import { loadSecrets, storedSettings } from "./secrets";
import { binaryEnvironment, loadSettings, summaryArguments, type Into, type VaultsumSettings } from "./settings";
import { VaultsumSettingTab } from "./settings-tab";
import { SummaryStates, type NoteState } from "./states";
import { askChoice, askConfirm, askText } from "./ui/modals";
import { statusBarText } from "./views/status-bar";
import { SUMMARIES_VIEW, SummariesView } from "./views/summaries-view";

/**
 * How long after the last change of a setting it is applied (or at once when the settings tab
 * closes): typing a model name restarts the binary once, not once per keystroke.
 */
export const SETTINGS_SETTLE_MS = 1_500;

/** How long a look for the program is reused (a program installed meanwhile is found after it). */
const LOCATE_FOR_MS = 5_000;

/** What the plugin keeps in data.json: the settings and the day's cost. */
interface StoredData {
  settings?: Partial<VaultsumSettings>;
  cost?: DayCost;
}

export default class VaultsumPlugin extends Plugin implements Host {
  settings: VaultsumSettings = loadSettings(undefined);
  states!: SummaryStates;
  /** What needs Node (the program): loaded on desktop only, so the plugin loads on mobile. */
  private desktop: typeof Desktop | undefined;
  private server: VaultsumServer | undefined;
  /** The last look for the program (see `locate`). */
  private located: { key: string; at: number; located: Located } | undefined;
  private inApp: InAppBackend | undefined;
  private cost: DayCost | undefined;
  private statusBarEl!: HTMLElement;
  private progressText: string | undefined;
  /** The bulk run going on (one at a time); aborting it cancels its call. */
  private bulk: AbortController | undefined;
  private applyTimer: number | undefined;
  /** The tool calls running now, each cancellable. */
  private calls = new Set<AbortController>();
  /**
   * The settings changed what the binary starts with while calls ran: it is restarted once they
   * end, and calls made meanwhile wait for it (they are for the new settings).
   */
  private restart: { done: Promise<void>; resolve: () => void } | undefined;
  private lastStartSignature = "";
  private watcher: ReturnType<(typeof Desktop)["startWatch"]> | undefined;

  override async onload(): Promise<void> {
    // The program's side needs Node and Electron: loaded only in the desktop app.
    if (Platform.isDesktopApp) this.desktop = await import("./binary/desktop");
    const stored = ((await this.loadData()) ?? {}) as StoredData;
    this.settings = loadSettings(stored.settings);
    loadSecrets(this.app, this.settings);
    // A key kept in data.json by an older version moves to the secret storage, out of the file.
    if (stored.settings?.apiKey || stored.settings?.kagiKey) await this.persist();
    this.cost = stored.cost;
    this.lastStartSignature = this.startSignature();
    this.states = new SummaryStates((target) => this.noteStates(target));

    this.registerView(SUMMARIES_VIEW, (leaf) => new SummariesView(leaf, this));
    this.addSettingTab(new VaultsumSettingTab(this.app, this));
    this.statusBarEl = this.addStatusBarItem();
    this.statusBarEl.addClass("vaultsum-status");
    this.statusBarEl.addEventListener("click", () => this.cancel());
    this.states.onUpdate(() => this.renderStatusBar());

    this.addCommands();
    this.registerCli();
    this.registerEvent(this.app.workspace.on("file-menu", (menu, file) => this.fileMenu(menu, file)));
    this.registerEvent(
      this.app.workspace.on("editor-menu", (menu, _editor, view) => {
        if (view.file) this.fileMenu(menu, view.file);
      }),
    );
    this.addRibbonIcon("list-checks", "Open summaries", () => void this.openView());
    this.app.workspace.onLayoutReady(() => {
      // The status of the note opened, from the first note opened after start: the layout
      // restored at start (a file-open for each pane) starts neither the engine nor the program.
      this.registerEvent(this.app.workspace.on("file-open", () => void this.onActiveNote()));
      // Vault events only from now: while a vault loads, Obsidian reports every file as created.
      this.registerEvent(this.app.vault.on("modify", (file) => this.states.changed(file.path)));
      this.registerEvent(this.app.vault.on("create", (file) => this.states.changed(file.path)));
      this.registerEvent(this.app.vault.on("delete", (file) => this.states.removed(file.path)));
      this.registerEvent(
        this.app.vault.on("rename", (file, oldPath) => {
          this.states.removed(oldPath);
          this.states.changed(file.path);
        }),
      );
      if (this.settings.autoSummarize) this.startWatcher();
    });
  }

  override onunload(): void {
    window.clearTimeout(this.applyTimer);
    // The document reader's worker, if one runs, ends with the plugin.
    endDocumentReader();
    this.bulk?.abort();
    for (const call of this.calls) call.abort();
    this.states?.dispose();
    this.stopWatcher();
    void this.server?.stop();
  }

  // ----- Host -----------------------------------------------------------------------------

  /** The vault's folder on disk; the plugin is desktop only, so the adapter is the file system. */
  get vaultPath(): string {
    const adapter = this.app.vault.adapter;
    // FileSystemAdapter is not there at all on mobile.
    if (typeof FileSystemAdapter !== "function" || !(adapter instanceof FileSystemAdapter)) throw new ServerError("vaultsum needs a vault on this computer's disk.");
    return adapter.getBasePath();
  }

  locate(): Located {
    if (!this.desktop) return { found: false, searched: [], reason: "The vaultsum program does not run on this device." };
    // Asked for every command the palette lists and every note opened: the folders are looked
    // at again after a few seconds, or at once when the path or PATH changed.
    const key = `${this.settings.binaryPath}\0${this.desktop.inheritedEnvironment().PATH ?? ""}`;
    const now = Date.now();
    if (this.located?.key !== key || now - this.located.at > LOCATE_FOR_MS) {
      this.located = { key, at: now, located: this.desktop.locateBinary(this.settings.binaryPath) };
    }
    return this.located.located;
  }

  onDesktop(): boolean {
    return this.desktop !== undefined;
  }

  installHint(): string {
    return this.desktop ? this.desktop.installHint(this.desktop.platform()) : "On a phone or tablet, notes are summarized by the engine inside Obsidian.";
  }

  /** The desktop side, or a ServerError saying the program cannot run here. */
  private desktopOnly(): typeof Desktop {
    if (!this.desktop) throw new ServerError("This needs the vaultsum program, which does not run on this device.");
    return this.desktop;
  }

  /** The launcher, or a ServerError whose message says where it looked and how to install. */
  launcher(): Launcher {
    const located = this.locate();
    if (!located.found) throw new ServerError(this.desktop ? this.desktop.missingBinaryMessage(located) : located.reason);
    return located.launcher;
  }

  environment(): Record<string, string> {
    return binaryEnvironment(this.settings, this.vaultPath, this.desktopOnly().inheritedEnvironment());
  }

  async callTool(name: string, args: Record<string, unknown>, options: CallOptions = {}): Promise<ToolResult> {
    // Every call can be cancelled from the status bar: aborting its signal sends MCP
    // `notifications/cancelled`, and the binary drops the call before it writes anything.
    while (this.restart) await this.restart.done;
    const controller = new AbortController();
    options.signal?.addEventListener("abort", () => controller.abort());
    this.calls.add(controller);
    try {
      const backend = this.usesInAppEngine() ? (this.inApp ??= new InAppBackend(this.app, () => this.modelAccess())) : this.startedServer();
      const result = await backend.call(name, args, { ...options, signal: controller.signal });
      await this.recordCost(result.details);
      return result;
    } finally {
      this.calls.delete(controller);
      if (this.calls.size === 0) await this.restartIfPending();
    }
  }

  /**
   * Counted by the engine inside Obsidian over this vault, for either way of summarizing (the
   * program expands a note the same way); asked only when a model summarizes: the engine inside
   * Obsidian with a key, or the program with the LLM engine chosen.
   */
  async mediaToRead(paths: string[]): Promise<MediaCount | undefined> {
    const byModel = this.usesInAppEngine() ? this.modelAccess() !== undefined : this.settings.engine === "llm";
    if (!byModel) return undefined;
    this.inApp ??= new InAppBackend(this.app, () => this.modelAccess());
    return this.inApp.mediaToRead(paths);
  }

  /** The model the engine inside Obsidian asks: with the LLM engine chosen and an API key given; else it summarizes offline. */
  private modelAccess(): ModelAccess | undefined {
    const { engine, apiKey, baseUrl, model } = this.settings;
    return engine === "llm" && apiKey.trim() ? { apiKey: apiKey.trim(), baseUrl, model } : undefined;
  }

  /**
   * Whether calls go to the engine inside Obsidian: always with the `app` setting, never with
   * `binary`, and with `auto` (the default) when the vaultsum program is not found, so a
   * plugin installed from the directory summarizes at once.
   */
  usesInAppEngine(): boolean {
    if (!this.desktop || this.settings.backend === "app") return true;
    if (this.settings.backend === "binary") return false;
    return !this.locate().found;
  }

  /** The restart the settings asked for while calls ran, once they all ended. */
  private async restartIfPending(): Promise<void> {
    const restart = this.restart;
    if (!restart) return;
    await this.server?.reset();
    this.restart = undefined;
    restart.resolve();
  }

  private startedServer(): VaultsumServer {
    if (!this.server) {
      this.server = new (this.desktopOnly().VaultsumServer)({
        launcher: () => this.launcher(),
        environment: () => this.environment(),
        vault: this.vaultPath,
        onExit: (reason, restarting) =>
          notifyError(`vaultsum stopped: ${reason}. ${restarting ? "It will be started again on the next use." : "It will not be restarted."}`),
      });
    }
    return this.server;
  }

  /** The running server (tests look at its process). */
  get mcpServer(): VaultsumServer | undefined {
    return this.server;
  }

  async recordCost(details: Record<string, unknown>): Promise<void> {
    const usage = usageOf(details);
    if (usage.requests === 0 && usage.media_calls === 0) return;
    this.cost = recordUsage(this.cost, usage, new Date());
    await this.persist();
  }

  todaysUsage(): Usage {
    return todaysUsage(this.cost, new Date());
  }

  statesChanged(paths: string[]): void {
    void this.states.update(paths);
  }

  showProgress(text: string | undefined): void {
    this.progressText = text;
    this.renderStatusBar();
  }

  async saveIfOpen(file: TFile): Promise<void> {
    for (const leaf of this.app.workspace.getLeavesOfType("markdown")) {
      const view = leaf.view;
      if (view instanceof MarkdownView && view.file?.path === file.path) {
        await view.save();
      }
    }
  }

  /** Each note's state under `target` (the vault when empty): one `summary_status` call. */
  async noteStates(target = ""): Promise<NoteState[]> {
    const result = await this.callTool("summary_status", { path: target });
    if (result.isError) throw new Error(result.text);
    return Array.isArray(result.details.notes) ? (result.details.notes as NoteState[]) : [];
  }

  /** Replaces one note's stale summary (the view's Refresh on its row). */
  async refreshNote(notePath: string): Promise<void> {
    const file = this.app.vault.getAbstractFileByPath(notePath);
    if (file instanceof TFile) await this.saveIfOpen(file);
    const result = await this.guard(() => this.callTool("summarize_file", { ...summaryArguments(this.settings), path: notePath, refresh: true }));
    if (result?.isError) notifyError(`Could not refresh ${notePath}: ${result.text}`);
    await this.states.update([notePath]);
  }

  version(): Promise<string> {
    return this.desktopOnly().binaryVersion(this.launcher(), this.environment(), this.vaultPath);
  }

  doctor(): Promise<string> {
    return this.desktopOnly().doctorReport(this.launcher(), this.environment(), this.vaultPath);
  }

  /** Where the binary reads its config file (`vaultsum config path`), and whether it exists yet. */
  async configFile(): Promise<{ path: string; exists: boolean }> {
    return this.desktopOnly().configFile(this.launcher(), this.environment(), this.vaultPath);
  }

  async openConfigFile(): Promise<void> {
    const { path: file, exists } = await this.configFile();
    if (!exists) {
      notify(`vaultsum has no config file yet (it runs with its defaults). To add folder rules, create ${file}; config.example.toml in vaultsum's repository lists every key.`, undefined, 15_000);
      return;
    }
    const electron = (window as unknown as { require?: (name: string) => { shell?: { openPath(path: string): Promise<string> } } }).require?.("electron");
    const failed = electron?.shell ? await electron.shell.openPath(file) : "no program to open it with";
    if (failed) notifyError(`Could not open ${file}: ${failed}`);
  }

  /** Saves the settings now; what the binary starts with is applied once they settle. */
  async saveSettings(): Promise<void> {
    await this.persist();
    window.clearTimeout(this.applyTimer);
    this.applyTimer = window.setTimeout(() => void this.applySettings(), SETTINGS_SETTLE_MS);
  }

  /**
   * Restarts the binary and the watcher when what they start with changed (not for a call
   * argument such as `into`): at once when nothing runs, else after the calls running now (a
   * setting changed during a folder run must not cut it short). The settings tab calls it when
   * it closes.
   */
  async applySettings(): Promise<void> {
    window.clearTimeout(this.applyTimer);
    this.applyTimer = undefined;
    const startedWith = this.startSignature();
    if (startedWith === this.lastStartSignature) return;
    this.lastStartSignature = startedWith;
    // watch stops cleanly on SIGTERM: the summaries it has started finish and are written whole.
    this.stopWatcher();
    if (this.settings.autoSummarize) this.startWatcher();
    if (this.calls.size === 0) await this.server?.reset();
    else if (!this.restart) {
      const restart: { done?: Promise<void>; resolve: () => void } = { resolve: () => undefined };
      restart.done = new Promise<void>((resolve) => (restart.resolve = resolve));
      this.restart = restart as { done: Promise<void>; resolve: () => void };
    }
  }

  /** What the binary and the watcher are started with: its path and environment, watch's limit. */
  private startSignature(): string {
    let environment: Record<string, string> = {};
    try {
      environment = this.environment();
    } catch {
      // No vault folder: nothing can start anyway.
    }
    const { binaryPath, autoSummarize, maxPerHour } = this.settings;
    return JSON.stringify([binaryPath, autoSummarize, maxPerHour, environment]);
  }

  private async persist(): Promise<void> {
    const data: StoredData = { settings: storedSettings(this.app, this.settings), cost: this.cost };
    await this.saveData(data);
  }

  // ----- Commands and menus -----------------------------------------------------------------

  private addCommands(): void {
    const withNote = (run: (file: TFile) => Promise<unknown>) => (checking: boolean) => {
      const file = this.app.workspace.getActiveFile();
      if (!file || file.extension !== "md") return false;
      if (!checking) void run(file);
      return true;
    };
    const ask = (title: string, placeholder: string) => askText(this.app, title, placeholder);
    const noteCommands: [string, string, (file: TFile) => Promise<unknown>][] = [
      ["summarize-note", "Summarize this note", (file) => this.summarize(file)],
      ["summarize-note-again", "Summarize this note again (replace its summary)", (file) => this.summarize(file, { replace: true })],
      ["summarize-note-preview", "Summarize this note (preview)", (file) => this.preview(file)],
      ["summarize-note-focus", "Summarize this note with a focus…", (file) => this.askFocus(file)],
      // The binary knows its presets and refuses an unknown one with the list.
      ["summarize-note-into", "Summarize this note into…", (file) => this.whenAnswered(askChoice(this.app, "Write the summary into", ["section", "property", "both"]), (into) => this.summarize(file, { into: into as Into }))],
    ];
    for (const [id, name, run] of noteCommands) this.addCommand({ id, name, checkCallback: withNote(run) });
    // Inside Obsidian the presets are followed; a prompt note needs the program (refused by name).
    this.addCommand({
      id: "summarize-note-prompt",
      name: "Summarize this note with a prompt…",
      checkCallback: withNote((file) => this.whenAnswered(ask("Summarize with a prompt", "A preset (meeting, brief, …) or [[Prompts/Name]]"), (prompt) => this.summarize(file, { prompt }))),
    });
    this.addCommand({
      id: "rollup-links",
      name: "Rollup of the notes this note links to",
      checkCallback: (checking) => {
        const file = this.app.workspace.getActiveFile();
        if (!file || file.extension !== "md") return false;
        if (!checking) void this.rollup({ kind: "links-of", path: file.path, basename: file.basename });
        return true;
      },
    });
    const folderOf = (file: TFile) => file.parent?.path ?? "";
    const bulk = (id: string, name: string, only: BulkKind) => {
      this.addCommand({ id: `${id}-folder`, name: `${name} in this note's folder`, checkCallback: withNote((file) => this.runFolder(folderOf(file), only)) });
      this.addCommand({ id: `${id}-vault`, name: `${name} in the vault`, callback: () => void this.runFolder("", only) });
    };
    bulk("fill-missing", "Summarize the notes without a summary", "missing");
    bulk("refresh-stale", "Refresh stale summaries", "stale");
    this.addCommand({ id: "summarize-selection", name: "Summarize selection", editorCheckCallback: (checking, editor, view) => {
      if (!editor.somethingSelected() || this.usesInAppEngine()) return false;
      if (!checking) void summarizeSelection(this, editor, view.file);
      return true;
    } });
    this.addCommand({
      id: "cancel",
      name: "Cancel the running summary",
      checkCallback: (checking) => {
        if (!this.bulk && this.calls.size === 0) return false;
        if (!checking) this.cancel();
        return true;
      },
    });
    for (const [period, words] of [["this-week", "this week's"], ["last-week", "last week's"], ["this-month", "this month's"]] as const) {
      this.addCommand({ id: `rollup-${period}`, name: `Rollup of ${words} daily notes`, callback: () => void this.rollup({ kind: "period", period }) });
    }
    // Rollups run in either backend (the program, or the engine inside Obsidian).
    this.addCommand({ id: "rollup-tag", name: "Rollup of a tag…", callback: () => void this.whenAnswered(ask("Rollup of a tag", "#project"), (tag) => this.rollup({ kind: "tag", tag })) });
    this.addCommand({
      id: "summarize-url",
      name: "Summarize a web page into a new note…",
      checkCallback: (checking) => {
        if (!this.settings.kagiKey || this.usesInAppEngine()) return false;
        if (!checking) void this.whenAnswered(ask("Summarize a web page", "https://…"), (url) => summarizeUrl(this, url));
        return true;
      },
    });
    this.addCommand({ id: "open-summaries", name: "Open the summaries view", callback: () => void this.openView() });
  }

  /** Obsidian's command line (1.12.2 and later): `obsidian vaultsum:summarize path=Notes/A.md`. */
  private registerCli(): void {
    type Flags = Record<string, { value?: string; description: string; required?: boolean }>;
    type Handler = (params: Record<string, unknown>) => Promise<string>;
    const register = (this as unknown as { registerCliHandler?: (id: string, about: string, flags: Flags | null, run: Handler) => void }).registerCliHandler;
    if (typeof register !== "function") return;
    const flags = { path: { value: "<path>", description: "The note, vault-relative", required: true } };
    register.call(this, "vaultsum:summarize", "Summarize a note into it with vaultsum", flags, async (params) => {
      const file = typeof params.path === "string" ? this.app.vault.getAbstractFileByPath(params.path) : null;
      return file instanceof TFile ? (await this.summarize(file, { ask: false })).message : `No note at ${String(params.path)}.`;
    });
  }

  /** A folder's runs, a note's summaries: the file menu's items, and the editor menu's. */
  private fileMenu(menu: Menu, file: TAbstractFile): void {
    const items: [string, string, () => Promise<unknown>][] =
      file instanceof TFolder
        ? [["Summarize the notes without a summary", "list-checks", () => this.runFolder(file.path, "missing")], ["Refresh stale summaries in this folder", "refresh-cw", () => this.runFolder(file.path, "stale")]]
        : file instanceof TFile && file.extension === "md"
          ? [["Summarize this note", "list-checks", () => this.summarize(file)], ["Summarize with a focus…", "target", () => this.askFocus(file)], ["Summarize this note (preview)", "eye", () => this.preview(file)]]
          : [];
    for (const [title, icon, run] of items) menu.addItem((item) => item.setTitle(title).setIcon(icon).onClick(() => void run()));
  }

  // ----- Actions ----------------------------------------------------------------------------

  /** Runs an action, turning a missing or stopped binary into a notice; undefined then. */
  private async guard<T>(run: () => Promise<T>): Promise<T | undefined> {
    try {
      return await run();
    } catch (error) {
      notifyError(messageOf(error));
      return undefined;
    }
  }

  summarize(file: TFile, choice: NoteChoice = {}) {
    return summarizeNote(this, file, choice);
  }

  /** The binary's dry run shown; Insert or Replace has the binary write that very summary, Copy puts it on the clipboard. */
  async preview(file: TFile): Promise<void> {
    const shown = await this.summarize(file, { dryRun: true });
    if (shown.kind !== "previewed") return;
    // With a summary there, Insert would add a second one: Replace comes first.
    const options = (await hasSummarySection(this, file).catch(() => false)) ? ["Replace", "Add another", "Copy"] : ["Insert", "Replace", "Copy"];
    const choice = await askChoice(this.app, `Summary of ${file.basename}`, options, shown.message);
    if (choice === "Copy") await navigator.clipboard.writeText(shown.text).then(() => notify("Summary copied."), (error: unknown) => notifyError(messageOf(error)));
    else if (choice) await this.summarize(file, { preview: shown.previewId, replace: choice === "Replace" });
  }

  /** Runs `run` with what the person answered (a focus, a tag, a URL), unless they closed the dialog. */
  private async whenAnswered(answer: Promise<string | undefined>, run: (value: string) => Promise<unknown>): Promise<void> {
    const value = (await answer)?.trim();
    if (value) await run(value);
  }

  private askFocus(file: TFile): Promise<void> {
    return this.whenAnswered(askText(this.app, "Summarize with a focus", "e.g. budget decisions"), (focus) => this.summarize(file, { focus }));
  }

  /**
   * A bulk run over a folder (`""`: the vault): counted by the binary, confirmed, run as one
   * call; one at a time; clicking the status bar (or the cancel command) cancels it.
   */
  async runFolder(folder: string, only: BulkKind): Promise<BulkOutcome | undefined> {
    if (this.bulk) {
      notify("vaultsum is summarizing a folder already; cancel it first (click the status bar, or run “Cancel the running summary”).");
      return undefined;
    }
    // Obsidian names the vault's root folder `/`.
    const scope = vaultFolder(folder);
    const where = scope || "The vault";
    const stop = new AbortController();
    this.bulk = stop;
    try {
      const outcome = await this.guard(() =>
        runBulk(this, {
          folder: scope,
          only,
          signal: stop.signal,
          confirm: (count, question) =>
            askConfirm(this.app, `${where}: ${count.toSummarize} ${count.toSummarize === 1 ? "note" : "notes"} to summarize`, question, `Summarize ${count.toSummarize} ${count.toSummarize === 1 ? "note" : "notes"}`),
        }),
      );
      if (outcome?.kind === "done") notify(`${where}: ${outcome.line}`, undefined, 10_000);
      if (outcome?.kind === "nothing") notify(`${where}: nothing to summarize (${outcome.count.notes} notes).`);
      if (outcome?.kind === "cancelled") {
        notify(`${where}: cancelled after ${outcome.done} of ${outcome.total} notes; the notes in progress were left as they were.`);
      }
      if (outcome?.kind === "failed") notifyError(`${where}: ${outcome.message}`);
      if (outcome?.kind === "done" || outcome?.kind === "cancelled") await this.states.update([scope]);
      return outcome;
    } finally {
      this.bulk = undefined;
    }
  }

  /** Cancels what runs (the status bar's click, the cancel command): MCP cancellation, nothing half written. */
  cancel(): void {
    this.bulk?.abort();
    for (const call of this.calls) call.abort();
  }

  rollup(selection: RollupSelection) {
    return makeRollup(this, selection, (count, preview) =>
      askConfirm(this.app, `${count} notes selected`, `${preview}\nAsked when the LLM would be paid more than once, or over ${this.settings.rollupLimit} notes.`, `Summarize ${count} notes`),
    );
  }

  async openView(): Promise<WorkspaceLeaf | undefined> {
    const existing = this.app.workspace.getLeavesOfType(SUMMARIES_VIEW)[0];
    const leaf = existing ?? this.app.workspace.getRightLeaf(false);
    if (!leaf) return undefined;
    if (!existing) await leaf.setViewState({ type: SUMMARIES_VIEW, active: true });
    await this.app.workspace.revealLeaf(leaf);
    return leaf;
  }

  private async onActiveNote(): Promise<void> {
    const file = this.app.workspace.getActiveFile();
    if (file && file.extension === "md" && this.states.get(file.path) === undefined && (this.usesInAppEngine() || this.locate().found)) {
      await this.states.update([file.path]);
    }
    this.renderStatusBar();
  }

  private renderStatusBar(): void {
    if (this.progressText) {
      this.statusBarEl.setText(this.progressText);
      return;
    }
    const file = this.app.workspace.getActiveFile();
    this.statusBarEl.setText(file ? statusBarText(this.states.get(file.path)) : "");
  }

  // ----- Watch ------------------------------------------------------------------------------

  private startWatcher(): void {
    // The program's watch mode: nothing to start where it cannot run (a setting synced to a phone).
    if (!this.desktop) return;
    try {
      const watcher = this.desktopOnly().startWatch(this.launcher(), this.environment(), this.vaultPath, this.settings.maxPerHour);
      let lastLine = "";
      watcher.stderr?.setEncoding("utf8").on("data", (chunk: string) => {
        const lines = chunk.split(/\r?\n/).filter((line) => line.trim());
        lastLine = lines.at(-1) ?? lastLine;
      });
      watcher.on("exit", (code) => {
        if (code !== 0 && code !== null) {
          notifyError(`vaultsum watch stopped (exit ${code}: ${lastLine}); new notes are not summarized automatically.`);
        }
        if (this.watcher === watcher) this.watcher = undefined;
      });
      this.watcher = watcher;
    } catch (error) {
      notifyError(messageOf(error));
    }
  }

  private stopWatcher(): void {
    this.watcher?.kill("SIGTERM");
    this.watcher = undefined;
  }
}
