//! Speed of the full check (parse, resolve, lower, every analysis).
//!
//! Targets on a 2-core machine: a JIRA scenario with 60 tickets, 25 people
//! and about 100 facts under 100 ms; 85 PiSAs-size scenarios under 100 ms
//! in all; 20,000 people in one scenario under 2 s; a solver bound of a
//! few milliseconds kept to within a small multiple on the proofs.

/// The allocator the `cici` binary runs with, so that the figures are its.
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

use std::time::Duration;

use cici::analysis::Options;
use cici::driver::Run;
use cici::planted::{generate, Config};
use cici::sema::Family;

fn main() {
    divan::main();
}

fn large_jira() -> String {
    cici::printer::print(&generate(&Config {
        family: Family::JiraAllocation,
        people: 25,
        size: 60,
        soft: 10,
        irrelevant: 10,
        seed: 11,
        id: None,
        norms: false,
    }))
}

/// A large JIRA scenario as `cici synth jira_allocation --people 26
/// --size 60 --seed <seed>` writes it.
fn synth_jira(seed: u64) -> String {
    let defaults = Config::pisas(Family::JiraAllocation, seed);
    cici::printer::print(&generate(&Config {
        people: 26,
        size: 60,
        ..defaults
    }))
}

/// A large meeting scenario as `cici synth meeting_allocation --people 26
/// --size 60 --seed <seed>` writes it.
fn synth_meeting(seed: u64) -> String {
    let defaults = Config::pisas(Family::MeetingAllocation, seed);
    cici::printer::print(&generate(&Config {
        people: 26,
        size: 60,
        ..defaults
    }))
}

/// [`synth_jira`] with `extra` more people, each of a first name of their
/// own and no skill (so the decisions stay those of the 26).
fn many_people(extra: usize) -> String {
    let text = synth_jira(1);
    let at = text.find("\n  ticket ").expect("a ticket");
    let name = |i: usize| {
        let (mut n, mut s) = (i + 26 * 26, Vec::new());
        while n > 0 {
            s.push(b'a' + (n % 26) as u8);
            n /= 26;
        }
        s.reverse();
        s[0] = s[0].to_ascii_uppercase();
        String::from_utf8(s).expect("letters")
    };
    let people: String = (0..extra)
        .map(|i| {
            format!(
                "  person x{i} \"{} Extra\" role \"Engineer\" skills []\n",
                name(i)
            )
        })
        .collect();
    format!("{}\n{people}{}", &text[..at], &text[at..])
}

fn pisas_corpus(n: usize) -> Vec<String> {
    (0..n)
        .map(|i| {
            let family = Family::ALL[i % 3];
            cici::printer::print(&generate(&Config::pisas(family, i as u64)))
        })
        .collect()
}

fn check_all(texts: &[String]) -> usize {
    let mut run = Run::new();
    let named = texts
        .iter()
        .enumerate()
        .map(|(i, t)| (format!("s{i}.cici"), t.clone()))
        .collect();
    run.check_texts(named, &Options::default());
    assert_eq!(run.errors(), 0);
    run.checked.len()
}

#[divan::bench(sample_count = 30)]
fn jira_60_tickets_25_people(bencher: divan::Bencher) {
    let text = vec![large_jira()];
    bencher.bench(|| check_all(divan::black_box(&text)));
}

#[divan::bench(sample_count = 30)]
fn pisas_size_85_scenarios(bencher: divan::Bencher) {
    let texts = pisas_corpus(85);
    bencher.bench(|| check_all(divan::black_box(&texts)));
}

#[divan::bench(sample_count = 30)]
fn reference_corpus_large_meeting(bencher: divan::Bencher) {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/data/corpus/large-meeting/meeting_large_205_0000.cici"
    );
    let text = std::fs::read_to_string(path).expect("the reference corpus is in tests/data");
    let texts = vec![text];
    bencher.bench(|| check_all(divan::black_box(&texts)));
}

#[divan::bench(sample_count = 30)]
fn reference_corpus_large_jira(bencher: divan::Bencher) {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/data/corpus/large-jira/jira_large_204_0000.cici"
    );
    let text = std::fs::read_to_string(path).expect("the reference corpus is in tests/data");
    let texts = vec![text];
    bencher.bench(|| check_all(divan::black_box(&texts)));
}

/// Of `cici synth jira_allocation --people 26 --size 60` with seeds 0 to
/// 159, seed 25 is the hardest to check (2.8 to 2.9 times the median of
/// its proofs, which seed 5 is near; 9 times before capacities were
/// propagated natively and their implied load bounds added) and seed 98
/// the one whose capacities are unnecessary twice (9 times the median
/// before the pair bounds); seed 0 is the next hardest. The cases the
/// 3×-the-median target is held to.
#[divan::bench(sample_count = 10, args = [25, 98, 0, 5])]
fn large_jira_synth_seed(bencher: divan::Bencher, seed: u64) {
    let text = vec![synth_jira(seed)];
    bencher.bench(|| check_all(divan::black_box(&text)));
}

/// 20,000 people (1.2 MB) in one JIRA scenario of 60 tickets: the text
/// reader and name resolution are linear in the people (28 s before, when
/// the reader compared every first name with every other).
#[divan::bench(sample_count = 5)]
fn jira_20000_people(bencher: divan::Bencher) {
    let text = vec![many_people(20_000 - 26)];
    bencher.bench(|| check_all(divan::black_box(&text)));
}

/// The ten large synthesized scenarios (JIRA and meeting, seeds 1 to 5)
/// under a solver bound of `ms`: the proofs end within a small multiple of
/// it, where a bound of 1 to 50 ms once never ended on most of them.
#[divan::bench(sample_count = 5, args = [1, 5, 20, 50])]
fn large_synth_under_bound_ms(bencher: divan::Bencher, ms: u64) {
    let texts: Vec<(String, String)> = (1..=5)
        .flat_map(|seed| {
            [
                (format!("j{seed}.cici"), synth_jira(seed)),
                (format!("m{seed}.cici"), synth_meeting(seed)),
            ]
        })
        .collect();
    let options = Options {
        max_solve: Some(Duration::from_millis(ms)),
    };
    bencher.bench(|| {
        let mut run = Run::new();
        run.check_texts(divan::black_box(texts.clone()), &options);
        run.checked.len()
    });
}
