"""Lays out an MCP Bundle folder for one platform, ready for `mcpb pack`.

    python3 scripts/stage-mcpb.py --binary PATH --platform linux|darwin|win32 --out DIR

DIR gets packaging/mcpb/manifest.json and `server/vaultsum` (`server/vaultsum.exe` for win32).
A bundle carries one platform's binary, so its manifest claims that platform only and its
`entry_point` names that binary. Fails if the manifest's version is not the workspace's.
"""

from __future__ import annotations

import argparse
import json
import shutil
import stat
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--binary", type=Path, required=True)
    parser.add_argument("--platform", choices=["linux", "darwin", "win32"], required=True)
    parser.add_argument("--out", type=Path, required=True)
    args = parser.parse_args()

    manifest = json.loads((ROOT / "packaging/mcpb/manifest.json").read_text())
    cargo = tomllib.loads((ROOT / "Cargo.toml").read_text())
    version = cargo["workspace"]["package"]["version"]
    if manifest["version"] != version:
        print(
            f"FAIL: packaging/mcpb/manifest.json has version {manifest['version']}, "
            f"Cargo.toml {version}: make them equal",
            file=sys.stderr,
        )
        return 1
    if not args.binary.is_file():
        print(f"FAIL: no binary at {args.binary}", file=sys.stderr)
        return 1

    name = "vaultsum.exe" if args.platform == "win32" else "vaultsum"
    manifest["server"]["entry_point"] = f"server/{name}"
    manifest["compatibility"]["platforms"] = [args.platform]

    if args.out.exists():
        shutil.rmtree(args.out)
    (args.out / "server").mkdir(parents=True)
    (args.out / "manifest.json").write_text(json.dumps(manifest, indent=2) + "\n")
    target = args.out / "server" / name
    shutil.copyfile(args.binary, target)
    target.chmod(target.stat().st_mode | stat.S_IXUSR | stat.S_IXGRP | stat.S_IXOTH)
    print(f"staged {args.out} ({args.platform}, {target.stat().st_size / 1e6:.1f} MB binary)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
