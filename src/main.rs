fn main() {
    std::process::exit(byop::cli::main());
}
