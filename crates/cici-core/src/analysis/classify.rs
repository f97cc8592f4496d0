//! Classes of attributes, and the lints that read the texts and labels.

use super::class::Class;
use super::{diagnostic::CheckDiagnostic, lints, AttributeFinding, Cx, TrapEffect};
use crate::model::{FactId, FactStatus};

impl Cx<'_> {
    pub(super) fn classify(&mut self) {
        let sc = self.sc;
        let mut by_attr: Vec<Vec<FactId>> = vec![Vec::new(); sc.attributes.len()];
        for (f, mf) in self.model.facts.iter().enumerate() {
            by_attr[mf.origin.attribute].push(f);
        }
        for (a, facts) in by_attr.into_iter().enumerate() {
            let status = |f: &FactId| self.model.facts[*f].status;
            let finding = |f: &FactId| &self.report.facts[*f];
            let hard: Vec<&FactId> = facts
                .iter()
                .filter(|f| status(f) == FactStatus::Appropriate)
                .collect();
            // After a timeout, a question left open leaves the class open.
            let open = self.report.timed_out;
            let class = if !hard.is_empty() {
                if hard.iter().any(|f| finding(f).necessary == Some(true)) {
                    Class::Critical
                } else if open
                    && hard.iter().any(|f| {
                        finding(f).relevant.is_none()
                            || (finding(f).relevant == Some(true) && finding(f).necessary.is_none())
                    })
                {
                    Class::Unknown
                } else if hard.iter().any(|f| finding(f).relevant == Some(true)) {
                    Class::Supporting
                } else {
                    Class::Idle
                }
            } else if !facts.is_empty() && open && facts.iter().any(|f| finding(f).trap.is_none()) {
                Class::Unknown
            } else if !facts.is_empty() {
                let trap = facts
                    .iter()
                    .any(|f| finding(f).trap.as_ref().is_some_and(TrapEffect::is_trap));
                if trap {
                    Class::Trap
                } else {
                    Class::Benign
                }
            } else {
                Class::Irrelevant
            };
            self.report
                .attributes
                .push(AttributeFinding { class, facts });
            let _ = a;
        }
    }

    pub(super) fn lint_text(&mut self) {
        let sc = self.sc;
        let shareable = lints::shareable_words(sc);
        let reader = super::mentions::Reader::new(sc);
        let known = super::strangers::Known::new(sc);
        let by_person = super::others::ByPerson::new(sc);
        let executor = &sc.people[sc.executor].id;
        for (a, attr) in sc.attributes.iter().enumerate() {
            let facts = &self.report.attributes[a].facts;
            let (kind, form) = attr.fact_form();
            let relevant_hard = facts.iter().any(|&f| {
                self.model.facts[f].status == FactStatus::Appropriate
                    && self.report.facts[f].relevant == Some(true)
            });
            if form.appropriate && relevant_hard && !form.visible.contains(&sc.executor) {
                self.report
                    .diagnostics
                    .push(CheckDiagnostic::ExecutorCannotSee {
                        executor: executor.clone(),
                        form: attr.form_id(kind),
                        span: form.span.into(),
                        help: Some(format!(
                            "add `{executor}` to its `visible` list, or use `visible all`"
                        )),
                    });
            }
            for &f in facts {
                let mf = &self.model.facts[f];
                if mf.status == FactStatus::Appropriate
                    && self.report.facts[f].relevant == Some(false)
                {
                    let fact = (mf.origin.form == kind)
                        .then(|| form.facts.get(mf.origin.index))
                        .flatten();
                    self.report.diagnostics.push(CheckDiagnostic::IdleFact {
                        attribute: attr.id.clone(),
                        span: mf.origin.span.into(),
                        help: idle_help(sc, fact),
                    });
                }
            }
            let class = self.report.attributes[a].class;
            self.report
                .diagnostics
                .extend(super::agreement::check(sc, &reader, attr, class));
            let held = [
                super::polarity::check(sc, &reader, attr),
                by_person.check(sc, &reader, a),
                known.check(sc, attr),
            ];
            self.report.diagnostics.extend(held.into_iter().flatten());
            if let Some(s) = &attr.sanitized {
                let leaked = lints::attribute_leaks(sc, attr, &s.text, &shareable);
                if !leaked.is_empty() {
                    let words = leaked
                        .iter()
                        .map(|w| format!("`{w}`"))
                        .collect::<Vec<_>>()
                        .join(", ");
                    self.report.diagnostics.push(CheckDiagnostic::Leak {
                        attribute: attr.id.clone(),
                        words: if leaked.len() == 1 { format!("the word {words}") } else { format!("the words {words}") },
                        at: lints::word_spans(&s.text, s.text_span, &leaked),
                        help: Some("state only the operational implication (who, when, where), not the reason".into()),
                    });
                }
            } else if let Some(cat) = attr.category {
                if cat.is_personal() && !attr.raw.facts.is_empty() {
                    self.report
                        .diagnostics
                        .push(CheckDiagnostic::MissingSanitized {
                            attribute: attr.id.clone(),
                            category: cat.name().to_string(),
                            span: attr.raw.span.into(),
                        });
                }
            }
        }
    }
}

/// What the appropriate facts of a scenario decide on their own.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Decided {
    /// No decision is allowed.
    Nothing,
    /// Exactly this one.
    One(crate::sema::Decision),
    /// More than one.
    Several,
    /// The deadline passed before the solver knew.
    Unknown,
}

/// The one decision that the public constraints and the appropriate facts
/// allow, whatever the scenario's oracle says: how the counterfactual loop
/// learns the oracle of a variant. Both queries honour `deadline`.
///
/// The answers are kept by what the solver is given (see
/// [`crate::solver::fixed_key`]), up to 16 MiB of keys per thread: the loop
/// asks again about candidates that differ only where the solver does not
/// look (a text, an inappropriate fact), three times in four on planted
/// seeds. An answer the deadline cut short is not kept.
pub fn decided(model: &crate::model::Model, deadline: Option<std::time::Instant>) -> Decided {
    use std::collections::HashMap;
    /// The most numbers of keys a thread keeps (16 MiB); past it, it
    /// starts again. A large scenario's key is large.
    const KEPT: usize = 4 << 20;
    // Keys are long runs of numbers, hashed on every ask: foldhash, not
    // the default SipHash.
    type Known = HashMap<Vec<u32>, Choice, foldhash::fast::RandomState>;
    thread_local! {
        static KNOWN: std::cell::RefCell<(Known, usize)> =
            std::cell::RefCell::new((Known::default(), 0));
    }
    let on: Vec<bool> = model
        .facts
        .iter()
        .map(|f| f.status == crate::model::FactStatus::Appropriate)
        .collect();
    let key = crate::solver::fixed_key(model, &on);
    let known = KNOWN.with(|k| k.borrow().0.get(&key).cloned());
    let choice = match known {
        Some(choice) => choice,
        None => {
            let Some(choice) = solve_decided(model, deadline, &on) else {
                return Decided::Unknown;
            };
            KNOWN.with(|k| {
                let (known, held) = &mut *k.borrow_mut();
                if *held + key.len() > KEPT {
                    known.clear();
                    *held = 0;
                }
                if key.len() <= KEPT {
                    *held += key.len();
                    known.insert(key, choice.clone());
                }
            });
            choice
        }
    };
    match choice {
        Choice::Nothing => Decided::Nothing,
        Choice::One(first) => Decided::One(model.decode(&first)),
        Choice::Several => Decided::Several,
    }
}

/// What [`decided`] found, as the solver's choices.
#[derive(Clone)]
enum Choice {
    Nothing,
    One(Vec<usize>),
    Several,
}

/// [`decided`] solved; `None` when the deadline passed first.
fn solve_decided(
    model: &crate::model::Model,
    deadline: Option<std::time::Instant>,
    on: &[bool],
) -> Option<Choice> {
    use crate::solver::Outcome;
    let mut session =
        crate::solver::Session::fixed(model, crate::solver::BatsatBackend::default(), deadline, on);
    let first = match session.solve_fixed(&[]) {
        Outcome::Sat(first) => first,
        Outcome::Unsat => return Some(Choice::Nothing),
        Outcome::Timeout => return None,
    };
    let other = session.differ_from(&first);
    match session.solve_fixed(&[other]) {
        Outcome::Sat(_) => Some(Choice::Several),
        Outcome::Unsat => Some(Choice::One(first)),
        Outcome::Timeout => None,
    }
}

/// The help of an idle fact: why it forbids nothing, where a slot that no
/// candidate of the person's meetings overlaps says so, then what to do.
fn idle_help(sc: &crate::sema::Scenario, fact: Option<&crate::sema::Fact>) -> String {
    const MINIMIZE: &str =
        "data minimization: drop the fact, or mark the form inappropriate if it is only a distractor";
    let (Some(fact), crate::sema::Setting::Meeting(setting)) = (fact, &sc.setting) else {
        return MINIMIZE.to_string();
    };
    let crate::sema::Predicate::Meeting(crate::sema::MeetingPredicate::Unavailable {
        person,
        slot,
    }) = &fact.predicate
    else {
        return MINIMIZE.to_string();
    };
    let theirs: Vec<&crate::sema::Meeting> = setting
        .meetings
        .iter()
        .filter(|m| m.attendees.contains(person))
        .collect();
    if theirs
        .iter()
        .any(|m| m.slots.iter().any(|s| s.overlaps(slot)))
    {
        return MINIMIZE.to_string();
    }
    let who = &sc.people[*person].id;
    let candidates: Vec<String> = theirs
        .iter()
        .flat_map(|m| m.slots.iter().map(ToString::to_string))
        .collect();
    let why = if candidates.is_empty() {
        format!("`{who}` attends no meeting")
    } else {
        let mut seen = Vec::new();
        for c in candidates {
            if !seen.contains(&c) {
                seen.push(c);
            }
        }
        let candidates = seen;
        format!(
            "`{slot}` is not a candidate slot of any meeting `{who}` attends (theirs: {})",
            candidates.join(", ")
        )
    };
    format!("{why}; check the day and time, or {MINIMIZE}")
}
