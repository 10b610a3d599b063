// One long-lived `vaultsum mcp` per vault, over stdio, through the official MCP SDK.
//
// Started by the first call (a note opened asks for its summary state, so usually soon), stopped on
// unload. If it dies, the reason (the last lines it wrote to stderr) is shown and it is
// started again once; a second death is an error that names both reasons, so a binary that
// crashes on start does not restart forever.

import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { ProgressNotificationSchema } from "@modelcontextprotocol/sdk/types.js";
import { CfWorkerJsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/cfworker";

import type { Launcher } from "./locate";

import { CallCancelled, ServerError, type CallOptions, type Progress, type ToolResult } from "../backend";

export { CallCancelled, ServerError, type CallOptions, type Progress, type ToolResult };

export interface ServerOptions {
  /** How to start the binary (found when the server starts, so a new path setting applies). */
  launcher: () => Launcher;
  /** The environment it starts with (the settings as its configuration). */
  environment: () => Record<string, string>;
  /** The vault folder (FileSystemAdapter.getBasePath()). */
  vault: string;
  /** Told when the binary stopped unexpectedly, with the reason, and whether it will restart. */
  onExit?: (reason: string, restarting: boolean) => void;
  /** How long a call may go without a word from the binary (`SILENCE_MS`; shorter in tests). */
  silenceMs?: number;
}

/** How many lines of the binary's stderr are kept to say why it stopped. */
const STDERR_LINES = 20;

/**
 * How long a call may go without a word from the binary. A summary with a reasoning model takes
 * minutes; the binary sends progress at least every 5 s, so only a silent binary is given up on.
 */
export const SILENCE_MS = 120_000;

/** What a call's progress notifications carry (`_meta.details`: a batch's note). */
type ProgressParams = Progress & { progressToken: string | number; _meta?: { details?: Record<string, unknown> } };

export class VaultsumServer {
  private client: Client | undefined;
  private transport: StdioClientTransport | undefined;
  private starting: Promise<Client> | undefined;
  private stopping = false;
  private restarts = 0;
  private lastExit: string | undefined;
  private stderrTail: string[] = [];
  /** Each running call's progress listener, by the progress token the call was sent with. */
  private readonly progressListeners = new Map<string, (params: ProgressParams) => void>();
  private nextToken = 0;

  constructor(private readonly options: ServerOptions) {}

  /** The process id of the running binary, if one runs. */
  get pid(): number | undefined {
    return this.transport?.pid ?? undefined;
  }

  /** Whether a binary is running. */
  get running(): boolean {
    return this.client !== undefined;
  }

  /**
   * Calls a tool; starts the binary first when none runs.
   *
   * Progress comes with a token of this class's own, not the SDK's `onprogress`: the SDK hands a
   * notification to its handler a microtask later than the answer that arrives in the same read,
   * and drops the call's handler with the answer, so under load the last note of a batch was
   * never shown. Here a call's listener stays until the call's own continuation runs, which comes
   * after every notification read before its answer. The same notifications reset the wait for
   * a silent binary (`SILENCE_MS`).
   */
  async call(name: string, args: Record<string, unknown>, options: CallOptions = {}): Promise<ToolResult> {
    const client = await this.ensureStarted();
    if (options.signal?.aborted) throw new CallCancelled(`${name} cancelled`);
    const token = `vaultsum-${++this.nextToken}`;
    const silenceMs = this.options.silenceMs ?? SILENCE_MS;
    // One signal for the SDK: the person's cancel, or the binary's silence.
    const stop = new AbortController();
    let silent = false;
    const cancel = () => stop.abort();
    options.signal?.addEventListener("abort", cancel, { once: true });
    const onSilence = () => {
      silent = true;
      stop.abort();
    };
    let timer = window.setTimeout(onSilence, silenceMs);
    this.progressListeners.set(token, (params) => {
      window.clearTimeout(timer);
      timer = window.setTimeout(onSilence, silenceMs);
      const { progressToken: _token, _meta, ...progress } = params;
      options.onProgress?.({ ...progress, details: _meta?.details });
    });
    try {
      const result = await client.callTool({ name, arguments: args, _meta: { progressToken: token } }, undefined, {
        signal: stop.signal,
        // The silence above is the limit; the SDK's own (60 s by default) would cut long summaries.
        timeout: 24 * 60 * 60 * 1000,
      });
      const content = Array.isArray(result.content) ? result.content : [];
      const text = content
        .map((block: { type: string; text?: string }) => (block.type === "text" ? (block.text ?? "") : ""))
        .join("");
      const meta = (result._meta ?? {}) as Record<string, unknown>;
      const details = (meta.details ?? {}) as Record<string, unknown>;
      return { text, isError: result.isError === true, details };
    } catch (error) {
      if (options.signal?.aborted) throw new CallCancelled(`${name} cancelled`);
      if (this.lastExit !== undefined && this.client === undefined) {
        throw new ServerError(`vaultsum stopped during ${name}: ${this.lastExit}`);
      }
      if (silent) {
        // A binary that stopped answering would take every later call with it: it is stopped,
        // and the next call starts a fresh one.
        await this.stop();
        throw new ServerError(
          `vaultsum stopped answering (nothing for ${silenceMs / 1000} s), so it was stopped; ` +
            "the next command starts it again. If this repeats, run `vaultsum doctor`.",
        );
      }
      throw error;
    } finally {
      window.clearTimeout(timer);
      options.signal?.removeEventListener("abort", cancel);
      this.progressListeners.delete(token);
    }
  }

  /** Stops the binary (on unload, or when settings change); the next call starts it again. */
  async stop(): Promise<void> {
    this.stopping = true;
    try {
      await this.client?.close();
    } finally {
      this.client = undefined;
      this.transport = undefined;
      this.starting = undefined;
      this.stopping = false;
    }
  }

  /** Stops it and forgets past deaths: after the person changed a setting, it may work now. */
  async reset(): Promise<void> {
    await this.stop();
    this.restarts = 0;
    this.lastExit = undefined;
  }

  private async ensureStarted(): Promise<Client> {
    if (this.client) return this.client;
    if (this.starting) return this.starting;
    if (this.lastExit !== undefined) {
      if (this.restarts >= 1) {
        throw new ServerError(
          `vaultsum stopped again and was not restarted: ${this.lastExit}. ` +
            "Run `vaultsum doctor` (its output is in the vaultsum settings), then reload the plugin.",
        );
      }
      this.restarts += 1;
    }
    this.starting = this.start();
    try {
      return await this.starting;
    } finally {
      this.starting = undefined;
    }
  }

  private async start(): Promise<Client> {
    const launcher = this.options.launcher();
    this.stderrTail = [];
    const transport = new StdioClientTransport({
      command: launcher.command,
      // --cli-tools: summarize_text answers "Summarize selection" (unlisted; agents' servers lack it).
      args: [...launcher.prefix, "mcp", "--cli-tools"],
      env: this.options.environment(),
      cwd: this.options.vault,
      stderr: "pipe",
    });
    transport.stderr?.on("data", (chunk: Buffer) => {
      for (const line of chunk.toString("utf8").split(/\r?\n/)) {
        if (line.trim()) this.stderrTail.push(line.trim());
      }
      this.stderrTail.splice(0, Math.max(0, this.stderrTail.length - STDERR_LINES));
    });
    // A schema validator without eval: the SDK's default (ajv) compiles schemas with `new Function`.
    const client = new Client({ name: "vaultsum-obsidian", version: "0.1.0" }, { jsonSchemaValidator: new CfWorkerJsonSchemaValidator() });
    // The SDK keeps the child process to itself; its exit code or signal says why it stopped,
    // so it is read when the SDK has it (and the reason is the stderr lines alone otherwise).
    let child: { exitCode: number | null; signalCode: string | null } | undefined;
    client.onclose = () => {
      if (this.client !== client) return;
      this.client = undefined;
      this.transport = undefined;
      if (this.stopping) return;
      this.lastExit = this.exitReason(child);
      this.options.onExit?.(this.lastExit, this.restarts < 1);
    };
    // Replaces the SDK's own progress handler on this client: every call here passes its own
    // token (see `call`), none uses the SDK's `onprogress`, which would no longer be called.
    client.setNotificationHandler(ProgressNotificationSchema, (notification) => {
      const params = notification.params as ProgressParams;
      this.progressListeners.get(String(params.progressToken))?.(params);
    });
    try {
      await client.connect(transport);
    } catch (error) {
      const reason = this.stderrTail.at(-1) ?? (error instanceof Error ? error.message : String(error));
      this.lastExit = reason;
      await client.close().catch(() => undefined);
      throw new ServerError(`vaultsum could not start (${launcher.command}): ${reason}`);
    }
    child = (transport as unknown as { _process?: { exitCode: number | null; signalCode: string | null } })._process;
    this.client = client;
    this.transport = transport;
    return client;
  }

  private exitReason(child?: { exitCode: number | null; signalCode: string | null }): string {
    const how = child?.signalCode
      ? `it was stopped by ${child.signalCode}`
      : child?.exitCode !== null && child?.exitCode !== undefined
        ? `it exited with code ${child.exitCode}`
        : "it exited";
    const last = this.stderrTail.filter((line) => /error|panic|fatal|killed|signal/i.test(line)).at(-1)
      ?? this.stderrTail.at(-1);
    return last ? `${how} (${last})` : `${how} without a message`;
  }
}
