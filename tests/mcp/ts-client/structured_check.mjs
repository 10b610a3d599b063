// The official TypeScript MCP SDK reads the records of `vaultsum mcp --http`: the tools whose
// answer is a record (summarize_file, summarize_notes, web_search) declare an `outputSchema`,
// and every result carries `structuredContent` beside a non-empty text with the same facts; a
// failure keeps its error in both. The SDK itself validates each record against the tool's
// schema (`callTool` throws otherwise). Prints `OK …` and exits 0, or `FAIL: …` and exits 1.
// Run by tests/it/mcp_ts_client.rs: node structured_check.mjs URL
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";

function fail(message) {
  console.error(`FAIL: ${message}`);
  process.exit(1);
}

function expect(condition, message) {
  if (!condition) fail(message);
}

const url = process.argv[2];
if (!url) fail("usage: node structured_check.mjs URL");

const client = new Client({ name: "vaultsum-ts-structured-check", version: "0" });
await client.connect(new StreamableHTTPClientTransport(new URL(url)));
const { tools } = await client.listTools();
const withSchema = tools.filter((tool) => tool.outputSchema).map((tool) => tool.name).sort();
expect(
  JSON.stringify(withSchema) === JSON.stringify(["summarize_file", "summarize_notes", "web_search"]),
  `tools with an output schema: ${withSchema.join(", ")}`,
);

/** Calls a tool (the SDK validates the record) and returns its one text and its record. */
async function call(name, args, isError) {
  let result;
  try {
    result = await client.callTool({ name, arguments: args });
  } catch (error) {
    fail(`${name}: the SDK refused the result: ${error}`);
  }
  const texts = result.content.filter((block) => block.type === "text").map((block) => block.text);
  expect(texts.length === 1 && texts[0].length > 0, `${name}: one non-empty text: ${JSON.stringify(result.content)}`);
  expect(Boolean(result.isError) === isError, `${name}: isError ${result.isError}`);
  const record = result.structuredContent;
  expect(record && typeof record === "object", `${name}: no structuredContent`);
  expect(record.success === !isError, `${name}: success ${record.success}, isError ${result.isError}`);
  return { text: texts[0], record };
}

// summarize_file (offline engine, dry run): the text is the record as JSON.
{
  const { text, record } = await call("summarize_file", { path: "Note.md", dry_run: true }, false);
  expect(JSON.stringify(JSON.parse(text)) === JSON.stringify(record), `summarize_file: text ${text} != record`);
  expect(record.summary && record.summary.length > 0, "summarize_file: no summary in the record");
}
// A failure: the error in the text and in the record.
{
  const { text, record } = await call("summarize_file", { path: "../outside.md" }, true);
  expect(JSON.parse(text).error === record.error && record.error.includes("escapes the vault"), `summarize_file error: ${text}`);
}
// summarize_notes: the rollup in both, and its notes among the text's sources.
{
  const { text, record } = await call("summarize_notes", { paths: ["Note.md", "Other.md"] }, false);
  expect(record.rollup === text, "summarize_notes: the record's rollup is not the text");
  expect(
    JSON.stringify(record.notes) === JSON.stringify(["Note.md", "Other.md"]) && text.includes("[[Note]]") && text.includes("[[Other]]"),
    `summarize_notes: notes ${JSON.stringify(record.notes)}`,
  );
}
// web_search against the fake Kagi: every result's number, title and URL in the text.
{
  const { text, record } = await call("web_search", { queries: ["rust", "tokio"] }, false);
  expect(record.results.length === 3, `web_search: ${record.results.length} results`);
  for (const result of record.results) {
    expect(text.includes(`${result.n}. ${result.title}\n   ${result.url}`), `web_search: result ${result.n} not in the text`);
  }
  expect(JSON.stringify(record.no_results) === "[]" && JSON.stringify(record.failed) === "[]", "web_search: failures");
}
{
  const { text, record } = await call("web_search", { queries: [] }, true);
  expect(record.error === text && text.includes("1 to 10 queries"), `web_search error: ${text}`);
}

await client.close();
console.log("OK records beside the text (summarize_file, summarize_notes, web_search)");
