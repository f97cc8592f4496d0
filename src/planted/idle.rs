//! Idle details for planted scenarios with norms: facts worded as the
//! needed ones are (a personal reason and its sanitized twin, or a work
//! reason) that the public setting makes moot, so that a form reading as
//! needed is not always needed. A flow item asks whether the task needs a
//! statement; without these, every sanitized or operational wording of a
//! planted seed was needed, and the wording alone leaned `yes`.
//!
//! They are drawn from their own stream, so the rest of the scenario is
//! what it was without them.

use rand::seq::IndexedRandom;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use crate::sema::{Decision, MeetingPredicate, Predicate, Scenario};

/// At most this many idle details per scenario.
const MAX_IDLE: usize = 2;

/// Adds idle details to a meeting scenario: an availability of a team
/// member who attends no meeting, for a time one of the meetings could
/// take (not the one it takes), so that the person joining that meeting
/// makes the detail needed. Other families get none.
pub(super) fn plant(sc: &mut Scenario, seed: u64) {
    let mut rng = ChaCha8Rng::seed_from_u64(seed ^ 0x1d1e_de7a_11);
    let (Some(ms), Decision::Meeting(oracle)) = (sc.meeting_setting().cloned(), sc.oracle.clone())
    else {
        return;
    };
    let idle: Vec<usize> = (0..sc.people.len())
        .filter(|&p| p != sc.executor && !ms.meetings.iter().any(|m| m.attendees.contains(&p)))
        .collect();
    for (i, &person) in idle.iter().take(MAX_IDLE).enumerate() {
        let open: Vec<(usize, usize)> = ms
            .meetings
            .iter()
            .enumerate()
            .flat_map(|(m, meeting)| {
                let taken = oracle[m].slot;
                (0..meeting.slots.len())
                    .filter(move |&s| s != taken)
                    .map(move |s| (m, s))
            })
            .collect();
        let Some(&(m, s)) = open.choose(&mut rng) else {
            return;
        };
        let fact = Predicate::Meeting(MeetingPredicate::Unavailable {
            person,
            slot: ms.meetings[m].slots[s],
        });
        // Both wordings the needed details take: a sanitized twin or a work reason.
        if (i + usize::from(rng.random_bool(0.5))) % 2 == 0 {
            super::add_fact(sc, person, fact, &mut rng);
        } else {
            super::add_operational_fact(sc, person, fact, &mut rng);
        }
    }
}
