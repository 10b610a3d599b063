// Each note's summary state (current, stale, edited, unmarked, missing) as the binary's
// `summary_status` tool decides it, kept for the side view and the status bar. Read whole once,
// when the view first needs it; after that only the notes that changed (or the folder a run
// went over) are asked again, a moment after the last change (Obsidian saves every few seconds
// while typing), never the whole vault on every keystroke.

import { messageOf } from "./host";

/** A note's summary state, as `summary_status` reports it. */
export interface NoteState {
  path: string;
  /** current, stale, edited, unmarked or missing. */
  state: string;
  /** The `## Summary` section's own state (`missing` when the note has none). */
  section?: string;
}

/**
 * How long after the last change of a note its state is asked again: longer than Obsidian's
 * save interval while typing (2 s), so a note being typed is asked about once it rests.
 */
export const SETTLE_MS = 2_500;

/** Above this many changed notes, the whole vault is read again instead. */
export const MANY_CHANGES = 20;

export type StatesListener = () => void;

export class SummaryStates {
  private states = new Map<string, string>();
  private loaded = false;
  private loading: Promise<void> | undefined;
  private pending = new Set<string>();
  private timer: number | undefined;
  private listeners = new Set<StatesListener>();
  /** The last failure to ask the binary, shown in the view. */
  error: string | undefined;

  constructor(
    private readonly ask: (target?: string) => Promise<NoteState[]>,
    private readonly settleMs = SETTLE_MS,
  ) {}

  /** Calls `listener` after every update; returns the function that removes it. */
  onUpdate(listener: StatesListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** The state of one note, when known. */
  get(path: string): string | undefined {
    return this.states.get(path);
  }

  /** Every known note and its state, in path order. */
  all(): NoteState[] {
    return [...this.states.entries()]
      .map(([path, state]) => ({ path, state }))
      .sort((a, b) => a.path.localeCompare(b.path));
  }

  get isLoaded(): boolean {
    return this.loaded;
  }

  /** Reads every note's state (the first time, and on "reload"): the vault's folder asked as any other. */
  loadAll(): Promise<void> {
    this.loading ??= this.update([""]).finally(() => (this.loading = undefined));
    return this.loading;
  }

  /**
   * A note changed (or was created): its state is asked again once changes settle. Before the
   * states are first read, only a note whose state is known (the active note's, for the
   * status bar) is asked: the first read will see the others.
   */
  changed(path: string): void {
    if (!path.endsWith(".md") || (!this.loaded && !this.states.has(path))) return;
    this.pending.add(path);
    if (this.timer !== undefined) window.clearTimeout(this.timer);
    this.timer = window.setTimeout(() => void this.flush(), this.settleMs);
  }

  /** A note was deleted or renamed away. */
  removed(path: string): void {
    if (this.states.delete(path)) this.emit();
  }

  /**
   * Asks now for the notes or folders given (after a summary, or a run over a folder: one
   * question for the folder, not one per note). `""` is the whole vault.
   */
  async update(paths: string[]): Promise<void> {
    for (const path of paths) {
      try {
        const notes = await this.ask(path);
        const below = path === "" ? "" : `${path}/`;
        for (const known of [...this.states.keys()]) {
          if (known === path || known.startsWith(below)) this.states.delete(known);
        }
        for (const note of notes) this.states.set(note.path, note.state);
        this.loaded ||= path === "";
        this.error = undefined;
      } catch (error) {
        this.error = messageOf(error);
      }
    }
    this.emit();
  }

  /** Stops the pending timer (on unload). */
  dispose(): void {
    if (this.timer !== undefined) window.clearTimeout(this.timer);
    this.listeners.clear();
  }

  private async flush(): Promise<void> {
    this.timer = undefined;
    const paths = [...this.pending];
    this.pending.clear();
    // Many notes at once (a sync, a folder moved): one read of the whole vault is cheaper
    // than a question per note.
    if (paths.length > MANY_CHANGES) await this.loadAll();
    else await this.update(paths);
  }

  private emit(): void {
    for (const listener of this.listeners) listener();
  }
}
