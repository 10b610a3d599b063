//! Nothing outside the vault is read or written, and a summary write never loses a byte.

use crate::support;

#[cfg(unix)]
use std::os::unix::fs::PermissionsExt;

use crate::support::files::defused;
use support::temp_vault::TempVault;
use vaultsum_core::vault::{append_summary, VaultError};

fn outside_listing(v: &TempVault) -> Vec<(String, Vec<u8>)> {
    let mut files: Vec<(String, Vec<u8>)> = walkdir::WalkDir::new(v.outside())
        .into_iter()
        .filter_map(Result::ok)
        .filter(|e| e.file_type().is_file())
        .map(|e| {
            (
                e.path().display().to_string(),
                std::fs::read(e.path()).unwrap(),
            )
        })
        .collect();
    files.sort();
    files
}

#[test]
fn dot_dot_escapes_are_refused_with_the_path_named() {
    let v = TempVault::with(&[("a.md", "x")]);
    let vault = v.open();
    let err = vault.resolve_input("../x.md").unwrap_err();
    assert_eq!(err.to_string(), "path escapes the vault: ../x.md");
    assert!(matches!(
        vault.resolve_input("a/../../outside/s.md"),
        Err(VaultError::Escapes(_))
    ));
}

#[test]
fn absolute_paths_are_accepted_only_inside_the_vault() {
    let v = TempVault::with(&[("Notes/a.md", "x")]);
    let vault = v.open();
    let inside = v.root().join("Notes/a.md");
    assert_eq!(
        vault
            .resolve_input(inside.to_str().unwrap())
            .unwrap()
            .relative(),
        "Notes/a.md"
    );
    let outside = v.outside().join("s.md");
    assert!(matches!(
        vault.resolve_input(outside.to_str().unwrap()),
        Err(VaultError::Escapes(_))
    ));
    assert!(matches!(
        vault.resolve_input("/etc/passwd"),
        Err(VaultError::Escapes(_))
    ));
}

#[test]
fn nul_bytes_and_empty_paths_are_refused() {
    let v = TempVault::new();
    let vault = v.open();
    assert!(matches!(
        vault.resolve_input("a\0.md"),
        Err(VaultError::NulByte(_))
    ));
    assert!(matches!(
        vault.resolve_input("  "),
        Err(VaultError::EmptyPath)
    ));
}

#[cfg(unix)] // unix-only: see the Windows counterpart in tests/it/windows_paths.rs
#[test]
fn symlinks_leading_out_of_the_vault_are_refused() {
    let v = TempVault::new();
    std::fs::write(v.outside().join("secret.md"), "TOP SECRET").unwrap();
    std::os::unix::fs::symlink(v.outside().join("secret.md"), v.root().join("leak.md")).unwrap();
    std::os::unix::fs::symlink(v.outside(), v.root().join("door")).unwrap();
    let vault = v.open();
    assert!(matches!(
        vault.resolve_input("leak.md"),
        Err(VaultError::Escapes(_))
    ));
    assert!(matches!(
        vault.resolve_input("door/secret.md"),
        Err(VaultError::Escapes(_))
    ));
    assert!(matches!(
        vault.resolve_input("door/new.md"),
        Err(VaultError::Escapes(_))
    ));
}

#[cfg(unix)] // unix-only: see the Windows counterpart in tests/it/windows_paths.rs
#[test]
fn a_symlink_inside_the_vault_writes_the_real_note() {
    let v = TempVault::with(&[("real.md", "Body\n")]);
    std::os::unix::fs::symlink(v.root().join("real.md"), v.root().join("alias.md")).unwrap();
    let vault = v.open();
    let note = vault.resolve_input("alias.md").unwrap();
    append_summary(&vault, &note, b"Body\n", &defused("S."), false).unwrap();
    assert!(std::fs::symlink_metadata(v.root().join("alias.md"))
        .unwrap()
        .file_type()
        .is_symlink());
    assert_eq!(v.read("real.md"), b"Body\n\n## Summary\n\nS.\n");
}

#[cfg(unix)] // unix-only: see the Windows counterpart in tests/it/windows_paths.rs
#[tokio::test]
async fn embeds_pointing_outside_are_markers_and_nothing_outside_is_read() {
    let v = TempVault::with(&[(
        "Main.md",
        "![[leak]]\n![[../outside/secret]]\n![x](../outside/pic.png)\n![[door/secret]]\n",
    )]);
    std::fs::write(v.outside().join("secret.md"), "TOP SECRET").unwrap();
    std::fs::write(v.outside().join("pic.png"), "png").unwrap();
    std::os::unix::fs::symlink(v.outside().join("secret.md"), v.root().join("leak.md")).unwrap();
    std::os::unix::fs::symlink(v.outside(), v.root().join("door")).unwrap();
    let out = v.expand("Main.md").await;
    assert!(!out.text.contains("TOP SECRET"), "{}", out.text);
    assert!(out.text.contains("[Embed failed: leak: outside the vault]"));
    assert!(out
        .text
        .contains("[Embed failed: ../outside/secret: outside the vault]"));
    assert!(out
        .text
        .contains("[Embed failed: ../outside/pic.png: outside the vault]"));
    assert!(
        out.text.contains("[Embed failed: door/secret: not found]"),
        "symlinked folders are not indexed"
    );
}

#[test]
fn writes_under_obsidian_git_and_trash_are_refused() {
    let v = TempVault::with(&[
        (".obsidian/x.md", "a"),
        (".git/y.md", "b"),
        (".trash/z.md", "c"),
    ]);
    let vault = v.open();
    for (path, dir) in [
        (".obsidian/x.md", ".obsidian"),
        (".git/y.md", ".git"),
        (".trash/z.md", ".trash"),
    ] {
        let note = vault.resolve_input(path).unwrap();
        let err = append_summary(&vault, &note, b"", &defused("S."), false).unwrap_err();
        assert_eq!(
            err.to_string(),
            format!("refusing to write inside {dir}/: {path}")
        );
    }
    assert_eq!(v.read(".obsidian/x.md"), b"a");
}

#[test]
fn writes_into_any_hidden_folder_are_refused_like_obsidians() {
    // Syncthing keeps old versions in `.stversions/`; Obsidian shows no dot-folder, and neither
    // the index nor the watcher nor the writer treats one as part of the vault.
    let v = TempVault::with(&[
        (".stversions/Idea~20240101.md", "old"),
        ("Notes/.draft.md", "d"),
    ]);
    let vault = v.open();
    let note = vault.resolve_input(".stversions/Idea~20240101.md").unwrap();
    let err = append_summary(&vault, &note, b"", &defused("S."), false).unwrap_err();
    assert_eq!(
        err.to_string(),
        "refusing to write inside .stversions/: .stversions/Idea~20240101.md"
    );
    let note = vault.resolve_input("Notes/.draft.md").unwrap();
    let err = append_summary(&vault, &note, b"", &defused("S."), false).unwrap_err();
    assert_eq!(
        err.to_string(),
        "refusing to write a hidden file: Notes/.draft.md"
    );
    assert_eq!(v.read(".stversions/Idea~20240101.md"), b"old");
    assert_eq!(v.read("Notes/.draft.md"), b"d");
}

#[test]
fn only_notes_can_be_written() {
    let v = TempVault::with(&[("pic.png", "png")]);
    let vault = v.open();
    let note = vault.resolve_input("pic.png").unwrap();
    let err = append_summary(&vault, &note, b"png", &defused("S."), false).unwrap_err();
    assert_eq!(
        err.to_string(),
        "not a note (only .md, .markdown and .txt can be written): pic.png"
    );
    assert_eq!(v.read("pic.png"), b"png");
}

#[test]
fn missing_note_is_reported_by_name() {
    let v = TempVault::new();
    let vault = v.open();
    let note = vault.resolve_input("Foo.md").unwrap();
    let err = append_summary(&vault, &note, b"", &defused("S."), false).unwrap_err();
    assert_eq!(err.to_string(), "note not found: Foo.md");
}

#[cfg(unix)] // unix-only: see the Windows counterpart in tests/it/windows_paths.rs
#[test]
fn write_keeps_permissions_and_leaves_no_temp_files() {
    let v = TempVault::with(&[("Notes/a.md", "Body")]);
    let path = v.root().join("Notes/a.md");
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o640)).unwrap();
    let vault = v.open();
    let note = vault.resolve_input("Notes/a.md").unwrap();
    let outcome = append_summary(&vault, &note, b"Body", &defused("Sum."), false).unwrap();
    assert!(!outcome.stale);
    assert_eq!(
        std::fs::metadata(&path).unwrap().permissions().mode() & 0o777,
        0o640
    );
    assert_eq!(v.read("Notes/a.md"), b"Body\n\n## Summary\n\nSum.\n");
    assert_eq!(outcome.bytes_written, v.read("Notes/a.md").len());
    let names: Vec<_> = std::fs::read_dir(v.root().join("Notes"))
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(names, vec!["a.md"]);
}

#[test]
fn crlf_note_stays_crlf_and_bom_is_kept() {
    let original = b"\xEF\xBB\xBFLine one\r\nLine two\r\n";
    let v = TempVault::new();
    v.write("w.md", original);
    let vault = v.open();
    let note = vault.resolve_input("w.md").unwrap();
    append_summary(&vault, &note, original, &defused("Point a\nPoint b"), false).unwrap();
    let written = v.read("w.md");
    assert!(written.starts_with(original));
    assert_eq!(
        &written[original.len()..],
        b"\r\n## Summary\r\n\r\nPoint a\r\nPoint b\r\n"
    );
}

#[test]
fn a_note_edited_meanwhile_keeps_the_edits_and_is_stale() {
    let v = TempVault::with(&[("n.md", "Draft\nAdded while the LLM worked\n")]);
    let vault = v.open();
    let note = vault.resolve_input("n.md").unwrap();
    let outcome = append_summary(&vault, &note, b"Draft\n", &defused("S."), false).unwrap();
    assert!(outcome.stale);
    assert_eq!(
        v.read("n.md"),
        b"Draft\nAdded while the LLM worked\n\n## Summary\n\nS.\n"
    );
}

#[cfg(unix)] // unix-only: see the Windows counterpart in tests/it/windows_paths.rs
#[test]
fn failed_writes_leave_the_note_unchanged() {
    let v = TempVault::with(&[("n.md", "Body\n"), ("ro.md", "Read only\n")]);
    let ro = v.root().join("ro.md");
    std::fs::set_permissions(&ro, std::fs::Permissions::from_mode(0o444)).unwrap();
    let vault = v.open();
    let note = vault.resolve_input("n.md").unwrap();
    assert!(matches!(
        append_summary(&vault, &note, b"Body\n", &defused("  \n"), false),
        Err(VaultError::EmptySummary(_))
    ));
    assert_eq!(v.read("n.md"), b"Body\n");
    let ro_note = vault.resolve_input("ro.md").unwrap();
    assert!(matches!(
        append_summary(&vault, &ro_note, b"Read only\n", &defused("S"), false),
        Err(VaultError::ReadOnly(_))
    ));
    assert_eq!(v.read("ro.md"), b"Read only\n");
}

#[test]
fn nothing_outside_the_vault_changes_during_writes() {
    let v = TempVault::with(&[("n.md", "Body\n")]);
    std::fs::write(v.outside().join("keep.md"), "outside").unwrap();
    let before = outside_listing(&v);
    let vault = v.open();
    for input in ["../outside/keep.md", "n.md"] {
        if let Ok(note) = vault.resolve_input(input) {
            append_summary(&vault, &note, b"Body\n", &defused("S."), false).unwrap();
        }
    }
    assert_eq!(outside_listing(&v), before);
}

#[test]
fn index_skips_dot_folders_and_stays_warm_incrementally() {
    let v = TempVault::with(&[
        ("a.md", "x"),
        (".obsidian/app.json", "{}"),
        (".trash/old.md", "y"),
    ]);
    let vault = v.open();
    assert_eq!(vault.notes(), vec!["a.md"]);
    v.write("New/b.md", "z");
    vault.note_created("New/b.md");
    vault.note_removed("a.md");
    assert_eq!(vault.notes(), vec!["New/b.md"]);
    vault.refresh_index();
    assert_eq!(vault.notes(), vec!["New/b.md", "a.md"]);
}

mod compose_properties {
    use proptest::prelude::*;
    use vaultsum_core::vault::compose_with_summary;
    use vaultsum_core::vault::note_end::closing_lines;

    fn note_bytes() -> impl Strategy<Value = Vec<u8>> {
        let pieces = prop_oneof![
            Just(b"\r\n".to_vec()),
            Just(b"\n".to_vec()),
            Just(b"## Summary\n".to_vec()),
            Just(b"# Title\n".to_vec()),
            Just(b"```\n".to_vec()),
            Just(b"   ".to_vec()),
            "[a-z .]{1,12}".prop_map(String::into_bytes),
            proptest::collection::vec(any::<u8>(), 1..4),
        ];
        (any::<bool>(), proptest::collection::vec(pieces, 0..20)).prop_map(|(bom, parts)| {
            let mut out = if bom {
                b"\xEF\xBB\xBF".to_vec()
            } else {
                Vec::new()
            };
            out.extend(parts.concat());
            out
        })
    }

    proptest! {
        #[test]
        fn original_is_an_exact_prefix_and_the_summary_ends_the_file(note in note_bytes(), summary in "[a-z]{1,10}( [a-z]{1,10}){0,3}") {
            // A note left inside a block that runs or hides is refused (note_end.rs); others
            // get the lines that close what they leave open, then line breaks, then the section.
            let closing = std::str::from_utf8(&note)
                .map(|text| closing_lines(text, "\n"))
                .unwrap_or(Ok(String::new()));
            let Ok(out) = compose_with_summary(&note, &summary, false) else {
                prop_assert!(closing.is_err(), "refused only for what is left open");
                return Ok(());
            };
            prop_assert!(out.starts_with(&note));
            let tail = String::from_utf8_lossy(&out[note.len()..]).into_owned();
            let tail = tail.replace("\r\n", "\n");
            prop_assert!(tail.ends_with(&format!("## Summary\n\n{summary}\n")), "tail {:?}", tail);
            let before_heading = &tail[..tail.len() - summary.len() - 13];
            let closing = closing.unwrap_or_default();
            let added = before_heading.replacen(&closing, "", 1);
            prop_assert!(before_heading.contains(&closing), "the closing lines {:?} in {:?}", closing, before_heading);
            prop_assert!(added.chars().all(|c| c == '\n'), "only closing lines and line breaks are added before the heading");
        }

        #[test]
        fn replace_keeps_everything_before_the_first_summary(note in note_bytes(), summary in "[a-z]{1,10}") {
            let Ok(out) = compose_with_summary(&note, &summary, true) else {
                return Ok(());
            };
            let text = String::from_utf8_lossy(&note).into_owned();
            let keep = match text.find("## Summary") { Some(at) if std::str::from_utf8(&note).is_ok() => at.min(note.len()), _ => note.len() };
            let head = &note[..keep];
            let head_trimmed = String::from_utf8_lossy(head).trim_end().len();
            prop_assert!(out.starts_with(&head[..head_trimmed.min(head.len())]));
            let out_text = String::from_utf8_lossy(&out).replace("\r\n", "\n");
            let expected_tail = format!("## Summary\n\n{summary}\n");
            prop_assert!(out_text.ends_with(&expected_tail));
        }
    }
}
