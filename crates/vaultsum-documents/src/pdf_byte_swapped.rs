//! Text a PDF maps to Unicode with its bytes swapped.
//!
//! Some producers write a font's `ToUnicode` map in UTF-16 little-endian where the format is
//! big-endian: `M` (U+004D) comes out as `䴀` (U+4D00), and a page of English reads as a page
//! of rare ideographs, which a model takes for content (PDFium reads such a file the same way;
//! ocrmypdf's `cmyk.pdf` is one). Such a page is recognisable, since almost every character is
//! U+XX00 with XX a printable ASCII byte, and is read with its bytes swapped back.

/// `text` with its bytes swapped back when it is such a page; otherwise unchanged.
pub(super) fn unswapped(text: String) -> String {
    let (mut swapped, mut letters, mut visible) = (0usize, 0usize, 0usize);
    for c in text.chars() {
        if let Some(ascii) = swapped_ascii(c) {
            swapped += 1;
            letters += usize::from(ascii.is_ascii_alphanumeric());
            visible += 1;
        } else if !c.is_whitespace() {
            visible += 1;
        }
    }
    // Real CJK text has a character of this form once in 256 or so: nine in ten of a page's
    // characters (and at least eight) is not chance. Half of them letters or digits once
    // swapped, so a page of box-drawing rules (`─` is U+2500, `%` swapped) stays as it is.
    if visible < 8 || swapped * 10 < visible * 9 || letters * 2 < swapped {
        return text;
    }
    text.chars()
        .map(|c| swapped_ascii(c).unwrap_or(c))
        .collect()
}

/// The printable ASCII character `c` is with its two bytes swapped, if it is one.
fn swapped_ascii(c: char) -> Option<char> {
    let code = c as u32;
    let high = code >> 8;
    (code & 0xFF == 0 && (0x20..=0x7E).contains(&high)).then(|| char::from(high as u8))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_page_of_swapped_bytes_reads_as_its_ascii() {
        // ocrmypdf's cmyk.pdf as pdf_oxide and PDFium read it (the zeros are U+3000, the
        // ideographic space, which `0` swapped is).
        let read =
            "䴀 甀氀琀椀挀漀氀漀爀 䈀氀愀挀 欀\n倀 甀爀攀 䈀氀愀挀 欀 ⠀䬀 㴀 ㄀\u{3000}\u{3000}⤀";
        assert_eq!(
            unswapped(read.to_string()),
            "M ulticolor Blac k\nP ure Blac k (K = 100)"
        );
    }

    #[test]
    fn chinese_and_english_are_left_as_they_are() {
        for text in [
            "一丁七万丈三上下不与丐丑专且丕世丘丙业丛东丝丞丢两严丧", // U+4E00.. has 一 (U+4E00)
            "商品编码 数量 商品名称 商品基本条码",
            "Plain English text, nothing swapped here.",
            "一",                                      // too short to tell
            "──────────────────────── ──────────────", // box-drawing rules
        ] {
            assert_eq!(unswapped(text.to_string()), text);
        }
    }
}
