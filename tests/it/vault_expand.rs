//! Embed expansion over real files in a temp vault.

use crate::support;

use std::sync::atomic::{AtomicUsize, Ordering};

use proptest::prelude::*;
use support::temp_vault::TempVault;
use vaultsum_core::vault::{
    expand_note, AttachmentKind, AttachmentReader, ExpandOptions, PlaceholderAttachments, VaultPath,
};

const PROJECT: &str = "---\ntags: [project]\n---\n# Alpha\nIntro line.\n## Goals\nShip it.\n### Detail\nDeep detail.\n## Risks\nLate vendor. ^risk1\n\n- item one\n- item two ^item2\n  - child of two\n";

#[tokio::test]
async fn whole_note_embed_is_a_labelled_quote_without_frontmatter() {
    let v = TempVault::with(&[
        ("Alpha.md", PROJECT),
        ("Main.md", "Before\n![[Alpha]]\nAfter\n"),
    ]);
    let out = v.expand("Main.md").await;
    assert!(out
        .text
        .starts_with("Before\n> [Embedded: Alpha]\n> # Alpha\n> Intro line.\n"));
    assert!(!out.text.contains("tags: [project]"));
    assert!(
        out.text.ends_with("> ---\n>   - child of two\nAfter\n")
            || out.text.ends_with(">   - child of two\nAfter\n")
    );
}

#[tokio::test]
async fn heading_embed_includes_subheadings_and_stops_at_the_next_sibling() {
    let v = TempVault::with(&[("Alpha.md", PROJECT), ("Main.md", "![[Alpha#goals]]\n")]);
    let out = v.expand("Main.md").await;
    assert_eq!(
        out.text,
        "> [Embedded: Alpha#goals]\n> ## Goals\n> Ship it.\n> ### Detail\n> Deep detail.\n"
    );
}

#[tokio::test]
async fn nested_heading_path_and_same_note_heading() {
    let v = TempVault::with(&[
        ("Alpha.md", PROJECT),
        (
            "Main.md",
            "![[Alpha#Goals#Detail]]\n\n![[#Local]]\n\n## Local\nlocal text\n",
        ),
    ]);
    let out = v.expand("Main.md").await;
    assert!(out
        .text
        .starts_with("> [Embedded: Alpha#Goals#Detail]\n> ### Detail\n> Deep detail.\n"));
    assert!(out
        .text
        .contains("> [Embedded: #Local]\n> ## Local\n> local text\n"));
}

#[tokio::test]
async fn block_embeds_take_the_paragraph_or_the_item_with_children() {
    let v = TempVault::with(&[
        ("Alpha.md", PROJECT),
        ("Main.md", "![[Alpha#^risk1]]\n![[Alpha#^item2]]\n"),
    ]);
    let out = v.expand("Main.md").await;
    assert!(out
        .text
        .contains("> [Embedded: Alpha#^risk1]\n> Late vendor.\n"));
    assert!(out
        .text
        .contains("> [Embedded: Alpha#^item2]\n> - item two\n>   - child of two\n"));
    assert!(!out.text.contains("^item2\n>"));
}

/// `![[image.png]]^id` with no space, as Obsidian's own help vault writes it: the id names the
/// embed's block, and it is not part of the embedded file's name.
#[tokio::test]
async fn an_embed_followed_by_its_block_id_is_that_block() {
    let v = TempVault::with(&[
        ("Guide.md", "Intro.\n\n![[Manual]]^fig1\n\nAfter.\n"),
        ("Manual.md", "The manual's text.\n"),
        ("Main.md", "![[Guide#^fig1]]\n"),
    ]);
    let out = v.expand("Main.md").await;
    assert!(
        out.text.contains(
            "> [Embedded: Guide#^fig1]\n> > [Embedded: Manual]\n> > The manual's text.\n"
        ),
        "{}",
        out.text
    );
    assert!(
        !out.text.contains("Intro") && !out.text.contains("After"),
        "{}",
        out.text
    );
    assert!(
        !out.text.contains("^fig1\n"),
        "the id is hidden: {}",
        out.text
    );
    // Read directly, the guide's embed resolves to Manual.md, not to `Manual]]^fig1`.
    let guide = v.expand("Guide.md").await;
    assert!(
        guide.text.contains("> The manual's text.\n"),
        "{}",
        guide.text
    );
}

#[tokio::test]
async fn alias_and_size_are_not_part_of_the_target() {
    let v = TempVault::with(&[
        ("Alpha.md", PROJECT),
        ("Main.md", "![[Alpha#Risks|the risks]]\n"),
    ]);
    let out = v.expand("Main.md").await;
    assert!(out
        .text
        .starts_with("> [Embedded: Alpha#Risks]\n> ## Risks\n"));
}

#[tokio::test]
async fn embeds_in_code_are_left_verbatim() {
    let src = "`![[Alpha]]`\n\n```\n![[Alpha]]\n```\n";
    let v = TempVault::with(&[("Alpha.md", PROJECT), ("Main.md", src)]);
    let out = v.expand("Main.md").await;
    assert_eq!(out.text, src);
}

#[tokio::test]
async fn comments_are_dropped_with_the_embeds_inside_them() {
    let v = TempVault::with(&[
        ("Alpha.md", PROJECT),
        ("Main.md", "Keep %%private ![[Alpha]]%%this.\n"),
    ]);
    let out = v.expand("Main.md").await;
    assert_eq!(out.text, "Keep this.\n");
}

#[tokio::test]
async fn cycles_are_reported_not_followed() {
    let v = TempVault::with(&[("A.md", "A text\n![[B]]\n"), ("B.md", "B text\n![[A]]\n")]);
    let out = v.expand("A.md").await;
    assert!(
        out.text.contains("> B text\n> [Embed failed: A: cycle]"),
        "{}",
        out.text
    );
    assert_eq!(out.details["failures"][0]["reason"], "cycle");
}

#[tokio::test]
async fn depth_limit_stops_deep_chains() {
    let v = TempVault::with(&[
        ("N0.md", "![[N1]]\n"),
        ("N1.md", "one ![[N2]]\n"),
        ("N2.md", "two ![[N3]]\n"),
        ("N3.md", "three\n"),
    ]);
    let opts = ExpandOptions {
        max_depth: 2,
        ..ExpandOptions::default()
    };
    let out = v.expand_with("N0.md", opts).await;
    assert!(out.text.contains("two"));
    assert!(out
        .text
        .contains("[Embed failed: N3: depth limit reached (2)]"));
    assert!(!out.text.contains("three"));
}

#[tokio::test]
async fn size_budget_stops_runaway_fan_out() {
    let big = "word ".repeat(400);
    let v = TempVault::with(&[
        ("Big.md", &big),
        ("Main.md", "![[Big]]\n![[Big]]\n![[Big]]\n"),
    ]);
    let opts = ExpandOptions {
        max_total_bytes: 4500,
        ..ExpandOptions::default()
    };
    let out = v.expand_with("Main.md", opts).await;
    assert_eq!(out.text.matches("[Embedded: Big]").count(), 2);
    assert!(out
        .text
        .contains("[Embed failed: Big: size budget exhausted]"));
    assert_eq!(out.details["budget_exhausted"], true);
}

#[tokio::test]
async fn failures_name_the_reference_and_the_reason() {
    let v = TempVault::with(&[
        ("Alpha.md", PROJECT),
        ("Main.md", "![[Nope]] ![[Alpha#Nope]] ![[Alpha#^nope]] ![[]] ![[....]] ![[../../outside/secret]]\n"),
    ]);
    v.write("../outside/secret.md", "TOP SECRET");
    let out = v.expand("Main.md").await;
    for marker in [
        "[Embed failed: Nope: not found]",
        "[Embed failed: Alpha#Nope: heading not found]",
        "[Embed failed: Alpha#^nope: block not found]",
        "[Embed failed: ![[]]: empty embed, no target]",
        "[Embed failed: ....: not found]",
        "[Embed failed: ../../outside/secret: outside the vault]",
    ] {
        assert!(
            out.text.contains(marker),
            "missing {marker} in {}",
            out.text
        );
    }
    assert!(!out.text.contains("TOP SECRET"));
}

#[tokio::test]
async fn embed_inside_a_callout_stays_inside_it() {
    let v = TempVault::with(&[
        ("Snip.md", "line one\nline two\n"),
        ("Main.md", "> [!note]\n> ![[Snip]]\n"),
    ]);
    let out = v.expand("Main.md").await;
    assert_eq!(
        out.text,
        "> [!note]\n> > [Embedded: Snip]\n> > line one\n> > line two\n"
    );
}

#[tokio::test]
async fn mid_sentence_embed_starts_its_own_lines() {
    let v = TempVault::with(&[
        ("Snip.md", "inner\n"),
        ("Main.md", "see ![[Snip]] then more\n"),
    ]);
    let out = v.expand("Main.md").await;
    assert_eq!(out.text, "see \n> [Embedded: Snip]\n> inner\n then more\n");
}

#[tokio::test]
async fn ambiguous_links_are_reported_in_details() {
    let v = TempVault::with(&[
        ("Projects/Alpha/Plan.md", "alpha plan\n"),
        ("Archive/Plan.md", "archived plan\n"),
        ("Projects/Alpha/Meeting.md", "![[Plan]]\n"),
        ("Elsewhere/Note.md", "![[Plan]]\n"),
    ]);
    let meeting = v.expand("Projects/Alpha/Meeting.md").await;
    assert!(meeting.text.contains("alpha plan"));
    let elsewhere = v.expand("Elsewhere/Note.md").await;
    assert!(
        elsewhere.text.contains("archived plan"),
        "shortest path wins"
    );
    assert_eq!(
        elsewhere.details["ambiguous"][0]["chosen"],
        "Archive/Plan.md"
    );
    assert_eq!(
        elsewhere.details["ambiguous"][0]["alternatives"][0],
        "Projects/Alpha/Plan.md"
    );
}

/// Counts calls so tests can check each attachment is read once per expansion.
struct CountingReader(AtomicUsize);

#[async_trait::async_trait]
impl AttachmentReader for CountingReader {
    async fn read_attachment(
        &self,
        path: &VaultPath,
        kind: AttachmentKind,
    ) -> Result<String, String> {
        self.0.fetch_add(1, Ordering::SeqCst);
        Ok(format!(
            "described {kind:?} {}\nsecond line",
            path.relative()
        ))
    }
}

#[tokio::test]
async fn attachments_go_through_the_reader_once_each() {
    let v = TempVault::with(&[
        ("Main.md", "![[pic.png|300]]\n\n> ![pic again](img/pic.png)\n\n| a |\n|---|\n| ![[pic.png\\|100]] |\n\n![[talk.wav]]\n![[doc.pdf]]\n"),
        ("img/pic.png", "png"),
        ("talk.wav", "wav"),
        ("doc.pdf", "pdf"),
    ]);
    let vault = v.open();
    let note = vault.resolve_input("Main.md").unwrap();
    let reader = CountingReader(AtomicUsize::new(0));
    let out = expand_note(&vault, &note, &ExpandOptions::default(), &reader)
        .await
        .unwrap();
    assert_eq!(
        reader.0.load(Ordering::SeqCst),
        2,
        "pic once, wav once, pdf never"
    );
    assert!(out.text.starts_with(
        "> [Embedded image: img/pic.png]\n> described Image img/pic.png\n> second line\n"
    ));
    assert!(out.text.contains(
        "> > [Embedded image: img/pic.png (alt text: pic again)]\n> > described Image img/pic.png\n> > second line\n"
    ));
    assert!(out
        .text
        .contains("| [Embedded image: img/pic.png] described Image img/pic.png second line |"));
    assert!(out
        .text
        .contains("> [Embedded audio: talk.wav]\n> described Audio talk.wav"));
    assert!(out
        .text
        .contains("> [Embedded pdf: doc.pdf]\n> (pdf doc.pdf: not supported yet)"));
}

#[tokio::test]
async fn placeholder_reader_names_the_file() {
    let v = TempVault::with(&[
        ("Main.md", "![[a b.png]]\n![x](a%20b.png)\n"),
        ("a b.png", "x"),
    ]);
    let out = v.expand("Main.md").await;
    assert_eq!(
        out.text
            .matches("(image a b.png: no vision model configured)")
            .count(),
        2
    );
}

#[tokio::test]
async fn web_images_are_left_as_they_are() {
    let src = "![logo](https://example.com/logo.png)\n";
    let v = TempVault::with(&[("Main.md", src)]);
    assert_eq!(v.expand("Main.md").await.text, src);
    let _ = PlaceholderAttachments;
}

/// Text outside the replaced embeds and comments is copied byte for byte and in order, and
/// every replaced range is an embed or a comment.
fn bytes_outside_replacements_are_kept(
    body: &str,
    out: &vaultsum_core::vault::Expansion,
) -> Result<(), TestCaseError> {
    let mut src_pos = 0;
    let mut out_pos = 0;
    for r in &out.replacements {
        let kept = &body[src_pos..r.source.start];
        prop_assert_eq!(&out.text[out_pos..out_pos + kept.len()], kept);
        prop_assert_eq!(out_pos + kept.len(), r.output.start);
        let replaced = &body[r.source.clone()];
        prop_assert!(
            replaced.starts_with("![") || replaced.starts_with("%%"),
            "replaced {:?}",
            replaced
        );
        src_pos = r.source.end;
        out_pos = r.output.end;
    }
    prop_assert_eq!(&out.text[out_pos..], &body[src_pos..]);
    Ok(())
}

fn runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_current_thread()
        .build()
        .unwrap()
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    /// Whatever the note holds, text outside the replaced embeds and comments is copied byte
    /// for byte, in order, and every replaced range is an embed or a comment.
    #[test]
    fn expansion_keeps_every_byte_outside_embeds(body in "(?s)([a-z #>|`%!\\[\\]()^\n-]|\\!\\[\\[Alpha(#Goals|#\\^item2)?\\]\\]|\\!\\[\\[\\]\\]|%%|```\n){0,60}") {
        let v = TempVault::with(&[("Alpha.md", PROJECT), ("Main.md", &body)]);
        let out = runtime().block_on(v.expand("Main.md"));
        bytes_outside_replacements_are_kept(&body, &out)?;
    }

    /// No input panics: arbitrary text as the note and as every kind of embedded target.
    #[test]
    fn arbitrary_notes_and_targets_never_panic(note in "\\PC{0,200}", target in "(\\PC|\n|\\^x|# H\n|%%|`|> |- |\\|){0,80}") {
        let main = format!("{note}\n![[T]] ![[T#H]] ![[T#^x]] ![[T#H#H]]\n");
        let v = TempVault::with(&[("Main.md", main.as_str()), ("T.md", target.as_str())]);
        let out = runtime().block_on(v.expand("Main.md"));
        bytes_outside_replacements_are_kept(&main, &out)?;
    }

    /// Plain text around embeds comes through unchanged, each embed becomes its section.
    #[test]
    fn plain_text_around_embeds_is_unchanged(parts in proptest::collection::vec("[a-zA-Z ,.]{0,30}", 1..6)) {
        let body = parts.join("\n\n![[Alpha#Risks]]\n\n");
        let v = TempVault::with(&[("Alpha.md", PROJECT), ("Main.md", &body)]);
        let out = runtime().block_on(v.expand("Main.md"));
        let block = "> [Embedded: Alpha#Risks]\n> ## Risks\n> Late vendor.\n>\n> - item one\n> - item two\n>   - child of two";
        prop_assert_eq!(out.text, parts.join(&format!("\n\n{block}\n\n")));
    }
}

#[tokio::test]
async fn a_long_lived_vault_sees_edits_to_embedded_notes() {
    let v = TempVault::with(&[("Snip.md", "old text\n"), ("Main.md", "![[Snip]]\n")]);
    let vault = v.open();
    let note = vault.resolve_input("Main.md").unwrap();
    let first = expand_note(
        &vault,
        &note,
        &ExpandOptions::default(),
        &PlaceholderAttachments,
    )
    .await
    .unwrap();
    assert!(first.text.contains("old text"));
    v.write("Snip.md", "the new and longer text\n");
    let second = expand_note(
        &vault,
        &note,
        &ExpandOptions::default(),
        &PlaceholderAttachments,
    )
    .await
    .unwrap();
    assert!(
        second.text.contains("the new and longer text"),
        "{}",
        second.text
    );
}

#[cfg(unix)] // unix-only: see the Windows counterpart in tests/it/windows_paths.rs
#[tokio::test]
async fn an_embedded_note_swapped_for_a_symlink_out_of_the_vault_is_refused() {
    let v = TempVault::with(&[("Snip.md", "inside\n"), ("Main.md", "![[Snip]]\n")]);
    std::fs::write(v.outside().join("secret.md"), "TOP SECRET\n").unwrap();
    let vault = v.open();
    let note = vault.resolve_input("Main.md").unwrap();
    let opts = ExpandOptions::default();
    assert!(expand_note(&vault, &note, &opts, &PlaceholderAttachments)
        .await
        .unwrap()
        .text
        .contains("inside"));
    std::fs::remove_file(v.root().join("Snip.md")).unwrap();
    std::os::unix::fs::symlink(v.outside().join("secret.md"), v.root().join("Snip.md")).unwrap();
    let out = expand_note(&vault, &note, &opts, &PlaceholderAttachments)
        .await
        .unwrap();
    assert!(!out.text.contains("TOP SECRET"));
    assert!(out.text.contains("[Embed failed: Snip: outside the vault]"));
}

#[tokio::test]
async fn a_long_lived_vault_rereads_an_embedded_note_edited_to_the_same_length() {
    let v = TempVault::with(&[
        ("Alpha.md", "# Alpha\nversion one\n"),
        ("Main.md", "![[Alpha]]\n"),
    ]);
    let vault = v.open();
    let main = vault.resolve_input("Main.md").unwrap();
    let opts = ExpandOptions::default();
    let first = expand_note(&vault, &main, &opts, &PlaceholderAttachments)
        .await
        .unwrap();
    assert!(first.text.contains("version one"), "{}", first.text);
    // Same size, written at once: size and modification time may well not change.
    std::fs::write(v.root().join("Alpha.md"), "# Alpha\nversion two\n").unwrap();
    let second = expand_note(&vault, &main, &opts, &PlaceholderAttachments)
        .await
        .unwrap();
    assert!(second.text.contains("version two"), "{}", second.text);
}

/// Sets the modification time of `path` to `ago` before now.
fn age(path: &std::path::Path, ago: std::time::Duration) {
    std::fs::File::options()
        .write(true)
        .open(path)
        .unwrap()
        .set_modified(std::time::SystemTime::now() - ago)
        .unwrap();
}

#[tokio::test]
async fn a_batch_read_shows_each_note_as_it_first_read_it() {
    // `vaultsum read` keeps notes as first read: a note embedded by many is looked at on disk
    // once, and every place it shows in gives that one version, even when it changes during
    // the command.
    let v = TempVault::with(&[
        ("Alpha.md", "# Alpha\nversion one\n"),
        ("Main.md", "![[Alpha]]\n"),
        ("Other.md", "![[Alpha]]\n"),
    ]);
    let vault = v.open();
    vault.keep_notes_as_first_read();
    let opts = ExpandOptions::default();
    let main = vault.resolve_input("Main.md").unwrap();
    let embedded = expand_note(&vault, &main, &opts, &PlaceholderAttachments)
        .await
        .unwrap();
    assert!(embedded.text.contains("version one"), "{}", embedded.text);
    std::fs::write(v.root().join("Alpha.md"), "# Alpha\nversion two, longer\n").unwrap();
    let other = vault.resolve_input("Other.md").unwrap();
    let again = expand_note(&vault, &other, &opts, &PlaceholderAttachments)
        .await
        .unwrap();
    assert!(again.text.contains("version one"), "{}", again.text);
    let alpha = vault.resolve_input("Alpha.md").unwrap();
    let read = expand_note(&vault, &alpha, &opts, &PlaceholderAttachments)
        .await
        .unwrap();
    assert_eq!(read.text, "# Alpha\nversion one\n");
    // A note this command never read is read from disk as it is now.
    std::fs::write(v.root().join("New.md"), "fresh\n").unwrap();
    let new = vault.resolve_input("New.md").unwrap();
    let read = expand_note(&vault, &new, &opts, &PlaceholderAttachments)
        .await
        .unwrap();
    assert_eq!(read.text, "fresh\n");
}

#[tokio::test]
async fn a_note_parsed_as_an_embed_and_then_edited_reads_its_new_text() {
    // An hour old: its stamp vouches for the copy parsed while expanding Main, so reading
    // Alpha itself next may use that copy, but only while the file keeps that stamp.
    let v = TempVault::with(&[
        (
            "Alpha.md",
            "# Alpha
version one
",
        ),
        (
            "Main.md",
            "![[Alpha]]
",
        ),
    ]);
    let hour = std::time::Duration::from_secs(3600);
    age(&v.root().join("Alpha.md"), hour);
    let vault = v.open();
    let opts = ExpandOptions::default();
    let main = vault.resolve_input("Main.md").unwrap();
    let alpha = vault.resolve_input("Alpha.md").unwrap();
    let embedded = expand_note(&vault, &main, &opts, &PlaceholderAttachments)
        .await
        .unwrap();
    assert!(embedded.text.contains("version one"), "{}", embedded.text);
    let read = expand_note(&vault, &alpha, &opts, &PlaceholderAttachments)
        .await
        .unwrap();
    assert_eq!(read.text, "# Alpha\nversion one\n");
    // Edited to the same length, and dated in the past too: only the time differs.
    std::fs::write(v.root().join("Alpha.md"), "# Alpha\nversion two\n").unwrap();
    age(&v.root().join("Alpha.md"), 2 * hour);
    let read = expand_note(&vault, &alpha, &opts, &PlaceholderAttachments)
        .await
        .unwrap();
    assert_eq!(read.text, "# Alpha\nversion two\n");
    // Deleted: not found, never the copy.
    std::fs::remove_file(v.root().join("Alpha.md")).unwrap();
    assert!(expand_note(&vault, &alpha, &opts, &PlaceholderAttachments)
        .await
        .is_err());
}

#[cfg(unix)] // unix-only: see the Windows counterpart in tests/it/windows_paths.rs
#[tokio::test]
async fn a_long_lived_vault_refuses_a_folder_swapped_for_a_symlink_out() {
    let v = TempVault::with(&[
        ("Sub/Secret.md", "# Secret\ninside text\n"),
        ("Main.md", "![[Sub/Secret]]\n"),
    ]);
    std::fs::create_dir_all(v.outside().join("elsewhere")).unwrap();
    std::fs::write(
        v.outside().join("elsewhere/Secret.md"),
        "# Secret\nTOP SECRET\n",
    )
    .unwrap();
    let vault = v.open();
    let main = vault.resolve_input("Main.md").unwrap();
    let opts = ExpandOptions::default();
    let first = expand_note(&vault, &main, &opts, &PlaceholderAttachments)
        .await
        .unwrap();
    assert!(first.text.contains("inside text"), "{}", first.text);
    // The index still lists Sub/Secret.md; the folder now leads out of the vault.
    std::fs::remove_dir_all(v.root().join("Sub")).unwrap();
    std::os::unix::fs::symlink(v.outside().join("elsewhere"), v.root().join("Sub")).unwrap();
    let second = expand_note(&vault, &main, &opts, &PlaceholderAttachments)
        .await
        .unwrap();
    assert!(!second.text.contains("TOP SECRET"), "{}", second.text);
    assert!(
        second
            .text
            .contains("[Embed failed: Sub/Secret: outside the vault]"),
        "{}",
        second.text
    );
}
