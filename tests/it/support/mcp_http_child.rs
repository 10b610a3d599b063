//! `vaultsum mcp --http 127.0.0.1:0` as a real process for outside MCP clients (the Python
//! and TypeScript SDKs), serving the offline engine with no keys.

use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::{Child, Command, Stdio};

const BIN: &str = env!("CARGO_BIN_EXE_vaultsum");

/// `vaultsum mcp --http 127.0.0.1:0`, killed on drop; the URL is read from its stderr.
pub struct HttpChild {
    child: Child,
    /// The endpoint, e.g. `http://127.0.0.1:40123/mcp`.
    pub url: String,
}

impl Drop for HttpChild {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Starts the server on a free loopback port (with `VAULTSUM_MCP_TOKEN` when `token` is set)
/// and returns once it says where it serves.
pub fn spawn_http(vault: &Path, token: Option<&str>) -> HttpChild {
    spawn_http_with_env(vault, token, &[])
}

/// [`spawn_http`] with more environment variables (a fake Kagi's `KAGI_BASE_URL` and key).
pub fn spawn_http_with_env(vault: &Path, token: Option<&str>, env: &[(&str, &str)]) -> HttpChild {
    let mut command = Command::new(BIN);
    command
        .arg("--vault")
        .arg(vault)
        .args(["mcp", "--http", "127.0.0.1:0"])
        .env_remove("VAULTSUM_MCP_TOKEN")
        .env_remove("FIREWORKS_API_KEY")
        .env_remove("KAGI_API_KEY")
        .env("VAULTSUM_ENGINE", "offline")
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped());
    if let Some(token) = token {
        command.env("VAULTSUM_MCP_TOKEN", token);
    }
    command.envs(env.iter().copied());
    let mut child = command.spawn().expect("spawn vaultsum mcp --http");
    let mut stderr = BufReader::new(child.stderr.take().unwrap());
    let mut line = String::new();
    let url = loop {
        line.clear();
        if stderr.read_line(&mut line).unwrap() == 0 {
            panic!("vaultsum mcp --http exited before serving");
        }
        if let Some(url) = line.trim().strip_prefix("vaultsum: serving MCP at ") {
            break url.to_string();
        }
    };
    // Keep draining stderr so the server never blocks on a full pipe.
    std::thread::spawn(move || std::io::copy(&mut stderr, &mut std::io::sink()));
    HttpChild { child, url }
}
