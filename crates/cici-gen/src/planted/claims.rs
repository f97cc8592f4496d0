//! Consequential traps, planted backwards: take a decision the oracle
//! would give way to if one appropriate fact were dropped, find a fact
//! that rules the oracle out and lets that decision in, and state it as
//! the `claim` of an inappropriate personal detail; then prove that a
//! reader who honours it reaches that decision and no other (see
//! `docs/language.md`, "Traps that lead somewhere"), else try another.

use rand::seq::SliceRandom;
use rand::Rng;
use rand_chacha::ChaCha8Rng;

use crate::analysis::{prove, Options, TrapEffect};
use crate::model::{self, FactStatus};
use crate::sema::{Attribute, Decision, Fact, Form, Predicate, RulePredicate, Scenario, Setting};
use crate::span::Span;

/// Candidate claims tried, at most, per planted trap.
const TRIES: usize = 24;

/// The bound on all proofs of one planting: a scenario too large to prove
/// in it gets no planted trap rather than a long wait.
const PROOF_BOUND: std::time::Duration = std::time::Duration::from_secs(5);

/// Plants one consequential trap and returns the decision it leads to;
/// None when no candidate is proved to lead to exactly one other decision
/// (the scenario is then unchanged).
pub(crate) fn plant(sc: &mut Scenario, rng: &mut ChaCha8Rng) -> Option<Decision> {
    let options = bounded();
    let (m, report) = proved(sc, &options())?;
    let mut candidates = claim_candidates(sc, &m, &report);
    candidates.shuffle(rng);
    for p in candidates.into_iter().take(TRIES) {
        let mut trial = sc.clone();
        let holder = match p.subject() {
            Some(s) => s,
            None => rng.random_range(1..sc.people.len()),
        };
        if !push_claim(&mut trial, holder, p, rng) {
            continue;
        }
        let m = model::lower(&trial);
        let r = prove(&trial, &m, &options());
        if r.timed_out {
            return None;
        }
        let leads: Option<Vec<Decision>> = m
            .facts
            .iter()
            .zip(&r.facts)
            .filter(|(f, _)| f.status == FactStatus::Claim)
            .map(|(_, found)| match &found.trap {
                Some(TrapEffect::Leads(d)) => Some(d.clone()),
                _ => None,
            })
            .collect();
        if let (true, Some(to)) = (r.unique, leads.and_then(|l| l.into_iter().next())) {
            *sc = trial;
            return Some(to);
        }
    }
    None
}

/// Options for the proofs of one planting or re-aiming, all within one
/// [`PROOF_BOUND`] from now.
fn bounded() -> impl Fn() -> Options {
    let deadline = std::time::Instant::now() + PROOF_BOUND;
    move || Options {
        max_solve: Some(deadline.saturating_duration_since(std::time::Instant::now())),
    }
}

/// The scenario's model and report, when its oracle is proved unique in
/// time.
fn proved(sc: &Scenario, options: &Options) -> Option<(model::Model, crate::analysis::Report)> {
    let m = model::lower(sc);
    let report = prove(sc, &m, options);
    (report.unique && !report.timed_out).then_some((m, report))
}

/// Facts that rule the oracle out: for the allocation families, those
/// that let in a decision a necessary fact alone keeps out (the nearest
/// other decisions); for the rule families, another value of a variable
/// the evidence pins down, so that a rule's condition reads otherwise.
fn claim_candidates(
    sc: &Scenario,
    m: &model::Model,
    report: &crate::analysis::Report,
) -> Vec<Predicate> {
    let mut out = Vec::new();
    if let Setting::Rule(ss) = &sc.setting {
        for f in &m.facts {
            if f.status != FactStatus::Appropriate {
                continue;
            }
            let attr = &sc.attributes[f.origin.attribute];
            let Some(fact) = attr.fact_form().1.facts.get(f.origin.index) else {
                continue;
            };
            if let Predicate::Rule(RulePredicate::Evidence { variable, value }) = fact.predicate {
                for other in 0..ss.evidence[variable].values.len() {
                    if other != value {
                        out.push(Predicate::Rule(RulePredicate::Evidence {
                            variable,
                            value: other,
                        }));
                    }
                }
            }
        }
        return out;
    }
    let mut targets: Vec<&Decision> = report
        .facts
        .iter()
        .filter(|f| f.necessary == Some(true))
        .filter_map(|f| f.lets_in.as_ref())
        .collect();
    targets.dedup();
    for d in targets {
        for p in super::separating_facts_from(sc, d, &sc.oracle) {
            if p.subject().is_some()
                && !out.contains(&p)
                && model::direct::allowed(sc, d, &[&p])
                && !model::direct::allowed(sc, &sc.oracle, &[&p])
            {
                out.push(p);
            }
        }
    }
    out
}

/// Appends an inappropriate personal detail of `holder` whose raw form
/// claims `p`, worded as the needed details are; false when the fact has
/// no claim phrasing.
fn push_claim(sc: &mut Scenario, holder: usize, p: Predicate, rng: &mut ChaCha8Rng) -> bool {
    let texts = crate::phrasing::FactTexts::builtin();
    let Some(t) = crate::phrasing::claim(texts, sc, &p, holder, rng) else {
        return false;
    };
    let raw = Form {
        text: t.raw,
        appropriate: false,
        visible: vec![holder],
        facts: Vec::new(),
        span: Span::DERIVED,
        text_span: Span::DERIVED,
    };
    let id = format!("a{:03}_{}", sc.attributes.len() + 1, sc.people[holder].id);
    let mut attr = Attribute::derived(id, holder, Some(t.category), raw, None, Vec::new());
    attr.claims = vec![Fact::derived(p)];
    // Among the other details, not after them.
    let at = rng.random_range(0..=sc.attributes.len());
    sc.attributes.insert(at, attr);
    for (n, a) in sc.attributes.iter_mut().enumerate() {
        a.id = format!("a{:03}_{}", n + 1, sc.people[a.holder].id);
    }
    true
}

/// A claim that [`reaim`] replaced: the attribute, its fact before and
/// after, and its raw text before.
pub(crate) struct Reaimed {
    pub attribute: usize,
    pub from: Predicate,
    pub to: Predicate,
    pub text_from: String,
    /// Who held the detail before (its holder now when it did not move).
    pub holder_from: usize,
}

/// Which claims [`reaim`] replaces.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Aim {
    /// Those that lead to no decision other than the oracle.
    Lost,
    /// The first claim, wherever it leads: the trap changes and the
    /// decision stays.
    First,
}

/// Re-aims traps: each claim `which` picks is replaced by another fact
/// that rules the oracle out and lets another decision in, told by the
/// same holder in new words, and proved as [`plant`] proves its claims
/// (a variant whose decision moved onto where a trap led has that trap
/// leading nowhere; this gives it one that leads somewhere). Returns what
/// was replaced; None when no claim is picked, a picked claim stands on a
/// detail with a sanitized twin (written by hand: its two texts would no
/// longer agree), or no replacement is proved.
pub(crate) fn reaim(sc: &mut Scenario, which: Aim, rng: &mut ChaCha8Rng) -> Option<Vec<Reaimed>> {
    let proof = match which {
        Aim::Lost => Proof::of(sc)?,
        // The first claim is re-aimed wherever it leads: its replacements
        // read the decision's proofs alone, not the traps.
        Aim::First => Proof::of_decision(sc)?,
    };
    reaim_proved(sc, &proof, which, rng)
}

/// A scenario's model and report, proved once for several re-aimings of
/// it (each draws its own claims from the same proofs).
pub(crate) struct Proof(model::Model, crate::analysis::Report);

impl Proof {
    /// The proof of `sc`, when its oracle is proved unique in time.
    pub(crate) fn of(sc: &Scenario) -> Option<Proof> {
        let (m, report) = proved(sc, &bounded()())?;
        Some(Proof(m, report))
    }

    /// The proofs of `sc`'s decision alone (`prove_decision`: no traps,
    /// no classes), when its oracle is proved unique in time: enough to
    /// re-aim its first claim, not to find the claims that lead nowhere.
    pub(crate) fn of_decision(sc: &Scenario) -> Option<Proof> {
        let m = model::lower(sc);
        let report = crate::analysis::prove_decision(sc, &m, &bounded()());
        (report.unique && !report.timed_out).then_some(Proof(m, report))
    }

    /// The proof a check already made of a scenario (its model and
    /// report), when the oracle was proved unique in time: what
    /// [`Proof::of`] would prove again.
    pub(crate) fn checked(m: &model::Model, report: &crate::analysis::Report) -> Option<Proof> {
        (report.unique && !report.timed_out).then(|| Proof(m.clone(), report.clone()))
    }
}

/// [`reaim`], with `sc` proved as `proof` says.
pub(crate) fn reaim_proved(
    sc: &mut Scenario,
    proof: &Proof,
    which: Aim,
    rng: &mut ChaCha8Rng,
) -> Option<Vec<Reaimed>> {
    let options = bounded();
    let Proof(m, report) = proof;
    let lost = match which {
        Aim::Lost => nowhere(m, report),
        Aim::First => first_claim(sc).into_iter().collect(),
    };
    if lost.is_empty()
        || lost
            .iter()
            .any(|&(a, _)| sc.attributes[a].sanitized.is_some())
    {
        return None;
    }
    let mut candidates = claim_candidates(sc, m, report);
    candidates.shuffle(rng);
    let mut trial = sc.clone();
    let mut out = Vec::new();
    for (a, i) in lost {
        let holder = trial.attributes[a].holder;
        let executor = trial.executor;
        let now = trial.attributes[a].claims[i].predicate.clone();
        let text_from = trial.attributes[a].raw.text.clone();
        let fits = |p: &Predicate| told_by(p, holder).filter(|p| *p != now);
        // Then facts about the holder that the oracle breaks, wherever
        // they lead: a flip can leave no nearby decision that a fact
        // about this holder tells apart.
        let own = match trial.family() {
            crate::sema::Family::JiraAllocation => super::jira::broken_by_oracle(&trial, holder),
            _ => Vec::new(),
        };
        let own = own
            .into_iter()
            .filter(|p| !candidates.contains(p) && *p != now);
        // Each try tells its claim in `trial` itself, and is undone when
        // the claim cannot be told or leads nowhere. A try changes only
        // claims, which no appropriate fact reads: the oracle stays the
        // one decision they allow, as `proof` proved.
        let saved = trial.attributes[a].clone();
        let mut tried = |trial: &mut Scenario, p: &Predicate, to: Option<usize>| {
            if let Some(to) = to {
                trial.attributes[a].pass_to(to);
            }
            let leads = set_claim(trial, (a, i), p, rng) && {
                let m = model::lower(trial);
                crate::analysis::claim_leads_unique(trial, &m, (a, i), &options())
            };
            if !leads {
                trial.attributes[a] = saved.clone();
            }
            leads
        };
        let found = candidates
            .iter()
            .filter_map(fits)
            .chain(own)
            .take(TRIES)
            .find(|p| tried(&mut trial, p, None))
            // Last, the detail passes to the subject of another claim that
            // rules the oracle out, and is told as theirs.
            .or_else(|| {
                candidates
                    .iter()
                    .filter(|p| p.subject().is_some_and(|s| s != holder && s != executor))
                    .take(TRIES)
                    .find(|p| tried(&mut trial, p, p.subject()))
                    .cloned()
            });
        out.push(Reaimed {
            attribute: a,
            to: found?,
            from: now,
            text_from,
            holder_from: holder,
        });
    }
    *sc = trial;
    Some(out)
}

/// `p` as a claim `holder` tells of themselves: `p` when it is about
/// them or about no one, a pair they are in with them named first (the
/// pair is the same either way round); else None.
fn told_by(p: &Predicate, holder: usize) -> Option<Predicate> {
    match p {
        Predicate::Jira(crate::sema::JiraPredicate::CannotPair { a, b }) if *b == holder => {
            Some(Predicate::Jira(crate::sema::JiraPredicate::CannotPair {
                a: *b,
                b: *a,
            }))
        }
        _ => p.subject().is_none_or(|s| s == holder).then(|| p.clone()),
    }
}

/// The first claim of the scenario: its attribute and index.
fn first_claim(sc: &Scenario) -> Option<(usize, usize)> {
    sc.attributes
        .iter()
        .position(|a| !a.claims.is_empty())
        .map(|a| (a, 0))
}

/// The claims (attribute, index among its claims) that lead to no
/// decision other than the oracle.
fn nowhere(m: &model::Model, report: &crate::analysis::Report) -> Vec<(usize, usize)> {
    m.facts
        .iter()
        .zip(&report.facts)
        .filter(|(f, _)| f.status == FactStatus::Claim)
        .filter(|(_, r)| !matches!(r.trap, Some(TrapEffect::Leads(_))))
        .map(|(f, _)| (f.origin.attribute, f.origin.index))
        .collect()
}

/// Claim `at` of the scenario states `p` instead, its holder's raw text
/// told again; false (the scenario unchanged) when the fact has no claim
/// phrasing.
fn set_claim(sc: &mut Scenario, at: (usize, usize), p: &Predicate, rng: &mut ChaCha8Rng) -> bool {
    let (a, i) = at;
    let texts = crate::phrasing::FactTexts::builtin();
    let Some(t) = crate::phrasing::claim(texts, sc, p, sc.attributes[a].holder, rng) else {
        return false;
    };
    let attr = &mut sc.attributes[a];
    attr.claims[i].predicate = p.clone();
    attr.raw.text = t.raw;
    attr.category = Some(t.category);
    true
}
