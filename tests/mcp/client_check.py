"""A real MCP client (the official Python `mcp` SDK) checks vaultsum's MCP server end to end.

Run by tests/mcp_python_client.rs with the venv made by scripts/python-env.sh. It connects
over stdio (launching the server) or streamable HTTP, then checks: the server's name, version
and instructions; that tools/list matches `vaultsum tools --json` exactly, with titles, honest
annotations and schemas in the portable subset strict clients accept; every call of the
plan (result text, isError, `_meta.details` and its keys; for a tool with an output schema, the
`structuredContent` beside a non-empty text, holding the same facts: the SDK itself validates it
against the schema); and, over HTTP with a token, that requests without the right bearer token get
401. Prints `OK ...` lines and exits 0, or `FAIL: ...` and exits 1.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
from typing import Any

import httpx
from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client
from mcp.client.streamable_http import streamablehttp_client


class CheckFailed(Exception):
    pass


def expect(condition: bool, message: str) -> None:
    if not condition:
        raise CheckFailed(message)


def annotations_as_json(annotations: Any) -> dict[str, Any]:
    if annotations is None:
        return {}
    return annotations.model_dump(by_alias=True, exclude_none=True)


STANDARD_FORMATS = {
    "date-time", "date", "time", "duration", "email", "idn-email", "hostname", "idn-hostname",
    "ipv4", "ipv6", "uri", "uri-reference", "iri", "iri-reference", "uuid", "uri-template",
    "json-pointer", "relative-json-pointer", "regex",
}


def portability_problems(schema: Any, at: str) -> list[str]:
    """What strict clients (Gemini and others) refuse, checked independently of vaultsum's own
    checker: $schema, $ref/$defs, oneOf/anyOf/allOf, union types, non-standard formats, and
    properties without a type or a description."""
    if not isinstance(schema, dict):
        return [] if isinstance(schema, bool) else [f"{at}: not a schema"]
    problems = [f"{at}: has {key}" for key in
                ("$schema", "$ref", "$defs", "definitions", "oneOf", "anyOf", "allOf") if key in schema]
    if "type" in schema and not isinstance(schema["type"], str):
        problems.append(f"{at}: union type {schema['type']!r}")
    if "format" in schema and schema["format"] not in STANDARD_FORMATS:
        problems.append(f"{at}: format {schema['format']!r}")
    for name, prop in (schema.get("properties") or {}).items():
        path = f"{at}.properties.{name}"
        if not isinstance(prop, dict) or "type" not in prop:
            problems.append(f"{path}: no type")
        if not isinstance(prop, dict) or not str(prop.get("description", "")).strip():
            problems.append(f"{path}: no description")
        problems.extend(portability_problems(prop, path))
    for key in ("items", "additionalProperties"):
        if key in schema:
            problems.extend(portability_problems(schema[key], f"{at}.{key}"))
    return problems


async def check_session(session: ClientSession, plan: dict[str, Any]) -> None:
    init = await session.initialize()
    info = init.serverInfo
    expect(info.name == "vaultsum", f"server name: {info!r}")
    expect(info.version == plan["version"], f"server version {info.version} != {plan['version']}")
    instructions = init.instructions or ""
    for tool in ("summarize_file", "read_file"):
        expect(tool in instructions, f"instructions do not mention {tool}: {instructions!r}")
    print("OK initialize: vaultsum", info.version)

    listed = (await session.list_tools()).tools
    got = [
        {
            "name": tool.name,
            "title": tool.title,
            "description": tool.description,
            "input_schema": tool.inputSchema,
            "annotations": annotations_as_json(tool.annotations),
            "output_schema": tool.outputSchema,
        }
        for tool in listed
    ]
    want = plan["tools"]
    expect(
        [t["name"] for t in got] == [t["name"] for t in want],
        f"tool names {[t['name'] for t in got]} != {[t['name'] for t in want]}",
    )
    for g, w in zip(got, want):
        for field in ("title", "description", "input_schema", "annotations"):
            expect(g[field] == w[field], f"{w['name']}.{field}: {g[field]!r} != {w[field]!r}")
        expect(bool(g["title"]) and g["annotations"].get("title") == g["title"],
               f"{g['name']}: title {g['title']!r}, annotations {g['annotations']!r}")
        problems = portability_problems(g["input_schema"], "$")
        expect(not problems, f"{g['name']}: schema not portable: {problems}")
        expect(g["output_schema"] == w.get("output_schema"),
               f"{w['name']}.output_schema: {g['output_schema']!r} != {w.get('output_schema')!r}")
        if g["output_schema"] is not None:
            problems = portability_problems(g["output_schema"], "$")
            expect(not problems, f"{g['name']}: output schema not portable: {problems}")
    hints = {g["name"]: g["annotations"] for g in got}
    # A scoped server (`--tools`, `--read-only`) lists fewer tools: check those it lists.
    if "summarize_file" in hints:
        expect(hints["summarize_file"].get("destructiveHint") is True,
               f"summarize_file must be destructive (replace=true): {hints['summarize_file']!r}")
    if "read_file" in hints:
        expect(hints["read_file"].get("readOnlyHint") is True, f"read_file: {hints['read_file']!r}")
    if "web_search" in hints:
        expect(hints["web_search"].get("readOnlyHint") is True
               and hints["web_search"].get("openWorldHint") is True,
               f"web_search: {hints['web_search']!r}")
    # summarize reads the web and writes a note only with save_to: never destructive, and
    # read-only on a read-only server (checked below).
    if "summarize" in hints:
        expect(hints["summarize"].get("openWorldHint") is True
               and hints["summarize"].get("destructiveHint") is False,
               f"summarize: {hints['summarize']!r}")
    if plan.get("read_only"):
        for name, hint in hints.items():
            expect(hint.get("readOnlyHint") is True, f"read-only server lists {name}: {hint!r}")
    print(f"OK tools/list: {len(got)} tools match `vaultsum tools --json`, titled, portable schemas")

    records = {g["name"] for g in got if g["output_schema"] is not None}
    for call in plan["calls"]:
        result = await session.call_tool(call["tool"], call["arguments"])
        label = f"{call['tool']}({json.dumps(call['arguments'])[:60]})"
        expect(
            result.isError == call["expect_error"],
            f"{label}: isError={result.isError}, expected {call['expect_error']}: {result.content!r}",
        )
        texts = [block.text for block in result.content if getattr(block, "type", "") == "text"]
        expect(len(texts) == 1 and texts[0], f"{label}: expected one non-empty text block: {result.content!r}")
        for needle in call.get("text_contains", []):
            expect(needle in texts[0], f"{label}: text lacks {needle!r}: {texts[0][:300]!r}")
        for needle in call.get("text_lacks", []):
            expect(needle not in texts[0], f"{label}: text has {needle!r}: {texts[0][:300]!r}")
        if "text_equals" in call:
            expect(texts[0] == call["text_equals"], f"{label}: text {texts[0][:300]!r} != {call['text_equals']!r}")
        meta = result.meta or {}
        expect("details" in meta, f"{label}: no _meta.details: {meta!r}")
        for key in call.get("details_keys", []):
            expect(key in (meta["details"] or {}), f"{label}: _meta.details lacks {key!r}: {meta['details']!r}")
        expect(json.dumps(meta["details"]) not in texts[0] or meta["details"] in ({}, None),
               f"{label}: details leaked into the text")
        if call["tool"] in records:
            check_record(label, texts[0], result.structuredContent, result.isError)
        else:
            expect(result.structuredContent is None, f"{label}: structuredContent from a tool without an output schema")
        print(f"OK call {label}: isError={result.isError}")


def check_record(label: str, text: str, record: Any, is_error: bool) -> None:
    """A tool that declares an output schema answers with a record beside its text (the SDK
    has validated it against the schema): the same facts in both, an error in both."""
    expect(isinstance(record, dict), f"{label}: no structuredContent: {record!r}")
    expect(record.get("success") is (not is_error), f"{label}: success={record.get('success')!r}, isError={is_error}")
    try:
        as_json = json.loads(text)
    except ValueError:
        as_json = None
    if as_json is not None:
        # summarize_file: the text is the record as JSON.
        expect(as_json == record, f"{label}: text {text[:200]!r} != record {record!r}")
    elif is_error:
        expect(record.get("error") == text, f"{label}: record error {record.get('error')!r} != text {text[:200]!r}")
    elif "notes" in record:
        # summarize_notes: the rollup is the text; a dry run's text lists the same notes.
        expect(record.get("rollup", text) == text, f"{label}: the record's rollup is not the text")
        expect(record["note_count"] == len(record["notes"]) > 0, f"{label}: notes {record['notes']!r}")
        for note in record["notes"]:
            expect(f"[[{note.removesuffix('.md')}]]" in text, f"{label}: {note} not among the text's sources")
    else:
        for result in record.get("results", []):
            for key in ("title", "url"):
                expect(result[key] in text, f"{label}: {key} {result[key]!r} not in the text")
    print(f"OK {label}: structuredContent beside the text, the same facts")


async def check_unauthorized(url: str, token: str) -> None:
    body = {
        "jsonrpc": "2.0", "id": 1, "method": "initialize",
        "params": {"protocolVersion": "2025-06-18", "capabilities": {},
                   "clientInfo": {"name": "auth-check", "version": "0"}},
    }
    headers = {"Accept": "application/json, text/event-stream"}
    async with httpx.AsyncClient() as http:
        for auth in (None, "Bearer wrong-" + token, "Basic " + token):
            h = dict(headers)
            if auth:
                h["Authorization"] = auth
            response = await http.post(url, json=body, headers=h)
            expect(response.status_code == 401, f"Authorization={auth and auth.split()[0]}: HTTP {response.status_code}, expected 401")
            expect(token not in response.text, "401 body echoes the token")
    print("OK HTTP without the right bearer token: 401")


async def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--plan", required=True, help="JSON: version, tools (tools --json), calls")
    transport = parser.add_mutually_exclusive_group(required=True)
    transport.add_argument("--stdio", nargs=argparse.REMAINDER, help="server command and args")
    transport.add_argument("--http", help="server URL, e.g. http://127.0.0.1:8765/mcp")
    parser.add_argument("--token", help="bearer token for --http")
    args = parser.parse_args()
    with open(args.plan, encoding="utf-8") as f:
        plan = json.load(f)

    try:
        if args.stdio:
            server = StdioServerParameters(command=args.stdio[0], args=args.stdio[1:])
            async with stdio_client(server) as (read, write):
                async with ClientSession(read, write) as session:
                    await check_session(session, plan)
        else:
            if args.token:
                await check_unauthorized(args.http, args.token)
            headers = {"Authorization": f"Bearer {args.token}"} if args.token else None
            async with streamablehttp_client(args.http, headers=headers) as (read, write, _):
                async with ClientSession(read, write) as session:
                    await check_session(session, plan)
    except CheckFailed as failure:
        print(f"FAIL: {failure}", file=sys.stderr)
        return 1
    print("OK all checks passed")
    return 0


if __name__ == "__main__":
    sys.exit(asyncio.run(main()))
