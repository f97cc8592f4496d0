//! Speed of `cici export pisas`: a bundle with its count of the decisions
//! the public constraints allow, beside the check of the same seed.
//!
//! Target on a 2-core machine: exporting a seed of `seeds/` takes at most
//! three times its check, the count bounded by the default
//! [`COUNT_LIMIT`](cici::pisas::export::COUNT_LIMIT).

/// The allocator the `cici` binary runs with, so that the figures are its.
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

use cici::analysis::Options;
use cici::driver::Run;
use cici::pisas::export::{bundle, count_before_private, Options as BundleOptions, COUNT_LIMIT};
use cici::render::Templates;

fn main() {
    divan::main();
}

const SEEDS: [&str; 3] = ["mobile_release", "payments_sprint", "launch_week"];

fn seed(name: &str) -> String {
    let path = format!("{}/seeds/{name}.cici", env!("CARGO_MANIFEST_DIR"));
    std::fs::read_to_string(path).expect("the seed exists")
}

fn checked(text: &str) -> Run {
    let mut run = Run::new();
    run.check_text("s.cici", text.to_string(), &Options::default());
    run
}

#[divan::bench(args = SEEDS)]
fn check(bencher: divan::Bencher, name: &str) {
    let text = seed(name);
    bencher.bench(|| checked(divan::black_box(&text)).checked.len());
}

/// Check and bundle, as `cici export pisas` does per seed.
#[divan::bench(args = SEEDS)]
fn check_and_export(bencher: divan::Bencher, name: &str) {
    let text = seed(name);
    let templates = Templates::builtin();
    let options = BundleOptions::default();
    bencher.bench(|| {
        let run = checked(divan::black_box(&text));
        let b = bundle(&run.checked[0], &text, &templates, &options).unwrap();
        b.texts().len()
    });
}

/// The count alone, to the default bound and ten times past it.
#[divan::bench(args = [COUNT_LIMIT, 10 * COUNT_LIMIT])]
fn count_mobile_release(bencher: divan::Bencher, bound: u64) {
    let run = checked(&seed("mobile_release"));
    let c = &run.checked[0];
    bencher.bench(|| count_before_private(c, bound, None).value());
}
