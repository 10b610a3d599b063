"""A real MCP client (the official Python `mcp` SDK) makes one tools/call and records every
notification the server sends while it runs, for tests/it/mcp_progress.rs to judge.

It launches the server over stdio, calls the tool with a progress callback (so the SDK sends
`_meta.progressToken`) or without one, and prints one JSON object: the notifications in the
order they arrived, each with its time in seconds since the call was sent, and the answer with
its time. With a callback, each progress notification must also have reached the callback.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
import time
from typing import Any

from mcp import ClientSession, StdioServerParameters, types
from mcp.client.stdio import stdio_client


async def run(args: argparse.Namespace) -> dict[str, Any]:
    env = dict(item.split("=", 1) for item in args.env)
    server = StdioServerParameters(command=args.stdio[0], args=args.stdio[1:], env=env or None)
    notifications: list[dict[str, Any]] = []
    callbacks: list[dict[str, Any]] = []
    started = time.monotonic()

    async def on_message(message: Any) -> None:
        if isinstance(message, types.ServerNotification):
            root = message.root
            entry: dict[str, Any] = {"t": time.monotonic() - started, "method": root.method}
            if isinstance(root, types.ProgressNotification):
                params = root.params
                entry.update(
                    token=params.progressToken,
                    progress=params.progress,
                    total=params.total,
                    message=params.message,
                )
            notifications.append(entry)

    async def on_progress(progress: float, total: float | None, message: str | None) -> None:
        callbacks.append({"progress": progress, "total": total, "message": message})

    async with stdio_client(server) as (read, write):
        async with ClientSession(read, write, message_handler=on_message) as session:
            await session.initialize()
            started = time.monotonic()
            result = await session.call_tool(
                args.tool,
                json.loads(args.arguments),
                progress_callback=on_progress if args.progress else None,
            )
            answered = time.monotonic() - started
    texts = [block.text for block in result.content if getattr(block, "type", "") == "text"]
    return {
        "notifications": notifications,
        "callbacks": callbacks,
        "answer": {"t": answered, "is_error": result.isError, "text": texts[0] if texts else ""},
    }


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--tool", required=True)
    parser.add_argument("--arguments", required=True, help="JSON object")
    parser.add_argument("--progress", action="store_true", help="ask for progress")
    parser.add_argument("--env", action="append", default=[], help="KEY=VALUE for the server")
    parser.add_argument("--stdio", nargs=argparse.REMAINDER, required=True, help="server command")
    args = parser.parse_args()
    print(json.dumps(asyncio.run(run(args))))
    return 0


if __name__ == "__main__":
    sys.exit(main())
