//! Help for the slips people make writing days and times: `monday` for
//! `mon`, `9am` or `0900` for `09:00`, spaces around the `-` of a range.

use crate::suggest::Help;

/// The days as the language spells them, with the full names.
const DAYS: [(&str, &str); 7] = [
    ("mon", "monday"),
    ("tue", "tuesday"),
    ("wed", "wednesday"),
    ("thu", "thursday"),
    ("fri", "friday"),
    ("sat", "saturday"),
    ("sun", "sunday"),
];

/// A word spelling a day another way, and the day it means: `monday`,
/// `Tues`, `thur`.
fn day_of(word: &str) -> Option<&'static str> {
    let w = word.to_ascii_lowercase();
    if w.len() < 3 || !w.chars().all(|c| c.is_ascii_alphabetic()) {
        return None;
    }
    DAYS.iter()
        .find(|(_, long)| long.starts_with(&w))
        .map(|(short, _)| *short)
        .filter(|short| *short != word)
}

/// The alphanumeric word around `pos`: its start and its text.
fn word_at(text: &str, pos: usize) -> (usize, &str) {
    let is_word = |c: char| c.is_ascii_alphanumeric();
    let start = text[..pos]
        .char_indices()
        .rev()
        .take_while(|(_, c)| is_word(*c))
        .last()
        .map_or(pos, |(i, _)| i);
    let end = text[pos..]
        .char_indices()
        .find(|(_, c)| !is_word(*c))
        .map_or(text.len(), |(i, _)| pos + i);
    (start, &text[start..end])
}

/// The word just before `pos`, across spaces on the same line, when `pos`
/// starts a time (a digit).
fn previous_word(text: &str, pos: usize) -> Option<(usize, &str)> {
    if !text[pos..].starts_with(|c: char| c.is_ascii_digit()) {
        return None;
    }
    let before = text[..pos].trim_end_matches([' ', '\t']);
    if before.len() == pos {
        return None;
    }
    let (last, _) = before.char_indices().next_back()?;
    let (start, word) = word_at(text, last);
    (!word.is_empty()).then_some((start, word))
}

/// Whether the error stands inside a slot: a day, then a time being
/// written, on the same line.
fn in_slot(text: &str, pos: usize) -> bool {
    let line_start = super::lex::line_start(text, pos);
    let before = &text[line_start..pos];
    let last = before
        .rsplit(['[', ',', '('])
        .next()
        .unwrap_or_default()
        .trim_start();
    let mut parts = last.splitn(2, ' ');
    let day = parts.next().unwrap_or_default();
    let rest = parts.next().unwrap_or_default();
    DAYS.iter().any(|(short, _)| *short == day)
        && rest.chars().next().is_none_or(|c| c.is_ascii_digit())
}

/// What a syntax error at `pos` should say instead when it stands in a
/// day or a time.
pub(super) struct Hint {
    /// The span to show, when wider than the error's position.
    pub start: usize,
    pub len: usize,
    pub found: String,
    /// What was expected, when the grammar's own words say too little.
    pub expected: Option<String>,
    pub help: Help,
}

/// The hint for a syntax error at `pos`, if it stands in a day or a time.
pub(super) fn day_or_time(text: &str, pos: usize) -> Option<Hint> {
    if pos >= text.len() || !text.is_char_boundary(pos) {
        return None;
    }
    let here = text[pos..].chars().next().unwrap_or(' ');
    let (start, word) = if here.is_ascii_alphanumeric() {
        word_at(text, pos)
    } else {
        (pos, "")
    };
    // `tuesday 10:00-11:00` where an argument is expected reads `tuesday`
    // as a name, so the error stands at the time after it.
    let (start, word) = match previous_word(text, start) {
        Some((s, w)) if day_of(word).is_none() && day_of(w).is_some() => (s, w),
        _ => (start, word),
    };
    if let Some(day) = day_of(word) {
        return Some(Hint {
            start,
            len: word.len(),
            found: format!("`{word}`"),
            expected: Some("a day (`mon` to `sun`)".to_string()),
            help: Help {
                text: format!("days are written `mon` to `sun`: did you mean `{day}`?"),
                suggestion: Some(day.to_string()),
            },
        });
    }
    if !in_slot(text, pos) {
        return None;
    }
    let (len, found) = if word.is_empty() {
        (here.len_utf8(), format!("`{}`", here.escape_default()))
    } else {
        (word.len(), format!("`{word}`"))
    };
    Some(Hint {
        start,
        len,
        found,
        expected: None,
        help: Help::text(
            "a slot is a day and a 24-hour range with two-digit hours and no spaces: `mon 09:00-10:00`",
        ),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn full_and_odd_day_names_map_to_the_short_ones() {
        assert_eq!(day_of("monday"), Some("mon"));
        assert_eq!(day_of("Tues"), Some("tue"));
        assert_eq!(day_of("thur"), Some("thu"));
        assert_eq!(day_of("Sun"), Some("sun"));
        assert_eq!(day_of("mon"), None);
        assert_eq!(day_of("month"), None);
        assert_eq!(day_of("room"), None);
    }

    #[test]
    fn a_full_day_name_before_a_time_gets_the_day_hint() {
        let text = "  fact unavailable(eli, tuesday 10:00-11:00)";
        let pos = text.find("10:00").unwrap();
        let hint = day_or_time(text, pos).expect("a hint");
        assert_eq!(&text[hint.start..hint.start + hint.len], "tuesday");
        assert_eq!(hint.help.suggestion.as_deref(), Some("tue"));
        let text = "  fact unavailable(eli, Tue 10:00-11:00)";
        let hint = day_or_time(text, text.find("10:").unwrap()).expect("a hint");
        assert_eq!(hint.help.suggestion.as_deref(), Some("tue"));
        // A name that is no day gets no day hint, and a word of other
        // scripts before a time is read safely.
        let text = "  fact unavailable(eli, lunch 10:00-11:00)";
        assert!(day_or_time(text, text.find("10:").unwrap()).is_none());
        let text = "  fact unavailable(eli, é 10:00-11:00)";
        assert!(day_or_time(text, text.find("10:").unwrap()).is_none());
    }

    #[test]
    fn a_slot_being_written_is_recognised() {
        let text = "slots [mon 9am-10:00]";
        assert!(in_slot(text, text.find("am").unwrap()));
        assert!(!in_slot("rooms [delta, elm]", 12));
    }
}
