import { afterEach, describe, expect, it, vi } from "vitest";

import { MANY_CHANGES, SETTLE_MS, SummaryStates } from "../src/states";

afterEach(() => {
  vi.useRealTimers();
});

describe("summary states", () => {
  it("after the first read, asks only about the note that changed, once it rests", async () => {
    vi.useFakeTimers();
    const asked: (string | undefined)[] = [];
    const states = new SummaryStates(async (target) => {
      asked.push(target);
      return target ? [{ path: target, state: "stale" }] : [{ path: "a.md", state: "current" }, { path: "b.md", state: "missing" }];
    });
    states.changed("a.md"); // before the first read: nothing to do, the read will see it
    await states.loadAll();
    expect(asked).toEqual([""]);

    // A note being typed: Obsidian saves it every 2 s; each save moves the question later.
    for (let save = 0; save < 5; save++) {
      states.changed("a.md");
      await vi.advanceTimersByTimeAsync(2_000);
    }
    expect(asked).toEqual([""]);
    await vi.advanceTimersByTimeAsync(SETTLE_MS);
    expect(asked).toEqual(["", "a.md"]);
    expect(states.get("a.md")).toBe("stale");
    expect(states.get("b.md")).toBe("missing");

    // Many notes changed at once (a sync): one read of the whole vault.
    for (let n = 0; n <= MANY_CHANGES; n++) states.changed(`n${n}.md`);
    await vi.advanceTimersByTimeAsync(SETTLE_MS);
    expect(asked).toEqual(["", "a.md", ""]);
    states.dispose();
  });
});
