//! Lowering of `jira_allocation`: an owner per ticket, and a collaborator
//! per ticket with a second seat (`pair` or `with`), each among the people
//! with that seat's skill.

use super::{scenario_facts, Codec, Constraint, Group, Lit, Model, ModelFact, Var, Violation};
use crate::sema::{PersonId, Predicate, Scenario};

pub(super) fn lower(sc: &Scenario) -> Model {
    let js = sc.jira_setting().expect("jira family has a jira setting");
    let mut model = Model::new(sc.family, Codec::Severity);
    let with_skill = |skill: &str| -> Vec<PersonId> {
        (0..sc.people.len())
            .filter(|&p| sc.people[p].skills.iter().any(|s| s == skill))
            .collect()
    };
    let candidates: Vec<Vec<PersonId>> = js.tickets.iter().map(|t| with_skill(&t.needs)).collect();
    let second: Vec<Option<Vec<PersonId>>> = js
        .tickets
        .iter()
        .map(|t| t.second_seat().map(|(skill, _)| with_skill(skill)))
        .collect();
    // owner[t][k], collaborator[t][k] over candidates[t][k].
    let mut owner: Vec<Vec<Var>> = Vec::new();
    for (t, ticket) in js.tickets.iter().enumerate() {
        let vars: Vec<Var> = candidates[t].iter().map(|_| model.new_var()).collect();
        model.decision_groups.push(Group {
            name: format!("{} owner", ticket.id),
            options: vars.clone(),
        });
        owner.push(vars);
    }
    let mut collaborator: Vec<Option<Vec<Var>>> = vec![None; js.tickets.len()];
    let mut collaborator_group = vec![None; js.tickets.len()];
    for (t, ticket) in js.tickets.iter().enumerate() {
        let Some(second) = &second[t] else {
            continue;
        };
        let vars: Vec<Var> = second.iter().map(|_| model.new_var()).collect();
        collaborator_group[t] = Some((model.decision_groups.len(), second.clone()));
        model.decision_groups.push(Group {
            name: format!("{} collaborator", ticket.id),
            options: vars.clone(),
        });
        // Owner and collaborator are different people.
        for (k, p) in second.iter().enumerate() {
            if let Some(o) = candidates[t].iter().position(|c| c == p) {
                model.public.push(Constraint::Clause(vec![
                    Lit::neg(owner[t][o]),
                    Lit::neg(vars[k]),
                ]));
            }
        }
        collaborator[t] = Some(vars);
    }
    // The literals that put person p on ticket t, as owner and as
    // collaborator, each with the hours of that seat.
    let roles = |t: usize, p: PersonId| -> (Option<Var>, Option<Var>) {
        let o = candidates[t].iter().position(|&c| c == p);
        let c = second[t]
            .as_ref()
            .and_then(|s| s.iter().position(|&c| c == p));
        (
            o.map(|k| owner[t][k]),
            c.and_then(|k| collaborator[t].as_ref().map(|v| v[k])),
        )
    };
    // Every literal that puts p on ticket t.
    let on = |t: usize, p: PersonId| -> Vec<Var> {
        let (o, c) = roles(t, p);
        o.into_iter().chain(c).collect()
    };

    for (origin, status, pred) in scenario_facts(sc) {
        let mut holds = Vec::new();
        let mut violated = Vec::new();
        let mut forbid = |lits: Vec<Lit>| {
            holds.push(Constraint::Clause(lits.iter().map(|&l| !l).collect()));
            violated.push(Violation::All(lits));
        };
        match pred {
            Predicate::Capacity { person, hours } => {
                let mut terms = Vec::new();
                for (t, ticket) in js.tickets.iter().enumerate() {
                    let (o, c) = roles(t, *person);
                    let second_hours = ticket.second_seat().map_or(0, |(_, h)| h);
                    terms.extend(o.map(|v| (Lit::pos(v), ticket.hours)));
                    terms.extend(c.map(|v| (Lit::pos(v), second_hours)));
                }
                terms.retain(|(_, w)| *w > 0);
                // 64-bit: hours are bounded at resolve time, but a sum of
                // bounded numbers must still never wrap.
                let total: u64 = terms.iter().map(|(_, w)| u64::from(*w)).sum();
                if total > u64::from(*hours) {
                    holds.push(Constraint::AtMost {
                        terms: terms.clone(),
                        bound: *hours,
                    });
                    violated.push(Violation::AtLeast {
                        terms,
                        bound: hours + 1,
                    });
                }
            }
            Predicate::CannotOwn { person, ticket } => {
                if let (Some(o), _) = roles(*ticket, *person) {
                    forbid(vec![Lit::pos(o)]);
                }
            }
            Predicate::NoSensitive { person }
            | Predicate::NoHighPriority { person }
            | Predicate::NoCollaborationHeavy { person }
            | Predicate::CannotBeSoleOwner { person } => {
                for (t, ticket) in js.tickets.iter().enumerate() {
                    let barred = match pred {
                        Predicate::NoSensitive { .. } => ticket.sensitive,
                        Predicate::NoHighPriority { .. } => {
                            ticket.priority == Some(crate::sema::Priority::High)
                        }
                        Predicate::NoCollaborationHeavy { .. } => {
                            ticket.collaboration_heavy || ticket.seats() > 1
                        }
                        _ => ticket.seats() == 1,
                    };
                    if barred {
                        for v in on(t, *person) {
                            forbid(vec![Lit::pos(v)]);
                        }
                    }
                }
            }
            Predicate::CannotPair { a, b } => {
                for t in 0..js.tickets.len() {
                    let (oa, ca) = roles(t, *a);
                    let (ob, cb) = roles(t, *b);
                    if let (Some(o), Some(c)) = (oa, cb) {
                        forbid(vec![Lit::pos(o), Lit::pos(c)]);
                    }
                    if let (Some(o), Some(c)) = (ob, ca) {
                        forbid(vec![Lit::pos(o), Lit::pos(c)]);
                    }
                }
            }
            Predicate::Off { person } => {
                for t in 0..js.tickets.len() {
                    for v in on(t, *person) {
                        forbid(vec![Lit::pos(v)]);
                    }
                }
            }
            _ => unreachable!("jira facts only"),
        }
        let indicator = model.new_var();
        model.facts.push(ModelFact {
            origin,
            status,
            indicator,
            holds,
            violated: Some(violated),
        });
    }
    model.codec = Codec::Jira {
        candidates,
        collaborator_group,
    };
    model
}
