// Opt-in figure (VAULTSUM_BENCH=1 npm run bench): time from "Summarize this note" to the
// summary on disk with the offline engine, cold (the first call starts `vaultsum mcp`) and
// warm (it runs already), beside the baseline of the same run: the command line's
// `vaultsum summarize-file --replace NOTE`, one process per note; 11 rounds, medians. On the fixture and on the vendored
// obsidian-tasks-docs vault (not tuned on).

import { spawnSync } from "node:child_process";
import { readFileSync, readdirSync, statSync } from "node:fs";
import * as path from "node:path";

import { afterEach, describe, expect, it } from "vitest";

import { BINARY, VAULTS, cleanup, copyVault, loadPlugin, note } from "./support";

afterEach(cleanup);

function notesOf(root: string): string[] {
  const out: string[] = [];
  const walk = (dir: string) => {
    for (const name of readdirSync(path.join(root, dir)).sort()) {
      if (name.startsWith(".") || name === "Templates") continue;
      const rel = dir ? `${dir}/${name}` : name;
      if (statSync(path.join(root, rel)).isDirectory()) walk(rel);
      else if (name.endsWith(".md")) out.push(rel);
    }
  };
  walk("");
  return out;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

describe.skipIf(!process.env.VAULTSUM_BENCH)("latency of Summarize this note (offline engine)", () => {
  for (const [name, source] of Object.entries(VAULTS)) {
    it(`on ${name}`, async () => {
      const vault = copyVault(source);
      const notes = notesOf(vault).slice(0, 12);
      const { plugin } = await loadPlugin(vault);

      const coldStart = performance.now();
      expect((await plugin.summarize(note(notes[0]))).kind).toBe("written");
      const cold = performance.now() - coldStart;

      // Warm and CLI samples alternate, so both see the same load on the machine: each round
      // summarizes one note through the running plugin, then another with one CLI process
      // (both replacing the summary a previous round wrote).
      const warm: number[] = [];
      const cli: number[] = [];
      const rounds = 11;
      for (let round = 0; round < rounds; round++) {
        const viaPlugin = notes[1 + (round % 4)];
        const start = performance.now();
        const outcome = await plugin.summarize(note(viaPlugin), { replace: true });
        warm.push(performance.now() - start);
        expect(outcome.kind).toBe("written");
        expect(readFileSync(path.join(vault, viaPlugin), "utf8")).toContain("## Summary");

        const viaCli = notes[5 + (round % 4)];
        const cliStart = performance.now();
        const run = spawnSync(BINARY, ["--vault", vault, "summarize-file", "--replace", viaCli], { env: { ...process.env, VAULTSUM_ENGINE: "local" } });
        cli.push(performance.now() - cliStart);
        expect(run.status, String(run.stderr)).toBe(0);
      }
      const line =
        `${name}: cold ${cold.toFixed(0)} ms; warm median ${median(warm).toFixed(0)} ms; ` +
        `CLI process median ${median(cli).toFixed(0)} ms; warm/CLI ${(median(warm) / median(cli)).toFixed(2)}x, cold/CLI ${(cold / median(cli)).toFixed(2)}x`;
      process.stdout.write(`${line}\n`);
    });
  }
});
