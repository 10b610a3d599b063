// A small stand-in for the parts of Obsidian's API the plugin uses (the npm `obsidian` package
// is types only). It is the tests' only fake: files are real files of a temporary vault, the
// DOM is happy-dom's, the binary is the real one. What it records (notices, opened files,
// modals) is what the tests look at.

import { request as httpRequest, type IncomingMessage } from "node:http";
import { request as httpsRequest } from "node:https";
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { EventEmitter } from "node:events";
import * as nodePath from "node:path";

// ----- Obsidian's DOM helpers (Obsidian adds these to every element) ----------------------

interface ElementInfo {
  text?: string;
  cls?: string | string[];
  type?: string;
  value?: string;
  placeholder?: string;
  attr?: Record<string, string>;
}

type Parent = HTMLElement | DocumentFragment;

function makeEl<K extends keyof HTMLElementTagNameMap>(parent: Parent, tag: K, info?: ElementInfo | string): HTMLElementTagNameMap[K] {
  const el = document.createElement(tag);
  const o: ElementInfo = typeof info === "string" ? { cls: info } : (info ?? {});
  if (o.cls) el.className = Array.isArray(o.cls) ? o.cls.join(" ") : o.cls;
  if (o.text !== undefined) el.textContent = o.text;
  if (o.type) el.setAttribute("type", o.type);
  if (o.value !== undefined) (el as unknown as { value: string }).value = o.value;
  if (o.placeholder) el.setAttribute("placeholder", o.placeholder);
  for (const [k, v] of Object.entries(o.attr ?? {})) el.setAttribute(k, v);
  parent.appendChild(el);
  return el;
}

function install(proto: object): void {
  Object.assign(proto, {
    createEl(this: Parent, tag: keyof HTMLElementTagNameMap, info?: ElementInfo) {
      return makeEl(this, tag, info);
    },
    createDiv(this: Parent, info?: ElementInfo | string) {
      return makeEl(this, "div", info);
    },
    createSpan(this: Parent, info?: ElementInfo | string) {
      return makeEl(this, "span", info);
    },
    empty(this: Parent) {
      while (this.firstChild) this.removeChild(this.firstChild);
    },
    setText(this: HTMLElement, text: string) {
      this.textContent = text;
    },
    addClass(this: HTMLElement, ...classes: string[]) {
      this.classList.add(...classes);
    },
  });
}
install(HTMLElement.prototype);
install(DocumentFragment.prototype);
Object.assign(globalThis, {
  activeDocument: document,
  activeWindow: window,
  createFragment(build?: (fragment: DocumentFragment) => void) {
    const fragment = document.createDocumentFragment();
    build?.(fragment);
    return fragment;
  },
});

// ----- Notices -------------------------------------------------------------------------------

/** Every notice shown, in order. */
export const notices: Notice[] = [];
/** Emits "notice" with each notice as it is shown. */
export const noticeEvents = new EventEmitter();

export class Notice {
  readonly text: string;
  hidden = false;
  constructor(
    public message: string | DocumentFragment,
    public timeout?: number,
  ) {
    this.text = typeof message === "string" ? message : (message.textContent ?? "");
    notices.push(this);
    noticeEvents.emit("notice", this);
  }
  /** The notice's buttons (a DocumentFragment message keeps its elements). */
  buttons(): HTMLButtonElement[] {
    return typeof this.message === "string" ? [] : [...this.message.querySelectorAll("button")];
  }
  hide(): void {
    this.hidden = true;
  }
}

// ----- Files ---------------------------------------------------------------------------------

export class TAbstractFile {
  name: string;
  parent: TFolder | null = null;
  constructor(public path: string) {
    this.name = path.split("/").pop() ?? path;
  }
}

export class TFile extends TAbstractFile {
  basename: string;
  extension: string;
  stat = { ctime: 0, mtime: 0, size: 0 };
  constructor(path: string) {
    super(path);
    const dot = this.name.lastIndexOf(".");
    this.basename = dot > 0 ? this.name.slice(0, dot) : this.name;
    this.extension = dot > 0 ? this.name.slice(dot + 1) : "";
  }
}

export class TFolder extends TAbstractFile {
  children: TAbstractFile[] = [];
  isRoot(): boolean {
    return this.path === "/";
  }
}

/** Obsidian's normalizePath: one `/` between parts, none at either end, `/` for the root. */
export function normalizePath(path: string): string {
  const normal = path.replace(/[\\/]+/g, "/").replace(/^\/+|\/+$/g, "").normalize("NFC");
  return normal === "" ? "/" : normal;
}

export class FileSystemAdapter {
  constructor(private readonly base: string) {}
  getBasePath(): string {
    return this.base;
  }
  /** DataAdapter.exists/read: any file of the vault folder by its path, hidden ones too. */
  async exists(path: string): Promise<boolean> {
    return existsSync(nodePath.join(this.base, path));
  }
  async read(path: string): Promise<string> {
    return readFileSync(nodePath.join(this.base, path), "utf8");
  }
}

export interface EventRef {
  name: string;
  callback: (...args: never[]) => unknown;
}

class Events {
  private handlers: EventRef[] = [];
  on(name: string, callback: (...args: never[]) => unknown): EventRef {
    const ref = { name, callback };
    this.handlers.push(ref);
    return ref;
  }
  offref(ref: EventRef): void {
    this.handlers = this.handlers.filter((h) => h !== ref);
  }
  trigger(name: string, ...args: unknown[]): void {
    for (const h of [...this.handlers]) if (h.name === name) (h.callback as (...a: unknown[]) => unknown)(...args);
  }
}

/** A vault over a real folder: files are looked up on disk as they are now. */
export class Vault extends Events {
  adapter: FileSystemAdapter;
  configDir = ".obsidian";
  constructor(public readonly base: string) {
    super();
    this.adapter = new FileSystemAdapter(base);
  }
  getAbstractFileByPath(path: string): TAbstractFile | null {
    const full = nodePath.join(this.base, path);
    if (!existsSync(full)) return null;
    const file = statSync(full).isDirectory() ? new TFolder(path) : new TFile(path);
    // As in Obsidian, the vault's root folder is named `/`, and a note at the root has it as parent.
    const parentPath = path.includes("/") ? path.slice(0, path.lastIndexOf("/")) : "/";
    file.parent = new TFolder(parentPath);
    return file;
  }
  async read(file: TFile): Promise<string> {
    return readFileSync(nodePath.join(this.base, file.path), "utf8");
  }
  cachedRead(file: TFile): Promise<string> {
    return this.read(file);
  }
  async readBinary(file: TFile): Promise<ArrayBuffer> {
    const bytes = readFileSync(nodePath.join(this.base, file.path));
    return bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength);
  }
  /** The file at `path`, with its size and times, or null (a folder is not a file). */
  getFileByPath(path: string): TFile | null {
    const file = this.getAbstractFileByPath(path);
    if (!(file instanceof TFile)) return null;
    const stat = statSync(nodePath.join(this.base, path));
    file.stat = { ctime: stat.ctimeMs, mtime: stat.mtimeMs, size: stat.size };
    return file;
  }
  /** Every file, as Obsidian lists them: dot-folders and dot-files left out. */
  getFiles(): TFile[] {
    const found: TFile[] = [];
    const walk = (dir: string) => {
      for (const entry of readdirSync(nodePath.join(this.base, dir), { withFileTypes: true })) {
        if (entry.name.startsWith(".")) continue;
        const path = dir ? `${dir}/${entry.name}` : entry.name;
        if (entry.isDirectory()) walk(path);
        else if (entry.isFile()) {
          const file = this.getFileByPath(path);
          if (file) found.push(file);
        }
      }
    };
    walk("");
    return found;
  }
  getMarkdownFiles(): TFile[] {
    return this.getFiles().filter((file) => file.extension === "md");
  }
  /** Creates a note that does not exist (Obsidian refuses one that does). */
  async create(path: string, data: string): Promise<TFile> {
    const full = nodePath.join(this.base, path);
    if (existsSync(full)) throw new Error("File already exists.");
    writeFileSync(full, data, { flag: "wx" });
    const file = this.getFileByPath(path);
    if (!(file instanceof TFile)) throw new Error(`${path} was not created`);
    this.trigger("create", file);
    return file;
  }
  /** Creates a folder and the folders above it. */
  async createFolder(path: string): Promise<void> {
    mkdirSync(nodePath.join(this.base, path), { recursive: true });
  }
  /** Obsidian's atomic read-modify-write of a note: `fn` gets the text as it is now. */
  async process(file: TFile, fn: (data: string) => string): Promise<string> {
    const full = nodePath.join(this.base, file.path);
    const now = readFileSync(full, "utf8");
    const next = fn(now);
    if (next !== now) {
      writeFileSync(full, next);
      this.trigger("modify", file);
    }
    return next;
  }
}

// ----- Workspace, leaves, views --------------------------------------------------------------

export class Component {
  registered: EventRef[] = [];
  registerEvent(ref: EventRef): void {
    this.registered.push(ref);
  }
  register(_cb: () => unknown): void {}
}

export class View extends Component {
  containerEl: HTMLElement;
  constructor(public leaf: WorkspaceLeaf) {
    super();
    this.containerEl = document.body.createDiv({ cls: "workspace-leaf-content" });
  }
  get app(): App {
    return this.leaf.app;
  }
}

export class ItemView extends View {
  contentEl: HTMLElement;
  constructor(leaf: WorkspaceLeaf) {
    super(leaf);
    this.containerEl.createDiv({ cls: "view-header" });
    this.contentEl = this.containerEl.createDiv({ cls: "view-content" });
  }
  getViewType(): string {
    return "";
  }
  async onOpen(): Promise<void> {}
  async onClose(): Promise<void> {}
}

export interface EditorPosition {
  line: number;
  ch: number;
}

/** The editor of an open note: its text (saved or not) and a selection, as CodeMirror keeps them. */
export class Editor {
  selection: { from: EditorPosition; to: EditorPosition } = { from: { line: 0, ch: 0 }, to: { line: 0, ch: 0 } };
  constructor(public text = "") {}
  private offset(pos: EditorPosition): number {
    const lines = this.text.split("\n");
    return lines.slice(0, pos.line).reduce((sum, line) => sum + line.length + 1, 0) + pos.ch;
  }
  getValue(): string {
    return this.text;
  }
  getLine(line: number): string {
    return this.text.split("\n")[line] ?? "";
  }
  getCursor(which: "from" | "to" = "to"): EditorPosition {
    return { ...this.selection[which] };
  }
  /** Selects from `from` to `to`. */
  setSelection(from: EditorPosition, to: EditorPosition): void {
    this.selection = { from, to };
  }
  somethingSelected(): boolean {
    return this.offset(this.selection.from) !== this.offset(this.selection.to);
  }
  getSelection(): string {
    return this.getRange(this.selection.from, this.selection.to);
  }
  getRange(from: EditorPosition, to: EditorPosition): string {
    return this.text.slice(this.offset(from), this.offset(to));
  }
  replaceRange(replacement: string, from: EditorPosition, to: EditorPosition = from): void {
    this.text = this.text.slice(0, this.offset(from)) + replacement + this.text.slice(this.offset(to));
  }
}

/** A note open in an editor; `unsaved` is text typed and not yet saved (Obsidian saves every few seconds). */
export class MarkdownView extends View {
  file: TFile | null = null;
  unsaved: string | undefined;
  editor = new Editor();
  async save(): Promise<void> {
    if (this.file && this.unsaved !== undefined) {
      writeFileSync(nodePath.join(this.app.vault.base, this.file.path), this.unsaved);
      this.unsaved = undefined;
    }
  }
}

export class WorkspaceLeaf {
  view: View;
  constructor(public app: App) {
    this.view = new View(this);
  }
  async openFile(file: TFile): Promise<void> {
    const view = new MarkdownView(this);
    view.file = file;
    view.editor = new Editor(readFileSync(nodePath.join(this.app.vault.base, file.path), "utf8"));
    this.view = view;
    this.app.workspace.opened.push(file.path);
    this.app.workspace.setActiveFile(file);
  }
  async setViewState(state: { type: string }): Promise<void> {
    const factory = this.app.viewFactories.get(state.type);
    if (!factory) throw new Error(`no view ${state.type}`);
    this.view = factory(this);
    await (this.view as ItemView).onOpen();
  }
  getViewState(): { type: string } {
    return { type: this.view instanceof MarkdownView ? "markdown" : ((this.view as ItemView).getViewType?.() ?? "empty") };
  }
}

export class Workspace extends Events {
  leaves: WorkspaceLeaf[] = [];
  /** Paths opened, in order. */
  opened: string[] = [];
  private active: TFile | null = null;
  constructor(private readonly app: App) {
    super();
  }
  getActiveFile(): TFile | null {
    return this.active;
  }
  setActiveFile(file: TFile | null): void {
    this.active = file;
    this.trigger("file-open", file);
  }
  getLeaf(_newLeaf?: boolean | string): WorkspaceLeaf {
    const leaf = new WorkspaceLeaf(this.app);
    this.leaves.push(leaf);
    return leaf;
  }
  getRightLeaf(_split: boolean): WorkspaceLeaf {
    return this.getLeaf();
  }
  getLeavesOfType(type: string): WorkspaceLeaf[] {
    return this.leaves.filter((leaf) => leaf.getViewState().type === type);
  }
  async revealLeaf(_leaf: WorkspaceLeaf): Promise<void> {}
  onLayoutReady(callback: () => void): void {
    callback();
  }
}

/** Obsidian's secret storage (1.11.4): named secrets, kept by the system's keychain. */
export class SecretStorage {
  readonly secrets = new Map<string, string>();
  getSecret(id: string): string | null {
    return this.secrets.get(id) ?? null;
  }
  setSecret(id: string, secret: string): void {
    this.secrets.set(id, secret);
  }
  listSecrets(): string[] {
    return [...this.secrets.keys()];
  }
}

/** A section of a note as Obsidian's parser reports it: its type and its lines (0-based, inclusive). */
export interface SectionCache {
  type: string;
  position: { start: { line: number; col: number; offset: number }; end: { line: number; col: number; offset: number } };
}

/** Obsidian's parse of each note; a test gives the sections and frontmatter lines Obsidian reports for its note. */
export class MetadataCache {
  readonly caches = new Map<string, { sections?: SectionCache[]; frontmatterPosition?: SectionCache["position"] }>();
  getFileCache(file: TFile): { sections?: SectionCache[]; frontmatterPosition?: SectionCache["position"] } | null {
    return this.caches.get(file.path) ?? null;
  }
}

export class App {
  vault: Vault;
  workspace: Workspace;
  metadataCache = new MetadataCache();
  viewFactories = new Map<string, (leaf: WorkspaceLeaf) => View>();
  /** Absent before Obsidian 1.11.4. */
  secretStorage: SecretStorage | undefined;
  constructor(base: string, options: { secretStorage?: boolean } = {}) {
    this.vault = new Vault(base);
    this.workspace = new Workspace(this);
    this.secretStorage = options.secretStorage === false ? undefined : new SecretStorage();
  }
}

// ----- Plugin --------------------------------------------------------------------------------

export interface Command {
  id: string;
  name: string;
  callback?: () => unknown;
  checkCallback?: (checking: boolean) => boolean | void;
  editorCheckCallback?: (checking: boolean, editor: Editor, view: MarkdownView) => boolean | void;
  hotkeys?: unknown[];
}

export class Plugin extends Component {
  commands = new Map<string, Command>();
  settingTabs: PluginSettingTab[] = [];
  statusBar: HTMLElement[] = [];
  data: unknown = undefined;
  constructor(
    public app: App,
    public manifest: { id: string },
  ) {
    super();
  }
  /** Obsidian's command-line handlers (1.12.2), by id. */
  cliHandlers = new Map<string, (params: Record<string, unknown>) => Promise<string> | string>();
  registerCliHandler(id: string, _description: string, _flags: unknown, handler: (params: Record<string, unknown>) => Promise<string> | string): void {
    if (this.cliHandlers.has(id)) throw new Error(`${id} is registered already`);
    this.cliHandlers.set(id, handler);
  }
  addCommand(command: Command): Command {
    this.commands.set(command.id, command);
    return command;
  }
  /** Runs a command as the palette does; false when it is not available now. */
  runCommand(id: string): boolean {
    const command = this.commands.get(id);
    if (!command) throw new Error(`no command ${id}`);
    if (command.checkCallback) return command.checkCallback(false) !== false;
    if (command.editorCheckCallback) {
      // On the editor of the active note, as Obsidian runs an editor command.
      const active = this.app.workspace.getActiveFile();
      const view = this.app.workspace.leaves.map((leaf) => leaf.view).find((v) => v instanceof MarkdownView && v.file?.path === active?.path);
      if (!(view instanceof MarkdownView) || !command.editorCheckCallback(true, view.editor, view)) return false;
      command.editorCheckCallback(false, view.editor, view);
      return true;
    }
    command.callback?.();
    return true;
  }
  registerView(type: string, factory: (leaf: WorkspaceLeaf) => View): void {
    this.app.viewFactories.set(type, factory);
  }
  addSettingTab(tab: PluginSettingTab): void {
    this.settingTabs.push(tab);
  }
  addStatusBarItem(): HTMLElement {
    const el = document.body.createDiv({ cls: "status-bar-item" });
    this.statusBar.push(el);
    return el;
  }
  ribbon: { title: string; run: () => unknown }[] = [];
  addRibbonIcon(_icon: string, title: string, run: () => unknown): HTMLElement {
    this.ribbon.push({ title, run });
    return document.body.createDiv();
  }
  async loadData(): Promise<unknown> {
    return this.data;
  }
  async saveData(data: unknown): Promise<void> {
    this.data = JSON.parse(JSON.stringify(data));
  }
  onload(): void | Promise<void> {}
  onunload(): void {}
}

export class PluginSettingTab {
  containerEl: HTMLElement;
  constructor(
    public app: App,
    public plugin: Plugin,
  ) {
    this.containerEl = document.body.createDiv({ cls: "vertical-tab-content" });
  }
  display(): void {}
  /** Obsidian calls it when the tab is closed. */
  hide(): void {}
}

// ----- Settings and modals -------------------------------------------------------------------

class TextComponent {
  inputEl: HTMLInputElement;
  private change: ((value: string) => unknown) | undefined;
  constructor(parent: HTMLElement) {
    this.inputEl = parent.createEl("input", { type: "text" });
    this.inputEl.addEventListener("input", () => this.change?.(this.inputEl.value));
  }
  setPlaceholder(text: string): this {
    this.inputEl.placeholder = text;
    return this;
  }
  setValue(value: string): this {
    this.inputEl.value = value;
    return this;
  }
  onChange(callback: (value: string) => unknown): this {
    this.change = callback;
    return this;
  }
}

class ButtonComponent {
  buttonEl: HTMLButtonElement;
  constructor(parent: HTMLElement) {
    this.buttonEl = parent.createEl("button");
  }
  setButtonText(text: string): this {
    this.buttonEl.textContent = text;
    return this;
  }
  setCta(): this {
    this.buttonEl.classList.add("mod-cta");
    return this;
  }
  onClick(callback: () => unknown): this {
    this.buttonEl.addEventListener("click", () => void callback());
    return this;
  }
}

class DropdownComponent {
  selectEl: HTMLSelectElement;
  private change: ((value: string) => unknown) | undefined;
  constructor(parent: HTMLElement) {
    this.selectEl = parent.createEl("select");
    this.selectEl.addEventListener("change", () => this.change?.(this.selectEl.value));
  }
  addOption(value: string, text: string): this {
    this.selectEl.createEl("option", { value, text });
    return this;
  }
  addOptions(options: Record<string, string>): this {
    for (const [value, text] of Object.entries(options)) this.addOption(value, text);
    return this;
  }
  setValue(value: string): this {
    this.selectEl.value = value;
    return this;
  }
  onChange(callback: (value: string) => unknown): this {
    this.change = callback;
    return this;
  }
}

class ToggleComponent {
  toggleEl: HTMLInputElement;
  private change: ((value: boolean) => unknown) | undefined;
  constructor(parent: HTMLElement) {
    this.toggleEl = parent.createEl("input", { type: "checkbox" });
    this.toggleEl.addEventListener("change", () => this.change?.(this.toggleEl.checked));
  }
  setValue(value: boolean): this {
    this.toggleEl.checked = value;
    return this;
  }
  onChange(callback: (value: boolean) => unknown): this {
    this.change = callback;
    return this;
  }
}

export class Setting {
  settingEl: HTMLElement;
  nameEl: HTMLElement;
  descEl: HTMLElement;
  controlEl: HTMLElement;
  constructor(parent: HTMLElement) {
    this.settingEl = parent.createDiv({ cls: "setting-item" });
    const info = this.settingEl.createDiv({ cls: "setting-item-info" });
    this.nameEl = info.createDiv({ cls: "setting-item-name" });
    this.descEl = info.createDiv({ cls: "setting-item-description" });
    this.controlEl = this.settingEl.createDiv({ cls: "setting-item-control" });
  }
  setName(name: string): this {
    this.nameEl.textContent = name;
    return this;
  }
  setDesc(desc: string): this {
    this.descEl.textContent = desc;
    return this;
  }
  setHeading(): this {
    this.settingEl.classList.add("setting-item-heading");
    return this;
  }
  addText(cb: (c: TextComponent) => unknown): this {
    cb(new TextComponent(this.controlEl));
    return this;
  }
  addButton(cb: (c: ButtonComponent) => unknown): this {
    cb(new ButtonComponent(this.controlEl));
    return this;
  }
  addDropdown(cb: (c: DropdownComponent) => unknown): this {
    cb(new DropdownComponent(this.controlEl));
    return this;
  }
  addToggle(cb: (c: ToggleComponent) => unknown): this {
    cb(new ToggleComponent(this.controlEl));
    return this;
  }
}

/** Modals open now, the newest last. */
export const openModals: Modal[] = [];
/** Emits "open" with each modal as it opens. */
export const modalEvents = new EventEmitter();

export class Modal {
  modalEl: HTMLElement;
  titleEl: HTMLElement;
  contentEl: HTMLElement;
  constructor(public app: App) {
    this.modalEl = document.body.createDiv({ cls: "modal" });
    this.titleEl = this.modalEl.createDiv({ cls: "modal-title" });
    this.contentEl = this.modalEl.createDiv({ cls: "modal-content" });
  }
  open(): void {
    openModals.push(this);
    this.onOpen();
    modalEvents.emit("open", this);
  }
  close(): void {
    const index = openModals.indexOf(this);
    if (index >= 0) openModals.splice(index, 1);
    this.onClose();
    this.modalEl.remove();
  }
  onOpen(): void {}
  onClose(): void {}
}

export class MenuItem {
  title = "";
  action: (() => unknown) | undefined;
  setTitle(title: string): this {
    this.title = title;
    return this;
  }
  setIcon(_icon: string): this {
    return this;
  }
  onClick(callback: () => unknown): this {
    this.action = callback;
    return this;
  }
}

export class Menu {
  items: MenuItem[] = [];
  addItem(cb: (item: MenuItem) => unknown): this {
    const item = new MenuItem();
    cb(item);
    this.items.push(item);
    return this;
  }
}

export const Platform = { isDesktop: true, isDesktopApp: true, isMobile: false, isMobileApp: false };

/** Obsidian's requestUrl: the request made with Node's fetch (the real one goes through the app's network stack, past CORS). */
export interface RequestUrlParam {
  url: string;
  method?: string;
  contentType?: string;
  body?: string | ArrayBuffer;
  headers?: Record<string, string>;
  throw?: boolean;
}

export const requestUrlCalls: RequestUrlParam[] = [];

export async function requestUrl(request: RequestUrlParam): Promise<{ status: number; headers: Record<string, string>; text: string; arrayBuffer: ArrayBuffer }> {
  requestUrlCalls.push(request);
  const headers: Record<string, string> = { ...(request.headers ?? {}) };
  if (request.contentType) headers["content-type"] = request.contentType;
  const send = request.url.startsWith("https:") ? httpsRequest : httpRequest;
  const body = typeof request.body === "string" ? Buffer.from(request.body, "utf8") : request.body ? Buffer.from(request.body) : undefined;
  if (body) headers["content-length"] = String(body.length);
  const response = await new Promise<{ status: number; headers: Record<string, string>; text: string; arrayBuffer: ArrayBuffer }>((resolve, reject) => {
    const outgoing = send(request.url, { method: request.method ?? "GET", headers }, (incoming: IncomingMessage) => {
      const chunks: Buffer[] = [];
      incoming.on("data", (chunk: Buffer) => chunks.push(chunk));
      incoming.on("end", () => {
        const whole = Buffer.concat(chunks);
        const arrayBuffer = whole.buffer.slice(whole.byteOffset, whole.byteOffset + whole.byteLength);
        resolve({ status: incoming.statusCode ?? 0, headers: Object.fromEntries(Object.entries(incoming.headers).map(([k, v]) => [k, String(v)])), text: whole.toString("utf8"), arrayBuffer });
      });
      incoming.on("error", reject);
    });
    outgoing.on("error", reject);
    outgoing.end(body);
  });
  if (request.throw !== false && response.status >= 400) throw new Error(`Request failed, status ${response.status}`);
  return response;
}
