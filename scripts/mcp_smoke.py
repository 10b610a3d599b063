"""Smoke test of an installed vaultsum MCP server, through the official Python `mcp` client.

    python scripts/mcp_smoke.py [--summarize NOTE] COMMAND [ARGS...]
    python scripts/mcp_smoke.py [--summarize NOTE] --launch-json FILE

Starts the server over stdio, as an MCP host would: either `COMMAND ARGS...` with
`VAULTSUM_VAULT` pointing at a fresh copy of vault-fixture/, or the command, arguments and
environment written in FILE (`{"command", "args", "env"}`, for instance what Claude Desktop
computes from an .mcpb manifest; its env must name the vault). Then `initialize` and
`tools/list`, which must advertise read_file, summarize_file, summarize and web_search. With
`--summarize NOTE`, also calls `summarize_file` on that note and checks it succeeded with the
offline engine (the environment it is given holds no usable API key).

Prints `OK ... seconds from launch to the tools/list answer` and exits 0, or `FAIL: ...` and
exits 1. Run with the venv of scripts/python-env.sh (it has `mcp`).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import shutil
import sys
import tempfile
import time
from pathlib import Path

from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client

EXPECTED_TOOLS = {"read_file", "summarize_file", "summarize", "web_search"}
FIXTURE = Path(__file__).resolve().parent.parent / "vault-fixture"
# A hung server must fail the check, not hang CI.
TIMEOUT_SECS = 60


class SmokeFailed(Exception):
    pass


async def smoke(server: StdioServerParameters, summarize: str | None) -> str:
    started = time.monotonic()
    async with stdio_client(server) as (read, write):
        async with ClientSession(read, write) as session:
            init = await session.initialize()
            tools = await session.list_tools()
            seconds = time.monotonic() - started
            names = {tool.name for tool in tools.tools}
            missing = EXPECTED_TOOLS - names
            if missing:
                raise SmokeFailed(f"tools/list lacks {sorted(missing)}; it has {sorted(names)}")
            line = (
                f"OK {init.serverInfo.name} {init.serverInfo.version}: tools/list answered "
                f"{sorted(names)} {seconds:.2f} seconds from launch"
            )
            if summarize is not None:
                result = await session.call_tool("summarize_file", {"path": summarize})
                text = " ".join(getattr(c, "text", "") for c in result.content)
                if result.isError:
                    raise SmokeFailed(f"summarize_file {summarize!r} failed: {text}")
                details = (result.meta or {}).get("details") or {}
                engine = (details.get("summarizer") or {}).get("engine")
                if engine != "offline":
                    raise SmokeFailed(
                        f"summarize_file {summarize!r} used engine {engine!r}, expected the "
                        f"offline engine ('offline'): an empty API key must count as no key"
                    )
                line += f"; summarize_file {summarize!r} succeeded with the offline engine"
            return line


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--launch-json", type=Path, help="command, args and env as JSON")
    parser.add_argument("--summarize", metavar="NOTE", help="also summarize this vault note")
    parser.add_argument("command", nargs=argparse.REMAINDER, help="COMMAND [ARGS...]")
    args = parser.parse_args()
    if (args.launch_json is None) == (not args.command):
        parser.error("give either COMMAND [ARGS...] or --launch-json FILE")

    with tempfile.TemporaryDirectory(prefix="vaultsum-smoke-") as scratch:
        if args.launch_json is not None:
            launch = json.loads(args.launch_json.read_text())
            env = {k: str(v) for k, v in (launch.get("env") or {}).items()}
            leftover = [k for k, v in env.items() if "${" in v]
            if leftover:
                print(f"FAIL: unresolved placeholders in env {leftover}: {env}", file=sys.stderr)
                return 1
            if not env.get("VAULTSUM_VAULT"):
                print("FAIL: the launch env does not name the vault (VAULTSUM_VAULT)", file=sys.stderr)
                return 1
            server = StdioServerParameters(
                command=launch["command"], args=list(launch.get("args") or []), env=env
            )
        else:
            vault = Path(scratch) / "vault"
            shutil.copytree(FIXTURE, vault)
            # The client passes only a default environment plus this (no keys from the caller's
            # environment), as MCP hosts do.
            server = StdioServerParameters(
                command=args.command[0], args=args.command[1:], env={"VAULTSUM_VAULT": str(vault)}
            )
        try:
            line = asyncio.run(asyncio.wait_for(smoke(server, args.summarize), TIMEOUT_SECS))
        except SmokeFailed as failed:
            print(f"FAIL: {failed}", file=sys.stderr)
            return 1
        except (asyncio.TimeoutError, TimeoutError):
            print(f"FAIL: no answer within {TIMEOUT_SECS} s from {server.command}", file=sys.stderr)
            return 1
        except Exception as error:  # the server did not start or broke the protocol
            while isinstance(error, BaseExceptionGroup) and error.exceptions:
                error = error.exceptions[0]  # anyio wraps the cause in task groups
            print(f"FAIL: {server.command}: {type(error).__name__}: {error}", file=sys.stderr)
            return 1
    print(line)
    return 0


if __name__ == "__main__":
    sys.exit(main())
