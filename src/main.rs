/// mimalloc instead of the system allocator: checking and rendering make
/// many small, short-lived strings on every core, where glibc's allocator
/// spent about a fifth of a build's instructions.
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> std::process::ExitCode {
    cici::cli::main()
}
