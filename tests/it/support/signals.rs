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
