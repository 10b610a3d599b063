//! Ctrl-C and SIGTERM as events a command waits for, instead of the default of dying at once.
//!
//! Why a module of its own: left alone, SIGINT and SIGTERM end the process on the spot, so a
//! batch stops with nothing printed and no word on what was done. A command that runs for a
//! while wants to hear the signal instead — stop starting new work, finish or drop what is in
//! flight, say what was done — and every such command wants the same signals on every platform:
//! Ctrl-C (SIGINT on Unix, the console's Ctrl-C or Ctrl-Break on Windows) and a request to
//! stop from the system (SIGTERM on Unix, which service managers send; on Windows the console
//! closing, logoff, shutdown). `summarize-file`, `watch` and `mcp` use it. What a second signal means is the command's choice (for `summarize-file` and
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
    /// Asked to stop by the system: SIGTERM on Unix (a service manager, `kill`); on Windows
    /// the console window closed, the user logging off or the system shutting down (Windows
    /// ends the process about 5 s later whatever it does, so work in flight may be dropped,
    /// which never leaves a note half written).
    Terminate,
}

impl Interrupt {
    /// The exit status of a batch command (`summarize-file`) this signal stopped: 128 + the
    /// signal's number, as shells report it: 130 for Ctrl-C, 143 for SIGTERM.
    pub(crate) fn batch_exit_code(self) -> u8 {
        match self {
            Interrupt::CtrlC => 130,
            Interrupt::Terminate => 143,
        }
    }

    /// The exit status of a service (`watch`, `mcp`) that this signal stopped cleanly. A
    /// request to stop (SIGTERM) is how service managers (systemd, launchd, Docker,
    /// Kubernetes) end a service normally, so a clean stop is a success: 0. Ctrl-C is a person
    /// interrupting it: 130, as for every command.
    pub(crate) fn service_exit_code(self) -> u8 {
        match self {
            Interrupt::CtrlC => 130,
            Interrupt::Terminate => 0,
        }
    }

    /// How the signal is named in messages, as the person knows it on their system.
    pub(crate) fn name(self) -> &'static str {
        match self {
            Interrupt::CtrlC => "Ctrl-C",
            Interrupt::Terminate if cfg!(windows) => "a console close",
            Interrupt::Terminate => "SIGTERM",
        }
    }
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
    /// Ctrl-Break: what a console sends a process group (`GenerateConsoleCtrlEvent`), and a
    /// second key for Ctrl-C.
    #[cfg(windows)]
    ctrl_break: tokio::signal::windows::CtrlBreak,
    #[cfg(windows)]
    close: tokio::signal::windows::CtrlClose,
    #[cfg(windows)]
    logoff: tokio::signal::windows::CtrlLogoff,
    #[cfg(windows)]
    shutdown: tokio::signal::windows::CtrlShutdown,
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
            use tokio::signal::windows;
            Ok(Interrupts {
                ctrl_c: windows::ctrl_c()?,
                ctrl_break: windows::ctrl_break()?,
                close: windows::ctrl_close()?,
                logoff: windows::ctrl_logoff()?,
                shutdown: windows::ctrl_shutdown()?,
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
            tokio::select! {
                Some(()) = self.ctrl_c.recv() => Interrupt::CtrlC,
                Some(()) = self.ctrl_break.recv() => Interrupt::CtrlC,
                Some(()) = self.close.recv() => Interrupt::Terminate,
                Some(()) = self.logoff.recv() => Interrupt::Terminate,
                Some(()) = self.shutdown.recv() => Interrupt::Terminate,
                else => std::future::pending().await,
            }
        }
    }
}
