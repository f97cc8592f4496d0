//! Idle details for planted scenarios with norms: facts worded as the
//! needed ones are (a personal reason and its sanitized twin, or a work
//! reason) that the public setting makes moot, so that a form reading as
//! needed is not always needed. A flow item asks whether the task needs a
//! statement; without these, every sanitized or operational wording of a
//! planted seed was needed, and the wording alone leaned `yes`.
//!
//! They are drawn from their own stream, so the rest of the scenario is
//! what it was without them.

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use crate::sema::{Decision, MeetingPredicate, Predicate, Scenario, Slot};

/// At most this many idle details per scenario.
const MAX_IDLE: usize = 3;

/// Adds idle details to a meeting scenario: an availability of a team
/// member who attends no meeting, for a time one of the meetings could
/// take (not the one it takes), so that the person joining that meeting
/// makes the detail needed. Other families get none.
pub(super) fn plant(sc: &mut Scenario, seed: u64) {
    let mut rng = ChaCha8Rng::seed_from_u64(seed ^ 0x001d_1ede_7a11);
    let (Some(ms), Decision::Meeting(oracle)) = (sc.meeting_setting().cloned(), sc.oracle.clone())
    else {
        return;
    };
    let idle: Vec<usize> = (0..sc.people.len())
        .filter(|&p| p != sc.executor && !ms.meetings.iter().any(|m| m.attendees.contains(&p)))
        .collect();
    let first = usize::from(rng.random_bool(0.5));
    // Two details for each such person, one of each wording.
    let people = idle.iter().flat_map(|&p| [p, p]).take(MAX_IDLE);
    let mut open: Vec<Slot> = Vec::new();
    for (m, meeting) in ms.meetings.iter().enumerate() {
        for (s, slot) in meeting.slots.iter().enumerate() {
            if s != oracle[m].slot && !open.contains(slot) {
                open.push(*slot);
            }
        }
    }
    for (i, person) in people.enumerate() {
        if open.is_empty() {
            return;
        }
        // Each time once: a person's two details name two times.
        let slot = open.swap_remove(rng.random_range(0..open.len()));
        let fact = Predicate::Meeting(MeetingPredicate::Unavailable { person, slot });
        // Both wordings the needed details take: a sanitized twin or a work reason.
        if (i + first) % 2 == 0 {
            super::add_fact(sc, person, fact, &mut rng);
        } else {
            super::add_operational_fact(sc, person, fact, &mut rng);
        }
    }
}
