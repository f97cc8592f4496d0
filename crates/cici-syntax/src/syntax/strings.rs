//! The text of strings: triple-quoted strings lose their common
//! indentation and their first and last line breaks.

/// Removes the common leading indentation of a triple-quoted string, and the
/// line breaks right after the opening and before the closing quotes.
pub(super) fn dedent(raw: &str) -> String {
    // Line breaks are `\n` whatever the file used: a CR, a CRLF and an LF
    // file give the same text.
    let normalized;
    let raw = if raw.contains('\r') {
        normalized = raw.replace("\r\n", "\n").replace('\r', "\n");
        normalized.as_str()
    } else {
        raw
    };
    let text = raw.strip_prefix('\n').unwrap_or(raw);
    let text = match text.rfind('\n') {
        Some(i) if text[i + 1..].trim().is_empty() => &text[..i],
        _ => text,
    };
    let indent = text
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| l.len() - l.trim_start().len())
        .min()
        .unwrap_or(0);
    text.lines()
        .map(|l| match l.get(..indent) {
            Some(prefix) if prefix.trim().is_empty() => &l[indent..],
            _ => l.trim_start(),
        })
        .collect::<Vec<_>>()
        .join("\n")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dedent_strips_common_indentation() {
        assert_eq!(dedent("\n    a\n      b\n    "), "a\n  b");
        assert_eq!(dedent("one line"), "one line");
        assert_eq!(dedent("\r\n    a\r\n      b\r\n    "), "a\n  b");
        assert_eq!(dedent("\r    a\r      b\r    "), "a\n  b");
    }

    #[test]
    fn chunks_start_at_scenario_lines() {
        use super::super::recover::scenario_chunks;
        let text = "# c\nscenario a {}\n  scenario b {}\nscenarios\n";
        let chunks = scenario_chunks(text);
        assert_eq!(chunks.len(), 2);
        assert!(text[chunks[1].0..].starts_with("scenario b"));
    }
}
