// The "Summaries" side view: the notes of the vault (or of the active note's folder) with their
// summary's state, filterable by state and name, each openable, "Refresh" on stale ones, and
// the day's cost at the bottom. It renders what `SummaryStates` holds and re-renders when that
// changes; it decides nothing about a note.

import { ItemView, TFile, type WorkspaceLeaf } from "obsidian";

import { describeUsage, type Usage } from "../cost";
import type { SummaryStates } from "../states";

export const SUMMARIES_VIEW = "vaultsum-summaries";

/** The states in the order the filter offers them, with the words shown for each. */
export const STATE_LABELS: Record<string, string> = {
  current: "Current",
  stale: "Stale",
  edited: "Edited by hand",
  unmarked: "Current (unmarked)",
  missing: "Missing",
};

export interface SummariesViewHost {
  states: SummaryStates;
  /** Replaces one note's stale summary. */
  refreshNote(path: string): Promise<void>;
  /** The bulk run over a folder (`""`: the vault): counted, confirmed, cancellable. */
  runFolder(folder: string, only: "stale"): Promise<unknown>;
  todaysUsage(): Usage;
}

export class SummariesView extends ItemView {
  stateFilter = "all";
  nameFilter = "";
  noteScope: "vault" | "folder" = "vault";
  private unsubscribe: (() => void) | undefined;
  private listEl: HTMLElement | undefined;
  private footerEl: HTMLElement | undefined;

  constructor(
    leaf: WorkspaceLeaf,
    private readonly host: SummariesViewHost,
  ) {
    super(leaf);
  }

  override getViewType(): string {
    return SUMMARIES_VIEW;
  }

  override getDisplayText(): string {
    return "Summaries";
  }

  override getIcon(): string {
    return "list-checks";
  }

  override async onOpen(): Promise<void> {
    const root = this.contentEl;
    root.empty();
    root.addClass("vaultsum-summaries");
    const controls = root.createDiv({ cls: "vaultsum-controls" });
    const scope = controls.createEl("select", { cls: "dropdown vaultsum-scope" });
    scope.createEl("option", { text: "Whole vault", value: "vault" });
    scope.createEl("option", { text: "This folder", value: "folder" });
    scope.addEventListener("change", () => {
      this.noteScope = scope.value === "folder" ? "folder" : "vault";
      this.render();
    });
    const filter = controls.createEl("select", { cls: "dropdown vaultsum-state-filter" });
    filter.createEl("option", { text: "All states", value: "all" });
    for (const [state, label] of Object.entries(STATE_LABELS)) {
      filter.createEl("option", { text: label, value: state });
    }
    filter.addEventListener("change", () => {
      this.stateFilter = filter.value;
      this.render();
    });
    const search = controls.createEl("input", { type: "search", cls: "vaultsum-name-filter", placeholder: "Filter by name" });
    search.addEventListener("input", () => {
      this.nameFilter = search.value;
      this.render();
    });
    const refreshAll = controls.createEl("button", { text: "Refresh stale", cls: "vaultsum-refresh-all" });
    // The same run as the command: the binary counts, the person confirms, one run at a time.
    refreshAll.addEventListener("click", () => void this.host.runFolder(this.noteScope === "folder" ? this.folder() : "", "stale"));
    this.listEl = root.createDiv({ cls: "vaultsum-list" });
    this.footerEl = root.createDiv({ cls: "vaultsum-cost" });
    this.unsubscribe = this.host.states.onUpdate(() => this.render());
    this.registerEvent(this.app.workspace.on("file-open", () => this.noteScope === "folder" && this.render()));
    this.render();
    if (!this.host.states.isLoaded) await this.host.states.loadAll();
  }

  override async onClose(): Promise<void> {
    this.unsubscribe?.();
  }

  /** The active note's folder, `""` at the vault's root (which Obsidian names `/`). */
  folder(): string {
    const folder = this.app.workspace.getActiveFile()?.parent?.path ?? "";
    return folder === "/" ? "" : folder;
  }

  /** The notes shown: in scope, matching both filters. */
  visible(): { path: string; state: string }[] {
    const folder = this.folder();
    const name = this.nameFilter.trim().toLowerCase();
    return this.host.states.all().filter((note) => {
      if (this.noteScope === "folder" && folder && !note.path.startsWith(`${folder}/`)) return false;
      if (this.stateFilter !== "all" && note.state !== this.stateFilter) return false;
      return !name || note.path.toLowerCase().includes(name);
    });
  }

  /** Draws the list and the cost line from the current states. */
  render(): void {
    if (!this.listEl || !this.footerEl) return;
    const list = this.listEl;
    list.empty();
    if (this.host.states.error) {
      list.createDiv({ cls: "vaultsum-error", text: this.host.states.error });
    } else if (!this.host.states.isLoaded) {
      list.createDiv({ cls: "vaultsum-empty", text: "Reading the vault…" });
    }
    const notes = this.visible();
    if (this.host.states.isLoaded && notes.length === 0) {
      list.createDiv({ cls: "vaultsum-empty", text: "No notes match." });
    }
    for (const note of notes) {
      const row = list.createDiv({ cls: `vaultsum-row vaultsum-state-${note.state}` });
      row.dataset.path = note.path;
      row.createSpan({ cls: "vaultsum-badge", text: STATE_LABELS[note.state] ?? note.state });
      const link = row.createEl("a", { cls: "vaultsum-note", text: note.path.replace(/\.md$/, "") });
      link.addEventListener("click", () => {
        const file = this.app.vault.getAbstractFileByPath(note.path);
        if (file instanceof TFile) void this.app.workspace.getLeaf(false).openFile(file);
      });
      if (note.state === "stale") {
        const refresh = row.createEl("button", { cls: "vaultsum-refresh", text: "Refresh" });
        refresh.addEventListener("click", () => void this.host.refreshNote(note.path));
      }
    }
    this.footerEl.setText(`Today: ${describeUsage(this.host.todaysUsage())}`);
  }
}
