//! Compaction stubs for every tool vaultsum knows, through the Registry: vaultsum's own tools
//! by their own `stub` rule, other agents' tools by the generic ones.

use std::sync::Arc;

use async_trait::async_trait;
use serde_json::{json, Value};
use vaultsum_tools::config::{CompactionConfig, Config};
use vaultsum_tools::{Registry, ToolAnnotations, ToolContext, ToolOutput, ToolSummary, TypedTool};

/// The Registry of every vaultsum tool, compacting with `config`.
fn registry(config: &CompactionConfig) -> Registry {
    let config = Config {
        compaction: config.clone(),
        ..Config::default()
    };
    Registry::new(Arc::new(ToolContext::new(config).unwrap()))
}

fn output(text: &str, is_error: bool, details: Option<&Value>) -> ToolOutput {
    ToolOutput {
        text: text.to_string(),
        details: details.cloned().unwrap_or(Value::Null),
        is_error,
        retry: None,
        record: None,
    }
}

/// The stub of a result that has only its text, as in a transcript.
fn stub_for(
    tool: &str,
    args: &Value,
    text: &str,
    is_error: bool,
    config: &CompactionConfig,
) -> String {
    registry(config).stub(tool, args, &output(text, is_error, None))
}

/// The stub of a live result, whose `details` the tool's rule may use.
fn stub_with_details(
    tool: &str,
    args: &Value,
    text: &str,
    is_error: bool,
    details: Option<&Value>,
    config: &CompactionConfig,
) -> String {
    registry(config).stub(tool, args, &output(text, is_error, details))
}

/// What replaces a result when compacting (errors kept whole with `preserve_errors`).
fn compact_result(
    tool: &str,
    args: &Value,
    text: &str,
    is_error: bool,
    config: &CompactionConfig,
) -> String {
    registry(config).compact_result(tool, args, &output(text, is_error, None))
}

fn config() -> CompactionConfig {
    CompactionConfig {
        keep_last: 3,
        preserve_errors: true,
        max_summary_length: 200,
    }
}

#[test]
fn summarize_file_stub_keeps_path_and_summary_length() {
    let text = r#"{"success":true,"path":"Meetings/Standup.md","summary_length":812}"#;
    assert_eq!(
        stub_for(
            "summarize_file",
            &json!({"path": "Meetings/Standup.md"}),
            text,
            false,
            &config()
        ),
        "[✓ summarize_file: Meetings/Standup.md | summary 812 chars]"
    );
}

#[test]
fn failed_summarize_file_is_kept_whole_but_stubs_as_an_error() {
    let text = r#"{"success":false,"error":"the LLM request timed out after 120 s"}"#;
    let args = json!({"path": "a.md"});
    assert_eq!(
        compact_result("summarize_file", &args, text, true, &config()),
        text
    );
    assert_eq!(
        stub_for("summarize_file", &args, text, true, &config()),
        "[❌ summarize_file: a.md | the LLM request timed out after 120 s]"
    );
}

#[test]
fn read_file_stub_keeps_path_lines_and_size() {
    let text = "# Title\n\nSome body text.\n";
    assert_eq!(
        stub_for(
            "read_file",
            &json!({"path": "Notes/a.md"}),
            text,
            false,
            &config()
        ),
        "[✓ read_file: Notes/a.md | 3 lines | 25B]"
    );
}

#[test]
fn paged_read_file_stub_says_which_part_was_read() {
    let text = format!(
        "{}\n[... truncated at char 30000 of 81234. Use offset=30000 to read more.]",
        "x".repeat(30_000)
    );
    let stub = stub_for(
        "read_file",
        &json!({"path": "Big.md"}),
        &text,
        false,
        &config(),
    );
    assert_eq!(
        stub,
        "[✓ read_file: Big.md | 2 lines | 29.4KB | partial: to char 30000 of 81234]"
    );
}

#[test]
fn read_file_of_source_code_names_language_exports_and_imports() {
    let text = "import { x } from './x';\n\nexport function app() {}\n";
    assert_eq!(
        stub_for(
            "read_file",
            &json!({"path": "/src/app.ts"}),
            text,
            false,
            &config()
        ),
        "[✓ read_file: /src/app.ts | 3 lines | 51B | TypeScript | has exports | has imports]"
    );
}

#[test]
fn web_search_stub_from_transcript_text_counts_results_and_lists_top_urls() {
    let text = "1. A\n   https://a.example\n   s\n\n2. B\n   https://b.example\n\n\
                3. C\n   https://c.example\n   s\n\n4. D\n   https://d.example";
    assert_eq!(
        stub_for("web_search", &json!({"queries": ["rust", "tokio"]}), text, false, &config()),
        "[✓ web_search: \"rust\", \"tokio\" | 4 results | top: https://a.example, https://b.example, https://c.example]"
    );
}

#[test]
fn web_search_stub_prefers_details_when_the_caller_has_them() {
    let details = json!({"result_count": 12, "results": [{"url": "https://x.example"}]});
    assert_eq!(
        stub_with_details(
            "web_search",
            &json!({"queries": ["q"]}),
            "",
            false,
            Some(&details),
            &config()
        ),
        "[✓ web_search: \"q\" | 12 results | top: https://x.example]"
    );
}

#[test]
fn summarize_stub_keeps_url_type_and_tokens_or_words() {
    let args = json!({"url": "https://e.com/a", "summary_type": "takeaway"});
    let details = json!({"tokens": 950});
    assert_eq!(
        stub_with_details(
            "summarize",
            &args,
            "- one\n- two",
            false,
            Some(&details),
            &config()
        ),
        "[✓ summarize: https://e.com/a | takeaway | 950 tokens]"
    );
    assert_eq!(
        stub_for(
            "summarize",
            &json!({"url": "https://e.com/b"}),
            "Three words here.",
            false,
            &config()
        ),
        "[✓ summarize: https://e.com/b | summary | 3 words]"
    );
}

#[test]
fn bash_stub_has_command_exit_code_and_output_size() {
    let text = "running 42 tests\nall passed\nexit code: 0";
    assert_eq!(
        stub_for(
            "execute_bash",
            &json!({"command": "npm test"}),
            text,
            false,
            &config()
        ),
        "[✓ execute_bash: npm test | exit 0 | 3 lines output]"
    );
}

#[test]
fn bash_with_nonzero_exit_is_an_error_kept_whole() {
    let text = "Error: Module not found: 'left-pad'\nExited with code 1";
    let args = json!({"command": "npm test"});
    assert_eq!(compact_result("bash", &args, text, false, &config()), text);
    let no_preserve = CompactionConfig {
        preserve_errors: false,
        ..config()
    };
    assert_eq!(
        compact_result("bash", &args, text, false, &no_preserve),
        "[❌ bash: npm test | exit 1 | 2 lines output | contains errors]"
    );
}

#[test]
fn long_bash_command_is_shortened_to_fifty_chars() {
    let command = format!("cargo test --workspace {}", "--features x ".repeat(10));
    let stub = stub_for(
        "bash",
        &json!({ "command": command }),
        "ok",
        false,
        &config(),
    );
    let shown = stub
        .trim_start_matches("[✓ bash: ")
        .split(" | ")
        .next()
        .unwrap();
    assert_eq!(shown.chars().count(), 50);
    assert!(shown.ends_with('…'));
}

#[test]
fn search_files_stub_counts_matches_and_names_files() {
    let text = "src/App.tsx:12:  const [a] = useState(0);\n\
                src/App.tsx:30:  useState(1)\n\
                src/hooks/Hook.ts:4:useState\n\
                src/Other.tsx:9:useState\n\
                lib/More.tsx:1:useState\n";
    assert_eq!(
        stub_for(
            "grep",
            &json!({"pattern": "useState"}),
            text,
            false,
            &config()
        ),
        "[✓ grep: \"useState\" | 5 matches in 4 files: App.tsx, Hook.ts, Other.tsx, …]"
    );
    assert_eq!(
        stub_for(
            "search_files",
            &json!({"pattern": "nothing"}),
            "",
            false,
            &config()
        ),
        "[✓ search_files: \"nothing\" | no matches]"
    );
}

#[test]
fn unknown_tool_gets_a_generic_stub_with_its_main_argument() {
    assert_eq!(
        stub_for(
            "fetch_weather",
            &json!({"city": "Lyon", "days": 3}),
            "Sunny, 21°C\nWind 5 km/h\n",
            false,
            &config()
        ),
        "[✓ fetch_weather: city: Lyon | 2 lines, 25B | Sunny, 21°C]"
    );
}

#[test]
fn error_of_any_tool_is_kept_whole_by_default_and_stubbed_when_asked() {
    let text = "note not found: Missing.md\nCheck the path; it is relative to the vault.";
    let args = json!({"path": "Missing.md"});
    assert_eq!(
        compact_result("read_file", &args, text, true, &config()),
        text
    );
    let no_preserve = CompactionConfig {
        preserve_errors: false,
        ..config()
    };
    assert_eq!(
        compact_result("read_file", &args, text, true, &no_preserve),
        "[❌ read_file: Missing.md | note not found: Missing.md]"
    );
}

#[test]
fn stubs_never_exceed_max_summary_length() {
    let queries: Vec<String> = (0..10)
        .map(|i| format!("a rather long query number {i}"))
        .collect();
    let args = json!({ "queries": queries });
    for max in [200, 80, 40] {
        let cfg = CompactionConfig {
            max_summary_length: max,
            ..config()
        };
        let stub = stub_for(
            "web_search",
            &args,
            "1. A\n   https://a.example",
            false,
            &cfg,
        );
        assert!(stub.chars().count() <= max, "{max}: {stub}");
        assert!(
            stub.starts_with("[✓ web_search: ") && stub.ends_with("…]"),
            "{stub}"
        );
    }
}

/// Arguments of [`Weather`].
#[derive(serde::Deserialize, schemars::JsonSchema)]
struct WeatherArgs {
    city: String,
}

/// A tool written the way every vaultsum tool is, with its own stub rule.
struct Weather;

#[async_trait]
impl TypedTool for Weather {
    type Args = WeatherArgs;
    const NAME: &'static str = "fetch_weather";
    const TITLE: &'static str = "Fetch the weather";
    const DESCRIPTION: &'static str = "The forecast for a city.";
    const ANNOTATIONS: ToolAnnotations = ToolAnnotations::READ_ONLY_OPEN_WORLD;

    async fn run(&self, args: WeatherArgs) -> ToolOutput {
        ToolOutput::ok(format!("Sunny in {}", args.city), Value::Null)
    }
    fn render_call(&self, args: &WeatherArgs) -> String {
        format!("fetch_weather {:?}", args.city)
    }
    fn render_result(&self, output: &ToolOutput, _expanded: bool) -> String {
        output.text.clone()
    }
    fn stub(&self, args: &Value, _output: &ToolOutput) -> ToolSummary {
        let city = args["city"].as_str().unwrap_or("?");
        ToolSummary::success(Self::NAME, vec![format!("forecast for {city}")])
    }
}

fn transcript_call(id: &str, name: &str, args: Value, result: &str) -> [Value; 2] {
    [
        json!({"role": "assistant", "content": null, "tool_calls": [{"id": id, "type": "function",
               "function": {"name": name, "arguments": args.to_string()}}]}),
        json!({"role": "tool", "tool_call_id": id, "content": result}),
    ]
}

#[test]
fn compact_transcript_uses_each_registered_tools_own_stub_and_generic_ones_for_the_rest() {
    let context = Arc::new(ToolContext::new(Config::default()).unwrap());
    let registry = Registry::with_tools(context, vec![Arc::new(Weather)]);
    let mut messages = Vec::new();
    messages.extend(transcript_call(
        "a",
        "fetch_weather",
        json!({"city": "Lyon"}),
        "Sunny, 21°C\nWind 5 km/h",
    ));
    messages.extend(transcript_call(
        "b",
        "bash",
        json!({"command": "make"}),
        "ok\nexit code: 0",
    ));
    let (compacted, stats) = registry
        .compact_transcript(&Value::Array(messages).to_string(), 0)
        .unwrap();
    assert_eq!(stats.stubbed, 2);
    // The tool's own rule, not the generic `city: Lyon | 2 lines, …` stub.
    assert_eq!(
        compacted[1]["content"],
        "[✓ fetch_weather: forecast for Lyon]"
    );
    assert_eq!(
        compacted[3]["content"],
        "[✓ bash: make | exit 0 | 2 lines output]"
    );
}

#[test]
fn compact_transcript_of_vaultsum_tools_uses_their_rules() {
    let mut messages = Vec::new();
    messages.extend(transcript_call(
        "a",
        "summarize_file",
        json!({"path": "Meetings/Standup.md"}),
        r#"{"success":true,"path":"Meetings/Standup.md","summary_length":812}"#,
    ));
    messages.extend(transcript_call(
        "b",
        "summarize",
        json!({"url": "https://e.com/a", "summary_type": "takeaway"}),
        "- one\n- two",
    ));
    let (compacted, _) = registry(&config())
        .compact_transcript(&Value::Array(messages).to_string(), 0)
        .unwrap();
    assert_eq!(
        compacted[1]["content"],
        "[✓ summarize_file: Meetings/Standup.md | summary 812 chars]"
    );
    assert_eq!(
        compacted[3]["content"],
        "[✓ summarize: https://e.com/a | takeaway | 4 words]"
    );
}

#[test]
fn a_result_flagged_as_error_always_stubs_as_an_error() {
    let context = Arc::new(ToolContext::new(Config::default()).unwrap());
    let registry = Registry::with_tools(context, vec![Arc::new(Weather)]);
    let failed = ToolOutput::error("city not found: Atlantis", Value::Null);
    assert_eq!(
        registry.stub("fetch_weather", &json!({"city": "Atlantis"}), &failed),
        "[❌ fetch_weather: forecast for Atlantis | city not found: Atlantis]"
    );
}
