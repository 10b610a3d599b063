//! What the policy needs to know of a URL: its scheme and host, whether it points inside the
//! vault, and where bare URLs stand in text (Obsidian makes `https://…` and `www.…` clickable
//! without any markup).

use std::ops::Range;

/// Schemes that act when clicked, whatever their host: never links.
const NEVER_LINKS: [&str; 6] = ["obsidian", "javascript", "vbscript", "file", "data", "app"];

/// The scheme of `url` (`https`, `obsidian`), lowercased, when it has one.
pub(super) fn scheme(url: &str) -> Option<String> {
    let colon = url.find(':')?;
    let scheme = &url[..colon];
    let mut chars = scheme.chars();
    let first = chars.next()?;
    (first.is_ascii_alphabetic()
        && chars.all(|c| c.is_ascii_alphanumeric() || matches!(c, '+' | '-' | '.')))
    .then(|| scheme.to_ascii_lowercase())
}

/// Whether `url` stays inside the vault: no scheme and not protocol-relative (`//host`), so a
/// note, a heading or a file of the vault (`Note.md`, `#Heading`, `img/a.png`).
pub(crate) fn is_local(url: &str) -> bool {
    let trimmed = url.trim();
    !(trimmed.starts_with("//") || trimmed.starts_with("\\\\")) && scheme(trimmed).is_none()
}

/// Whether `url`'s scheme acts by itself when clicked (`obsidian:`, `javascript:`, `file:`,
/// `data:`, `vbscript:`, Obsidian's `app:`), so it is never a link, wherever it occurs.
pub(crate) fn never_a_link(url: &str) -> bool {
    scheme(url.trim()).is_some_and(|s| NEVER_LINKS.contains(&s.as_str()))
}

/// The host of `url` (`attacker.example`), or its scheme with its colon (`javascript:`) when it
/// has none; only characters that cannot be Markdown, so it is safe inside a marker.
pub(super) fn host_label(url: &str) -> String {
    let url = url.trim();
    let after_scheme = match scheme(url) {
        Some(scheme) => {
            let rest = &url[scheme.len() + 1..];
            match rest.strip_prefix("//") {
                Some(rest) => rest,
                None => return format!("{scheme}:"),
            }
        }
        None => url
            .strip_prefix("//")
            .or_else(|| url.strip_prefix("www.").map(|_| url))
            .unwrap_or(url),
    };
    let authority = after_scheme
        .split(['/', '?', '#', '\\'])
        .next()
        .unwrap_or_default();
    let host = authority.rsplit('@').next().unwrap_or_default();
    // Without `www.`: a marker naming `www.host` would itself be a link in Obsidian.
    let host = host
        .get(..4)
        .filter(|www| www.eq_ignore_ascii_case("www."))
        .map_or(host, |_| &host[4..]);
    let label: String = host
        .chars()
        .filter(|c| c.is_alphanumeric() || matches!(c, '.' | '-' | ':'))
        .collect();
    if label.is_empty() {
        "unknown host".to_string()
    } else {
        label.to_lowercase()
    }
}

/// The host of an `http`/`https` URL, lowercased, for `summarize.allow_links`.
pub(super) fn web_host(url: &str) -> Option<String> {
    let scheme = scheme(url.trim())?;
    if scheme != "http" && scheme != "https" {
        return None;
    }
    let rest = url.trim()[scheme.len() + 1..].strip_prefix("//")?;
    let authority = rest.split(['/', '?', '#', '\\']).next()?;
    let host = authority.rsplit('@').next()?;
    let host = match host.rsplit_once(':') {
        Some((name, port)) if port.chars().all(|c| c.is_ascii_digit()) => name,
        _ => host,
    };
    (!host.is_empty()).then(|| host.to_ascii_lowercase())
}

/// The bare URLs in `text` (`https://…`, any `scheme://…`, `www.…`), as byte ranges: each
/// starts where a clickable link would start (after a character that is not a letter or
/// digit) and ends at white space, `<`, `>`, a quote or a backtick, without the trailing
/// punctuation that ends a sentence and an unbalanced closing parenthesis (as GitHub's and
/// Obsidian's autolinks do).
pub(super) fn bare_urls(text: &str) -> Vec<Range<usize>> {
    bare_urls_to(text, ends_token)
}

/// [`bare_urls`] as far as GFM's autolinks reach: to white space or `<` (a quote or a backtick
/// does not end them). A summary's bare URL is judged whole in this form, so no reader links
/// more of it than was judged; a source's URLs are collected in both forms.
pub(super) fn long_bare_urls(text: &str) -> Vec<Range<usize>> {
    bare_urls_to(text, ends_autolink)
}

fn bare_urls_to(text: &str, ends: fn(char) -> bool) -> Vec<Range<usize>> {
    let bytes = text.as_bytes();
    let mut found = Vec::new();
    let mut at = 0;
    while at < bytes.len() {
        let Some(start) = next_start(text, at) else {
            break;
        };
        let end = token_end(text, start, ends);
        let end = trim_trailing(text, start, end);
        if end > start {
            found.push(start..end);
        }
        at = end.max(start + 1);
    }
    found
}

fn is_local_part(b: u8) -> bool {
    b.is_ascii_alphanumeric() || matches!(b, b'.' | b'_' | b'%' | b'+' | b'-')
}

fn is_domain(b: u8) -> bool {
    b.is_ascii_alphanumeric() || matches!(b, b'.' | b'-')
}

/// The length of the domain of an e-mail address at the start of `after` (after its `@`): a
/// name with a dot and a final label of letters, trailing dots and dashes left out.
fn domain_len(after: &[u8]) -> Option<usize> {
    let mut len = after.iter().take_while(|b| is_domain(**b)).count();
    while len > 0 && matches!(after[len - 1], b'.' | b'-') {
        len -= 1;
    }
    let domain = &after[..len];
    let last_dot = domain.iter().rposition(|b| *b == b'.')?;
    let tld = &domain[last_dot + 1..];
    (last_dot > 0 && tld.len() >= 2 && tld.iter().all(u8::is_ascii_alphabetic)).then_some(len)
}

/// The length of a bare e-mail address starting right at the start of `rest` (Obsidian links
/// `name@host.example` by itself), if one does.
pub(super) fn bare_email_at(rest: &str) -> Option<usize> {
    let bytes = rest.as_bytes();
    let local = bytes.iter().take_while(|b| is_local_part(**b)).count();
    if local == 0 || bytes.get(local) != Some(&b'@') {
        return None;
    }
    domain_len(&bytes[local + 1..]).map(|domain| local + 1 + domain)
}

/// How many bytes at the start of `rest` an e-mail's local part could take: the scan that
/// found no address there skips them all (linear on `a_a_a_…`).
pub(super) fn local_part_len(rest: &str) -> usize {
    rest.bytes().take_while(|b| is_local_part(*b)).count()
}

/// The bare e-mail addresses of `text` as `mailto:` URLs (a source's, which a summary may
/// name).
pub(super) fn bare_emails(text: &str) -> Vec<String> {
    let bytes = text.as_bytes();
    let mut found = Vec::new();
    let mut previous_at = 0;
    for (at, _) in text.match_indices('@') {
        let local = bytes[previous_at..at]
            .iter()
            .rev()
            .take_while(|b| is_local_part(**b))
            .count();
        previous_at = at + 1;
        if local == 0 {
            continue;
        }
        if let Some(domain) = domain_len(&bytes[at + 1..]) {
            found.push(format!("mailto:{}", &text[at - local..at + 1 + domain]));
        }
    }
    found
}

/// Whether a bare URL starts right at the start of `bytes` (`scheme://` or `www.` and a name);
/// looks no further than the scheme.
fn starts_url(bytes: &[u8]) -> bool {
    if !bytes.first().is_some_and(u8::is_ascii_alphabetic) {
        return false;
    }
    let scheme = bytes
        .iter()
        .take_while(|b| b.is_ascii_alphanumeric() || matches!(b, b'+' | b'-' | b'.'))
        .count();
    bytes[scheme..].starts_with(b"://")
        || (bytes.len() > 4
            && bytes[..4].eq_ignore_ascii_case(b"www.")
            && bytes[4].is_ascii_alphanumeric())
}

/// Where the next bare URL starts at or after `from`.
fn next_start(text: &str, from: usize) -> Option<usize> {
    let bytes = text.as_bytes();
    let mut i = from;
    while i < bytes.len() {
        let boundary = i == 0 || !bytes[i - 1].is_ascii_alphanumeric();
        if boundary && bytes[i].is_ascii_alphabetic() {
            // `scheme://` …
            let mut j = i;
            while j < bytes.len()
                && (bytes[j].is_ascii_alphanumeric() || matches!(bytes[j], b'+' | b'-' | b'.'))
            {
                j += 1;
            }
            if bytes[j..].starts_with(b"://") {
                return Some(i);
            }
            // … or `www.` and a name.
            if bytes[i..].len() > 4
                && bytes[i..i + 4].eq_ignore_ascii_case(b"www.")
                && bytes[i + 4].is_ascii_alphanumeric()
            {
                return Some(i);
            }
            i = j.max(i + 1);
            continue;
        }
        i += 1;
    }
    None
}

fn ends_token(c: char) -> bool {
    c.is_whitespace() || matches!(c, '<' | '>' | '"' | '\'' | '`')
}

fn ends_autolink(c: char) -> bool {
    // The policy's word joiner too: a URL never runs on through it into a code span's edge.
    c.is_whitespace() || c == '<' || c == super::inline::BREAK
}

fn token_end(text: &str, start: usize, ends: fn(char) -> bool) -> usize {
    text[start..]
        .char_indices()
        .find(|(_, c)| ends(*c))
        .map_or(text.len(), |(i, _)| start + i)
}

fn trim_trailing(text: &str, start: usize, mut end: usize) -> usize {
    // The bracket balance is counted once and kept up to date while trimming: a URL followed
    // by 400,000 `)` is trimmed in one pass, not one count per character.
    let token = &text[start..end];
    let mut parens = token.matches('(').count() as isize - token.matches(')').count() as isize;
    let mut brackets = token.matches('[').count() as isize - token.matches(']').count() as isize;
    loop {
        let Some(last) = text[start..end].chars().next_back() else {
            return end;
        };
        let unbalanced_paren = last == ')' && parens < 0;
        let unbalanced_bracket = last == ']' && brackets < 0;
        if matches!(
            last,
            '.' | ',' | ';' | ':' | '!' | '?' | '*' | '_' | '~' | '|'
        ) || unbalanced_paren
            || unbalanced_bracket
        {
            match last {
                ')' => parens += 1,
                ']' => brackets += 1,
                _ => {}
            }
            end -= last.len_utf8();
        } else {
            return end;
        }
    }
}

/// The length of the bare URL that starts at the start of `rest`, if one does (`rest` starts
/// where a word starts: the caller has checked that no letter or digit stands before it).
pub(super) fn bare_url_at(rest: &str) -> Option<usize> {
    if !starts_url(rest.as_bytes()) {
        return None;
    }
    let end = token_end(rest, 0, ends_autolink);
    let end = trim_trailing(rest, 0, end);
    (end > 0).then_some(end)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn urls(text: &str) -> Vec<&str> {
        bare_urls(text).into_iter().map(|r| &text[r]).collect()
    }

    #[test]
    fn bare_urls_end_where_autolinks_end() {
        assert_eq!(
            urls("See https://a.example/x?q=1. And (www.b.example) or obsidian://open?v=x!"),
            [
                "https://a.example/x?q=1",
                "www.b.example",
                "obsidian://open?v=x"
            ]
        );
        assert_eq!(
            urls("https://en.wikipedia.org/wiki/A_(b)"),
            ["https://en.wikipedia.org/wiki/A_(b)"]
        );
        assert_eq!(
            urls("xhttps is no scheme, nor is a.www.b"),
            Vec::<&str>::new()
        );
        assert!(urls("plain text, no links").is_empty());
    }

    #[test]
    fn hosts_and_schemes() {
        assert_eq!(
            host_label("https://user@Attacker.example:8080/p?d=1"),
            "attacker.example:8080"
        );
        assert_eq!(host_label("javascript:alert(1)"), "javascript:");
        assert_eq!(host_label("//cdn.example/x.png"), "cdn.example");
        assert_eq!(
            web_host("https://en.wikipedia.org:443/wiki"),
            Some("en.wikipedia.org".into())
        );
        assert_eq!(web_host("obsidian://open"), None);
        assert!(is_local("Notes/Other note.md") && is_local("#Heading"));
        assert!(!is_local("https://x") && !is_local("//x") && !is_local("C:/x"));
        assert!(never_a_link(" JavaScript:alert(1)") && never_a_link("obsidian://x"));
        assert!(!never_a_link("https://x"));
    }
}
