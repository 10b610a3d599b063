//! Superscripts and subscripts marked as such: `x^2`, `H_2O`.
//!
//! pdf_oxide gives a raised or lowered run its base's line and joins it to the word before, so
//! `x² = 9` reads `x2 = 9`: another number, and another statement. A short run set smaller than
//! the run it follows, touching it, and drawn above (below) that run's baseline is written
//! after a `^` (`_`), the notation a reader of Markdown or LaTeX and a model both read as meant.
//! PDFium breaks the line there instead (`x` / `2 = 9`).

use super::pdf_glyph_run::GlyphRun;
use super::pdf_text_replace::{count_all, put_into, InsertAt};

/// One glyph where the page draws it: its character, where it starts and its baseline.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(super) struct PlacedGlyph {
    pub ch: char,
    pub left: f32,
    pub baseline: f32,
}

/// `text` (a page as pdf_oxide assembled it from `runs`) with `^` before each superscript run
/// and `_` before each subscript run ([`shift_after`]). The page's glyphs are asked for only
/// when some run is a candidate, which few pages have.
///
/// As in the word-gap repair, the text is changed by fragment, a base run's text followed by
/// its shifted run's, and only where that fragment occurs as often as pairs of runs that draw
/// it shifted the same way.
pub(super) fn mark_shifted_runs(
    text: String,
    runs: &[GlyphRun],
    glyphs: impl FnOnce() -> Vec<PlacedGlyph>,
) -> String {
    let candidates: Vec<(&GlyphRun, &GlyphRun)> = runs
        .windows(2)
        .map(|pair| (&pair[0], &pair[1]))
        .filter(|(base, shifted)| is_candidate(base, shifted))
        .collect();
    if candidates.is_empty() {
        return text;
    }
    let glyphs = glyphs();
    let mut marked: Vec<Junction> = Vec::new();
    for (base, shifted) in candidates {
        let Some(shift) = shift_after(base, shifted, &glyphs) else {
            continue;
        };
        let fragment = format!("{}{}", base.text, shifted.text);
        match marked.iter_mut().find(|j| j.fragment == fragment) {
            Some(junction) if junction.shift == shift => junction.pairs += 1,
            // The same junction drawn shifted both ways: which one a given occurrence is cannot
            // be told from the text.
            Some(junction) => junction.pairs = 0,
            None => marked.push(Junction {
                fragment,
                at: base.text.len(),
                pairs: 1,
                shift,
            }),
        }
    }
    marked.retain(|junction| junction.pairs > 0);
    let fragments: Vec<&str> = marked.iter().map(|j| j.fragment.as_str()).collect();
    let found = count_all(&text, &fragments);
    let mut text = text;
    for shift in [Shift::Up, Shift::Down] {
        let repairs: Vec<InsertAt> = marked
            .iter()
            .zip(&found)
            .filter(|(junction, &found)| junction.shift == shift && junction.pairs == found)
            .map(|(junction, _)| InsertAt {
                fragment: &junction.fragment,
                at: vec![junction.at],
                only_if_found: Some(junction.pairs),
            })
            .collect();
        if !repairs.is_empty() {
            text = put_into(text, &repairs, shift.mark());
        }
    }
    text
}

/// A base run's text followed by its shifted run's, where the mark goes (`at`, after the base),
/// how many pairs of runs draw it, and which way.
struct Junction {
    fragment: String,
    at: usize,
    pairs: usize,
    shift: Shift,
}

/// Which way a run is shifted off its base's baseline.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Shift {
    Up,
    Down,
}

impl Shift {
    fn mark(self) -> char {
        match self {
            Shift::Up => '^',
            Shift::Down => '_',
        }
    }
}

/// A shifted run is at most this long: an exponent, an index, a footnote mark (`2`, `n+1`,
/// `12`), not a line set small.
const MAX_SHIFTED_CHARS: usize = 4;

/// Whether `shifted` may be a superscript or subscript of `base`: a short run of ASCII letters,
/// digits and signs, set at most 85% of `base`'s size, starting where `base` ends (within a
/// tenth of an em either way), after a letter, digit or closing bracket.
fn is_candidate(base: &GlyphRun, shifted: &GlyphRun) -> bool {
    let em = base.font_size;
    let chars = shifted.text.chars().count();
    em > 0.0
        && shifted.font_size > 0.0
        && shifted.font_size <= 0.85 * em
        && (1..=MAX_SHIFTED_CHARS).contains(&chars)
        && shifted
            .text
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '+' | '-' | '−' | '*' | '′'))
        && base
            .text
            .chars()
            .next_back()
            .is_some_and(|c| c.is_alphanumeric() || matches!(c, ')' | ']'))
        && (shifted.left - base.right).abs() <= 0.1 * em
}

/// How `shifted` sits against `base`: up when its first glyph's baseline is more than 0.15 em
/// above that of `base`'s last glyph, down when more than 0.1 em below (a subscript drops less
/// than a superscript rises), `None` when on the same line (a small capital, a smaller font
/// for a unit) or when either glyph is not found among `glyphs`.
fn shift_after(base: &GlyphRun, shifted: &GlyphRun, glyphs: &[PlacedGlyph]) -> Option<Shift> {
    let near = |run: &GlyphRun| (run.baseline, base.font_size);
    let base_glyph = glyph_at(
        glyphs,
        base.text.chars().next_back()?,
        *base.glyph_left.last()?,
        near(base),
    )?;
    let shifted_glyph = glyph_at(
        glyphs,
        shifted.text.chars().next()?,
        *shifted.glyph_left.first()?,
        near(shifted),
    )?;
    let rise = shifted_glyph.baseline - base_glyph.baseline;
    let em = base.font_size;
    if rise > 0.15 * em {
        Some(Shift::Up)
    } else if rise < -0.1 * em {
        Some(Shift::Down)
    } else {
        None
    }
}

/// The glyph drawing `ch` that starts at `left` (within half a point), the one nearest the
/// run's line `(y, em)` and within an em of it: a formula can draw the same letter at the same
/// place across the page on another line (a fraction's numerator and denominator).
fn glyph_at(
    glyphs: &[PlacedGlyph],
    ch: char,
    left: f32,
    (line_y, em): (f32, f32),
) -> Option<&PlacedGlyph> {
    glyphs
        .iter()
        .filter(|glyph| glyph.ch == ch && (glyph.left - left).abs() <= 0.5)
        .map(|glyph| (glyph, (glyph.baseline - line_y).abs()))
        .filter(|(_, distance)| *distance <= em)
        .min_by(|a, b| a.1.total_cmp(&b.1))
        .map(|(glyph, _)| glyph)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The line every test run is on, as pdf_oxide gives it (shifted runs included).
    const LINE: f32 = 100.0;

    /// A run of `text` at `left`, each glyph `advance` wide, in `size`, on [`LINE`].
    fn run(text: &'static str, left: f32, advance: f32, size: f32) -> GlyphRun<'static> {
        let lefts: Vec<f32> = (0..text.chars().count())
            .map(|i| left + advance * i as f32)
            .collect();
        GlyphRun {
            text,
            left,
            right: left + advance * lefts.len() as f32,
            baseline: LINE,
            font_size: size,
            // A test's few runs live as long as the test binary.
            glyph_left: Box::leak(lefts.into_boxed_slice()),
            glyph_width: &[],
        }
    }

    /// The glyphs of `runs`, each run on the baseline given beside it.
    fn glyphs_of(runs: &[(GlyphRun, f32)]) -> Vec<PlacedGlyph> {
        runs.iter()
            .flat_map(|(run, baseline)| {
                let advance = (run.right - run.left) / run.text.chars().count() as f32;
                run.text
                    .chars()
                    .enumerate()
                    .map(move |(i, ch)| PlacedGlyph {
                        ch,
                        left: run.left + advance * i as f32,
                        baseline: *baseline,
                    })
            })
            .collect()
    }

    #[test]
    fn a_raised_smaller_run_is_a_superscript_and_a_lowered_one_a_subscript() {
        // superscript-pdftex.pdf as pdf_oxide reads it: `x` 10.9 pt, `2` 8 pt, raised 3.8 pt.
        let x = run("x", 55.9, 6.2, 10.9);
        let two = run("2", 62.1, 4.2, 8.0);
        let rest = run("= 9 means", 69.9, 5.6, 10.9);
        let runs = [x, two, rest];
        let glyphs = glyphs_of(&[(x, LINE), (two, LINE + 3.8), (rest, LINE)]);
        assert_eq!(
            mark_shifted_runs("x2 = 9 means".into(), &runs, || glyphs),
            "x^2 = 9 means"
        );

        let h = run("H", 10.0, 7.0, 10.0);
        let two = run("2", 17.0, 4.0, 7.0);
        let o = run("O", 21.0, 7.0, 10.0);
        let runs = [h, two, o];
        let glyphs = glyphs_of(&[(h, 100.0), (two, 98.0), (o, 100.0)]);
        assert_eq!(
            mark_shifted_runs("H2O is water".into(), &runs, || glyphs),
            "H_2O is water"
        );
    }

    #[test]
    fn the_glyph_compared_is_the_one_on_the_runs_line() {
        // `πa²` in a fraction's denominator, with an `a` at the same place in the numerator a
        // line above: that `a` (listed first) is not the base the exponent is raised from.
        let a = run("πa", 20.0, 6.0, 10.0);
        let two = run("2", 32.0, 4.0, 7.0);
        let runs = [a, two];
        let numerator_a = PlacedGlyph {
            ch: 'a',
            left: 26.0,
            baseline: LINE + 12.0,
        };
        let mut glyphs = vec![numerator_a];
        glyphs.extend(glyphs_of(&[(a, LINE), (two, LINE + 3.5)]));
        assert_eq!(
            mark_shifted_runs("Z0 = 1/πa2".into(), &runs, || glyphs),
            "Z0 = 1/πa^2"
        );
    }

    #[test]
    fn runs_that_are_not_shifted_or_not_candidates_are_left_alone() {
        let word = run("Total", 10.0, 5.0, 10.0);
        let cases: Vec<(GlyphRun, f32, &str)> = vec![
            // Same baseline: a unit or small capitals set smaller.
            (run("2", 35.0, 4.0, 7.0), 100.0, "same baseline"),
            // Same size, raised: not a superscript's size.
            (run("2", 35.0, 5.0, 10.0), 104.0, "same size"),
            // Far from the word: a separate label.
            (run("2", 40.0, 4.0, 7.0), 104.0, "apart"),
            // Too long for an exponent or a mark.
            (run("note1", 35.0, 4.0, 7.0), 104.0, "long"),
            // Already a Unicode superscript (pdf_oxide's own substitution).
            (run("²", 35.0, 4.0, 7.0), 104.0, "unicode"),
        ];
        for (shifted, baseline, case) in cases {
            let runs = [word, shifted];
            let glyphs = glyphs_of(&[(word, 100.0), (shifted, baseline)]);
            let text = format!("{}{} due", word.text, shifted.text);
            assert_eq!(
                mark_shifted_runs(text.clone(), &runs, || glyphs),
                text,
                "{case}"
            );
        }
    }

    #[test]
    fn glyphs_are_not_asked_for_without_a_candidate() {
        let runs = [run("plain", 0.0, 5.0, 10.0), run("text", 30.0, 5.0, 10.0)];
        let text = mark_shifted_runs("plain text".into(), &runs, || {
            panic!("glyphs asked for on a page without a candidate")
        });
        assert_eq!(text, "plain text");
    }

    #[test]
    fn a_junction_whose_text_also_appears_unshifted_is_left_alone() {
        // `x2` drawn raised once, but the text also has an `x2` that is a name (`x2 engine`):
        // which occurrence is which cannot be told, so neither is marked.
        let x = run("x", 10.0, 6.0, 10.0);
        let two = run("2", 16.0, 4.0, 7.0);
        let runs = [x, two];
        let glyphs = glyphs_of(&[(x, 100.0), (two, 104.0)]);
        let text = "x2 = 4 and the x2 engine";
        assert_eq!(mark_shifted_runs(text.into(), &runs, || glyphs), text);
    }
}
