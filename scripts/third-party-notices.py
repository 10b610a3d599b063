"""Writes the notices of the third-party code the Obsidian plugin's main.js carries.

    python3 scripts/third-party-notices.py [OUT]

OUT defaults to target/third-party-notices.txt; `-` writes to standard output (what
obsidian-plugin/esbuild.config.mjs reads to put the text at the end of main.js: Obsidian
releases main.js, manifest.json and styles.css only, and MIT, BSD, Zlib, ... ask that the
copyright and permission notices go with every copy).

What is listed:
- the Rust packages compiled into the two WebAssembly modules (crates/vaultsum-wasm, the engine,
  and crates/vaultsum-documents-wasm, the document reader): the normal dependencies of the two,
  transitively, as `cargo metadata --locked --offline` resolves them for wasm32-unknown-unknown.
  Proc-macro crates run in the compiler and are not in a module, so they are left out with what
  only they depend on. vaultsum's own crates are left out, but vaultsum-pdf, which is PDFOxide's
  code (vendor/VENDORED.md). Features are resolved for the whole workspace there, so the list
  may name a few packages the modules' own build does not use: a notice too many is harmless.
  The Rust standard library, compiled into both modules, comes first;
- the npm packages of the plugin's production dependencies (package.json's `dependencies`,
  transitively: the packages of obsidian-plugin/package-lock.json not marked `dev`). esbuild
  bundles only the modules the plugin imports, so some of them are listed and not in main.js.

For each package: name, version, licence expression (Cargo's `license`, package.json's
`license`) and the licence files of its source folder (LICENSE*, LICENCE*, COPYING*, COPYRIGHT*,
NOTICE*, UNLICENSE*, and those of a `licenses/` or `.licenses/` folder). Where the expression
offers a choice (MIT OR Apache-2.0), the file of one licence is kept, MIT's first (the shortest
notice), the others dropped; what is required besides (AND Unicode-3.0, a NOTICE) is kept.
Identical texts are written once and numbered; each package names the numbers of its texts.
A package with a licence expression but no licence file (the permission text MIT and BSD ask to
go with each copy is then nowhere in it) gets the standard text of its licence, MIT's or
BSD-3-Clause's (SPDX's templates; of a choice, MIT's first, as for files), with a copyright
line naming the authors its manifest gives (Cargo's `authors`, package.json's `author`), the
text saying it was generated so; a licence with no template here is named without a text.

Fails, naming the package, when a package has neither a licence file nor a licence expression.
Needs no network: the crates are in Cargo's registry cache (scripts/wasm-build.sh fetched them)
and the npm packages in obsidian-plugin/node_modules.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
import textwrap
import tomllib
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PLUGIN = ROOT / "obsidian-plugin"
WASM_CRATES = ("vaultsum-wasm", "vaultsum-documents-wasm")
# vaultsum's own crates are not third-party, but this one is PDFOxide's code under a name of
# its own (vendor/VENDORED.md); the upstream crate it forks is named from the manifest kept there.
VENDORED = {"vaultsum-pdf": ROOT / "vendor/pdf_oxide/Cargo.toml.upstream"}
# Licence files a package keeps away from its root: the DejaVu fonts' licence, which
# vaultsum-pdf's expression names (`AND Bitstream-Vera`).
EXTRA_FILES = {"vaultsum-pdf": ["src/fonts/assets/LICENSE-DejaVu"]}

LICENCE_FILE = re.compile(r"(?i)^(licen[cs]e|copying|copyright|notice|unlicense)")
LICENCE_FOLDERS = ("licenses", ".licenses", "LICENSES")
# A file named for nothing but "licence": what it is is read from its text.
GENERIC_NAME = re.compile(r"(?i)^(licen[cs]e|copying)(\.(md|txt))?$")
# Which licence a file is, by its name: LICENSE-MIT, LICENSE-APACHE.md, LICENSE.BSD-3-Clause.
FAMILY_BY_NAME = [
    ("MIT-0", re.compile(r"MIT-?0")),
    ("MIT", re.compile(r"MIT")),
    ("Apache-2.0", re.compile(r"APACHE")),
    ("Zlib", re.compile(r"ZLIB")),
    ("0BSD", re.compile(r"0BSD")),
    ("BSD", re.compile(r"BSD")),
    ("Unlicense", re.compile(r"^UNLICENSE")),
    ("CC0-1.0", re.compile(r"CC0")),
    ("BSL-1.0", re.compile(r"BOOST|BSL")),
]
# ... and by its text, for a file named LICENSE or COPYING.
FAMILY_BY_TEXT = [
    ("Apache-2.0", "TERMS AND CONDITIONS FOR USE, REPRODUCTION, AND DISTRIBUTION"),
    ("MIT", "Permission is hereby granted, free of charge, to any person obtaining a copy"),
    ("BSD", "Redistribution and use in source and binary forms"),
    ("Zlib", "This software is provided 'as-is'"),
    ("Unlicense", "This is free and unencumbered software released into the public domain"),
]
# Of licences offered as alternatives, the one whose file is kept: the shortest notice first.
PREFERENCE = ["MIT", "MIT-0", "0BSD", "Unlicense", "CC0-1.0", "Zlib", "ISC", "BSD", "BSL-1.0", "Apache-2.0"]

# The Rust standard library (core, alloc, std and the crates it is built from) is compiled into
# both modules too; its source is not in Cargo's cache, so its notice is written here (the
# rust-lang/rust repository's COPYRIGHT and LICENSE-MIT).
RUST_STD_NOTICE = """\
The Rust Standard Library (core, alloc, std and the crates it is built with, e.g. dlmalloc,
hashbrown, compiler_builtins), compiled into both WebAssembly modules. Copyrights in the Rust
Standard Library are retained by their contributors (The Rust Project Developers,
https://thanks.rust-lang.org); it is licensed under the Apache License, Version 2.0 or the MIT
license, at your option. The notices of each of its files and dependencies:
https://github.com/rust-lang/rust/blob/main/COPYRIGHT and, in a Rust toolchain,
share/doc/rust/COPYRIGHT-library.html. The MIT license:

Permission is hereby granted, free of charge, to any
person obtaining a copy of this software and associated
documentation files (the "Software"), to deal in the
Software without restriction, including without
limitation the rights to use, copy, modify, merge,
publish, distribute, sublicense, and/or sell copies of
the Software, and to permit persons to whom the Software
is furnished to do so, subject to the following
conditions:

The above copyright notice and this permission notice
shall be included in all copies or substantial portions
of the Software.

THE SOFTWARE IS PROVIDED "AS IS", WITHOUT WARRANTY OF
ANY KIND, EXPRESS OR IMPLIED, INCLUDING BUT NOT LIMITED
TO THE WARRANTIES OF MERCHANTABILITY, FITNESS FOR A
PARTICULAR PURPOSE AND NONINFRINGEMENT. IN NO EVENT
SHALL THE AUTHORS OR COPYRIGHT HOLDERS BE LIABLE FOR ANY
CLAIM, DAMAGES OR OTHER LIABILITY, WHETHER IN AN ACTION
OF CONTRACT, TORT OR OTHERWISE, ARISING FROM, OUT OF OR
IN CONNECTION WITH THE SOFTWARE OR THE USE OR OTHER
DEALINGS IN THE SOFTWARE.
"""

# The standard texts (SPDX's templates) written for a package that declares one of these
# licences and ships no licence file; {holders} is the copyright line's.
LICENCE_TEMPLATES = {
    "MIT": """\
MIT License

Copyright (c) {holders}

Permission is hereby granted, free of charge, to any person obtaining a copy
of this software and associated documentation files (the "Software"), to deal
in the Software without restriction, including without limitation the rights
to use, copy, modify, merge, publish, distribute, sublicense, and/or sell
copies of the Software, and to permit persons to whom the Software is
furnished to do so, subject to the following conditions:

The above copyright notice and this permission notice shall be included in all
copies or substantial portions of the Software.

THE SOFTWARE IS PROVIDED "AS IS", WITHOUT WARRANTY OF ANY KIND, EXPRESS OR
IMPLIED, INCLUDING BUT NOT LIMITED TO THE WARRANTIES OF MERCHANTABILITY,
FITNESS FOR A PARTICULAR PURPOSE AND NONINFRINGEMENT. IN NO EVENT SHALL THE
AUTHORS OR COPYRIGHT HOLDERS BE LIABLE FOR ANY CLAIM, DAMAGES OR OTHER
LIABILITY, WHETHER IN AN ACTION OF CONTRACT, TORT OR OTHERWISE, ARISING FROM,
OUT OF OR IN CONNECTION WITH THE SOFTWARE OR THE USE OR OTHER DEALINGS IN THE
SOFTWARE.
""",
    "BSD-3-Clause": """\
Copyright (c) {holders}

Redistribution and use in source and binary forms, with or without
modification, are permitted provided that the following conditions are met:

1. Redistributions of source code must retain the above copyright notice, this
   list of conditions and the following disclaimer.

2. Redistributions in binary form must reproduce the above copyright notice,
   this list of conditions and the following disclaimer in the documentation
   and/or other materials provided with the distribution.

3. Neither the name of the copyright holder nor the names of its
   contributors may be used to endorse or promote products derived from
   this software without specific prior written permission.

THIS SOFTWARE IS PROVIDED BY THE COPYRIGHT HOLDERS AND CONTRIBUTORS "AS IS"
AND ANY EXPRESS OR IMPLIED WARRANTIES, INCLUDING, BUT NOT LIMITED TO, THE
IMPLIED WARRANTIES OF MERCHANTABILITY AND FITNESS FOR A PARTICULAR PURPOSE ARE
DISCLAIMED. IN NO EVENT SHALL THE COPYRIGHT HOLDER OR CONTRIBUTORS BE LIABLE
FOR ANY DIRECT, INDIRECT, INCIDENTAL, SPECIAL, EXEMPLARY, OR CONSEQUENTIAL
DAMAGES (INCLUDING, BUT NOT LIMITED TO, PROCUREMENT OF SUBSTITUTE GOODS OR
SERVICES; LOSS OF USE, DATA, OR PROFITS; OR BUSINESS INTERRUPTION) HOWEVER
CAUSED AND ON ANY THEORY OF LIABILITY, WHETHER IN CONTRACT, STRICT LIABILITY,
OR TORT (INCLUDING NEGLIGENCE OR OTHERWISE) ARISING IN ANY WAY OUT OF THE USE
OF THIS SOFTWARE, EVEN IF ADVISED OF THE POSSIBILITY OF SUCH DAMAGE.
""",
}


class Failure(Exception):
    pass


@dataclass
class Package:
    name: str
    version: str
    licence: str  # the expression, "" when the package declares none
    folder: Path
    authors: str = ""
    authors_from: str = ""  # where `authors` comes from: "Cargo.toml (`authors`)"
    upstream: str = ""  # what a vendored crate forks: "pdf_oxide 0.3.78"
    extra: list[str] = field(default_factory=list)
    texts: list[int] = field(default_factory=list)  # numbers of its licence texts
    generated: bool = False  # its texts are made from its expression (it has no licence file)


def rust_packages() -> list[Package]:
    command = [
        "cargo", "metadata", "--format-version", "1", "--locked", "--offline",
        "--filter-platform", "wasm32-unknown-unknown",
    ]
    try:
        done = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, check=False)
    except FileNotFoundError as error:
        raise Failure("cargo is not installed") from error
    if done.returncode != 0:
        raise Failure(f"`{' '.join(command)}` failed:\n{done.stderr.strip()}")
    metadata = json.loads(done.stdout)
    packages = {p["id"]: p for p in metadata["packages"]}
    nodes = {n["id"]: n for n in metadata["resolve"]["nodes"]}
    members = set(metadata["workspace_members"])

    def proc_macro(package_id: str) -> bool:
        return any("proc-macro" in t["kind"] for t in packages[package_id]["targets"])

    roots = [i for i, p in packages.items() if p["name"] in WASM_CRATES and i in members]
    if len(roots) != len(WASM_CRATES):
        raise Failure(f"cargo metadata does not name the workspace's {' and '.join(WASM_CRATES)}")
    reached: set[str] = set()
    stack = list(roots)
    while stack:
        package_id = stack.pop()
        if package_id in reached:
            continue
        reached.add(package_id)
        for dep in nodes[package_id]["deps"]:
            # Normal dependencies only (kind null): build and dev dependencies are not in a module.
            if any(kind["kind"] is None for kind in dep["dep_kinds"]) and not proc_macro(dep["pkg"]):
                stack.append(dep["pkg"])

    listed = []
    for package_id in reached:
        p = packages[package_id]
        if package_id in members and p["name"] not in VENDORED:
            continue
        listed.append(Package(
            name=p["name"],
            version=p["version"],
            licence=(p.get("license") or "").strip(),
            folder=Path(p["manifest_path"]).parent,
            authors=", ".join(p.get("authors") or []),
            authors_from="Cargo.toml (`authors`)",
            extra=list(EXTRA_FILES.get(p["name"], [])),
            upstream=upstream_of(p["name"]),
        ))
        if p.get("license_file"):
            listed[-1].extra.append(p["license_file"])
    return sorted(listed, key=lambda p: (p.name, version_key(p.version)))


def upstream_of(name: str) -> str:
    if name not in VENDORED:
        return ""
    upstream = tomllib.loads(VENDORED[name].read_text(encoding="utf-8"))["package"]
    return f"{upstream['name']} {upstream['version']}"


def npm_packages() -> list[Package]:
    lock = json.loads((PLUGIN / "package-lock.json").read_text(encoding="utf-8"))
    listed = []
    for path, entry in lock["packages"].items():
        # "" is the plugin itself; `dev` marks what only devDependencies reach.
        if not path or entry.get("dev"):
            continue
        folder = PLUGIN / path
        name = path.rsplit("node_modules/", 1)[-1]
        if not (folder / "package.json").is_file():
            if entry.get("optional"):
                continue  # an optional package for another platform, not installed here
            raise Failure(f"npm package {name} is not in obsidian-plugin/{path} (run npm ci in obsidian-plugin/)")
        manifest = json.loads((folder / "package.json").read_text(encoding="utf-8"))
        licence = manifest.get("license") or entry.get("license") or ""
        if isinstance(licence, dict):  # the old form, {"type": "MIT", "url": ...}
            licence = licence.get("type", "")
        author = manifest.get("author") or ""
        if isinstance(author, dict):
            author = author.get("name", "")
        listed.append(Package(
            name=name,
            version=manifest.get("version") or entry.get("version", ""),
            licence=str(licence).strip(),
            folder=folder,
            authors=str(author),
            authors_from="package.json (`author`)",
        ))
    # A package installed at two places in one version (nested node_modules) is listed once.
    unique = {(p.name, p.version): p for p in sorted(listed, key=lambda p: str(p.folder), reverse=True)}
    return sorted(unique.values(), key=lambda p: (p.name, version_key(p.version)))


def version_key(version: str) -> tuple:
    return tuple(int(part) if part.isdigit() else 0 for part in re.split(r"[.+-]", version))


def split_top_level(expression: str, operator: str) -> list[str]:
    """`expression`'s operands for `operator` (AND, OR) outside parentheses."""
    parts, depth, current = [], 0, []
    for token in re.findall(r"\(|\)|[^\s()]+", expression):
        depth += token == "("
        depth -= token == ")"
        if depth == 0 and token.upper() == operator:
            parts.append(" ".join(current))
            current = []
        else:
            current.append(token)
    parts.append(" ".join(current))
    return [p.strip() for p in parts if p.strip()]


def strip_parentheses(term: str) -> str:
    """`term` without parentheses that enclose the whole of it ("(A) OR (B)" keeps its own)."""
    while term.startswith("(") and term.endswith(")"):
        depth = 0
        for i, char in enumerate(term):
            depth += char == "("
            depth -= char == ")"
            if depth == 0 and i < len(term) - 1:
                return term
        term = term[1:-1].strip()
    return term


def family_of_id(spdx: str) -> str | None:
    """The licence family whose file stands for the SPDX id `spdx`."""
    spdx = spdx.split(" WITH ")[0].strip("() ")
    if spdx.startswith("BSD-") or spdx == "BSD":
        return "BSD"
    if spdx.startswith("Apache"):
        return "Apache-2.0"
    known = {"MIT", "MIT-0", "0BSD", "Unlicense", "CC0-1.0", "Zlib", "ISC", "BSL-1.0"}
    return spdx if spdx in known else None


def choices(expression: str) -> tuple[list[list[str]], set[str]]:
    """The expression's alternatives (the families of each OR) and the families it requires."""
    expression = expression.replace("/", " OR ")  # the old Cargo form, MIT/Apache-2.0
    groups, required = [], set()
    for term in split_top_level(expression, "AND"):
        alternatives = split_top_level(strip_parentheses(term), "OR")
        families = [family_of_id(a) for a in alternatives]
        if len(alternatives) > 1:
            groups.append([f for f in families if f])
        elif families[0]:
            required.add(families[0])
    return groups, required


def family_of_file(name: str, text: str) -> str | None:
    if GENERIC_NAME.match(name):
        found = [family for family, phrase in FAMILY_BY_TEXT if phrase in text]
        return found[0] if len(found) == 1 else None  # two licences in one file: kept as it is
    upper = name.upper()
    for family, pattern in FAMILY_BY_NAME:
        if pattern.search(upper):
            return family
    return None


def normalized(text: str) -> str:
    lines = [line.rstrip() for line in text.replace("\r\n", "\n").replace("\r", "\n").split("\n")]
    return "\n".join(lines).strip("\n") + "\n"


def licence_files(package: Package) -> list[tuple[str, str]]:
    """(name, text) of the package's licence files, one per offered choice (see the docstring)."""
    paths = [p for p in sorted(package.folder.iterdir()) if p.is_file() and LICENCE_FILE.match(p.name)]
    for folder in LICENCE_FOLDERS:
        if (package.folder / folder).is_dir():
            paths += sorted(p for p in (package.folder / folder).iterdir() if p.is_file())
    for extra in package.extra:
        path = package.folder / extra
        if not path.is_file():
            raise Failure(f"{package.name} {package.version}: its licence file {extra} is missing")
        if path not in paths:
            paths.append(path)
    files = [
        (str(p.relative_to(package.folder)), normalized(p.read_text(encoding="utf-8", errors="replace")))
        for p in paths
    ]
    files = [(name, text) for name, text in files if text.strip()]
    groups, required = choices(package.licence)
    families = {name: family_of_file(Path(name).name, text) for name, text in files}
    dropped: set[str] = set()
    for group in groups:
        present = [f for f in PREFERENCE if f in group and f in families.values()]
        if present:
            dropped |= {f for f in group if f != present[0]}
    dropped -= required
    return [(name, text) for name, text in files if families[name] not in dropped]


def generated_texts(package: Package) -> list[tuple[str, str]]:
    """(name, text) of the standard texts of the licences the expression of `package`, which has
    no licence file, names: of each choice the first of PREFERENCE with a template."""
    expression = package.licence.replace("/", " OR ")
    holders = package.authors or f"the authors of {package.name}"
    made = []
    for term in split_top_level(expression, "AND"):
        offered = [a.split(" WITH ")[0].strip("() ") for a in split_top_level(strip_parentheses(term), "OR")]
        usable = sorted(
            (spdx for spdx in offered if spdx in LICENCE_TEMPLATES),
            key=lambda spdx: PREFERENCE.index(family_of_id(spdx) or spdx),
        )
        if not usable:
            continue
        spdx = usable[0]
        why = textwrap.fill(
            f"Generated from the package's licence expression ({package.licence}), because the "
            f"package ships no licence file: the standard {spdx} text (SPDX's template), with a "
            + (
                f"copyright line naming the authors given in its {package.authors_from}, without a "
                "year (none is given there)."
                if package.authors
                else f"copyright line naming the package's authors (its {package.authors_from} names none)."
            ),
            width=78,
        )
        made.append((
            f"{spdx} text generated from its licence expression (no licence file in the package)",
            f"[{why}]\n\n" + LICENCE_TEMPLATES[spdx].format(holders=holders),
        ))
    return made


def render(rust: list[Package], npm: list[Package]) -> tuple[str, int]:
    """The notices, and how many licence texts they hold (the standard library's aside)."""
    texts: dict[str, int] = {}
    labels: list[str] = []
    bodies: list[str] = []
    missing = []
    for package in rust + npm:
        files = licence_files(package)
        if not files and not package.licence:
            missing.append(f"{package.name} {package.version} ({package.folder})")
        if not files and package.licence:
            files = generated_texts(package)
            package.generated = bool(files)
        for name, text in files:
            # The same text wrapped or indented otherwise (Apache-2.0's) is the same text.
            key = " ".join(text.split())
            if key not in texts:
                texts[key] = len(bodies) + 1
                labels.append(f"{package.name} {package.version}, {name}")
                bodies.append(text)
            if texts[key] not in package.texts:
                package.texts.append(texts[key])
    if missing:
        raise Failure("no licence file and no licence expression: " + "; ".join(missing))

    def line(package: Package) -> str:
        licence = package.licence or "no licence expression"
        if package.texts:
            where = "text " + ", ".join(f"[{n}]" for n in package.texts)
            if package.generated:
                where += " (generated from its licence expression: no licence file in the package)"
        else:
            where = "no licence file in the package" + (f"; by {package.authors}" if package.authors else "")
        forked = f" (a fork of {package.upstream}, vendored)" if package.upstream else ""
        return f"- {package.name} {package.version}{forked}: {licence}; {where}"

    out = [
        "Third-party software in vaultsum's Obsidian plugin (main.js)",
        "",
        "vaultsum's own code is under the MIT License (LICENSE in its repository). main.js also",
        "carries the code of the packages below, each under its licence; the texts of the",
        "licences, with their copyright notices, follow the lists, numbered.",
        "",
        f"Rust packages compiled into its two WebAssembly modules ({len(rust)}, and the Rust",
        "standard library):",
        "- Rust standard library: Apache-2.0 OR MIT; text [R]",
        *map(line, rust),
        "",
        f"npm packages of its production dependencies ({len(npm)}; esbuild bundles only the modules",
        "the plugin imports, so not every one of them is in main.js):",
        *map(line, npm),
        "",
        "==== [R] The Rust Standard Library ====",
        RUST_STD_NOTICE,
    ]
    for number, (label, body) in enumerate(zip(labels, bodies), start=1):
        out += [f"==== [{number}] {label} ====", body]
    return "\n".join(out), len(bodies)


def main() -> int:
    args = sys.argv[1:]
    if len(args) > 1 or (args and args[0] in ("-h", "--help")):
        print(__doc__.split("\n\n")[1], file=sys.stderr)
        return 2
    out = args[0] if args else str(ROOT / "target" / "third-party-notices.txt")
    try:
        rust, npm = rust_packages(), npm_packages()
        text, texts = render(rust, npm)
    except Failure as failure:
        print(f"third-party-notices: FAIL: {failure}", file=sys.stderr)
        return 1
    size = len(text.encode("utf-8"))
    summary = f"{len(rust)} Rust packages, {len(npm)} npm packages, {texts} licence texts, {size} bytes"
    if out == "-":
        sys.stdout.buffer.write(text.encode("utf-8"))
        print(f"third-party-notices: {summary}", file=sys.stderr)
    else:
        Path(out).parent.mkdir(parents=True, exist_ok=True)
        Path(out).write_text(text, encoding="utf-8")
        print(f"third-party-notices: {summary} -> {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
