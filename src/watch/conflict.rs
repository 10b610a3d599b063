//! Sync-conflict copies: the duplicates sync tools leave beside a note when two devices edited
//! it. Summarizing them would put a second summary of the same meeting into the vault.
//!
//! The rule, by file name (the extension is ignored):
//! - Syncthing: the name contains `.sync-conflict-` (`Note.sync-conflict-20240101-101010-ABCDEFG.md`).
//! - Obsidian Sync, Dropbox, Nextcloud: a parenthesised group containing `conflicted copy`, any
//!   case (`Note (Conflicted copy Laptop 202401011200).md`, `Note (Ann's conflicted copy 2024-01-01).md`).
//! - iCloud Drive: the name ends in a space and a number from 2 to 99 (`Note 2.md`) **and** the
//!   same folder holds the name without it (`Note.md`). `Chapter 2.md` alone is a legit name and
//!   is summarized; `Week 2.md` beside a `Week.md` is taken for a conflict copy.

use std::sync::OnceLock;

use regex::Regex;

/// True when `file_name` (no folder) is a sync-conflict copy. `sibling_exists` answers whether
/// a file of the given name exists in the same folder (only asked for iCloud-style names).
pub fn is_conflict_copy(file_name: &str, sibling_exists: impl Fn(&str) -> bool) -> bool {
    let (stem, extension) = match file_name.rfind('.') {
        Some(dot) if dot > 0 => (&file_name[..dot], &file_name[dot..]),
        _ => (file_name, ""),
    };
    if stem.contains(".sync-conflict-") {
        return true;
    }
    static CONFLICTED: OnceLock<Regex> = OnceLock::new();
    let conflicted = CONFLICTED
        .get_or_init(|| Regex::new(r"(?i)\([^()]*conflicted copy[^()]*\)").expect("valid regex"));
    if conflicted.is_match(stem) {
        return true;
    }
    static NUMBERED: OnceLock<Regex> = OnceLock::new();
    let numbered =
        NUMBERED.get_or_init(|| Regex::new(r"^(.+\S) ([2-9]|[1-9][0-9])$").expect("valid regex"));
    match numbered.captures(stem) {
        Some(captures) => sibling_exists(&format!("{}{extension}", &captures[1])),
        None => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn no_siblings(_: &str) -> bool {
        false
    }

    #[test]
    fn syncthing_conflict_copies_are_recognised() {
        assert!(is_conflict_copy(
            "Standup.sync-conflict-20240101-101010-ABCDEFG.md",
            no_siblings
        ));
    }

    #[test]
    fn obsidian_sync_and_dropbox_conflict_copies_are_recognised() {
        assert!(is_conflict_copy(
            "Standup (Conflicted copy MacBook 202401011200).md",
            no_siblings
        ));
        assert!(is_conflict_copy(
            "Standup (Ann's conflicted copy 2024-01-01).md",
            no_siblings
        ));
        assert!(is_conflict_copy(
            "Standup (conflicted copy 2024-01-01 101010).md",
            no_siblings
        ));
    }

    #[test]
    fn icloud_numbered_duplicate_is_a_conflict_only_beside_its_original() {
        let original_exists = |name: &str| name == "Standup.md";
        assert!(is_conflict_copy("Standup 2.md", original_exists));
        assert!(is_conflict_copy("Standup 13.md", original_exists));
        assert!(!is_conflict_copy("Standup 2.md", no_siblings));
    }

    #[test]
    fn legit_names_with_numbers_or_parentheses_are_not_conflicts() {
        let everything_exists = |_: &str| true;
        assert!(!is_conflict_copy("Chapter 1.md", everything_exists));
        assert!(!is_conflict_copy("Meeting 100.md", everything_exists));
        assert!(!is_conflict_copy("2024-01-02.md", everything_exists));
        assert!(!is_conflict_copy("Plan (draft).md", everything_exists));
        assert!(!is_conflict_copy(
            "Copy editing notes.md",
            everything_exists
        ));
        assert!(!is_conflict_copy(" 2.md", everything_exists));
    }
}
