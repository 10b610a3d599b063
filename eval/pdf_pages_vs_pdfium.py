"""PDF pages against PDFium: which pages vaultsum marks unreadable, and which lose text.

Per page, PDFium's text (pypdfium2, `get_text_bounded`: the text inside the page's box, what a
viewer shows) against the page vaultsum gives (`vaultsum read FILE.pdf`, fresh media cache, one
process per file as `pdf_vs_pdfium.py` runs it; words as that script counts them). Reported:

- every page vaultsum marks "text layer unreadable" (its glyph codes are not language), with
  the first characters PDFium reads there, so each can be checked by eye;
- every page with PDFium text of `--min-words` words or more (50) where vaultsum gives fewer
  than half as many words and does not mark the page unreadable: text left out;
- files vaultsum fails on or that pass `--timeout` seconds;
- the median word-F1 of whole files with 50+ PDFium words.

`--range` counts PDFium's whole text layer instead (`get_text_range`: text outside the page's
box too, which no viewer shows; a page cropped to one word counts the whole page under it).

    pip install pypdfium2
    python eval/pdf_pages_vs_pdfium.py CORPUS_DIR [--bin target/release/vaultsum]
"""

import argparse
import glob
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from pdf_vs_pdfium import VAULTSUM_MARKUP, f1, words  # noqa: E402

PAGE_LABEL = re.compile(r"^\*\*Pages? (\d+)(?:–(\d+))?\*\*$", re.M)
UNREADABLE = "text layer unreadable"


def pdfium_pages(path, whole_layer):
    import pypdfium2 as pdfium

    doc = pdfium.PdfDocument(path)
    try:
        pages = []
        for page in doc:
            textpage = page.get_textpage()
            text = textpage.get_text_range() if whole_layer else textpage.get_text_bounded()
            pages.append(text)
            textpage.close()
            page.close()
        return pages
    finally:
        doc.close()


def vaultsum_pages(output):
    """Page number -> (text without vaultsum's markup, marked unreadable)."""
    parts = PAGE_LABEL.split(output)
    pages = {}
    for at in range(1, len(parts) - 2, 3):
        first = int(parts[at])
        last = int(parts[at + 1] or first)
        body = parts[at + 2]
        unreadable = UNREADABLE in body
        for markup in VAULTSUM_MARKUP:
            body = markup.sub(" ", body)
        for number in range(first, last + 1):
            pages[number] = (body if first == last else "", unreadable)
    return pages


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("corpus")
    parser.add_argument("--bin", default="target/release/vaultsum")
    parser.add_argument("--min-words", type=int, default=50)
    parser.add_argument("--timeout", type=int, default=120)
    parser.add_argument("--range", action="store_true", help="PDFium's whole text layer")
    args = parser.parse_args()
    files = sorted(glob.glob(os.path.join(args.corpus, "**", "*.pdf"), recursive=True))
    if not files:
        sys.exit(f"no PDFs under {args.corpus}")
    scratch = tempfile.mkdtemp()
    vault = os.path.join(scratch, "vault")
    os.makedirs(vault)
    env = dict(os.environ, VAULTSUM_CONFIG="")
    env.pop("RUST_LOG", None)

    failed, marked, lost, scores = [], [], [], []
    for index, path in enumerate(files):
        name = os.path.relpath(path, args.corpus)
        try:
            reference = pdfium_pages(path, args.range)
        except Exception:  # PDFium refuses it: nothing to compare with
            reference = None
        copy = f"{index:04}.pdf"
        shutil.copy(path, os.path.join(vault, copy))
        env["XDG_CACHE_HOME"] = tempfile.mkdtemp(dir=scratch)
        try:
            done = subprocess.run(
                [args.bin, "--vault", vault, "read", "--length", "100000000", copy],
                capture_output=True,
                env=env,
                timeout=args.timeout,
            )
        except subprocess.TimeoutExpired:
            failed.append((name, f"over {args.timeout} s"))
            continue
        if done.returncode != 0:
            failed.append((name, done.stderr.decode(errors="replace").strip()[-200:]))
            continue
        if reference is None:
            continue
        ours = vaultsum_pages(done.stdout.decode(errors="replace"))
        whole_reference = words("\n".join(reference))
        if sum(whole_reference.values()) >= args.min_words:
            whole_ours = words("\n".join(text for text, _ in ours.values()))
            scores.append(f1(whole_reference, whole_ours))
        for number, text in enumerate(reference, start=1):
            page, unreadable = ours.get(number, ("", False))
            if unreadable:
                marked.append((name, number, " ".join(text.split())[:70]))
                continue
            theirs = sum(words(text).values())
            given = sum(words(page).values())
            if theirs >= args.min_words and given * 2 < theirs:
                lost.append((name, number, theirs, given))

    print(f"files: {len(files)}, failed or timed out: {len(failed)}")
    for name, why in failed:
        print(f"  {name}: {why}")
    files_marked = sorted({name for name, _, _ in marked})
    print(f"pages marked unreadable: {len(marked)}, in {len(files_marked)} files")
    for name, number, text in marked:
        print(f"  {name} p{number}: PDFium reads {text!r}")
    print(
        f"pages with {args.min_words}+ PDFium words where vaultsum gives under half, "
        f"not marked unreadable: {len(lost)}"
    )
    for name, number, theirs, given in lost:
        print(f"  {name} p{number}: PDFium {theirs} words, vaultsum {given}")
    if scores:
        print(
            f"median word-F1 of the {len(scores)} files with {args.min_words}+ PDFium words: "
            f"{statistics.median(scores):.3f}"
        )
    shutil.rmtree(scratch, ignore_errors=True)


if __name__ == "__main__":
    main()
