//! Keeps the API key out of every text the client produces.
//!
//! Servers can echo request headers in error pages and network libraries can put URLs in their
//! messages, so every server- or network-supplied string passes through [`Redactor::apply`]
//! before it reaches an error, a log line or a reply.

use crate::config::ApiKey;

const MASK: &str = "***";

/// Replaces the secret with `***` wherever it appears.
#[derive(Clone, Default)]
pub(crate) struct Redactor {
    secret: Option<ApiKey>,
}

impl Redactor {
    pub(crate) fn new(secret: Option<ApiKey>) -> Redactor {
        Redactor { secret }
    }

    /// The text with every occurrence of the secret masked.
    pub(crate) fn apply(&self, text: &str) -> String {
        match &self.secret {
            Some(key) if text.contains(key.expose()) => text.replace(key.expose(), MASK),
            _ => text.to_string(),
        }
    }
}

impl std::fmt::Debug for Redactor {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Redactor(***)")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn masks_every_occurrence_of_the_secret() {
        let redactor = Redactor::new(ApiKey::new("sk-abc"));
        assert_eq!(
            redactor.apply("Bearer sk-abc and again sk-abc."),
            "Bearer *** and again ***."
        );
    }

    #[test]
    fn leaves_text_alone_without_a_secret() {
        assert_eq!(Redactor::new(None).apply("sk-abc"), "sk-abc");
    }
}
