//! `vaultsum doctor`: renders the diagnosis made by `vaultsum_tools::doctor` (one line per
//! check: `✓` ok, `!` a warning, `✗` something a command needs) and picks the exit code:
//! 0 when nothing is `✗`, 1 otherwise. It decides nothing itself; the Claude Desktop line
//! comes from `mcp_config`, which knows the client files (a binary-side concern).

use std::io::Write;
use std::process::ExitCode;

use crate::config::Env;
use crate::tools::doctor::{self, CheckStatus, Diagnosis, DoctorRequest};

use super::Cli;

/// Arguments of `vaultsum doctor` (the global `--vault` and `--config` apply).
#[derive(Debug, clap::Args)]
pub struct DoctorArgs {}

/// Runs before the configuration is loaded the usual way: a broken config file is one of the
/// things the doctor reports, not a reason to stop.
pub fn run(cli: &Cli, _args: &DoctorArgs) -> anyhow::Result<ExitCode> {
    let request = DoctorRequest {
        config_file: cli.config.clone(),
        vault: cli.vault.clone(),
        cwd: std::env::current_dir().ok(),
        state_dir: crate::watch::state_files_folder(&crate::watch::state_dir_from_env()),
        env: Env::from_process(),
        timeout: doctor::NETWORK_TIMEOUT,
    };
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()?;
    let mut diagnosis = runtime.block_on(doctor::diagnose(request));
    diagnosis
        .checks
        .push(super::mcp_config::claude_desktop_check());
    let mut out = std::io::stdout().lock();
    out.write_all(render(&diagnosis).as_bytes())?;
    out.flush()?;
    Ok(if diagnosis.ready() {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}

/// The lines, names aligned, then a one-line verdict.
fn render(diagnosis: &Diagnosis) -> String {
    let width = diagnosis
        .checks
        .iter()
        .map(|c| c.name.chars().count())
        .max()
        .unwrap_or(0);
    let mut text = String::new();
    for check in &diagnosis.checks {
        let mark = match check.status {
            CheckStatus::Ok => '✓',
            CheckStatus::Warning => '!',
            CheckStatus::Missing => '✗',
        };
        text.push_str(&format!("{mark} {:<width$}  {}", check.name, check.finding));
        if let Some(fix) = &check.fix {
            text.push_str(&format!(" → fix: {fix}"));
        }
        text.push('\n');
    }
    let problems = diagnosis.count(CheckStatus::Missing);
    let warnings = diagnosis.count(CheckStatus::Warning);
    let plural = |n: usize, word: &str| format!("{n} {word}{}", if n == 1 { "" } else { "s" });
    if problems == 0 {
        text.push_str(&format!(
            "ready: every command has what it needs ({})\n",
            plural(warnings, "warning")
        ));
    } else {
        text.push_str(&format!(
            "not ready: {} (✗ above), {}\n",
            plural(problems, "problem"),
            plural(warnings, "warning")
        ));
    }
    text
}
