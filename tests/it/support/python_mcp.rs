//! The real MCP client from outside the crate: the Python `mcp` SDK in `.venv/`, made by
//! `scripts/python-env.sh`.

use std::path::PathBuf;

/// Set to `1` (CI does) to make a missing venv a test failure instead of a skip.
pub const REQUIRE_ENV: &str = "VAULTSUM_REQUIRE_PY_MCP";

/// The venv's Python, if the venv exists. Without it, the caller's test is skipped with a loud
/// message on stderr, or fails when `VAULTSUM_REQUIRE_PY_MCP=1`.
pub fn python_with_mcp(test: &str) -> Option<PathBuf> {
    // Where `python -m venv` puts the interpreter on this system.
    let in_venv = if cfg!(windows) {
        ".venv/Scripts/python.exe"
    } else {
        ".venv/bin/python"
    };
    let python = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join(in_venv);
    let usable = python.is_file()
        && std::process::Command::new(&python)
            .args(["-c", "import mcp"])
            .output()
            .map(|o| o.status.success())
            .unwrap_or(false);
    if usable {
        return Some(python);
    }
    let message = format!(
        "{test}: the Python MCP client is not installed ({} missing or without `mcp`). \
         Run `bash scripts/python-env.sh` to create it.",
        python.display()
    );
    if std::env::var(REQUIRE_ENV).as_deref() == Ok("1") {
        panic!("{message} ({REQUIRE_ENV}=1 makes this a failure)");
    }
    // Written to the real stderr, not through `eprintln!`, which the test harness captures.
    use std::io::Write;
    let _ = writeln!(
        std::io::stderr(),
        "\n!!!!!!!!!! SKIPPED !!!!!!!!!!\n{message}\n!!!!!!!!!!!!!!!!!!!!!!!!!!!!\n"
    );
    None
}

/// The client script.
pub fn client_script() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/mcp/client_check.py")
}
