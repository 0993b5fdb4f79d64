/// The allocator: a document's check makes and frees many small strings and vectors, and
/// the system allocator spent a third of a language-server keystroke on a dense document
/// consolidating its free lists (profiled with `perf`).
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> std::process::ExitCode {
    byop::cli::main()
}
