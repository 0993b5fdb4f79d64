//! The one kind of failure a subcommand reports: a line on stderr and exit code 2.

/// A failure that ends the command with exit code 2 and one line on stderr.
#[derive(Debug)]
pub struct CliError(pub String);

impl<E: std::fmt::Display> From<E> for CliError {
    fn from(e: E) -> Self {
        CliError(e.to_string())
    }
}
