//! Numbers as written, with the forms that mean the same value: digit grouping by locale
//! (`4,000`, `4.000`, `4 000`, `4'000`), decimal commas, `k`/`million` multipliers, and the
//! unit, currency or percent sign written beside them.

use std::ops::Range;

use super::fold::is_word_char;

/// What a number is of.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Unit {
    /// Nothing this module knows beside it.
    None,
    /// `%`, `percent`, `per cent`, `pct`.
    Percent,
    /// A currency by its ISO code (`EUR` for `€`, `euros`, `EUR`).
    Currency(&'static str),
    /// A unit of measure by one name for all its spellings (`hour` for `h`, `hrs`, `hours`).
    Measure(&'static str),
}

/// A number of a text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NumberMention {
    /// The number with its unit, in bytes of the text.
    pub span: Range<usize>,
    /// The values it may mean, canonical (`4000`, `4.5`): more than one where the locale is
    /// ambiguous (`4.000` is 4000 in German and 4 in English).
    pub values: Vec<String>,
    /// Its unit, currency or percent sign.
    pub unit: Unit,
}

/// The separators a number may be grouped or split by.
fn is_separator(c: char) -> bool {
    matches!(
        c,
        ',' | '.' | '\'' | ' ' | '\u{a0}' | '\u{202f}' | '\u{2009}'
    )
}

fn is_space_separator(c: char) -> bool {
    matches!(c, ' ' | '\u{a0}' | '\u{202f}' | '\u{2009}')
}

/// The numbers of `text`, outside `skip` (sorted, disjoint byte ranges already taken by
/// dates and times). A number glued to a letter before it (`Q3`, `v2`, `H2O`) is a name's
/// part, not a number.
pub fn numbers(text: &str, skip: &[Range<usize>]) -> Vec<NumberMention> {
    let bytes = text.as_bytes();
    let mut found = Vec::new();
    let mut i = 0;
    let mut skip = skip.iter().peekable();
    while i < bytes.len() {
        while skip.peek().is_some_and(|r| r.end <= i) {
            skip.next();
        }
        if let Some(r) = skip.peek() {
            if r.start <= i {
                i = r.end;
                continue;
            }
        }
        if !bytes[i].is_ascii_digit() {
            i += 1;
            continue;
        }
        let glued = text[..i].chars().next_back().is_some_and(is_word_char);
        let (end, groups) = scan_groups(text, i, skip.peek().map_or(text.len(), |r| r.start));
        if glued {
            i = end;
            continue;
        }
        let mut values = interpretations(&groups, &text[i..end]);
        let (after_mult, multiplier) = multiplier(text, end);
        if let Some(zeros) = multiplier {
            // Only the scaled value: `4 million` never means 4 (which `4,000` also reads as,
            // with a decimal comma), so a thousandfold error is not supported by it.
            let scaled: Vec<String> = values.iter().filter_map(|v| scale(v, zeros)).collect();
            if !scaled.is_empty() {
                values = scaled;
            }
        }
        let (start, before) = unit_before(text, i);
        let (unit_end, after) = unit_after(text, after_mult);
        // A letter straight after the number that is no unit (`3D`, `2FA`): not a quantity.
        if after == Unit::None
            && multiplier.is_none()
            && text[end..].chars().next().is_some_and(char::is_alphabetic)
            && !is_ordinal(&text[end..])
        {
            i = end;
            continue;
        }
        let unit = if before != Unit::None { before } else { after };
        let span_end = if after != Unit::None {
            unit_end
        } else {
            after_mult
        };
        let span_end = ordinal_end(text, span_end);
        values.dedup();
        found.push(NumberMention {
            span: start..span_end,
            values,
            unit,
        });
        i = end;
    }
    found
}

/// Every maximal run of ASCII digits of `text` as an integer value: what a source holds even
/// where it is part of something else (a date, a version, `Q3`).
pub fn digit_runs(text: &str) -> impl Iterator<Item = String> + '_ {
    text.as_bytes()
        .split(|b| !b.is_ascii_digit())
        .filter(|run| !run.is_empty())
        .map(|run| canonical(std::str::from_utf8(run).unwrap_or("0"), ""))
}

/// From the digit at `start`: the end of the number and its digit groups, each with the
/// separator before it. A space groups only a following group of exactly three digits.
fn scan_groups(text: &str, start: usize, limit: usize) -> (usize, Vec<(Option<char>, &str)>) {
    let bytes = text.as_bytes();
    let digits_from = |at: usize| {
        let mut j = at;
        while j < limit && bytes[j].is_ascii_digit() {
            j += 1;
        }
        j
    };
    let mut end = digits_from(start);
    let mut groups = vec![(None, &text[start..end])];
    while let Some(sep) = text[end..limit.max(end)].chars().next() {
        if !is_separator(sep) {
            break;
        }
        let next = end + sep.len_utf8();
        if next >= limit || !bytes[next].is_ascii_digit() {
            break;
        }
        let group_end = digits_from(next);
        if is_space_separator(sep)
            && (group_end - next != 3 || groups.last().is_some_and(|(_, g)| g.len() > 3))
        {
            break;
        }
        groups.push((Some(sep), &text[next..group_end]));
        end = group_end;
    }
    (end, groups)
}

/// The values the groups may mean: English (`,` groups, `.` is the decimal point) and
/// continental (`.` groups, `,` is the decimal comma) readings, whichever are valid; a token
/// neither reading explains (`1.2.3`, `1,2,3`) stands for itself.
fn interpretations(groups: &[(Option<char>, &str)], raw: &str) -> Vec<String> {
    let mut values = Vec::new();
    for decimal in ['.', ','] {
        if let Some(value) = reading(groups, decimal) {
            if !values.contains(&value) {
                values.push(value);
            }
        }
    }
    if values.is_empty() {
        values.push(raw.chars().filter(|c| !is_space_separator(*c)).collect());
    }
    values
}

/// `groups` read with `decimal` as the decimal separator, or `None` when they cannot be.
fn reading(groups: &[(Option<char>, &str)], decimal: char) -> Option<String> {
    let mut integer = String::new();
    let mut fraction = None;
    for (index, (sep, digits)) in groups.iter().enumerate() {
        match sep {
            None => integer.push_str(digits),
            Some(c) if *c == decimal => {
                if index != groups.len() - 1 {
                    return None;
                }
                fraction = Some(*digits);
            }
            Some(c) if c == &'.' || c == &',' || c == &'\'' || is_space_separator(*c) => {
                if digits.len() != 3 || groups[0].1.len() > 3 {
                    return None;
                }
                integer.push_str(digits);
            }
            Some(_) => return None,
        }
    }
    Some(canonical(&integer, fraction.unwrap_or("")))
}

/// `integer.fraction` without leading zeros in the integer or trailing zeros in the fraction.
fn canonical(integer: &str, fraction: &str) -> String {
    let integer = integer.trim_start_matches('0');
    let integer = if integer.is_empty() { "0" } else { integer };
    let fraction = fraction.trim_end_matches('0');
    if fraction.is_empty() {
        integer.to_string()
    } else {
        format!("{integer}.{fraction}")
    }
}

/// A canonical value times ten to the `zeros`.
fn scale(value: &str, zeros: usize) -> Option<String> {
    let (integer, fraction) = value.split_once('.').unwrap_or((value, ""));
    if integer.len() + zeros > 30 {
        return None;
    }
    let mut digits = format!("{integer}{fraction}");
    let point = integer.len() + zeros;
    while digits.len() < point {
        digits.push('0');
    }
    Some(canonical(&digits[..point], &digits[point..]))
}

/// A multiplier after the number (`4k`, `4 thousand`, `1.2M`, `3 million`, `2bn`): the end of
/// it and its power of ten.
fn multiplier(text: &str, end: usize) -> (usize, Option<usize>) {
    let rest = &text[end..];
    let trimmed = rest.strip_prefix([' ', '\u{a0}']).unwrap_or(rest);
    let skipped = rest.len() - trimmed.len();
    let word_len = trimmed
        .char_indices()
        .find(|(_, c)| !c.is_alphabetic())
        .map_or(trimmed.len(), |(i, _)| i);
    let word = &trimmed[..word_len];
    let zeros = match word {
        "k" | "K" if skipped == 0 => 3,
        "M" if skipped == 0 => 6,
        "thousand" => 3,
        "million" | "mln" | "mio" | "Mio" => 6,
        "bn" | "billion" => 9,
        _ => return (end, None),
    };
    (end + skipped + word_len, Some(zeros))
}

/// A currency written before the number (`€4,000`, `$ 12`, `EUR 4000`, `US$5`): the start
/// of the mention and the currency.
fn unit_before(text: &str, start: usize) -> (usize, Unit) {
    let before = &text[..start];
    let trimmed = before.strip_suffix([' ', '\u{a0}']).unwrap_or(before);
    for (written, code) in [
        ("US$", "USD"),
        ("$", "USD"),
        ("€", "EUR"),
        ("£", "GBP"),
        ("¥", "JPY"),
        ("₹", "INR"),
        ("EUR", "EUR"),
        ("USD", "USD"),
        ("GBP", "GBP"),
        ("CHF", "CHF"),
        ("JPY", "JPY"),
    ] {
        if let Some(rest) = trimmed.strip_suffix(written) {
            let word_like = written.chars().all(|c| c.is_ascii_uppercase());
            if word_like && rest.chars().next_back().is_some_and(is_word_char) {
                continue;
            }
            return (rest.len(), Unit::Currency(code));
        }
    }
    (start, Unit::None)
}

/// A unit after the number (`%`, `€`, ` euros`, ` hours`, `km`): the end of it and the unit.
fn unit_after(text: &str, end: usize) -> (usize, Unit) {
    let rest = &text[end..];
    let trimmed = rest
        .strip_prefix([' ', '\u{a0}', '\u{202f}'])
        .unwrap_or(rest);
    let skipped = rest.len() - trimmed.len();
    if let Some(c) = trimmed.chars().next() {
        let symbol = match c {
            '%' => Some(Unit::Percent),
            '€' => Some(Unit::Currency("EUR")),
            '$' => Some(Unit::Currency("USD")),
            '£' => Some(Unit::Currency("GBP")),
            _ => None,
        };
        if let Some(unit) = symbol {
            return (end + skipped + c.len_utf8(), unit);
        }
    }
    let word_len = trimmed
        .char_indices()
        .find(|(_, c)| !c.is_alphabetic())
        .map_or(trimmed.len(), |(i, _)| i);
    let word = &trimmed[..word_len];
    let after_word = &trimmed[word_len..];
    if word.is_empty() {
        return (end, Unit::None);
    }
    if word.eq_ignore_ascii_case("per") {
        if let Some(tail) = after_word.strip_prefix(" cent") {
            if !tail.chars().next().is_some_and(char::is_alphabetic) {
                return (end + skipped + word_len + " cent".len(), Unit::Percent);
            }
        }
    }
    match unit_word(word) {
        Some(unit) => (end + skipped + word_len, unit),
        None => (end, Unit::None),
    }
}

/// A unit's spellings (ASCII case ignored for words of more than two letters; `m` and `M`,
/// `g` and `G` differ).
fn unit_word(word: &str) -> Option<Unit> {
    let lower = word.to_ascii_lowercase();
    let key = if word.len() > 2 { lower.as_str() } else { word };
    let unit = match key {
        "percent" | "pct" => Unit::Percent,
        "euro" | "euros" | "eur" => Unit::Currency("EUR"),
        "dollar" | "dollars" | "usd" => Unit::Currency("USD"),
        "pound" | "pounds" | "gbp" => Unit::Currency("GBP"),
        "yen" | "jpy" => Unit::Currency("JPY"),
        "franc" | "francs" | "chf" => Unit::Currency("CHF"),
        "ms" | "millisecond" | "milliseconds" => Unit::Measure("millisecond"),
        "s" | "sec" | "secs" | "second" | "seconds" => Unit::Measure("second"),
        "min" | "mins" | "minute" | "minutes" => Unit::Measure("minute"),
        "h" | "hr" | "hrs" | "hour" | "hours" => Unit::Measure("hour"),
        "d" | "day" | "days" => Unit::Measure("day"),
        "wk" | "wks" | "week" | "weeks" => Unit::Measure("week"),
        "mo" | "mos" | "month" | "months" => Unit::Measure("month"),
        "y" | "yr" | "yrs" | "year" | "years" => Unit::Measure("year"),
        "km" | "kilometre" | "kilometres" | "kilometer" | "kilometers" => Unit::Measure("km"),
        "m" | "metre" | "metres" | "meter" | "meters" => Unit::Measure("m"),
        "cm" => Unit::Measure("cm"),
        "mm" => Unit::Measure("mm"),
        "mi" | "mile" | "miles" => Unit::Measure("mile"),
        "kg" | "kilo" | "kilos" | "kilogram" | "kilograms" => Unit::Measure("kg"),
        "g" | "gram" | "grams" => Unit::Measure("g"),
        "kb" | "KB" => Unit::Measure("kb"),
        "mb" | "MB" => Unit::Measure("mb"),
        "gb" | "GB" => Unit::Measure("gb"),
        "tb" | "TB" => Unit::Measure("tb"),
        "person" | "persons" | "people" => Unit::Measure("person"),
        _ => return None,
    };
    Some(unit)
}

fn is_ordinal(rest: &str) -> bool {
    let lower: String = rest
        .chars()
        .take(3)
        .collect::<String>()
        .to_ascii_lowercase();
    ["st", "nd", "rd", "th"].iter().any(|s| {
        lower.starts_with(s) && !lower[2..].chars().next().is_some_and(char::is_alphabetic)
    })
}

fn ordinal_end(text: &str, end: usize) -> usize {
    if is_ordinal(&text[end..]) {
        end + 2
    } else {
        end
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn values(text: &str) -> Vec<(Vec<String>, Unit)> {
        numbers(text, &[])
            .into_iter()
            .map(|m| (m.values, m.unit))
            .collect()
    }

    fn one(text: &str) -> (Vec<String>, Unit) {
        let mut all = values(text);
        assert_eq!(all.len(), 1, "{text}: {all:?}");
        all.remove(0)
    }

    #[test]
    fn grouped_thousands_in_every_locale_mean_the_same_value() {
        for written in ["4,000", "4000", "4 000", "4.000", "4\u{202f}000", "4'000"] {
            assert!(one(written).0.contains(&"4000".to_string()), "{written}");
        }
        assert_eq!(one("4.5").0, ["4.5"]);
        assert_eq!(one("4,5").0, ["4.5"]);
        assert_eq!(one("1,234.50").0, ["1234.5"]);
        assert_eq!(one("1.234,50").0, ["1234.5"]);
    }

    #[test]
    fn currencies_percentages_and_units_are_read_beside_the_number() {
        assert_eq!(one("€4,000").1, Unit::Currency("EUR"));
        assert_eq!(one("4,000 euros").1, Unit::Currency("EUR"));
        assert_eq!(one("EUR 4000").1, Unit::Currency("EUR"));
        assert_eq!(one("12%").1, Unit::Percent);
        assert_eq!(one("12 per cent").1, Unit::Percent);
        assert_eq!(one("3 hours").1, Unit::Measure("hour"));
        assert_eq!(one("3h").1, Unit::Measure("hour"));
        assert_eq!(one("1 hour").1, Unit::Measure("hour"));
    }

    #[test]
    fn multipliers_add_the_scaled_value() {
        assert!(one("4k").0.contains(&"4000".to_string()));
        assert!(one("1.2 million").0.contains(&"1200000".to_string()));
    }

    #[test]
    fn numbers_glued_to_letters_are_not_quantities() {
        assert!(values("Q3 and H2O and 3D").is_empty());
        assert_eq!(one("the 3rd time").0, ["3"]);
    }

    #[test]
    fn a_sentence_end_is_not_a_decimal_point() {
        let all = values("It costs 40. Then 5, 6 and 7.");
        let flat: Vec<&str> = all.iter().map(|(v, _)| v[0].as_str()).collect();
        assert_eq!(flat, ["40", "5", "6", "7"]);
    }

    #[test]
    fn spans_to_skip_are_skipped() {
        let text = "on 2026-05-03 we paid 40";
        let date = 3..13;
        let all = numbers(text, std::slice::from_ref(&date));
        assert_eq!(all.len(), 1);
        assert_eq!(&text[all[0].span.clone()], "40");
    }
}
