//! Times of day in the spellings people write them: `9-10`, `9am to
//! 10am`, `from 9 to 10`, `09:00–10:00`, `between 10 and 16`, `1pm`,
//! `at 4`, `noon`, and the parts of a day (`morning`, `afternoon`,
//! `evening`).

use super::tokens::{Mention, Named, Tok};

/// One clock reading: minutes since midnight, whether it may be read on
/// a twelve-hour clock (a bare hour), whether it is a bare number, and the
/// index after it.
#[derive(Clone, Copy)]
struct Clock {
    minutes: u16,
    twelve: bool,
    bare: bool,
    next: usize,
}

/// Words after which a bare hour is a time: `at 4`, `until 5`.
const BEFORE_TIME: &[&str] = &[
    "at", "by", "from", "until", "till", "before", "after", "between", "around", "past",
];

/// Words between the two ends of a range.
const RANGE: &[&str] = &["-", "–", "—", "to", "until", "till", "through"];

/// `am`/`pm` (or `a.m.`) at `i`: whether it is pm, and the index after it.
fn meridiem(toks: &[Tok], i: usize) -> Option<(bool, usize)> {
    let t = toks.get(i)?;
    match t.lower.as_str() {
        "am" => Some((false, i + 1)),
        "pm" => Some((true, i + 1)),
        "a" | "p" if toks.get(i + 1)?.lower == "." && toks.get(i + 2)?.lower == "m" => {
            let pm = t.lower == "p";
            let after = if toks.get(i + 3).is_some_and(|t| t.lower == ".") {
                i + 4
            } else {
                i + 3
            };
            Some((pm, after))
        }
        _ => None,
    }
}

/// A clock reading at `i`.
fn clock(toks: &[Tok], i: usize) -> Option<Clock> {
    let t = toks.get(i)?;
    match t.lower.as_str() {
        "noon" | "midday" => {
            return Some(Clock {
                minutes: 720,
                twelve: false,
                bare: false,
                next: i + 1,
            })
        }
        "midnight" => {
            return Some(Clock {
                minutes: 1440,
                twelve: false,
                bare: false,
                next: i + 1,
            })
        }
        _ => {}
    }
    let h = t.number.filter(|&h| h <= 24)? as u16;
    let (mut minutes, mut next, mut colon) = (h * 60, i + 1, false);
    let glued_colon = toks.get(i + 1).is_some_and(|c| c.lower == ":" && c.glued)
        && toks
            .get(i + 2)
            .is_some_and(|m| m.glued && m.lower.len() == 2);
    if glued_colon {
        let m = toks[i + 2].number.filter(|&m| m < 60)? as u16;
        minutes += m;
        next = i + 3;
        colon = true;
    }
    if let Some((pm, after)) = meridiem(toks, next) {
        if h == 0 || h > 12 {
            return None;
        }
        minutes = (h % 12 + if pm { 12 } else { 0 }) * 60 + minutes % 60;
        return Some(Clock {
            minutes,
            twelve: false,
            bare: false,
            next: after,
        });
    }
    Some(Clock {
        minutes,
        twelve: !colon && h <= 12,
        bare: !colon,
        next,
    })
}

/// Reads the times of the text into `out`, marking the words they take.
pub(super) fn times(toks: &[Tok], taken: &mut [bool], out: &mut Vec<Mention>) {
    let mut i = 0;
    while i < toks.len() {
        if taken[i] {
            i += 1;
            continue;
        }
        if let Some((m, next)) = part_of_day(toks, i).or_else(|| reading(toks, i)) {
            taken[i..next].iter_mut().for_each(|t| *t = true);
            out.push(Mention {
                what: m,
                at: toks[i].at.start..toks[next - 1].at.end,
            });
            i = next;
        } else {
            i += 1;
        }
    }
}

fn part_of_day(toks: &[Tok], i: usize) -> Option<(Named, usize)> {
    let w = toks[i].lower.trim_end_matches('s');
    let (a, b) = match w {
        "morning" => (0, 720),
        "afternoon" => (720, 1080),
        "evening" => (1020, 1440),
        _ => return None,
    };
    Some((Named::PartOfDay(a, b), i + 1))
}

/// A time or a range at `i`, and the index after it.
fn reading(toks: &[Tok], i: usize) -> Option<(Named, usize)> {
    let first = clock(toks, i)?;
    let after_word = i > 0 && BEFORE_TIME.contains(&toks[i - 1].lower.as_str());
    let between = i > 0 && toks[i - 1].lower == "between";
    let is_sep = toks
        .get(first.next)
        .is_some_and(|sep| RANGE.contains(&sep.lower.as_str()) || (between && sep.lower == "and"));
    if is_sep {
        if let Some(second) = clock(toks, first.next + 1) {
            let mut start = first.minutes;
            // `1-2pm`: the second end's meridiem holds for the first.
            if first.bare && !second.bare && !second.twelve && second.minutes >= 720 {
                start = (start % 720) + 720;
            }
            if !(first.bare && second.bare) || start < second.minutes {
                return Some((
                    Named::Time {
                        start,
                        end: Some(second.minutes),
                        twelve: first.twelve && second.twelve,
                    },
                    second.next,
                ));
            }
        }
    }
    if first.bare && !after_word {
        return None;
    }
    Some((
        Named::Time {
            start: first.minutes,
            end: None,
            twelve: first.twelve,
        },
        first.next,
    ))
}

#[cfg(test)]
mod tests {
    use super::super::tokens::{toks, Named};
    use super::*;

    /// The times of a text, as (start, end, twelve).
    fn read(text: &str) -> Vec<(u16, Option<u16>, bool)> {
        let t = toks(text);
        let mut taken = vec![false; t.len()];
        let mut out = Vec::new();
        times(&t, &mut taken, &mut out);
        out.into_iter()
            .filter_map(|m| match m.what {
                Named::Time { start, end, twelve } => Some((start, end, twelve)),
                _ => None,
            })
            .collect()
    }

    #[test]
    fn every_documented_spelling_reads() {
        let h = |x: u16| x * 60;
        for (text, want) in [
            ("Monday 9-10", (h(9), Some(h(10)), true)),
            ("Monday 9–10", (h(9), Some(h(10)), true)),
            ("09:00-10:00", (h(9), Some(h(10)), false)),
            ("09:00–10:00", (h(9), Some(h(10)), false)),
            ("9am to 10am", (h(9), Some(h(10)), false)),
            ("1-2pm", (h(13), Some(h(14)), false)),
            ("from 9 to 10", (h(9), Some(h(10)), true)),
            ("between 10 and 16", (h(10), Some(h(16)), false)),
            ("15:00 to 16:00", (h(15), Some(h(16)), false)),
            ("9:30 until 10:30", (h(9) + 30, Some(h(10) + 30), false)),
            ("at 4", (h(4), None, true)),
            ("at 10 a.m.", (h(10), None, false)),
            ("by 5 p.m.", (h(17), None, false)),
            ("at noon", (h(12), None, false)),
            ("until midnight", (h(24), None, false)),
        ] {
            assert_eq!(read(text), vec![want], "{text}");
        }
        // A bare number is a time only in a range or after a time word.
        assert!(read("2 hours").is_empty());
        assert!(read("within 7 days").is_empty());
        assert!(read("400 feet").is_empty());
    }
}
