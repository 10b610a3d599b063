#!/usr/bin/env python3
"""The fact check on a real model: `summarize-file --dry-run` with default settings over notes of
a vault, against an OpenAI-compatible server (`../shared/tools/local-llm.sh start` gives a real
llama.cpp one). Reports, per note and in total, the entity precision (Nan et al. 2021) of the
model's first answer and of what would be written after the corrective request, and what the
retry cost in time.

  FIREWORKS_BASE_URL=http://127.0.0.1:8089/v1 FIREWORKS_API_KEY=local SUMMARIZE_MODEL=smollm2 \
    eval/fact_check_llm.py VAULT [NOTES...]    (default: every note, in path order, up to 12)
"""
import json
import os
import subprocess
import sys
import time
from pathlib import Path

BINARY = os.environ.get("VAULTSUM_BIN", "target/debug/vaultsum")


def details_of(stderr: str):
    """The expanded details `-vv` prints after the result line."""
    start = stderr.find("\n{")
    if start < 0:
        return None
    return json.JSONDecoder().raw_decode(stderr[start + 1:])[0]


def main():
    vault = Path(sys.argv[1])
    notes = sys.argv[2:] or sorted(
        str(p.relative_to(vault)) for p in vault.rglob("*.md") if ".obsidian" not in p.parts
    )[:12]
    totals = {"first": [0, 0], "written": [0, 0], "retries": 0, "retry_ms": 0, "notes": 0,
              "marked": 0, "unlinked": 0}
    for note in notes:
        started = time.monotonic()
        run = subprocess.run(
            [BINARY, "--vault", str(vault), "-vv", "summarize-file", "--dry-run", "--json", note],
            capture_output=True, text=True)
        took = time.monotonic() - started
        details = details_of(run.stderr)
        if run.returncode != 0 or not details or "fact_check" not in details:
            print(f"{note}: no result ({run.returncode}): {run.stderr[-300:]}")
            continue
        check = details["fact_check"]
        first, written = check["first_answer"], check
        print(f"{note}: first {first['not_found']} of {first['facts']} facts not found "
              f"(precision {first['entity_precision']}), written {written['not_found']} of "
              f"{written['facts']} (precision {written['entity_precision']}), retried "
              f"{check['retried']} kept {check['retry_kept']} in {check['retry_ms']} ms; "
              f"{took:.1f} s in all; not found: "
              + ", ".join(f"{u['fact']!r} ({u['kind']})" for u in details.get("unsupported", [])))
        totals["notes"] += 1
        totals["retries"] += bool(check["retried"])
        totals["retry_ms"] += check["retry_ms"] or 0
        totals["marked"] += written["not_found"] > 0
        totals["unlinked"] += check["unlinked"]
        # Entities found / entities, from the precision and the counts reported.
        for key, part in (("first", first), ("written", written)):
            if part["entity_precision"] is not None:
                totals[key][0] += part["entity_precision"]
                totals[key][1] += 1
    n = totals["notes"]
    print(f"\n{n} notes; mean entity precision of the first answers "
          f"{totals['first'][0] / max(totals['first'][1], 1):.3f} (over {totals['first'][1]} "
          f"with entities), of what is written {totals['written'][0] / max(totals['written'][1], 1):.3f}; "
          f"{totals['retries']} retries, {totals['retry_ms'] / max(totals['retries'], 1) / 1000:.1f} s "
          f"each on average; {totals['marked']} summaries with marks; {totals['unlinked']} links unlinked")


if __name__ == "__main__":
    main()
