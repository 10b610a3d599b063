//! Five `web_search` queries against a fake Kagi that takes 300 ms per request: one call with
//! all five (run concurrently) against five one-query calls in a row, measured in the same run.
//! The figure is the ratio concurrent / sequential; ideal is 1/5 = 0.20.
//!
//! Run: `cargo bench --bench kagi_concurrency`

#[allow(dead_code)]
#[path = "../tests/it/support/fake_kagi.rs"]
mod fake_kagi;
#[allow(dead_code)]
#[path = "../tests/it/support/fake_server.rs"]
mod fake_server;

use std::time::{Duration, Instant};

use fake_kagi::{envelope, ok, result, FakeKagi};
use serde_json::json;
use vaultsum_tools::web_search::WebSearchTool;
use vaultsum_tools::Tool;

const QUERIES: usize = 5;
const DELAY: Duration = Duration::from_millis(300);
const ROUNDS: usize = 5;

fn median(mut samples: Vec<Duration>) -> Duration {
    samples.sort();
    samples[samples.len() / 2]
}

fn main() {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .expect("runtime");
    runtime.block_on(async {
        let fake = FakeKagi::start();
        let queries: Vec<String> = (1..=QUERIES).map(|i| format!("query {i}")).collect();
        for (i, q) in queries.iter().enumerate() {
            let reply = ok(envelope(json!([result(
                &format!("https://example.com/{i}"),
                &format!("Result {i}"),
                Some("snippet"),
            )])))
            .with_delay(DELAY);
            fake.on_search(q, reply);
        }
        let tool = WebSearchTool::with_client(fake.client(Duration::from_secs(30)));

        let mut sequential = Vec::new();
        let mut concurrent = Vec::new();
        for _ in 0..ROUNDS {
            let start = Instant::now();
            for q in &queries {
                let out = tool.call(json!({ "queries": [q] })).await;
                assert!(!out.is_error, "{}", out.text);
            }
            sequential.push(start.elapsed());

            let start = Instant::now();
            let out = tool.call(json!({ "queries": queries })).await;
            assert!(!out.is_error, "{}", out.text);
            assert_eq!(out.details["result_count"], QUERIES);
            concurrent.push(start.elapsed());
        }
        let (seq, conc) = (median(sequential), median(concurrent));
        println!(
            "kagi_concurrency: {QUERIES} queries, {} ms per request, median of {ROUNDS} rounds",
            DELAY.as_millis()
        );
        println!(
            "  sequential (5 calls of 1 query): {:>7.1} ms",
            seq.as_secs_f64() * 1e3
        );
        println!(
            "  concurrent (1 call of 5 queries): {:>7.1} ms",
            conc.as_secs_f64() * 1e3
        );
        println!(
            "  ratio concurrent / sequential: {:.3} (ideal {:.3})",
            conc.as_secs_f64() / seq.as_secs_f64(),
            1.0 / QUERIES as f64
        );
    });
}
