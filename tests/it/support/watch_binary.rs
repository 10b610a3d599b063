//! The real `vaultsum watch` binary against a [`WatchVault`] and the fake OpenAI server: the
//! command with a clean environment, signals, and its stderr as it comes, so a test can wait
//! for a log line (an event) instead of sleeping.

use std::io::{BufRead, BufReader, Read};
use std::path::Path;
use std::process::{Child, Command, ExitStatus, Stdio};
use std::sync::{Arc, Mutex};

use serde_json::Value;

use super::cli::VARIABLES;
use super::fake_openai::FakeOpenAi;
use super::poll::wait_until;
use super::watcher::WatchVault;

/// `vaultsum --vault VAULT watch ARGS` with nothing from the developer's shell: the state in
/// the vault's state folder, no config file (see [`with_config`]), the LLM at `server`.
pub fn watch_command(vault: &WatchVault, server: &FakeOpenAi, args: &[&str]) -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_vaultsum"));
    for name in VARIABLES {
        command.env_remove(name);
    }
    command
        .arg("--vault")
        .arg(vault.root())
        .arg("watch")
        .args(args)
        .env("VAULTSUM_STATE_DIR", vault.state_dir())
        .env("VAULTSUM_CONFIG", "")
        .env("VAULTSUM_CACHE_DIR", vault.state_dir().join("cache"))
        .envs(server.env());
    command
}

/// Writes `toml` as the config file of `command` (kept beside the state, outside the vault).
pub fn with_config(command: &mut Command, vault: &WatchVault, toml: &str) {
    let path = vault.state_dir().join("config.toml");
    std::fs::write(&path, toml).unwrap();
    command.env("VAULTSUM_CONFIG", path);
}

/// What a finished run printed.
#[derive(Debug)]
pub struct Finished {
    pub status: ExitStatus,
    pub stdout: String,
    pub stderr: String,
}

/// Runs `command` to its end (`--once`), failing the test if it hangs.
pub fn run_once(command: &mut Command) -> Finished {
    let process = WatchProcess::spawn(command);
    process.wait()
}

/// A running watcher whose stderr is collected as it comes.
pub struct WatchProcess {
    child: Child,
    stderr: Arc<Mutex<String>>,
    reader: Option<std::thread::JoinHandle<()>>,
}

impl WatchProcess {
    /// Starts the command with stdout and stderr captured.
    pub fn spawn(command: &mut Command) -> WatchProcess {
        let mut child = command
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("vaultsum starts");
        let stderr = Arc::new(Mutex::new(String::new()));
        let pipe = child.stderr.take().unwrap();
        let sink = stderr.clone();
        let reader = std::thread::spawn(move || {
            for line in BufReader::new(pipe).lines().map_while(Result::ok) {
                let mut text = sink.lock().unwrap();
                text.push_str(&line);
                text.push('\n');
            }
        });
        WatchProcess {
            child,
            stderr,
            reader: Some(reader),
        }
    }

    /// Sends `signal` (`libc::SIGINT`, `libc::SIGTERM`) to the process.
    pub fn signal(&self, signal: libc::c_int) {
        // SAFETY: plain kill(2) on our own child's pid.
        let rc = unsafe { libc::kill(self.child.id() as libc::pid_t, signal) };
        assert_eq!(rc, 0, "kill failed");
    }

    /// Everything written to stderr so far.
    pub fn stderr(&self) -> String {
        self.stderr.lock().unwrap().clone()
    }

    /// Waits until stderr contains `text`; fails the test (showing stderr) if it never does.
    pub fn wait_for_log(&self, text: &str) {
        assert!(
            wait_until(|| self.stderr().contains(text)),
            "never logged {text:?}; stderr:\n{}",
            self.stderr()
        );
    }

    /// Waits for the process to exit by itself (it is killed and the test fails otherwise).
    pub fn wait(mut self) -> Finished {
        let mut status = None;
        let exited = wait_until(|| {
            status = self.child.try_wait().unwrap();
            status.is_some()
        });
        if !exited {
            let _ = self.child.kill();
            let _ = self.child.wait();
            panic!("vaultsum watch did not exit; stderr:\n{}", self.stderr());
        }
        if let Some(reader) = self.reader.take() {
            let _ = reader.join();
        }
        let mut stdout = String::new();
        if let Some(mut pipe) = self.child.stdout.take() {
            let _ = pipe.read_to_string(&mut stdout);
        }
        Finished {
            status: status.unwrap(),
            stdout,
            stderr: self.stderr(),
        }
    }
}

impl Drop for WatchProcess {
    fn drop(&mut self) {
        // A test that failed half-way leaves no watcher behind.
        if let Ok(None) = self.child.try_wait() {
            let _ = self.child.kill();
            let _ = self.child.wait();
        }
    }
}

/// The watch state of the vault, as saved (`Null` when there is none).
pub fn saved_state(vault: &WatchVault) -> Value {
    let dir = vault.state_dir().join("watch");
    let Ok(entries) = std::fs::read_dir(&dir) else {
        return Value::Null;
    };
    for entry in entries.filter_map(Result::ok) {
        let path = entry.path();
        if path.extension().is_some_and(|x| x == "json") {
            return serde_json::from_slice(&std::fs::read(&path).unwrap()).unwrap();
        }
    }
    Value::Null
}

/// The status (`new`, `summarized`, `old`) the saved state gives the note, if it has it.
pub fn saved_status(vault: &WatchVault, rel: &str) -> Option<String> {
    saved_state(vault)["notes"][rel]["status"]
        .as_str()
        .map(str::to_string)
}

/// The notes waiting for the hourly limit in the saved state, longest waiting first.
pub fn saved_waiting(vault: &WatchVault) -> Vec<String> {
    let state = saved_state(vault);
    let mut waiting: Vec<(i128, String)> = state["waiting"]
        .as_object()
        .into_iter()
        .flatten()
        .map(|(rel, since)| (since.as_i64().map_or(0, i128::from), rel.clone()))
        .collect();
    waiting.sort();
    waiting.into_iter().map(|(_, rel)| rel).collect()
}

/// Files left in the vault's top folder besides `keep` and `.obsidian` (temporary files of an
/// interrupted write would show up here).
pub fn leftovers(root: &Path, keep: &[&str]) -> Vec<String> {
    std::fs::read_dir(root)
        .unwrap()
        .filter_map(Result::ok)
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|name| name != ".obsidian" && !keep.contains(&name.as_str()))
        .collect()
}
