"""Checks that the workspace's `rust-version` tells the truth: no package in the build graph
declares a newer `rust-version` than the one Cargo.toml promises.

    python3 scripts/check-rust-version.py [--rust-version V]

`--rust-version V` checks against V instead (what a lower promise would break).

The build graph is what `cargo metadata --locked` resolves from the workspace members with their
default features, for every platform (a release is built for Linux, macOS and Windows): their
normal and build dependencies, transitively, plus the members' own dev-dependencies (the tests
are built too). Packages that are in Cargo.lock but that no build reaches are not counted.
Exits 1 naming each package that needs a newer Rust; prints one summary line otherwise.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def version_tuple(text: str) -> tuple[int, ...]:
    parts = [int(p) for p in text.strip().split(".")]
    return tuple(parts + [0] * (3 - len(parts)))


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rust-version", help="check against this instead of Cargo.toml's")
    args = parser.parse_args()
    manifest = tomllib.loads((ROOT / "Cargo.toml").read_text())
    promised = args.rust_version or (
        manifest.get("workspace", {}).get("package", {}).get("rust-version")
    )
    if not promised:
        print("FAIL: Cargo.toml has no [workspace.package] rust-version", file=sys.stderr)
        return 1
    metadata = json.loads(
        subprocess.run(
            ["cargo", "metadata", "--locked", "--format-version", "1"],
            cwd=ROOT,
            check=True,
            capture_output=True,
            text=True,
        ).stdout
    )
    packages = {p["id"]: p for p in metadata["packages"]}
    nodes = {n["id"]: n for n in metadata["resolve"]["nodes"]}
    members = set(metadata["workspace_members"])

    # Breadth-first from the members; dev-dependencies only count for the members themselves.
    reached: set[str] = set()
    queue = list(members)
    while queue:
        package_id = queue.pop()
        if package_id in reached:
            continue
        reached.add(package_id)
        for dep in nodes[package_id]["deps"]:
            kinds = {k["kind"] for k in dep["dep_kinds"]}  # None = normal, "build", "dev"
            if kinds - {"dev"} or package_id in members:
                queue.append(dep["pkg"])

    too_new = []
    undeclared = 0
    for package_id in sorted(reached, key=lambda i: packages[i]["name"]):
        package = packages[package_id]
        needed = package.get("rust_version")
        if needed is None:
            undeclared += 1
        elif version_tuple(needed) > version_tuple(promised):
            too_new.append(f"{package['name']} {package['version']} needs Rust {needed}")

    locked = len(tomllib.loads((ROOT / "Cargo.lock").read_text()).get("package", []))
    if too_new:
        print(
            f"FAIL: rust-version is {promised}, but "
            f"{len(too_new)} package(s) in the build graph need a newer Rust:",
            file=sys.stderr,
        )
        for line in too_new:
            print(f"  {line}", file=sys.stderr)
        return 1
    print(
        f"OK rust-version {promised}: {len(reached)} packages in the build graph "
        f"(of {locked} locked) need at most Rust {promised}; {undeclared} declare no rust-version"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
