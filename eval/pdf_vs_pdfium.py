"""PDF text against PDFium: word-F1 and extraction time, file by file, in one run.

The reference is PDFium (Chrome's PDF engine) through pypdfium2; vaultsum reads each PDF as
`read_file` does (`vaultsum read FILE.pdf`, a fresh media cache so nothing is reused). The
corpus is not in the repository: pass a folder of PDFs, or let the script find pypdf's source
distribution (its `resources/` holds ~50 real PDFs), which `pip download --no-deps
--no-binary :all: pypdf` fetches into the current folder.

    pip install pypdfium2
    python eval/pdf_vs_pdfium.py [CORPUS_DIR] [--bin target/release/vaultsum]

Reported: a table of word-F1 per file (PDFium's words vs vaultsum's, as multisets, case
folded; each Han, kana or Hangul character is a word, see WORD), the median over files PDFium finds text in (targets: median >= 0.98, none under 0.8
but scans), and the time ratio vaultsum/PDFium summed over the corpus, each side's process
start subtracted (vaultsum's start is measured on a one-line note in the same run). Time is
CPU time (user + system, every thread of the process: vaultsum's from `getrusage` of the
child, PDFium's from this process's own), which a busy machine changes far less than wall
time; `--wall` measures wall time instead. Files PDFium finds no text in are counted as scans
and left out of the median.

A second time ratio reads every compared file in one vaultsum process (`read` given them all,
one at a time: `summarize.concurrency = 1`), as the MCP server and the watcher read: what a
process pays once (loading the PDF code into memory, starting threads) is paid once, as PDFium
pays it once in this Python process. The per-file figure pays it 53 times.
"""

import argparse
import collections
import glob
import os
import re
import shutil
import statistics
import subprocess
import sys
import tarfile
import tempfile
import resource
import time

# A word: a run of letters and digits, except that each character of a script written
# without spaces (Han, kana, Hangul syllables) is a word of its own. Where such text has spaces
# is a reader's guess (PDFium spaces an OCR layer's Japanese here and there, `流体 力 学教育に`),
# and counting runs would score those guesses, not the text.
CJK = "\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff\uff66-\uff9f"
WORD = re.compile(rf"[{CJK}]|[^\W{CJK}]+", re.UNICODE)
VAULTSUM_MARKUP = [
    re.compile(r"^\*\*Pages? [\d–]+\*\*$", re.M),  # page labels (`Pages 1–12`: a document said once)
    re.compile(r"_\[[^\]]*\]_"),  # markers: scan, blank page, unreadable layer
    re.compile(r"^> \[Embedded[^\]]*\]$", re.M),
    # document notes (`_the file looks truncated (no %%EOF marker): ..._`): a whole line
    re.compile(r"^_[a-z][^\n]*_$", re.M),
]


def words(text):
    return collections.Counter(w.casefold() for w in WORD.findall(text))


def f1(reference, candidate):
    overlap = sum((reference & candidate).values())
    total = sum(reference.values()) + sum(candidate.values())
    return 1.0 if total == 0 else 2 * overlap / total


def pdfium_text(path):
    import pypdfium2 as pdfium

    doc = pdfium.PdfDocument(path)
    try:
        pages = []
        for page in doc:
            textpage = page.get_textpage()
            pages.append(textpage.get_text_bounded())
            textpage.close()
            page.close()
        return "\n".join(pages)
    finally:
        doc.close()


def locate_corpus(given):
    if given:
        return given
    for archive in sorted(glob.glob("pypdf-*.tar.gz")):
        folder = archive[: -len(".tar.gz")]
        if not os.path.isdir(folder):
            with tarfile.open(archive) as tar:
                tar.extractall(filter="data")
        return os.path.join(folder, "resources")
    sys.exit(
        "no corpus: pass a folder of PDFs, or run `pip download --no-deps --no-binary :all: "
        "pypdf` here first (its resources/ folder is the default corpus)"
    )


class Clock:
    """CPU seconds (user + system) of this process and of its waited-for children, or wall
    seconds with `wall`."""

    def __init__(self, wall):
        self.wall = wall

    def own(self):
        return time.perf_counter() if self.wall else time.process_time()

    def children(self):
        if self.wall:
            return time.perf_counter()
        usage = resource.getrusage(resource.RUSAGE_CHILDREN)
        return usage.ru_utime + usage.ru_stime


def one_process_time(binary, vault, scratch, names, clock):
    """Seconds one `vaultsum read` takes over `names`, one file at a time, nothing cached."""
    config = os.path.join(scratch, "one-at-a-time.toml")
    with open(config, "w") as file:
        file.write("[summarize]\nconcurrency = 1\n")
    env = dict(os.environ, VAULTSUM_CONFIG=config)
    env["XDG_CACHE_HOME"] = tempfile.mkdtemp(dir=scratch)
    env.pop("RUST_LOG", None)
    started = clock.children()
    subprocess.run(
        [binary, "--vault", vault, "read", "--length", "100000000", *names],
        capture_output=True,
        env=env,
        timeout=600,
        check=True,
    )
    return clock.children() - started


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("corpus", nargs="?")
    parser.add_argument("--bin", default="target/release/vaultsum")
    parser.add_argument("--wall", action="store_true", help="wall time instead of CPU time")
    args = parser.parse_args()
    clock = Clock(args.wall)
    corpus = locate_corpus(args.corpus)
    files = sorted(glob.glob(os.path.join(corpus, "**", "*.pdf"), recursive=True))
    if not files:
        sys.exit(f"no PDFs under {corpus}")
    scratch = tempfile.mkdtemp()
    vault = os.path.join(scratch, "vault")
    os.makedirs(vault)
    env = dict(os.environ, VAULTSUM_CONFIG="", XDG_CACHE_HOME=os.path.join(scratch, "cache"))
    env.pop("RUST_LOG", None)

    def run_vaultsum(name):
        started = clock.children()
        done = subprocess.run(
            [args.bin, "--vault", vault, "read", "--length", "100000000", name],
            capture_output=True,
            env=env,
            timeout=300,
        )
        return clock.children() - started, done

    with open(os.path.join(vault, "start.md"), "w") as note:
        note.write("one line\n")
    start_cost = min(run_vaultsum("start.md")[0] for _ in range(5))

    rows, times_ours, times_pdfium, log_lines = [], 0.0, 0.0, 0
    compared_names = []
    scan_times = [0.0, 0.0]  # vaultsum, PDFium, over the files PDFium finds no text in
    for index, path in enumerate(files):
        name = f"{index:03}.pdf"
        shutil.copy(path, os.path.join(vault, name))
        started = clock.own()
        try:
            reference = pdfium_text(path)
        except Exception as error:  # PDFium refuses it: nothing to compare with
            rows.append((os.path.relpath(path, corpus), None, f"PDFium: {error}", None))
            continue
        pdfium_time = clock.own() - started
        elapsed, done = run_vaultsum(name)
        log_lines += len(done.stderr.decode(errors="replace").splitlines())
        ours = done.stdout.decode(errors="replace")
        for markup in VAULTSUM_MARKUP:
            ours = markup.sub(" ", ours)
        reference_words = words(reference)
        note = "" if done.returncode == 0 else f"exit {done.returncode}"
        if not reference_words:
            scan_times[0] += max(elapsed - start_cost, 0.0)
            scan_times[1] += pdfium_time
            timing = (max(elapsed - start_cost, 0.0), pdfium_time)
            rows.append((os.path.relpath(path, corpus), None, "scan (PDFium: no text) " + note, timing))
            continue
        times_pdfium += pdfium_time
        ours_time = max(elapsed - start_cost, 0.0)
        times_ours += ours_time
        timing = (ours_time, pdfium_time)
        compared_names.append(name)
        rows.append((os.path.relpath(path, corpus), f1(reference_words, words(ours)), note, timing))

    width = max(len(row[0]) for row in rows)
    kind = "wall" if args.wall else "CPU"
    print(f"{'file':<{width}}  word-F1  vaultsum ms  PDFium ms  ({kind} time)")
    for name, score, note, timing in rows:
        shown = "   -  " if score is None else f"{score:6.3f}"
        timed = "" if timing is None else f"  {timing[0] * 1000:9.1f}  {timing[1] * 1000:9.1f}"
        print(f"{name:<{width}}  {shown}{timed}  {note}".rstrip())
    scores = [score for _, score, _, _ in rows if score is not None]
    under = [name for name, score, _, _ in rows if score is not None and score < 0.8]
    print(f"\nfiles: {len(files)}, compared: {len(scores)}")
    print(f"median word-F1: {statistics.median(scores):.3f} (target >= 0.98)")
    print(f"under 0.8: {len(under)} {under}")
    print(
        f"{kind} time: vaultsum {times_ours:.2f} s, PDFium {times_pdfium:.2f} s, ratio "
        f"{times_ours / times_pdfium:.2f}x (target <= 2x; vaultsum's process start, "
        f"{start_cost * 1000:.0f} ms, subtracted per file)"
    )
    if scan_times[1]:
        print(
            f"time on scans (not in the ratios above): vaultsum {scan_times[0]:.2f} s, PDFium "
            f"{scan_times[1]:.2f} s"
        )
    one_process = one_process_time(args.bin, vault, scratch, compared_names, clock) - start_cost
    print(
        f"{kind} time in one process: vaultsum {one_process:.2f} s, PDFium {times_pdfium:.2f} s, ratio "
        f"{one_process / times_pdfium:.2f}x (the {len(compared_names)} files read one after "
        "another by one `vaultsum read`, fresh cache)"
    )
    print(f"stderr lines from vaultsum at the default log level: {log_lines}")
    shutil.rmtree(scratch, ignore_errors=True)


if __name__ == "__main__":
    main()
