//! Ctrl-C and SIGTERM as events a command waits for, instead of the default of dying at once.
//!
//! Why a module of its own: left alone, SIGINT and SIGTERM end the process on the spot, so a
//! batch stops with nothing printed and no word on what was done. A command that runs for a
//! while wants to hear the signal instead — stop starting new work, finish or drop what is in
//! flight, say what was done — and every such command wants the same signals on every platform:
//! Ctrl-C (SIGINT on Unix, the console Ctrl-C on Windows) and, on Unix, SIGTERM, which service
//! managers send. `summarize-file` and `watch` use it now; `mcp` can take it up in place of
//! its own copy. What a second signal means is the command's choice (for `summarize-file` and
//! `watch`: stop now); this module only reports each one.
//!
//! Dropping a `summarize_file` call is always safe (all its slow work happens before its one
//! write; see ARCHITECTURE.md, "Never a byte lost"), so a command may drop calls in flight.

use std::io;

/// Which signal arrived.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Interrupt {
    /// Ctrl-C: SIGINT on Unix, the console Ctrl-C on Windows.
    CtrlC,
    /// SIGTERM (Unix only): a service manager or `kill` asking the process to stop.
    #[cfg_attr(not(unix), allow(dead_code))]
    Terminate,
}

/// The process's Ctrl-C and SIGTERM, received as events. From [`Interrupts::listen`] until the
/// process exits these signals no longer end the process by themselves, so listen just before
/// the work that must not be cut short, and keep listening until the command returns.
pub(crate) struct Interrupts {
    #[cfg(unix)]
    ctrl_c: tokio::signal::unix::Signal,
    #[cfg(unix)]
    terminate: tokio::signal::unix::Signal,
    #[cfg(windows)]
    ctrl_c: tokio::signal::windows::CtrlC,
}

impl Interrupts {
    /// Starts receiving the signals. Must be called inside a tokio runtime. A signal that
    /// arrives after this returns is never lost: it is reported by the next [`Interrupts::recv`].
    pub(crate) fn listen() -> io::Result<Interrupts> {
        #[cfg(unix)]
        {
            use tokio::signal::unix::{signal, SignalKind};
            Ok(Interrupts {
                ctrl_c: signal(SignalKind::interrupt())?,
                terminate: signal(SignalKind::terminate())?,
            })
        }
        #[cfg(windows)]
        {
            Ok(Interrupts {
                ctrl_c: tokio::signal::windows::ctrl_c()?,
            })
        }
    }

    /// Waits for the next signal. Cancel-safe, so it can sit in a `tokio::select!` loop beside
    /// the work: a signal is not lost when another branch wins. Signals sent in a quick burst
    /// may arrive as one.
    pub(crate) async fn recv(&mut self) -> Interrupt {
        #[cfg(unix)]
        {
            tokio::select! {
                Some(()) = self.ctrl_c.recv() => Interrupt::CtrlC,
                Some(()) = self.terminate.recv() => Interrupt::Terminate,
                else => std::future::pending().await,
            }
        }
        #[cfg(windows)]
        {
            match self.ctrl_c.recv().await {
                Some(()) => Interrupt::CtrlC,
                None => std::future::pending().await,
            }
        }
    }
}
