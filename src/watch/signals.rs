//! Stopping the watcher from outside. The first Ctrl-C (SIGINT) or SIGTERM asks for a clean
//! stop: no new summaries, those in flight finish (or are dropped before their write), the
//! state is saved. A second one ends the process at once.
//!
//! Kept small and local to watch mode; the one-shot commands have their own Ctrl-C handling.

/// Which signal asked the watcher to stop.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StopSignal {
    /// Ctrl-C (SIGINT).
    Interrupt,
    /// SIGTERM, how a service manager stops the watcher.
    Terminate,
}

impl StopSignal {
    /// The exit status after a clean stop: 130 after Ctrl-C (128 + SIGINT, what shells and
    /// scripts expect of an interrupted command); 0 after SIGTERM, which is how systemd stops
    /// the service on purpose (a non-zero status would mark every `systemctl stop` as a
    /// failure).
    pub fn exit_code(self) -> u8 {
        match self {
            StopSignal::Interrupt => 130,
            StopSignal::Terminate => 0,
        }
    }

    /// The exit status of a second signal, which ends the process at once: 128 + its number.
    fn immediate_exit_code(self) -> i32 {
        match self {
            StopSignal::Interrupt => 130,
            StopSignal::Terminate => 143,
        }
    }

    fn name(self) -> &'static str {
        match self {
            StopSignal::Interrupt => "Ctrl-C",
            StopSignal::Terminate => "SIGTERM",
        }
    }
}

/// The installed handlers. Installing them replaces the default action (death), so a signal
/// during start-up is not lost nor kills the process half-way through the catch-up.
pub struct StopSignals {
    #[cfg(unix)]
    interrupt: tokio::signal::unix::Signal,
    #[cfg(unix)]
    terminate: tokio::signal::unix::Signal,
}

impl StopSignals {
    /// Installs the handlers; needs a running tokio runtime.
    pub fn install() -> std::io::Result<StopSignals> {
        #[cfg(unix)]
        {
            use tokio::signal::unix::{signal, SignalKind};
            Ok(StopSignals {
                interrupt: signal(SignalKind::interrupt())?,
                terminate: signal(SignalKind::terminate())?,
            })
        }
        #[cfg(not(unix))]
        {
            Ok(StopSignals {})
        }
    }

    /// Completes on the first signal and returns which it was. From then on, a second signal
    /// ends the process at once (exit 130 for Ctrl-C, 143 for SIGTERM): summaries in flight are
    /// dropped, and since a note is written in one atomic rename, each is either as it was or
    /// has its whole summary.
    pub async fn first(mut self) -> StopSignal {
        let first = self.next().await;
        tracing::info!(
            "watch: {} received; a second one exits at once",
            first.name()
        );
        tokio::spawn(async move {
            let second = self.next().await;
            tracing::warn!(
                "watch: {} again: exiting at once; summaries in flight are dropped",
                second.name()
            );
            std::process::exit(second.immediate_exit_code());
        });
        first
    }

    async fn next(&mut self) -> StopSignal {
        #[cfg(unix)]
        {
            tokio::select! {
                _ = self.interrupt.recv() => StopSignal::Interrupt,
                _ = self.terminate.recv() => StopSignal::Terminate,
            }
        }
        #[cfg(not(unix))]
        {
            let _ = tokio::signal::ctrl_c().await;
            StopSignal::Interrupt
        }
    }
}
