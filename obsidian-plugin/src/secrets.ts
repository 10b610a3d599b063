// Where the API keys are kept: Obsidian's secret storage (`app.secretStorage`, 1.11.4 and
// later: encrypted by the system's keychain, never in data.json, never synced with the vault),
// or, on an older Obsidian, the plugin's data.json as every setting is. The settings tab says
// which one this Obsidian uses.

import type { App } from "obsidian";

import type { VaultsumSettings } from "./settings";

/** The part of Obsidian's SecretStorage the plugin uses (not in the `obsidian` 1.8 types). */
interface SecretStorage {
  getSecret(id: string): string | null;
  setSecret(id: string, secret: string): void;
}

/** The settings that are secrets, and their ids in the secret storage. */
export const SECRET_IDS = { apiKey: "vaultsum-api-key", kagiKey: "vaultsum-kagi-api-key" } as const;

type SecretKey = keyof typeof SECRET_IDS;

/** Obsidian's secret storage, when this Obsidian has one. */
export function secretStorage(app: App): SecretStorage | undefined {
  const storage = (app as unknown as { secretStorage?: SecretStorage }).secretStorage;
  return typeof storage?.getSecret === "function" ? storage : undefined;
}

/**
 * The keys read from the secret storage into `settings`. A key an older version left in
 * data.json moves there only when the storage has none: a key set since (in these settings on
 * another device, or in Obsidian's own keychain settings) is never overwritten by a stale copy,
 * which is dropped from data.json at the next save.
 */
export function loadSecrets(app: App, settings: VaultsumSettings): void {
  const storage = secretStorage(app);
  if (!storage) return;
  for (const key of Object.keys(SECRET_IDS) as SecretKey[]) {
    if (settings[key] && !storage.getSecret(SECRET_IDS[key])) storage.setSecret(SECRET_IDS[key], settings[key]);
    settings[key] = storage.getSecret(SECRET_IDS[key]) ?? "";
  }
}

/** The settings as data.json keeps them: without the keys when the secret storage has them. */
export function storedSettings(app: App, settings: VaultsumSettings): VaultsumSettings {
  const storage = secretStorage(app);
  if (!storage) return settings;
  for (const key of Object.keys(SECRET_IDS) as SecretKey[]) {
    // Written only when it changed: the settings are saved after every paid call (its cost).
    if ((storage.getSecret(SECRET_IDS[key]) ?? "") !== settings[key]) storage.setSecret(SECRET_IDS[key], settings[key]);
  }
  return { ...settings, apiKey: "", kagiKey: "" };
}
