//! Word gaps inside a glyph run put back as spaces.
//!
//! pdf_oxide merges glyphs into a run and puts a space between two of them only where the gap
//! passes its threshold (a quarter of an em by default, adapted to the page). Tightly justified
//! lines set their word gaps narrower than that (a journal's abstract at 0.23 em, in a font
//! without a space glyph), and whole lines came out as one word: `Thetoneholegeometryofac`.
//! PDFium spaces at a share of the wider glyph's width (0.12-0.16 em in a text face); the
//! run's own glyph positions show where those gaps are.

use foldhash::{HashMap, HashMapExt};

use super::pdf_glyph_run::GlyphRun;
use super::pdf_text_replace::{count_all, put_into, InsertAt};

/// `text` (a page as pdf_oxide assembled it from `runs`) with a space put back inside each run
/// wherever two glyphs that are neither spaces nor CJK (whose glyphs abut; see
/// `pdf_cjk_cells`) stand apart by a word gap ([`word_gap_after`]) with no overlap on either
/// side, in a run whose glyph positions can be trusted.
///
/// The repair is done on the text, by each run's text, and only where that text occurs in the
/// page exactly as often as runs that draw it with these gaps: a run whose text also appears
/// inside a longer word (`ofa` in `sofa`), or that another run draws tight, is left alone.
pub(super) fn space_word_gaps(text: String, runs: &[GlyphRun]) -> String {
    // Each run's text once, in the order first met (so the result does not depend on
    // hashing), looked up by hash: a page drawn one glyph per run has thousands.
    let mut repairs: Vec<Repair> = Vec::new();
    let mut seen: HashMap<&str, usize> = HashMap::new();
    for run in runs {
        let spaces = word_gaps(run);
        match seen.get(run.text) {
            Some(&at) => {
                let repair = &mut repairs[at];
                repair.runs += 1;
                repair.consistent &= spaces == repair.spaces;
            }
            None => {
                seen.insert(run.text, repairs.len());
                repairs.push(Repair {
                    original: run.text,
                    spaces,
                    runs: 1,
                    consistent: true,
                });
            }
        }
    }
    let repairs: Vec<(&str, Vec<usize>, usize)> = repairs
        .into_iter()
        .filter(|repair| repair.consistent)
        .filter_map(|repair| Some((repair.original, repair.spaces?, repair.runs)))
        .collect();
    // pdf_oxide joins a word hyphenated at a line's end itself (`geome-` / `try`): a run not
    // found as it is, ending in a hyphen, is looked for without it.
    let originals: Vec<&str> = repairs.iter().map(|(original, ..)| *original).collect();
    let found = count_all(&text, &originals);
    let repairs: Vec<InsertAt> = repairs
        .into_iter()
        .zip(found)
        .map(|((original, spaces, runs), found)| {
            let fragment = match original.strip_suffix('-') {
                Some(stem) if found == 0 => stem,
                _ => original,
            };
            InsertAt {
                fragment,
                at: spaces
                    .into_iter()
                    .filter(|&at| at < fragment.len())
                    .collect(),
                only_if_found: Some(runs),
            }
        })
        .collect();
    put_into(text, &repairs, ' ')
}

/// What the runs drawing one text say about it.
struct Repair<'a> {
    original: &'a str,
    /// Byte offsets into it of its word gaps, `None` when drawn without any.
    spaces: Option<Vec<usize>>,
    /// How many runs draw it.
    runs: usize,
    /// Whether every one of them draws it the same way.
    consistent: bool,
}

/// Where the run's word gaps are, as byte offsets into its text (the start of the glyph after
/// each gap), or `None` when it has none (or its glyph positions do not match its characters,
/// which happens where pdf_oxide expanded a glyph into several characters).
fn word_gaps(run: &GlyphRun) -> Option<Vec<usize>> {
    let chars: Vec<char> = run.text.chars().collect();
    if chars.len() < 2
        || chars.len() != run.glyph_left.len()
        || chars.len() != run.glyph_width.len()
    {
        return None;
    }
    let size = run.font_size.max(1.0);
    let gap = |i: usize| run.glyph_left[i] - (run.glyph_left[i - 1] + run.glyph_width[i - 1]);
    // A glyph drawn a little back makes the gap after it look wide (`st` -0.19 em, `tr` +0.19
    // em in `st rategies`): a word gap has no overlap on either side.
    let settled = |i: usize| i < 1 || i >= chars.len() || gap(i) >= -MAX_JITTER * size;
    let is_word_gap = |i: usize| {
        let wider = run.glyph_width[i - 1].max(run.glyph_width[i]);
        gap(i) >= word_gap_after(wider, size)
            && settled(i - 1)
            && settled(i + 1)
            && is_spaceable(chars[i - 1])
            && is_spaceable(chars[i])
    };
    // Positions are trusted only where the glyphs inside words are set tight: in some runs
    // pdf_oxide's positions swing a third of an em either way (`re` / `ducing`), and a swing
    // is not a word gap.
    let word_gap: Vec<bool> = (0..chars.len()).map(|i| i > 0 && is_word_gap(i)).collect();
    let (mut inside_words, mut loose) = (0usize, 0usize);
    for i in 1..chars.len() {
        if !word_gap[i] && !chars[i - 1].is_whitespace() && !chars[i].is_whitespace() {
            inside_words += 1;
            loose += usize::from(gap(i).abs() > MAX_JITTER * size);
        }
    }
    // pdf_oxide spaces a gap of a quarter of an em itself: a wider one it left unspaced means
    // it placed the glyphs otherwise than these positions say (`V e r y`, `bot to m`).
    let unsettled = (1..chars.len()).any(|i| {
        let (gap, before, after) = (gap(i), chars[i - 1], chars[i]);
        gap < -MAX_KERN * size
            || (gap > SPACED_BY_PDF_OXIDE * size
                && !before.is_whitespace()
                && !after.is_whitespace())
    });
    // And only where there is enough of them to tell: a run of one short word (`New `, its
    // widths shifted by a glyph) shows no pattern of tight letters and wider word gaps.
    if unsettled || inside_words < MIN_PAIRS_INSIDE_WORDS || loose * 20 > inside_words {
        return None;
    }
    let gaps: Vec<usize> = run
        .text
        .char_indices()
        .zip(&word_gap)
        .filter(|&(_, &gap)| gap)
        .map(|((at, _), _)| at)
        .collect();
    (!gaps.is_empty()).then_some(gaps)
}

/// The narrowest gap that parts two words whose glyphs at the junction advance `wider` at most
/// (points, in a face of `size` points): a quarter of a middling glyph, a fifth of a wide one
/// (PDFium's shares, so `w` and `m` need no wider gap than `o`), and never under
/// [`MIN_WORD_GAP`], which is what decides next to a narrow glyph (PDFium asks half of one
/// there, and reads `ofthe` where 0.17 em parts `of` and `the`).
fn word_gap_after(wider: f32, size: f32) -> f32 {
    let share = if wider <= 0.7 * size { 0.25 } else { 0.2 };
    (wider * share).max(MIN_WORD_GAP * size)
}

/// Gap, in ems, under which two glyphs are never taken to be words apart, whatever their
/// widths: a tight kern or a justified letter gap.
const MIN_WORD_GAP: f32 = 0.15;

/// Gap or overlap, in ems, two glyphs of one word may show (a kern, a rounding); a run where
/// more than one pair in 20 inside its words is further apart has positions not to be trusted.
const MAX_JITTER: f32 = 0.05;

/// Overlap, in ems, of two glyphs a kern can make; one pair further into each other (pdf_oxide
/// places a glyph of some fonts an em back and the next an em on) and the run is not trusted.
const MAX_KERN: f32 = 0.2;

/// Pairs of glyphs inside words a run must show before its gaps are read as word gaps.
const MIN_PAIRS_INSIDE_WORDS: usize = 3;

/// Gap, in ems, from which pdf_oxide puts a space itself (its threshold is a quarter of an em;
/// a little slack for its rounding).
const SPACED_BY_PDF_OXIDE: f32 = 0.3;

/// A character a word gap may be put next to: not a space already, and not CJK.
fn is_spaceable(c: char) -> bool {
    !c.is_whitespace() && !super::pdf_cjk_cells::is_cjk_script(c)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Glyph positions for `words` set one after another in a `size`-point face: every glyph
    /// `glyph` ems wide, touching the next inside a word, `gap` ems between words. The run's
    /// text is the words run together, as pdf_oxide gives it.
    fn set(words: &[&str], glyph: f32, gap: f32, size: f32) -> Run {
        let (mut text, mut left, mut width, mut x) = (String::new(), vec![], vec![], 0.0);
        for (n, word) in words.iter().enumerate() {
            if n > 0 {
                x += gap * size;
            }
            for c in word.chars() {
                text.push(c);
                left.push(x);
                width.push(glyph * size);
                x += glyph * size;
            }
        }
        (text, left, width)
    }

    /// A run's text, glyph left edges and glyph widths.
    type Run = (String, Vec<f32>, Vec<f32>);

    fn repaired(page: &str, runs: &[Run]) -> String {
        let placed: Vec<GlyphRun> = runs
            .iter()
            .map(|(text, left, width)| GlyphRun {
                text,
                left: 0.0,
                right: 0.0,
                baseline: 0.0,
                font_size: 10.0,
                glyph_left: left,
                glyph_width: width,
            })
            .collect();
        space_word_gaps(page.to_string(), &placed)
    }

    #[test]
    fn word_gaps_inside_a_run_get_their_spaces_back() {
        // A justified journal abstract: 0.23 em between words, under pdf_oxide's threshold.
        let line = set(&["The", "tone", "hole", "geometry"], 0.5, 0.23, 10.0);
        assert_eq!(
            repaired("Summary\nThetoneholegeometry\n", &[line]),
            "Summary\nThe tone hole geometry\n"
        );
        // A line ending in a hyphen, which pdf_oxide joins with the next line's word itself.
        let hyphenated = set(&["derive", "the", "geome-"], 0.5, 0.23, 10.0);
        assert_eq!(
            repaired("to derivethegeometry of", &[hyphenated]),
            "to derive the geometry of"
        );
        // A wide glyph (`w`, 0.8 em) needs no wider gap than `o`: a fifth of it.
        let wide = set(&["compared", "with"], 0.8, 0.17, 10.0);
        assert_eq!(repaired("comparedwith", &[wide]), "compared with");
    }

    #[test]
    fn runs_that_are_not_words_run_together_are_left_as_they_are() {
        let kerned = set(&["Wa", "tertight"], 0.5, 0.03, 10.0);
        let mut swinging = set(&["procurement", "strategies"], 0.5, 0.0, 10.0);
        // One glyph drawn a little back: the gap after it looks like a word gap.
        swinging.1[13] -= 1.9;
        let mut unsettled = set(&["V", "e", "r", "y", "good"], 0.5, 0.0, 10.0);
        // A gap pdf_oxide would have spaced itself had it placed the glyphs there.
        unsettled.1[1..].iter_mut().for_each(|x| *x += 5.0);
        unsettled.1[2..].iter_mut().for_each(|x| *x += 2.0);
        let cases: [(&str, &str, Vec<Run>); 8] = [
            ("a kern", "Watertight", vec![kerned]),
            (
                "a glyph drawn back",
                "procurementstrategies",
                vec![swinging],
            ),
            (
                "positions off by more than a word gap",
                "Verygood",
                vec![unsettled],
            ),
            (
                "the run's text also inside a longer word",
                "understand misunderstand",
                vec![set(&["under", "stand"], 0.5, 0.2, 10.0)],
            ),
            (
                "the same text drawn tight by another run",
                "understand understand",
                vec![
                    set(&["under", "stand"], 0.5, 0.2, 10.0),
                    set(&["understand"], 0.5, 0.0, 10.0),
                ],
            ),
            (
                "too few letters to tell tight from loose",
                "New",
                vec![set(&["N", "ew"], 0.5, 0.24, 10.0)],
            ),
            (
                "CJK glyphs, set edge to edge",
                "数量单位",
                vec![set(&["数量", "单位"], 1.0, 0.2, 10.0)],
            ),
            (
                "positions that do not match the characters",
                "Thetone",
                vec![{
                    let (text, mut left, width) = set(&["The", "tone"], 0.5, 0.23, 10.0);
                    left.pop();
                    (text, left, width)
                }],
            ),
        ];
        for (case, page, runs) in cases {
            assert_eq!(repaired(page, &runs), page, "{case}");
        }
    }

    proptest::proptest! {
        /// Whatever the runs and the page, the repair only ever adds spaces.
        #[test]
        fn only_spaces_are_ever_added(
            words in proptest::collection::vec(
                proptest::collection::vec("[a-zA-Z.,数-]{1,6}", 1..5),
                0..6,
            ),
            gaps in proptest::collection::vec(-0.3f32..0.5, 6),
            glyph in 0.2f32..1.0,
            page_extra in "[a-z \n]{0,12}",
        ) {
            let runs: Vec<_> = words
                .iter()
                .zip(&gaps)
                .map(|(run, gap)| {
                    let run: Vec<&str> = run.iter().map(String::as_str).collect();
                    set(&run, glyph, *gap, 10.0)
                })
                .collect();
            let page: String = runs.iter().map(|(text, ..)| text.as_str()).collect::<Vec<_>>().join(" ")
                + &page_extra;
            let without_spaces = |s: &str| s.replace(' ', "");
            proptest::prop_assert_eq!(without_spaces(&repaired(&page, &runs)), without_spaces(&page));
        }
    }
}
