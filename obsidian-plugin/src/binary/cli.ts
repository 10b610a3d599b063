// Short runs of the binary's command line, where a command is the honest fit rather than a
// tool of the MCP server: `--version`, `doctor` (what is set up, what is missing) and `config
// path` (where the config file is, so the plugin never works it out again). And
// `watch`, the binary's own mode for "summarize new notes automatically", which lives as long
// as Obsidian. Everything about notes (states, summaries, batches) is a tool call instead.

import { spawn, type ChildProcess } from "node:child_process";
// Node's timers: the timeout belongs to the child process, not to any window.
import { clearTimeout, setTimeout } from "node:timers";

import type { Launcher } from "./locate";

export interface CliOutput {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs `vaultsum ARGS` to its end (killed after `timeoutMs`). */
export function runCli(
  launcher: Launcher,
  args: string[],
  env: Record<string, string>,
  cwd: string,
  timeoutMs = 60_000,
): Promise<CliOutput> {
  return new Promise((resolve, reject) => {
    const child = spawn(launcher.command, [...launcher.prefix, ...args], {
      env,
      cwd,
      stdio: ["ignore", "pipe", "pipe"],
      windowsHide: true,
    });
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
    const timer = setTimeout(() => child.kill(), timeoutMs);
    child.on("error", (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.on("close", (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

/** `vaultsum --version`, e.g. `vaultsum 0.9.0`. */
export async function binaryVersion(launcher: Launcher, env: Record<string, string>, cwd: string): Promise<string> {
  const output = await runCli(launcher, ["--version"], env, cwd, 30_000);
  return output.stdout.trim() || output.stderr.trim();
}

/** `vaultsum doctor`: its whole report, as it prints it. */
export async function doctorReport(launcher: Launcher, env: Record<string, string>, cwd: string): Promise<string> {
  const output = await runCli(launcher, ["--vault", cwd, "doctor"], env, cwd, 60_000);
  return [output.stdout.trim(), output.stderr.trim()].filter(Boolean).join("\n");
}

/** `vaultsum config path --json`: where the binary reads its config file, and whether it exists yet. */
export async function configFile(launcher: Launcher, env: Record<string, string>, cwd: string): Promise<{ path: string; exists: boolean }> {
  return JSON.parse((await runCli(launcher, ["config", "path", "--json"], env, cwd, 30_000)).stdout) as { path: string; exists: boolean };
}

/**
 * `vaultsum watch` for this vault, while Obsidian is open; stopped with SIGTERM (a clean stop).
 * Its stderr is piped: the caller reads it (and must, so the pipe never fills).
 */
export function startWatch(
  launcher: Launcher,
  env: Record<string, string>,
  vault: string,
  maxPerHour: number,
): ChildProcess {
  return spawn(launcher.command, [...launcher.prefix, "--vault", vault, "watch", "--max-per-hour", String(maxPerHour)], {
    env,
    cwd: vault,
    // stderr is read for the reason when it stops (its log lines go there).
    stdio: ["ignore", "ignore", "pipe"],
    windowsHide: true,
  });
}
