fn main() -> std::process::ExitCode {
    cici::cli::main()
}
