//! Speed of the counterfactual loop with the symbolic generator, on one
//! core: accepted triplets per second on PiSAs-size seeds, every label
//! computed by the prover from the variant's text.
//!
//! Target: at least 200 accepted triplets per second per core.

/// The allocator the `cici` binary runs with, so that the figures are its.
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

use cici::analysis::Options;
use cici::counterfactual::{triplets, Config, Kind};
use cici::driver::Run;
use cici::planted::{generate, Config as Planted};
use cici::render::Templates;
use cici::sema::Family;

fn main() {
    divan::main();
}

#[divan::bench(sample_count = 5)]
fn triplets_from_30_pisas_seeds(bencher: divan::Bencher) {
    let texts: Vec<(String, String)> = (0..30)
        .map(|i| {
            let sc = generate(&Planted::pisas(Family::ALL[i % 3], i as u64));
            (format!("s{i}.cici"), cici::printer::print(&sc))
        })
        .collect();
    let mut run = Run::new();
    run.check_texts(texts, &Options::default());
    let templates = Templates::builtin();
    let config = Config::symbolic(
        vec![Kind::Decision, Kind::Flow],
        2,
        0,
        24,
        Options::default(),
    );
    let count: usize = run
        .checked
        .iter()
        .map(|c| {
            triplets(c, &config, &templates)
                .expect("the built-in templates render")
                .len()
        })
        .sum();
    eprintln!("{count} triplets accepted per iteration");
    bencher
        .counter(divan::counter::ItemsCount::new(count))
        .bench(|| {
            run.checked
                .iter()
                .map(|c| {
                    triplets(c, &config, &templates)
                        .expect("the built-in templates render")
                        .len()
                })
                .sum::<usize>()
        });
}
