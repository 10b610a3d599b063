// An independent judge of what vaultsum writes into a vault (issue 41).
//
// It renders a WHOLE note the way Obsidian and its popular plugins do with their default settings,
// and reports what is live in the part vaultsum wrote: what would run code, load a remote
// resource, link where the source did not name, or hide text. It shares nothing with vaultsum's
// own output policy (a different parser, its own rules, written from the renderers' behaviour):
//
// - CommonMark + GFM tables/strikethrough + footnotes (markdown-it), raw HTML on, bare URLs
//   linked, every link scheme kept (Obsidian does not drop `javascript:` the way markdown-it
//   would, so the judge must see them as links);
// - Obsidian: `[[wikilinks]]` and `![[embeds]]` on one line, ending at the FIRST `]]`, tried
//   before code spans start inside them; `%%comments%%` inline and as blocks (unclosed: to the
//   end); `$…$`, `$$…$$` math; each top-level block rendered on its own, as reading view renders
//   sections;
// - Obsidian's HTML: whatever is not on a short allow-list of tags and attributes is live
//   (it keeps `<img>`, `<iframe>`, `style`, …);
// - Dataview (defaults: enableInlineDataview, inlineQueriesInCodeblocks, prettyRenderInlineFields):
//   every `code` element, inside `<pre>` too, whose text trimmed starts with `=` or `$=` is a
//   query; inline fields `[k:: v]`/`(k:: v)` are found in each container's innerHTML (p, h1-h6,
//   li, span, th, td) and the value, HTML and all, is rendered again as Markdown: judged again;
// - MathJax: `\href`, `\style`, `\class`, `\cssId`, `\require`, `\unicode`, `\data`, `\html`,
//   macros that could rename them, `\phantom` (hides);
// - Mermaid: `click`, `href`, `call`, `%%{init}%%` and other directives, `%%` comments, HTML in
//   labels, `url(`;
// - fenced blocks whose language is not a display language (a plugin may run them: dataview,
//   dataviewjs, js-engine, run-*, button, meta-bind, admonitions that render their body, …);
// - Templater `<%` anywhere in the written bytes (Templater reads the raw file, code included);
// - Default_Ignorable code points (and the Braille blank, C0/C1 controls) in the written bytes or
//   the rendered text, except the joiners and variation selectors that legitimate emoji and
//   scripts need.
//
// Input (a manifest, JSON): {"notes": [{"path": "...", "written": [[fromByte, toByte], ...],
// "urls": ["https://source.example/page"], "property": "summary", "expect": [...]}]}.
// `written` are the byte ranges vaultsum wrote (absent: the whole note); a finding counts only if
// it lies in, or is activated by, those bytes. `property`: also judge that frontmatter property's
// value as Markdown (Dataview renders field values as Markdown). `expect`: what a legitimate
// answer must render as (see `checkExpectations`).
// Output (stdout, JSON): {"live": N, "notes": [{"path", "findings": [...], "missing": [...],
// "frontmatter_keys": [...]}]}. Exit status 0 whatever is found (the caller asserts).
//
// Usage: node tests/judge/judge.mjs MANIFEST.json
//        node tests/judge/judge.mjs --dir FOLDER [--url URL]...      (every note, whole)
//        node tests/judge/judge.mjs --dir FOLDER --summaries        (the `## Summary` sections of
//          every note that has one, in the whole note; the source's URLs taken from the rest)

import fs from "node:fs";
import path from "node:path";
import crypto from "node:crypto";
import { pathToFileURL } from "node:url";
import MarkdownIt from "markdown-it";
import footnote from "markdown-it-footnote";
import * as parse5 from "parse5";
import YAML from "yaml";

// Elements the judge renders itself carry this attribute; an answer cannot forge it.
const NONCE = crypto.randomBytes(8).toString("hex");

// ---------------------------------------------------------------------------------------------
// Unicode: what hides text.

/** Default_Ignorable_Code_Point (Unicode 15.1 DerivedCoreProperties.txt), as ranges. */
const DEFAULT_IGNORABLE = [
  [0x00ad, 0x00ad], [0x034f, 0x034f], [0x061c, 0x061c], [0x115f, 0x1160], [0x17b4, 0x17b5],
  [0x180b, 0x180f], [0x200b, 0x200f], [0x202a, 0x202e], [0x2060, 0x206f], [0x3164, 0x3164],
  [0xfe00, 0xfe0f], [0xfeff, 0xfeff], [0xffa0, 0xffa0], [0xfff0, 0xfff8], [0x1bca0, 0x1bca3],
  [0x1d173, 0x1d17a], [0xe0000, 0xe0fff],
];

function isDefaultIgnorable(cp) {
  return DEFAULT_IGNORABLE.some(([a, b]) => cp >= a && cp <= b);
}

const PICTOGRAPHIC = /\p{Extended_Pictographic}|\p{Emoji_Modifier}|\p{Regional_Indicator}/u;
// Scripts whose words legitimately carry ZWNJ/ZWJ (Persian, Arabic, Indic, Sinhala, …).
const JOINING_SCRIPT = /[\p{Script=Arabic}\p{Script=Devanagari}\p{Script=Bengali}\p{Script=Gurmukhi}\p{Script=Gujarati}\p{Script=Oriya}\p{Script=Tamil}\p{Script=Telugu}\p{Script=Kannada}\p{Script=Malayalam}\p{Script=Sinhala}\p{Script=Syriac}\p{Script=Mongolian}\p{Script=Khmer}\p{Script=Myanmar}]/u;
const HAN = /\p{Script=Han}/u;

/**
 * The invisible code points of `text` a legitimate summary has no use for, as
 * [{index, cp}]: every Default_Ignorable code point, the Braille blank, C0/C1 controls but tab
 * and line breaks; except one VS15/VS16 right after an emoji or other visible character, a ZWJ
 * between two emoji, a ZWJ/ZWNJ between two letters of a joining script, one ideographic
 * variation selector after a Han character, an emoji tag sequence (🏴 + a–z tags + cancel), and
 * one word joiner between two colons or before `=`, `$` or `\` (vaultsum's Dataview shaping).
 */
export function invisibleIn(text) {
  const cps = Array.from(text);
  const found = [];
  let offset = 0;
  const offsets = cps.map((c) => {
    const at = offset;
    offset += c.length;
    return at;
  });
  for (let i = 0; i < cps.length; i++) {
    const cp = cps[i].codePointAt(0);
    const prev = i > 0 ? cps[i - 1] : "";
    const next = i + 1 < cps.length ? cps[i + 1] : "";
    const prevCp = prev ? prev.codePointAt(0) : -1;
    let bad = false;
    if (isDefaultIgnorable(cp)) {
      bad = true;
      if ((cp === 0xfe0e || cp === 0xfe0f) && prev && !isDefaultIgnorable(prevCp) && !/\s/u.test(prev)) {
        bad = false;
      } else if (cp === 0x200d && PICTOGRAPHIC.test(prev.replace(/[\ufe0f\ufe0e]/u, "") || prev) && PICTOGRAPHIC.test(next)) {
        bad = false;
      } else if (cp === 0x200d && (prevCp === 0xfe0f) && i > 1 && PICTOGRAPHIC.test(cps[i - 2]) && PICTOGRAPHIC.test(next)) {
        bad = false;
      } else if ((cp === 0x200c || cp === 0x200d) && JOINING_SCRIPT.test(prev) && JOINING_SCRIPT.test(next)) {
        bad = false;
      } else if (cp === 0x2060 && !isDefaultIgnorable(prevCp) && next && !isDefaultIgnorable(next.codePointAt(0)) &&
                 ((prev === ":" && next === ":") || next === "=" || next === "$" || next === "\\")) {
        // One word joiner where vaultsum writes it: between two colons (Dataview reads no
        // field) or before the `=`/`$` that would start a Dataview query (JS trim keeps it).
        // Alone between visible characters it hides nothing; Dataview is still judged below.
        bad = false;
      } else if (cp >= 0xe0100 && cp <= 0xe01ef && HAN.test(prev)) {
        bad = false;
      } else if (cp >= 0xe0020 && cp <= 0xe007f) {
        // An emoji tag sequence: U+1F3F4, 2–6 tag letters/digits, U+E007F.
        let start = i;
        while (start > 0 && cps[start - 1].codePointAt(0) >= 0xe0020 && cps[start - 1].codePointAt(0) <= 0xe007e) start--;
        let end = i;
        while (end < cps.length && cps[end].codePointAt(0) >= 0xe0020 && cps[end].codePointAt(0) <= 0xe007e) end++;
        const base = start > 0 ? cps[start - 1].codePointAt(0) : -1;
        const letters = cps.slice(start, end).map((c) => c.codePointAt(0));
        const cancel = end < cps.length ? cps[end].codePointAt(0) : -1;
        const tagsOk = letters.length >= 2 && letters.length <= 6 && letters.every((c) => (c >= 0xe0061 && c <= 0xe007a) || (c >= 0xe0030 && c <= 0xe0039));
        if (base === 0x1f3f4 && cancel === 0xe007f && tagsOk) bad = false;
        if (cp === 0xe007f) {
          // The cancel tag is fine right after a valid sequence.
          let s = i;
          while (s > 0 && cps[s - 1].codePointAt(0) >= 0xe0020 && cps[s - 1].codePointAt(0) <= 0xe007e) s--;
          const seq = cps.slice(s, i).map((c) => c.codePointAt(0));
          if (s > 0 && cps[s - 1].codePointAt(0) === 0x1f3f4 && seq.length >= 2 && seq.length <= 6 && seq.every((c) => (c >= 0xe0061 && c <= 0xe007a) || (c >= 0xe0030 && c <= 0xe0039))) bad = false;
        }
      }
    } else if (cp === 0x2800) {
      bad = true; // Braille pattern blank: renders as nothing visible.
    } else if ((cp < 0x20 && cp !== 0x09 && cp !== 0x0a && cp !== 0x0d) || (cp >= 0x7f && cp <= 0x9f)) {
      bad = true;
    } else if (cp === 0x2028 || cp === 0x2029) {
      bad = true;
    }
    if (bad) found.push({ index: offsets[i], cp });
  }
  return found;
}

const hex = (cp) => "U+" + cp.toString(16).toUpperCase().padStart(4, "0");

// ---------------------------------------------------------------------------------------------
// Markdown, as Obsidian renders it.

const DISPLAY_LANGUAGES = new Set(
  ("text txt plain plaintext none md markdown python py python3 rust rs js javascript jsx ts typescript tsx " +
    "json json5 jsonc yaml yml toml ini cfg conf bash sh shell zsh fish console shellsession powershell ps1 " +
    "bat cmd sql c h cpp c++ cc hpp cs csharp java kotlin kt swift go golang ruby rb php perl pl lua r " +
    "scala haskell hs elixir ex erlang clojure dart julia matlab ocaml fsharp vb vbnet objc objectivec " +
    "html xml svg css scss sass less diff patch dockerfile makefile make cmake nginx apache graphql proto " +
    "protobuf latex tex bibtex csv tsv log http regex vim elm zig nim nix hcl terraform groovy gradle " +
    "solidity asm nasm wasm").split(/\s+/),
);

// Tags a rendered summary may contain, whoever produced them; each with the attributes it may carry.
const ALLOWED_TAGS = {
  p: [], div: [], span: [], br: [], hr: ["class"], h1: [], h2: [], h3: [], h4: [], h5: [], h6: [],
  em: [], strong: [], b: [], i: [], u: [], s: [], del: [], ins: [], mark: [], kbd: [], sub: [], sup: ["class"],
  small: [], code: ["class"], pre: [], blockquote: [], ul: [], ol: ["start", "class"], li: ["class", "id"],
  table: [], thead: [], tbody: [], tr: [], th: ["style"], td: ["style"],
  a: ["href", "title", "class", "id"], img: ["src", "alt", "title"], section: ["class"],
};
const CLASS_OK = /^(language-[\w+#.-]+|footnotes?(-[\w-]+)?|footnote-(ref|item|backref|sep)|footnotes-sep)$/;
const ID_OK = /^fn(ref)?\d+(:\d+)?$/;
const STYLE_OK = /^text-align:(left|right|center)$/;

const RUNS_OR_HIDES_CONTENT = new Set(["style", "script", "template", "noscript", "noembed", "noframes", "iframe", "object", "svg", "math"]);

const DATAVIEW_CONTAINERS = new Set(["p", "h1", "h2", "h3", "h4", "h5", "h6", "li", "span", "th", "td"]);

// MathJax commands that link, load, set HTML attributes or styles, or hide; and the macro
// machinery that could give them another name.
const MATH_DANGER = /\\(href|url|style|class|cssId|require|unicode|data|html|attr|mmlToken|tooltip|texttip|mathtip|toggle|phantom|hphantom|vphantom|def|gdef|edef|xdef|let|newcommand|renewcommand|providecommand|DeclareMathOperator|newenvironment|renewenvironment|csname|begingroup)(?![A-Za-z])/;

// Mermaid: what makes a diagram act, load, or hide.
// `click`/`call` are statements at a line's start ("A[click here]" is only a label).
const MERMAID_DANGER = /^\s*(click|call)\b|\bhref\b|%%|javascript:|url\(|<\s*[a-zA-Z!\/]|&lt;|securityLevel|htmlLabels/im;

/** The renderer; what it cannot show in HTML (math, diagrams, comments) goes to `env.side`. */
function makeRenderer() {
  const md = new MarkdownIt({ html: true, linkify: true, typographer: false, breaks: false });
  // Obsidian keeps links of any scheme; markdown-it would silently drop javascript:/file:/data:.
  md.validateLink = () => true;
  // Bare URLs with a scheme are links in Obsidian, and so are plain e-mail addresses (a click
  // opens mailto:); bare domains are not (and `//host` never).
  md.linkify.set({ fuzzyLink: false, fuzzyEmail: true, fuzzyIP: false });
  md.linkify.add("//", null);
  md.linkify.add("obsidian:", "http:");
  md.use(footnote);
  md.block.ruler.before("fence", "obsidian_comment_block", commentBlock, { alt: ["paragraph", "reference", "blockquote", "list"] });
  md.block.ruler.before("fence", "math_block", mathBlock, { alt: ["paragraph", "reference", "blockquote", "list"] });
  md.inline.ruler.after("escape", "obsidian_comment", commentInline);
  md.inline.ruler.after("obsidian_comment", "wikilink", wikilink);
  md.inline.ruler.after("wikilink", "math_inline", mathInline);
  // A link reference definition renders as nothing: record where each one is (hidden text).
  const reference = md.block.ruler.__rules__.find((r) => r.name === "reference").fn;
  md.block.ruler.at("reference", (state, startLine, endLine, silent) => {
    const ok = reference(state, startLine, endLine, silent);
    if (ok && !silent) {
      state.env.definitions = state.env.definitions || [];
      state.env.definitions.push([startLine, state.line]);
    }
    return ok;
  });

  const esc = md.utils.escapeHtml;
  md.renderer.rules.obsidian_comment = (tokens, idx, options, env) => {
    env.side.push({ kind: "comment", content: tokens[idx].content });
    return `<span data-judge="${NONCE}" data-kind="comment" data-id="${env.side.length - 1}"></span>`;
  };
  md.renderer.rules.obsidian_comment_block = md.renderer.rules.obsidian_comment;
  md.renderer.rules.wikilink = (tokens, idx) => {
    const t = tokens[idx];
    if (t.meta.embed) {
      return `<span data-judge="${NONCE}" data-kind="embed" class="internal-embed">${esc(t.meta.target)}</span>`;
    }
    return `<a data-judge="${NONCE}" data-kind="wikilink" data-href="${esc(t.meta.target)}" class="internal-link">${esc(t.meta.alias)}</a>`;
  };
  const math = (tokens, idx, options, env) => {
    env.side.push({ kind: "math", content: tokens[idx].content });
    return `<span data-judge="${NONCE}" data-kind="math" data-id="${env.side.length - 1}" class="math"></span>`;
  };
  md.renderer.rules.math_inline = math;
  md.renderer.rules.math_block = math;
  const fence = md.renderer.rules.fence;
  md.renderer.rules.fence = (tokens, idx, options, env, self) => {
    const t = tokens[idx];
    const lang = (t.info || "").trim().split(/\s+/)[0].toLowerCase();
    if (lang === "mermaid" || lang === "math") {
      env.side.push({ kind: lang, content: t.content });
      return `<div data-judge="${NONCE}" data-kind="${lang}" data-id="${env.side.length - 1}"></div>`;
    }
    const html = fence(tokens, idx, options, env, self);
    return html.replace(/^<pre>/, `<pre data-judge="${NONCE}" data-kind="fence" data-lang="${esc(lang)}">`);
  };
  return md;
}

/** `%%` at a block's start: a comment to the line holding the closing `%%`, or to the end. */
function commentBlock(state, startLine, endLine, silent) {
  const start = state.bMarks[startLine] + state.tShift[startLine];
  if (state.sCount[startLine] - state.blkIndent >= 4) return false;
  if (state.src.slice(start, start + 2) !== "%%") return false;
  const firstEnd = state.eMarks[startLine];
  const close = state.src.indexOf("%%", start + 2);
  // `%% a %% more text` on one line is an inline comment inside a paragraph.
  if (close >= 0 && close < firstEnd && state.src.slice(close + 2, firstEnd).trim() !== "") return false;
  if (silent) return true;
  let line = startLine;
  if (close < 0) {
    line = endLine;
  } else {
    while (line < endLine && state.eMarks[line] < close + 2) line++;
    line++;
  }
  const token = state.push("obsidian_comment_block", "", 0);
  token.map = [startLine, line];
  token.content = state.src.slice(start, close < 0 ? state.src.length : close + 2);
  state.line = line;
  return true;
}

/** `%%…%%` inside a block; an unclosed one hides the rest (Obsidian hides to the note's end). */
function commentInline(state, silent) {
  const pos = state.pos;
  if (state.src.charCodeAt(pos) !== 0x25 || state.src.charCodeAt(pos + 1) !== 0x25) return false;
  const close = state.src.indexOf("%%", pos + 2);
  const end = close < 0 || close >= state.posMax ? state.posMax : close + 2;
  if (!silent) {
    const token = state.push("obsidian_comment", "", 0);
    token.content = state.src.slice(pos, end);
  }
  state.pos = end;
  return true;
}

/** Obsidian's `[[target|alias]]` / `![[…]]`: one line, ending at the first `]]`. */
function wikilink(state, silent) {
  let pos = state.pos;
  let embed = false;
  if (state.src.charCodeAt(pos) === 0x21 && state.src.startsWith("[[", pos + 1)) {
    embed = true;
    pos += 1;
  }
  if (!state.src.startsWith("[[", pos)) return false;
  const close = state.src.indexOf("]]", pos + 2);
  if (close < 0 || close > state.posMax) return false;
  const inner = state.src.slice(pos + 2, close);
  if (inner.includes("\n") || inner.trim() === "") return false;
  if (!silent) {
    const bar = inner.indexOf("|");
    const token = state.push("wikilink", "", 0);
    token.meta = {
      embed,
      target: bar >= 0 ? inner.slice(0, bar) : inner,
      alias: bar >= 0 ? inner.slice(bar + 1) : inner,
    };
  }
  state.pos = close + 2;
  return true;
}

/** `$$…$$` as a block: to the closing `$$`, or to the end of the note when there is none. */
function mathBlock(state, startLine, endLine, silent) {
  const start = state.bMarks[startLine] + state.tShift[startLine];
  if (state.sCount[startLine] - state.blkIndent >= 4) return false;
  if (state.src.slice(start, start + 2) !== "$$") return false;
  const close = state.src.indexOf("$$", start + 2);
  const firstEnd = state.eMarks[startLine];
  if (close >= 0 && close < firstEnd && state.src.slice(close + 2, firstEnd).trim() !== "") return false;
  if (silent) return true;
  let line = startLine;
  if (close < 0) {
    line = endLine;
  } else {
    while (line < endLine && state.eMarks[line] < close + 2) line++;
    line++;
  }
  const token = state.push("math_block", "math", 0);
  token.map = [startLine, line];
  token.content = state.src.slice(start + 2, close < 0 ? state.src.length : close);
  state.line = line;
  return true;
}

/** `$$…$$` and `$…$` inline (no space inside the single dollars, no digit right after). */
function mathInline(state, silent) {
  const src = state.src;
  const pos = state.pos;
  if (src.charCodeAt(pos) !== 0x24) return false;
  if (src.charCodeAt(pos + 1) === 0x24) {
    const close = src.indexOf("$$", pos + 2);
    if (close < 0 || close + 2 > state.posMax) return false;
    if (!silent) state.push("math_inline", "math", 0).content = src.slice(pos + 2, close);
    state.pos = close + 2;
    return true;
  }
  const first = src[pos + 1];
  if (first === undefined || /\s/.test(first)) return false;
  let i = pos + 1;
  while (i < state.posMax) {
    const c = src[i];
    if (c === "\\") {
      i += 2;
      continue;
    }
    if (c === "$") break;
    i++;
  }
  if (i >= state.posMax || src[i] !== "$") return false;
  if (/\s/.test(src[i - 1]) || /\d/.test(src[i + 1] || "")) return false;
  if (!silent) state.push("math_inline", "math", 0).content = src.slice(pos + 1, i);
  state.pos = i + 1;
  return true;
}

// ---------------------------------------------------------------------------------------------
// Links.

function normalizeUrl(u) {
  let s = String(u).trim();
  try {
    s = decodeURI(s);
  } catch {
    // Keep it as it is.
  }
  try {
    return new URL(s).href;
  } catch {
    return s;
  }
}

/** What a link's href is: internal (a vault note, an anchor) or an outside target. */
function hrefKind(href) {
  // Browsers ignore tabs and newlines in URLs and leading control characters and spaces.
  const h = href.replace(/[\t\n\r]/g, "").replace(/^[\u0000-\u0020]+/, "");
  if (/^[a-z][a-z0-9+.-]*:/i.test(h)) {
    const scheme = h.slice(0, h.indexOf(":")).toLowerCase();
    if (scheme === "http" || scheme === "https") return "web";
    return "scheme:" + scheme;
  }
  if (h.startsWith("//") || h.startsWith("\\\\") || h.startsWith("/\\") || h.startsWith("\\/")) return "network";
  return "internal";
}

// ---------------------------------------------------------------------------------------------
// Judging one piece of Markdown.

class Source {
  /** `text` with the char ranges that were written. */
  constructor(text, writtenRanges) {
    this.text = text;
    this.ranges = writtenRanges;
    this.lineStarts = [0];
    for (let i = 0; i < text.length; i++) if (text[i] === "\n") this.lineStarts.push(i + 1);
    // A line is written if a non-blank written char is on it, the note's if a non-blank char of
    // the note is.
    const n = this.lineStarts.length;
    this.writtenLine = new Array(n).fill(false);
    this.noteLine = new Array(n).fill(false);
    for (let l = 0; l < n; l++) {
      const a = this.lineStarts[l];
      const b = l + 1 < n ? this.lineStarts[l + 1] : text.length;
      for (let i = a; i < b; i++) {
        if (/\s/.test(text[i])) continue;
        if (this.isWritten(i)) this.writtenLine[l] = true;
        else this.noteLine[l] = true;
      }
    }
  }
  isWritten(i) {
    return this.ranges.some(([a, b]) => i >= a && i < b);
  }
  lineSpan(l0, l1) {
    const a = this.lineStarts[l0] ?? this.text.length;
    const b = l1 < this.lineStarts.length ? this.lineStarts[l1] : this.text.length;
    return [a, b];
  }
  /** The written and the note's text of lines [l0, l1). */
  parts(l0, l1) {
    const [a, b] = this.lineSpan(l0, l1);
    let written = "";
    let note = "";
    for (let i = a; i < b; i++) {
      if (this.isWritten(i)) written += this.text[i];
      else note += this.text[i];
    }
    return { written, note };
  }
  anyWritten(l0, l1) {
    for (let l = l0; l < l1 && l < this.writtenLine.length; l++) if (this.writtenLine[l]) return true;
    return false;
  }
  anyNote(l0, l1) {
    for (let l = l0; l < l1 && l < this.noteLine.length; l++) if (this.noteLine[l]) return true;
    return false;
  }
}

/**
 * Whether a finding in the block of lines [l0, l1) with `evidence` (strings one of which the
 * source holds where the construct is) comes from the written part: the block has written lines
 * and either none of the note's, or the evidence is in what was written, or nowhere in the note.
 */
function attributable(src, l0, l1, evidence) {
  if (!src.anyWritten(l0, l1)) return false;
  if (!src.anyNote(l0, l1)) return true;
  const { written, note } = src.parts(l0, l1);
  const ev = (evidence || []).filter((e) => e && e.length > 0);
  if (ev.length === 0) return true;
  if (ev.some((e) => written.includes(e))) return true;
  return !ev.some((e) => note.includes(e));
}

function textOf(node) {
  if (node.nodeName === "#text") return node.value;
  if (!node.childNodes) return "";
  return node.childNodes.map(textOf).join("");
}

function attr(node, name) {
  const a = (node.attrs || []).find((x) => x.name === name);
  return a ? a.value : undefined;
}

function excerpt(s) {
  const t = String(s).replace(/\s+/g, " ").trim();
  return t.length > 120 ? t.slice(0, 117) + "..." : t;
}

/**
 * Judges Markdown `text` whose written char ranges are `ranges`; `urls` are the URLs the source
 * named. Returns {findings, dom: [{lines, nodes}], side} (the DOM for expectations).
 */
const MD = makeRenderer();

export function judgeMarkdown(text, ranges, urls, depth = 0) {
  const md = MD;
  const src = new Source(text, ranges);
  const side = [];
  const env = { side };
  const tokens = md.parse(text, env);
  const findings = [];
  const allowed = new Set((urls || []).map(normalizeUrl));
  const add = (kind, what, lines, evidence) => {
    if (!attributable(src, lines[0], lines[1], evidence)) return;
    findings.push({ kind, what: excerpt(what), line: lines[0] + 1 });
  };

  // Link reference definitions render as nothing: text hidden in the written part.
  for (const [a, b] of env.definitions || []) {
    if (src.anyWritten(a, b) && !src.anyNote(a, b)) {
      findings.push({ kind: "hidden_definition", what: excerpt(src.parts(a, b).written), line: a + 1 });
    }
  }

  // Each top-level block on its own, as Obsidian renders the sections of a note.
  const units = [];
  for (let i = 0; i < tokens.length; ) {
    const start = i;
    if (tokens[i].nesting === 1) {
      let level = 0;
      do {
        level += tokens[i].nesting;
        i++;
      } while (i < tokens.length && level > 0);
    } else {
      i++;
    }
    const slice = tokens.slice(start, i);
    let l0 = Infinity;
    let l1 = -Infinity;
    const walkMaps = (ts) => {
      for (const t of ts) {
        if (t.map) {
          l0 = Math.min(l0, t.map[0]);
          l1 = Math.max(l1, t.map[1]);
        }
      }
    };
    walkMaps(slice);
    if (l0 === Infinity) {
      // The footnote block: its definitions were recorded by the plugin in env.
      l0 = 0;
      l1 = src.lineStarts.length;
    }
    units.push({ tokens: slice, lines: [l0, l1] });
  }

  const dom = [];
  for (const unit of units) {
    const html = md.renderer.render(unit.tokens, md.options, env);
    const frag = parse5.parseFragment(html);
    dom.push({ lines: unit.lines, frag });
    walk(frag, unit.lines);
  }

  function walk(node, lines) {
    for (const child of node.childNodes || []) visit(child, lines);
  }

  function visit(node, lines) {
    if (node.nodeName === "#comment") {
      // A comment the note opened that runs over the section is the note's doing; one whose
      // delimiter was written is the written part's.
      add("hidden_html_comment", "<!--" + node.data + "-->", lines, ["<!--", "-->"]);
      return;
    }
    if (node.nodeName === "#text") {
      for (const { cp } of invisibleIn(node.value)) {
        add("invisible_rendered", hex(cp), lines, [String.fromCodePoint(cp)]);
      }
      if (/\bwww\.[a-z0-9-]+\.[a-z]{2,}/i.test(node.value) && !isInCode(node)) {
        const m = node.value.match(/\bwww\.[^\s<>()]+/i)[0];
        add("bare_link", m, lines, [m]);
      }
      return;
    }
    if (!node.tagName) {
      walk(node, lines);
      return;
    }
    const tag = node.tagName;
    const ours = attr(node, "data-judge") === NONCE;
    if (ours) {
      const kind = attr(node, "data-kind");
      const item = side[Number(attr(node, "data-id"))];
      if (kind === "comment") {
        add("hidden_comment", item.content, lines, ["%%"]);
        return;
      }
      if (kind === "math") {
        const m = item.content.match(MATH_DANGER);
        if (m) add("math_command", m[0] + " in " + item.content, lines, [m[0]]);
        return;
      }
      if (kind === "mermaid") {
        const m = item.content.match(MERMAID_DANGER);
        if (m) add("mermaid_directive", m[0].trim() + " in " + item.content, lines, [m[0].trim()]);
        return;
      }
      if (kind === "fence") {
        const lang = attr(node, "data-lang");
        if (lang && !DISPLAY_LANGUAGES.has(lang)) {
          // Whatever of the block was written is the plugin's input: no evidence needed.
          add("code_block_language", "```" + lang, lines, []);
        }
      }
      if (kind === "wikilink" || kind === "embed") return;
    } else if (!Object.prototype.hasOwnProperty.call(ALLOWED_TAGS, tag)) {
      // Written text inside an element that runs or hides its content (a note's open
      // `<style>`) is that content: it counts; inside a `<textarea>` it is only shown.
      const inside = RUNS_OR_HIDES_CONTENT.has(tag)
        ? textOf(node).split("\n").map((l) => l.trim()).filter((l) => l.length > 3)
        : [];
      add("html_element", "<" + tag + ">", lines, ["<" + tag, ...inside]);
    }
    if (!ours) {
      const okAttrs = ALLOWED_TAGS[tag] || [];
      for (const a of node.attrs || []) {
        const fine =
          okAttrs.includes(a.name) &&
          (a.name !== "class" || a.value.split(/\s+/).every((c) => CLASS_OK.test(c))) &&
          (a.name !== "id" || ID_OK.test(a.value)) &&
          (a.name !== "style" || STYLE_OK.test(a.value.replace(/\s+/g, "")));
        if (!fine) add("html_attribute", `<${tag} ${a.name}="${a.value}">`, lines, [a.name + "=", a.name, a.value]);
      }
    }
    if (tag === "a" && attr(node, "href") !== undefined) {
      const href = attr(node, "href");
      const kind = hrefKind(href);
      if (kind === "web") {
        if (!allowed.has(normalizeUrl(href))) add("link", href, lines, linkEvidence(href));
      } else if (kind === "scheme:mailto") {
        // An address the source wrote may be mailed; any other, or any with a query (a body
        // or subject filled in), may not.
        const address = href.slice("mailto:".length);
        const named = allowed.has(normalizeUrl(href)) || allowed.has(normalizeUrl("mailto:" + address.toLowerCase()));
        if (!named || address.includes("?")) add("link_scheme_mailto", href, lines, linkEvidence(href).concat([address]));
      } else if (kind !== "internal") {
        add("link_" + kind.replace(":", "_"), href, lines, linkEvidence(href));
      }
    }
    if (tag === "img") {
      const srcAttr = attr(node, "src") || "";
      if (hrefKind(srcAttr) !== "internal") add("remote_image", srcAttr, lines, linkEvidence(srcAttr));
    }
    if (tag === "code") {
      const t = textOf(node).trim();
      // Dataview evaluates `= expr` (and `$= js` when inline JS is on) when something follows.
      const query = t.startsWith("$=") ? t.slice(2).trim() : t.startsWith("=") ? t.slice(1).trim() : "";
      if (query.length > 0) add("dataview_query", t, lines, [t.slice(0, 24), query.slice(0, 12)]);
    }
    if (DATAVIEW_CONTAINERS.has(tag) && depth < 3) {
      const inner = parse5.serializeOuter(node).replace(/^<[^>]*>/, "").replace(/<\/[a-z0-9]+>$/i, "");
      for (const field of extractInlineFields(inner)) {
        const sub = judgeMarkdown(field.value, [[0, field.value.length]], urls, depth + 1);
        for (const f of sub.findings) {
          add("dataview_field:" + f.kind, `[${field.key}:: ${field.value}] → ${f.what}`, lines, [field.key + "::"]);
        }
      }
    }
    walk(node, lines);
  }

  function isInCode(node) {
    for (let p = node.parentNode; p; p = p.parentNode) if (p.tagName === "code" || p.tagName === "pre") return true;
    return false;
  }

  // The raw written bytes: Templater reads the file itself, and invisible characters hide there
  // whatever the Markdown makes of them.
  for (const [a, b] of ranges) {
    const piece = text.slice(a, b);
    let at = piece.indexOf("<%");
    while (at >= 0) {
      findings.push({ kind: "templater", what: excerpt(piece.slice(at, at + 40)), line: lineOf(src, a + at) });
      at = piece.indexOf("<%", at + 2);
    }
    for (const { index, cp } of invisibleIn(piece)) {
      findings.push({ kind: "invisible", what: hex(cp), line: lineOf(src, a + index) });
    }
  }
  return { findings, dom, side, src };
}

function lineOf(src, i) {
  let l = 0;
  while (l + 1 < src.lineStarts.length && src.lineStarts[l + 1] <= i) l++;
  return l + 1;
}

function linkEvidence(href) {
  const out = [href];
  try {
    out.push(decodeURI(href));
  } catch {
    // Not decodable: the raw form only.
  }
  const host = href.replace(/^[a-z][a-z0-9+.-]*:\/*/i, "").split(/[/?#]/)[0];
  if (host) out.push(host);
  return out;
}

// ---------------------------------------------------------------------------------------------
// Dataview's inline fields, modelled from its behaviour: at each `[` or `(`, a key up to the
// first `::` (no brackets in it), then the value up to the matching close bracket, counting
// nesting and skipping backslash-escaped characters; scanned over a container's innerHTML.

export function extractInlineFields(line) {
  const pairs = { "[": "]", "(": ")" };
  const fields = [];
  for (const open of Object.keys(pairs)) {
    const close = pairs[open];
    let at = line.indexOf(open);
    while (at >= 0) {
      const field = fieldAt(line, at, open, close);
      if (!field) {
        at = line.indexOf(open, at + 1);
        continue;
      }
      fields.push(field);
      at = line.indexOf(open, field.end);
    }
  }
  return fields.sort((a, b) => a.start - b.start);
}

function fieldAt(line, start, open, close) {
  const sep = line.indexOf("::", start + 1);
  if (sep < 0) return undefined;
  const key = line.slice(start + 1, sep).trim();
  if (/[[\]()]/.test(key)) return undefined;
  let nesting = 0;
  let escaped = false;
  for (let i = sep + 2; i < line.length; i++) {
    const c = line[i];
    if (c === "\\") {
      escaped = !escaped;
      continue;
    }
    if (escaped) {
      escaped = false;
      continue;
    }
    if (c === open) nesting++;
    else if (c === close) nesting--;
    if (nesting < 0) return { key, value: line.slice(sep + 2, i).trim(), start, end: i + 1 };
  }
  return undefined;
}

// ---------------------------------------------------------------------------------------------
// Expectations for legitimate answers: each {tag, text?, within?} (an element of the written
// part with that exact text, inside an element `within`), {math: tex}, {mermaid: true},
// {wikilink: target}, {embed: target}, {link: href}, {text: s} (the written part's rendered text
// contains s), {code_block: lang}, {mono: s} (code, kbd or samp showing exactly s).

function checkExpectations(result, expect) {
  const missing = [];
  const nodes = [];
  for (const unit of result.dom) {
    if (!result.src.anyWritten(unit.lines[0], unit.lines[1])) continue;
    const stack = [{ node: unit.frag, parents: [] }];
    while (stack.length) {
      const { node, parents } = stack.pop();
      if (node.tagName) nodes.push({ node, parents });
      for (const c of node.childNodes || []) stack.push({ node: c, parents: node.tagName ? [...parents, node.tagName] : parents });
    }
  }
  const writtenText = nodes.filter((n) => n.parents.length === 0).map((n) => textOf(n.node)).join("\n");
  for (const e of expect || []) {
    let ok = false;
    if (e.tag) {
      ok = nodes.some(
        ({ node, parents }) =>
          node.tagName === e.tag &&
          attr(node, "data-judge") === undefined &&
          (e.text === undefined || textOf(node) === e.text) &&
          (e.within === undefined || parents.includes(e.within)),
      );
    } else if (e.mono !== undefined) {
      // Shown as code-like text (code, kbd, samp) with exactly these characters; whether it may
      // be a `code` element the findings decide (Dataview reads `=…` in code as a query).
      // What a reader sees: a word joiner (vaultsum's Dataview shaping) shows as nothing.
      ok = nodes.some(
        ({ node }) => ["code", "kbd", "samp"].includes(node.tagName) && textOf(node).replace(/\u2060/gu, "").trim() === e.mono,
      );
    } else if (e.embed !== undefined) {
      ok = nodes.some(({ node }) => attr(node, "data-kind") === "embed" && textOf(node) === e.embed);
    } else if (e.math !== undefined) {
      // TeX ignores spaces in math mode: `a< b` typesets as `a<b`.
      const tex = (t) => t.replace(/\s+/gu, "");
      ok = result.side.some((s) => s.kind === "math" && tex(s.content) === tex(e.math));
    } else if (e.mermaid) {
      ok = result.side.some((s) => s.kind === "mermaid");
    } else if (e.wikilink !== undefined) {
      ok = nodes.some(({ node }) => attr(node, "data-kind") === "wikilink" && attr(node, "data-href") === e.wikilink);
    } else if (e.link !== undefined) {
      ok = nodes.some(({ node }) => node.tagName === "a" && attr(node, "href") === e.link);
    } else if (e.code_block !== undefined) {
      ok = nodes.some(({ node }) => attr(node, "data-kind") === "fence" && attr(node, "data-lang") === e.code_block);
    } else if (e.text !== undefined) {
      ok = writtenText.includes(e.text);
    }
    if (!ok) missing.push(e);
  }
  return missing;
}

// ---------------------------------------------------------------------------------------------
// A note on disk.

/** Char ranges of `text` for byte ranges of its UTF-8 encoding. */
function charRanges(buf, byteRanges) {
  return byteRanges.map(([a, b]) => [buf.subarray(0, a).toString("utf8").length, buf.subarray(0, b).toString("utf8").length]);
}

/**
 * `\r\n` and a lone `\r` as `\n` (line endings for CommonMark and for Obsidian's editor alike),
 * with the ranges moved to match.
 */
function normalizeNewlines(text, ranges) {
  const map = new Array(text.length + 1);
  let out = "";
  for (let i = 0; i < text.length; i++) {
    map[i] = out.length;
    if (text[i] === "\r") {
      if (text[i + 1] === "\n") continue;
      out += "\n";
    } else {
      out += text[i];
    }
  }
  map[text.length] = out.length;
  return { text: out, ranges: ranges.map(([a, b]) => [map[a], map[b]]) };
}

export function judgeNote(buf, { written, urls, property, expect } = {}) {
  const normalized = normalizeNewlines(buf.toString("utf8"), written ? charRanges(buf, written) : [[0, buf.toString("utf8").length]]);
  const text = normalized.text;
  const ranges = normalized.ranges;
  const findings = [];
  let frontmatterKeys = [];
  // A BOM is the file's, not text; frontmatter is properties, not Markdown (blank it, keeping the
  // line numbers; a property is judged below as what Dataview renders).
  const fm = text.match(/^(\ufeff?)---\r?\n([\s\S]*?)\r?\n---[ \t]*(\r?\n|$)/);
  let body = text;
  if (fm) {
    body = fm[0].replace(/[^\n]/g, " ") + text.slice(fm[0].length);
    let data;
    try {
      data = YAML.parse(fm[2]);
    } catch (e) {
      findings.push({ kind: "frontmatter_invalid", what: excerpt(e.message), line: 1 });
    }
    if (data && typeof data === "object") {
      frontmatterKeys = Object.keys(data);
      if (property && data[property] !== undefined) {
        const value = String(data[property]);
        const sub = judgeMarkdown(value, [[0, value.length]], urls, 1);
        for (const f of sub.findings) findings.push({ ...f, kind: "property:" + f.kind, line: 1 });
      }
    }
  }
  const result = judgeMarkdown(body, ranges, urls);
  findings.push(...result.findings);
  const missing = checkExpectations(result, expect);
  return { findings, missing, frontmatter_keys: frontmatterKeys };
}

function notesUnder(dir) {
  const out = [];
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    if (entry.name.startsWith(".")) continue;
    const p = path.join(dir, entry.name);
    if (entry.isDirectory()) out.push(...notesUnder(p));
    else if (/\.(md|markdown|txt)$/i.test(entry.name)) out.push(p);
  }
  return out.sort();
}

/**
 * For judging a folder by hand with `--summaries`: the byte ranges of a note's `## Summary`
 * sections (to the next heading of level 1 or 2) without vaultsum's fingerprint line (or a
 * generated note's mark), and the
 * URLs and e-mail addresses of the rest of the note (what the source names). Null: none.
 */
export function summarySections(buf) {
  const text = buf.toString("latin1"); // one char per byte: offsets are byte offsets
  const lines = text.split(/(?<=\n)/);
  const ranges = [];
  let own = "";
  let inSummary = false;
  let at = 0;
  for (const line of lines) {
    const bare = line.replace(/\r?\n$/, "");
    if (/^#{1,2} /.test(bare)) inSummary = bare.trimEnd() === "## Summary";
    const mark = /^<!-- vaultsum: (note=[0-9a-f]+ summary=[0-9a-f]+|generated summary=[0-9a-f]+ lines=[0-9]+) -->$/;
    if (inSummary && !mark.test(bare)) {
      const last = ranges[ranges.length - 1];
      if (last && last[1] === at) last[1] = at + line.length;
      else ranges.push([at, at + line.length]);
    } else if (!inSummary) {
      own += line;
    }
    at += line.length;
  }
  if (ranges.length === 0) return null;
  own = Buffer.from(own, "latin1").toString("utf8");
  const urls = [...own.matchAll(/https?:\/\/[^\s<>()[\]"'`]+/g)].map((m) => m[0].replace(/[.,;]+$/, ""));
  for (const m of own.matchAll(/[\w.+-]+@[\w-]+(\.[\w-]+)+/g)) urls.push("mailto:" + m[0].toLowerCase());
  return { written: ranges, urls };
}

function main(argv) {
  let manifest;
  let base = process.cwd();
  if (argv[0] === "--dir") {
    const urls = [];
    for (let i = 2; i < argv.length; i++) if (argv[i] === "--url") urls.push(argv[++i]);
    const summaries = argv.includes("--summaries");
    manifest = { notes: [] };
    for (const p of notesUnder(argv[1])) {
      if (!summaries) {
        manifest.notes.push({ path: p, urls });
        continue;
      }
      const found = summarySections(fs.readFileSync(p));
      if (found) manifest.notes.push({ path: p, written: found.written, urls: urls.concat(found.urls) });
    }
  } else if (argv.length === 1) {
    manifest = JSON.parse(fs.readFileSync(argv[0], "utf8"));
    base = path.dirname(path.resolve(argv[0]));
  } else {
    process.stderr.write("usage: node judge.mjs MANIFEST.json | --dir FOLDER [--summaries] [--url URL]...\n");
    process.exit(2);
  }
  const notes = manifest.notes.map((n) => {
    const file = path.resolve(base, n.path);
    const verdict = judgeNote(fs.readFileSync(file), n);
    return { path: n.path, ...verdict };
  });
  const live = notes.reduce((s, n) => s + (n.findings.length > 0 ? 1 : 0), 0);
  process.stdout.write(JSON.stringify({ live, notes }, null, 1) + "\n");
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  main(process.argv.slice(2));
}
