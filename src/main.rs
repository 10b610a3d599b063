//! The `vaultsum` binary: all behaviour lives in the library; this only maps the outcome to an
//! exit code.

fn main() -> std::process::ExitCode {
    vaultsum::cli::run()
}
