//! Running the watcher in-process over a real Registry against the fake OpenAI server, in a
//! temporary vault with a temporary state folder.

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use tokio::sync::oneshot;
use tokio::task::JoinHandle;
use vaultsum::watch::{self, WatchError, WatchOptions, WatchReport};
use vaultsum_tools::config::{Config, Engine};
use vaultsum_tools::{Registry, ToolContext};

use super::fake_openai::FakeOpenAi;
// The watch tests wait through these; re-exported so they come with the watcher helpers.
pub use super::poll::{wait_until, wait_until_async};

/// A body long enough to pass the tests' `min_chars`.
pub fn long_body(topic: &str) -> String {
    format!(
        "# {topic}\n\n{}\n",
        format!("We discussed {topic} and agreed on the next steps. ").repeat(6)
    )
}

/// A temporary vault (with `.obsidian/`) and a temporary state folder beside it.
pub struct WatchVault {
    vault: tempfile::TempDir,
    state: tempfile::TempDir,
}

impl WatchVault {
    /// An empty vault.
    pub fn new() -> WatchVault {
        let vault = tempfile::tempdir().unwrap();
        std::fs::create_dir(vault.path().join(".obsidian")).unwrap();
        WatchVault {
            vault,
            state: tempfile::tempdir().unwrap(),
        }
    }

    /// The vault root.
    pub fn root(&self) -> &Path {
        self.vault.path()
    }

    /// The state folder (`VAULTSUM_STATE_DIR`).
    pub fn state_dir(&self) -> &Path {
        self.state.path()
    }

    /// The absolute path of a vault-relative path.
    pub fn path(&self, rel: &str) -> PathBuf {
        self.root().join(rel)
    }

    /// Writes a file, creating its folders.
    pub fn write(&self, rel: &str, text: &str) {
        let path = self.path(rel);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    }

    /// Reads a file ("" when it does not exist).
    pub fn read(&self, rel: &str) -> String {
        std::fs::read_to_string(self.path(rel)).unwrap_or_default()
    }

    /// True once the watcher has saved state for this vault (its catch-up is done and it is
    /// watching).
    pub fn has_state(&self) -> bool {
        let dir = self.state_dir().join("watch");
        std::fs::read_dir(dir).is_ok_and(|mut entries| {
            entries.any(|e| e.is_ok_and(|e| e.path().extension().is_some_and(|x| x == "json")))
        })
    }

    /// Configuration for this vault with the LLM at `server`.
    pub fn config(&self, server: &FakeOpenAi) -> Config {
        let mut config = Config {
            vault: Some(self.root().to_path_buf()),
            llm: server.llm_config(),
            ..Config::default()
        };
        config.summarize.engine = Engine::Llm;
        config.read.describe_media = false;
        config
    }

    /// Watch options for tests: short settle and retry times, this vault's state folder.
    pub fn options(&self, config: &Config) -> WatchOptions {
        let mut opts = WatchOptions::from_config(&config.watch);
        opts.settle = Duration::from_millis(300);
        opts.min_chars = 100;
        opts.concurrency = 2;
        opts.state_dir = self.state_dir().to_path_buf();
        opts.retry_backoff = Duration::from_millis(100);
        opts.shutdown_grace = Duration::from_secs(10);
        opts
    }
}

/// The Registry the binary would build for this configuration.
pub fn registry(config: Config) -> Arc<Registry> {
    Arc::new(Registry::new(Arc::new(
        ToolContext::new(config).expect("tool context"),
    )))
}

/// A watcher running on the test's tokio runtime.
pub struct RunningWatcher {
    stop: Option<oneshot::Sender<()>>,
    handle: JoinHandle<Result<WatchReport, WatchError>>,
}

impl RunningWatcher {
    /// Starts watching and waits until the watcher has caught up and saved its state.
    pub async fn start(vault: &WatchVault, registry: Arc<Registry>, opts: WatchOptions) -> Self {
        let had_state = vault.has_state();
        let (tx, rx) = oneshot::channel::<()>();
        let handle = tokio::spawn(watch::run(registry, opts, async {
            let _ = rx.await;
        }));
        if !had_state {
            assert!(
                wait_until_async(|| vault.has_state()).await,
                "the watcher never saved its state"
            );
        }
        RunningWatcher {
            stop: Some(tx),
            handle,
        }
    }

    /// Asks the watcher to stop and returns its report.
    pub async fn stop(mut self) -> WatchReport {
        if let Some(stop) = self.stop.take() {
            let _ = stop.send(());
        }
        (&mut self.handle)
            .await
            .expect("watcher task")
            .expect("watcher result")
    }
}

/// How many `## Summary` headings the note has.
pub fn summary_count(text: &str) -> usize {
    text.lines()
        .filter(|l| l.trim_end() == "## Summary")
        .count()
}
