//! Choosing which sentences make the summary.
//!
//! Each sentence gets a salience score from four signals: centrality (LexRank: PageRank over
//! TF-IDF cosine similarity between sentences), a position prior (early in the note, first in
//! its section), overlap with the note's title and its section heading, and overlap with the
//! focus terms when a focus is given. Sentences are then picked greedily by maximal marginal
//! relevance: salience, minus similarity to what is already chosen (redundancy), plus a bonus
//! for a section not yet covered, minus a penalty for a sentence that opens with a dangling
//! reference ("This", "However", "It") whose predecessor is not chosen. Ties go to the earlier
//! sentence, so the result is deterministic.

use std::collections::HashMap;

use super::document::{BlockKind, Document};
use super::tokenize::terms;

/// Weights of the ranking signals. The defaults were chosen on the gold set in `eval/`.
#[derive(Debug, Clone, Copy)]
pub struct Weights {
    /// LexRank centrality (normalised to 0..1).
    pub centrality: f64,
    /// Closeness to the start of the note.
    pub note_position: f64,
    /// Being the first (or second) sentence of a section.
    pub section_position: f64,
    /// Share of the title's and section heading's terms the sentence contains.
    pub heading_overlap: f64,
    /// Share of the focus terms the sentence contains (only with a focus).
    pub focus: f64,
    /// How much similarity to an already chosen sentence counts against a candidate.
    pub redundancy: f64,
    /// Bonus for a sentence from a section with nothing chosen yet.
    pub coverage: f64,
    /// Penalty for an unresolved dangling opener.
    pub dangling: f64,
}

impl Default for Weights {
    fn default() -> Weights {
        Weights {
            centrality: 0.35,
            note_position: 0.35,
            section_position: 0.15,
            heading_overlap: 0.25,
            focus: 1.0,
            redundancy: 0.5,
            coverage: 0.08,
            dangling: 0.3,
        }
    }
}

/// Openers that only make sense after the sentence before them.
const DANGLING_OPENERS: &[&str] = &[
    "also",
    "and",
    "but",
    "furthermore",
    "hence",
    "however",
    "it",
    "it's",
    "its",
    "moreover",
    "nevertheless",
    "otherwise",
    "so",
    "such",
    "that",
    "these",
    "they",
    "this",
    "those",
    "thus",
    "therefore",
    "then",
    "he",
    "she",
    "there",
    "here",
    "similarly",
    "instead",
    "likewise",
];

/// Picks up to `count` sentences of `doc`; returns their indices in note order.
pub fn select(doc: &Document, count: usize, focus: &str, weights: &Weights) -> Vec<usize> {
    let n = doc.sentences.len();
    if n == 0 || count == 0 {
        return Vec::new();
    }
    let vectors = TfIdf::build(doc);
    let similarity = |a: usize, b: usize| cosine(&vectors.rows[a], &vectors.rows[b]);
    let centrality = lexrank(&vectors.rows, n);
    let title_terms: Vec<String> = doc.title.as_deref().map(terms).unwrap_or_default();
    let focus_terms: Vec<String> = dedup(terms(focus));
    let salience: Vec<f64> = (0..n)
        .map(|i| {
            let sentence = &doc.sentences[i];
            let own = &vectors.terms[i];
            let mut heading_terms = terms(&doc.sections[sentence.section].heading);
            heading_terms.extend(title_terms.iter().cloned());
            let heading_terms = dedup(heading_terms);
            let note_position = 1.0 / (1.0 + i as f64).sqrt();
            let section_position = match sentence.index_in_section {
                0 => 1.0,
                1 => 0.5,
                _ => 0.0,
            };
            let score = weights.centrality * centrality[i]
                + weights.note_position * note_position
                + weights.section_position * section_position
                + weights.heading_overlap * overlap(own, &heading_terms)
                + weights.focus * overlap(own, &focus_terms);
            score * quality(&sentence.text, own.len(), sentence.kind)
        })
        .collect();

    let multi_section = {
        let mut sections: Vec<usize> = doc.sentences.iter().map(|s| s.section).collect();
        sections.dedup();
        sections.len() > 1
    };
    let mut chosen: Vec<usize> = Vec::new();
    let mut covered = vec![false; doc.sections.len()];
    let mut max_similarity = vec![0.0_f64; n];
    let mut taken = vec![false; n];
    while chosen.len() < count.min(n) {
        let mut best: Option<(f64, usize)> = None;
        for i in 0..n {
            if taken[i] {
                continue;
            }
            let sentence = &doc.sentences[i];
            let mut score = salience[i] - weights.redundancy * max_similarity[i];
            if multi_section && !covered[sentence.section] {
                score += weights.coverage;
            }
            let predecessor_chosen = i > 0 && taken[i - 1];
            if !predecessor_chosen && is_dangling(&sentence.text) {
                score -= weights.dangling;
            }
            if best.is_none_or(|(top, _)| score > top) {
                best = Some((score, i));
            }
        }
        let Some((_, pick)) = best else { break };
        taken[pick] = true;
        covered[doc.sentences[pick].section] = true;
        chosen.push(pick);
        for (i, max) in max_similarity.iter_mut().enumerate() {
            if !taken[i] {
                *max = max.max(similarity(i, pick));
            }
        }
    }
    chosen.sort_unstable();
    chosen
}

/// Whether the sentence opens with a word that refers back to something said before.
pub fn is_dangling(text: &str) -> bool {
    let first = text
        .split_whitespace()
        .next()
        .unwrap_or("")
        .trim_matches(|c: char| !c.is_alphanumeric() && c != '\'')
        .to_lowercase();
    DANGLING_OPENERS.contains(&first.as_str())
}

/// Multiplier for sentences that rarely make good summary lines: fragments, lead-ins ending
/// in a colon, questions, and lines that are mostly code.
fn quality(text: &str, content_terms: usize, kind: BlockKind) -> f64 {
    let mut q = 1.0;
    if content_terms < 3 {
        q *= 0.3;
    } else if content_terms < 5 {
        q *= 0.7;
    }
    if text.ends_with(':') {
        q *= 0.4;
    }
    if text.ends_with('?') {
        q *= 0.6;
    }
    let code_chars: usize = text.split('`').skip(1).step_by(2).map(str::len).sum();
    if code_chars * 2 > text.len() {
        q *= 0.5;
    }
    if kind == BlockKind::ListItem && !text.ends_with(['.', '!', '?']) {
        q *= 0.85;
    }
    if text.split_whitespace().count() < 5 {
        q *= 0.5;
    }
    // Lead-ins to something the summary will not show.
    let lower = text.to_lowercase();
    if FORWARD_REFERENCES.iter().any(|p| lower.starts_with(p)) || lower.contains(" below") {
        q *= 0.6;
    }
    q
}

/// Openings that point at an example or list the summary leaves out.
const FORWARD_REFERENCES: &[&str] = &[
    "the following",
    "here is",
    "here are",
    "for example",
    "example",
    "e.g.",
];

fn dedup(mut words: Vec<String>) -> Vec<String> {
    words.sort_unstable();
    words.dedup();
    words
}

/// Share of `wanted` (deduplicated) that occurs in `own` (sorted term ids' words).
fn overlap(own: &[String], wanted: &[String]) -> f64 {
    if wanted.is_empty() {
        return 0.0;
    }
    let hits = wanted
        .iter()
        .filter(|w| own.binary_search(w).is_ok())
        .count();
    hits as f64 / wanted.len() as f64
}

/// L2-normalised TF-IDF vectors, one per sentence, as sorted (term id, weight) pairs.
struct TfIdf {
    rows: Vec<Vec<(u32, f64)>>,
    /// Each sentence's distinct terms, sorted.
    terms: Vec<Vec<String>>,
}

impl TfIdf {
    fn build(doc: &Document) -> TfIdf {
        let mut ids: HashMap<String, u32> = HashMap::new();
        let mut counts: Vec<Vec<(u32, u32)>> = Vec::with_capacity(doc.sentences.len());
        let mut distinct: Vec<Vec<String>> = Vec::with_capacity(doc.sentences.len());
        for sentence in &doc.sentences {
            let words = terms(&sentence.text);
            let mut row: Vec<(u32, u32)> = Vec::new();
            for word in &words {
                let next = ids.len() as u32;
                let id = *ids.entry(word.clone()).or_insert(next);
                match row.iter_mut().find(|(t, _)| *t == id) {
                    Some((_, c)) => *c += 1,
                    None => row.push((id, 1)),
                }
            }
            row.sort_unstable();
            counts.push(row);
            distinct.push(dedup(words));
        }
        let mut df = vec![0u32; ids.len()];
        for row in &counts {
            for &(t, _) in row {
                df[t as usize] += 1;
            }
        }
        let n = counts.len() as f64;
        let rows = counts
            .into_iter()
            .map(|row| {
                let mut weighted: Vec<(u32, f64)> = row
                    .into_iter()
                    .map(|(t, c)| {
                        let idf = ((n + 1.0) / (df[t as usize] as f64 + 1.0)).ln() + 1.0;
                        (t, (1.0 + (c as f64).ln()) * idf)
                    })
                    .collect();
                let norm = weighted.iter().map(|(_, w)| w * w).sum::<f64>().sqrt();
                if norm > 0.0 {
                    weighted.iter_mut().for_each(|(_, w)| *w /= norm);
                }
                weighted
            })
            .collect();
        TfIdf {
            rows,
            terms: distinct,
        }
    }
}

fn cosine(a: &[(u32, f64)], b: &[(u32, f64)]) -> f64 {
    let (mut i, mut j, mut dot) = (0, 0, 0.0);
    while i < a.len() && j < b.len() {
        match a[i].0.cmp(&b[j].0) {
            std::cmp::Ordering::Less => i += 1,
            std::cmp::Ordering::Greater => j += 1,
            std::cmp::Ordering::Equal => {
                dot += a[i].1 * b[j].1;
                i += 1;
                j += 1;
            }
        }
    }
    dot
}

/// Continuous LexRank: PageRank over the cosine-similarity graph, scaled so the most central
/// sentence scores 1. The graph is built from an inverted index so only sentences sharing a
/// term are compared.
fn lexrank(rows: &[Vec<(u32, f64)>], n: usize) -> Vec<f64> {
    const DAMPING: f64 = 0.85;
    const ITERATIONS: usize = 40;
    let mut postings: HashMap<u32, Vec<(usize, f64)>> = HashMap::new();
    for (i, row) in rows.iter().enumerate() {
        for &(t, w) in row {
            postings.entry(t).or_default().push((i, w));
        }
    }
    let mut edges: Vec<Vec<(usize, f64)>> = vec![Vec::new(); n];
    let mut accumulator = vec![0.0_f64; n];
    let mut touched: Vec<usize> = Vec::new();
    for (i, row) in rows.iter().enumerate() {
        for &(t, w) in row {
            for &(j, v) in &postings[&t] {
                if j != i {
                    if accumulator[j] == 0.0 {
                        touched.push(j);
                    }
                    accumulator[j] += w * v;
                }
            }
        }
        touched.sort_unstable();
        for &j in &touched {
            edges[i].push((j, accumulator[j]));
            accumulator[j] = 0.0;
        }
        touched.clear();
    }
    let out_weight: Vec<f64> = edges
        .iter()
        .map(|e| e.iter().map(|(_, w)| w).sum())
        .collect();
    let mut rank = vec![1.0 / n as f64; n];
    for _ in 0..ITERATIONS {
        let dangling_mass: f64 = (0..n)
            .filter(|&i| out_weight[i] == 0.0)
            .map(|i| rank[i])
            .sum();
        let base = (1.0 - DAMPING) / n as f64 + DAMPING * dangling_mass / n as f64;
        let mut next = vec![base; n];
        for i in 0..n {
            if out_weight[i] > 0.0 {
                let share = DAMPING * rank[i] / out_weight[i];
                for &(j, w) in &edges[i] {
                    next[j] += share * w;
                }
            }
        }
        rank = next;
    }
    let max = rank.iter().cloned().fold(0.0_f64, f64::max);
    if max > 0.0 {
        rank.iter_mut().for_each(|r| *r /= max);
    }
    rank
}
