//! Lowering of `meeting_allocation`: one placement (slot, room) per meeting.

use std::collections::HashMap;

use super::{scenario_facts, Codec, Constraint, Group, Lit, Model, ModelFact, Var, Violation};
use crate::sema::{MeetingId, PersonId, Placement, Predicate, Scenario};

/// Whether a person attends a meeting: always (public), never, or while a
/// literal holds (an `attends` fact is in force).
#[derive(Clone, Copy, PartialEq, Eq)]
enum Att {
    Always,
    Never,
    When(Lit),
}

impl Att {
    /// The literals to add to a clause that only binds while attending.
    fn guard(self) -> Option<Lit> {
        match self {
            Att::When(l) => Some(!l),
            _ => None,
        }
    }
}

pub(super) fn lower(sc: &Scenario) -> Model {
    let ms = sc
        .meeting_setting()
        .expect("meeting family has a meeting setting");
    let mut options = Vec::new();
    let mut model = Model::new(
        sc.family,
        Codec::Meeting {
            options: Vec::new(),
        },
    );
    // x[m][k] for option k = (slot, room); y[m][slot]; z[m][room position].
    let mut x: Vec<Vec<Var>> = Vec::new();
    let mut y: Vec<Vec<Var>> = Vec::new();
    let mut z: Vec<HashMap<usize, Var>> = Vec::new();
    for m in &ms.meetings {
        let mut opts = Vec::new();
        let mut vars = Vec::new();
        for slot in 0..m.slots.len() {
            for &room in &m.rooms {
                opts.push(Placement { slot, room });
                vars.push(model.new_var());
            }
        }
        model.decision_groups.push(Group {
            name: m.id.clone(),
            options: vars.clone(),
        });
        let ys = (0..m.slots.len())
            .map(|s| {
                let lits: Vec<Lit> = opts
                    .iter()
                    .zip(&vars)
                    .filter(|(o, _)| o.slot == s)
                    .map(|(_, v)| Lit::pos(*v))
                    .collect();
                model.or_var(&lits)
            })
            .collect();
        let zs = m
            .rooms
            .iter()
            .map(|&r| {
                let lits: Vec<Lit> = opts
                    .iter()
                    .zip(&vars)
                    .filter(|(o, _)| o.room == r)
                    .map(|(_, v)| Lit::pos(*v))
                    .collect();
                (r, model.or_var(&lits))
            })
            .collect();
        options.push(opts);
        x.push(vars);
        y.push(ys);
        z.push(zs);
    }

    // Indicators first, so that `attends` facts can make attendees.
    let facts = scenario_facts(sc);
    let indicators: Vec<Var> = facts.iter().map(|_| model.new_var()).collect();
    let n_people = sc.people.len();
    let mut att = vec![vec![Att::Never; ms.meetings.len()]; n_people];
    for (m, meeting) in ms.meetings.iter().enumerate() {
        for &p in &meeting.attendees {
            att[p][m] = Att::Always;
        }
    }
    let mut via_facts: HashMap<(PersonId, MeetingId), Vec<Lit>> = HashMap::new();
    for (i, (_, _, pred)) in facts.iter().enumerate() {
        if let Predicate::Attends { person, meeting } = pred {
            if att[*person][*meeting] != Att::Always {
                via_facts
                    .entry((*person, *meeting))
                    .or_default()
                    .push(Lit::pos(indicators[i]));
            }
        }
    }
    let mut keys: Vec<_> = via_facts.keys().copied().collect();
    keys.sort_unstable();
    for key in keys {
        let lits = &via_facts[&key];
        let lit = if lits.len() == 1 {
            lits[0]
        } else {
            Lit::pos(model.or_var(&lits.clone()))
        };
        att[key.0][key.1] = Att::When(lit);
    }

    // Public constraints.
    for (m, meeting) in ms.meetings.iter().enumerate() {
        let public_count = meeting.attendees.len() as u32;
        let extras: Vec<Lit> = (0..n_people)
            .filter_map(|p| match att[p][m] {
                Att::When(l) => Some(l),
                _ => None,
            })
            .collect();
        for &r in &meeting.rooms {
            let room = &ms.rooms[r];
            let zr = z[m][&r];
            let lacks_feature = meeting.features.iter().any(|f| !room.features.contains(f));
            if lacks_feature || room.capacity < public_count {
                model.public.push(Constraint::Clause(vec![Lit::neg(zr)]));
                continue;
            }
            let slack = room.capacity - public_count;
            let n = extras.len() as u32;
            if n > slack {
                // With the room chosen, at most `slack` extra attendees.
                let mut terms: Vec<(Lit, u32)> = extras.iter().map(|&l| (l, 1)).collect();
                terms.push((Lit::pos(zr), n));
                model.public.push(Constraint::AtMost {
                    terms,
                    bound: slack + n,
                });
            }
        }
    }
    let meetings = &ms.meetings;
    for m1 in 0..meetings.len() {
        for m2 in m1 + 1..meetings.len() {
            // Two meetings in the same room never overlap.
            for (k1, o1) in options[m1].iter().enumerate() {
                for (k2, o2) in options[m2].iter().enumerate() {
                    if o1.room == o2.room
                        && meetings[m1].slots[o1.slot].overlaps(&meetings[m2].slots[o2.slot])
                    {
                        model.public.push(Constraint::Clause(vec![
                            Lit::neg(x[m1][k1]),
                            Lit::neg(x[m2][k2]),
                        ]));
                    }
                }
            }
            // A person never attends two overlapping meetings.
            let mut guards: Vec<Vec<Lit>> = Vec::new();
            for row in att.iter().take(n_people) {
                let (a1, a2) = (row[m1], row[m2]);
                if a1 == Att::Never || a2 == Att::Never {
                    continue;
                }
                let g: Vec<Lit> = a1.guard().into_iter().chain(a2.guard()).collect();
                if !guards.contains(&g) {
                    guards.push(g);
                }
            }
            if guards.iter().any(Vec::is_empty) {
                guards.retain(Vec::is_empty);
            }
            for g in guards {
                for (s1, slot1) in meetings[m1].slots.iter().enumerate() {
                    for (s2, slot2) in meetings[m2].slots.iter().enumerate() {
                        if slot1.overlaps(slot2) {
                            let mut c = g.clone();
                            c.push(Lit::neg(y[m1][s1]));
                            c.push(Lit::neg(y[m2][s2]));
                            model.public.push(Constraint::Clause(c));
                        }
                    }
                }
            }
        }
    }

    // Facts.
    for (i, (origin, status, pred)) in facts.iter().enumerate() {
        let mut holds = Vec::new();
        let mut violated = Vec::new();
        match pred {
            Predicate::Unavailable { person, slot } => {
                for (m, meeting) in meetings.iter().enumerate() {
                    let a = att[*person][m];
                    if a == Att::Never {
                        continue;
                    }
                    for (s, candidate) in meeting.slots.iter().enumerate() {
                        if candidate.overlaps(slot) {
                            holds.push(Constraint::Clause(
                                a.guard().into_iter().chain([Lit::neg(y[m][s])]).collect(),
                            ));
                            if a == Att::Always {
                                violated.push(Violation::All(vec![Lit::pos(y[m][s])]));
                            }
                        }
                    }
                }
            }
            Predicate::AvoidRoom { person, room } => {
                for m in 0..meetings.len() {
                    let a = att[*person][m];
                    if let (true, Some(&zr)) = (a != Att::Never, z[m].get(room)) {
                        holds.push(Constraint::Clause(
                            a.guard().into_iter().chain([Lit::neg(zr)]).collect(),
                        ));
                        if a == Att::Always {
                            violated.push(Violation::All(vec![Lit::pos(zr)]));
                        }
                    }
                }
            }
            Predicate::RequiresFeature { person, feature } => {
                for (m, meeting) in meetings.iter().enumerate() {
                    let a = att[*person][m];
                    if a == Att::Never {
                        continue;
                    }
                    for &r in &meeting.rooms {
                        if ms.rooms[r].features.contains(feature) {
                            continue;
                        }
                        let zr = z[m][&r];
                        holds.push(Constraint::Clause(
                            a.guard().into_iter().chain([Lit::neg(zr)]).collect(),
                        ));
                        if a == Att::Always {
                            violated.push(Violation::All(vec![Lit::pos(zr)]));
                        }
                    }
                }
            }
            Predicate::WithinHours {
                person,
                earliest,
                latest,
            } => {
                let (from, to) = (earliest * 60, latest * 60);
                for (m, meeting) in meetings.iter().enumerate() {
                    let a = att[*person][m];
                    if a == Att::Never {
                        continue;
                    }
                    for (s, candidate) in meeting.slots.iter().enumerate() {
                        if u32::from(candidate.start) < from || u32::from(candidate.end) > to {
                            holds.push(Constraint::Clause(
                                a.guard().into_iter().chain([Lit::neg(y[m][s])]).collect(),
                            ));
                            if a == Att::Always {
                                violated.push(Violation::All(vec![Lit::pos(y[m][s])]));
                            }
                        }
                    }
                }
            }
            Predicate::Before { first, second } => {
                for (s1, slot1) in meetings[*first].slots.iter().enumerate() {
                    for (s2, slot2) in meetings[*second].slots.iter().enumerate() {
                        let (y1, y2) = (y[*first][s1], y[*second][s2]);
                        if slot1.week_end() > slot2.week_start() {
                            holds.push(Constraint::Clause(vec![Lit::neg(y1), Lit::neg(y2)]));
                            violated.push(Violation::All(vec![Lit::pos(y1), Lit::pos(y2)]));
                        }
                    }
                }
            }
            Predicate::NeedsFeature { meeting, feature } => {
                for &r in &meetings[*meeting].rooms {
                    if !ms.rooms[r].features.contains(feature) {
                        let zr = z[*meeting][&r];
                        holds.push(Constraint::Clause(vec![Lit::neg(zr)]));
                        violated.push(Violation::All(vec![Lit::pos(zr)]));
                    }
                }
            }
            Predicate::NotBefore { meeting, slot } | Predicate::NotAfter { meeting, slot } => {
                let before = matches!(pred, Predicate::NotBefore { .. });
                for (s, candidate) in meetings[*meeting].slots.iter().enumerate() {
                    let forbidden = if before {
                        candidate.week_start() < slot.week_start()
                    } else {
                        candidate.week_end() > slot.week_end()
                    };
                    if forbidden {
                        holds.push(Constraint::Clause(vec![Lit::neg(y[*meeting][s])]));
                        violated.push(Violation::All(vec![Lit::pos(y[*meeting][s])]));
                    }
                }
            }
            Predicate::Attends { person, meeting } => {
                // Its effect is in the constraints that mention its indicator;
                // on its own it forbids what one more attendee forbids.
                let m = *meeting;
                if !meetings[m].attendees.contains(person) {
                    let needed = meetings[m].attendees.len() as u32 + 1;
                    for &r in &meetings[m].rooms {
                        if ms.rooms[r].capacity < needed {
                            violated.push(Violation::All(vec![Lit::pos(z[m][&r])]));
                        }
                    }
                    for (m2, other) in meetings.iter().enumerate() {
                        if m2 == m || !other.attendees.contains(person) {
                            continue;
                        }
                        for (s1, slot1) in meetings[m].slots.iter().enumerate() {
                            for (s2, slot2) in other.slots.iter().enumerate() {
                                if slot1.overlaps(slot2) {
                                    violated.push(Violation::All(vec![
                                        Lit::pos(y[m][s1]),
                                        Lit::pos(y[m2][s2]),
                                    ]));
                                }
                            }
                        }
                    }
                }
            }
            _ => unreachable!("meeting facts only"),
        }
        model.facts.push(ModelFact {
            origin: *origin,
            status: *status,
            indicator: indicators[i],
            holds,
            violated: Some(violated),
        });
    }
    model.codec = Codec::Meeting { options };
    model
}
