// The engine inside Obsidian (no vaultsum program): each case runs the plugin with the in-app
// backend on a copy of a real vault and checks what reaches the disk against what the real
// binary writes offline on another copy, byte for byte.

import { readFileSync, writeFileSync } from "node:fs";
import * as path from "node:path";

import { afterEach, describe, expect, it } from "vitest";

import { runCli } from "../src/binary/cli";

import { BINARY, VAULTS, answerChoice, cleanup, copyVault, loadPlugin, note as noteFile, noticeTexts, runCommand, tempDir } from "./support";

afterEach(cleanup);

/** What the binary writes into `note` of a fresh copy of `source`, offline, with no config file. */
async function writtenByBinary(source: string, note: string, extra: string[] = []): Promise<string> {
  const vault = copyVault(source);
  const env: Record<string, string> = {};
  for (const [name, value] of Object.entries(process.env)) if (value !== undefined && name !== "FIREWORKS_API_KEY") env[name] = value;
  env.VAULTSUM_CACHE_DIR = tempDir("vaultsum-cli-cache-");
  const output = await runCli({ command: BINARY, prefix: [], foundBy: "setting" }, ["--vault", vault, "summarize-file", "--engine", "local", ...extra, note], env, vault);
  if (output.code !== 0) throw new Error(`vaultsum summarize-file exited ${output.code}: ${output.stderr}`);
  return readFileSync(path.join(vault, note), "utf8");
}

describe("the engine inside Obsidian", () => {
  for (const [source, note] of [
    [VAULTS.fixture, "Meetings/2024-03-04 Weekly sync.md"],
    // Embeds another note: expanded by the engine from the files Obsidian gives it.
    [VAULTS.tasksDocs, "Getting Started/On Completion.md"],
  ] as const) {
    it(`writes into ${note} the bytes the binary writes offline`, async () => {
      const vault = copyVault(source);
      const { plugin } = await loadPlugin(vault, { backend: "app" });

      const outcome = await plugin.summarize(noteFile(note));

      expect(outcome).toMatchObject({ kind: "written", message: `Summary written to the summary section of ${note} (offline, inside Obsidian).` });
      expect(readFileSync(path.join(vault, note), "utf8")).toBe(await writtenByBinary(source, note));
      // The state the side view and the status bar show, from the same fingerprint.
      expect(await plugin.noteStates(note)).toEqual([{ path: note, summary: "present", state: "current", section: "current", property: "missing" }]);
    });
  }

  it("is what runs when no vaultsum program is found (auto), and replaces a summary as the binary does", async () => {
    const vault = copyVault(VAULTS.fixture);
    const { plugin } = await loadPlugin(vault, { backend: "auto", binaryPath: "" });
    process.env.PATH = tempDir("vaultsum-empty-path-");
    const note = "Projects/Alpha/Plan.md";
    expect(plugin.usesInAppEngine()).toBe(true);

    expect((await plugin.summarize(noteFile(note))).kind).toBe("written");
    // A line added above the summary makes it stale; summarized again with replace, one section.
    const addLine = (at: string) => {
      const text = readFileSync(path.join(at, note), "utf8");
      const heading = text.indexOf("\n## Summary");
      writeFileSync(path.join(at, note), `${text.slice(0, heading)}\nA decision taken after the summary.\n${text.slice(heading)}`);
    };
    addLine(vault);
    expect((await plugin.noteStates(note))[0]?.state).toBe("stale");
    expect((await plugin.summarize(noteFile(note), { replace: true })).kind).toBe("written");

    const written = readFileSync(path.join(vault, note), "utf8");
    expect(written.match(/^## Summary$/gm)).toHaveLength(1);
    expect(written).toContain("A decision taken after the summary.");
    const twice = copyVault(VAULTS.fixture);
    const env: Record<string, string> = { ...(process.env as Record<string, string>), VAULTSUM_CACHE_DIR: tempDir() };
    const run = (args: string[]) => runCli({ command: BINARY, prefix: [], foundBy: "setting" }, ["--vault", twice, "summarize-file", "--engine", "local", ...args], env, twice);
    await run([note]);
    addLine(twice);
    await run(["--replace", note]);
    expect(written).toBe(readFileSync(path.join(twice, note), "utf8"));
  });

  it("follows a preset, from the note's summary_prompt or the call, as the binary does", async () => {
    const vault = copyVault(VAULTS.fixture);
    const { plugin } = await loadPlugin(vault, { backend: "app" });
    const [byNote, byCall] = ["Meetings/2024-03-04 Weekly sync.md", "Projects/Alpha/Plan.md"];
    const withProperty = (text: string) => text.replace(/^---\r?\n/, (start) => `${start}summary_prompt: brief${start.slice(3)}`);
    for (const at of [vault]) writeFileSync(path.join(at, byNote), withProperty(readFileSync(path.join(at, byNote), "utf8")));

    expect((await plugin.summarize(noteFile(byNote))).kind).toBe("written");
    expect((await plugin.summarize(noteFile(byCall), { prompt: "Brief" })).kind).toBe("written");

    const other = copyVault(VAULTS.fixture);
    writeFileSync(path.join(other, byNote), withProperty(readFileSync(path.join(other, byNote), "utf8")));
    const env: Record<string, string> = { ...(process.env as Record<string, string>), VAULTSUM_CACHE_DIR: tempDir() };
    const run = (args: string[]) => runCli({ command: BINARY, prefix: [], foundBy: "setting" }, ["--vault", other, "summarize-file", "--engine", "local", ...args], env, other);
    await run([byNote]);
    await run(["--prompt", "Brief", byCall]);
    for (const note of [byNote, byCall]) expect(readFileSync(path.join(vault, note), "utf8")).toBe(readFileSync(path.join(other, note), "utf8"));
    // Three key points: the brief preset, not the default.
    const keyPoints = readFileSync(path.join(vault, byNote), "utf8").split("### Key Points")[1]?.split("###")[0] ?? "";
    expect(keyPoints.match(/^- /gm)?.length).toBe(3);
    // Current for its own preset: nothing to refresh.
    expect((await plugin.noteStates(byNote))[0]?.state).toBe("current");
  });

  it("refreshes a stale summary from the side view (refresh), and leaves a current one", async () => {
    const vault = copyVault(VAULTS.fixture);
    const { plugin } = await loadPlugin(vault, { backend: "app" });
    const note = "Notes/Cycle A.md";
    const file = path.join(vault, note);
    expect((await plugin.summarize(noteFile(note))).kind).toBe("written");
    const current = readFileSync(file, "utf8");
    await plugin.refreshNote(note);
    expect(readFileSync(file, "utf8")).toBe(current);

    writeFileSync(file, `Added at the top after the summary.\n\n${current}`);
    expect((await plugin.noteStates(note))[0]?.state).toBe("stale");
    await plugin.refreshNote(note);
    const refreshed = readFileSync(file, "utf8");
    expect(refreshed.match(/^## Summary$/gm)).toHaveLength(1);
    expect(refreshed.startsWith("Added at the top after the summary.")).toBe(true);
    expect((await plugin.noteStates(note))[0]?.state).toBe("current");
  });

  it("asks before Summarize again deletes text typed under its summary, and keeps it on Cancel", async () => {
    const vault = copyVault(VAULTS.fixture);
    const { plugin } = await loadPlugin(vault, { backend: "app" });
    const note = "Projects/Alpha/Plan.md";
    const file = path.join(vault, note);
    expect((await plugin.summarize(noteFile(note))).kind).toBe("written");
    const typed = `${readFileSync(file, "utf8")}\nMy own line under the summary.\n`;
    writeFileSync(file, typed);
    expect((await plugin.noteStates(note))[0]?.section).toBe("edited");

    const kept = plugin.summarize(noteFile(note), { replace: true });
    expect(await answerChoice("Cancel")).toEqual({ title: "Plan: replace a changed summary?", buttons: ["Replace", "Cancel"] });
    expect((await kept).kind).toBe("declined");
    expect(readFileSync(file, "utf8")).toBe(typed);

    const replaced = plugin.summarize(noteFile(note), { replace: true });
    await answerChoice("Replace");
    expect((await replaced).kind).toBe("written");
    expect(readFileSync(file, "utf8")).not.toContain("My own line under the summary.");
  });

  it("writes a preview's summary only over the note it was made from", async () => {
    const vault = copyVault(VAULTS.fixture);
    const { plugin } = await loadPlugin(vault, { backend: "app" });
    const note = "Meetings/2024-03-11 Vendor call.md";
    const file = path.join(vault, note);

    const shown = await plugin.summarize(noteFile(note), { dryRun: true });
    expect(shown.kind).toBe("previewed");
    if (shown.kind !== "previewed") return;
    expect(readFileSync(file, "utf8")).toBe(readFileSync(path.join(VAULTS.fixture, note), "utf8"));
    // Edited after the preview: its Insert refuses, and the edit stays as it is.
    const edited = `${readFileSync(file, "utf8")}\nEdited after the preview.\n`;
    writeFileSync(file, edited);
    const refused = await plugin.summarize(noteFile(note), { preview: shown.previewId });
    expect(refused.kind).toBe("failed");
    expect(refused.message).toContain("changed since its preview");
    expect(readFileSync(file, "utf8")).toBe(edited);

    // Previewed again and inserted: the summary shown is the one written.
    const again = await plugin.summarize(noteFile(note), { dryRun: true });
    if (again.kind !== "previewed") throw new Error(again.message);
    expect((await plugin.summarize(noteFile(note), { preview: again.previewId })).kind).toBe("written");
    // The note's own line ends (CRLF here), the fingerprint under the heading.
    const written = readFileSync(file, "utf8");
    expect(written).toMatch(/\r\n## Summary\r\n<!-- vaultsum: note=/);
    expect(written.replace(/\r\n/g, "\n")).toContain(again.text);
  });

  it("refuses by name what only the program does, and writes nothing", async () => {
    const vault = copyVault(VAULTS.fixture);
    const { plugin } = await loadPlugin(vault, { backend: "app" });
    const note = "Projects/Alpha/Plan.md";

    const withPrompt = await plugin.summarize(noteFile(note), { prompt: "[[Prompts/Weekly]]" });
    expect(withPrompt.kind).toBe("failed");
    expect(withPrompt.message).toBe(`Could not summarize ${note}: the prompt [[Prompts/Weekly]] (call) is a prompt note, which the app's engine does not follow yet (only the presets: default, meeting, paper, journal, brief); summarize the note with the vaultsum program (desktop)`);
    const withLanguage = await plugin.summarize(noteFile(note), { into: "property" });
    expect(withLanguage.message).toContain("the into chosen (in this call or in the vaultsum settings) needs the vaultsum program");
    // The destination the engine writes anyway is no objection (settings synced from a desktop).
    plugin.settings.into = "section";
    plugin.settings.language = "auto";
    expect((await plugin.summarize(noteFile(note), { dryRun: true })).kind).toBe("previewed");

    // Web pages need the program: the tool called all the same is refused by name.
    expect(runCommand(plugin, "summarize-url")).toBe(false);
    const web = await plugin.callTool("summarize", { url: "https://example.org/" });
    expect(web.isError).toBe(true);
    expect(web.text).toContain("summarize needs the vaultsum program");
    for (const name of [note, "Meetings/2024-03-04 Weekly sync.md"]) {
      expect(readFileSync(path.join(vault, name), "utf8")).toBe(readFileSync(path.join(VAULTS.fixture, name), "utf8"));
    }
    expect(noticeTexts().some((text) => text.includes("Summary written"))).toBe(false);
  });

  it("refuses a note over the binary's size limit, in the binary's words, before reading it", async () => {
    const vault = copyVault(VAULTS.fixture);
    const { plugin } = await loadPlugin(vault, { backend: "app" });
    const note = "Notes/Huge.md";
    const huge = `# Huge\n\n${"A line of a very long note.\n".repeat(400_000)}`;
    writeFileSync(path.join(vault, note), huge);

    const outcome = await plugin.summarize(noteFile(note), { dryRun: true });

    expect(outcome.kind).toBe("failed");
    expect(outcome.message).toBe(`Could not summarize ${note}: ${note}: too large to read (read.max_note_bytes)`);
    expect(readFileSync(path.join(vault, note), "utf8")).toBe(huge);
  });

  it("does not write back a note that is not plain UTF-8 text", async () => {
    const vault = copyVault(VAULTS.fixture);
    const { plugin } = await loadPlugin(vault, { backend: "app" });
    const note = "Notes/Cycle A.md";
    const file = path.join(vault, note);
    // A byte that is not UTF-8: Obsidian reads it as U+FFFD, which a write would put on disk.
    const bytes = Buffer.concat([readFileSync(file), Buffer.from("Caf\xe9 latin-1\n", "latin1")]);
    writeFileSync(file, bytes);

    const outcome = await plugin.summarize(noteFile(note));

    expect(outcome.kind).toBe("failed");
    expect(outcome.message).toContain("not plain UTF-8 text");
    expect(readFileSync(file).equals(bytes)).toBe(true);
  });
});
