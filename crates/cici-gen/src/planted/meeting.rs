//! Planted `meeting_allocation` scenarios.

use rand::seq::{IndexedRandom, SliceRandom};
use rand::Rng;
use rand_chacha::ChaCha8Rng;

use super::{push_attribute, Config};
use crate::sema::*;
use crate::span::Span;

const FEATURES: &[&str] = &[
    "video",
    "projector",
    "whiteboard",
    "quiet",
    "accessible",
    "hybrid",
];

fn slot_pool() -> Vec<Slot> {
    let mut out = Vec::new();
    for day in &Day::ALL[..5] {
        for h in 9..17u16 {
            out.push(Slot {
                day: *day,
                start: h * 60,
                end: h * 60 + 60,
            });
        }
    }
    out
}

/// Room names, in the order rooms are made.
const ROOMS: [&str; 12] = [
    "cedar", "elm", "birch", "maple", "oak", "pine", "willow", "aspen", "juniper", "rowan",
    "hazel", "alder",
];

/// The rooms, each with two to four features and a capacity.
fn rooms(cfg: &Config, rng: &mut ChaCha8Rng) -> Vec<Room> {
    let n_rooms = (cfg.size / 2).clamp(3, 12);
    (0..n_rooms)
        .map(|r| {
            let k = rng.random_range(2..=4);
            let mut features: Vec<String> = FEATURES
                .choose_multiple(rng, k)
                .map(|s| s.to_string())
                .collect();
            features.sort();
            let id = super::pooled(&ROOMS, r);
            Room {
                name: Some(super::display(&id)),
                id,
                capacity: *[3u32, 4, 6, 8, 12].choose(rng).expect("non-empty"),
                features,
                span: Span::DERIVED,
            }
        })
        .collect()
}

pub(super) fn setting(cfg: &Config, rng: &mut ChaCha8Rng) -> Scenario {
    let n = cfg.people.max(3);
    let people = super::people(n, ("ops", "Jordan Ops", "Operations Lead"), rng);
    let rooms = rooms(cfg, rng);
    let pool = slot_pool();
    let mut meetings: Vec<Meeting> = Vec::new();
    let mut oracle: Vec<Placement> = Vec::new();
    for m in 0..cfg.size.max(1) {
        let largest = rooms.iter().map(|r| r.capacity as usize).max().unwrap_or(3);
        let k = rng.random_range(2..=4.min(n - 1).min(largest));
        let attendees: Vec<PersonId> = (1..n)
            .collect::<Vec<_>>()
            .choose_multiple(rng, k)
            .copied()
            .collect();
        // The oracle placement first: a slot and room free of conflicts with
        // the meetings placed so far.
        let fits: Vec<usize> = (0..rooms.len())
            .filter(|&r| rooms[r].capacity as usize >= attendees.len())
            .collect();
        let mut placed = None;
        for _ in 0..200 {
            let slot = *pool.choose(rng).expect("non-empty");
            let room = *fits
                .choose(rng)
                .expect("attendees are at most the largest capacity");
            let clash = meetings.iter().zip(&oracle).any(|(other, p)| {
                let s = other.slots[p.slot];
                s.overlaps(&slot)
                    && (p.room == room || other.attendees.iter().any(|a| attendees.contains(a)))
            });
            if !clash {
                placed = Some((slot, room));
                break;
            }
        }
        let Some((slot, room)) = placed else { continue };
        let mut slots = vec![slot];
        let extra = rng.random_range(1..=3);
        for s in pool.choose_multiple(rng, extra) {
            if !slots.contains(s) {
                slots.push(*s);
            }
        }
        slots.shuffle(rng);
        let mut room_ids = vec![room];
        let extra = rng.random_range(0..=2);
        for r in fits.choose_multiple(rng, extra) {
            if !room_ids.contains(r) {
                room_ids.push(*r);
            }
        }
        room_ids.sort_unstable();
        oracle.push(Placement {
            slot: slots
                .iter()
                .position(|s| *s == slot)
                .expect("oracle slot is a candidate"),
            room,
        });
        meetings.push(Meeting {
            id: format!("meet_{:03}", m + 1),
            title: format!("MEET-{:03} {}", m + 1, topic(cfg.seed, m)),
            attendees,
            slots,
            rooms: room_ids,
            features: Vec::new(),
            span: Span::DERIVED,
        });
    }
    let id = cfg
        .id
        .clone()
        .unwrap_or_else(|| format!("meeting_planted_{}", cfg.seed));
    Scenario::derived(
        id,
        format!("{} team scheduling", super::team(cfg.seed)),
        "Schedule every outstanding meeting into one room and one time window.",
        people,
        Setting::Meeting(MeetingSetting { rooms, meetings }),
        Decision::Meeting(oracle),
    )
}

/// Facts that would rule out `other` where `oracle` is the decision; the
/// caller keeps those that allow the oracle.
pub(super) fn candidates(sc: &Scenario, oracle: &Decision, other: &Decision) -> Vec<Predicate> {
    let (Some(ms), Decision::Meeting(o), Decision::Meeting(d)) =
        (sc.meeting_setting(), oracle, other)
    else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for (m, (a, b)) in o.iter().zip(d).enumerate() {
        let meeting = &ms.meetings[m];
        let (sa, sb) = (meeting.slots[a.slot], meeting.slots[b.slot]);
        if a.slot != b.slot {
            for &p in &meeting.attendees {
                // Twice: availability facts read most natural, so they are drawn more often.
                out.extend(std::iter::repeat_n(
                    Predicate::Meeting(MeetingPredicate::Unavailable {
                        person: p,
                        slot: sb,
                    }),
                    2,
                ));
            }
            if sb.week_start() < sa.week_start() {
                out.push(Predicate::Meeting(MeetingPredicate::NotBefore {
                    meeting: m,
                    slot: sa,
                }));
            } else {
                out.push(Predicate::Meeting(MeetingPredicate::NotAfter {
                    meeting: m,
                    slot: sa,
                }));
            }
        }
        if a.room != b.room {
            for &p in &meeting.attendees {
                out.push(Predicate::Meeting(MeetingPredicate::AvoidRoom {
                    person: p,
                    room: b.room,
                }));
            }
            for f in &ms.rooms[a.room].features {
                if !ms.rooms[b.room].features.contains(f) {
                    out.push(Predicate::Meeting(MeetingPredicate::NeedsFeature {
                        meeting: m,
                        feature: f.clone(),
                    }));
                }
            }
        }
    }
    out
}

/// Drops a candidate of `other` that the oracle does not use; false if
/// there is none.
pub(super) fn narrow(sc: &mut Scenario, other: &Decision) -> bool {
    let (Decision::Meeting(o), Decision::Meeting(d)) = (sc.oracle.clone(), other) else {
        return false;
    };
    let Setting::Meeting(ms) = &mut sc.setting else {
        return false;
    };
    for (m, (a, b)) in o.iter().zip(d).enumerate() {
        let meeting = &mut ms.meetings[m];
        if a.room != b.room {
            meeting.rooms.retain(|r| *r != b.room);
            return true;
        }
        if a.slot != b.slot {
            let keep = meeting.slots[a.slot];
            meeting.slots.remove(b.slot);
            let slot = meeting
                .slots
                .iter()
                .position(|s| *s == keep)
                .expect("the oracle slot stays");
            if let Decision::Meeting(ps) = &mut sc.oracle {
                ps[m].slot = slot;
            }
            return true;
        }
    }
    false
}

/// Soft room dislikes: traps when they name the oracle's room of one of the
/// person's meetings, benign otherwise.
pub(super) fn distractors(sc: &mut Scenario, n: usize, rng: &mut ChaCha8Rng) {
    let Decision::Meeting(oracle) = sc.oracle.clone() else {
        return;
    };
    let ms = sc.meeting_setting().expect("meeting").clone();
    for i in 0..n {
        let m = rng.random_range(0..ms.meetings.len());
        let Some(&person) = ms.meetings[m].attendees.choose(rng) else {
            continue;
        };
        let used: Vec<RoomId> = (0..ms.meetings.len())
            .filter(|&k| ms.meetings[k].attendees.contains(&person))
            .map(|k| oracle[k].room)
            .collect();
        let room = if i % 2 == 0 {
            oracle[m].room
        } else {
            match (0..ms.rooms.len())
                .filter(|r| !used.contains(r))
                .collect::<Vec<_>>()
                .choose(rng)
            {
                Some(&r) => r,
                None => continue,
            }
        };
        let vars = [
            ("name", sc.people[person].name.clone()),
            (
                "room",
                ms.rooms[room]
                    .name
                    .clone()
                    .unwrap_or_else(|| ms.rooms[room].id.clone()),
            ),
        ];
        let texts = crate::phrasing::FactTexts::builtin();
        let raw = crate::phrasing::soft(texts, "avoid_room", &vars, rng)
            .unwrap_or_else(|| format!("{} would rather not meet in {}.", vars[0].1, vars[1].1));
        push_attribute(
            sc,
            person,
            Some(Category::Preference),
            raw,
            None,
            Vec::new(),
            vec![Predicate::Meeting(MeetingPredicate::AvoidRoom {
                person,
                room,
            })],
        );
    }
}

/// What a meeting is for, for its title: the meetings of a scenario take
/// consecutive topics from an offset the seed picks.
fn topic(seed: u64, m: usize) -> &'static str {
    const TOPICS: [&str; 16] = [
        "roadmap sync",
        "design critique",
        "hiring debrief",
        "budget check-in",
        "incident retro",
        "customer call prep",
        "sprint planning",
        "vendor demo",
        "quarterly review",
        "onboarding walkthrough",
        "architecture huddle",
        "launch readiness",
        "support escalation",
        "pricing workshop",
        "team offsite prep",
        "security briefing",
    ];
    TOPICS[(seed as usize).wrapping_mul(3).wrapping_add(m) % TOPICS.len()]
}
