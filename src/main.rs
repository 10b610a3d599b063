//! The `vaultsum` binary: all behaviour lives in the library; this only maps the outcome to an
//! exit code.

/// mimalloc instead of the system's allocator: reading a PDF allocates and frees millions of
/// small pieces, and glibc's malloc took a fifth of that time (see the workspace Cargo.toml).
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> std::process::ExitCode {
    vaultsum::cli::run()
}
