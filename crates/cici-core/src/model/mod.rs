//! Stage 3: lower a resolved scenario to a finite-domain constraint model.
//!
//! In: a [`Scenario`]. Out: a [`Model`] over Boolean variables, in which
//!
//! - the decision is one option per *decision group* (exactly one true);
//! - the public constraints always hold;
//! - every fact of every attribute form (appropriate, inappropriate, soft
//!   or claimed)
//!   is a [`ModelFact`] with an *indicator* variable: its constraints hold
//!   while the indicator is true, so the analyses switch facts on and off
//!   with assumptions instead of rebuilding anything;
//! - every fact knows the attribute, form and span it came from.
//!
//! Facts are restrictions, so a model is monotone: switching a fact off can
//! only widen the set of allowed decisions.

pub mod direct;
mod jira;
mod meeting;
mod rule;

pub use rule::{configurations, kept_exclusions};

use crate::sema::{
    AttributeId, Decision, FormKind, PersonId, Placement, Predicate, Scenario, Setting,
};
use crate::span::Span;

/// A Boolean variable of the model.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Var(pub u32);

/// A variable or its negation.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Lit(u32);

impl Lit {
    pub fn pos(v: Var) -> Lit {
        Lit(v.0 << 1)
    }
    pub fn neg(v: Var) -> Lit {
        Lit((v.0 << 1) | 1)
    }
    pub fn var(self) -> Var {
        Var(self.0 >> 1)
    }
    pub fn is_neg(self) -> bool {
        self.0 & 1 == 1
    }
}

impl std::ops::Not for Lit {
    type Output = Lit;
    fn not(self) -> Lit {
        Lit(self.0 ^ 1)
    }
}

impl From<Var> for Lit {
    fn from(v: Var) -> Lit {
        Lit::pos(v)
    }
}

/// A constraint over literals.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Constraint {
    /// At least one literal is true.
    Clause(Vec<Lit>),
    /// The weighted sum of true literals is at most `bound`.
    AtMost { terms: Vec<(Lit, u32)>, bound: u32 },
}

/// One way a decision can violate a fact.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Violation {
    /// Every literal is true.
    All(Vec<Lit>),
    /// The weighted sum of true literals is at least `bound`.
    AtLeast { terms: Vec<(Lit, u32)>, bound: u32 },
}

/// How a fact takes part in the analyses.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum FactStatus {
    /// A hard fact of an appropriate form: part of F.
    Appropriate,
    /// A hard fact of an inappropriate form: true, but not to be used.
    Inappropriate,
    /// A `soft` fact: what the attribute suggests, never binding.
    Soft,
    /// A `claim` of an inappropriate raw form: what it would impose if it
    /// were used. Not in force, and not true either.
    Claim,
}

/// Where a fact came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Origin {
    pub attribute: AttributeId,
    pub form: FormKind,
    /// Index among the form's hard facts, or among the attribute's soft
    /// facts, or among its claims.
    pub index: usize,
    pub span: Span,
}

/// Index of a fact in [`Model::facts`].
pub type FactId = usize;

/// One fact, lowered.
#[derive(Clone, Debug)]
pub struct ModelFact {
    pub origin: Origin,
    pub status: FactStatus,
    /// While true, `holds` is enforced; other constraints may mention it too
    /// (an `attends` fact makes its person an attendee).
    pub indicator: Var,
    pub holds: Vec<Constraint>,
    /// The ways a decision allowed by the public constraints can violate the
    /// fact on its own; `None` where the decision does not fix every variable
    /// (severity), and relevance is decided by enumerating decisions.
    pub violated: Option<Vec<Violation>>,
}

/// A constraint every publicly allowed decision meets while all the facts
/// of `when` are in force: a consequence of those facts, given to the
/// solver only to shorten its proofs. No answer depends on it, so exports
/// of the model leave it out.
#[derive(Clone, Debug)]
pub struct Implied {
    pub when: Vec<FactId>,
    /// When not empty, the constraint is of use only while one of these
    /// facts is out of force, and a solver may leave it off otherwise.
    pub useful_without: Vec<FactId>,
    pub constraint: Constraint,
}

/// An exactly-one group of variables.
#[derive(Clone, Debug)]
pub struct Group {
    pub name: String,
    pub options: Vec<Var>,
}

/// How a [`Decision`] maps to an option per decision group.
#[derive(Clone, Debug)]
pub enum Codec {
    /// One group per meeting; options are placements.
    Meeting { options: Vec<Vec<Placement>> },
    /// One owner group per ticket, then one collaborator group per ticket
    /// with a second seat.
    Jira {
        /// Who may fill each ticket's first seat.
        candidates: Vec<Vec<PersonId>>,
        /// Each ticket's collaborator group, and who may fill that seat.
        collaborator_group: Vec<Option<(usize, Vec<PersonId>)>>,
    },
    /// One group; options are levels (or outcomes) in order.
    Rule,
}

/// The lowered scenario.
#[derive(Clone, Debug)]
pub struct Model {
    pub num_vars: u32,
    pub decision_groups: Vec<Group>,
    /// Exactly-one groups that are not part of the decision (evidence values).
    pub aux_groups: Vec<Group>,
    pub public: Vec<Constraint>,
    pub facts: Vec<ModelFact>,
    /// Consequences of sets of facts (see [`Implied`]).
    pub implied: Vec<Implied>,
    pub codec: Codec,
}

impl Model {
    fn new(codec: Codec) -> Model {
        Model {
            num_vars: 0,
            decision_groups: Vec::new(),
            aux_groups: Vec::new(),
            public: Vec::new(),
            facts: Vec::new(),
            implied: Vec::new(),
            codec,
        }
    }

    pub(crate) fn new_var(&mut self) -> Var {
        self.num_vars += 1;
        Var(self.num_vars - 1)
    }

    /// A fresh variable equivalent to the disjunction of `lits`.
    pub(crate) fn or_var(&mut self, lits: &[Lit]) -> Var {
        let v = self.new_var();
        for &l in lits {
            self.public.push(Constraint::Clause(vec![!l, Lit::pos(v)]));
        }
        let mut back = vec![Lit::neg(v)];
        back.extend_from_slice(lits);
        self.public.push(Constraint::Clause(back));
        v
    }

    /// A fresh variable equivalent to the conjunction of `lits`.
    pub(crate) fn and_var(&mut self, lits: &[Lit]) -> Var {
        let v = self.new_var();
        for &l in lits {
            self.public.push(Constraint::Clause(vec![Lit::neg(v), l]));
        }
        let mut back = vec![Lit::pos(v)];
        back.extend(lits.iter().map(|&l| !l));
        self.public.push(Constraint::Clause(back));
        v
    }

    /// Ids of the facts with the given status.
    pub fn facts_with(&self, status: FactStatus) -> Vec<FactId> {
        (0..self.facts.len())
            .filter(|&f| self.facts[f].status == status)
            .collect()
    }

    /// The option chosen in every decision group, or `None` when the
    /// decision lies outside what the groups can express (a ticket owner
    /// without the needed skill, say).
    pub fn encode(&self, decision: &Decision) -> Option<Vec<usize>> {
        match (&self.codec, decision) {
            (Codec::Meeting { options }, Decision::Meeting(ps)) => ps
                .iter()
                .zip(options)
                .map(|(p, opts)| opts.iter().position(|o| o == p))
                .collect(),
            (
                Codec::Jira {
                    candidates,
                    collaborator_group,
                },
                Decision::Jira(assignments),
            ) => {
                let mut choice = vec![0; self.decision_groups.len()];
                for (t, a) in assignments.iter().enumerate() {
                    choice[t] = candidates[t].iter().position(|p| *p == a.owner)?;
                    match (&collaborator_group[t], a.collaborator) {
                        (Some((g, second)), Some(c)) => {
                            choice[*g] = second.iter().position(|p| *p == c)?
                        }
                        (None, None) => {}
                        _ => return None,
                    }
                }
                Some(choice)
            }
            (Codec::Rule, Decision::Rule(l)) => Some(vec![*l]),
            _ => None,
        }
    }

    /// The decision that a choice of one option per group stands for.
    pub fn decode(&self, choice: &[usize]) -> Decision {
        match &self.codec {
            Codec::Meeting { options } => {
                Decision::Meeting(options.iter().zip(choice).map(|(o, &c)| o[c]).collect())
            }
            Codec::Jira {
                candidates,
                collaborator_group,
            } => Decision::Jira(
                collaborator_group
                    .iter()
                    .enumerate()
                    .map(|(t, g)| crate::sema::Assignment {
                        owner: candidates[t][choice[t]],
                        collaborator: g.as_ref().map(|(g, second)| second[choice[*g]]),
                    })
                    .collect(),
            ),
            Codec::Rule => Decision::Rule(choice[0]),
        }
    }

    /// The literals that fix the decision groups to a choice.
    pub fn choice_lits(&self, choice: &[usize]) -> Vec<Lit> {
        self.decision_groups
            .iter()
            .zip(choice)
            .map(|(g, &c)| Lit::pos(g.options[c]))
            .collect()
    }
}

/// The largest model, in [`estimated_size`] units, that the analyses take
/// on; larger scenarios get a diagnostic instead of an unbounded build.
pub const SIZE_LIMIT: u64 = 20_000_000;

/// An upper bound on the clauses (and encoding nodes) that lowering and
/// compiling the scenario would produce, computed without building them.
pub fn estimated_size(sc: &Scenario) -> u64 {
    let facts = scenario_facts(sc).len() as u64;
    match &sc.setting {
        crate::sema::Setting::Meeting(ms) => {
            let options: u64 = ms
                .meetings
                .iter()
                .map(|m| (m.slots.len() * m.rooms.len()) as u64)
                .sum();
            let slots: u64 = ms.meetings.iter().map(|m| m.slots.len() as u64).sum();
            let people = sc.people.len() as u64;
            options
                .saturating_mul(options)
                .saturating_add(slots.saturating_mul(slots).saturating_mul(people.min(8)))
                .saturating_add(facts.saturating_mul(options))
        }
        crate::sema::Setting::Jira(js) => {
            let n = js.tickets.len() as u64;
            let people = sc.people.len() as u64;
            let total: u64 = js.tickets.iter().map(|t| t.hours as u64 * 2).sum();
            let pb: u64 = scenario_facts(sc)
                .iter()
                .map(|(_, _, p)| match p {
                    crate::sema::Predicate::Jira(crate::sema::JiraPredicate::Capacity {
                        hours,
                        ..
                    }) => (2 * n).saturating_mul((*hours as u64 + 2).min(total + 1)),
                    _ => 2 * n,
                })
                .sum();
            (2 * n)
                .saturating_mul(people.min(16))
                .saturating_mul(people.min(16))
                .saturating_add(pb)
        }
        crate::sema::Setting::Rule(ss) => {
            let values: u64 = ss.evidence.iter().map(|e| e.values.len() as u64).sum();
            (ss.rubric.rules.len() as u64 + ss.excludes.len() as u64 + 1)
                .saturating_mul(values + ss.levels.len() as u64)
                .saturating_add(facts)
        }
    }
}

/// Lowers a resolved scenario to its constraint model.
pub fn lower(scenario: &Scenario) -> Model {
    let mut model = match &scenario.setting {
        Setting::Meeting(ms) => meeting::lower(scenario, ms),
        Setting::Jira(js) => jira::lower(scenario, js),
        Setting::Rule(ss) => rule::lower(scenario, ss),
    };
    model.facts.shrink_to_fit();
    model
}

/// The facts of a family's predicates, with their origins and statuses,
/// in [`scenario_facts`] order. Resolution, import and generation give a
/// scenario facts of its own family only, so each family's lowering sees
/// every fact.
fn family_facts<P>(
    scenario: &Scenario,
    of: fn(&Predicate) -> Option<&P>,
) -> Vec<(Origin, FactStatus, &P)> {
    let all = scenario_facts(scenario);
    debug_assert!(
        all.iter().all(|(_, _, p)| of(p).is_some()),
        "a fact of another family"
    );
    all.into_iter()
        .filter_map(|(o, s, p)| of(p).map(|p| (o, s, p)))
        .collect()
}

/// Every fact of a scenario with its origin and status, in a fixed order:
/// attributes in order, hard facts before soft ones, claims last.
pub fn scenario_facts(scenario: &Scenario) -> Vec<(Origin, FactStatus, &crate::sema::Predicate)> {
    let mut out = Vec::new();
    for (a, attr) in scenario.attributes.iter().enumerate() {
        let (kind, form) = attr.fact_form();
        let status = if form.appropriate {
            FactStatus::Appropriate
        } else {
            FactStatus::Inappropriate
        };
        for (i, f) in form.facts.iter().enumerate() {
            out.push((
                Origin {
                    attribute: a,
                    form: kind,
                    index: i,
                    span: f.span,
                },
                status,
                &f.predicate,
            ));
        }
        for (i, f) in attr.soft.iter().enumerate() {
            out.push((
                Origin {
                    attribute: a,
                    form: FormKind::Raw,
                    index: i,
                    span: f.span,
                },
                FactStatus::Soft,
                &f.predicate,
            ));
        }
        for (i, f) in attr.claims.iter().enumerate() {
            out.push((
                Origin {
                    attribute: a,
                    form: FormKind::Raw,
                    index: i,
                    span: f.span,
                },
                FactStatus::Claim,
                &f.predicate,
            ));
        }
    }
    out
}
