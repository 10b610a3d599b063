#!/usr/bin/env python3
"""Times summa's TextRank over the given notes (raw markdown, as the local engine gets them).
Prints the median seconds for one pass over all notes. Used by benches/local_vs_summa.rs."""
import statistics
import sys
import time

from summa import summarizer

def main():
    passes = int(sys.argv[1])
    texts = [open(p, encoding="utf-8").read() for p in sys.argv[2:]]
    timings = []
    for _ in range(passes):
        start = time.perf_counter()
        for text in texts:
            summarizer.summarize(text, ratio=0.2)
        timings.append(time.perf_counter() - start)
    print(statistics.median(timings))

if __name__ == "__main__":
    main()
