//! Released JIRA bundles (`oracle_assignment`) back into `jira_allocation`
//! seeds.
//!
//! The bundle states its setting as attribute texts: the public roster
//! (`Val specialty: backend`) and ticket board (`JIRA-001 requires
//! security: 3 hours`, `priority: medium`, `collaboration-heavy: yes`,
//! `sensitive-data surface: no`) become people's skills and tickets, and
//! `import.json` says so under `public`. What people hold privately
//! becomes attributes: available hours are `capacity` facts, the
//! decision-critical detail states its `hidden_solver_constraint`, decoys
//! state nothing. The constraint's sanitized rewrite is a form only where
//! an artifact carries it: a text nobody holds cannot be shared.

use std::collections::BTreeMap;

use super::bundle::{oracle_text, written};
use super::cast::{bundle_scenario, Cast, Held};
use super::json::{key_path, Report};
use super::names::identifier;
use super::{diagnostic::ImportError, map::Written};
use crate::pisas::format::{Bundle, HiddenConstraint, ScenarioFile, UtilityFile};
use crate::sema::*;
use crate::span::Span;

/// What one ticket-board or roster text says.
#[derive(Clone, Copy)]
enum Says<'a> {
    Specialty {
        person: &'a str,
        skill: &'a str,
    },
    Requires {
        ticket: &'a str,
        skill: &'a str,
        hours: &'a str,
    },
    Priority {
        ticket: &'a str,
        level: &'a str,
    },
    CollaborationHeavy {
        ticket: &'a str,
        yes: &'a str,
    },
    Sensitive {
        ticket: &'a str,
        yes: &'a str,
    },
    Hours {
        person: &'a str,
        hours: &'a str,
    },
}

/// Reads `<subject> <label>: <value>` texts of the release's JIRA bundles.
fn says(text: &str) -> Option<Says<'_>> {
    let text = text.trim().trim_end_matches('.');
    let labelled = |label: &str| {
        let (subject, value) = text.split_once(&format!(" {label}: "))?;
        Some((subject.trim(), value.trim()))
    };
    if let Some((person, skill)) = labelled("specialty") {
        return Some(Says::Specialty { person, skill });
    }
    if let Some((person, hours)) = labelled("available hours") {
        return Some(Says::Hours { person, hours });
    }
    if let Some((ticket, level)) = labelled("priority") {
        return Some(Says::Priority { ticket, level });
    }
    if let Some((ticket, yes)) = labelled("collaboration-heavy") {
        return Some(Says::CollaborationHeavy { ticket, yes });
    }
    if let Some((ticket, yes)) = labelled("sensitive-data surface") {
        return Some(Says::Sensitive { ticket, yes });
    }
    let (ticket, rest) = text.split_once(" requires ")?;
    let (skill, hours) = rest.split_once(": ")?;
    let hours = hours.trim();
    let hours = hours
        .strip_suffix(" hours")
        .or_else(|| hours.strip_suffix(" hour"))
        .unwrap_or(hours);
    Some(Says::Requires {
        ticket: ticket.trim(),
        skill: skill.trim(),
        hours,
    })
}

/// A ticket as the board builds it up.
struct Board {
    label: String,
    seats: Vec<(String, u32)>,
    priority: Option<Priority>,
    collaboration_heavy: bool,
    sensitive: bool,
}

fn yes(v: &str) -> Option<bool> {
    match v.to_ascii_lowercase().as_str() {
        "yes" | "true" => Some(true),
        "no" | "false" => Some(false),
        _ => None,
    }
}

/// The title the board gives a ticket (`JIRA-001: Audit session-token
/// rotation`), else its label.
fn title(scenario: &ScenarioFile, label: &str) -> String {
    let prefix = format!("{label}: ");
    scenario
        .timeline
        .iter()
        .flat_map(|a| a.content.lines())
        .find_map(|l| l.trim().strip_prefix(&prefix).map(str::trim))
        .filter(|t| !t.is_empty())
        .unwrap_or(label)
        .to_string()
}

/// The fact of a `hidden_solver_constraint`.
fn constraint(c: &HiddenConstraint, cast: &Cast, path: &str, r: &mut Report) -> Option<Predicate> {
    let Some(person) = c.person.as_deref().and_then(|k| cast.keyed(k)) else {
        r.push(
            key_path(path, "person"),
            ImportError::UnknownName {
                kind: "person of the cast".into(),
                name: c.person.as_deref().unwrap_or("null").into(),
                help: None,
            },
        );
        return None;
    };
    let kind = c.kind.as_str();
    Some(match kind {
        "cannot_pair_with_person" => {
            let other = c.other_person.as_deref();
            let Some(b) = other.and_then(|k| cast.keyed(k)) else {
                r.push(
                    key_path(path, "other_person"),
                    ImportError::UnknownName {
                        kind: "person of the cast".into(),
                        name: other.unwrap_or("null").into(),
                        help: None,
                    },
                );
                return None;
            };
            Predicate::Jira(JiraPredicate::CannotPair { a: person, b })
        }
        "no_high_priority" => Predicate::Jira(JiraPredicate::NoHighPriority { person }),
        "no_collaboration_heavy" => Predicate::Jira(JiraPredicate::NoCollaborationHeavy { person }),
        "cannot_be_sole_owner" => Predicate::Jira(JiraPredicate::CannotBeSoleOwner { person }),
        "no_sensitive_surface" => Predicate::Jira(JiraPredicate::NoSensitive { person }),
        _ => {
            r.push(
                key_path(path, "type"),
                ImportError::UnknownName {
                    kind: "JIRA constraint archetype".into(),
                    name: kind.into(),
                    help: Some("cici reads cannot_pair_with_person, no_high_priority, no_collaboration_heavy, cannot_be_sole_owner and no_sensitive_surface".into()),
                },
            );
            return None;
        }
    })
}

/// The sanitized rewrite `hidden_private_constraints` gives the
/// constraint of `person` and `kind`.
fn sanitized_text<'a>(utility: &'a UtilityFile, c: &HiddenConstraint) -> Option<&'a str> {
    utility
        .hidden_private_constraints
        .as_ref()?
        .iter()
        .find(|h| c.person.as_ref() == Some(&h.person) && h.kind == c.kind)
        .and_then(|h| h.sanitized.as_deref())
}

/// A released JIRA bundle as a `jira_allocation` scenario.
pub fn from_bundle(files: &Bundle, source: &str, r: &mut Report) -> Option<Written> {
    let (scenario, utility) = (&files.scenario, &files.utility);
    let mut cast = Cast::read(scenario, r)?;
    let mut boards: Vec<Board> = Vec::new();
    let mut public = BTreeMap::new();
    let mut held = Held::default();
    for (bid, v) in &utility.attribute_values {
        let path = key_path("attribute_values", bid);
        let text = v.value.as_str();
        let bad = |what: &str, r: &mut Report| {
            r.push(
                key_path(&path, "value"),
                ImportError::Shape {
                    expected: what.into(),
                    help: None,
                },
            )
        };
        let says = says(text);
        if let Some((ticket, read)) = says.and_then(|s| onto_board(s, &mut boards)) {
            if let Err(expected) = read {
                bad(expected, r);
            }
            public.insert(bid.clone(), format!("ticket {}", ticket_id(ticket)));
            continue;
        }
        let mut facts = Vec::new();
        match says {
            Some(Says::Specialty { person, skill }) => {
                match (cast.named(person), identifier(skill)) {
                    (Some(p), Some(skill)) => {
                        cast.people[p].skills.push(skill.clone());
                        let id = &cast.people[p].id;
                        public.insert(bid.clone(), format!("person {id} skills [{skill}]"));
                    }
                    _ => bad("a specialty of a person of the cast", r),
                }
                continue;
            }
            Some(Says::Hours { person, hours }) => match (cast.named(person), hours.parse()) {
                (Some(person), Ok(hours)) => {
                    facts.push(Predicate::Jira(JiraPredicate::Capacity { person, hours }))
                }
                _ => bad("`<person> available hours: <hours>`", r),
            },
            _ => {}
        }
        // Something a person holds.
        let mut sanitized = None;
        if let Some(hidden) = &v.hidden_solver_constraint {
            let fact = constraint(
                hidden,
                &cast,
                &key_path(&path, "hidden_solver_constraint"),
                r,
            );
            sanitized = sanitized_text(utility, hidden)
                .and_then(|text| held.carried_rewrite((files, &cast), bid, text, fact.as_ref()));
            if sanitized.is_none() {
                facts.extend(fact);
            }
        }
        held.push((files, &cast), bid, v, facts, sanitized);
    }
    let tickets = tickets(scenario, &boards, r);
    let oracle = oracle(utility, &cast, &tickets, r)?;
    let setting = Setting::Jira(JiraSetting {
        tickets: tickets.into_iter().map(|(_, t)| t).collect(),
    });
    let sc = bundle_scenario(
        scenario,
        cast.people,
        (setting, Decision::Jira(oracle)),
        held.attributes,
        ("Ticket allocation", "Staff every ticket."),
    );
    let mut w = written(&sc, source, BTreeMap::new(), oracle_text(&sc), held.sources);
    w.entry.public = public;
    Some(w)
}

/// A board text entered on its ticket: the ticket's label, and the shape
/// expected when the value does not read. `None` for other texts.
fn onto_board<'a>(
    says: Says<'a>,
    boards: &mut Vec<Board>,
) -> Option<(&'a str, Result<(), &'static str>)> {
    Some(match says {
        Says::Requires {
            ticket,
            skill,
            hours,
        } => {
            let read = match (identifier(skill), hours.parse::<u32>()) {
                (Some(skill), Ok(h)) => {
                    let i = board(boards, ticket);
                    boards[i].seats.push((skill, h));
                    Ok(())
                }
                _ => Err("`<ticket> requires <specialty>: <hours> hours`"),
            };
            (ticket, read)
        }
        Says::Priority { ticket, level } => {
            let i = board(boards, ticket);
            let read = Priority::from_name(&level.to_ascii_lowercase())
                .map(|p| boards[i].priority = Some(p))
                .ok_or("a priority: low, medium or high");
            (ticket, read)
        }
        Says::CollaborationHeavy { ticket, yes: y } => {
            let i = board(boards, ticket);
            let read = yes(y)
                .map(|y| boards[i].collaboration_heavy = y)
                .ok_or("`yes` or `no`");
            (ticket, read)
        }
        Says::Sensitive { ticket, yes: y } => {
            let i = board(boards, ticket);
            let read = yes(y)
                .map(|y| boards[i].sensitive = y)
                .ok_or("`yes` or `no`");
            (ticket, read)
        }
        Says::Specialty { .. } | Says::Hours { .. } => return None,
    })
}

/// The board entry of a ticket label, made on first mention.
fn board(boards: &mut Vec<Board>, label: &str) -> usize {
    if let Some(i) = boards.iter().position(|b| b.label == label) {
        return i;
    }
    boards.push(Board {
        label: label.to_string(),
        seats: Vec::new(),
        priority: None,
        collaboration_heavy: false,
        sensitive: false,
    });
    boards.len() - 1
}

/// `JIRA-001` as a cici id.
fn ticket_id(label: &str) -> String {
    identifier(label).unwrap_or_else(|| "ticket".into())
}

/// The tickets the board describes, each with its label; a ticket cici
/// cannot seat is left out with a diagnostic.
fn tickets<'a>(
    scenario: &ScenarioFile,
    boards: &'a [Board],
    r: &mut Report,
) -> Vec<(&'a str, Ticket)> {
    let mut out = Vec::new();
    for b in boards {
        let (first, second) = match b.seats.as_slice() {
            [first] => (first, None),
            [first, second] => (first, Some(second)),
            seats => {
                r.push(
                    "attribute_values",
                    ImportError::Shape {
                        expected: format!(
                            "one or two specialties on `{}`, not {}",
                            b.label,
                            seats.len()
                        ),
                        help: Some(
                            "a cici ticket has one seat, or two filled by different people".into(),
                        ),
                    },
                );
                continue;
            }
        };
        out.push((
            b.label.as_str(),
            Ticket {
                id: ticket_id(&b.label),
                title: title(scenario, &b.label),
                needs: first.0.clone(),
                hours: first.1,
                pair: second.is_some(),
                with: second
                    .filter(|s| s.0 != first.0 || s.1 != first.1)
                    .map(|(skill, hours)| Seat {
                        skill: skill.clone(),
                        hours: *hours,
                    }),
                priority: b.priority,
                collaboration_heavy: b.collaboration_heavy,
                sensitive: b.sensitive,
                span: Span::DERIVED,
            },
        ));
    }
    out
}

/// `oracle_assignment` (ticket → specialty → person) as one assignment
/// per ticket, seats in the board's order.
fn oracle(
    utility: &UtilityFile,
    cast: &Cast,
    tickets: &[(&str, Ticket)],
    r: &mut Report,
) -> Option<Vec<Assignment>> {
    let Some(given) = &utility.oracle_assignment else {
        r.shape(
            "oracle_assignment",
            "the oracle assignment, {ticket: {specialty: person}}",
        );
        return None;
    };
    for (label, seats) in given {
        let Some((_, t)) = tickets.iter().find(|(l, _)| l == label) else {
            r.push(
                key_path("oracle_assignment", label),
                ImportError::UnknownName {
                    kind: "ticket of the board".into(),
                    name: label.clone(),
                    help: None,
                },
            );
            continue;
        };
        // A specialty the board does not give the ticket.
        let known = |k: &str| {
            (0..t.seats()).any(|i| {
                t.seat(i)
                    .is_some_and(|(skill, _)| Some(skill) == identifier(k).as_deref())
            }) || ["owner", "collaborator"].contains(&k)
        };
        for k in seats.keys() {
            if !known(k) {
                r.push(
                    key_path(&key_path("oracle_assignment", label), k),
                    ImportError::UnknownName {
                        kind: format!("specialty the board gives `{label}`"),
                        name: k.clone(),
                        help: None,
                    },
                );
            }
        }
    }
    let mut out = Vec::new();
    let mut ok = true;
    for (label, t) in tickets {
        let path = key_path("oracle_assignment", label);
        // Seats are keyed by specialty; two seats of one specialty by role.
        let same = t.second_seat().is_some_and(|(skill, _)| skill == t.needs);
        let seat = |i: usize, r: &mut Report| -> Option<PersonId> {
            let (skill, _) = t.seat(i)?;
            let name = match (same, i) {
                (true, 0) => "owner",
                (true, _) => "collaborator",
                _ => skill,
            };
            let key = given
                .get(*label)
                .and_then(|seats| {
                    seats
                        .iter()
                        .find_map(|(k, v)| (identifier(k).as_deref() == Some(name)).then_some(v))
                })
                .map_or("", String::as_str);
            let person = cast.keyed(key);
            if person.is_none() {
                r.push(
                    key_path(&path, name),
                    ImportError::UnknownName {
                        kind: "person of the cast in this seat".into(),
                        name: key.into(),
                        help: None,
                    },
                );
            }
            person
        };
        let owner = seat(0, r);
        let collaborator = if t.pair {
            seat(1, r).map(Some)
        } else {
            Some(None)
        };
        match (owner, collaborator) {
            (Some(owner), Some(collaborator)) => out.push(Assignment {
                owner,
                collaborator,
            }),
            _ => ok = false,
        }
    }
    ok.then_some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn board_and_roster_texts_are_read() {
        assert!(matches!(
            says("Maya Chen specialty: backend"),
            Some(Says::Specialty {
                person: "Maya Chen",
                skill: "backend"
            })
        ));
        assert!(matches!(
            says("JIRA-002 requires security: 1 hour"),
            Some(Says::Requires {
                ticket: "JIRA-002",
                skill: "security",
                hours: "1"
            })
        ));
        assert!(matches!(
            says("JIRA-002 sensitive-data surface: yes."),
            Some(Says::Sensitive {
                ticket: "JIRA-002",
                yes: "yes"
            })
        ));
        assert!(matches!(
            says("Val available hours: 4"),
            Some(Says::Hours {
                person: "Val",
                hours: "4"
            })
        ));
        // A private detail is none of them.
        assert!(says("Val has childcare disruption this week.").is_none());
        assert!(says("Sasha requires quiet").is_none());
    }
}
