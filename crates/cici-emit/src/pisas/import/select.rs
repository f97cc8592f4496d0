//! Which configurations of a task family to import: every valid one, or a
//! number chosen by the seed's coverage cases and outcome quotas; and the
//! personal-context library.

use std::collections::BTreeMap;

use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde_json::Value;

use super::diagnostic::ImportError;
use serde::Deserialize;

use super::json::{index_path, key_path, opt_list, req, Report};
use super::names::hash;
use super::seed::TaskFamily;
use crate::pisas::format::seed::LibraryFile;
use crate::pisas::format::Field;

/// The most configurations `--all` writes.
pub const ALL_LIMIT: usize = 100_000;
/// Above this many configurations, none are enumerated.
const ENUMERATE_LIMIT: u128 = 2_000_000;

/// Which configurations to import.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Select {
    All,
    /// This many, by the seed's coverage cases and outcome quotas.
    Count(usize),
}

/// A personal-context item of the library.
#[derive(Clone, Debug)]
pub struct Personal {
    pub key: String,
    pub template: String,
    pub topic: String,
    pub fits: Vec<String>,
}

/// Reads a personal-context library (`items[]`).
pub fn read_library(v: &Value, r: &mut Report) -> Vec<Personal> {
    let file = Field::<LibraryFile>::deserialize(v).unwrap_or_default();
    let file = file.or_empty();
    let Some(items) = req(&file.items, "items", "an array", r) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for (i, it) in items.iter().enumerate() {
        let path = index_path("items", i);
        let it = it.or_empty();
        let mut text =
            |f: &Field<String>, key: &str| req(f, &key_path(&path, key), "a string", r).cloned();
        let (Some(key), Some(template)) = (text(&it.id, "id"), text(&it.template, "template"))
        else {
            continue;
        };
        out.push(Personal {
            key,
            template,
            topic: it.topic.get().cloned().unwrap_or_default(),
            fits: opt_list(&it.fits, &key_path(&path, "fits"), r)
                .iter()
                .filter_map(|f| f.get().cloned())
                .collect(),
        });
    }
    out
}

fn product(tf: &TaskFamily) -> u128 {
    tf.variables
        .iter()
        .map(|v| v.states.len() as u128)
        .try_fold(1u128, |a, n| a.checked_mul(n))
        .unwrap_or(u128::MAX)
}

/// Every valid configuration with an outcome, in odometer order (the first
/// variable turns slowest); uncovered ones are reported. `None` when there
/// are too many to enumerate.
fn enumerate(tf: &TaskFamily, r: &mut Report) -> Option<Vec<(Vec<usize>, usize)>> {
    if product(tf) > ENUMERATE_LIMIT {
        return None;
    }
    let n = tf.variables.len();
    let mut config = vec![0usize; n];
    let mut out = Vec::new();
    let mut uncovered: Option<(Vec<usize>, usize)> = None;
    loop {
        if tf.valid(&config) {
            match tf.outcome(&config) {
                Some(o) => out.push((config.clone(), o)),
                None => uncovered.get_or_insert_with(|| (config.clone(), 0)).1 += 1,
            }
        }
        let mut i = n;
        loop {
            if i == 0 {
                if let Some((example, count)) = uncovered {
                    r.push(
                        "decision_policy.rules",
                        ImportError::Uncovered {
                            configuration: tf.describe(&example),
                            count,
                        },
                    );
                }
                return Some(out);
            }
            i -= 1;
            config[i] += 1;
            if config[i] < tf.variables[i].states.len() {
                break;
            }
            config[i] = 0;
        }
    }
}

/// The configurations to import, each with its outcome.
pub fn configurations(
    tf: &TaskFamily,
    select: Select,
    seed: u64,
    r: &mut Report,
) -> Vec<(Vec<usize>, usize)> {
    let all = enumerate(tf, r);
    match (select, all) {
        (Select::All, None) => {
            r.push(
                "evidence_variables",
                ImportError::TooMany { limit: ALL_LIMIT },
            );
            Vec::new()
        }
        (Select::All, Some(all)) if all.len() > ALL_LIMIT => {
            r.push(
                "evidence_variables",
                ImportError::TooMany { limit: ALL_LIMIT },
            );
            Vec::new()
        }
        (Select::All, Some(all)) => {
            if all.is_empty() {
                r.push(
                    "generation_plan.invalid_configurations",
                    ImportError::NoConfiguration,
                );
            }
            all
        }
        (Select::Count(n), all) => chosen(tf, n, all, seed, r),
    }
}

/// `n` configurations: the coverage cases first, then the outcome quotas
/// scaled to `n`, drawn deterministically.
fn chosen(
    tf: &TaskFamily,
    n: usize,
    all: Option<Vec<(Vec<usize>, usize)>>,
    seed: u64,
    r: &mut Report,
) -> Vec<(Vec<usize>, usize)> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed ^ hash(&tf.family_id));
    let mut picked: Vec<(Vec<usize>, usize)> = Vec::new();
    for c in &tf.plan.coverage {
        if picked.len() < n && tf.valid(c) && !picked.iter().any(|(p, _)| p == c) {
            if let Some(o) = tf.outcome(c) {
                picked.push((c.clone(), o));
            }
        }
    }
    // Targets per outcome, largest remainders first.
    let quotas: Vec<(usize, usize)> = if tf.plan.quotas.is_empty() {
        (0..tf.outcomes.len()).map(|o| (o, 1)).collect()
    } else {
        tf.plan.quotas.clone()
    };
    let total: usize = quotas.iter().map(|(_, q)| q).sum::<usize>().max(1);
    let mut target: Vec<(usize, usize, usize)> = quotas
        .iter()
        .map(|&(o, q)| (o, q * n / total, (q * n) % total))
        .collect();
    let mut short = n.saturating_sub(target.iter().map(|t| t.1).sum());
    target.sort_by(|a, b| b.2.cmp(&a.2).then(a.0.cmp(&b.0)));
    for t in target.iter_mut() {
        if short > 0 {
            t.1 += 1;
            short -= 1;
        }
    }
    target.sort_by_key(|t| t.0);
    // Ordered, so that the draws never depend on hashing.
    let mut pools: BTreeMap<usize, Vec<Vec<usize>>> = BTreeMap::new();
    if let Some(all) = &all {
        for (c, o) in all {
            pools.entry(*o).or_default().push(c.clone());
        }
        for pool in pools.values_mut() {
            pool.shuffle(&mut rng);
        }
    }
    for (o, want, _) in target {
        let mut have = picked.iter().filter(|(_, x)| *x == o).count();
        let mut tries = 0;
        while have < want && picked.len() < n {
            let c = match pools.get_mut(&o) {
                Some(pool) => match pool.pop() {
                    Some(c) => c,
                    None => break,
                },
                None if all.is_some() => break,
                None => {
                    // Too many to enumerate: draw until one fits.
                    tries += 1;
                    if tries > 200_000 {
                        break;
                    }
                    let c: Vec<usize> = tf
                        .variables
                        .iter()
                        .map(|v| rng.random_range(0..v.states.len()))
                        .collect();
                    if !tf.valid(&c) || tf.outcome(&c) != Some(o) {
                        continue;
                    }
                    c
                }
            };
            if !picked.iter().any(|(p, _)| *p == c) {
                picked.push((c, o));
                have += 1;
            }
        }
    }
    if picked.is_empty() {
        r.push(
            "generation_plan.invalid_configurations",
            ImportError::NoConfiguration,
        );
    }
    picked
}
