//! Table cells of Chinese, Japanese and Korean text kept apart.
//!
//! pdf_oxide never puts a space between two CJK glyph runs (CJK prose has no spaces between
//! words) and removes the one between a CJK character and a number ("公元前 1000 年" reads
//! "公元前1000年"), with no option to keep them. Right for prose, wrong for a table: its cells
//! ran together (`商品编码数量商品名称`, `2.18华联绿豆`) and a price read as part of the product's
//! name. Where the page's geometry shows a real gap at such a junction, the space goes back;
//! not between two single characters, which is how an OCR layer sets every one.

use foldhash::{HashMap, HashMapExt};

use super::pdf_glyph_run::GlyphRun;
use super::pdf_text_replace::{count_all, put_into, InsertAt};

/// `text` (a page with CJK text, as pdf_oxide assembled it from `runs`, in drawing order; the
/// caller checks for CJK, which it needs to know before reading the runs) with a space put back
/// wherever two runs on one line meet at a CJK character across a gap: at least
/// [`GAP_NEXT_TO_LATIN`] of an em where CJK meets a digit or letter (a space's width; or the
/// producer drew a space there), at least [`GAP_BETWEEN_CJK`] between two CJK characters, whose
/// glyphs otherwise abut (justified lines stretch them by far less).
///
/// The repair is done on the text, by the two runs' joined text: a junction is spaced only when
/// no other junction with the same text is tight and no run holds that text whole, so text the
/// PDF draws in one piece is never split.
pub(super) fn space_cjk_cells(text: String, runs: &[GlyphRun]) -> String {
    // Each joined text once, in the order first met (so the result does not depend on
    // hashing): where the space goes, and whether every junction with this text is a gap. A
    // page drawn one glyph per run has thousands of junctions: they are looked up by hash.
    let mut junctions: Vec<(String, usize, bool)> = Vec::new();
    let mut seen: HashMap<String, usize> = HashMap::new();
    for pair in runs.windows(2) {
        let (before, after) = (&pair[0], &pair[1]);
        let (Some(tail), Some(head)) = (
            before.text.trim_end().chars().next_back(),
            after.text.trim_start().chars().next(),
        ) else {
            continue;
        };
        if !(is_cjk_script(tail) || is_cjk_script(head)) {
            continue;
        }
        let size = before.font_size.min(after.font_size).max(1.0);
        if (before.baseline - after.baseline).abs() > size * 0.5 {
            continue; // another line: the assembler breaks it already
        }
        let gap = (after.left - before.right) / size;
        let drawn_space = before.text.ends_with(char::is_whitespace)
            || after.text.starts_with(char::is_whitespace);
        let spaced = if is_cjk_script(tail) && is_cjk_script(head) {
            // Two single glyphs apart are how an OCR layer sets every character (`流 体 力
            // 学`), not two cells: a cell's text is drawn as one run.
            let one_glyph = |run: &GlyphRun| run.text.trim().chars().count() == 1;
            gap >= GAP_BETWEEN_CJK && !(one_glyph(before) && one_glyph(after))
        } else {
            gap >= GAP_NEXT_TO_LATIN || (drawn_space && gap > 0.0)
        };
        // Each run trimmed whole: the junction is looked for in the page's text as it came,
        // where a run's leading space (` 华联绿豆`) may be missing.
        let left = before.text.trim();
        let joined = format!("{left}{}", after.text.trim());
        match seen.get(&joined) {
            Some(&at) => junctions[at].2 &= spaced,
            None => {
                seen.insert(joined.clone(), junctions.len());
                junctions.push((joined, left.len(), spaced));
            }
        }
    }
    let junctions: Vec<(String, usize)> = junctions
        .into_iter()
        .filter(|(_, _, spaced)| *spaced)
        .map(|(joined, split, _)| (joined, split))
        .collect();
    // Text a run draws whole is never split: every run is searched for every junction in one
    // scan, as the page is (a NUL, which no junction holds, keeps runs apart).
    let joined: Vec<&str> = junctions
        .iter()
        .map(|(joined, _)| joined.as_str())
        .collect();
    let all_runs: Vec<&str> = runs.iter().map(|run| run.text).collect();
    let drawn_whole = count_all(&all_runs.join("\0"), &joined);
    let repairs: Vec<InsertAt> = junctions
        .iter()
        .zip(drawn_whole)
        .filter(|(_, whole)| *whole == 0)
        .map(|((joined, split), _)| InsertAt {
            fragment: joined,
            at: vec![*split],
            only_if_found: None,
        })
        .collect();
    put_into(text, &repairs, ' ')
}

/// Gap, in ems, that separates a CJK character from a digit or Latin letter: a space's width.
const GAP_NEXT_TO_LATIN: f32 = 0.3;

/// Gap, in ems, that separates two CJK characters, whose glyphs are set edge to edge.
const GAP_BETWEEN_CJK: f32 = 0.5;

/// A character of a script written without spaces between words: Han ideographs, kana, and
/// Hangul syllables (Korean does use spaces, which the PDF then draws and pdf_oxide keeps).
pub(super) fn is_cjk_script(c: char) -> bool {
    matches!(c as u32,
        0x3040..=0x30FF          // Hiragana, Katakana
        | 0x3400..=0x4DBF        // CJK Unified Ideographs Extension A
        | 0x4E00..=0x9FFF        // CJK Unified Ideographs
        | 0xAC00..=0xD7AF        // Hangul Syllables
        | 0xF900..=0xFAFF        // CJK Compatibility Ideographs
        | 0xFF66..=0xFF9F        // Halfwidth Katakana
        | 0x20000..=0x2FA1F      // Extensions B and later
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(text: &str, left: f32, width: f32, baseline: f32, font_size: f32) -> GlyphRun<'_> {
        GlyphRun {
            text,
            left,
            right: left + width,
            baseline,
            font_size,
            glyph_left: &[],
            glyph_width: &[],
        }
    }

    #[test]
    fn table_cells_get_their_space_back() {
        // The first row of a real invoice table (pypdf's issue-914-xmp-data.pdf).
        let runs = [
            run("商品编码", 70.5, 36.3, 885.3, 9.1),
            run("数量", 115.7, 24.0, 883.0, 12.0),
            run("商品名称", 195.9, 36.3, 885.3, 9.1),
            run("334010052", 342.1, 41.5, 884.2, 9.1),
            run("2.18", 397.1, 24.0, 883.0, 12.0),
            run(" 华联绿豆", 424.9, 40.9, 883.0, 9.1),
            run("302000001", 65.0, 41.5, 869.7, 9.1),
        ];
        let text = "商品编码数量商品名称 334010052 2.18华联绿豆\n302000001".to_string();
        assert_eq!(
            space_cjk_cells(text, &runs),
            "商品编码 数量 商品名称 334010052 2.18 华联绿豆\n302000001"
        );
    }

    #[test]
    fn text_that_is_not_cells_apart_is_left_as_it_is() {
        let cases: [(&str, Vec<GlyphRun>, &str); 5] = [
            (
                // An OCR layer: every character its own run, set where the scan shows it.
                "single glyphs an OCR layer sets apart",
                vec![
                    run("流", 10.0, 10.0, 100.0, 10.0),
                    run("体", 26.0, 10.0, 100.0, 10.0),
                    run("力", 42.0, 10.0, 100.0, 10.0),
                    run("学", 58.0, 10.0, 100.0, 10.0),
                ],
                "流体力学",
            ),
            (
                // One glyph per run, as many CJK producers draw: abutting, or stretched a little
                // by justification, and a number set tight against its counter.
                "prose set edge to edge",
                vec![
                    run("公", 10.0, 10.0, 100.0, 10.0),
                    run("元", 20.5, 10.0, 100.0, 10.0),
                    run("前", 31.0, 10.0, 100.0, 10.0),
                    run("1000", 41.5, 20.0, 100.0, 10.0),
                    run("年", 62.0, 10.0, 100.0, 10.0),
                ],
                "公元前1000年",
            ),
            (
                "apart in a header, drawn as one run in a sentence",
                vec![
                    run("数量", 10.0, 20.0, 100.0, 10.0),
                    run("单位", 60.0, 20.0, 100.0, 10.0),
                    run("按数量单位计价", 10.0, 70.0, 80.0, 10.0),
                ],
                "数量单位\n按数量单位计价",
            ),
            (
                "apart on one line, tight on another",
                vec![
                    run("数量", 10.0, 20.0, 100.0, 10.0),
                    run("单位", 60.0, 20.0, 100.0, 10.0),
                    run("数量", 10.0, 20.0, 80.0, 10.0),
                    run("单位", 30.0, 20.0, 80.0, 10.0),
                ],
                "数量单位\n数量单位",
            ),
            (
                "Latin apart, and runs on different lines",
                vec![
                    run("Total", 10.0, 25.0, 100.0, 10.0),
                    run("42", 80.0, 10.0, 100.0, 10.0),
                    run("合计", 10.0, 20.0, 100.0, 10.0),
                    run("数量", 10.0, 20.0, 80.0, 10.0),
                ],
                "Total42\n合计\n数量",
            ),
        ];
        for (case, runs, text) in cases {
            assert_eq!(space_cjk_cells(text.to_string(), &runs), text, "{case}");
        }
    }

    proptest::proptest! {
        /// Whatever the runs and the text, the repair only ever adds spaces.
        #[test]
        fn only_spaces_are_ever_added(
            pieces in proptest::collection::vec(
                ("[数量单位合计2.1a ]{1,4}", 0f32..200.0, 1f32..40.0, 0u8..3, 5f32..14.0),
                0..12,
            ),
            separators in proptest::collection::vec("[ \n]{0,1}", 12),
        ) {
            let runs: Vec<GlyphRun> = pieces
                .iter()
                .map(|(text, left, width, line, size)| {
                    run(text, *left, *width, f32::from(*line) * 20.0, *size)
                })
                .collect();
            let text: String = pieces
                .iter()
                .zip(&separators)
                .map(|((piece, ..), separator)| format!("{piece}{separator}"))
                .collect();
            let repaired = space_cjk_cells(text.clone(), &runs);
            let without_spaces = |s: &str| s.replace(' ', "");
            proptest::prop_assert_eq!(without_spaces(&repaired), without_spaces(&text));
        }
    }
}
