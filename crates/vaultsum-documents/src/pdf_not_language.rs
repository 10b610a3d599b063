//! A page's text layer that is not language. A font without a Unicode map gives the reader its
//! glyph codes, and those land wherever the codes happen to fall: on punctuation and digits
//! (`!"# $ %&'( ) * + , - .`), or on letters, digits and symbols alike
//! (`ci[*]j!l7tvKtvr`#^_qsj`, `ab^lr[ot^lX'˘`j=|}`). PDFium reads such pages the same way. Sent as
//! text, a model pays for the noise and may summarize it.

use unicode_normalization::char::is_combining_mark;

/// What a page's text (cleaned) reads as.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Reading {
    /// Language, in some script: most of its letters stand in words.
    Language,
    /// Not language: its codes land on punctuation ([`is_codes_on_punctuation`]), or its letters
    /// sit in strings no language writes ([`letters_in_words`]).
    NotLanguage,
    /// Too few letters to tell (fewer than [`MIN_LETTERS`] in strings of two or more), every one
    /// of them in a word, one word of [`MIN_LONG_WORD`] letters or more among them: a title, a
    /// caption (`4 Review of Previous Key`). Codes landing on letters one or two at a time
    /// (`JB`, `PG`) do not make one.
    Short,
    /// Too few letters to tell, some of them outside words, or none at all: a page of labels, a
    /// page number, a table of figures, or a page of soup with little on it (`!"# $ %&’(`) read
    /// alike. Its document decides (`pdf.rs: settle_undecided`).
    Undecided,
}

/// How `text` (one page, cleaned) reads.
pub(super) fn reading(text: &str) -> Reading {
    if is_codes_on_punctuation(text) {
        return Reading::NotLanguage;
    }
    let (letters, in_words) = letters_in_words(text);
    if letters < MIN_LETTERS {
        match in_words == letters && has_long_word(text) {
            true => Reading::Short,
            false => Reading::Undecided,
        }
    } else if in_words * 100 < letters * MIN_WORD_SHARE_PERCENT {
        Reading::NotLanguage
    } else {
        Reading::Language
    }
}

/// At least [`MIN_VISIBLE`] visible characters, almost no letters (fewer than one in ten), not
/// one word of two or more letters in a row, and more punctuation and symbols than digits.
///
/// Letters are letters of any script (`char::is_alphabetic`: Latin, CJK, Arabic, Devanagari);
/// a combining mark continues a word without counting as a letter, so a Devanagari conjunct
/// (`क्ष`: letter, virama, letter) is one word of two letters. The digit test keeps a page of
/// numbers (a table without words, an appendix of figures) as text: its digits outnumber its
/// punctuation, where codes landing from `!` on are mostly punctuation.
fn is_codes_on_punctuation(text: &str) -> bool {
    let (mut visible, mut letters, mut digits, mut symbols) = (0usize, 0usize, 0usize, 0usize);
    let mut run_letters = 0usize;
    for c in text.chars() {
        if c.is_alphabetic() {
            letters += 1;
            run_letters += 1;
            if run_letters >= 2 {
                return false;
            }
        } else if !is_combining_mark(c) {
            run_letters = 0;
        }
        if c.is_whitespace() {
            continue;
        }
        visible += 1;
        if c.is_numeric() {
            digits += 1;
        } else if !c.is_alphabetic() && !is_combining_mark(c) {
            symbols += 1;
        }
    }
    visible >= MIN_VISIBLE && letters * 10 < visible && symbols > digits
}

/// Visible characters below which a page is left as it is: a page number, a rule of dashes.
const MIN_VISIBLE: usize = 20;

/// The letters of `text` that can tell language from soup, and how many of them stand in
/// [word-shaped](is_word_shaped) strings.
///
/// Every language writes its words as letters (with digits and marks) between spaces and
/// punctuation, joined at most by a hyphen, an apostrophe or a dot; codes landing on letters and
/// symbols alike write `ci[*]j!l7tvKtvr`, where the letters sit beside brackets, stars and
/// backquotes. So the test needs no word list and no model of any language, and it reads CJK,
/// Arabic, Devanagari and Thai as it reads English. Formulas and code do put symbols inside
/// their strings (`f(x)=a^2`, `x->next`), but a page of them still has its prose (`Let`, `where`,
/// `the`), which stands apart: measured on the pages of 193 papers of every vintage and 970
/// PDFs made to break readers (eval/README.md). A letter standing alone tells nothing (`x`, `a`,
/// `A, B, C`, a table of characters) and is not counted; a link (`https://…`) is a word.
pub(super) fn letters_in_words(text: &str) -> (usize, usize) {
    let (mut letters, mut in_words) = (0usize, 0usize);
    for token in Tokens::new(text) {
        let count = token.chars().filter(|c| c.is_alphabetic()).count();
        let core = token.trim_matches(|c: char| !is_word_char(c));
        if count == 0 || (count == 1 && !core.chars().any(is_ideograph_or_syllable)) {
            continue;
        }
        letters += count;
        if is_link(core) || is_word_shaped(core) {
            in_words += count;
        }
    }
    (letters, in_words)
}

/// The strings of a page: what stands between [breaks](is_token_break), except that a run of at
/// least [`MIN_SPACED_RUN`] single characters set one space apart is one string
/// (`W t ` a W \ \ W ^ O T Q N`): a reader spaces a letter-spaced line glyph by glyph, and the
/// glyphs, read together, are what tells a word. A shorter run (`y = x * x - c`, `A B S T R A C
/// T`) stays single characters, which tell nothing.
struct Tokens<'a> {
    text: &'a str,
}

impl<'a> Tokens<'a> {
    fn new(text: &'a str) -> Tokens<'a> {
        Tokens { text }
    }
}

impl<'a> Iterator for Tokens<'a> {
    type Item = &'a str;

    fn next(&mut self) -> Option<&'a str> {
        let text = self.text.trim_start_matches(is_token_break);
        if text.is_empty() {
            self.text = text;
            return None;
        }
        let end_of = |from: &str| from.find(is_token_break).unwrap_or(from.len());
        let mut end = end_of(text);
        if text[..end].chars().count() == 1 {
            // Extend over ` c` pairs: one space, then a single character.
            let (mut run_end, mut singles) = (end, 1usize);
            loop {
                let rest = &text[run_end..];
                let Some(after) = rest.strip_prefix(' ') else {
                    break;
                };
                let next = end_of(after);
                if next == 0 || after[..next].chars().count() != 1 {
                    break;
                }
                run_end += 1 + next;
                singles += 1;
            }
            if singles >= MIN_SPACED_RUN {
                end = run_end;
            }
        }
        self.text = &text[end..];
        Some(&text[..end])
    }
}

/// Single characters one space apart from which they are read as one string: a line's worth,
/// longer than a formula's `y = x * x - c` or a heading's `A B S T R A C T`.
const MIN_SPACED_RUN: usize = 12;

/// A web address as a page prints it: its symbols (`?`, `=`, `%`, `~`, `_-_`)
/// are the address's, not soup.
fn is_link(core: &str) -> bool {
    ["http://", "https://", "www."]
        .iter()
        .any(|scheme| core.starts_with(scheme))
}

/// Whether `text` has a run of [`MIN_LONG_WORD`] letters or more (marks inside it allowed).
fn has_long_word(text: &str) -> bool {
    let mut run = 0usize;
    for c in text.chars() {
        if c.is_alphabetic() {
            run += 1;
            if run >= MIN_LONG_WORD {
                return true;
            }
        } else if !is_combining_mark(c) {
            run = 0;
        }
    }
    false
}

/// Letters in a row that make a word stray codes are unlikely to write: `Review`, not the `JB`
/// and `QQQ` of data-compression.pdf.
const MIN_LONG_WORD: usize = 4;

/// Letters (in strings of two or more) below which a page cannot be told from soup by itself: a
/// few labels, a caption.
const MIN_LETTERS: usize = 40;

/// The share of a page's letters, in percent, that must stand in word-shaped strings.
const MIN_WORD_SHARE_PERCENT: usize = 50;

/// Where a page's text breaks into strings: spaces, and the punctuation of scripts written
/// without spaces (CJK `。`, `，`, `「`, fullwidth forms), which stands between their words as a
/// space would.
fn is_token_break(c: char) -> bool {
    c.is_whitespace()
        || ('\u{3000}'..='\u{303F}').contains(&c)
        || ('\u{FF01}'..='\u{FF0F}').contains(&c)
        || ('\u{FF1A}'..='\u{FF20}').contains(&c)
        || ('\u{FF3B}'..='\u{FF40}').contains(&c)
        || ('\u{FF5B}'..='\u{FF65}').contains(&c)
}

/// Whether `core` (a string with the punctuation before and after it set aside: `(word`,
/// `word),`, `“word.”`) is written as a word: only letters, digits and combining marks, joined by
/// single [connectors](is_connector) (`well-known`, `don't`, `e.g`, `x^2`, `3.14`,
/// `amet,consetetur` where a reader glued two words). The spaces inside a string of single
/// characters ([`Tokens`]) are not its characters.
fn is_word_shaped(core: &str) -> bool {
    let mut after_connector = false;
    for c in core.chars().filter(|&c| c != ' ') {
        if is_word_char(c) {
            after_connector = false;
        } else if is_connector(c) && !after_connector {
            after_connector = true;
        } else {
            return false;
        }
    }
    true
}

/// A letter, digit or combining mark (a Devanagari vowel sign or virama, an accent).
fn is_word_char(c: char) -> bool {
    c.is_alphanumeric() || is_combining_mark(c)
}

/// What joins the parts of a word in some language or notation: hyphens and dashes, apostrophes,
/// a dot (`e.g`, `3.14`, `voluptua.At` glued by a reader), `,` and `;` between two words a reader
/// glued, the middle dot (Catalan `l·l`), `/` (`and/or`), `:` (`http://`, Swedish `S:t`), `&`, `@`,
/// `+`, and `^`/`_` (the superscript and subscript marks `pdf_shifted_runs` writes: `x^2`, `Z_0`).
fn is_connector(c: char) -> bool {
    matches!(
        c,
        '-' | '\u{2010}'
            | '\u{2011}'
            | '\u{2013}'
            | '\u{2014}'
            | '\''
            | '\u{2019}'
            | '.'
            | ','
            | ';'
            | '\u{00B7}'
            | '/'
            | ':'
            | '&'
            | '@'
            | '+'
            | '^'
            | '_'
    )
}

/// A character of a script that writes each word or syllable as one character and leaves no
/// space between them: Han, kana, Hangul. One of them alone is a word (an OCR layer of Japanese
/// spaces them one by one).
fn is_ideograph_or_syllable(c: char) -> bool {
    matches!(c,
        '\u{3040}'..='\u{30FF}'
        | '\u{3400}'..='\u{4DBF}'
        | '\u{4E00}'..='\u{9FFF}'
        | '\u{AC00}'..='\u{D7AF}'
        | '\u{F900}'..='\u{FAFF}'
        | '\u{FF66}'..='\u{FF9F}'
        | '\u{20000}'..='\u{2FA1F}')
}

#[cfg(test)]
mod tests {
    use super::*;

    fn is_not_language(text: &str) -> bool {
        reading(text) == Reading::NotLanguage
    }

    #[test]
    fn codes_landing_on_punctuation_are_not_language() {
        assert!(is_not_language(
            "!\"# $ %&\u{2019}( ) * + , - .\n/ 0 1 !\"# $ %&\u{2019}( ) * + , - .\n2 3 ( ) * 4"
        ));
        // A stray letter among them (a code past `@`) does not make them words.
        assert!(is_not_language(
            "!\"# $ %&'( ) * + , - . A / ! \"# $ %&'( ) * + , - . : ; < = > ?"
        ));
    }

    #[test]
    fn codes_landing_on_letters_and_symbols_alike_are_not_language() {
        // Three of the papers-we-love PDFs of issue 43, as pdf_oxide reads them: without
        // spaces, and spaced glyph by glyph.
        let pages = [
            "li]|bHp*^Pc5bxqp„bHcug]s`KnEcip`#^v^Pmƒ]?lit ]#dgWm iŒfº†Ea¥Y‹W«“#flZ\\[w] \\]?li»ƒ]k^v]?m\n\
             tvrc7[*]qstGd*d^P]\n\
             d*`#c5`eg„`!bH]|bE”}`!bætPqs~*^vtGnEtvc7^2mMbHp*K!]#bci]#dtPrd*`#c5`eg„`!bH]Mci[w]?j!l7m",
            "¾;Z@|ZXr@[ym{t^bj6^lkv4lt[{t=^l ¿\n\
             ”1ZgZmj=|¥Zj6[oabmoZXts[ylZlZ@m{jrxghƒj=m{Z8uwvtmo[{j=^z[\"^˙ab^lk4Z@m{[j=^bk4^l£⁄[obZ\n\
             j=rXr@kbZ@^z[oX…m{[q4|}‹Z/[olZlZmjr xj6^lk[ylZlZ@m{jrx104qb[ylZlZ@m{jrxgh«VrXt^4x",
            "W t ` a W \\ \\ W ^ O T Q N a T U U _ T O ^ R Z ` U R P R Q U _ f Y \\ T O W t T Z ` U W\n\
             ] S U U S r R O b W t ` a W \\ \\ R S O W X T U N T Q W \\ Q S T O T O R Z T Q R S O\n\
             R Z T b W s W c T X R S a [ P S O Q T R O R O b T P R a P U W S X W a T \\ ~ N T a W f Y Q",
        ];
        for page in pages {
            let (letters, in_words) = letters_in_words(page);
            assert!(letters >= MIN_LETTERS && in_words * 10 < letters, "{page}");
            assert!(is_not_language(page), "{page}");
        }
    }

    #[test]
    fn words_of_every_script_are_language() {
        let pages = [
            "Results: 0.12 (0.03), 0.45 (0.07); p < 0.01",
            // Chinese, Japanese, Korean
            "实验结果（表３）：０．１２，０．４５。",
            "結果は表３の通り：０．１２、０．４５。",
            "결과: 0.12, 0.45 (표 3) ...............",
            // Arabic, in letters and in presentation forms (what PDFs often carry)
            "النتائج: ٠٫١٢ (٠٫٠٣)، ٠٫٤٥ (٠٫٠٧) ...............",
            "\u{FE8E}\u{FEDF}\u{FEE8}\u{FE98}\u{FE8E}\u{FE8B}\u{FE9E}: (0.03) ...............",
            // Devanagari: conjuncts with a virama, vowel signs, a nukta
            "परिणाम: क्ष (०.१२), ज़ (०.४५) ...............",
        ];
        for page in pages {
            assert!(!is_not_language(page), "{page}");
        }
    }

    #[test]
    fn long_pages_of_every_script_are_language() {
        let pages = [
            "本报告总结了二〇二六年第三季度水泵检查的结果。检查发现，过滤器更换后水泵运行温度偏高，\
             技术人员记录了两次读数。办公室预约了第二天上午的维修，并要求在上门前提供铭牌照片。",
            // An OCR layer of Japanese: one character per string.
            "こ の 報 告 書 は 、 ポ ン プ 点 検 の 結 果 を ま と め た も の で す 。 フ ィ ル タ ー 交 換 後 に \
             ポ ン プ が 高 温 で 運 転 し て い る こ と が 分 か り ま し た 。",
            "이 보고서는 펌프 점검 결과를 요약합니다. 필터 교체 후 펌프가 과열된 상태로 작동하는 것이 \
             확인되었습니다. 사무실은 다음 날 아침 수리를 예약했습니다.",
            "يلخص هذا التقرير نتائج فحص المضخة. وجد الفحص أن المضخة تعمل بحرارة عالية بعد تغيير المرشح. \
             حجز المكتب موعدا للإصلاح في صباح اليوم التالي.",
            "यह रिपोर्ट पंप निरीक्षण के परिणामों का सारांश प्रस्तुत करती है। फ़िल्टर बदलने के बाद पंप गर्म चल रहा था। \
             क्षेत्र कार्यालय ने अगली सुबह मरम्मत की व्यवस्था की।",
            "รายงานนี้สรุปผลการตรวจสอบปั๊มน้ำ พบว่าปั๊มทำงานร้อนเกินไปหลังจากเปลี่ยนไส้กรอง \
             สำนักงานได้นัดซ่อมในเช้าวันถัดไป",
            // A heading set letter by letter, then its text.
            "A B S T R A C T\nThe pump was found running hot after the filter change, twice.",
        ];
        for page in pages {
            let (letters, in_words) = letters_in_words(page);
            assert!(letters >= MIN_LETTERS && in_words == letters, "{page}");
            assert_eq!(reading(page), Reading::Language, "{page}");
        }
    }

    #[test]
    fn formulas_code_links_and_tables_of_characters_are_language() {
        let math = "Let f(x)=a^2+b_1 x for all x ∈ [0,1], where a,b>0. Then ‖f‖≤(a+b)^2 and \
                    ∫_0^1 f(x)dx = a^2+b_1/2. Since g(x)=f(x)−f(0) is convex, g'(x)≥0 for x>x_0, \
                    and the bound σ_n^2 ≤ n·max_i |x_i|^2 follows from (3.2) by induction on n.";
        let code =
            "The loop walks the list:\nwhile (p != NULL) { sum += p->value; p = p->next; }\n\
                    for (int i = 0; i < n; i++) a[i] = b[i] * c[i];\nreturn sum;\n\
                    Each call frees the node it was given and returns the next one.";
        let links = "Image sources:\n\
                     http://upload.wikimedia.org/wikipedia/commons/thumb/0/0d/Hiawatha_-_Eakins.jpg/220px-Hiawatha\n\
                     https://example.org/search?q=pump%20survey&lang=en#results";
        // A font's test page: each character once, one space apart, in code order.
        let characters =
            "FONT: courier\n! \" # $ % & ' ( ) * + , - . /\n0 1 2 3 4 5 6 7 8 9 : ; < = > ?\n\
                          @ A B C D E F G H I J K L M N O P Q R S T U V W X Y Z [ \\ ] ^ _\n\
                          ` a b c d e f g h i j k l m n o p q r s t u v w x y z { | } ~";
        let labels =
            "A, B, C = 0.00, 0.00, 0.00 A, B, C = 0.05, 0.00, 0.00 A, B, C = 0.10, 0.00, 0.00";
        for page in [math, code, links, characters] {
            assert_eq!(reading(page), Reading::Language, "{page}");
        }
        assert!(!is_not_language(labels));
    }

    #[test]
    fn words_glued_by_a_reader_are_language() {
        let glued = "Loremipsumdolorsitamet,consetetursadipscing\n\
                     elitr,seddiamnonumyeirmodtemporinviduntutlaboreetdoloremagnaaliquyamerat,seddiam\n\
                     voluptua.Atveroeosetaccusametjustoduodoloresetearebum.Stetclitakasdgubergren";
        assert_eq!(reading(glued), Reading::Language);
    }

    #[test]
    fn a_devanagari_word_joined_by_a_virama_is_a_word() {
        // Two letters joined by a virama (not alphabetic in Unicode, a combining mark), among
        // punctuation: the one word keeps the page as text.
        let page = format!("क्ष {}", "( ) * + , - . ".repeat(4));
        assert!(!is_not_language(&page));
        let without = "क ्ष ( ) * + , - . ( ) * + , - . ( ) * + , - .";
        assert!(is_not_language(without));
    }

    #[test]
    fn a_page_with_few_letters_is_short_or_undecided() {
        // A figure's few labels, one of them odd: too little to tell, so the document decides.
        for page in [
            "Plunger\nMirror\nX-ray mode\n¾;Z@|ZXr@[ym{t^bj6",
            // Codes landing on punctuation with a few letters among them (data-compression.pdf).
            "5D % G ? ?! = ?=(\nP % L M 2 ) $ L M 4 5 ? G P% J\n/J3 3 93 %&00A %&’!1",
            "– 12 –",
        ] {
            assert_eq!(reading(page), Reading::Undecided, "{page}");
        }
        // A few letters, every one in a word, one word a real length: short, and text wherever
        // it stands. Two-letter strings of codes are not that.
        assert_eq!(reading("4 Review of Pr vious Key"), Reading::Short);
        assert_eq!(reading("encryption."), Reading::Short);
        assert_eq!(
            reading("* J N %&’= * 3 | JB %%0 | ) PG 4% P | L M | QQQ"),
            Reading::Undecided
        );
    }

    #[test]
    fn numbers_short_pages_and_single_letters_are_left_alone() {
        // A table of numbers without a word: digits outnumber the punctuation.
        assert!(!is_not_language(
            "0.12 0.34 0.56\n1.23 4.56 7.89\n10.1 11.2 12.3\n(3) (4) (5)"
        ));
        // A page number, a short rule.
        assert!(!is_not_language("– 12 –"));
        assert!(!is_not_language("* * * * *"));
        // Formulas with one-letter variables: letters are more than one character in ten.
        assert!(!is_not_language(
            "x = (a + b) / 2; y = x * x - c; z = (x + y) / (a - b)"
        ));
    }
}
