//! Words for comparing sentences: lower-cased, stop words dropped, lightly stemmed so that
//! "task", "tasks" and "tasks'" count as one term. Only the ranker sees these; output keeps the
//! note's own words.

/// Words too common to say what a sentence is about.
const STOP_WORDS: &[&str] = &[
    "a", "about", "above", "after", "again", "all", "also", "am", "an", "and", "any", "are", "as",
    "at", "be", "because", "been", "before", "being", "below", "between", "both", "but", "by",
    "can", "could", "did", "do", "does", "doing", "don", "down", "during", "each", "either", "etc",
    "few", "for", "from", "further", "had", "has", "have", "having", "he", "her", "here", "hers",
    "him", "his", "how", "however", "i", "if", "in", "into", "is", "it", "its", "itself", "just",
    "let", "may", "me", "might", "more", "most", "much", "must", "my", "no", "nor", "not", "now",
    "of", "off", "on", "once", "one", "only", "or", "other", "our", "ours", "out", "over", "own",
    "per", "same", "see", "she", "should", "so", "some", "such", "than", "that", "the", "their",
    "theirs", "them", "then", "there", "these", "they", "this", "those", "through", "to", "too",
    "under", "until", "up", "us", "use", "used", "using", "very", "via", "was", "we", "were",
    "what", "when", "where", "which", "while", "who", "whom", "why", "will", "with", "within",
    "would", "yet", "you", "your", "yours",
];

/// The comparable terms of `text`, in order of appearance (duplicates kept).
pub fn terms(text: &str) -> Vec<String> {
    text.split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .map(str::to_lowercase)
        .filter(|w| w.chars().count() > 1 && !is_stop_word(w))
        .map(|w| stem(&w))
        .collect()
}

/// Whether `word` (lower-case) is a stop word.
pub fn is_stop_word(word: &str) -> bool {
    STOP_WORDS.binary_search(&word).is_ok()
}

/// A deliberately small suffix stripper: plural and common verb endings only. Over-eager
/// stemming merges unrelated words, which hurts more than a missed match.
fn stem(word: &str) -> String {
    if !word.is_ascii() || word.len() <= 3 {
        return word.to_string();
    }
    let w = word;
    if let Some(base) = w.strip_suffix("ies").filter(|b| b.len() >= 2) {
        return format!("{base}y");
    }
    if let Some(base) = w.strip_suffix("sses") {
        return format!("{base}ss");
    }
    if let Some(base) = w.strip_suffix("ing").filter(|b| b.len() >= 4) {
        return base.to_string();
    }
    if let Some(base) = w.strip_suffix("ed").filter(|b| b.len() >= 4) {
        return base.to_string();
    }
    if w.ends_with('s') && !w.ends_with("ss") && !w.ends_with("us") && !w.ends_with("is") {
        return w[..w.len() - 1].to_string();
    }
    w.to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stop_word_list_is_sorted_for_binary_search() {
        let mut sorted = STOP_WORDS.to_vec();
        sorted.sort_unstable();
        assert_eq!(sorted, STOP_WORDS);
    }

    #[test]
    fn plurals_and_verb_forms_share_a_term() {
        assert_eq!(terms("Tasks task"), vec!["task", "task"]);
        assert_eq!(terms("queries query"), vec!["query", "query"]);
        assert_eq!(terms("the and of"), Vec::<String>::new());
    }
}
