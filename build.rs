//! Links the `cici` binary at a fixed address on Linux (`-no-pie`).
//!
//! A position-independent executable is relocated by the loader at every
//! start: the binary carries about 30,000 relative relocations (vtables,
//! tables of strings), and applying them reads 0.7 MB of relocation records
//! and copies 0.5 MB of read-only data, about 300 page faults before `main`.
//! That was half of what a `cici check` of one small seed cost as a whole
//! process. The library, the tests and the benchmarks are linked as before.
fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    let var = |name: &str| std::env::var(name).unwrap_or_default();
    if var("CARGO_CFG_TARGET_OS") == "linux" && var("CARGO_CFG_TARGET_ENV") == "gnu" {
        println!("cargo:rustc-link-arg-bins=-no-pie");
    }
}
