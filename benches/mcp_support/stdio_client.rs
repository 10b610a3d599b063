//! A bare MCP client over a child's stdio for the benchmarks: newline-delimited JSON-RPC with no
//! client library in the way, so the timings are the server's.

#![allow(dead_code)] // each benchmark uses part of it

use std::io::{BufRead, BufReader, Write};
use std::path::Path;
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};

/// A running MCP server process, killed on drop.
pub struct StdioServer {
    child: Child,
    stdin: ChildStdin,
    stdout: BufReader<ChildStdout>,
    line: String,
    next_id: u64,
}

impl Drop for StdioServer {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// `command` with a clean environment for vaultsum: no config file, no keys, no vault from the
/// environment, so only the arguments decide what it opens.
pub fn clean(mut command: Command) -> Command {
    command
        .env("VAULTSUM_CONFIG", "")
        .env_remove("VAULTSUM_VAULT")
        .env_remove("FIREWORKS_API_KEY")
        .env_remove("KAGI_API_KEY")
        .env_remove("RUST_LOG");
    command
}

impl StdioServer {
    /// Spawns `program args` in `cwd` with its stdio piped (stderr discarded).
    pub fn spawn_in(program: &Path, args: &[&str], cwd: &Path) -> StdioServer {
        let mut child = clean(Command::new(program))
            .args(args)
            .current_dir(cwd)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("spawn server");
        StdioServer {
            stdin: child.stdin.take().unwrap(),
            stdout: BufReader::new(child.stdout.take().unwrap()),
            child,
            line: String::new(),
            next_id: 1,
        }
    }

    /// The process id (for /proc).
    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    fn send(&mut self, message: &str) {
        self.stdin.write_all(message.as_bytes()).unwrap();
        self.stdin.write_all(b"\n").unwrap();
        self.stdin.flush().unwrap();
    }

    /// Sends a request and waits for its answer.
    pub fn request(&mut self, method: &str, params: serde_json::Value) -> serde_json::Value {
        let id = self.next_id;
        self.next_id += 1;
        let message =
            serde_json::json!({ "jsonrpc": "2.0", "id": id, "method": method, "params": params });
        self.send(&message.to_string());
        loop {
            self.line.clear();
            assert!(
                self.stdout.read_line(&mut self.line).unwrap() > 0,
                "server closed stdout"
            );
            if let Ok(value) = serde_json::from_str::<serde_json::Value>(&self.line) {
                if value["id"] == id {
                    return value;
                }
            }
        }
    }

    /// initialize, then notifications/initialized.
    pub fn handshake(&mut self) {
        self.request(
            "initialize",
            serde_json::json!({ "protocolVersion": "2025-06-18", "capabilities": {},
                                "clientInfo": { "name": "bench", "version": "0" } }),
        );
        self.send(r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#);
    }
}

/// Resident memory of a process in KiB (VmRSS), 0 when unknown.
pub fn rss_kib(pid: u32) -> u64 {
    std::fs::read_to_string(format!("/proc/{pid}/status"))
        .ok()
        .and_then(|status| {
            status
                .lines()
                .find_map(|l| l.strip_prefix("VmRSS:"))
                .and_then(|v| v.split_whitespace().next()?.parse().ok())
        })
        .unwrap_or(0)
}
