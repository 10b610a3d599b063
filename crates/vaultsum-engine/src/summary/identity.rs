//! What a summary's fingerprint records of the instructions it was made with: the preset's
//! name or the custom prompt's text, and the language (and section citations when on). A
//! summary made with other instructions is not current.

use crate::vault::note_facts::content_hash;

/// The identity of instructions: `preset` by name (a new version of vaultsum with reworded
/// presets does not make every summary stale), else the prompt `text` by its hash (editing it
/// does); `language` as chosen (`auto` or a name); `\0cite` only when points cite their
/// sections, so summaries written before that setting existed stay current.
pub fn instructions_identity(
    preset: Option<&str>,
    text: &str,
    language: &str,
    cite_sections: bool,
) -> String {
    let what = match preset {
        Some(name) => format!("preset:{name}"),
        None => format!("prompt:{}", content_hash(text.trim().as_bytes())),
    };
    let cite = if cite_sections { "\0cite" } else { "" };
    format!("{what}\0language:{language}{cite}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_preset_is_named_and_a_prompt_hashed() {
        assert_eq!(
            instructions_identity(Some("default"), "ignored", "auto", false),
            "preset:default\0language:auto"
        );
        let own = instructions_identity(None, " Bullet points. ", "French", true);
        assert!(own.starts_with("prompt:") && own.ends_with("\0language:French\0cite"));
        assert_eq!(
            own,
            instructions_identity(None, "Bullet points.", "French", true)
        );
    }
}
