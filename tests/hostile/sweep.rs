//! A mutation sweep over inputs others wrote: the project's seeds, the
//! release's task-family seeds and bundles in the release's shapes, each
//! mutated thousands of ways (bytes flipped, spans cut or doubled, a line
//! made 70,000 characters wide, a huge token, a BOM, arrays of thousands).
//! Every case gets diagnostics that render, never a panic, and finishes
//! within its bound. Deterministic: the same cases on every run.
//!
//! The bound is a hang guard (10 s for a case that takes milliseconds),
//! not a speed target; speed is measured in `benches/`.

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::Arc;
use std::time::{Duration, Instant};

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use cici::analysis::Options;
use cici::pisas::import::{build::Select, BundleFiles, JsonFile, SeedOptions};

use crate::it::common::{data, root};

const BOUND: Duration = Duration::from_secs(10);

/// One mutation of `text`, drawn from `rng`.
fn mutate(text: &str, rng: &mut ChaCha8Rng) -> String {
    let mut b = text.as_bytes().to_vec();
    let at = |rng: &mut ChaCha8Rng, len: usize| rng.random_range(0..=len);
    match rng.random_range(0..9) {
        0 => {
            let i = at(rng, b.len().saturating_sub(1));
            if let Some(x) = b.get_mut(i) {
                *x = rng.random();
            }
        }
        1 => {
            let i = at(rng, b.len());
            let j = (i + rng.random_range(1..200)).min(b.len());
            b.drain(i..j);
        }
        2 => {
            let i = at(rng, b.len());
            let j = (i + rng.random_range(1..400)).min(b.len());
            let copy = b[i..j].to_vec();
            b.splice(i..i, copy);
        }
        3 => {
            let i = at(rng, b.len());
            b.splice(i..i, "x".repeat(70_000).into_bytes());
        }
        4 => {
            let i = at(rng, b.len());
            b.splice(
                i..i,
                format!("\"{}\"", "y".repeat(rng.random_range(1..300_000))).into_bytes(),
            );
        }
        5 => b.splice(0..0, b"\xEF\xBB\xBF".to_vec()).for_each(drop),
        6 => {
            let i = at(rng, b.len());
            let n = rng.random_range(1..5_000);
            b.splice(i..i, format!("[{}]", vec!["1"; n].join(",")).into_bytes());
        }
        7 => {
            // Nesting.
            let i = at(rng, b.len());
            let n = rng.random_range(1..3_000);
            b.splice(
                i..i,
                format!("{}{}", "[".repeat(n), "]".repeat(n)).into_bytes(),
            );
        }
        _ => {
            let i = at(rng, b.len());
            let j = (i + rng.random_range(1..50)).min(b.len());
            let k = at(rng, b.len());
            let piece = b[i..j].to_vec();
            let k = k.min(b.len());
            b.splice(k..k, piece);
        }
    }
    String::from_utf8_lossy(&b).into_owned()
}

/// Runs one case: no panic, within the bound. The description names it.
fn case(what: &str, f: impl FnOnce()) {
    let started = Instant::now();
    let result = catch_unwind(AssertUnwindSafe(f));
    assert!(result.is_ok(), "{what}: panicked");
    assert!(
        started.elapsed() < BOUND,
        "{what}: took {:?}",
        started.elapsed()
    );
}

/// Renders every diagnostic of JSON files the way the command line does.
fn render_json(files: &[JsonFile]) {
    let handler =
        miette::GraphicalReportHandler::new_themed(miette::GraphicalTheme::unicode_nocolor());
    for f in files.iter().filter(|f| !f.diagnostics.is_empty()) {
        let text = Arc::<str>::from(f.text.as_str());
        let starts = cici::driver::excerpt::line_starts(&f.text);
        for d in &f.diagnostics {
            let mut out = String::new();
            let shown = cici::driver::excerpt::Shown::new(d, &f.name, &text, &starts);
            handler.render_report(&mut out, &shown).unwrap();
        }
    }
}

#[test]
fn mutated_seeds_give_diagnostics_never_a_panic() {
    let seeds: Vec<String> = [
        "ops_scheduling",
        "payments_sprint",
        "meridian_incident",
        "lab_access",
    ]
    .iter()
    .map(|s| std::fs::read_to_string(root().join(format!("seeds/{s}.cici"))).unwrap())
    .collect();
    let options = Options {
        max_solve: Some(Duration::from_secs(2)),
    };
    let mut rng = ChaCha8Rng::seed_from_u64(22);
    for n in 0..5_000 {
        let text = mutate(&seeds[n % seeds.len()], &mut rng);
        case(&format!("seed case {n}"), || {
            let mut run = cici::driver::Run::new();
            run.check_text("mutated.cici", text, &options);
            crate::it::common::render(&run);
        });
    }
}

#[test]
fn mutated_task_family_seeds_give_diagnostics_never_a_panic() {
    let seeds: Vec<String> = [
        "uas_flight_readiness",
        "thesis_readiness",
        "inpatient_discharge",
    ]
    .iter()
    .map(|s| std::fs::read_to_string(data().join(format!("pisas/seeds/{s}/seed.json"))).unwrap())
    .collect();
    let options = SeedOptions {
        select: Select::Count(2),
        seed: 1,
        prefix: None,
    };
    let mut rng = ChaCha8Rng::seed_from_u64(23);
    for n in 0..3_000 {
        let text = mutate(&seeds[n % seeds.len()], &mut rng);
        case(&format!("task-family case {n}"), || {
            let file = JsonFile::parse("mutated/seed.json".into(), text);
            let imported = cici::pisas::import::pisas_seed_files(file, None, &options);
            render_json(&imported.files);
        });
    }
}

#[test]
fn mutated_bundles_give_diagnostics_never_a_panic() {
    let dirs = ["jira_sole_owner", "meeting_deadline"];
    let files = [
        "scenario.json",
        "utility.json",
        "visibility.json",
        "appropriateness.json",
    ];
    let bundles: Vec<Vec<String>> = dirs
        .iter()
        .map(|d| {
            files
                .iter()
                .map(|f| {
                    let p = root().join(format!("tests/fixtures/import/bundles/{d}/{f}"));
                    std::fs::read_to_string(p).unwrap()
                })
                .collect()
        })
        .collect();
    let mut rng = ChaCha8Rng::seed_from_u64(24);
    for n in 0..2_000 {
        let mut texts = bundles[n % bundles.len()].clone();
        let which = rng.random_range(0..texts.len());
        texts[which] = mutate(&texts[which], &mut rng);
        case(&format!("bundle case {n} ({})", files[which]), || {
            let parsed: Vec<JsonFile> = files
                .iter()
                .zip(&texts)
                .map(|(f, t)| JsonFile::parse(format!("mutated/{f}"), t.clone()))
                .collect();
            let mut it = parsed.into_iter();
            let bundle = BundleFiles {
                scenario: it.next().unwrap(),
                utility: it.next().unwrap(),
                visibility: it.next().unwrap(),
                appropriateness: it.next().unwrap(),
            };
            let (_, read) = cici::pisas::import::pisas_bundle(bundle, "mutated", None);
            render_json(&read);
        });
    }
}
