//! Stage 4: prove what `cici check` promises and class every attribute.
//!
//! In: a [`Scenario`] and its [`Model`]. Out: a [`Report`]: whether the
//! oracle is the one allowed decision (with two witnesses or a small
//! conflict core when it is not), the finding for every fact (relevant?
//! necessary? a trap?), the class of every attribute, and the diagnostics.
//!
//! All queries run in one incremental [`Session`]: facts are switched on and
//! off by assumptions. Let P be the public constraints and F the facts of
//! the appropriate forms:
//!
//! - unique: P ∪ F allows the oracle, and nothing else (`differ_from`);
//! - necessary(f): P ∪ F \ {f} allows a decision other than the oracle;
//! - relevant(f): P allows a decision that violates f;
//! - trap(s): P ∪ F ∪ {s} no longer allows exactly the oracle; and then
//!   the decision a reader reaches who honours s and gives up as few facts
//!   of F as it must (`traps`).

pub mod agreement;
mod class;
mod classify;
mod clauses;
mod clock;
mod describe;
mod diagnostic;
mod harm;
mod leads;
mod leak;
pub mod lints;
pub mod mentions;
mod needed;
mod norms;
mod not_unique;
mod others;
mod polarity;
mod rules;
mod strangers;
mod tokens;
pub mod traps;
mod vocabulary;

pub use rules::dead_rules;

pub use agreement::unstated;
pub use class::Class;
pub use classify::{decided, Decided};
pub use describe::{named_rows, side_by_side};
pub use diagnostic::CheckDiagnostic;
pub use leads::{claim_leads, claim_leads_unique};
pub use needed::{form_needed, form_needed_proved, is_evidence};

use std::time::{Duration, Instant};

use miette::LabeledSpan;

use crate::model::{FactId, FactStatus, Lit, Model};
use crate::sema::{Decision, Scenario};
use crate::solver::{Outcome, Session};

/// What honouring a soft (or inappropriate) fact as hard would do.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TrapEffect {
    /// The oracle stays the one allowed decision, or honoured as binding
    /// it brings the reader back to the oracle alone.
    Keeps,
    /// No decision would be allowed any more.
    NoDecision,
    /// The oracle would be ruled out; this decision would be allowed
    /// (only where the appropriate facts allow more than the oracle).
    Changes(Decision),
    /// Honoured as binding, giving up the fewest appropriate facts it
    /// must, it allows this one decision, not the oracle: a consequential
    /// trap.
    Leads(Decision),
    /// Honoured so, it allows more than one decision (two of them here),
    /// or none without giving up more than [`traps::MAX_DROPS`] facts
    /// (empty): it leads nowhere definite.
    Unclear(Vec<Decision>),
}

impl TrapEffect {
    /// Whether honouring it breaks the oracle: the fact is a trap.
    pub fn is_trap(&self) -> bool {
        !matches!(self, TrapEffect::Keeps)
    }

    /// The one decision it leads to, if it leads to one.
    pub fn leads(&self) -> Option<&Decision> {
        match self {
            TrapEffect::Leads(d) | TrapEffect::Changes(d) => Some(d),
            _ => None,
        }
    }
}

/// The findings for one fact.
#[derive(Clone, Debug, Default)]
pub struct FactFinding {
    /// Forbids some decision that the public constraints allow.
    pub relevant: Option<bool>,
    /// One publicly allowed decision it forbids.
    pub forbids: Option<Decision>,
    /// Dropping it alone allows a decision other than the oracle.
    pub necessary: Option<bool>,
    /// The decision that dropping it would let in.
    pub lets_in: Option<Decision>,
    /// For soft, inappropriate and claimed facts: what honouring it would do.
    pub trap: Option<TrapEffect>,
    /// How many appropriate facts honouring it gives up (see [`traps`]).
    pub drops: Option<u32>,
}

/// The class of one attribute and the facts behind it.
#[derive(Clone, Debug)]
pub struct AttributeFinding {
    pub class: Class,
    pub facts: Vec<FactId>,
}

/// Everything the analyses found about one scenario.
#[derive(Clone, Debug)]
pub struct Report {
    pub unique: bool,
    pub oracle_allowed: bool,
    /// P alone allows only the oracle (known only for unique scenarios).
    pub trivial: Option<bool>,
    /// The public constraints alone allow some decision.
    pub public_feasible: bool,
    /// A second allowed decision when the oracle is not unique.
    pub alternative: Option<Decision>,
    /// What a reader reaches who takes every claimed and inappropriate
    /// fact as binding at once (the details that state constraints), and
    /// how many appropriate facts it gives up.
    pub reader: Option<TrapEffect>,
    pub reader_drops: Option<u32>,
    pub facts: Vec<FactFinding>,
    pub attributes: Vec<AttributeFinding>,
    pub diagnostics: Vec<CheckDiagnostic>,
    /// Solver queries, all sessions together.
    pub solves: u32,
    solves_elsewhere: u32,
    /// The whole of [`analyse`]: the proofs, the classes and the text lints.
    pub elapsed: Duration,
    /// The proofs alone: compiling the solver sessions and answering
    /// uniqueness, triviality, relevance, necessity and traps.
    pub proving: Duration,
    pub timed_out: bool,
}

impl Report {
    pub fn errors(&self) -> usize {
        self.diagnostics.iter().filter(|d| d.is_error()).count()
    }

    pub fn warnings(&self) -> usize {
        self.diagnostics.len() - self.errors()
    }
}

/// Knobs of the analyses.
#[derive(Clone, Copy, Debug)]
pub struct Options {
    /// Wall-clock bound on all solver work for one scenario.
    pub max_solve: Option<Duration>,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            max_solve: Some(Duration::from_secs(10)),
        }
    }
}

struct TimedOut;

/// Runs every analysis on a scenario.
pub fn analyse(sc: &Scenario, model: &Model, options: &Options) -> Report {
    analyses(sc, model, options, Depth::All)
}

/// How much of the analyses runs.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Depth {
    /// Every proof and the text lints.
    All,
    /// Every proof.
    Proofs,
    /// The proofs of the decision alone (see [`prove_decision`]).
    Decision,
}

/// The proofs and the classes of a scenario without the text lints: what
/// a caller that reads only uniqueness, relevance, necessity and traps
/// (the trap planter) needs. The report's
/// diagnostics hold the proofs' findings alone.
pub fn prove(sc: &Scenario, model: &Model, options: &Options) -> Report {
    analyses(sc, model, options, Depth::Proofs)
}

/// [`prove`] without what honouring the soft, inappropriate and claimed
/// facts would do: uniqueness, relevance, triviality and necessity, as
/// `prove` finds them, and no fact's `trap`, no reader and no classes.
/// For a caller that reads only those (re-aiming the first trap of a
/// variant).
pub fn prove_decision(sc: &Scenario, model: &Model, options: &Options) -> Report {
    analyses(sc, model, options, Depth::Decision)
}

fn analyses(sc: &Scenario, model: &Model, options: &Options, depth: Depth) -> Report {
    let start = Instant::now();
    let deadline = options.max_solve.map(|d| start + d);
    let mut cx = Cx::new(sc, model, deadline);
    cx.traps = depth != Depth::Decision;
    // The session is compiled by now; the rule lints below are not a proof.
    let compiled = start.elapsed();
    let rules_done = rules_pass(sc, deadline, &mut cx.report.diagnostics);
    let proving = Instant::now();
    let finished = rules_done && cx.run().is_ok();
    cx.report.proving = compiled + proving.elapsed();
    if !finished {
        cx.report.timed_out = true;
        cx.report.diagnostics.push(CheckDiagnostic::Timeout {
            scenario: sc.id.clone(),
            ms: options.max_solve.map_or(0, |d| d.as_millis() as u64),
            span: sc.id_span.into(),
        });
    }
    // The classes read the traps, which a decision's proofs leave out.
    if depth != Depth::Decision {
        cx.classify();
    }
    if depth == Depth::All {
        cx.lint_text();
        cx.report.diagnostics.extend(norms::exceptions(sc));
    }
    cx.report.solves = cx.session.stats.solves + cx.report.solves_elsewhere;
    cx.report.elapsed = start.elapsed();
    cx.report
}

struct Cx<'a> {
    sc: &'a Scenario,
    model: &'a Model,
    deadline: Option<Instant>,
    session: Session<'a>,
    report: Report,
    /// Whether `run` asks what honouring the other details would do.
    traps: bool,
}

impl<'a> Cx<'a> {
    /// The model compiled for deciding, with nothing found yet.
    fn new(sc: &'a Scenario, model: &'a Model, deadline: Option<Instant>) -> Cx<'a> {
        Cx {
            sc,
            model,
            deadline,
            session: Session::new(model, deadline),
            report: Report {
                unique: false,
                oracle_allowed: false,
                public_feasible: true,
                trivial: None,
                alternative: None,
                reader: None,
                reader_drops: None,
                facts: vec![FactFinding::default(); model.facts.len()],
                attributes: Vec::new(),
                diagnostics: Vec::new(),
                solves: 0,
                solves_elsewhere: 0,
                elapsed: Duration::ZERO,
                proving: Duration::ZERO,
                timed_out: false,
            },
            traps: true,
        }
    }
}

/// The lints of a rule setting, into `found`; false when they ran out of
/// time.
fn rules_pass(sc: &Scenario, deadline: Option<Instant>, found: &mut Vec<CheckDiagnostic>) -> bool {
    match sc.rule_setting() {
        Some(ss) => match rules::lint(ss, ss.kind == crate::sema::RuleKind::Policy, deadline) {
            Ok(lints) => {
                found.extend(lints);
                true
            }
            Err(()) => false,
        },
        None => true,
    }
}

impl Cx<'_> {
    fn mask(&self, facts: &[FactId]) -> Vec<bool> {
        let mut m = vec![false; self.model.facts.len()];
        for &f in facts {
            m[f] = true;
        }
        m
    }

    fn solve(&mut self, facts: &[FactId], extra: &[Lit]) -> Result<Option<Vec<usize>>, TimedOut> {
        let mask = self.mask(facts);
        match self.session.solve(&mask, extra) {
            Outcome::Sat(c) => Ok(Some(c)),
            Outcome::Unsat => Ok(None),
            Outcome::Timeout => Err(TimedOut),
        }
    }

    fn attr_name(&self, f: FactId) -> &str {
        &self.sc.attributes[self.model.facts[f].origin.attribute].id
    }

    fn attr_list(&self, facts: &[FactId]) -> String {
        let mut names: Vec<String> = facts
            .iter()
            .map(|&f| format!("`{}`", self.attr_name(f)))
            .collect();
        names.dedup();
        names.join(", ")
    }

    fn fact_labels(&self, facts: &[FactId], what: &str) -> Vec<LabeledSpan> {
        facts
            .iter()
            .map(|&f| {
                LabeledSpan::new_with_span(Some(what.to_string()), self.model.facts[f].origin.span)
            })
            .collect()
    }

    /// Shrinks an unsatisfiable set of facts to a minimal one (deletion-based).
    fn minimize(&mut self, mut core: Vec<FactId>, extra: &[Lit]) -> Result<Vec<FactId>, TimedOut> {
        let mut i = 0;
        while i < core.len() {
            let mut trial = core.clone();
            trial.remove(i);
            if self.solve(&trial, extra)?.is_none() {
                let smaller = self.session.core();
                core = trial.into_iter().filter(|f| smaller.contains(f)).collect();
            } else {
                i += 1;
            }
        }
        Ok(core)
    }

    fn run(&mut self) -> Result<(), TimedOut> {
        let appropriate = self.model.facts_with(FactStatus::Appropriate);
        let inappropriate = self.model.facts_with(FactStatus::Inappropriate);
        let soft = self.model.facts_with(FactStatus::Soft);
        let claims = self.model.facts_with(FactStatus::Claim);
        let sc = self.sc;

        let Some(oracle) = self.model.encode(&sc.oracle) else {
            let reasons = crate::model::direct::public_violations(sc, &sc.oracle);
            self.report
                .diagnostics
                .push(CheckDiagnostic::OracleBreaksPublic {
                    reason: reasons.join("; "),
                    span: sc.oracle_span.into(),
                });
            return self.relevance(&appropriate, &inappropriate);
        };
        let oracle_lits = self.model.choice_lits(&oracle);
        let not_oracle = self.session.differ_from(&oracle);

        self.report.oracle_allowed = self.solve(&appropriate, &oracle_lits)?.is_some();
        let other = self.solve(&appropriate, &[not_oracle])?;
        self.report.alternative = other.as_ref().map(|c| self.model.decode(c));
        self.report.unique = self.report.oracle_allowed && other.is_none();

        if !self.report.oracle_allowed {
            self.explain_no_oracle(&appropriate, &oracle_lits)?;
        } else if let Some(other) = &other {
            self.explain_not_unique(&appropriate, &inappropriate, &soft, not_oracle, other)?;
        }
        // With no public decision at all, every fact would read as idle:
        // warnings that only follow from the infeasible setting.
        if !self.report.public_feasible {
            return Ok(());
        }
        self.relevance(&appropriate, &inappropriate)?;
        if self.report.unique {
            // Not trivial: P alone allows something else.
            let trivial = self.solve(&[], &[not_oracle])?.is_none();
            self.report.trivial = Some(trivial);
            if trivial {
                self.report.diagnostics.push(CheckDiagnostic::Trivial {
                    span: sc.id_span.into(),
                });
            }
            // Necessity of every appropriate fact. A necessary fact is
            // relevant (the decision it lets in is publicly allowed and
            // violates it), so irrelevant ones need no query.
            for (i, &f) in appropriate.iter().enumerate() {
                if self.report.facts[f].relevant == Some(false) {
                    self.report.facts[f].necessary = Some(false);
                    continue;
                }
                let mut rest = appropriate.clone();
                rest.remove(i);
                let witness = self.solve(&rest, &[not_oracle])?;
                self.report.facts[f].necessary = Some(witness.is_some());
                self.report.facts[f].lets_in = witness.map(|c| self.model.decode(&c));
            }
        }

        // What honouring soft, inappropriate and claimed facts would do.
        if self.traps && self.report.oracle_allowed {
            let mut guards = Vec::new();
            for &s in soft.iter().chain(&inappropriate).chain(&claims) {
                let h = self.honour(&appropriate, &[s], &oracle_lits, &mut guards)?;
                self.report.facts[s].trap = Some(h.effect);
                self.report.facts[s].drops = h.drops;
            }
            let every: Vec<FactId> = inappropriate.iter().chain(&claims).copied().collect();
            let h = self.honour(&appropriate, &every, &oracle_lits, &mut guards)?;
            self.report.reader = Some(h.effect);
            self.report.reader_drops = h.drops;
            if self.report.unique {
                self.lint_claims(&claims);
            }
        }
        Ok(())
    }

    /// A claim is written to mislead: one that leads to no one decision
    /// tests nothing.
    fn lint_claims(&mut self, claims: &[FactId]) {
        for &f in claims {
            let Some(effect) = &self.report.facts[f].trap else {
                continue;
            };
            let found = match effect {
                TrapEffect::Leads(_) | TrapEffect::Changes(_) => continue,
                TrapEffect::Keeps => "honouring it keeps the oracle".to_string(),
                TrapEffect::NoDecision => {
                    "honouring it leaves no decision at all, whatever else is given up".to_string()
                }
                TrapEffect::Unclear(ds) if ds.len() >= 2 => format!(
                    "honouring it allows more than one decision, such as {} and {}",
                    describe::one_line(self.sc, &ds[0]),
                    describe::one_line(self.sc, &ds[1]),
                ),
                TrapEffect::Unclear(_) => format!(
                    "honouring it means giving up more than {} appropriate facts",
                    traps::MAX_DROPS
                ),
            };
            self.report
                .diagnostics
                .push(CheckDiagnostic::ClaimLeadsNowhere {
                    attribute: self.attr_name(f).to_string(),
                    found,
                    span: self.model.facts[f].origin.span.into(),
                });
        }
    }

    fn explain_no_oracle(
        &mut self,
        appropriate: &[FactId],
        oracle_lits: &[Lit],
    ) -> Result<(), TimedOut> {
        let sc = self.sc;
        if self.solve(&[], &[])?.is_none() {
            self.report.public_feasible = false;
            if let Some(d) = self
                .sc
                .rule_setting()
                .and_then(rules::exclusions_rule_out_all)
            {
                self.report.diagnostics.push(d);
                return Ok(());
            }
            self.report.diagnostics.push(CheckDiagnostic::PublicInfeasible {
                span: sc.id_span.into(),
                help: Some(match sc.family() {
                    crate::sema::Family::MeetingAllocation => "check room capacities, required features and overlapping candidate slots".into(),
                    crate::sema::Family::JiraAllocation => "check that every ticket has enough people with its skill (two for a pair ticket)".into(),
                    crate::sema::Family::SeverityClassification => "check that the rubric can give some level".into(),
                    crate::sema::Family::PolicyDecision => "check that some configuration is valid: the exclusions may rule out every one".into(),
                }),
            });
            return Ok(());
        }
        if self.solve(appropriate, &[])?.is_none() {
            let core = self.session.core();
            let core = self.minimize(core, &[])?;
            self.report.diagnostics.push(CheckDiagnostic::Conflict {
                attributes: self.attr_list(&core),
                facts: self.fact_labels(&core, "in conflict"),
                help: Some(if core.len() == 1 {
                    "this fact alone leaves no decision: drop it or change its arguments".into()
                } else {
                    "drop or change one of these facts; each of them is needed for the conflict"
                        .into()
                }),
            });
            return Ok(());
        }
        if self.solve(&[], oracle_lits)?.is_none() {
            let reasons = crate::model::direct::public_violations(sc, &sc.oracle);
            self.report
                .diagnostics
                .push(CheckDiagnostic::OracleBreaksPublic {
                    reason: if reasons.is_empty() {
                        "no public constraint allows it".into()
                    } else {
                        reasons.join("; ")
                    },
                    span: sc.oracle_span.into(),
                });
            return Ok(());
        }
        self.solve(appropriate, oracle_lits)?;
        let core = self.session.core();
        let core = self.minimize(core, oracle_lits)?;
        self.report.diagnostics.push(CheckDiagnostic::OracleForbidden {
            attributes: self.attr_list(&core),
            span: sc.oracle_span.into(),
            facts: self.fact_labels(&core, "rules the oracle out"),
            help: Some("change the oracle, or the arguments of these facts; their removal alone would let the oracle in".into()),
        });
        Ok(())
    }

    /// Relevance of the appropriate and inappropriate hard facts, in a
    /// session of its own that encodes violations instead of facts.
    fn relevance(
        &mut self,
        appropriate: &[FactId],
        inappropriate: &[FactId],
    ) -> Result<(), TimedOut> {
        let facts: Vec<FactId> = appropriate.iter().chain(inappropriate).copied().collect();
        self.relevance_of(appropriate, &facts)
    }

    /// The relevance of `facts`, among the `appropriate` ones.
    fn relevance_of(&mut self, appropriate: &[FactId], facts: &[FactId]) -> Result<(), TimedOut> {
        if self.model.facts.iter().any(|f| f.violated.is_none()) {
            return self.relevance_by_enumeration(appropriate, facts);
        }
        needed::relevance_by_violation(
            self.model,
            self.deadline,
            facts,
            &mut self.report.facts,
            &mut self.report.solves_elsewhere,
        )
    }

    /// Relevance where a decision does not fix every variable (severity): a
    /// fact is relevant when it rules out a decision that the public
    /// constraints allow, or one that the other appropriate facts allow.
    /// (An evidence fact rarely removes a level on its own; it does in the
    /// company of the others.)
    fn relevance_by_enumeration(
        &mut self,
        appropriate: &[FactId],
        facts: &[FactId],
    ) -> Result<(), TimedOut> {
        let public = self.enumerate(&[])?;
        for &f in facts {
            let mut forbids = None;
            for choice in &public {
                let lits = self.model.choice_lits(choice);
                if self.solve(&[f], &lits)?.is_none() {
                    forbids = Some(choice.clone());
                    break;
                }
            }
            if forbids.is_none() && appropriate.contains(&f) {
                let others: Vec<FactId> = appropriate.iter().copied().filter(|&g| g != f).collect();
                for choice in self.enumerate(&others)? {
                    let lits = self.model.choice_lits(&choice);
                    if self.solve(appropriate, &lits)?.is_none() {
                        forbids = Some(choice);
                        break;
                    }
                }
            }
            self.report.facts[f].relevant = Some(forbids.is_some());
            self.report.facts[f].forbids = forbids.map(|c| self.model.decode(&c));
        }
        Ok(())
    }

    /// Every allowed decision with the given facts in force (for small
    /// decision spaces: one group of levels).
    fn enumerate(&mut self, facts: &[FactId]) -> Result<Vec<Vec<usize>>, TimedOut> {
        let mut found = Vec::new();
        let mut blocks = Vec::new();
        while let Some(choice) = self.solve(facts, &blocks)? {
            blocks.push(self.session.differ_from(&choice));
            found.push(choice);
        }
        Ok(found)
    }
}
