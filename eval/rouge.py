#!/usr/bin/env python3
"""ROUGE of the `local` engine against hand-written references, beside two baselines at the
same length: the note's first N sentences, and summa's TextRank top N sentences.

N is, per note, the number of key points the engine chose. Baselines read the same note with
markdown syntax, code, frontmatter, HTML and comments removed by `clean()` below, and split it
with summa's own sentence splitter. Only the engine's Key Points are scored (its tables and
action items are not sentences and the baselines have no equivalent).

Usage: eval/rouge.py BINARY [--gold DIR] [--notes DIR]   (eval/run.sh calls it)
"""
import argparse
import os
import re
import subprocess
import sys
from pathlib import Path

from rouge_score import rouge_scorer
from summa import summarizer
from summa.preprocessing.textcleaner import clean_text_by_sentences

HERE = Path(__file__).resolve().parent


def read_gold(gold_dir):
    items = []
    for path in sorted(Path(gold_dir).glob("*.txt")):
        head, _, reference = path.read_text(encoding="utf-8").partition("\n\n")
        note = head.removeprefix("path: ").strip()
        items.append((path.stem, note, reference.strip()))
    return items


def clean(markdown):
    """Markdown to plain prose paragraphs, for the baselines."""
    text = re.sub(r"\A---\n.*?\n---\n", "", markdown, flags=re.S)
    text = re.sub(r"%%.*?%%", "", text, flags=re.S)
    text = re.sub(r"<!--.*?-->", "", text, flags=re.S)
    out, fence = [], None
    for line in text.split("\n"):
        bare = line.lstrip(" \t>")
        m = re.match(r"(`{3,}|~{3,})", bare)
        if m:
            fence = None if fence and m.group(1)[0] == fence else (fence or m.group(1)[0])
            continue
        if fence:
            continue
        line = re.sub(r"^[\s>]*", "", line)
        if re.match(r"^\|", line) or re.match(r"^#{1,6}\s", line):
            out.append("")
            continue
        line = re.sub(r"^\[![\w-]+\][+-]?\s*", "", line)
        line = re.sub(r"^([-*+]|\d+[.)])\s+(\[.\]\s+)?", "", line)
        line = re.sub(r"!\[\[[^\]]*\]\]|!\[[^\]]*\]\([^)]*\)", "", line)
        line = re.sub(r"\[\[([^\]|]*\|)?([^\]]*)\]\]", r"\2", line)
        line = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", line)
        line = re.sub(r"<[^>]+>", "", line)
        line = re.sub(r"[*_]{1,3}", "", line)
        out.append(line.strip() if line.strip() else "")
    paragraphs = re.split(r"\n\s*\n", "\n".join(out))
    return "\n\n".join(" ".join(p.split()) for p in paragraphs if p.strip())


def engine_key_points(binary, note_text):
    env = {k: v for k, v in os.environ.items() if k not in ("FIREWORKS_API_KEY", "VAULTSUM_ENGINE")}
    result = subprocess.run(
        [binary, "-q", "summarize-text", "--engine", "local"],
        input=note_text, capture_output=True, text=True, env=env, check=True,
    )
    points, in_points = [], False
    for line in result.stdout.split("\n"):
        if line.startswith("### "):
            in_points = line.strip() == "### Key Points"
        elif in_points and line.startswith("- "):
            points.append(line[2:])
    return points, result.stdout


def plain(sentence):
    return re.sub(r"[`*_]", "", sentence)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("binary")
    parser.add_argument("--gold", default=HERE / "gold")
    parser.add_argument("--notes", default=HERE / "notes")
    parser.add_argument("--per-note", action="store_true")
    args = parser.parse_args()

    scorer = rouge_scorer.RougeScorer(["rouge1", "rouge2", "rougeL"], use_stemmer=True)
    systems = ["local engine", "first-N", "summa TextRank", "first-N (same words)", "summa TextRank (same words)"]
    totals = {s: {"rouge1": 0.0, "rouge2": 0.0, "rougeL": 0.0, "words": 0} for s in systems}
    items = read_gold(args.gold)
    for stem, note, reference in items:
        text = (Path(args.notes) / note).read_text(encoding="utf-8")
        points, _ = engine_key_points(args.binary, text)
        n = max(len(points), 1)
        units = clean_text_by_sentences(clean(text))
        sentences = [u.text for u in units]
        first = sentences[:n]
        scored = summarizer.summarize(clean(text), split=True, scores=True, ratio=1.0) or []
        ranked = sorted(range(len(scored)), key=lambda i: -scored[i][1])[:n]
        textrank = [scored[i][0] for i in sorted(ranked)]
        engine_text = " ".join(plain(p) for p in points)
        budget = len(engine_text.split())
        first_words, used = [], 0
        for sentence in sentences:
            words = len(sentence.split())
            # Stop where the total lands closest to the engine's word count.
            if used >= budget or (first_words and abs(used + words - budget) > abs(used - budget)):
                break
            first_words.append(sentence)
            used += words
        outputs = {
            "local engine": engine_text,
            "first-N": " ".join(first),
            "summa TextRank": " ".join(textrank),
            "first-N (same words)": " ".join(first_words),
            "summa TextRank (same words)": summarizer.summarize(clean(text), words=budget).replace("\n", " "),
        }
        row = []
        for system, output in outputs.items():
            score = scorer.score(reference, output)
            for key in ("rouge1", "rouge2", "rougeL"):
                totals[system][key] += score[key].fmeasure
            totals[system]["words"] += len(output.split())
            if len(row) < 3:
                row.append(f"{score['rougeL'].fmeasure:.3f}")
        if args.per_note:
            print(f"{stem:28} N={n:2}  L: " + "  ".join(row), file=sys.stderr)

    count = len(items)
    print(f"ROUGE F1 on {count} hand-written references. N = the engine's key points per note;")
    print("'same words' baselines get as many words as the engine used on that note.\n")
    print("| system | ROUGE-1 | ROUGE-2 | ROUGE-L | mean words |")
    print("|---|---|---|---|---|")
    for system in systems:
        t = totals[system]
        print(f"| {system} | {t['rouge1']/count:.4f} | {t['rouge2']/count:.4f} | {t['rougeL']/count:.4f} | {t['words']/count:.0f} |")


if __name__ == "__main__":
    main()
