//! How `vaultsum mcp` ends when it is asked to stop, whatever its stdin and stdout are: SIGTERM
//! (a service manager's normal stop, and the MCP spec's fallback when closing stdin is not
//! enough) stops it cleanly with exit 0; Ctrl-C gives 130. Its stdin is held open and never
//! closed, and its stdout is not a pipe (`/dev/null`, a file), the case that once kept it
//! running forever. Unix only: signals (Windows' console events are covered in interrupt tests).
#![cfg(unix)]

use crate::support;

use std::io::{BufRead, BufReader};
use std::process::{Child, ChildStdin, Stdio};
use std::sync::mpsc;

use support::cli::{vaultsum_process, MUST_FINISH_WITHIN};
use support::signals::{service_stop_code, SIGINT, SIGTERM};
use support::temp_vault::TempVault;

/// Where the server's stdout goes.
enum Stdout {
    DevNull,
    File,
}

/// Starts `vaultsum mcp` on a small vault with stdin held open (the returned handle) and waits
/// until it says it is ready, so the signal reaches the server's own handler.
fn start_server(vault: &TempVault, stdout: Stdout) -> (Child, ChildStdin) {
    let stdout = match stdout {
        Stdout::DevNull => Stdio::null(),
        Stdout::File => {
            Stdio::from(std::fs::File::create(vault.outside().join("stdout.txt")).unwrap())
        }
    };
    let mut child = vaultsum_process(&vault.outside())
        .env("RUST_LOG", "info")
        .arg("--vault")
        .arg(vault.root())
        .arg("mcp")
        .stdin(Stdio::piped())
        .stdout(stdout)
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary starts");
    let stdin = child.stdin.take().expect("piped stdin");
    let (ready_tx, ready_rx) = mpsc::channel();
    let stderr = child.stderr.take().expect("piped stderr");
    std::thread::spawn(move || {
        for line in BufReader::new(stderr).lines().map_while(Result::ok) {
            if line.contains("MCP server ready") {
                let _ = ready_tx.send(());
            }
        }
    });
    ready_rx
        .recv_timeout(MUST_FINISH_WITHIN)
        .expect("the server says it is ready");
    (child, stdin)
}

/// Sends `signal` and waits for the exit code; fails (killing the server) if it does not exit.
fn stop_with(mut child: Child, signal: i32) -> Option<i32> {
    // SAFETY: kill(2) on our own child's pid.
    let sent = unsafe { libc::kill(child.id() as libc::pid_t, signal) };
    assert_eq!(sent, 0, "the signal was sent");
    let started = std::time::Instant::now();
    while started.elapsed() < MUST_FINISH_WITHIN {
        if let Some(status) = child.try_wait().expect("wait for the server") {
            return status.code();
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    let _ = child.kill();
    panic!("vaultsum mcp did not exit within {MUST_FINISH_WITHIN:?} of the signal");
}

fn vault() -> TempVault {
    TempVault::with(&[("Note.md", "A note.\n")])
}

#[test]
fn sigterm_stops_mcp_with_stdout_to_dev_null_and_stdin_held_open_exit_0() {
    let vault = vault();
    let (child, stdin) = start_server(&vault, Stdout::DevNull);
    assert_eq!(stop_with(child, SIGTERM), Some(service_stop_code(SIGTERM)));
    assert_eq!(service_stop_code(SIGTERM), 0);
    drop(stdin);
}

#[test]
fn sigterm_stops_mcp_with_stdout_to_a_file_exit_0() {
    let vault = vault();
    let (child, stdin) = start_server(&vault, Stdout::File);
    assert_eq!(stop_with(child, SIGTERM), Some(0));
    drop(stdin);
}

#[test]
fn ctrl_c_stops_mcp_with_130() {
    let vault = vault();
    let (child, stdin) = start_server(&vault, Stdout::DevNull);
    assert_eq!(stop_with(child, SIGINT), Some(130));
    drop(stdin);
}
