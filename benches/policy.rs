//! Speed of the decision-policy family and the task-family seed import.
//!
//! Targets on a 2-core machine: import and full check of all 144 valid
//! configurations of a six-variable release seed under 200 ms; one
//! configuration of a 16-variable seed, with its critical set, under 50 ms.
//! The growth benchmark checks one planted configuration of n three-state
//! variables for n = 6, 10, 16, 24: enumeration would cost 3^n * 2^n.

/// The allocator the `cici` binary runs with, so that the figures are its.
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

use std::path::PathBuf;

use cici::analysis::Options;
use cici::driver::Run;
use cici::pisas::import::{self, build::Select, SeedOptions};
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
        norms: false,
    }));
    bencher.bench(|| {
        let mut run = Run::new();
        run.check_text("policy.cici", text.clone(), &Options::default());
        assert_eq!(run.errors(), 0);
        assert!(run.checked[0].report.unique);
    });
}

/// A seed with many errors in one long array: the UAS seed with `n`
/// copies of a rule whose condition names no variable before its rules.
/// Finding every diagnostic's place in the JSON grows with the text, not
/// with the text times the diagnostics (1,600 took 9 s before).
#[divan::bench(args = [400, 1600, 6400], sample_count = 10)]
fn import_a_seed_with_n_broken_rules(bencher: divan::Bencher, n: usize) {
    let text = std::fs::read_to_string(uas_seed()).unwrap();
    let mut v: serde_json::Value = serde_json::from_str(&text).unwrap();
    let mut bad = v["decision_policy"]["rules"][0].clone();
    bad["when"] = serde_json::json!({"evidence": "no_such_variable", "is": "x"});
    let rules = v["decision_policy"]["rules"].as_array_mut().unwrap();
    let tail = std::mem::take(rules);
    rules.extend(std::iter::repeat_n(bad, n));
    rules.extend(tail);
    let text = serde_json::to_string(&v).unwrap();
    let options = SeedOptions {
        select: Select::Count(2),
        seed: 0,
        prefix: None,
    };
    bencher.bench(|| {
        let file = import::JsonFile::parse("seed.json".into(), text.clone());
        let imported = import::pisas_seed_files(file, None, &options);
        assert_eq!(imported.files[0].errors(), n);
    });
}
