//! The rules every layer asks about a vault file, kept in one place so that the note index, the
//! writer, the batch commands and the watcher agree: which files are notes, and which are never
//! touched.

/// Extensions of files that count as notes (the only files vaultsum ever writes), compared
/// case-insensitively.
pub const NOTE_EXTENSIONS: [&str; 3] = ["md", "markdown", "txt"];

/// True when the file name ends with a note extension (case-insensitive).
pub fn is_note_name(name: &str) -> bool {
    extension_of(name).is_some_and(|ext| NOTE_EXTENSIONS.contains(&ext.as_str()))
}

/// True for an Obsidian canvas (`.canvas`): read as Markdown through the embed expander (its
/// cards as text, its file cards as embeds), never written.
pub fn is_canvas_name(name: &str) -> bool {
    extension_of(name).is_some_and(|ext| ext == "canvas")
}

/// The lower-cased extension of the last path segment, if it has one.
pub fn extension_of(name: &str) -> Option<String> {
    let file = name.rsplit('/').next().unwrap_or(name);
    let (stem, ext) = file.rsplit_once('.')?;
    if stem.is_empty() || ext.is_empty() {
        return None;
    }
    Some(ext.to_ascii_lowercase())
}

/// Why no note can be made under `path`: a file is where a folder must be.
pub fn not_a_folder(path: &str) -> String {
    format!("{path} exists and is not a folder, so no note can be created inside it")
}

/// The first hidden segment of a vault-relative path, if any.
///
/// A segment starting with `.` is hidden, as in Obsidian, which neither shows nor indexes
/// them: `.obsidian/`, `.git/`, `.trash/`, sync tools' `.stversions/` and `.sync/`, and
/// vaultsum's own `.vaultsum-*.tmp` files. Hidden files are never indexed, watched or written.
pub fn hidden_part(relative: &str) -> Option<&str> {
    relative
        .split(['/', '\\'])
        .find(|part| part.starts_with('.') && *part != "." && *part != "..")
}

/// True when the vault-relative path is hidden or lies in a hidden folder (see [`hidden_part`]).
pub fn is_hidden(relative: &str) -> bool {
    hidden_part(relative).is_some()
}

/// True for a file the watcher and the batch commands may summarize: a note that is not hidden.
pub fn is_visible_note(relative: &str) -> bool {
    is_note_name(relative) && !is_hidden(relative)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn notes_are_md_markdown_and_txt_in_any_case() {
        assert!(is_note_name("A/B.MD"));
        assert!(is_note_name("x.markdown"));
        assert!(is_note_name("x.txt"));
        assert!(!is_note_name("pic.png"));
        assert!(!is_note_name(".md"));
        assert!(!is_note_name("README"));
    }

    #[test]
    fn every_dot_folder_is_hidden_at_any_depth() {
        assert_eq!(hidden_part(".obsidian/app.json"), Some(".obsidian"));
        assert_eq!(hidden_part("a/.trash/x.md"), Some(".trash"));
        assert_eq!(hidden_part(".stversions/Note~1.md"), Some(".stversions"));
        assert_eq!(
            hidden_part("Inbox/.vaultsum-ab12.tmp"),
            Some(".vaultsum-ab12.tmp")
        );
        assert_eq!(hidden_part("a/obsidian/x.md"), None);
        assert!(is_visible_note("Inbox/Idea.md"));
        assert!(!is_visible_note(".stversions/Idea.md"));
    }
}
