//! The lowered constraint model of a checked scenario, as JSON, with the
//! findings cici proved over it: what another solver needs to run the same
//! analyses on the same model and compare answers and time
//! (`tools/cpsat_compare.py` does so with OR-Tools CP-SAT).
//!
//! In: a [`Checked`] scenario. Out: a [`ModelExport`]. Literals are
//! DIMACS-style integers: variable `v` is `v + 1`, its negation `-(v + 1)`.

use std::collections::BTreeMap;

use serde::Serialize;

use crate::analysis::TrapEffect;
use crate::driver::Checked;
use crate::model::{Constraint, FactStatus, Lit, Var, Violation};

/// The version of this format; bump it when a field changes meaning.
pub const MODEL_FORMAT: u32 = 2;

/// One scenario's model and findings.
#[derive(Clone, Debug, Serialize)]
pub struct ModelExport {
    pub format: u32,
    pub id: String,
    pub family: crate::sema::Family,
    pub num_vars: u32,
    /// Exactly one variable of each group is true; one group per choice
    /// the decision makes.
    pub decision_groups: Vec<Vec<i64>>,
    /// Exactly-one groups that are not part of the decision.
    pub aux_groups: Vec<Vec<i64>>,
    /// Constraints that always hold.
    pub public: Vec<ConstraintExport>,
    pub facts: Vec<FactExport>,
    /// The oracle as the option chosen in each decision group, when the
    /// groups can express it.
    pub oracle: Option<Vec<usize>>,
    pub unique: bool,
    /// What a reader reaches who takes every claimed and inappropriate
    /// fact as binding at once; `null` when the oracle is not allowed.
    pub reader: Option<Honoured>,
    /// Whether a query hit the solver bound (findings may then be open).
    pub timed_out: bool,
}

/// A constraint: a clause, or a weighted sum at most a bound.
#[derive(Clone, Debug, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum ConstraintExport {
    Clause(Vec<i64>),
    AtMost { terms: Vec<(i64, u32)>, bound: u32 },
}

/// One way of violating a fact: every literal true, or a weighted sum at
/// least a bound.
#[derive(Clone, Debug, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum ViolationExport {
    All(Vec<i64>),
    AtLeast { terms: Vec<(i64, u32)>, bound: u32 },
}

/// One fact: in force exactly when its indicator is true (a fact not in
/// force has its indicator false), with cici's findings.
#[derive(Clone, Debug, Serialize)]
pub struct FactExport {
    pub attribute: String,
    pub status: Status,
    pub indicator: i64,
    pub holds: Vec<ConstraintExport>,
    /// The ways a publicly allowed decision violates it on its own; `null`
    /// where the decision does not fix every variable (then relevance is
    /// decided decision by decision).
    pub violated: Option<Vec<ViolationExport>>,
    pub relevant: Option<bool>,
    pub necessary: Option<bool>,
    pub trap: Option<Trap>,
    /// For `leads` (and `changes`): the decision honouring it reaches, as
    /// the option chosen in each decision group.
    pub leads_to: Option<Vec<usize>>,
    /// For `leads` and a bounded `unclear`: the fewest appropriate facts a
    /// reader who honours it must give up (their indicators false) for a
    /// decision to be allowed.
    pub drops: Option<u32>,
}

/// What honouring a set of facts as binding reaches: `trap`, `leads_to`
/// and `drops` as for one fact.
#[derive(Clone, Debug, Serialize)]
pub struct Honoured {
    /// The facts honoured, as indices into `facts`.
    pub honours: Vec<usize>,
    pub trap: Trap,
    pub leads_to: Option<Vec<usize>>,
    pub drops: Option<u32>,
}

/// How a fact takes part in the analyses.
#[derive(Clone, Copy, Debug, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Status {
    Appropriate,
    Inappropriate,
    Soft,
    Claim,
}

/// What honouring a soft or inappropriate fact does to the oracle.
#[derive(Clone, Copy, Debug, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Trap {
    Keeps,
    Changes,
    NoDecision,
    /// With the fewest appropriate facts given up (`drops`, at most
    /// [`crate::analysis::traps::MAX_DROPS`]), exactly one decision,
    /// `leads_to`, is allowed.
    Leads,
    /// More than one decision so allowed, or none within the bound
    /// (`drops` is then `null`).
    Unclear,
}

fn trap(t: &TrapEffect) -> Trap {
    match t {
        TrapEffect::Keeps => Trap::Keeps,
        TrapEffect::Changes(_) => Trap::Changes,
        TrapEffect::NoDecision => Trap::NoDecision,
        TrapEffect::Leads(_) => Trap::Leads,
        TrapEffect::Unclear(_) => Trap::Unclear,
    }
}

fn lit(l: Lit) -> i64 {
    let v = i64::from(l.var().0) + 1;
    if l.is_neg() {
        -v
    } else {
        v
    }
}

fn var(v: Var) -> i64 {
    lit(Lit::pos(v))
}

fn terms(ts: &[(Lit, u32)]) -> Vec<(i64, u32)> {
    ts.iter().map(|&(l, w)| (lit(l), w)).collect()
}

fn constraint(c: &Constraint) -> ConstraintExport {
    match c {
        Constraint::Clause(ls) => ConstraintExport::Clause(ls.iter().map(|&l| lit(l)).collect()),
        Constraint::AtMost { terms: ts, bound } => ConstraintExport::AtMost {
            terms: terms(ts),
            bound: *bound,
        },
    }
}

fn violation(v: &Violation) -> ViolationExport {
    match v {
        Violation::All(ls) => ViolationExport::All(ls.iter().map(|&l| lit(l)).collect()),
        Violation::AtLeast { terms: ts, bound } => ViolationExport::AtLeast {
            terms: terms(ts),
            bound: *bound,
        },
    }
}

/// The model of one checked scenario, with its findings.
pub fn export(c: &Checked) -> ModelExport {
    let m = &c.model;
    let groups = |gs: &[crate::model::Group]| -> Vec<Vec<i64>> {
        gs.iter()
            .map(|g| g.options.iter().map(|&v| var(v)).collect())
            .collect()
    };
    let facts = m
        .facts
        .iter()
        .zip(&c.report.facts)
        .map(|(f, found)| FactExport {
            attribute: c.scenario.attributes[f.origin.attribute].id.clone(),
            status: match f.status {
                FactStatus::Appropriate => Status::Appropriate,
                FactStatus::Inappropriate => Status::Inappropriate,
                FactStatus::Soft => Status::Soft,
                FactStatus::Claim => Status::Claim,
            },
            indicator: var(f.indicator),
            holds: f.holds.iter().map(constraint).collect(),
            violated: f
                .violated
                .as_ref()
                .map(|vs| vs.iter().map(violation).collect()),
            relevant: found.relevant,
            necessary: found.necessary,
            trap: found.trap.as_ref().map(trap),
            leads_to: found
                .trap
                .as_ref()
                .and_then(TrapEffect::leads)
                .and_then(|d| m.encode(d)),
            drops: found.drops,
        })
        .collect();
    let reader = c.report.reader.as_ref().map(|t| Honoured {
        honours: (0..m.facts.len())
            .filter(|&f| {
                matches!(
                    m.facts[f].status,
                    FactStatus::Inappropriate | FactStatus::Claim
                )
            })
            .collect(),
        trap: trap(t),
        leads_to: t.leads().and_then(|d| m.encode(d)),
        drops: c.report.reader_drops,
    });
    ModelExport {
        format: MODEL_FORMAT,
        id: c.scenario.id.clone(),
        family: c.scenario.family(),
        num_vars: m.num_vars,
        decision_groups: groups(&m.decision_groups),
        aux_groups: groups(&m.aux_groups),
        public: m.public.iter().map(constraint).collect(),
        facts,
        oracle: m.encode(&c.scenario.oracle),
        unique: c.report.unique,
        reader,
        timed_out: c.report.timed_out,
    }
}

/// One `<id>.json` per scenario, as the files to write.
pub fn files(checked: &[&Checked]) -> Result<BTreeMap<String, String>, serde_json::Error> {
    checked
        .iter()
        .map(|c| {
            let mut text = serde_json::to_string(&export(c))?;
            text.push('\n');
            Ok((format!("{}.json", c.scenario.id), text))
        })
        .collect()
}
