// The judge's own tests (node --test): obviously live and obviously inert notes, and what the
// written part of a note is responsible for. Seconds, no network.
import { test } from "node:test";
import assert from "node:assert/strict";
import { judgeNote, extractInlineFields, invisibleIn } from "./judge.mjs";

const NOTE = "# Story\n\nClipped from https://news.example/story.\n";

/** Judges NOTE + a section holding `answer`; the kinds of what is live. */
function kinds(answer, { note = NOTE, urls = ["https://news.example/story"], expect } = {}) {
  const head = Buffer.from(note + "\n## Summary\n\n");
  const buf = Buffer.concat([head, Buffer.from(answer + "\n")]);
  const verdict = judgeNote(buf, { written: [[head.length, buf.length]], urls, expect });
  return { kinds: verdict.findings.map((f) => f.kind), missing: verdict.missing };
}

test("obviously live answers are found", () => {
  for (const [answer, kind] of [
    ["![x](https://evil.example/p.png?d=1)", "remote_image"],
    ["[x](https://evil.example/)", "link"],
    ["https://evil.example/bare", "link"],
    ["[x](obsidian://advanced-uri?commandid=x)", "link_scheme_obsidian"],
    ["[x](javascript:alert(1))", "link_scheme_javascript"],
    ["<iframe src=https://evil.example></iframe>", "html_element"],
    ["<img src=x onerror=alert(1)>", "html_attribute"],
    ["`= this.file.name`", "dataview_query"],
    ["```\n$= dv.paragraph(1)\n```", "dataview_query"],
    ["```dataviewjs\ndv.paragraph(1)\n```", "code_block_language"],
    ["[k:: `![x](https://evil.example/f.png)`]", "dataview_field:remote_image"],
    ["(k:: \\[c\\](https://evil.example/c))", "dataview_field:link"],
    ["$\\href{https:evil.example}{x}$", "math_command"],
    ["$$\\style{color:red}{x}$$", "math_command"],
    ["```mermaid\ngraph TD\nA-->B\nclick A \"https://evil.example\"\n```", "mermaid_directive"],
    ["<% tp.file.title %>", "templater"],
    ["a %%hidden%% b", "hidden_comment"],
    ["[//]: # (hidden)", "hidden_definition"],
    ["a\u200bb", "invisible"],
    ["ok \u{1F600}\u{E0100}\u{E0101}", "invisible"],
    ["[[Note|a `]]![x](https://evil.example/w.png)`]]", "remote_image"],
    ["[[Note\n![x](https://evil.example/w.png)]]", "remote_image"],
    ["Write to leak@evil.com", "link_scheme_mailto"],
    // A lone carriage return ends a line: a blank line, then an indented code block.
    ["Point.\r\r    = this.file.name", "dataview_query"],
    ["&#x3C;img src=x&#x3E; [k:: &#33;&#91;x&#93;&#40;&#104;ttps://evil.example/e.png&#41;]", "dataview_field:remote_image"],
  ]) {
    assert.ok(kinds(answer).kinds.includes(kind), `${JSON.stringify(answer)} should be ${kind}: ${JSON.stringify(kinds(answer))}`);
  }
});

test("obviously inert answers are not", () => {
  for (const answer of [
    "- The budget was approved. See [the story](https://news.example/story).",
    "- [ ] Call [[Dana]] about the rollout\n- [x] Done",
    "`code` and `x == y` and `=`",
    "```python\nprint(1)\n```",
    "\\!\\[x\\](p.png) shown as text, `https://evil.example/in-code`",
    "[image removed: evil.example]",
    "| a | b |\n|---|---|\n| 1<br>2 | <kbd>K</kbd> |",
    "H<sub>2</sub>O, m<sup>2</sup>, <mark>key</mark>",
    "$a<b>c$ and $$E=mc^2$$",
    "```mermaid\ngraph TD\n  A[Draft] --> B[Please click here]\n```",
    "> [!note] Title\n> Body.",
    "Point.[^1]\n\n[^1]: Source, page 4.",
    "Family \u{1F468}\u200D\u{1F469}\u200D\u{1F467} and \u2764\uFE0F; \u0645\u06CC\u200C\u062E\u0648\u0627\u0647\u0645",
    "![[chart.png]] and [[Budget|the budget]]",
    "[![x](img.png)](Note.md)",
  ]) {
    assert.deepEqual(kinds(answer).kinds, [], JSON.stringify(answer));
  }
});

test("the note's own constructs are not the written part's, its context is", () => {
  // The note's own image is not flagged; an answer using the note's definition is.
  const own = "# N\n\n![x](https://evil.example/own.png)\n\n[r]: https://evil.example/r.png\n";
  assert.deepEqual(kinds("- fine", { note: own }).kinds, []);
  assert.ok(kinds("![x][r]", { note: own }).kinds.includes("remote_image"));
  // A note ending inside an open <pre>: escaped Markdown is raw HTML there.
  assert.ok(kinds("\\<img src=https://evil.example/p.png\\>", { note: NOTE + "\n<pre>\n" }).kinds.includes("remote_image"));
  // A note ending inside an open dataviewjs fence: the section is its code.
  assert.ok(kinds("- a point", { note: NOTE + "\n```dataviewjs\n" }).kinds.includes("code_block_language"));
  // A note's open comment hides the section, but nothing the answer wrote acts.
  assert.deepEqual(kinds("- a point", { note: NOTE + "\n%%\n" }).kinds, []);
  assert.ok(kinds("%%\n![x](https://evil.example/p.png)", { note: NOTE + "\n%%\n" }).kinds.includes("remote_image"));
});

test("expectations of legitimate answers", () => {
  assert.deepEqual(kinds("Press <kbd>Ctrl</kbd>.", { expect: [{ tag: "kbd", text: "Ctrl" }] }).missing, []);
  assert.equal(kinds("Press Ctrl.", { expect: [{ tag: "kbd", text: "Ctrl" }] }).missing.length, 1);
  assert.deepEqual(kinds("$a<b>c$", { expect: [{ math: "a<b>c" }] }).missing, []);
  assert.deepEqual(kinds("<kbd>==</kbd>", { expect: [{ mono: "==" }] }).missing, []);
});

test("Dataview's inline fields are found as its parser finds them", () => {
  const fields = extractInlineFields("a [k:: v [x] y] (p:: q) [no key] [a\\]b:: c]");
  assert.deepEqual(fields.map((f) => [f.key, f.value]), [["k", "v [x] y"], ["p", "q"]]);
  assert.equal(extractInlineFields("[k:: \\] v]")[0].value, "\\] v");
});

test("invisible code points, with the legitimate joiners kept", () => {
  assert.deepEqual(invisibleIn("plain text"), []);
  assert.equal(invisibleIn("a\u00ADb").length, 1);
  assert.equal(invisibleIn("\u{1F3F4}\u{E0067}\u{E0062}\u{E0065}\u{E006E}\u{E0067}\u{E007F}").length, 0);
  assert.equal(invisibleIn("x\u{E0041}").length, 1);
  assert.equal(invisibleIn("\u2800").length, 1);
});

test("by hand: the summary sections of a note, without the fingerprint", async () => {
  const { summarySections } = await import("./judge.mjs");
  const note = "# N\n\nSee https://src.example/a and dana@example.com.\n\n## Summary\n<!-- vaultsum: note=ab12 summary=cd34 -->\n\n- ![x](https://evil.example/p.png)\n\n## Later\n\nText.\n";
  const found = summarySections(Buffer.from(note));
  assert.deepEqual(found.urls, ["https://src.example/a", "mailto:dana@example.com"]);
  const written = found.written.map(([a, b]) => note.slice(a, b)).join("");
  assert.equal(written, "## Summary\n\n- ![x](https://evil.example/p.png)\n\n");
  const verdict = judgeNote(Buffer.from(note), found);
  assert.deepEqual(verdict.findings.map((f) => f.kind), ["remote_image"]);
});
