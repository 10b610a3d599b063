//! The integration tests, in one binary so the crate is linked once: each module is the suite of
//! one behaviour (the file name says which), and `support` holds the helpers they share — the
//! fake OpenAI and Kagi servers, temporary vaults, the CLI runner and the MCP clients.

mod support;

mod bounded_reads;
mod cli;
mod compact_cli;
mod compact_stubs;
mod doctor;
mod documents;
mod e2e_local_llm;
mod freshness;
mod hostile_input;
mod interrupt;
mod kagi_cli;
mod kagi_env_key;
mod kagi_search;
mod kagi_summarize;
mod llm_client;
mod llm_real_server;
mod local_real_vault;
mod local_split;
mod local_summary;
mod long_notes;
mod mcp_binary;
mod mcp_cold_start;
mod mcp_config;
mod mcp_http;
mod mcp_in_process;
mod mcp_progress;
mod mcp_python_client;
mod media;
mod portable_paths;
mod rate_limit;
mod retry_hints;
mod rollup;
mod service_exit;
mod summarize_file;
mod summarize_text_cli;
mod summary_input;
mod summary_property;
mod vault_expand;
mod vault_fixture;
mod vault_real;
mod vault_safety;
mod watch_failures;
mod watch_hourly_limit;
mod watch_interrupt;
mod watch_new_notes;
mod watch_progress;
mod watch_reconcile;
mod watch_restart;
mod watch_retries;
mod watch_skip_rules;
mod write_path;
