//! Every spelling of a slot and of a ticket is read back as that slot and
//! that ticket by the text checks' reader, so a text that draws any of
//! them is held to its fact as the first spelling is.

use super::*;
use crate::analysis::mentions::{Named, Reader};
use crate::planted::{generate, Config};
use crate::sema::{Day, Family};

/// Whether a time the reader found is the slot's: the range itself (on
/// the twelve-hour clock where the hours are bare), a time within it, or
/// a part of the day it falls in.
fn within(slot: &Slot, n: &Named) -> bool {
    match *n {
        Named::Time { start, end, twelve } => {
            let later =
                twelve.then(|| (start + 720, end.map(|e| if e <= 720 { e + 720 } else { e })));
            std::iter::once((start, end))
                .chain(later)
                .any(|(a, b)| match b {
                    Some(b) => a == slot.start && b == slot.end,
                    None => slot.start <= a && a <= slot.end,
                })
        }
        Named::PartOfDay(a, b) => slot.start < b && a < slot.end,
        _ => false,
    }
}

#[test]
fn every_slot_spelling_reads_as_its_slot() {
    let sc = generate(&Config::pisas(Family::MeetingAllocation, 3));
    let reader = Reader::new(&sc);
    let mut starts: Vec<(u16, u16)> = (7..22).map(|h| (h * 60, h * 60 + 60)).collect();
    starts.extend([(570, 630), (720, 840), (690, 750), (870, 930), (1380, 1440)]);
    let mut read = 0;
    for day in Day::ALL {
        for &(start, end) in &starts {
            let slot = Slot { day, start, end };
            let all = slot_words(&slot);
            assert!(all.len() >= 6, "{slot:?}");
            assert_eq!(all[0].when, super::super::when_words(&slot));
            for text in all.iter().flat_map(|w| [&w.when, &w.at_when]) {
                let found = reader.read(text);
                let days: Vec<&Named> = found
                    .iter()
                    .map(|m| &m.what)
                    .filter(|n| matches!(n, Named::Day(_)))
                    .collect();
                assert_eq!(days, [&Named::Day(day)], "{text:?}: {found:?}");
                let times: Vec<&Named> = found
                    .iter()
                    .map(|m| &m.what)
                    .filter(|n| !matches!(n, Named::Day(_)))
                    .collect();
                assert!(!times.is_empty(), "{text:?} names no time");
                for t in times {
                    assert!(within(&slot, t), "{text:?}: {t:?} is not {slot:?}");
                }
                read += 1;
            }
        }
    }
    assert!(read > 1000, "only {read} spellings read");
}

#[test]
fn every_ticket_spelling_names_its_ticket_alone() {
    for seed in [3, 11, 29] {
        let sc = generate(&Config::pisas(Family::JiraAllocation, seed));
        let js = sc.jira_setting().expect("a JIRA setting");
        let reader = Reader::new(&sc);
        for t in 0..js.tickets.len() {
            let all = ticket_words(js, t);
            assert_eq!(all[0], js.tickets[t].title);
            assert_eq!(all.len(), 4, "{:?} has a key and a topic", all[0]);
            for text in &all {
                let found: Vec<Named> = reader.read(text).into_iter().map(|m| m.what).collect();
                assert!(!found.is_empty(), "{text:?} names nothing");
                assert!(
                    found.iter().all(|n| *n == Named::Ticket(t)),
                    "{text:?}: {found:?}"
                );
            }
        }
    }
}

#[test]
fn a_topic_is_a_title_after_its_key_of_two_words_or_more() {
    assert_eq!(
        topic("eng_282", "ENG-282 SSO configuration").as_deref(),
        Some("SSO configuration")
    );
    // One word reads as a common word; a title without its key has no topic.
    assert_eq!(topic("eng_1", "ENG-1 login"), None);
    assert_eq!(topic("pay_12", "Checkout timeout bug"), None);
    assert_eq!(topic("eng_2", "Login retry loop"), None);
}
