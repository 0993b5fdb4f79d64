fn main() -> std::process::ExitCode {
    byop::cli::main()
}
