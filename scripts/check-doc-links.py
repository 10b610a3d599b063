#!/usr/bin/env python3
"""Every relative link in the project's Markdown resolves: the file exists and, for `#anchor`,
the page has a heading with that GitHub anchor. Run from anywhere: python3 scripts/check-doc-links.py"""
import pathlib
import re
import sys
import urllib.parse

ROOT = pathlib.Path(__file__).resolve().parent.parent
PAGES = [ROOT / "README.md", ROOT / "ARCHITECTURE.md", *sorted((ROOT / "docs").glob("*.md"))]
LINK = re.compile(r"(?<!!)\[[^\]]*\]\(([^)\s]+)\)")


def prose(text):
    """The text outside fenced blocks, indented code and inline code, where links are links."""
    out, fence = [], None
    for line in text.split("\n"):
        m = re.match(r"\s{0,3}(`{3,}|~{3,})", line)
        if m:
            if fence is None:
                fence = m.group(1)
            elif line.strip().startswith(fence):
                fence = None
            continue
        if fence or line.startswith("    "):
            continue
        out.append(re.sub(r"`[^`]*`", "", line))
    return out


def anchors(path):
    """GitHub's anchors for the headings of a page (lower case, punctuation dropped, spaces to -)."""
    seen, found = {}, set()
    for line in headings(path):
        slug = re.sub(r"[^\w\- ]", "", line.strip().lower()).replace(" ", "-")
        n = seen.get(slug, 0)
        seen[slug] = n + 1
        found.add(slug if n == 0 else f"{slug}-{n}")
    return found


def headings(path):
    fence = None
    for line in path.read_text(encoding="utf-8").split("\n"):
        m = re.match(r"\s{0,3}(`{3,}|~{3,})", line)
        if m:
            fence = m.group(1) if fence is None else (None if line.strip().startswith(fence) else fence)
            continue
        if fence is None and re.match(r"#{1,6} ", line):
            yield line.lstrip("#").strip().replace("`", "")


def main():
    bad = 0
    for page in PAGES:
        for number, line in enumerate(prose(page.read_text(encoding="utf-8")), 1):
            for target in LINK.findall(line):
                if re.match(r"[a-z]+:", target):
                    continue
                file, _, anchor = target.partition("#")
                dest = (page.parent / urllib.parse.unquote(file)).resolve() if file else page
                rel = page.relative_to(ROOT)
                if not dest.exists():
                    print(f"{rel}: {target}: no such file")
                    bad += 1
                elif anchor and dest.suffix == ".md" and anchor not in anchors(dest):
                    print(f"{rel}: {target}: no heading with that anchor in {dest.relative_to(ROOT)}")
                    bad += 1
    count = len(PAGES)
    print(f"{count} pages checked, {bad} broken links" if bad else f"{count} pages checked, every relative link resolves")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
