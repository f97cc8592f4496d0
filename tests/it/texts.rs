//! The planted details read as people write them: varied over many
//! scenarios of every family, and never carrying a variable name or an id.
//!
//! The seeds measured here (from 7000 on) were not looked at while the
//! phrasings of `templates/facts.yaml` were written.

use std::collections::HashSet;

use cici::analysis::lints::privacy_words;
use cici::planted::{generate, Config};
use cici::sema::{Family, Scenario};

/// The first seed measured, and the number of tokens to measure over.
const FIRST_SEED: u64 = 7000;
const TOKENS: usize = 20_000;

/// Every text of a scenario's details: raw and sanitized forms.
fn details(sc: &Scenario) -> Vec<String> {
    sc.attributes
        .iter()
        .flat_map(|a| std::iter::once(&a.raw).chain(a.sanitized.as_ref()))
        .map(|f| f.text.clone())
        .filter(|t| !t.is_empty())
        .collect()
}

fn planted(seed: u64, family: Family) -> Scenario {
    let mut config = Config::pisas(family, seed);
    config.norms = true;
    generate(&config)
}

/// Details of planted scenarios of every family, seed by seed from
/// `FIRST_SEED`, until they hold `TOKENS` words; and the last seed used.
fn corpus() -> (Vec<Vec<String>>, u64) {
    let mut texts = Vec::new();
    let mut tokens = 0;
    let mut seed = FIRST_SEED;
    while tokens < TOKENS {
        for family in Family::ALL {
            for t in details(&planted(seed, family)) {
                let words = privacy_words(&t);
                tokens += words.len();
                texts.push(words);
            }
        }
        seed += 1;
    }
    (texts, seed - 1)
}

/// Distinct n-grams over all n-grams, within each text.
fn distinct(texts: &[Vec<String>], n: usize) -> (f64, usize) {
    let grams: Vec<&[String]> = texts.iter().flat_map(|t| t.windows(n)).collect();
    let unique: HashSet<&[String]> = grams.iter().copied().collect();
    (unique.len() as f64 / grams.len() as f64, grams.len())
}

/// The target, distinct-2 of 0.25 and distinct-3 of 0.45, which
/// this holds: the templated texts before reached 0.068 and 0.132 over
/// seeds 5000 to 5019, the first phrasings 0.21 and 0.36; with slots and
/// tickets said in several ways and more frames per predicate, about 0.27
/// and 0.46 over the seeds from 7000.
#[test]
fn planted_details_are_varied() {
    let (texts, last) = corpus();
    let tokens: usize = texts.iter().map(Vec::len).sum();
    let (d2, n2) = distinct(&texts, 2);
    let (d3, n3) = distinct(&texts, 3);
    println!(
        "planted details, seeds {FIRST_SEED}..={last} of every family: {} texts, {tokens} tokens; \
         distinct-2 {d2:.3} over {n2} bigrams, distinct-3 {d3:.3} over {n3} trigrams",
        texts.len()
    );
    assert!(d2 >= 0.25, "distinct-2 is {d2:.3}");
    assert!(d3 >= 0.45, "distinct-3 is {d3:.3}");
}

/// A word that reads as an id: `snake_case`, or letters run into digits
/// (`soc2`, `a001`).
fn id_like(word: &str) -> bool {
    word.contains('_')
        || (word.starts_with(|c: char| c.is_alphabetic())
            && word.chars().any(|c| c.is_ascii_digit()))
}

#[test]
fn no_planted_text_carries_a_variable_name_or_an_id() {
    for seed in FIRST_SEED..FIRST_SEED + 40 {
        for family in Family::ALL {
            for text in details(&planted(seed, family)) {
                let bad: Vec<&str> = text
                    .split(|c: char| !c.is_alphanumeric() && c != '_')
                    .filter(|w| id_like(w))
                    .collect();
                assert!(
                    bad.is_empty(),
                    "{} seed {seed}: {text:?} carries {bad:?}",
                    family.name()
                );
            }
        }
    }
}
