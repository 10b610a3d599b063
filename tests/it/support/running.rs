//! The real binary running in the background while the test acts on it: its stdout and stderr
//! read line by line as they come, signals sent to it, its exit waited for as an event.
//!
//! ```ignore
//! let mut run = Running::spawn(vaultsum_process(&scratch).args(["summarize-file", "Inbox"]));
//! let line = run.wait_for_stdout(|line| line.contains("\"success\":true"));
//! run.signal(libc::SIGINT);
//! let exit = run.wait();
//! assert_eq!(exit.status.code(), Some(130));
//! ```

use std::io::{BufRead, BufReader, Read};
use std::process::{Child, Command, ExitStatus, Stdio};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;

use super::cli::MUST_FINISH_WITHIN;
use super::poll::wait_until;

/// A child process whose output is collected line by line while it runs.
pub struct Running {
    child: Child,
    stdout: Arc<Mutex<Vec<String>>>,
    stderr: Arc<Mutex<Vec<String>>>,
    readers: Vec<JoinHandle<()>>,
}

/// How the process ended, and everything it printed.
#[derive(Debug)]
pub struct Exited {
    pub status: ExitStatus,
    pub stdout: Vec<String>,
    pub stderr: Vec<String>,
}

impl Exited {
    /// All of stderr, for assertion messages.
    pub fn stderr_text(&self) -> String {
        self.stderr.join("\n")
    }
}

impl Running {
    /// Starts `command` with stdin closed and stdout and stderr read on threads of their own.
    pub fn spawn(command: &mut Command) -> Running {
        // In a process group of its own, so a console event can be sent to it alone.
        #[cfg(windows)]
        std::os::windows::process::CommandExt::creation_flags(
            command,
            windows_sys::Win32::System::Threading::CREATE_NEW_PROCESS_GROUP,
        );
        let mut child = command
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("the binary starts");
        let stdout = Arc::new(Mutex::new(Vec::new()));
        let stderr = Arc::new(Mutex::new(Vec::new()));
        let readers = vec![
            collect_lines(child.stdout.take().expect("piped stdout"), stdout.clone()),
            collect_lines(child.stderr.take().expect("piped stderr"), stderr.clone()),
        ];
        Running {
            child,
            stdout,
            stderr,
            readers,
        }
    }

    /// The stdout lines printed so far.
    pub fn stdout(&self) -> Vec<String> {
        self.stdout.lock().unwrap().clone()
    }

    /// The stderr lines printed so far.
    pub fn stderr(&self) -> Vec<String> {
        self.stderr.lock().unwrap().clone()
    }

    /// Waits until a stdout line matches and returns it; fails the test when none does by the
    /// polling deadline.
    pub fn wait_for_stdout(&mut self, matches: impl Fn(&str) -> bool) -> String {
        let lines = self.stdout.clone();
        self.wait_for_line("stdout", &lines, matches)
    }

    /// Waits until a stderr line matches and returns it; fails the test when none does by the
    /// polling deadline.
    pub fn wait_for_stderr(&mut self, matches: impl Fn(&str) -> bool) -> String {
        let lines = self.stderr.clone();
        self.wait_for_line("stderr", &lines, matches)
    }

    fn wait_for_line(
        &mut self,
        stream: &str,
        lines: &Mutex<Vec<String>>,
        matches: impl Fn(&str) -> bool,
    ) -> String {
        let find = || lines.lock().unwrap().iter().find(|l| matches(l)).cloned();
        let found = wait_until(|| find().is_some());
        if !found {
            self.kill();
            panic!(
                "no matching line on {stream}; stdout: {:?}; stderr: {:?}",
                self.stdout(),
                self.stderr()
            );
        }
        find().expect("the line just seen")
    }

    /// Sends `signal` (`libc::SIGINT`, `libc::SIGTERM`, …) to the process.
    #[cfg(unix)]
    pub fn signal(&self, signal: libc::c_int) {
        let pid = libc::pid_t::try_from(self.child.id()).expect("a pid");
        // SAFETY: kill(2) on our own child's pid, which has not been waited for yet, so the pid
        // cannot have been reused.
        let sent = unsafe { libc::kill(pid, signal) };
        assert_eq!(sent, 0, "kill({pid}, {signal}) failed");
    }

    /// Sends the console's Ctrl-Break to the process's group (its own: see [`Running::spawn`]),
    /// for either stop request ([`super::signals`]).
    #[cfg(windows)]
    pub fn signal(&self, _signal: i32) {
        use windows_sys::Win32::System::Console::{GenerateConsoleCtrlEvent, CTRL_BREAK_EVENT};
        // SAFETY: a plain Win32 call with our own child's process group id.
        let sent = unsafe { GenerateConsoleCtrlEvent(CTRL_BREAK_EVENT, self.child.id()) };
        assert_ne!(
            sent,
            0,
            "GenerateConsoleCtrlEvent failed: {}",
            std::io::Error::last_os_error()
        );
    }

    /// Kills the process at once (SIGKILL on Unix): no handler runs, nothing is cleaned up.
    pub fn kill(&mut self) {
        let _ = self.child.kill();
    }

    /// Waits for the process to exit and collects all its output; fails the test (killing it)
    /// when it has not exited within [`MUST_FINISH_WITHIN`]: a hang is a failure, never a stuck
    /// run. The deadline only bounds a broken run; no test asserts on how long this takes.
    pub fn wait(mut self) -> Exited {
        let started = std::time::Instant::now();
        let mut status = None;
        while status.is_none() && started.elapsed() < MUST_FINISH_WITHIN {
            wait_until(|| {
                status = self.child.try_wait().expect("wait for the child");
                status.is_some()
            });
        }
        let Some(status) = status else {
            self.kill();
            let _ = self.child.wait();
            panic!(
                "the process did not exit within {MUST_FINISH_WITHIN:?}; stdout: {:?}; stderr: {:?}",
                self.stdout(),
                self.stderr()
            );
        };
        for reader in self.readers.drain(..) {
            reader.join().expect("output reader");
        }
        Exited {
            status,
            stdout: self.stdout(),
            stderr: self.stderr(),
        }
    }
}

impl Drop for Running {
    /// A test that fails half-way leaves no process behind.
    fn drop(&mut self) {
        if matches!(self.child.try_wait(), Ok(None)) {
            let _ = self.child.kill();
            let _ = self.child.wait();
        }
    }
}

fn collect_lines(
    stream: impl Read + Send + 'static,
    into: Arc<Mutex<Vec<String>>>,
) -> JoinHandle<()> {
    std::thread::spawn(move || {
        for line in BufReader::new(stream).lines() {
            let Ok(line) = line else { break };
            into.lock().unwrap().push(line);
        }
    })
}
