// The plugin's settings and how they become the binary's own configuration.
//
// Nothing here re-implements a setting: each one is either an environment variable the binary
// reads (DESIGN §8, config.rs `Config::apply_env`) or an argument of the tool call it concerns
// (`into`, `prompt`, `language` of summarize_file; the rollup's `save_to`). Folder rules stay
// in vaultsum's own config file.

/** Where a summary goes, as the binary names it. */
export type Into = "section" | "property" | "both";

/** Which summarizer the binary uses: the configured LLM, or the offline engine. */
export type EngineSetting = "llm" | "local";

/**
 * What runs the summaries: the vaultsum program when it is installed (`auto`), always it
 * (`binary`), or always the engine inside Obsidian (`app`: offline, one note at a time so far).
 */
export type BackendSetting = "auto" | "binary" | "app";

export interface VaultsumSettings {
  engine: EngineSetting;
  backend: BackendSetting;
  /** OpenAI-compatible base URL; empty = the binary's default. */
  baseUrl: string;
  /** Model name; empty = the binary's default. */
  model: string;
  /** The provider's API key (in Obsidian's secret storage where it exists: see secrets.ts). */
  apiKey: string;
  /** Kagi API key; "Summarize a web page" is offered only with one. */
  kagiKey: string;
  /** Where summaries go; empty: as vaultsum's config and its folder rules say (`section` unless set). */
  into: Into | "";
  /** A preset (`default`, `meeting`, …) or a prompt note `[[Prompts/Name]]`; empty = the binary's choice. */
  prompt: string;
  /** Summary language; empty or `auto` = the note's own. */
  language: string;
  /** Where rollups are saved. */
  rollupFolder: string;
  /** The binary's path; empty = search the usual folders. */
  binaryPath: string;
  /** Run `vaultsum watch` for this vault while Obsidian is open. */
  autoSummarize: boolean;
  /** watch's `--max-per-hour`. */
  maxPerHour: number;
  /** The largest rollup made without asking first. */
  rollupLimit: number;
  /** The provider's price per million prompt tokens, for the estimate a bulk run shows; 0: unknown. */
  pricePerMillion: number;
}

export const DEFAULT_SETTINGS: VaultsumSettings = {
  engine: "llm",
  backend: "auto",
  baseUrl: "",
  model: "",
  apiKey: "",
  kagiKey: "",
  into: "",
  prompt: "",
  language: "",
  rollupFolder: "Reviews",
  binaryPath: "",
  autoSummarize: false,
  maxPerHour: 60,
  rollupLimit: 100,
  pricePerMillion: 0,
};

/** The environment variables the settings decide (the binary reads each: DESIGN §8). */
export const SETTINGS_VARIABLES = [
  "VAULTSUM_VAULT",
  "VAULTSUM_ENGINE",
  "FIREWORKS_BASE_URL",
  "FIREWORKS_MODEL",
  "SUMMARIZE_MODEL",
  "FIREWORKS_API_KEY",
  "KAGI_API_KEY",
];

/**
 * The environment the binary starts with: Obsidian's own (PATH, HOME, proxies), minus the
 * variables the settings decide, plus the vault and the settings. A setting
 * left empty sets nothing, so the binary's default (or its config file) applies.
 */
export function binaryEnvironment(
  settings: VaultsumSettings,
  vault: string,
  inherited: Record<string, string | undefined>,
): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [name, value] of Object.entries(inherited)) {
    // What the settings decide is not inherited: an API key or model exported in a shell
    // profile must not override what the person chose here. Others (VAULTSUM_CONFIG, the
    // cache folder, proxies) pass through.
    if (value !== undefined && !SETTINGS_VARIABLES.includes(name)) env[name] = value;
  }
  env.VAULTSUM_VAULT = vault;
  env.VAULTSUM_ENGINE = settings.engine;
  const set = (name: string, value: string) => {
    if (value.trim()) env[name] = value.trim();
  };
  set("FIREWORKS_BASE_URL", settings.baseUrl);
  set("FIREWORKS_MODEL", settings.model);
  set("FIREWORKS_API_KEY", settings.apiKey);
  set("KAGI_API_KEY", settings.kagiKey);
  return env;
}

/** The arguments every summarize_file call takes from the settings (a call may override them). */
export function summaryArguments(settings: VaultsumSettings): Record<string, string> {
  // Each is passed only when set: a call argument beats the note's property and the folder
  // rules, so an unset setting leaves those to decide.
  const args: Record<string, string> = {};
  if (settings.into) args.into = settings.into;
  if (settings.prompt.trim()) args.prompt = settings.prompt.trim();
  if (settings.language.trim() && settings.language.trim() !== "auto") {
    args.language = settings.language.trim();
  }
  return args;
}

/** What was saved, over the defaults; unknown keys dropped. */
export function loadSettings(saved: unknown): VaultsumSettings {
  const settings: VaultsumSettings = { ...DEFAULT_SETTINGS };
  if (saved && typeof saved === "object") {
    for (const key of Object.keys(DEFAULT_SETTINGS) as (keyof VaultsumSettings)[]) {
      const value = (saved as Record<string, unknown>)[key];
      if (value !== undefined && typeof value === typeof DEFAULT_SETTINGS[key]) {
        (settings as unknown as Record<string, unknown>)[key] = value;
      }
    }
  }
  return settings;
}
