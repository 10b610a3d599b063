//! Small text measures shared by the tools, their compaction stubs and truncation notices, kept
//! here so none of those has to reach into another for them.

/// A byte count for people: `512B`, `12.3KB`, `1.2MB` (powers of 1024).
pub fn format_size(bytes: usize) -> String {
    const KB: f64 = 1024.0;
    let b = bytes as f64;
    if bytes < 1024 {
        format!("{bytes}B")
    } else if b < KB * KB {
        format!("{:.1}KB", b / KB)
    } else {
        format!("{:.1}MB", b / (KB * KB))
    }
}

/// `text` cut to `max` characters with an ellipsis, on one line.
pub fn shorten(text: &str, max: usize) -> String {
    let flat = text.split_whitespace().collect::<Vec<_>>().join(" ");
    if flat.chars().count() <= max {
        return flat;
    }
    let mut cut: String = flat.chars().take(max.saturating_sub(1)).collect();
    cut.push('…');
    cut
}

/// Lines as people count them (a final newline does not start another line).
pub fn count_lines(text: &str) -> usize {
    text.lines().count()
}

/// `1 line`, `3 lines`.
pub fn plural(n: usize, one: &str, many: &str) -> String {
    if n == 1 {
        format!("1 {one}")
    } else {
        format!("{n} {many}")
    }
}

/// The first non-blank line, trimmed.
pub fn first_line(text: &str) -> &str {
    text.lines()
        .map(str::trim)
        .find(|l| !l.is_empty())
        .unwrap_or("")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_read_like_people_write_them() {
        assert_eq!(format_size(512), "512B");
        assert_eq!(format_size(1023), "1023B");
        assert_eq!(format_size(1024), "1.0KB");
        assert_eq!(format_size(12_595), "12.3KB");
        assert_eq!(format_size(1_258_291), "1.2MB");
    }
}
