//! `web_search` against a fake Kagi speaking the v0 wire format on 127.0.0.1.

use crate::support;

use std::time::Duration;

use serde_json::{json, Value};
use support::fake_kagi::FakeReply;
use support::fake_kagi::{
    authorization, closed_base_url, envelope, error, ok, related, result, FakeKagi, TEST_KEY,
};
use vaultsum_core::kagi::{KagiClient, KeySource};
use vaultsum_tools::config::ApiKey;
use vaultsum_tools::web_search::WebSearchTool;
use vaultsum_tools::{Tool, ToolOutput};

const GENEROUS: Duration = Duration::from_secs(10);

fn tool(fake: &FakeKagi, timeout: Duration) -> WebSearchTool {
    WebSearchTool::with_client(fake.client(timeout))
}

async fn search(fake: &FakeKagi, args: Value) -> ToolOutput {
    tool(fake, GENEROUS).call(args).await
}

#[tokio::test]
async fn search_sends_get_with_query_limit_and_bot_authorization() {
    let fake = FakeKagi::start();
    fake.on_search_items(
        "rust async",
        vec![result("https://a.example", "A", Some("a"))],
    );
    let out = search(&fake, json!({"queries": ["rust async"], "limit": 5})).await;
    assert!(!out.is_error, "{}", out.text);
    let requests = fake.requests();
    assert_eq!(requests.len(), 1);
    let request = &requests[0];
    assert_eq!(request.method.as_str(), "GET");
    assert_eq!(request.url.path(), "/api/v0/search");
    let query: Vec<(String, String)> = request.url.query_pairs().into_owned().collect();
    assert_eq!(
        query,
        vec![
            ("q".to_string(), "rust async".to_string()),
            ("limit".to_string(), "5".to_string())
        ]
    );
    assert_eq!(authorization(request), Some(format!("Bot {TEST_KEY}")));
}

#[tokio::test]
async fn results_of_several_queries_are_numbered_in_query_order() {
    let fake = FakeKagi::start();
    // The first query answers last, so arrival order cannot be what orders the list.
    fake.on_search(
        "alpha",
        ok(envelope(json!([
            result("https://a.example/1", "First A", Some("snippet a1")),
            result("https://a.example/2", "Second A", Some("snippet a2")),
        ])))
        .with_delay(Duration::from_millis(300)),
    );
    fake.on_search_items(
        "beta",
        vec![result("https://b.example/1", "First B", Some("snippet b1"))],
    );
    let out = search(&fake, json!({"queries": ["alpha", "beta"]})).await;
    assert!(!out.is_error, "{}", out.text);
    assert_eq!(
        out.text,
        "1. First A\n   https://a.example/1\n   snippet a1\n\n\
         2. Second A\n   https://a.example/2\n   snippet a2\n\n\
         3. First B\n   https://b.example/1\n   snippet b1"
    );
    assert_eq!(out.details["result_count"], 3);
    assert_eq!(out.details["results"][2]["query"], "beta");
}

#[tokio::test]
async fn titles_and_snippets_are_plain_text_with_entities_decoded() {
    let fake = FakeKagi::start();
    fake.on_search_items(
        "q",
        vec![result(
            "https://x.example/?a=1&b=2",
            "<b>Tokio</b> &amp; async &#8211; guide",
            Some("Use <strong>spawn</strong> &quot;wisely&quot; &lt;T&gt;"),
        )],
    );
    let out = search(&fake, json!({"queries": ["q"]})).await;
    assert_eq!(
        out.text,
        "1. Tokio & async \u{2013} guide\n   https://x.example/?a=1&b=2\n   Use spawn \"wisely\" <T>"
    );
}

#[tokio::test]
async fn null_snippet_leaves_title_and_url_and_related_searches_stay_out_of_text() {
    let fake = FakeKagi::start();
    fake.on_search_items(
        "q",
        vec![
            json!({"t": 0, "url": "https://n.example", "title": "No snippet", "snippet": null,
                   "published": "2025-03-01T00:00:00Z",
                   "thumbnail": {"url": "https://n.example/t.jpg", "width": 100, "height": 80}}),
            related(&["q tutorial", "q examples"]),
        ],
    );
    let out = search(&fake, json!({"queries": ["q"]})).await;
    assert_eq!(out.text, "1. No snippet\n   https://n.example");
    assert_eq!(out.details["related"], json!(["q tutorial", "q examples"]));
    assert_eq!(
        out.details["results"][0]["published"],
        "2025-03-01T00:00:00Z"
    );
}

#[tokio::test]
async fn one_failing_query_is_reported_without_losing_the_others() {
    let fake = FakeKagi::start();
    fake.on_search_items(
        "good one",
        vec![result("https://g1.example", "G1", Some("s1"))],
    );
    fake.on_search("bad", error(500, 0, "Internal error, please retry"));
    fake.on_search_items(
        "good two",
        vec![result("https://g2.example", "G2", Some("s2"))],
    );
    let out = search(&fake, json!({"queries": ["good one", "bad", "good two"]})).await;
    assert!(
        !out.is_error,
        "partial success is still a result: {}",
        out.text
    );
    assert_eq!(
        out.text,
        "1. G1\n   https://g1.example\n   s1\n\n\
         [Search failed for \"bad\": Kagi search request failed: HTTP 500 Internal Server Error: Internal error, please retry]\n\n\
         2. G2\n   https://g2.example\n   s2"
    );
    assert_eq!(out.details["failed"][0]["query"], "bad");
    assert_eq!(out.details["result_count"], 2);
    // The record (MCP structuredContent) says the same: the two results, numbered as in the
    // text, and the query that failed with its error.
    let record = out.record.as_deref().expect("a record");
    assert_eq!(record["success"], json!(true));
    assert_eq!(
        record["results"],
        json!([
            {"n": 1, "query": "good one", "title": "G1", "url": "https://g1.example", "snippet": "s1"},
            {"n": 2, "query": "good two", "title": "G2", "url": "https://g2.example", "snippet": "s2"},
        ])
    );
    assert_eq!(record["failed"][0]["query"], "bad");
    assert!(out
        .text
        .contains(record["failed"][0]["error"].as_str().unwrap()));
}

#[tokio::test]
async fn unauthorised_key_reports_status_and_kagi_message() {
    let fake = FakeKagi::start();
    fake.on_search("q", error(401, 1, "Unauthorized: Invalid token"));
    let out = search(&fake, json!({"queries": ["q"]})).await;
    assert!(out.is_error);
    assert_eq!(
        out.text,
        "Kagi search request failed: HTTP 401 Unauthorized: Unauthorized: Invalid token"
    );
    assert_eq!(out.details["error"], "http_status");
}

#[tokio::test]
async fn exhausted_credit_reports_kagi_message() {
    let fake = FakeKagi::start();
    fake.on_search(
        "q",
        error(400, 101, "Insufficient credit to perform this request."),
    );
    let out = search(&fake, json!({"queries": ["q"]})).await;
    assert!(out.is_error);
    assert_eq!(
        out.text,
        "Kagi search request failed: HTTP 400 Bad Request: Insufficient credit to perform this request."
    );
}

#[tokio::test]
async fn same_error_for_every_query_is_said_once() {
    let fake = FakeKagi::start();
    fake.on_search("a", error(401, 1, "Unauthorized"));
    fake.on_search("b", error(401, 1, "Unauthorized"));
    let out = search(&fake, json!({"queries": ["a", "b"]})).await;
    assert!(out.is_error);
    assert_eq!(
        out.text,
        "Kagi search request failed: HTTP 401 Unauthorized: Unauthorized"
    );
}

#[tokio::test]
async fn missing_key_gives_the_documented_message_and_sends_nothing() {
    let fake = FakeKagi::start();
    let client = fake
        .client(GENEROUS)
        .with_key_source(KeySource::Fixed(None));
    let out = WebSearchTool::with_client(client)
        .call(json!({"queries": ["q"]}))
        .await;
    assert!(out.is_error);
    assert_eq!(
        out.text,
        "KAGI_API_KEY environment variable is not set. Set it to your Kagi API key to use web search."
    );
    assert!(fake.requests().is_empty());
}

#[tokio::test]
async fn key_echoed_by_the_server_never_reaches_the_output() {
    let fake = FakeKagi::start();
    let echo = format!("Invalid token {TEST_KEY}");
    fake.on_search("q", error(401, 1, &echo));
    let out = search(&fake, json!({"queries": ["q"]})).await;
    assert!(out.is_error);
    assert!(!out.text.contains(TEST_KEY), "{}", out.text);
    assert!(!out.details.to_string().contains(TEST_KEY));
    assert!(out.text.contains("Invalid token ***"), "{}", out.text);
}

#[tokio::test]
async fn non_json_error_page_is_quoted_with_its_status() {
    let fake = FakeKagi::start();
    fake.on_search(
        "q",
        FakeReply::error(502, "<html><body>Bad gateway</body></html>"),
    );
    let out = search(&fake, json!({"queries": ["q"]})).await;
    assert_eq!(
        out.text,
        "Kagi search request failed: HTTP 502 Bad Gateway: <html><body>Bad gateway</body></html>"
    );
}

#[tokio::test]
async fn success_status_with_a_body_that_is_not_an_envelope_is_reported() {
    let fake = FakeKagi::start();
    fake.on_search("q", FakeReply::raw(200, "text/plain", "not json"));
    let out = search(&fake, json!({"queries": ["q"]})).await;
    assert!(out.is_error);
    assert_eq!(
        out.text,
        "Kagi search returned a response that could not be read: expected a JSON envelope, got: not json"
    );
}

#[tokio::test]
async fn unreachable_server_is_reported_as_a_connection_failure() {
    let base = closed_base_url();
    let client = KagiClient::from_config(&vaultsum_tools::config::KagiConfig {
        base_url: base.clone(),
        search_timeout_secs: 5,
        summarize_timeout_secs: 5,
    })
    .with_key_source(KeySource::Fixed(ApiKey::new(TEST_KEY)));
    let out = WebSearchTool::with_client(client)
        .call(json!({"queries": ["q"]}))
        .await;
    assert!(out.is_error);
    assert!(
        out.text.starts_with(&format!(
            "Kagi search request to {base}/search failed: could not connect"
        )),
        "{}",
        out.text
    );
    assert_eq!(out.details["error"], "network");
}

#[tokio::test]
async fn slow_reply_within_the_timeout_is_awaited() {
    let fake = FakeKagi::start();
    fake.on_search(
        "q",
        ok(envelope(json!([result(
            "https://s.example",
            "Slow",
            Some("s")
        )])))
        .with_delay(Duration::from_millis(500)),
    );
    let out = tool(&fake, Duration::from_secs(5))
        .call(json!({"queries": ["q"]}))
        .await;
    assert!(!out.is_error, "{}", out.text);
    assert!(out.text.starts_with("1. Slow"));
}

#[tokio::test]
async fn reply_slower_than_the_timeout_is_a_timeout_error() {
    let fake = FakeKagi::start();
    fake.on_search(
        "q",
        ok(envelope(json!([]))).with_delay(Duration::from_secs(3)),
    );
    let out = tool(&fake, Duration::from_millis(300))
        .call(json!({"queries": ["q"]}))
        .await;
    assert!(out.is_error);
    assert_eq!(
        out.text,
        "Kagi search request timed out after 0.3 s (raise kagi.search_timeout_secs in the config file to wait longer)"
    );
}

#[tokio::test]
async fn huge_reply_is_truncated_and_the_full_list_saved_to_a_temp_file() {
    let fake = FakeKagi::start();
    let items: Vec<Value> = (1..=300)
        .map(|i| {
            result(
                &format!("https://big.example/{i}"),
                &format!("Title {i}"),
                Some(&"word ".repeat(60)),
            )
        })
        .collect();
    fake.on_search_items("big", items);
    let out = search(&fake, json!({"queries": ["big"]})).await;
    assert!(!out.is_error);

    let truncation = &out.details["truncation"];
    let path = truncation["full_output_path"].as_str().expect("saved path");
    let full = std::fs::read_to_string(path).expect("full output file");
    std::fs::remove_file(path).unwrap();
    assert!(full.contains("300. Title 300\n   https://big.example/300"));
    assert_eq!(
        full.lines().count(),
        truncation["total_lines"].as_u64().unwrap() as usize
    );

    let (shown, notice) = out.text.rsplit_once("\n\n").unwrap();
    assert!(
        full.starts_with(shown),
        "shown text is a prefix of the full text"
    );
    assert!(shown.len() <= 51_200);
    assert!(
        full[shown.len()..].starts_with('\n'),
        "cut at a line boundary"
    );
    let expected_notice = format!(
        "[Output truncated: showing {} of {} lines ({} of {}). {} lines ({}) omitted. Full output saved to: {path}]",
        truncation["output_lines"],
        truncation["total_lines"],
        vaultsum_tools::text::format_size(shown.len()),
        vaultsum_tools::text::format_size(full.len()),
        truncation["total_lines"].as_u64().unwrap() - truncation["output_lines"].as_u64().unwrap(),
        vaultsum_tools::text::format_size(full.len() - shown.len()),
    );
    assert_eq!(notice, expected_notice);

    // The record holds the results the text shows, no more, and says where the rest went.
    let record = out.record.as_deref().expect("a record");
    let results = record["results"].as_array().unwrap();
    let last = results.last().unwrap();
    assert!(results.len() < 300);
    assert!(shown.contains(&format!(
        "{}. {}\n   {}",
        last["n"],
        last["title"].as_str().unwrap(),
        last["url"].as_str().unwrap()
    )));
    assert!(!shown.contains(&format!("\n{}. Title", results.len() + 1)));
    assert_eq!(record["truncated"]["total_results"], json!(300));
    assert_eq!(record["truncated"]["full_output_path"], json!(path));
}

#[tokio::test]
async fn limit_holds_even_when_the_server_sends_more() {
    let fake = FakeKagi::start();
    let items = (1..=5)
        .map(|i| result(&format!("https://l.example/{i}"), &format!("L{i}"), None))
        .collect();
    fake.on_search_items("q", items);
    let out = search(&fake, json!({"queries": ["q"], "limit": 2})).await;
    assert_eq!(
        out.text,
        "1. L1\n   https://l.example/1\n\n2. L2\n   https://l.example/2"
    );
}

#[tokio::test]
async fn query_count_outside_one_to_ten_is_refused_before_any_request() {
    let fake = FakeKagi::start();
    for queries in [
        json!([]),
        json!((0..11).map(|i| format!("q{i}")).collect::<Vec<_>>()),
    ] {
        let out = search(&fake, json!({ "queries": queries })).await;
        assert!(out.is_error);
        assert!(
            out.text.starts_with("web_search takes 1 to 10 queries"),
            "{}",
            out.text
        );
    }
    let out = search(&fake, json!({"queries": ["ok", "  "]})).await;
    assert_eq!(out.text, "web_search queries must not be empty");
    let out = search(&fake, json!({"query": "wrong field"})).await;
    assert!(
        out.text.starts_with("invalid arguments for web_search"),
        "{}",
        out.text
    );
    assert!(fake.requests().is_empty());
}

#[tokio::test]
async fn call_and_result_render_compactly_and_expand_to_the_list() {
    let fake = FakeKagi::start();
    fake.on_search_items("a", vec![result("https://a.example", "A", Some("x"))]);
    fake.on_search("b", error(500, 0, "boom"));
    let t = tool(&fake, GENEROUS);
    let args = json!({"queries": ["a", "b"], "limit": 3});
    assert_eq!(t.render_call(&args), "web_search \"a\", \"b\" (limit 3)");
    let out = t.call(args.clone()).await;
    assert_eq!(
        t.render_result(&out, false),
        "1 result for 2 queries, 1 failed"
    );
    assert_eq!(t.render_result(&out, true), out.text);
    assert_eq!(
        t.stub(&args, &out).render(200),
        "[✓ web_search: \"a\", \"b\" | 1 result | 1 failed | top: https://a.example]"
    );
}

#[tokio::test]
async fn tool_is_listed_read_only_and_open_world_with_its_schema() {
    let fake = FakeKagi::start();
    let t = tool(&fake, GENEROUS);
    let annotations = serde_json::to_value(t.annotations()).unwrap();
    assert_eq!(annotations["readOnlyHint"], true);
    assert_eq!(annotations["openWorldHint"], true);
    let schema = t.input_schema();
    assert_eq!(schema["required"], json!(["queries"]));
    assert_eq!(schema["properties"]["queries"]["maxItems"], 10);
}
