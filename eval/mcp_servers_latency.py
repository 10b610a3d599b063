"""Warm read latency of vault MCP servers, side by side: `vaultsum mcp` and two Node servers
that read an Obsidian vault from disk (mcp-obsidian 1.0.0, obsidian-mcp 1.0.6), each driven over
stdio by this one client, reading the same notes of the same vault.

Each server is started, initialized, and asked for N notes twice: the first pass warms it (the
page cache, and vaultsum's index and parsed notes), the second is timed call by call (request
written to the answer read). Three rounds, the servers taking turns; the median round is shown,
with the server's resident memory after the run.

The vault is the one the Rust benchmarks generate (`benches/mcp_support/vault_gen.rs`: 10,000
notes in 100 folders, each embedding three headings of other notes), written again here. Note
that vaultsum does more per call than the others: it expands the three embeds (each a lookup in
the vault's index and a section of another note), where they return the file as it is.

Run (Node 20 and npm for the other servers, a release build of vaultsum):
    cargo build --release --bin vaultsum
    npm install --prefix SCRATCH/servers mcp-obsidian@1.0.0 obsidian-mcp@1.0.6
    python3 eval/mcp_servers_latency.py --bin target/release/vaultsum \
        --servers SCRATCH/servers --vault SCRATCH/vault [--calls 450] [--only NAME]
The vault must not be under /tmp or a hidden folder: obsidian-mcp refuses those. obsidian-mcp
also answers "Rate limit exceeded" past about 1,000 requests per process, so runs that include
it keep --calls at 450 (450 warm-up + 450 timed); `--only vaultsum --only mcp-obsidian` allows
longer runs of the others.
"""

import argparse
import json
import os
import subprocess
import time
from pathlib import Path

NOTES = 10_000
PER_FOLDER = 100
PARAGRAPH = (
    "The inspection found the pump running hot after the filter change, and the technician "
    "logged the reading twice to be sure. The office booked a repair for the next morning and "
    "asked for photos of the data plate before the visit. "
)


def generate(root: Path) -> None:
    """The benchmarks' vault (same text as vault_gen.rs), with the `.obsidian/app.json`
    obsidian-mcp insists on."""
    (root / ".obsidian").mkdir(parents=True, exist_ok=True)
    (root / ".obsidian" / "app.json").write_text("{}")
    for i in range(NOTES):
        a, b, c = (i * 7 + 1) % NOTES, (i * 13 + 5) % NOTES, (i * 31 + 11) % NOTES
        text = f"---\nid: {i}\n---\n# Note {i}\n\n## Background\n\n{PARAGRAPH * 3}\n\n## Details\n\n"
        for item in range(8):
            text += f"- [ ] Follow-up {item} for note {i} ^item-{item}\n"
        text += (
            f"\n{PARAGRAPH * 4}\n\n## Related\n\n![[Note {a:05}#Background]]\n\n"
            f"![[Note {b:05}#Background]]\n\n![[Note {c:05}#Background]]\n"
        )
        path = root / f"Area {i // PER_FOLDER:03}" / f"Note {i:05}.md"
        path.parent.mkdir(exist_ok=True)
        path.write_text(text)


def note(k: int) -> tuple[str, str]:
    """The k-th note read: spread over the vault by a fixed stride, as in benches/mcp_latency.rs."""
    i = (k * 7_919) % NOTES
    return f"Area {i // PER_FOLDER:03}", f"Note {i:05}.md"


def servers(args):
    vault = str(args.vault)
    modules = args.servers / "node_modules"
    return {
        "vaultsum": (
            [str(args.bin), "--vault", vault, "mcp"],
            lambda k: ("read_file", {"path": "/".join(note(k))}),
        ),
        "mcp-obsidian 1.0.0": (
            ["node", str(modules / "mcp-obsidian/dist/index.js"), vault],
            lambda k: ("read_notes", {"paths": ["/".join(note(k))]}),
        ),
        "obsidian-mcp 1.0.6": (
            ["node", str(modules / "obsidian-mcp/build/main.js"), vault],
            lambda k: (
                "read-note",
                {"vault": args.vault.name, "folder": note(k)[0], "filename": note(k)[1]},
            ),
        ),
    }


def run(name, command, call, calls):
    env = {"PATH": os.environ["PATH"], "HOME": os.environ.get("HOME", "/")}
    server = subprocess.Popen(
        command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=env
    )

    def send(message):
        server.stdin.write((json.dumps(message) + "\n").encode())
        server.stdin.flush()

    def answer():
        while True:
            message = json.loads(server.stdout.readline())
            if "id" in message:
                return message

    send({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
        "protocolVersion": "2025-06-18", "capabilities": {},
        "clientInfo": {"name": "latency", "version": "1"}}})
    answer()
    send({"jsonrpc": "2.0", "method": "notifications/initialized"})

    def read(k, request_id):
        tool, arguments = call(k)
        send({"jsonrpc": "2.0", "id": request_id, "method": "tools/call",
              "params": {"name": tool, "arguments": arguments}})
        reply = answer()
        assert "result" in reply and not reply["result"].get("isError"), (name, reply)
        text = reply["result"]["content"][0]["text"]
        assert "inspection found the pump" in text, (name, text[:200])

    for k in range(calls):
        read(k, k + 1)
    samples = []
    for k in range(calls):
        start = time.perf_counter()
        read(k, calls + k + 1)
        samples.append(time.perf_counter() - start)
    status = Path(f"/proc/{server.pid}/status").read_text().splitlines()
    rss_mib = int(next(l for l in status if l.startswith("VmRSS")).split()[1]) / 1024
    server.stdin.close()
    try:
        server.wait(timeout=3)
    except subprocess.TimeoutExpired:  # obsidian-mcp does not stop when its stdin closes
        server.kill()
        server.wait()
    samples.sort()
    return samples[len(samples) // 2] * 1e6, samples[int(len(samples) * 0.99)] * 1e6, rss_mib


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--bin", type=Path, required=True)
    parser.add_argument("--servers", type=Path, required=True)
    parser.add_argument("--vault", type=Path, required=True)
    parser.add_argument("--calls", type=int, default=450)
    parser.add_argument("--only", action="append", help="a server's name (or its start)")
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    args.vault = args.vault.resolve()
    if not (args.vault / ".obsidian" / "app.json").exists():
        generate(args.vault)
    table = {
        name: server
        for name, server in servers(args).items()
        if not args.only or any(name.startswith(only) for only in args.only)
    }
    results = {name: [] for name in table}
    for _ in range(args.rounds):
        for name, (command, call) in table.items():
            results[name].append(run(name, command, call, args.calls))
    print(f"warm read over stdio, {NOTES:,}-note vault, {args.calls} timed calls, "
          f"median of {args.rounds} rounds")
    for name, rounds in results.items():
        p50 = sorted(r[0] for r in rounds)[len(rounds) // 2]
        p99 = sorted(r[1] for r in rounds)[len(rounds) // 2]
        rss = max(r[2] for r in rounds)
        print(f"  {name:<20} p50 {p50:7.0f} µs   p99 {p99:7.0f} µs   RSS {rss:6.1f} MiB")


if __name__ == "__main__":
    main()
