// The official TypeScript MCP SDK against `vaultsum mcp --http`: connect, list the tools, end
// the session the way the SDK does (`terminateSession`: DELETE /mcp), and check the server
// forgot it. Prints `OK …` and exits 0, or prints `FAIL: …` and exits 1.
// Run by tests/it/mcp_ts_client.rs: node close_check.mjs URL
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";

function fail(message) {
  console.error(`FAIL: ${message}`);
  process.exit(1);
}

const url = process.argv[2];
if (!url) fail("usage: node close_check.mjs URL");

const transport = new StreamableHTTPClientTransport(new URL(url));
const client = new Client({ name: "vaultsum-ts-close-check", version: "0" });
await client.connect(transport);
const { tools } = await client.listTools();
if (!tools.some((tool) => tool.name === "read_file")) {
  fail(`read_file is not listed: ${tools.map((tool) => tool.name).join(", ")}`);
}
const sessionId = transport.sessionId;
if (!sessionId) fail("the server gave no session id");

// Throws on an answer the SDK does not take as success.
try {
  await transport.terminateSession();
} catch (error) {
  fail(`terminateSession: ${error}`);
}
if (transport.sessionId !== undefined) fail("the SDK still holds the session id after the close");

// The ended session is unknown to the server now.
const after = await fetch(url, {
  method: "POST",
  headers: {
    "content-type": "application/json",
    accept: "application/json, text/event-stream",
    "mcp-session-id": sessionId,
    "mcp-protocol-version": "2025-06-18",
  },
  body: JSON.stringify({ jsonrpc: "2.0", id: 9, method: "tools/list" }),
});
if (after.status !== 404) fail(`a request in the ended session got HTTP ${after.status}, not 404`);

await client.close();
console.log(`OK session ended (DELETE answered as the SDK expects)`);
