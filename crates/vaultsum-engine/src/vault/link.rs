//! What an embed points at: the text inside `![[…]]` (or a markdown image's destination) split
//! into a file, a heading path or block id, and a display alias that is not part of the target.

/// The part of the target file an embed wants.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Subpath {
    /// The whole file (`![[Note]]`).
    Whole,
    /// A heading, or nested headings (`![[Note#H1#H2]]`), matched case-insensitively.
    Headings(Vec<String>),
    /// A block id (`![[Note#^id]]`), without the caret.
    Block(String),
}

/// A parsed embed target.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LinkTarget {
    /// The file part; empty for `![[#Heading]]`, which means the embedding note itself.
    pub path: String,
    /// Which part of the file.
    pub subpath: Subpath,
    /// The reference as a person would name it: path and fragment, without the alias.
    pub reference: String,
}

/// Parses the inside of `![[…]]`.
///
/// Everything after the first `|` is display text (`|alias`, `|300`, `|640x480`) and is
/// dropped; inside tables the pipe is written `\|`, and the backslash is dropped with it.
pub fn parse_wikilink(inner: &str) -> LinkTarget {
    let target = match inner.find('|') {
        Some(bar) => inner[..bar].strip_suffix('\\').unwrap_or(&inner[..bar]),
        None => inner,
    };
    parse_target(target)
}

/// Parses a markdown image destination (`![alt](Folder/My%20Note.md#Heading)`): the path is
/// percent-decoded, the fragment handled as in a wikilink.
pub fn parse_markdown_destination(destination: &str) -> LinkTarget {
    let decoded = percent_encoding::percent_decode_str(destination).decode_utf8_lossy();
    parse_target(&decoded)
}

/// True for destinations that are not files of the vault (`https://…`, `data:…`, `mailto:…`).
pub fn is_external(destination: &str) -> bool {
    let lower = destination.trim().to_ascii_lowercase();
    lower.contains("://") || lower.starts_with("data:") || lower.starts_with("mailto:")
}

fn parse_target(target: &str) -> LinkTarget {
    let target = target.trim();
    let (path, fragment) = match target.find('#') {
        Some(hash) => (&target[..hash], Some(&target[hash + 1..])),
        None => (target, None),
    };
    let subpath = match fragment {
        None => Subpath::Whole,
        Some(fragment) => match fragment.trim().strip_prefix('^') {
            Some(id) => Subpath::Block(id.trim().to_string()),
            None => {
                let headings: Vec<String> = fragment
                    .split('#')
                    .map(str::trim)
                    .filter(|h| !h.is_empty())
                    .map(str::to_string)
                    .collect();
                if headings.is_empty() {
                    Subpath::Whole
                } else {
                    Subpath::Headings(headings)
                }
            }
        },
    };
    LinkTarget {
        path: path.trim().to_string(),
        subpath,
        reference: target.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn alias_and_size_are_not_part_of_the_target() {
        assert_eq!(parse_wikilink("Note|Shown name").path, "Note");
        assert_eq!(parse_wikilink("pic.png|300").path, "pic.png");
        assert_eq!(parse_wikilink("pic.png|640x480").reference, "pic.png");
    }

    #[test]
    fn escaped_pipe_inside_tables_is_not_part_of_the_target() {
        let t = parse_wikilink("pic.png\\|300");
        assert_eq!(t.path, "pic.png");
        assert_eq!(t.reference, "pic.png");
    }

    #[test]
    fn headings_nest_and_blocks_keep_their_id() {
        assert_eq!(
            parse_wikilink("Note#H1#H2|x").subpath,
            Subpath::Headings(vec!["H1".into(), "H2".into()])
        );
        assert_eq!(
            parse_wikilink("Note#^abc-1").subpath,
            Subpath::Block("abc-1".into())
        );
        let same = parse_wikilink("#Heading");
        assert_eq!(same.path, "");
        assert_eq!(same.subpath, Subpath::Headings(vec!["Heading".into()]));
    }

    #[test]
    fn markdown_destinations_are_percent_decoded() {
        let t = parse_markdown_destination("Attachments/My%20Pic.png");
        assert_eq!(t.path, "Attachments/My Pic.png");
        assert!(is_external("https://example.com/a.png"));
        assert!(!is_external("../images/a.png"));
    }
}
