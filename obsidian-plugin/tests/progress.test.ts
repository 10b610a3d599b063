// The MCP client's handling of progress, against a scripted server (a Node script speaking
// MCP's stdio framing) that does what the real binary may do under load: write a call's last
// progress notifications and its answer in one write, so the client reads them together.
import { writeFileSync } from "node:fs";
import * as path from "node:path";

import { afterEach, describe, expect, it } from "vitest";

import { ServerError, VaultsumServer, type Progress } from "../src/binary/server";
import { cleanup, tempDir } from "./support";

afterEach(cleanup);

/** A server with two tools: `batch` (three progress reports and its answer in one write), `hang` (never answers). */
const SCRIPT = `
const send = (messages) => process.stdout.write(messages.map((m) => JSON.stringify(m) + "\\n").join(""));
let buffer = "";
process.stdin.on("data", (chunk) => {
  buffer += chunk;
  let newline;
  while ((newline = buffer.indexOf("\\n")) >= 0) {
    const message = JSON.parse(buffer.slice(0, newline));
    buffer = buffer.slice(newline + 1);
    if (message.method === "initialize") {
      send([{ jsonrpc: "2.0", id: message.id, result: {
        protocolVersion: message.params.protocolVersion,
        capabilities: { tools: {} },
        serverInfo: { name: "scripted", version: "1" },
      } }]);
    } else if (message.method === "tools/call" && message.params.name === "batch") {
      const progressToken = message.params._meta.progressToken;
      const notes = [1, 2, 3].map((done) => ({ jsonrpc: "2.0", method: "notifications/progress", params: {
        progressToken, progress: done, total: 3, message: "note " + done, _meta: { details: { done } },
      } }));
      send([...notes, { jsonrpc: "2.0", id: message.id, result: { content: [{ type: "text", text: "3 notes" }] } }]);
    }
  }
});
`;

function scriptedServer(silenceMs?: number): VaultsumServer {
  const dir = tempDir("vaultsum-scripted-");
  const script = path.join(dir, "server.js");
  writeFileSync(script, SCRIPT);
  return new VaultsumServer({
    launcher: () => ({ command: process.execPath, prefix: [script], foundBy: "setting" }),
    environment: () => ({ PATH: process.env.PATH ?? "" }),
    vault: dir,
    silenceMs,
  });
}

describe("progress", () => {
  it("every report read with the answer reaches the caller before the answer", async () => {
    const server = scriptedServer();
    try {
      const seen: Progress[] = [];
      const result = await server.call("batch", {}, { onProgress: (progress) => seen.push(progress) });
      expect(result.text).toBe("3 notes");
      expect(seen.map((p) => [p.progress, p.total, p.message, p.details])).toEqual([
        [1, 3, "note 1", { done: 1 }],
        [2, 3, "note 2", { done: 2 }],
        [3, 3, "note 3", { done: 3 }],
      ]);
    } finally {
      await server.stop();
    }
  });

  it("a binary silent for too long is given up on and stopped; the next call starts a fresh one", async () => {
    const server = scriptedServer(300);
    try {
      const first = await server.call("batch", {});
      expect(first.text).toBe("3 notes");
      const pid = server.pid;
      expect(pid).toBeGreaterThan(0);
      const error = await server.call("hang", {}).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ServerError);
      expect((error as Error).message).toBe(
        "vaultsum stopped answering (nothing for 0.3 s), so it was stopped; the next command starts it again. If this repeats, run `vaultsum doctor`.",
      );
      expect(server.running).toBe(false);
      expect((await server.call("batch", {})).text).toBe("3 notes");
      expect(server.pid).not.toBe(pid);
    } finally {
      await server.stop();
    }
  });
});
