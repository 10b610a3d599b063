//! Dates and times as written, in the forms that mean the same day or minute: `2026-05-03`,
//! `3 May 2026`, `May 3, 2026`, `03/05/2026` (day first or month first), `May 2026`, `May 3`;
//! `15:30`, `3:30 pm`, `3pm`. English month names only.

use std::ops::Range;
use std::sync::LazyLock;

use regex::Regex;

/// A day, whole or in part: the fields the text gave.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Day {
    pub year: Option<u16>,
    pub month: Option<u8>,
    pub day: Option<u8>,
}

impl Day {
    /// The day with each subset of its fields left out: what an answer that gives only those
    /// fields (`May 2026` of `2026-05-03`) must equal.
    pub fn projections(&self) -> impl Iterator<Item = Day> + '_ {
        (0..8u8).map(move |mask| Day {
            year: self.year.filter(|_| mask & 1 != 0),
            month: self.month.filter(|_| mask & 2 != 0),
            day: self.day.filter(|_| mask & 4 != 0),
        })
    }
}

/// What a date or time mention means.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum When {
    /// The days it may be (two when day and month order is ambiguous).
    Date(Vec<Day>),
    /// The minutes after midnight it may be (two when a clock time has no am or pm).
    Time(Vec<u16>),
}

/// A date or time of a text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WhenMention {
    pub span: Range<usize>,
    pub when: When,
}

const MONTH: &str = "(january|february|march|april|may|june|july|august|september|october|\
november|december|jan|feb|mar|apr|jun|jul|aug|sept|sep|oct|nov|dec)";

static ISO: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?-u:\b)([0-9]{4})([-/.])([0-9]{1,2})([-/.])([0-9]{1,2})(?-u:\b)")
        .expect("a valid pattern")
});
static NUMERIC: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?-u:\b)([0-9]{1,2})([/.])([0-9]{1,2})([/.])([0-9]{4}|[0-9]{2})(?-u:\b)")
        .expect("a valid pattern")
});
static DAY_MONTH: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(&format!(
        r"(?i-u)(?-u:\b)([0-9]{{1,2}})(?:st|nd|rd|th)?\.?[ \t\n]+(?:of[ \t\n]+)?{MONTH}(?-u:\b)\.?(?:,?[ \t\n]+([0-9]{{4}})(?-u:\b))?"
    ))
    .expect("a valid pattern")
});
static MONTH_DAY: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(&format!(
        r"(?i-u)(?-u:\b){MONTH}\.?[ \t\n]+([0-9]{{1,2}})(?:st|nd|rd|th)?(?-u:\b)(?:,?[ \t\n]+([0-9]{{4}})(?-u:\b))?"
    ))
    .expect("a valid pattern")
});
static MONTH_YEAR: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(&format!(
        r"(?i-u)(?-u:\b){MONTH}\.?,?[ \t\n]+([0-9]{{4}})(?-u:\b)"
    ))
    .expect("a valid pattern")
});
static CLOCK: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?i-u)(?-u:\b)([0-9]{1,2}):([0-9]{2})(?:[ \t\n]*([ap])\.?m(?-u:\b)\.?)?")
        .expect("a valid pattern")
});
static HOUR_MERIDIEM: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?i-u)(?-u:\b)([0-9]{1,2})[ \t\n]*([ap])\.?m(?-u:\b)\.?").expect("a valid pattern")
});

fn month_number(name: &str) -> Option<u8> {
    let lower = name.to_ascii_lowercase();
    let index = [
        "jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec",
    ]
    .iter()
    .position(|m| lower.starts_with(m))?;
    Some(index as u8 + 1)
}

fn valid(day: Day) -> Option<Day> {
    let month_ok = day.month.is_none_or(|m| (1..=12).contains(&m));
    let day_ok = day.day.is_none_or(|d| (1..=31).contains(&d));
    (month_ok && day_ok).then_some(day)
}

fn year(text: &str) -> Option<u16> {
    let value: u16 = text.parse().ok()?;
    Some(if text.len() == 2 { 2000 + value } else { value })
}

/// The dates and times of `text`, longest first where two forms overlap, in text order.
pub fn dates_and_times(text: &str) -> Vec<WhenMention> {
    let mut found: Vec<WhenMention> = Vec::new();
    let num = |m: Option<regex::Match<'_>>| m.and_then(|m| m.as_str().parse::<u8>().ok());
    for c in ISO.captures_iter(text) {
        if c[2] != c[4] {
            continue;
        }
        let day = valid(Day {
            year: year(&c[1]),
            month: num(c.get(3)),
            day: num(c.get(5)),
        });
        push_date(&mut found, c.get(0), day.into_iter().collect());
    }
    for c in NUMERIC.captures_iter(text) {
        if c[2] != c[4] {
            continue;
        }
        let (a, b, y) = (num(c.get(1)), num(c.get(3)), year(&c[5]));
        let days: Vec<Day> = [
            Day {
                year: y,
                month: b,
                day: a,
            },
            Day {
                year: y,
                month: a,
                day: b,
            },
        ]
        .into_iter()
        .filter_map(valid)
        .collect();
        push_date(&mut found, c.get(0), days);
    }
    for c in DAY_MONTH.captures_iter(text) {
        let day = valid(Day {
            year: c.get(3).and_then(|y| year(y.as_str())),
            month: month_number(&c[2]),
            day: num(c.get(1)),
        });
        push_date(&mut found, c.get(0), day.into_iter().collect());
    }
    for c in MONTH_DAY.captures_iter(text) {
        let day = valid(Day {
            year: c.get(3).and_then(|y| year(y.as_str())),
            month: month_number(&c[1]),
            day: num(c.get(2)),
        });
        push_date(&mut found, c.get(0), day.into_iter().collect());
    }
    for c in MONTH_YEAR.captures_iter(text) {
        let day = Day {
            year: year(&c[2]),
            month: month_number(&c[1]),
            day: None,
        };
        push_date(&mut found, c.get(0), vec![day]);
    }
    for c in CLOCK.captures_iter(text) {
        let (Some(hour), Some(minute)) = (num(c.get(1)), num(c.get(2))) else {
            continue;
        };
        if hour > 23 || minute > 59 {
            continue;
        }
        let minutes = clock(hour, minute, c.get(3).map(|m| m.as_str()));
        push(&mut found, c.get(0), When::Time(minutes));
    }
    for c in HOUR_MERIDIEM.captures_iter(text) {
        let Some(hour) = num(c.get(1)) else { continue };
        if !(1..=12).contains(&hour) {
            continue;
        }
        push(
            &mut found,
            c.get(0),
            When::Time(clock(hour, 0, c.get(2).map(|m| m.as_str()))),
        );
    }
    // In text order; of two that overlap, the longer stays (one sweep, not a pairwise test).
    found.sort_by_key(|m| (m.span.start, std::cmp::Reverse(m.span.len())));
    let mut kept: Vec<WhenMention> = Vec::with_capacity(found.len());
    for mention in found {
        match kept.last_mut() {
            Some(last) if mention.span.start < last.span.end => {
                if mention.span.len() > last.span.len() {
                    *last = mention;
                }
            }
            _ => kept.push(mention),
        }
    }
    kept
}

fn push_date(found: &mut Vec<WhenMention>, whole: Option<regex::Match<'_>>, days: Vec<Day>) {
    if !days.is_empty() {
        push(found, whole, When::Date(days));
    }
}

fn push(found: &mut Vec<WhenMention>, whole: Option<regex::Match<'_>>, when: When) {
    if let Some(m) = whole {
        found.push(WhenMention {
            span: m.range(),
            when,
        });
    }
}

/// The minutes after midnight of a clock time: with `a`/`p`, that half of the day; without,
/// both readings of an hour up to 12 (`3:00` may be 03:00 or 15:00).
fn clock(hour: u8, minute: u8, meridiem: Option<&str>) -> Vec<u16> {
    let minute = u16::from(minute);
    let h = u16::from(hour % 12);
    match meridiem.map(|m| m.to_ascii_lowercase()) {
        Some(m) if m == "a" => vec![h * 60 + minute],
        Some(_) => vec![(h + 12) * 60 + minute],
        None if hour <= 12 => {
            let mut both = vec![u16::from(hour) * 60 + minute, (h + 12) * 60 + minute];
            both.dedup();
            both
        }
        None => vec![u16::from(hour) * 60 + minute],
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn days(text: &str) -> Vec<Day> {
        dates_and_times(text)
            .into_iter()
            .flat_map(|m| match m.when {
                When::Date(days) => days,
                When::Time(_) => vec![],
            })
            .collect()
    }

    const MAY_3: Day = Day {
        year: Some(2026),
        month: Some(5),
        day: Some(3),
    };

    #[test]
    fn one_day_in_every_written_form() {
        for written in [
            "2026-05-03",
            "3 May 2026",
            "May 3, 2026",
            "May 3rd 2026",
            "the 3rd of May, 2026",
            "2026/05/03",
        ] {
            assert_eq!(days(written), [MAY_3], "{written}");
        }
        assert!(days("03/05/2026").contains(&MAY_3));
        assert!(days("05/03/2026").contains(&MAY_3));
    }

    #[test]
    fn partial_dates_are_projections_of_whole_ones() {
        let may = days("in May 2026")[0];
        assert_eq!(may.day, None);
        assert!(MAY_3.projections().any(|p| p == may));
        let may_3 = days("on May 3")[0];
        assert!(MAY_3.projections().any(|p| p == may_3));
        assert!(!MAY_3.projections().any(|p| p == days("June 3")[0]));
        assert!(
            !may.projections().any(|p| p == MAY_3),
            "a day the source never gives"
        );
    }

    #[test]
    fn clock_times_compare_by_minute() {
        let times = |text: &str| -> Vec<u16> {
            dates_and_times(text)
                .into_iter()
                .flat_map(|m| match m.when {
                    When::Time(t) => t,
                    When::Date(_) => vec![],
                })
                .collect()
        };
        assert_eq!(times("at 3pm"), [900]);
        assert_eq!(times("at 3:30 p.m."), [930]);
        assert_eq!(times("at 15:30"), [930]);
        assert_eq!(times("at 3:30"), [210, 930]);
    }
}
