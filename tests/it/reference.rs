//! An oracle that is not the product: the meaning of a scenario written
//! again from `docs/language.md`, evaluated on concrete decisions by brute
//! force. It shares nothing with cici's model, solver or helper semantics:
//! only the resolved scenario's data types. Slot overlap, week order,
//! rubric evaluation and exclusions are written here afresh.

use std::collections::BTreeSet;

use cici::sema::*;

/// Minutes since Monday 00:00 at which a slot starts and ends.
fn minutes(s: &Slot) -> (u32, u32) {
    let day = match s.day {
        Day::Mon => 0,
        Day::Tue => 1,
        Day::Wed => 2,
        Day::Thu => 3,
        Day::Fri => 4,
        Day::Sat => 5,
        Day::Sun => 6,
    };
    (
        day * 1440 + u32::from(s.start),
        day * 1440 + u32::from(s.end),
    )
}

/// Two slots share a minute.
fn overlap(a: &Slot, b: &Slot) -> bool {
    let ((a0, a1), (b0, b1)) = (minutes(a), minutes(b));
    a0 < b1 && b0 < a1
}

fn holds(c: &Condition, values: &[usize]) -> bool {
    match c {
        Condition::Eq(v, x) => values[*v] == *x,
        Condition::Ne(v, x) => values[*v] != *x,
        Condition::In(v, xs) => xs.iter().any(|x| *x == values[*v]),
        Condition::Not(inner) => !holds(inner, values),
        Condition::And(cs) => cs.iter().all(|c| holds(c, values)),
        Condition::Or(cs) => cs.iter().any(|c| holds(c, values)),
    }
}

/// The levels some valid configuration consistent with the facts gets.
pub fn levels(ss: &RuleSetting, facts: &[&Predicate]) -> BTreeSet<LevelId> {
    let mut out = BTreeSet::new();
    let n = ss.evidence.len();
    let sizes: Vec<usize> = ss.evidence.iter().map(|e| e.values.len()).collect();
    let total: usize = sizes.iter().product();
    for mut k in 0..total {
        let mut values = vec![0; n];
        for (i, size) in sizes.iter().enumerate() {
            values[i] = k % size;
            k /= size;
        }
        if ss.excludes.iter().any(|e| holds(&e.when, &values)) {
            continue;
        }
        let consistent = facts.iter().all(|f| match f {
            Predicate::Rule(RulePredicate::Evidence { variable, value }) => {
                values[*variable] == *value
            }
            _ => true,
        });
        if !consistent {
            continue;
        }
        let level = ss
            .rubric
            .rules
            .iter()
            .find(|r| holds(&r.when, &values))
            .map(|r| r.level)
            .or(ss.rubric.otherwise);
        let Some(level) = level else { continue };
        let wanted = facts.iter().all(|f| match f {
            Predicate::Rule(RulePredicate::Toward { level: l }) => *l == level,
            _ => true,
        });
        if wanted {
            out.insert(level);
        }
    }
    out
}

fn meeting_ok(sc: &Scenario, ms: &MeetingSetting, ps: &[Placement], facts: &[&Predicate]) -> bool {
    let mut who: Vec<BTreeSet<PersonId>> = ms
        .meetings
        .iter()
        .map(|m| m.attendees.iter().copied().collect())
        .collect();
    for f in facts {
        if let Predicate::Meeting(MeetingPredicate::Attends { person, meeting }) = f {
            who[*meeting].insert(*person);
        }
    }
    let _ = sc;
    let when = |m: usize| &ms.meetings[m].slots[ps[m].slot];
    for (m, p) in ps.iter().enumerate() {
        let room = &ms.rooms[p.room];
        if room.capacity < who[m].len() as u32
            || !ms.meetings[m]
                .features
                .iter()
                .all(|f| room.features.contains(f))
        {
            return false;
        }
    }
    for a in 0..ps.len() {
        for b in a + 1..ps.len() {
            if overlap(when(a), when(b))
                && (ps[a].room == ps[b].room || !who[a].is_disjoint(&who[b]))
            {
                return false;
            }
        }
    }
    facts.iter().all(|f| match f {
        Predicate::Meeting(MeetingPredicate::Unavailable { person, slot }) => {
            (0..ps.len()).all(|m| !who[m].contains(person) || !overlap(when(m), slot))
        }
        Predicate::Meeting(MeetingPredicate::AvoidRoom { person, room }) => {
            (0..ps.len()).all(|m| !who[m].contains(person) || ps[m].room != *room)
        }
        Predicate::Meeting(MeetingPredicate::NeedsFeature { meeting, feature }) => {
            ms.rooms[ps[*meeting].room].features.contains(feature)
        }
        Predicate::Meeting(MeetingPredicate::NotBefore { meeting, slot }) => {
            minutes(when(*meeting)).0 >= minutes(slot).0
        }
        Predicate::Meeting(MeetingPredicate::NotAfter { meeting, slot }) => {
            minutes(when(*meeting)).1 <= minutes(slot).1
        }
        Predicate::Meeting(MeetingPredicate::RequiresFeature { person, feature }) => (0..ps.len())
            .all(|m| !who[m].contains(person) || ms.rooms[ps[m].room].features.contains(feature)),
        Predicate::Meeting(MeetingPredicate::WithinHours {
            person,
            earliest,
            latest,
        }) => (0..ps.len()).all(|m| {
            let s = when(m);
            !who[m].contains(person)
                || (u32::from(s.start) >= earliest * 60 && u32::from(s.end) <= latest * 60)
        }),
        Predicate::Meeting(MeetingPredicate::Before { first, second }) => {
            minutes(when(*first)).1 <= minutes(when(*second)).0
        }
        _ => true,
    })
}

/// The skill and hours of a ticket's second seat: its own with `with`, the
/// first seat's for a plain `pair`.
fn second_seat(t: &Ticket) -> (&str, u32) {
    match &t.with {
        Some(w) => (w.skill.as_str(), w.hours),
        None => (t.needs.as_str(), t.hours),
    }
}

fn jira_ok(sc: &Scenario, js: &JiraSetting, asg: &[Assignment], facts: &[&Predicate]) -> bool {
    let people = |t: usize| -> Vec<PersonId> {
        let mut v = vec![asg[t].owner];
        v.extend(asg[t].collaborator);
        v
    };
    for (t, ticket) in js.tickets.iter().enumerate() {
        if ticket.pair != asg[t].collaborator.is_some() || asg[t].collaborator == Some(asg[t].owner)
        {
            return false;
        }
        if !sc.people[asg[t].owner].skills.contains(&ticket.needs) {
            return false;
        }
        if let Some(c) = asg[t].collaborator {
            let skill = second_seat(ticket).0;
            if !sc.people[c].skills.iter().any(|s| s == skill) {
                return false;
            }
        }
    }
    let on = |t: usize, p: PersonId| people(t).contains(&p);
    facts.iter().all(|f| match f {
        Predicate::Jira(JiraPredicate::Capacity { person, hours }) => {
            let mut load = 0u64;
            for (t, ticket) in js.tickets.iter().enumerate() {
                if asg[t].owner == *person {
                    load += u64::from(ticket.hours);
                }
                if asg[t].collaborator == Some(*person) {
                    load += u64::from(second_seat(ticket).1);
                }
            }
            load <= u64::from(*hours)
        }
        Predicate::Jira(JiraPredicate::NoHighPriority { person }) => (0..asg.len())
            .all(|t| js.tickets[t].priority != Some(Priority::High) || !on(t, *person)),
        Predicate::Jira(JiraPredicate::NoCollaborationHeavy { person }) => {
            (0..asg.len()).all(|t| {
                let heavy = js.tickets[t].collaboration_heavy || asg[t].collaborator.is_some();
                !heavy || !on(t, *person)
            })
        }
        Predicate::Jira(JiraPredicate::CannotBeSoleOwner { person }) => {
            (0..asg.len()).all(|t| asg[t].collaborator.is_some() || !on(t, *person))
        }
        Predicate::Jira(JiraPredicate::CannotOwn { person, ticket }) => {
            asg[*ticket].owner != *person
        }
        Predicate::Jira(JiraPredicate::NoSensitive { person }) => {
            (0..asg.len()).all(|t| !js.tickets[t].sensitive || !on(t, *person))
        }
        Predicate::Jira(JiraPredicate::CannotPair { a, b }) => {
            a == b || (0..asg.len()).all(|t| !(on(t, *a) && on(t, *b)))
        }
        Predicate::Jira(JiraPredicate::Unavailable { person }) => {
            (0..asg.len()).all(|t| !on(t, *person))
        }
        _ => true,
    })
}

/// Whether the public setting and `facts` allow the decision.
pub fn allowed(sc: &Scenario, d: &Decision, facts: &[&Predicate]) -> bool {
    match (&sc.setting, d) {
        (Setting::Meeting(ms), Decision::Meeting(ps)) => meeting_ok(sc, ms, ps, facts),
        (Setting::Jira(js), Decision::Jira(asg)) => jira_ok(sc, js, asg, facts),
        (Setting::Rule(ss), Decision::Rule(l)) => levels(ss, facts).contains(l),
        _ => false,
    }
}

/// How many decisions the space has.
pub fn space_size(sc: &Scenario) -> usize {
    let n = sc.people.len();
    match &sc.setting {
        Setting::Meeting(ms) => ms
            .meetings
            .iter()
            .map(|m| m.slots.len() * m.rooms.len())
            .product(),
        Setting::Jira(js) => js
            .tickets
            .iter()
            .map(|t| if t.pair { n * n } else { n })
            .product(),
        Setting::Rule(ss) => ss.levels.len(),
    }
}

/// Every decision of the space: each meeting at one of its slots in one of
/// its rooms, each ticket to one person (two for a pair), or one level.
pub fn space(sc: &Scenario) -> Vec<Decision> {
    let mut out: Vec<Vec<usize>> = vec![Vec::new()];
    let domains: Vec<usize> = match &sc.setting {
        Setting::Meeting(ms) => ms
            .meetings
            .iter()
            .map(|m| m.slots.len() * m.rooms.len())
            .collect(),
        Setting::Jira(js) => {
            let n = sc.people.len();
            js.tickets
                .iter()
                .map(|t| if t.pair { n * n } else { n })
                .collect()
        }
        Setting::Rule(ss) => vec![ss.levels.len()],
    };
    for size in &domains {
        out = out
            .into_iter()
            .flat_map(|prefix| {
                (0..*size).map(move |i| {
                    let mut p = prefix.clone();
                    p.push(i);
                    p
                })
            })
            .collect();
        assert!(
            out.len() <= 200_000,
            "the space is too large for brute force"
        );
    }
    out.into_iter()
        .map(|c| match &sc.setting {
            Setting::Meeting(ms) => Decision::Meeting(
                c.iter()
                    .zip(&ms.meetings)
                    .map(|(&i, m)| Placement {
                        slot: i / m.rooms.len(),
                        room: m.rooms[i % m.rooms.len()],
                    })
                    .collect(),
            ),
            Setting::Jira(js) => {
                let n = sc.people.len();
                Decision::Jira(
                    c.iter()
                        .zip(&js.tickets)
                        .map(|(&i, t)| Assignment {
                            owner: if t.pair { i / n } else { i },
                            collaborator: t.pair.then_some(i % n),
                        })
                        .collect(),
                )
            }
            Setting::Rule(_) => Decision::Rule(c[0]),
        })
        .collect()
}

/// The decisions allowed with `facts` in force.
pub fn allowed_set(sc: &Scenario, facts: &[&Predicate]) -> BTreeSet<Decision> {
    space(sc)
        .into_iter()
        .filter(|d| allowed(sc, d, facts))
        .collect()
}

/// One fact of the scenario and how it may be used.
pub struct RefFact {
    pub attribute: usize,
    pub predicate: Predicate,
    /// Appropriate hard facts count; inappropriate and soft ones do not.
    pub appropriate: bool,
}

/// The facts in the order the attributes list them: the form that carries
/// the facts, then the soft facts, then the claims.
pub fn facts(sc: &Scenario) -> Vec<RefFact> {
    let mut out = Vec::new();
    for (a, attr) in sc.attributes.iter().enumerate() {
        let form = match &attr.sanitized {
            Some(s) if !s.facts.is_empty() => s,
            _ => &attr.raw,
        };
        for f in &form.facts {
            out.push(RefFact {
                attribute: a,
                predicate: f.predicate.clone(),
                appropriate: form.appropriate,
            });
        }
        for f in attr.soft.iter().chain(&attr.claims) {
            out.push(RefFact {
                attribute: a,
                predicate: f.predicate.clone(),
                appropriate: false,
            });
        }
    }
    out
}

/// Relevance as language.md defines it: the fact forbids a decision the
/// public constraints allow, or (rule-based families) one the other
/// appropriate facts allow.
pub fn relevant(sc: &Scenario, all: &[RefFact], f: usize) -> bool {
    let fact = &all[f].predicate;
    if let Setting::Rule(ss) = &sc.setting {
        let public = levels(ss, &[]);
        if !public.is_subset(&levels(ss, &[fact])) {
            return true;
        }
        if !all[f].appropriate {
            return false;
        }
        let others: Vec<&Predicate> = all
            .iter()
            .enumerate()
            .filter(|(g, x)| *g != f && x.appropriate)
            .map(|(_, x)| &x.predicate)
            .collect();
        let mut with = others.clone();
        with.push(fact);
        return !levels(ss, &others).is_subset(&levels(ss, &with));
    }
    allowed_set(sc, &[])
        .iter()
        .any(|d| !allowed(sc, d, &[fact]))
}

/// The class of every attribute, by brute force, when the oracle is the
/// one allowed decision; `None` otherwise.
pub fn classes(sc: &Scenario) -> Option<Vec<&'static str>> {
    let all = facts(sc);
    let hard: Vec<&Predicate> = all
        .iter()
        .filter(|f| f.appropriate)
        .map(|f| &f.predicate)
        .collect();
    let allowed_now = allowed_set(sc, &hard);
    if allowed_now.len() != 1 || !allowed_now.contains(&sc.oracle) {
        return None;
    }
    let without = |f: usize| -> Vec<&Predicate> {
        all.iter()
            .enumerate()
            .filter(|(g, x)| *g != f && x.appropriate)
            .map(|(_, x)| &x.predicate)
            .collect()
    };
    let mut out = Vec::new();
    for a in 0..sc.attributes.len() {
        let mine: Vec<usize> = (0..all.len()).filter(|&f| all[f].attribute == a).collect();
        let hard_mine: Vec<usize> = mine
            .iter()
            .copied()
            .filter(|&f| all[f].appropriate)
            .collect();
        let class = if !hard_mine.is_empty() {
            if hard_mine
                .iter()
                .any(|&f| allowed_set(sc, &without(f)).len() > 1)
            {
                "critical"
            } else if hard_mine.iter().any(|&f| relevant(sc, &all, f)) {
                "supporting"
            } else {
                "idle"
            }
        } else if !mine.is_empty() {
            let trap = mine.iter().any(|&s| {
                let mut with = hard.clone();
                with.push(&all[s].predicate);
                !allowed(sc, &sc.oracle, &with) && !back_to_oracle(sc, &hard, &all[s].predicate)
            });
            if trap {
                "trap"
            } else {
                "benign"
            }
        } else {
            "irrelevant"
        };
        out.push(class);
    }
    Some(out)
}

/// Whether a reader who honours `s` as binding, giving up the fewest of
/// the `hard` facts it must (at most three), reaches the oracle alone: a
/// detail that only contradicts an appropriate fact is then no trap.
fn back_to_oracle(sc: &Scenario, hard: &[&Predicate], s: &Predicate) -> bool {
    for k in 1..=hard.len().min(3) {
        let mut found = BTreeSet::new();
        for dropped in subsets(hard.len(), k) {
            let rest: Vec<&Predicate> = hard
                .iter()
                .enumerate()
                .filter(|(i, _)| !dropped.contains(i))
                .map(|(_, p)| *p)
                .chain(std::iter::once(s))
                .collect();
            found.extend(allowed_set(sc, &rest));
        }
        if !found.is_empty() {
            return found.len() == 1 && found.contains(&sc.oracle);
        }
    }
    false
}

/// Every set of `k` indices below `n`, each in increasing order.
fn subsets(n: usize, k: usize) -> Vec<Vec<usize>> {
    if k == 0 {
        return vec![Vec::new()];
    }
    (k - 1..n)
        .flat_map(|last| {
            subsets(last, k - 1).into_iter().map(move |mut s| {
                s.push(last);
                s
            })
        })
        .collect()
}
