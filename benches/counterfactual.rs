//! Speed of the whole `cici counterfactual` command with the symbolic
//! generator, on one core: rows (triplets) written per second, counting
//! everything the command does after reading its seeds: checking them, the
//! loop (candidates compiled, labelled by the prover, rendered, judged)
//! and writing the dataset folder (splits, variants, card, Croissant
//! metadata, tasks). The seeds are 100 planted `--norms` seeds, 25 of each
//! family, as `cici synth FAMILY --seed N --norms` writes them.
//!
//! Target: at least 200 rows per second on one core (one worker), which is
//! the command's rows per CPU-second.

/// The allocator the `cici` binary runs with, so that the figures are its.
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

use cici::analysis::Options;
use cici::counterfactual::{Config, Kind};
use cici::driver::Run;
use cici::planted::{generate, Config as Planted};
use cici::render::Templates;
use cici::sema::Family;

fn main() {
    divan::main();
}

/// 100 planted seeds with stated norms, 25 per family, formatted as
/// `cici synth` writes them.
fn seeds() -> Vec<(String, String)> {
    Family::ALL
        .iter()
        .flat_map(|&family| {
            (0..25u64).map(move |i| {
                let mut config = Planted::pisas(family, 90_000 + i);
                config.norms = true;
                let printed = cici::printer::print(&generate(&config));
                let text = cici::syntax::format(&printed).unwrap_or(printed);
                (format!("{}-{i}.cici", family.name()), text)
            })
        })
        .collect()
}

/// The whole command on one core: check the seeds, grow and write the
/// dataset into a fresh folder; the rows written. On a thread of its own,
/// as each run of the command starts afresh: what the loop keeps per
/// thread (the answers of `analysis::decided`) starts empty.
fn whole_command(texts: &[(String, String)], templates: &Templates) -> usize {
    std::thread::scope(|s| {
        s.spawn(|| run_once(texts, templates))
            .join()
            .expect("the run finishes")
    })
}

fn run_once(texts: &[(String, String)], templates: &Templates) -> usize {
    let options = Options::default();
    let mut run = Run::new();
    run.check_texts(texts.to_vec(), &options);
    let seeds: Vec<_> = run.checked.iter().collect();
    let mut config = Config::symbolic(vec![Kind::Decision, Kind::Flow], 2, 0, 32, options);
    config.workers = 1;
    let out = tempfile::tempdir().expect("a temporary folder");
    let summary =
        cici::counterfactual::run(&seeds, &config, templates, out.path()).expect("the run writes");
    summary.written
}

#[divan::bench(sample_count = 3)]
fn counterfactual_100_planted_norms_seeds(bencher: divan::Bencher) {
    let texts = seeds();
    let templates = Templates::builtin();
    let rows = whole_command(&texts, &templates);
    eprintln!("{rows} rows per run");
    bencher
        .counter(divan::counter::ItemsCount::new(rows))
        .bench(|| whole_command(&texts, &templates));
}
