//! Lowering of `jira_allocation`: an owner per ticket, and a collaborator
//! per ticket with a second seat (`pair` or `with`), each among the people
//! with that seat's skill.

mod loads;

use super::{family_facts, Codec, Constraint, Group, Lit, Model, ModelFact, Var, Violation};
use crate::sema::{JiraPredicate, JiraSetting, PersonId, Predicate, Scenario, Ticket};

/// A JIRA scenario being lowered: who may fill each seat and the
/// variables that put them there.
pub(super) struct Lowering<'s> {
    pub(super) js: &'s JiraSetting,
    model: Model,
    /// Who may fill each ticket's first seat.
    candidates: Vec<Vec<PersonId>>,
    /// Who may fill each ticket's second seat, where it has one.
    second: Vec<Option<Vec<PersonId>>>,
    /// owner[t][k]: candidates[t][k] owns ticket t.
    owner: Vec<Vec<Var>>,
    /// collaborator[t][k]: second[t][k] takes ticket t's second seat.
    collaborator: Vec<Option<Vec<Var>>>,
    collaborator_group: Vec<Option<(usize, Vec<PersonId>)>>,
}

/// A fact's constraints and the ways a decision can violate it.
#[derive(Default)]
struct Lowered {
    holds: Vec<Constraint>,
    violated: Vec<Violation>,
}

impl Lowered {
    /// The decision never makes every literal true.
    fn forbid(&mut self, lits: Vec<Lit>) {
        self.holds
            .push(Constraint::Clause(lits.iter().map(|&l| !l).collect()));
        self.violated.push(Violation::All(lits));
    }
}

pub(super) fn lower(sc: &Scenario, js: &JiraSetting) -> Model {
    let with_skill = |skill: &str| -> Vec<PersonId> {
        (0..sc.people.len())
            .filter(|&p| sc.people[p].skills.iter().any(|s| s == skill))
            .collect()
    };
    let mut l = Lowering {
        js,
        model: Model::new(Codec::Rule),
        candidates: js.tickets.iter().map(|t| with_skill(&t.needs)).collect(),
        second: js
            .tickets
            .iter()
            .map(|t| t.second_seat().map(|(skill, _)| with_skill(skill)))
            .collect(),
        owner: Vec::new(),
        collaborator: vec![None; js.tickets.len()],
        collaborator_group: vec![None; js.tickets.len()],
    };
    l.owners();
    l.collaborators();
    let mut capacities = Vec::new();
    for (origin, status, pred) in family_facts(sc, Predicate::jira) {
        if let JiraPredicate::Capacity { person, hours } = pred {
            capacities.push((l.model.facts.len(), *person, *hours));
        }
        let Lowered { holds, violated } = l.fact(pred);
        let indicator = l.model.new_var();
        l.model.facts.push(ModelFact {
            origin,
            status,
            indicator,
            holds,
            violated: Some(violated),
        });
    }
    l.model.implied = loads::implied(&l, sc.people.len(), &capacities);
    let mut model = l.model;
    model.codec = Codec::Jira {
        candidates: l.candidates,
        collaborator_group: l.collaborator_group,
    };
    model
}

impl Lowering<'_> {
    /// One owner group per ticket.
    fn owners(&mut self) {
        for (t, ticket) in self.js.tickets.iter().enumerate() {
            let vars: Vec<Var> = self.candidates[t]
                .iter()
                .map(|_| self.model.new_var())
                .collect();
            self.model.decision_groups.push(Group {
                name: format!("{} owner", ticket.id),
                options: vars.clone(),
            });
            self.owner.push(vars);
        }
    }

    /// One collaborator group per ticket with a second seat, never the
    /// owner.
    fn collaborators(&mut self) {
        for (t, ticket) in self.js.tickets.iter().enumerate() {
            let Some(second) = &self.second[t] else {
                continue;
            };
            let vars: Vec<Var> = second.iter().map(|_| self.model.new_var()).collect();
            self.collaborator_group[t] = Some((self.model.decision_groups.len(), second.clone()));
            self.model.decision_groups.push(Group {
                name: format!("{} collaborator", ticket.id),
                options: vars.clone(),
            });
            for (k, p) in second.iter().enumerate() {
                if let Some(o) = self.candidates[t].iter().position(|c| c == p) {
                    self.model.public.push(Constraint::Clause(vec![
                        Lit::neg(self.owner[t][o]),
                        Lit::neg(vars[k]),
                    ]));
                }
            }
            self.collaborator[t] = Some(vars);
        }
    }

    /// The variables that put person p on ticket t, as owner and as
    /// collaborator.
    fn roles(&self, t: usize, p: PersonId) -> (Option<Var>, Option<Var>) {
        let o = self.candidates[t].iter().position(|&c| c == p);
        let c = self.second[t]
            .as_ref()
            .and_then(|s| s.iter().position(|&c| c == p));
        (
            o.map(|k| self.owner[t][k]),
            c.and_then(|k| self.collaborator[t].as_ref().map(|v| v[k])),
        )
    }

    /// Every variable that puts p on ticket t.
    fn on(&self, t: usize, p: PersonId) -> Vec<Var> {
        let (o, c) = self.roles(t, p);
        o.into_iter().chain(c).collect()
    }

    /// The constraints of one fact, one function per predicate.
    fn fact(&self, pred: &JiraPredicate) -> Lowered {
        match pred {
            JiraPredicate::Capacity { person, hours } => self.capacity(*person, *hours),
            JiraPredicate::CannotOwn { person, ticket } => {
                let mut out = Lowered::default();
                if let (Some(o), _) = self.roles(*ticket, *person) {
                    out.forbid(vec![Lit::pos(o)]);
                }
                out
            }
            JiraPredicate::NoSensitive { person } => self.barred(*person, |t| t.sensitive),
            JiraPredicate::NoHighPriority { person } => {
                self.barred(*person, |t| t.priority == Some(crate::sema::Priority::High))
            }
            JiraPredicate::NoCollaborationHeavy { person } => {
                self.barred(*person, |t| t.collaboration_heavy || t.seats() > 1)
            }
            JiraPredicate::CannotBeSoleOwner { person } => self.barred(*person, |t| t.seats() == 1),
            JiraPredicate::CannotPair { a, b } => self.cannot_pair(*a, *b),
            JiraPredicate::Unavailable { person } => self.barred(*person, |_| true),
        }
    }

    /// The person's seats on all tickets, weighted by their hours, at most
    /// `hours`.
    fn capacity(&self, person: PersonId, hours: u32) -> Lowered {
        let mut out = Lowered::default();
        let terms = self.load_terms(person);
        // 64-bit: hours are bounded at resolve time, but a sum of bounded
        // numbers must still never wrap.
        let total: u64 = terms.iter().map(|(_, w)| u64::from(*w)).sum();
        if total > u64::from(hours) {
            out.holds.push(Constraint::AtMost {
                terms: terms.clone(),
                bound: hours,
            });
            out.violated.push(Violation::AtLeast {
                terms,
                bound: hours + 1,
            });
        }
        out
    }

    /// Every seat variable of person p, weighted by the seat's hours.
    pub(super) fn load_terms(&self, p: PersonId) -> Vec<(Lit, u32)> {
        let mut terms = Vec::new();
        for (t, ticket) in self.js.tickets.iter().enumerate() {
            let (o, c) = self.roles(t, p);
            let second_hours = ticket.second_seat().map_or(0, |(_, h)| h);
            terms.extend(o.map(|v| (Lit::pos(v), ticket.hours)));
            terms.extend(c.map(|v| (Lit::pos(v), second_hours)));
        }
        terms.retain(|(_, w)| *w > 0);
        terms
    }

    /// The person in no seat of a ticket `barred` picks.
    fn barred(&self, person: PersonId, barred: impl Fn(&Ticket) -> bool) -> Lowered {
        let mut out = Lowered::default();
        for (t, ticket) in self.js.tickets.iter().enumerate() {
            if barred(ticket) {
                for v in self.on(t, person) {
                    out.forbid(vec![Lit::pos(v)]);
                }
            }
        }
        out
    }

    /// Never one of the two the owner and the other the collaborator.
    fn cannot_pair(&self, a: PersonId, b: PersonId) -> Lowered {
        let mut out = Lowered::default();
        for t in 0..self.js.tickets.len() {
            let (oa, ca) = self.roles(t, a);
            let (ob, cb) = self.roles(t, b);
            if let (Some(o), Some(c)) = (oa, cb) {
                out.forbid(vec![Lit::pos(o), Lit::pos(c)]);
            }
            if let (Some(o), Some(c)) = (ob, ca) {
                out.forbid(vec![Lit::pos(o), Lit::pos(c)]);
            }
        }
        out
    }
}
