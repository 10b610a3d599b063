//! Many fragments of a page's text repaired in one pass: how the spacing repairs
//! (`pdf_word_gaps`, `pdf_cjk_cells`) and the shifted-run marks (`pdf_shifted_runs`) write
//! their result.
//!
//! Replacing one fragment after another scans the page once per fragment: a page drawn as
//! 20,000 runs (260 KB of text) took 2.4 s, and ten times the runs would take a hundred times
//! that, on one page no time limit interrupts. One automaton over every fragment finds them
//! all in a single scan.

use aho_corasick::AhoCorasick;

/// Where a mark (a space, a `^`) goes in every occurrence of a fragment of a page's text.
pub(super) struct InsertAt<'a> {
    pub fragment: &'a str,
    /// Byte offsets into `fragment`, each inside it and on a character boundary, where the mark
    /// goes.
    pub at: Vec<usize>,
    /// Put in only if `fragment` is found exactly this many times; `None`: wherever it is.
    pub only_if_found: Option<usize>,
}

/// How many times each of `fragments` occurs in `text`, overlapping occurrences included (as
/// [`put_into`] counts them).
pub(super) fn count_all(text: &str, fragments: &[&str]) -> Vec<usize> {
    let mut found = vec![0; fragments.len()];
    if let Some(finder) = finder(fragments.iter().copied()) {
        for occurrence in finder.find_overlapping_iter(text) {
            found[occurrence.pattern().as_usize()] += 1;
        }
    }
    found
}

/// `text` with `mark` put in wherever a repair that applies says, its fragments found in one
/// scan. Occurrences may overlap (a table row's junctions `商品编码数量` and `数量商品名称` share
/// `数量`): each puts its marks in, and a place two of them mark gets one mark.
pub(super) fn put_into(text: String, repairs: &[InsertAt], mark: char) -> String {
    let Some(finder) = finder(repairs.iter().map(|repair| repair.fragment)) else {
        return text;
    };
    let occurrences: Vec<_> = finder.find_overlapping_iter(&text).collect();
    let mut found = vec![0; repairs.len()];
    for occurrence in &occurrences {
        found[occurrence.pattern().as_usize()] += 1;
    }
    let mut marks: Vec<usize> = occurrences
        .iter()
        .filter_map(|occurrence| {
            let index = occurrence.pattern().as_usize();
            let repair = &repairs[index];
            let applies = repair
                .only_if_found
                .is_none_or(|wanted| wanted == found[index]);
            applies.then(|| repair.at.iter().map(|at| occurrence.start() + at))
        })
        .flatten()
        .collect();
    marks.sort_unstable();
    marks.dedup();
    let mut out = String::with_capacity(text.len() + marks.len() * mark.len_utf8());
    let mut copied_up_to = 0;
    for at in marks {
        out.push_str(&text[copied_up_to..at]);
        out.push(mark);
        copied_up_to = at;
    }
    out.push_str(&text[copied_up_to..]);
    out
}

/// The automaton finding `fragments`, or `None` when there are none (or it cannot be built,
/// which leaves the text as it came).
fn finder<'a>(fragments: impl Iterator<Item = &'a str> + Clone) -> Option<AhoCorasick> {
    if fragments.clone().all(str::is_empty) {
        return None;
    }
    AhoCorasick::new(fragments).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spaces_go_into_every_occurrence_that_applies_in_one_scan() {
        let repairs = [
            InsertAt {
                fragment: "Thetone",
                at: vec![3],
                only_if_found: Some(1),
            },
            // Found twice (once inside `sofa`), wanted once: left alone.
            InsertAt {
                fragment: "ofa",
                at: vec![2],
                only_if_found: Some(1),
            },
            // Two junctions overlapping on `数量`: both spaced.
            InsertAt {
                fragment: "编码数量",
                at: vec!["编码".len()],
                only_if_found: None,
            },
            InsertAt {
                fragment: "数量名称",
                at: vec!["数量".len()],
                only_if_found: None,
            },
        ];
        assert_eq!(
            put_into("Thetone ofa sofa 编码数量名称".to_string(), &repairs, ' '),
            "The tone ofa sofa 编码 数量 名称"
        );
        assert_eq!(count_all("ofa sofa", &["ofa", "sofa", "x"]), [2, 1, 0]);
        assert_eq!(put_into("text".to_string(), &[], ' '), "text");
        let raised = [InsertAt {
            fragment: "x2",
            at: vec![1],
            only_if_found: None,
        }];
        assert_eq!(put_into("x2 = 9".to_string(), &raised, '^'), "x^2 = 9");
    }

    #[test]
    fn a_page_of_many_thousand_fragments_gets_every_space() {
        // The page that took 2.4 s one fragment after another (time is measured in the
        // module's note, not asserted): every fragment is found and spaced once.
        let originals: Vec<String> = (0..20_000).map(|i| format!("w{i:06}xtone")).collect();
        let repairs: Vec<InsertAt> = originals
            .iter()
            .map(|fragment| InsertAt {
                fragment,
                at: vec![8],
                only_if_found: Some(1),
            })
            .collect();
        let spaced: Vec<String> = (0..20_000).map(|i| format!("w{i:06}x tone")).collect();
        assert_eq!(
            put_into(originals.join("\n"), &repairs, ' '),
            spaced.join("\n")
        );
    }
}
