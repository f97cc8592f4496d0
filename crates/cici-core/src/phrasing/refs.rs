//! The ways people refer to a time slot and to a ticket: a slot as
//! `Tuesday 10-11`, `between 10 and 11 on Tuesday`, `Tue 10:00–11:00`,
//! `Tuesday morning from 10 to 11`; a ticket by its title, its key, or its
//! topic (`the SSO configuration ticket`, `SSO configuration (ENG-282)`).
//! A text draws one, and every spelling is one the text checks read back
//! (`analysis::clock`, `analysis::mentions`).

use std::collections::BTreeMap;

use rand::Rng;
use rand_chacha::ChaCha8Rng;

use crate::sema::{ArgValue, JiraSetting, Predicate, Scenario, Slot};

/// A slot in words: `when` starts with its day and stands as a noun
/// ("Tuesday 10-11 won't work", "on Tuesday 10-11", "is unavailable
/// Tuesday 10-11"); `at_when` stands alone as an adverbial ("between 10
/// and 11 on Tuesday").
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SlotWords {
    /// The slot as a noun, its day first (`Tuesday 10-11`).
    pub when: String,
    /// The slot as an adverbial that stands alone (`between 10 and 11 on
    /// Tuesday`).
    pub at_when: String,
}

/// `14`, `9:30`: a time on the 24-hour clock, the hour bare.
fn h24(m: u16) -> String {
    if m.is_multiple_of(60) {
        format!("{}", m / 60)
    } else {
        format!("{}:{:02}", m / 60, m % 60)
    }
}

/// `09:00`, `14:30`.
fn hhmm(m: u16) -> String {
    format!("{:02}:{:02}", m / 60, m % 60)
}

/// The hour on a twelve-hour clock, with its minutes: `2`, `9:30`.
fn h12(m: u16) -> String {
    let h = (m / 60) % 12;
    let h = if h == 0 { 12 } else { h };
    if m.is_multiple_of(60) {
        format!("{h}")
    } else {
        format!("{h}:{:02}", m % 60)
    }
}

/// `10am`, `2:30pm`, `noon`.
fn ampm(m: u16) -> String {
    match m {
        720 => "noon".into(),
        1440 => "midnight".into(),
        m if m < 720 => format!("{}am", h12(m)),
        m => format!("{}pm", h12(m)),
    }
}

/// `10-11am`, `2-3pm`, `12-1pm`, or `11am-1pm` across noon: the
/// meridiem once, where the reader carries it back to the first hour.
fn ampm_range(s: u16, e: u16) -> String {
    let whole = s.is_multiple_of(60) && e.is_multiple_of(60);
    if whole && e < 720 {
        format!("{}-{}am", h12(s), h12(e))
    } else if whole && s >= 720 && e > s && e < 1440 {
        format!("{}-{}pm", h12(s), h12(e))
    } else {
        format!("{}-{}", ampm(s), ampm(e))
    }
}

/// The part of the day a slot falls in, and the slot's hours as people
/// say them after it: `morning` and `10 to 11`; `afternoon` and `2 to 3`
/// (a bare hour reads on the twelve-hour clock), `12 to 1pm`. `None` for
/// a slot no part of the day holds whole.
fn part_of_day(s: u16, e: u16) -> Option<(&'static str, String)> {
    let whole = s.is_multiple_of(60) && e.is_multiple_of(60);
    let part = match (s, e) {
        (_, e) if e <= 720 => "morning",
        (s, e) if s >= 720 && e <= 1080 => "afternoon",
        (s, e) if s >= 1020 && e <= 1440 => "evening",
        _ => return None,
    };
    let hours = if !whole {
        format!("{} to {}", h24(s), h24(e))
    } else if s == 720 {
        format!("12 to {}pm", h12(e))
    } else {
        format!("{} to {}", h12(s), h12(e))
    };
    Some((part, hours))
}

/// Every way of saying `slot`; the first is the one a fix-it uses
/// (`Tuesday from 10 to 11`).
pub fn slot_words(slot: &Slot) -> Vec<SlotWords> {
    let day = slot.day.name();
    // `Sat` and `Sun` are words of their own: only weekdays are cut short.
    let short = if slot.day >= crate::sema::Day::Sat {
        day
    } else {
        &day[..3]
    };
    let (s, e) = (slot.start, slot.end);
    let both = |when: String, at_when: String| SlotWords { when, at_when };
    let mut out = vec![
        both(
            format!("{day} from {} to {}", h24(s), h24(e)),
            format!("on {day} from {} to {}", h24(s), h24(e)),
        ),
        both(
            format!("{day} {}-{}", h24(s), h24(e)),
            format!("on {day} {}-{}", h24(s), h24(e)),
        ),
        both(
            format!("{day} between {} and {}", h24(s), h24(e)),
            format!("between {} and {} on {day}", h24(s), h24(e)),
        ),
        both(
            format!("{day}, {} to {}", ampm(s), ampm(e)),
            format!("from {} to {} on {day}", ampm(s), ampm(e)),
        ),
        both(
            format!("{short} {}–{}", hhmm(s), hhmm(e)),
            format!("on {short} {}–{}", hhmm(s), hhmm(e)),
        ),
        both(
            format!("{day} {}", ampm_range(s, e)),
            format!("{} on {day}", ampm_range(s, e)),
        ),
    ];
    if let Some((part, hours)) = part_of_day(s, e) {
        out.push(both(
            format!("{day} {part} from {hours}"),
            format!("on {day} {part} from {hours}"),
        ));
    }
    out
}

/// A ticket's topic: its title without the key it starts with
/// (`SSO configuration` for `ENG-282 SSO configuration`, id `eng_282`),
/// when that leaves two words or more. `None` for a title that does not
/// start with its key, or a topic of one word, which reads as a common
/// word as often as a name.
pub(crate) fn topic(id: &str, title: &str) -> Option<String> {
    let key = id.replace('_', "-");
    let (first, rest) = title.split_once(' ')?;
    let rest = rest.trim();
    (first.eq_ignore_ascii_case(&key) && crate::words::whitespace_words(rest).count() >= 2)
        .then(|| rest.to_string())
}

/// The topics of a scenario's tickets, each only where no other ticket
/// has the same: a text that names a topic names one ticket.
pub(crate) fn topics(js: &JiraSetting) -> Vec<Option<String>> {
    let all: Vec<Option<String>> = js.tickets.iter().map(|t| topic(&t.id, &t.title)).collect();
    all.iter()
        .map(|t| {
            t.clone().filter(|t| {
                all.iter()
                    .filter(|o| o.as_deref().is_some_and(|o| o.eq_ignore_ascii_case(t)))
                    .count()
                    == 1
            })
        })
        .collect()
}

/// Every way of referring to ticket `t`: its title first, then its key
/// and its topic where it has them (`ENG-282`, `the SSO configuration
/// ticket`, `SSO configuration (ENG-282)`).
pub fn ticket_words(js: &JiraSetting, t: usize) -> Vec<String> {
    let ticket = &js.tickets[t];
    let mut out = vec![ticket.title.clone()];
    let Some(topic) = topics(js).swap_remove(t) else {
        return out;
    };
    let key = crate::words::leading_word(&ticket.title).unwrap_or_default();
    out.extend([
        key.to_string(),
        format!("the {topic} ticket"),
        format!("{topic} ({key})"),
    ]);
    out
}

/// One way of referring to ticket `t`, drawn.
pub fn draw_ticket(js: &JiraSetting, t: usize, rng: &mut ChaCha8Rng) -> String {
    let mut all = ticket_words(js, t);
    all.swap_remove(rng.random_range(0..all.len()))
}

/// Draws how this text says the fact's slot and ticket, in place of the
/// first spellings [`super::fact_context`] gave.
pub(crate) fn vary(
    sc: &Scenario,
    p: &Predicate,
    ctx: &mut BTreeMap<&'static str, String>,
    rng: &mut ChaCha8Rng,
) {
    for a in p.args() {
        match a {
            ArgValue::Slot(slot) => {
                let mut all = slot_words(&slot);
                let w = all.swap_remove(rng.random_range(0..all.len()));
                ctx.insert("when", w.when);
                ctx.insert("at_when", w.at_when);
            }
            ArgValue::Ticket(t) => {
                if let Some(js) = sc.jira_setting() {
                    ctx.insert("ticket", draw_ticket(js, t, rng));
                }
            }
            _ => {}
        }
    }
}

#[cfg(test)]
#[path = "refs_tests.rs"]
mod tests;
