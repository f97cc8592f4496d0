//! Lowering of `meeting_allocation`: one placement (slot, room) per meeting.

use std::collections::HashMap;

use super::{
    family_facts, Codec, Constraint, FactStatus, Group, Lit, Model, ModelFact, Origin, Var,
    Violation,
};
use crate::sema::{
    MeetingId, MeetingPredicate, MeetingSetting, PersonId, Placement, Predicate, RoomId, Scenario,
    Slot,
};

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

/// A meeting scenario being lowered: the decision variables and who
/// attends what, which the constraints of every section read.
struct Lowering<'s> {
    sc: &'s Scenario,
    ms: &'s MeetingSetting,
    model: Model,
    /// The placements of each meeting, in option order.
    options: Vec<Vec<Placement>>,
    /// x[m][k]: meeting m takes option k.
    x: Vec<Vec<Var>>,
    /// y[m][s]: meeting m is at slot s.
    y: Vec<Vec<Var>>,
    /// z[m][room]: meeting m is in that room.
    z: Vec<HashMap<usize, Var>>,
    /// att[person][meeting].
    att: Vec<Vec<Att>>,
}

/// One fact as lowering reads it.
type FactRow<'p> = (Origin, FactStatus, &'p MeetingPredicate);

/// A fresh variable true exactly when one of the options `keep` picks is
/// chosen.
fn or_where(
    model: &mut Model,
    options: &[Placement],
    vars: &[Var],
    keep: impl Fn(&Placement) -> bool,
) -> Var {
    let lits: Vec<Lit> = options
        .iter()
        .zip(vars)
        .filter(|(o, _)| keep(o))
        .map(|(_, v)| Lit::pos(*v))
        .collect();
    model.or_var(&lits)
}

/// A fact's constraints and the ways a decision can violate it.
type Lowered = (Vec<Constraint>, Vec<Violation>);

pub(super) fn lower<'s>(sc: &'s Scenario, ms: &'s MeetingSetting) -> Model {
    let mut l = Lowering {
        sc,
        ms,
        model: Model::new(Codec::Meeting {
            options: Vec::new(),
        }),
        options: Vec::new(),
        x: Vec::new(),
        y: Vec::new(),
        z: Vec::new(),
        att: Vec::new(),
    };
    l.decision_vars();
    // Indicators first, so that `attends` facts can make attendees.
    let facts = family_facts(sc, Predicate::meeting);
    let indicators: Vec<Var> = facts.iter().map(|_| l.model.new_var()).collect();
    l.attendance(&facts, &indicators);
    l.room_limits();
    l.conflicts();
    for (i, (origin, status, pred)) in facts.iter().enumerate() {
        let (holds, violated) = l.fact(pred);
        l.model.facts.push(ModelFact {
            origin: *origin,
            status: *status,
            indicator: indicators[i],
            holds,
            violated: Some(violated),
        });
    }
    let mut model = l.model;
    model.codec = Codec::Meeting { options: l.options };
    model
}

impl Lowering<'_> {
    /// One option per (slot, room) of each meeting, and the variables
    /// "at slot s" and "in room r" as disjunctions of them.
    fn decision_vars(&mut self) {
        let model = &mut self.model;
        for m in &self.ms.meetings {
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
                .map(|s| or_where(model, &opts, &vars, |o| o.slot == s))
                .collect();
            let zs = m
                .rooms
                .iter()
                .map(|&r| (r, or_where(model, &opts, &vars, |o| o.room == r)))
                .collect();
            self.options.push(opts);
            self.x.push(vars);
            self.y.push(ys);
            self.z.push(zs);
        }
    }

    /// Who attends what: the listed attendees always, and a person an
    /// `attends` fact names while that fact is in force.
    fn attendance(&mut self, facts: &[FactRow], indicators: &[Var]) {
        let meetings = &self.ms.meetings;
        let mut att = vec![vec![Att::Never; meetings.len()]; self.sc.people.len()];
        for (m, meeting) in meetings.iter().enumerate() {
            for &p in &meeting.attendees {
                att[p][m] = Att::Always;
            }
        }
        let mut via_facts: HashMap<(PersonId, MeetingId), Vec<Lit>> = HashMap::new();
        for (i, (_, _, pred)) in facts.iter().enumerate() {
            if let MeetingPredicate::Attends { person, meeting } = pred {
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
                Lit::pos(self.model.or_var(&lits.clone()))
            };
            att[key.0][key.1] = Att::When(lit);
        }
        self.att = att;
    }

    /// A room holds the meeting's features and, with the attendees facts
    /// may add, no more people than its capacity.
    fn room_limits(&mut self) {
        let (ms, n_people) = (self.ms, self.sc.people.len());
        for (m, meeting) in ms.meetings.iter().enumerate() {
            let public_count = meeting.attendees.len() as u32;
            let extras: Vec<Lit> = (0..n_people)
                .filter_map(|p| match self.att[p][m] {
                    Att::When(l) => Some(l),
                    _ => None,
                })
                .collect();
            for &r in &meeting.rooms {
                let room = &ms.rooms[r];
                let zr = self.z[m][&r];
                let lacks_feature = meeting.features.iter().any(|f| !room.features.contains(f));
                if lacks_feature || room.capacity < public_count {
                    self.model
                        .public
                        .push(Constraint::Clause(vec![Lit::neg(zr)]));
                    continue;
                }
                let slack = room.capacity - public_count;
                let n = extras.len() as u32;
                if n > slack {
                    // With the room chosen, at most `slack` extra attendees.
                    let mut terms: Vec<(Lit, u32)> = extras.iter().map(|&l| (l, 1)).collect();
                    terms.push((Lit::pos(zr), n));
                    self.model.public.push(Constraint::AtMost {
                        terms,
                        bound: slack + n,
                    });
                }
            }
        }
    }

    /// Two meetings in one room never overlap, nor two a person attends.
    fn conflicts(&mut self) {
        let meetings = &self.ms.meetings;
        for m1 in 0..meetings.len() {
            for m2 in m1 + 1..meetings.len() {
                self.room_conflicts(m1, m2);
                self.attendee_conflicts(m1, m2);
            }
        }
    }

    fn room_conflicts(&mut self, m1: usize, m2: usize) {
        let meetings = &self.ms.meetings;
        for (k1, o1) in self.options[m1].iter().enumerate() {
            for (k2, o2) in self.options[m2].iter().enumerate() {
                if o1.room == o2.room
                    && meetings[m1].slots[o1.slot].overlaps(&meetings[m2].slots[o2.slot])
                {
                    self.model.public.push(Constraint::Clause(vec![
                        Lit::neg(self.x[m1][k1]),
                        Lit::neg(self.x[m2][k2]),
                    ]));
                }
            }
        }
    }

    fn attendee_conflicts(&mut self, m1: usize, m2: usize) {
        let meetings = &self.ms.meetings;
        let mut guards: Vec<Vec<Lit>> = Vec::new();
        for row in &self.att {
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
                        c.push(Lit::neg(self.y[m1][s1]));
                        c.push(Lit::neg(self.y[m2][s2]));
                        self.model.public.push(Constraint::Clause(c));
                    }
                }
            }
        }
    }

    /// The constraints of one fact, one function per predicate.
    fn fact(&mut self, pred: &MeetingPredicate) -> Lowered {
        match pred {
            MeetingPredicate::Unavailable { person, slot } => {
                self.person_slots(*person, |candidate| candidate.overlaps(slot))
            }
            MeetingPredicate::WithinHours {
                person,
                earliest,
                latest,
            } => {
                let (from, to) = (earliest * 60, latest * 60);
                self.person_slots(*person, |c| {
                    u32::from(c.start) < from || u32::from(c.end) > to
                })
            }
            MeetingPredicate::AvoidRoom { person, room } => {
                self.person_rooms(*person, |r| r == *room)
            }
            MeetingPredicate::RequiresFeature { person, feature } => {
                let rooms = &self.ms.rooms;
                self.person_rooms(*person, |r| !rooms[r].features.contains(feature))
            }
            MeetingPredicate::Before { first, second } => self.before(*first, *second),
            MeetingPredicate::NeedsFeature { meeting, feature } => {
                self.needs_feature(*meeting, feature)
            }
            MeetingPredicate::NotBefore { meeting, slot } => {
                self.meeting_slots(*meeting, |c| c.week_start() < slot.week_start())
            }
            MeetingPredicate::NotAfter { meeting, slot } => {
                self.meeting_slots(*meeting, |c| c.week_end() > slot.week_end())
            }
            MeetingPredicate::Attends { person, meeting } => {
                (Vec::new(), self.attends(*person, *meeting))
            }
        }
    }

    /// No meeting the person attends at a slot `forbidden` picks.
    fn person_slots(&self, person: PersonId, forbidden: impl Fn(&Slot) -> bool) -> Lowered {
        let (mut holds, mut violated) = (Vec::new(), Vec::new());
        for (m, meeting) in self.ms.meetings.iter().enumerate() {
            let a = self.att[person][m];
            if a == Att::Never {
                continue;
            }
            for (s, candidate) in meeting.slots.iter().enumerate() {
                if forbidden(candidate) {
                    let y = self.y[m][s];
                    holds.push(Constraint::Clause(
                        a.guard().into_iter().chain([Lit::neg(y)]).collect(),
                    ));
                    if a == Att::Always {
                        violated.push(Violation::All(vec![Lit::pos(y)]));
                    }
                }
            }
        }
        (holds, violated)
    }

    /// No meeting the person attends in a room `forbidden` picks.
    fn person_rooms(&self, person: PersonId, forbidden: impl Fn(RoomId) -> bool) -> Lowered {
        let (mut holds, mut violated) = (Vec::new(), Vec::new());
        for (m, meeting) in self.ms.meetings.iter().enumerate() {
            let a = self.att[person][m];
            if a == Att::Never {
                continue;
            }
            for &r in meeting.rooms.iter().filter(|&&r| forbidden(r)) {
                let zr = self.z[m][&r];
                holds.push(Constraint::Clause(
                    a.guard().into_iter().chain([Lit::neg(zr)]).collect(),
                ));
                if a == Att::Always {
                    violated.push(Violation::All(vec![Lit::pos(zr)]));
                }
            }
        }
        (holds, violated)
    }

    /// The meeting at no slot `forbidden` picks.
    fn meeting_slots(&self, meeting: MeetingId, forbidden: impl Fn(&Slot) -> bool) -> Lowered {
        let (mut holds, mut violated) = (Vec::new(), Vec::new());
        for (s, candidate) in self.ms.meetings[meeting].slots.iter().enumerate() {
            if forbidden(candidate) {
                let y = self.y[meeting][s];
                holds.push(Constraint::Clause(vec![Lit::neg(y)]));
                violated.push(Violation::All(vec![Lit::pos(y)]));
            }
        }
        (holds, violated)
    }

    fn before(&self, first: MeetingId, second: MeetingId) -> Lowered {
        let (mut holds, mut violated) = (Vec::new(), Vec::new());
        let meetings = &self.ms.meetings;
        for (s1, slot1) in meetings[first].slots.iter().enumerate() {
            for (s2, slot2) in meetings[second].slots.iter().enumerate() {
                let (y1, y2) = (self.y[first][s1], self.y[second][s2]);
                if slot1.week_end() > slot2.week_start() {
                    holds.push(Constraint::Clause(vec![Lit::neg(y1), Lit::neg(y2)]));
                    violated.push(Violation::All(vec![Lit::pos(y1), Lit::pos(y2)]));
                }
            }
        }
        (holds, violated)
    }

    fn needs_feature(&self, meeting: MeetingId, feature: &str) -> Lowered {
        let (mut holds, mut violated) = (Vec::new(), Vec::new());
        for &r in &self.ms.meetings[meeting].rooms {
            if !self.ms.rooms[r].features.iter().any(|f| f == feature) {
                let zr = self.z[meeting][&r];
                holds.push(Constraint::Clause(vec![Lit::neg(zr)]));
                violated.push(Violation::All(vec![Lit::pos(zr)]));
            }
        }
        (holds, violated)
    }

    /// An `attends` fact's effect is in the constraints that mention its
    /// indicator; on its own it forbids what one more attendee forbids.
    fn attends(&self, person: PersonId, m: MeetingId) -> Vec<Violation> {
        let mut violated = Vec::new();
        let meetings = &self.ms.meetings;
        if meetings[m].attendees.contains(&person) {
            return violated;
        }
        let needed = meetings[m].attendees.len() as u32 + 1;
        for &r in &meetings[m].rooms {
            if self.ms.rooms[r].capacity < needed {
                violated.push(Violation::All(vec![Lit::pos(self.z[m][&r])]));
            }
        }
        for (m2, other) in meetings.iter().enumerate() {
            if m2 == m || !other.attendees.contains(&person) {
                continue;
            }
            for (s1, slot1) in meetings[m].slots.iter().enumerate() {
                for (s2, slot2) in other.slots.iter().enumerate() {
                    if slot1.overlaps(slot2) {
                        violated.push(Violation::All(vec![
                            Lit::pos(self.y[m][s1]),
                            Lit::pos(self.y[m2][s2]),
                        ]));
                    }
                }
            }
        }
        violated
    }
}
