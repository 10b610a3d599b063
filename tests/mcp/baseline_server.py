"""Baseline for benches/mcp_cold_start.rs: a minimal MCP server from the Python `mcp` SDK
(FastMCP), serving one tool over stdio, so its cold start to the tools/list answer can be
compared with vaultsum's in the same run."""

from mcp.server.fastmcp import FastMCP

server = FastMCP("baseline")


@server.tool()
def read_file(path: str) -> str:
    """Read a note."""
    return path


if __name__ == "__main__":
    server.run()
