//! A tiny solver bound on large scenarios: the check ends, and every class
//! and finding it gives is the one the unbounded check gives, or unknown.
//!
//! The bound on the test's time is a hang guard only (20 s for a check
//! that takes milliseconds); `benches/check.rs` measures the real figure.

use std::sync::mpsc::channel;
use std::time::Duration;

use cici::analysis::{Class, Options};
use cici::driver::{Checked, Run};

use crate::it::common::{cici, data};

const GUARD: Duration = Duration::from_secs(20);

/// Large planted seeds of both allocation families, and the corpus's.
fn large_seeds() -> Vec<(String, String)> {
    let mut seeds = Vec::new();
    for family in ["jira_allocation", "meeting_allocation"] {
        for seed in 1..=5 {
            let seed = seed.to_string();
            let out = cici(&[
                "synth", family, "--people", "26", "--size", "60", "--seed", &seed,
            ]);
            assert!(out.status.success(), "synth {family} {seed}");
            let text = String::from_utf8(out.stdout).expect("UTF-8 seed");
            seeds.push((format!("{family}_{seed}.cici"), text));
        }
    }
    for folder in ["large-jira", "large-meeting"] {
        for e in std::fs::read_dir(data().join("corpus").join(folder)).unwrap() {
            let path = e.unwrap().path();
            if path.extension().is_some_and(|x| x == "cici") {
                let name = path.file_name().unwrap().to_string_lossy().to_string();
                seeds.push((name, std::fs::read_to_string(&path).unwrap()));
            }
        }
    }
    seeds
}

/// The check of one seed, in a thread of its own so that a hang fails the
/// test instead of stalling it.
fn checked(name: &str, text: &str, max_solve: Option<Duration>) -> Checked {
    let (tx, rx) = channel();
    let (name, text) = (name.to_string(), text.to_string());
    std::thread::spawn(move || {
        let mut run = Run::new();
        run.check_text(name, text, &Options { max_solve });
        let _ = tx.send(run.checked.pop());
    });
    rx.recv_timeout(GUARD)
        .unwrap_or_else(|_| panic!("the check under {max_solve:?} did not end"))
        .expect("the seed resolves")
}

/// What the bounded check says agrees with the unbounded one wherever it
/// says anything.
fn agrees(bounded: &Checked, full: &Checked, what: &str) {
    let (b, f) = (&bounded.report, &full.report);
    assert!(!f.timed_out, "{what}: the unbounded check finished");
    if !b.timed_out {
        assert_eq!(b.unique, f.unique, "{what}");
    }
    if b.unique {
        assert!(f.unique, "{what}: unique only under the bound");
    }
    for (a, (x, y)) in b.attributes.iter().zip(&f.attributes).enumerate() {
        assert!(
            x.class == y.class || (b.timed_out && x.class == Class::Unknown),
            "{what}: attribute {a} is {:?} under the bound, {:?} without",
            x.class,
            y.class
        );
    }
    for (i, (x, y)) in b.facts.iter().zip(&f.facts).enumerate() {
        let same = |p: Option<bool>, q: Option<bool>| p.is_none() || p == q;
        assert!(same(x.relevant, y.relevant), "{what}: fact {i} relevance");
        assert!(same(x.necessary, y.necessary), "{what}: fact {i} necessity");
        assert!(
            x.trap.is_none() || x.trap == y.trap,
            "{what}: fact {i} as a trap"
        );
    }
}

#[test]
fn a_tiny_bound_ends_and_gives_unknown_never_a_wrong_class() {
    let mut unknown = 0;
    for (name, text) in large_seeds() {
        let full = checked(&name, &text, None);
        for ms in [1, 5, 20, 50] {
            let bounded = checked(&name, &text, Some(Duration::from_millis(ms)));
            agrees(&bounded, &full, &format!("{name} under {ms} ms"));
            unknown += bounded
                .report
                .attributes
                .iter()
                .filter(|a| a.class == Class::Unknown)
                .count();
        }
    }
    // A bound of 1 ms leaves questions open on scenarios this large.
    assert!(unknown > 0, "some class was left open");
}

/// The counterfactual loop learns a variant's oracle under the check's
/// bound too: past its deadline the answer is unknown, never a guess.
#[test]
fn the_oracle_of_a_variant_is_found_under_the_bound() {
    use cici::analysis::{decided, Decided};
    let (name, text) = large_seeds().swap_remove(0);
    let full = checked(&name, &text, None);
    let passed = std::time::Instant::now();
    assert_eq!(decided(&full.model, Some(passed)), Decided::Unknown);
    assert_eq!(
        decided(&full.model, None),
        Decided::One(full.scenario.oracle.clone())
    );
}
