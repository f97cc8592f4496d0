//! A stand-in check for hover when a document has never checked clean:
//! the statements that hold its errors are blanked out (spaces, so every
//! other offset stays where it is) and the rest is checked, so that hover
//! on a person or an attribute elsewhere still says what it knows.

use super::scan::tokens;
use crate::analysis::Options;
use crate::driver::Run;

/// The byte ranges of the statements directly inside a scenario block: from
/// a line's first token at depth 1 to the next such token (or the block's
/// closing brace).
fn statements(text: &str) -> Vec<(usize, usize)> {
    let mut out: Vec<(usize, usize)> = Vec::new();
    let mut depth = 0usize;
    let mut open: Option<usize> = None;
    let (mut seen, mut line, mut last_line) = (0usize, 0usize, usize::MAX);
    for t in tokens(text) {
        line += text[seen..t.start].matches('\n').count();
        seen = t.start;
        let first_on_line = line != last_line;
        last_line = line;
        if t.text == "}" && depth == 1 {
            if let Some(s) = open.take() {
                out.push((s, t.start));
            }
        } else if depth == 1 && first_on_line {
            if let Some(s) = open.replace(t.start) {
                out.push((s, t.start));
            }
        }
        match t.text {
            "{" => depth += 1,
            "}" => depth = depth.saturating_sub(1),
            _ => {}
        }
    }
    out
}

/// `text` with the statements that hold `offsets` turned into spaces
/// (line breaks kept, one space for each byte, so that every other offset
/// stays where it is); `None` when no offset falls in a statement. Linear
/// in the text and the offsets (after sorting them): a document with tens
/// of thousands of errors is blanked in one pass.
fn blanked(text: &str, offsets: &[usize]) -> Option<String> {
    let mut offsets = offsets.to_vec();
    offsets.sort_unstable();
    // The statements are in order and apart: each takes the offsets that
    // fall in it, and the next starts from the first it did not take.
    let mut hit: Vec<(usize, usize)> = Vec::new();
    let mut next = 0;
    for (s, e) in statements(text) {
        next += offsets[next..].partition_point(|&o| o < s);
        if offsets.get(next).is_some_and(|&o| o < e) {
            hit.push((s, e));
        }
    }
    if hit.is_empty() {
        return None;
    }
    let mut out = String::with_capacity(text.len());
    let mut from = 0;
    for (s, e) in hit {
        out.push_str(&text[from..s]);
        for c in text[s..e].chars() {
            if c == '\n' {
                out.push('\n');
            } else {
                out.extend(std::iter::repeat_n(' ', c.len_utf8()));
            }
        }
        from = e;
    }
    out.push_str(&text[from..]);
    Some(out)
}

/// Where each error of a run stands.
fn error_offsets(run: &Run) -> Vec<usize> {
    run.diagnostics
        .iter()
        .filter(|d| d.is_error())
        .filter_map(|d| d.diagnostic.offset())
        .collect()
}

/// A check of the document without the statements that hold its errors, if
/// what is left resolves (a few rounds, for errors that only show once
/// others are gone).
pub(super) fn fallback(name: &str, text: &str, run: &Run, options: &Options) -> Option<Run> {
    let mut text = text.to_string();
    let mut offsets = error_offsets(run);
    for _ in 0..3 {
        text = blanked(&text, &offsets)?;
        let mut repaired = Run::new();
        repaired.check_text(name, text.clone(), options);
        // Resolved is enough: a decision the blanked facts no longer pin
        // is an error of the stand-in, not of what hover reads from it.
        if !repaired.checked.is_empty() {
            return Some(repaired);
        }
        offsets = error_offsets(&repaired);
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn statements_are_the_items_of_the_scenario_block() {
        let text = "scenario s {\n  family x\n  attribute a {\n    holder b\n  }\n  oracle { m -> y }\n}\n";
        let got: Vec<&str> = statements(text)
            .iter()
            .map(|(s, e)| text[*s..*e].trim_end())
            .collect();
        assert_eq!(
            got,
            [
                "family x",
                "attribute a {\n    holder b\n  }",
                "oracle { m -> y }"
            ]
        );
        let blank = blanked(text, &[text.find("holder").unwrap()]).unwrap();
        assert_eq!(blank.len(), text.len());
        assert!(!blank.contains("holder") && blank.contains("family x"));
    }

    #[test]
    fn blanking_keeps_every_offset_and_takes_only_statements_hit() {
        let text = "scenario s {\n  title \"Café ☕\"\n  family x\n  task \"é\"\n}\n";
        let title = text.find("title").unwrap();
        let task = text.find("task").unwrap();
        // Offsets out of order, two in one statement, one in none.
        let blank = blanked(text, &[task + 2, title, 0, title + 3]).unwrap();
        assert_eq!(blank.len(), text.len());
        assert!(blank.contains("family x") && !blank.contains("Caf") && !blank.contains("task"));
        let family = text.find("family").unwrap();
        assert_eq!(blank.find("family"), Some(family));
        assert_eq!(blank.matches('\n').count(), text.matches('\n').count());
        assert_eq!(blanked(text, &[0]), None);
    }
}
