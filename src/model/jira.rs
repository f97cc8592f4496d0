//! Lowering of `jira_allocation`: an owner per ticket, and a collaborator
//! per pair ticket, among the people with the needed skill.

use super::{scenario_facts, Codec, Constraint, Group, Lit, Model, ModelFact, Var, Violation};
use crate::sema::{PersonId, Predicate, Scenario};

pub(super) fn lower(sc: &Scenario) -> Model {
    let js = sc.jira_setting().expect("jira family has a jira setting");
    let mut model = Model::new(sc.family, Codec::Severity);
    let candidates: Vec<Vec<PersonId>> = js
        .tickets
        .iter()
        .map(|t| {
            (0..sc.people.len())
                .filter(|&p| sc.people[p].skills.contains(&t.needs))
                .collect()
        })
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
        if !ticket.pair {
            continue;
        }
        let vars: Vec<Var> = candidates[t].iter().map(|_| model.new_var()).collect();
        collaborator_group[t] = Some(model.decision_groups.len());
        model.decision_groups.push(Group {
            name: format!("{} collaborator", ticket.id),
            options: vars.clone(),
        });
        // Owner and collaborator are different people.
        for (o, c) in owner[t].iter().zip(&vars) {
            model
                .public
                .push(Constraint::Clause(vec![Lit::neg(*o), Lit::neg(*c)]));
        }
        collaborator[t] = Some(vars);
    }
    // The literals that put person p on ticket t, as owner and as collaborator.
    let roles = |t: usize, p: PersonId| -> (Option<Var>, Option<Var>) {
        let k = candidates[t].iter().position(|&c| c == p);
        (
            k.map(|k| owner[t][k]),
            k.and_then(|k| collaborator[t].as_ref().map(|c| c[k])),
        )
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
                    if ticket.hours == 0 {
                        continue;
                    }
                    let (o, c) = roles(t, *person);
                    terms.extend(o.into_iter().chain(c).map(|v| (Lit::pos(v), ticket.hours)));
                }
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
            Predicate::NoSensitive { person } => {
                for (t, ticket) in js.tickets.iter().enumerate() {
                    if ticket.sensitive {
                        let (o, c) = roles(t, *person);
                        for v in o.into_iter().chain(c) {
                            forbid(vec![Lit::pos(v)]);
                        }
                    }
                }
            }
            Predicate::CannotPair { a, b } => {
                for (t, ticket) in js.tickets.iter().enumerate() {
                    if !ticket.pair {
                        continue;
                    }
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
                    let (o, c) = roles(t, *person);
                    for v in o.into_iter().chain(c) {
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
