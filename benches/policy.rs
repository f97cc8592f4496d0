//! Speed of the decision-policy family and the task-family seed import.
//!
//! Targets on a 2-core machine: import and full check of all 144 valid
//! configurations of a six-variable release seed under 200 ms; one
//! configuration of a 16-variable seed, with its critical set, under 50 ms.
//! The growth benchmark checks one planted configuration of n three-state
//! variables for n = 6, 10, 16, 24: enumeration would cost 3^n * 2^n.

use std::path::PathBuf;

use cici::analysis::Options;
use cici::driver::Run;
use cici::import::{self, build::Select, SeedOptions};
use cici::planted::{generate, Config};
use cici::sema::Family;

fn main() {
    divan::main();
}

fn uas_seed() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/pisas/seeds/uas_flight_readiness/seed.json")
}

fn import_all() -> import::SeedImport {
    let seed = uas_seed();
    import::pisas_seed(
        &seed,
        Some(&seed.with_file_name("personal_context_library.json")),
        &SeedOptions {
            select: Select::All,
            seed: 0,
            prefix: None,
        },
    )
}

/// Import only: read the seed, enumerate, write 144 seeds in memory.
#[divan::bench(sample_count = 20)]
fn import_144_configurations(bencher: divan::Bencher) {
    bencher.bench(|| assert_eq!(import_all().scenarios.len(), 144));
}

/// Import, then the full check of every configuration (every analysis).
#[divan::bench(sample_count = 20)]
fn import_and_check_144_configurations(bencher: divan::Bencher) {
    bencher.bench(|| {
        let imported = import_all();
        let mut run = Run::new();
        run.check_texts(
            imported
                .scenarios
                .into_iter()
                .map(|w| (w.entry.file, w.text))
                .collect(),
            &Options::default(),
        );
        assert_eq!(run.errors(), 0);
        run.checked.len()
    });
}

/// One configuration of a planted seed with n three-state checks.
#[divan::bench(args = [6, 10, 16, 24], sample_count = 20)]
fn check_one_configuration(bencher: divan::Bencher, n: usize) {
    let text = cici::printer::print(&generate(&Config {
        family: Family::PolicyDecision,
        people: 8,
        size: n,
        soft: 4,
        irrelevant: 4,
        seed: 7,
        id: None,
    }));
    bencher.bench(|| {
        let mut run = Run::new();
        run.check_text("policy.cici", text.clone(), &Options::default());
        assert_eq!(run.errors(), 0);
        assert!(run.checked[0].report.unique);
    });
}
