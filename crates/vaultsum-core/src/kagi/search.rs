//! Search results: `data` items with `t: 0` are results, `t: 1` hold related searches.

use serde::Serialize;
use serde_json::Value;

use super::envelope::Meta;
use crate::html::clean_text;

/// A result thumbnail.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Thumbnail {
    pub url: String,
    pub width: Option<u64>,
    pub height: Option<u64>,
}

/// One web result, with title and snippet already turned into plain text.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct SearchResult {
    pub url: String,
    /// The page title; the URL when Kagi gives none.
    pub title: String,
    /// Kagi sends `null` for pages it has no snippet for.
    pub snippet: Option<String>,
    /// Publication date as Kagi sends it (ISO 8601).
    pub published: Option<String>,
    pub thumbnail: Option<Thumbnail>,
}

/// The answer to one query.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct SearchResponse {
    /// Results in Kagi's ranking order.
    pub results: Vec<SearchResult>,
    /// Related searches Kagi suggests.
    pub related: Vec<String>,
    pub meta: Meta,
}

impl SearchResponse {
    /// Reads `data`; items of unknown kinds and results without a URL are skipped.
    pub(crate) fn from_data(data: &Value, meta: Meta) -> SearchResponse {
        let mut response = SearchResponse {
            meta,
            ..SearchResponse::default()
        };
        for item in data.as_array().map(Vec::as_slice).unwrap_or_default() {
            match item.get("t").and_then(Value::as_u64) {
                Some(0) => response.results.extend(parse_result(item)),
                Some(1) => response.related.extend(
                    item.get("list")
                        .and_then(Value::as_array)
                        .into_iter()
                        .flatten()
                        .filter_map(Value::as_str)
                        .map(clean_text)
                        .filter(|s| !s.is_empty()),
                ),
                _ => {}
            }
        }
        response
    }
}

fn parse_result(item: &Value) -> Option<SearchResult> {
    let text = |key: &str| {
        item.get(key)
            .and_then(Value::as_str)
            .map(clean_text)
            .filter(|s| !s.is_empty())
    };
    let url = item.get("url").and_then(Value::as_str)?.trim().to_string();
    if url.is_empty() {
        return None;
    }
    let thumbnail = item.get("thumbnail").and_then(|t| {
        Some(Thumbnail {
            url: t.get("url").and_then(Value::as_str)?.to_string(),
            width: t.get("width").and_then(Value::as_u64),
            height: t.get("height").and_then(Value::as_u64),
        })
    });
    Some(SearchResult {
        title: text("title").unwrap_or_else(|| url.clone()),
        snippet: text("snippet"),
        published: item
            .get("published")
            .and_then(Value::as_str)
            .map(str::to_string),
        thumbnail,
        url,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn results_and_related_searches_are_told_apart() {
        let data = json!([
            {"t":0,"rank":1,"url":"https://a.example","title":"<b>A</b> &amp; B","snippet":"first &quot;one&quot;",
             "published":"2024-01-02T00:00:00Z","thumbnail":{"url":"https://a.example/t.png","width":64,"height":48}},
            {"t":1,"list":["rust async","tokio &amp; io"]},
            {"t":0,"url":"https://b.example","title":"B","snippet":null},
            {"t":7,"whatever":true}
        ]);
        let r = SearchResponse::from_data(&data, Meta::default());
        assert_eq!(r.results.len(), 2);
        assert_eq!(r.results[0].title, "A & B");
        assert_eq!(r.results[0].snippet.as_deref(), Some("first \"one\""));
        assert_eq!(
            r.results[0].published.as_deref(),
            Some("2024-01-02T00:00:00Z")
        );
        assert_eq!(r.results[0].thumbnail.as_ref().unwrap().width, Some(64));
        assert_eq!(r.results[1].snippet, None);
        assert_eq!(r.related, vec!["rust async", "tokio & io"]);
    }

    #[test]
    fn result_without_title_uses_its_url_and_without_url_is_skipped() {
        let data = json!([{"t":0,"url":"https://x.example"},{"t":0,"title":"no url"}]);
        let r = SearchResponse::from_data(&data, Meta::default());
        assert_eq!(r.results.len(), 1);
        assert_eq!(r.results[0].title, "https://x.example");
    }

    #[test]
    fn null_data_means_no_results() {
        let r = SearchResponse::from_data(&Value::Null, Meta::default());
        assert!(r.results.is_empty());
    }
}
