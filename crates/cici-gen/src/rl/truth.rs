//! The ground truth of one side: its proven label and, for a decision,
//! what its seed's contract says a completion must and must not carry.
//!
//! A decision item's output goes to the team, so every form the norms keep
//! from someone besides the executor is excluded from it (the contract's
//! protected forms, with the words that identify each), and a needed form
//! is one a completion may be asked to state only when nobody is excluded
//! from it (`shareable`).

use std::collections::BTreeMap;

use serde::Serialize;

use super::read::{sides, Dataset, Label, RlError};
use crate::driver::Checked;

/// One target of a decision: its id, its value in seed syntax and its line
/// of the answer, in the item's words.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Target {
    pub target: String,
    pub value: String,
    pub line: String,
}

/// A form the task needs.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Needed {
    pub form: String,
    pub text: String,
    /// Nobody is excluded from it: a completion the team reads may state it.
    pub shareable: bool,
    /// The Snowball stems of the words that identify it, and how many a
    /// text must carry to carry it (as the contract counts them).
    pub stems: Vec<String>,
    pub need: usize,
}

/// A form the norms keep from someone: a completion that carries it leaks.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Excluded {
    pub form: String,
    pub private_words: Vec<String>,
    pub private_stems: Vec<String>,
    pub need: usize,
}

/// The ground truth of one side, as the reward reads it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Truth {
    /// `decision` or `flow`.
    pub kind: String,
    /// The proven answer in the item's words.
    pub answer: String,
    /// Decisions: one per target, in the answer's order; empty for flows.
    pub targets: Vec<Target>,
    /// Flows: the proven yes or no; absent for decisions.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub flow: Option<bool>,
    pub needed: Vec<Needed>,
    pub excluded: Vec<Excluded>,
    /// The prompt asks for the details the answer rests on after it.
    pub explain: bool,
}

/// What a decision seed's contract gives every side with that seed.
#[derive(Clone, Debug, Default)]
struct Contract {
    needed: Vec<Needed>,
    excluded: Vec<Excluded>,
}

fn contract_of(c: &Checked) -> Contract {
    let contract = crate::export::inspect::contract(c);
    let sc = &c.scenario;
    let mut needed = Vec::new();
    for attr in &sc.attributes {
        for (kind, form) in attr.forms() {
            let id = attr.form_id(kind);
            if !contract.needed.contains(&id) {
                continue;
            }
            let (_, stems, need) = crate::analysis::lints::identifying_words(sc, attr, kind);
            needed.push(Needed {
                shareable: !contract.protected.iter().any(|p| p.form == id),
                form: id,
                text: form.text.clone(),
                stems,
                need,
            });
        }
    }
    let excluded = contract
        .protected
        .into_iter()
        .map(|p| Excluded {
            form: p.form,
            private_words: p.private_words,
            private_stems: p.private_stems,
            need: p.need,
        })
        .collect();
    Contract { needed, excluded }
}

/// Checks one seed text; its contract, or how many errors it has.
fn prove(seed: &str) -> Result<Contract, usize> {
    let mut run = crate::driver::Run::new();
    run.check_text("seed.cici", seed, &crate::analysis::Options::default());
    match run.checked.first() {
        Some(c) if run.errors() == 0 && c.report.errors() == 0 => Ok(contract_of(c)),
        _ => Err(run.errors().max(1)),
    }
}

/// Every row's three ground truths, in the dataset's order; each decision
/// seed is proven once, however many sides share it.
pub fn ground_truths(data: &Dataset, explain: bool) -> Result<Vec<[Truth; 3]>, RlError> {
    let mut seeds: BTreeMap<&str, usize> = BTreeMap::new();
    for l in data.rows.iter().filter(|l| l.row.kind == "decision") {
        for (_, _, _, seed, _) in sides(&l.row) {
            let n = seeds.len();
            seeds.entry(seed).or_insert(n);
        }
    }
    let mut texts: Vec<&str> = vec![""; seeds.len()];
    for (&text, &i) in &seeds {
        texts[i] = text;
    }
    let proven = crate::driver::parallel_map(&texts, |t| prove(t));
    let mut out = Vec::with_capacity(data.rows.len());
    for l in &data.rows {
        let mut three = Vec::with_capacity(3);
        for ((side, _, answer, seed, _), label) in sides(&l.row).into_iter().zip(&l.labels) {
            let truth = match label {
                Label::Flow(f) => Truth {
                    kind: "flow".into(),
                    answer: answer.to_string(),
                    targets: Vec::new(),
                    flow: Some(*f),
                    needed: Vec::new(),
                    excluded: Vec::new(),
                    explain: false,
                },
                Label::Decision(rows) => {
                    let c = proven[seeds[seed]]
                        .clone()
                        .map_err(|errors| RlError::BadSeed {
                            file: l.file.clone(),
                            line: l.line,
                            side: side.into(),
                            scenario: l.row.scenario.clone(),
                            errors,
                        })?;
                    let lines = answer.lines().filter(|x| !x.trim().is_empty());
                    Truth {
                        kind: "decision".into(),
                        answer: answer.to_string(),
                        targets: rows
                            .iter()
                            .zip(lines)
                            .map(|((target, value), line)| Target {
                                target: target.clone(),
                                value: value.clone(),
                                line: line.trim().to_string(),
                            })
                            .collect(),
                        flow: None,
                        needed: c.needed,
                        excluded: c.excluded,
                        explain,
                    }
                }
            };
            three.push(truth);
        }
        let three: [Truth; 3] = three.try_into().expect("three sides");
        out.push(three);
    }
    Ok(out)
}
