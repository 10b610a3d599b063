//! The stop requests a test sends the binary, named the same on every system. On Unix they are
//! the signals themselves; on Windows both arrive as the console's Ctrl-Break (see
//! [`super::running::Running::signal`]), which the binary takes as Ctrl-C: Windows has no
//! SIGTERM, and its console close cannot be sent by a program.

#[cfg(unix)]
pub use libc::{SIGINT, SIGTERM};

/// Ctrl-C.
#[cfg(windows)]
pub const SIGINT: i32 = 2;
/// A request to stop.
#[cfg(windows)]
pub const SIGTERM: i32 = 15;

/// The exit code the binary gives when `signal` stopped a batch (`summarize-file`): 128 + the
/// signal, as shells report it (130 for Ctrl-C, 143 for SIGTERM). On Windows both are sent as
/// Ctrl-Break, which is Ctrl-C: 130.
pub fn batch_stop_code(signal: i32) -> i32 {
    if cfg!(windows) {
        130
    } else {
        128 + signal
    }
}

/// The exit code the binary gives when `signal` stopped a service (`watch`, `mcp`) cleanly: 0
/// for SIGTERM (a service manager's normal stop), 130 for Ctrl-C. On Windows both are sent as
/// Ctrl-Break, which is Ctrl-C: 130.
pub fn service_stop_code(signal: i32) -> i32 {
    if cfg!(unix) && signal == SIGTERM {
        0
    } else {
        130
    }
}
