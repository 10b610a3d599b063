//! Calendar days and the periods a rollup is asked for (`this-week`, `2026-W47`, `2026-11`,
//! `7d`), counted from a day the caller gives: the clock is the host's.

/// A calendar day, as days since 1970-01-01 (proleptic Gregorian).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub struct Day(pub i64);

impl Day {
    /// `YYYY-MM-DD`, or `None` when it is not a real date.
    pub fn parse(text: &str) -> Option<Day> {
        let mut parts = text.trim().splitn(3, '-');
        let year: i64 = parts.next()?.parse().ok()?;
        let month: u32 = parts.next()?.parse().ok()?;
        let day: u32 = parts.next()?.get(..2)?.parse().ok()?;
        Day::from_ymd(year, month, day)
    }

    pub fn from_ymd(year: i64, month: u32, day: u32) -> Option<Day> {
        if !(1..=12).contains(&month) || day == 0 || day > days_in_month(year, month) {
            return None;
        }
        // Howard Hinnant's days_from_civil.
        let y = if month <= 2 { year - 1 } else { year };
        let era = y.div_euclid(400);
        let yoe = y - era * 400;
        let m = month as i64;
        let doy = (153 * (if m > 2 { m - 3 } else { m + 9 }) + 2) / 5 + day as i64 - 1;
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
        Some(Day(era * 146_097 + doe - 719_468))
    }
}

impl std::fmt::Display for Day {
    /// `YYYY-MM-DD` (Hinnant's civil_from_days).
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let z = self.0 + 719_468;
        let era = z.div_euclid(146_097);
        let doe = z - era * 146_097;
        let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
        let mp = (5 * doy + 2) / 153;
        let day = doy - (153 * mp + 2) / 5 + 1;
        let month = if mp < 10 { mp + 3 } else { mp - 9 };
        let year = yoe + era * 400 + i64::from(month <= 2);
        write!(f, "{year:04}-{month:02}-{day:02}")
    }
}

/// The first and last day of a period the command line names: an ISO week `2026-W47`, a
/// month `2026-11`, or the last N days up to `today` (`7d`).
pub fn period(text: &str, today: Day) -> Option<(Day, Day)> {
    let text = text.trim();
    if let Some((year, week)) = text.split_once(['W', 'w']) {
        let year: i64 = year.trim_end_matches('-').parse().ok()?;
        let week: i64 = week.parse().ok()?;
        // ISO week 1 holds 4 January; weeks start on Monday (1970-01-01 was a Thursday).
        let jan4 = Day::from_ymd(year, 1, 4)?.0;
        let monday = jan4 - (jan4 + 3).rem_euclid(7);
        let weeks_in_year = if Day::from_ymd(year, 12, 28)?.0 - monday >= 52 * 7 {
            53
        } else {
            52
        };
        if !(1..=weeks_in_year).contains(&week) {
            return None;
        }
        let first = monday + (week - 1) * 7;
        return Some((Day(first), Day(first + 6)));
    }
    if let Some(days) = text.strip_suffix('d') {
        let days: i64 = days.parse().ok().filter(|d| *d > 0)?;
        return Some((Day(today.0 - days + 1), today));
    }
    let (year, month) = text.split_once('-')?;
    let (year, month): (i64, u32) = (year.parse().ok()?, month.parse().ok()?);
    let first = Day::from_ymd(year, month, 1)?;
    Some((
        first,
        Day(first.0 + i64::from(days_in_month(year, month)) - 1),
    ))
}

/// The first and last day of a period named relative to `today`: `this-week`, `last-week`
/// (Monday to Sunday), `this-month`, `last-month`; any other text as [`period`] reads it.
pub fn named_period(text: &str, today: Day) -> Option<(Day, Day)> {
    // 1970-01-01 was a Thursday: the Monday of a day's week is 0 to 6 days before it.
    let monday = Day(today.0 - (today.0 + 3).rem_euclid(7));
    let month_of = |day: Day| period(&day.to_string()[..7], today);
    match text.trim().to_ascii_lowercase().as_str() {
        "this-week" => Some((monday, Day(monday.0 + 6))),
        "last-week" => Some((Day(monday.0 - 7), Day(monday.0 - 1))),
        "this-month" => month_of(today),
        "last-month" => month_of(Day(month_of(today)?.0 .0 - 1)),
        _ => period(text, today),
    }
}

fn days_in_month(year: i64, month: u32) -> u32 {
    match month {
        4 | 6 | 9 | 11 => 30,
        2 if (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 => 29,
        2 => 28,
        _ => 31,
    }
}

/// The first and last day a rollup asks for: `from`/`to` (`YYYY-MM-DD`), or the `period`
/// counted from `today` (`YYYY-MM-DD`, else `default_today`). The error says which argument is
/// wrong, in the words `summarize_notes` answers with.
pub fn days_asked(
    period: Option<&str>,
    from: Option<&str>,
    to: Option<&str>,
    today: Option<&str>,
    default_today: impl FnOnce() -> Day,
) -> Result<(Option<Day>, Option<Day>), String> {
    let parse = |field: &str, value: Option<&str>| match value {
        None => Ok(None),
        Some(text) => Day::parse(text)
            .map(Some)
            .ok_or_else(|| format!("{field}: {text:?} is not a date; write it as YYYY-MM-DD")),
    };
    let Some(period) = period else {
        return Ok((parse("from", from)?, parse("to", to)?));
    };
    if from.is_some() || to.is_some() {
        return Err("give either period or from/to, not both".to_string());
    }
    let today = parse("today", today)?.unwrap_or_else(default_today);
    named_period(period, today)
        .map(|(first, last)| (Some(first), Some(last)))
        .ok_or_else(|| {
            format!(
                "period: {period:?} is not a period; write this-week, last-week, this-month, \
                 last-month, 2026-W47, 2026-11 or 7d"
            )
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn days_are_counted_from_the_epoch() {
        assert_eq!(Day::parse("1970-01-01"), Some(Day(0)));
        assert_eq!(
            Day::parse("2026-11-23").unwrap().0 - Day::parse("2026-11-16").unwrap().0,
            7
        );
        assert_eq!(Day::parse("2026-02-30"), None);
        assert_eq!(Day::parse("2026-11-23").unwrap().to_string(), "2026-11-23");
    }

    #[test]
    fn named_periods_are_counted_from_today() {
        let day = |s| Day::parse(s).unwrap();
        // Tuesday 5 March 2024; a Sunday belongs to the week that began on the Monday before.
        let tuesday = day("2024-03-05");
        let week = |a, b| Some((day(a), day(b)));
        assert_eq!(
            named_period("this-week", tuesday),
            week("2024-03-04", "2024-03-10")
        );
        assert_eq!(
            named_period("last-week", tuesday),
            week("2024-02-26", "2024-03-03")
        );
        assert_eq!(
            named_period("this-week", day("2024-03-10")),
            week("2024-03-04", "2024-03-10")
        );
        assert_eq!(
            named_period("this-week", day("2024-03-04")),
            week("2024-03-04", "2024-03-10")
        );
        assert_eq!(
            named_period("this-month", day("2024-02-10")),
            week("2024-02-01", "2024-02-29")
        );
        assert_eq!(
            named_period("last-month", day("2024-01-31")),
            week("2023-12-01", "2023-12-31")
        );
        assert_eq!(
            named_period("2026-W47", tuesday),
            week("2026-11-16", "2026-11-22")
        );
        assert_eq!(named_period("next-week", tuesday), None);
    }

    #[test]
    fn weeks_months_and_last_days_are_periods() {
        let day = |s| Day::parse(s).unwrap();
        assert_eq!(
            period("2026-W47", day("2000-01-01")),
            Some((day("2026-11-16"), day("2026-11-22")))
        );
        assert_eq!(
            period("2026-W01", day("2000-01-01")),
            Some((day("2025-12-29"), day("2026-01-04")))
        );
        assert_eq!(period("2026-W54", day("2000-01-01")), None);
        assert_eq!(
            period("2024-02", day("2000-01-01")),
            Some((day("2024-02-01"), day("2024-02-29")))
        );
        assert_eq!(
            period("7d", day("2026-11-25")),
            Some((day("2026-11-19"), day("2026-11-25")))
        );
    }
}
