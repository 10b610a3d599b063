//! Whether a model's answer holds the API key it was asked with. The key is masked in what a
//! server sends before anything reads it, but a hostile server (or a proxy that echoes
//! headers) can split it across a stream's pieces, escape it, or a model can write it with
//! Markdown escapes; an answer that holds it, as a reader of the note would see it, is not
//! written. The plugin's engine inside Obsidian checks the same in its host (`holdsKey`).

/// The shortest secret looked for: a shorter "key" (a test's `k`) is in every text, and no
/// provider's key is that short.
pub const SHORTEST_SECRET: usize = 8;

/// Whether `text`, as it reads once Markdown's escapes and emphasis marks are taken out,
/// holds `secret` (read the same way). A secret under [`SHORTEST_SECRET`] characters is held
/// by nothing.
pub fn holds_secret(text: &str, secret: &str) -> bool {
    let shown = |s: &str| -> String {
        s.chars()
            .filter(|c| !matches!(c, '\\' | '*' | '_' | '~' | '`'))
            .collect()
    };
    let secret = shown(secret);
    secret.chars().count() >= SHORTEST_SECRET && shown(text).contains(&secret)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_key_escaped_or_emphasized_is_still_the_key() {
        let key = "fw_SECRET-key-123";
        assert!(holds_secret("The board reads fw_SECRET-key-123.", key));
        assert!(holds_secret(
            "The board reads fw\\_SECRET\\-key\\-**123**.",
            key
        ));
        assert!(!holds_secret("The board reads fw_SECRET-key-12.", key));
        assert!(!holds_secret("anything", ""));
        assert!(
            !holds_secret("a key", "k"),
            "a short test key is not looked for"
        );
    }
}
