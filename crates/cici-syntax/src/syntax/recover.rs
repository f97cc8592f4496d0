//! Turning pest's failures into diagnostics, and finding where to resume.

use super::error::SyntaxError;
use super::grammar::Rule;

/// How deep parentheses may nest before the parser refuses the text.
pub const MAX_NESTING: usize = 64;

/// Byte ranges that each start at a line beginning with `scenario` (the
/// first starts at 0 so that leading text is kept).
pub(super) fn scenario_chunks(text: &str) -> Vec<(usize, usize)> {
    let mut starts = vec![0];
    let mut seen_first = false;
    for (offset, line) in super::lex::lines(text) {
        let trimmed = line.trim_start();
        if trimmed.starts_with("scenario")
            && !trimmed["scenario".len()..].starts_with(|c: char| c.is_alphanumeric() || c == '_')
        {
            // The first block keeps whatever precedes it.
            if seen_first {
                starts.push(offset + (line.len() - trimmed.len()));
            }
            seen_first = true;
        }
    }
    let mut chunks = Vec::new();
    for (i, &s) in starts.iter().enumerate() {
        let e = starts.get(i + 1).copied().unwrap_or(text.len());
        chunks.push((s, e));
    }
    chunks
}

/// Refuses text whose parentheses nest deeper than [`MAX_NESTING`], before
/// the recursive-descent parser could exhaust the stack on it.
pub(super) fn check_nesting(text: &str) -> Option<SyntaxError> {
    // The depth is at most the number of `(` in the text: a text with
    // fewer than the limit, as every seed is, need not be lexed for it.
    if text.bytes().filter(|&b| b == b'(').count() <= MAX_NESTING {
        return None;
    }
    let mut depth = 0usize;
    for l in super::lex::lex(text).filter(|l| l.kind == super::lex::Kind::Punct) {
        match &text[l.start..l.end] {
            "(" => {
                depth += 1;
                if depth > MAX_NESTING {
                    return Some(SyntaxError::TooDeep {
                        limit: MAX_NESTING,
                        span: (l.start, 1).into(),
                    });
                }
            }
            ")" => depth = depth.saturating_sub(1),
            _ => {}
        }
    }
    None
}

pub(super) fn from_pest(err: &pest::error::Error<Rule>, text: &str, base: usize) -> SyntaxError {
    let (pos, moved) = error_position(err, text);
    let (mut expected, keywords) = expected_rules(err, moved);
    expected_tokens(err, &mut expected);
    let (found, found_word, len) = found_at(text, pos);
    let help = if !found_word.is_empty() && !keywords.is_empty() {
        crate::suggest::closest(&found_word, keywords.iter().copied())
            .map(crate::suggest::Help::suggest)
    } else {
        None
    };
    let help = help.or_else(|| {
        if expected.iter().any(|e| e == "a statement") {
            Some(crate::suggest::Help::text("a scenario holds statements such as `family`, `person`, `attribute` and `oracle`; see the language reference"))
        } else {
            None
        }
    });
    let (mut pos, mut len, mut found, mut help) = (pos, len, found, help);
    if help.is_none() {
        if let Some(hint) = super::hints::day_or_time(text, pos) {
            (pos, len, found, help) = (hint.start, hint.len, hint.found, Some(hint.help));
            if let Some(e) = hint.expected {
                expected = vec![e];
            }
        }
    }
    SyntaxError::Unexpected {
        expected: one_of(expected),
        found,
        span: (base + pos, len).into(),
        help,
    }
}

/// Where to show a parse error, and whether that moved from where pest
/// put it. pest reports where the outermost failing rule began
/// (`scenario a b {` fails at `scenario`); the parse got further, to where
/// a token was wanted and something else stood. That is the place to show.
fn error_position(err: &pest::error::Error<Rule>, text: &str) -> (usize, bool) {
    let pos = match err.location {
        pest::error::InputLocation::Pos(p) => p,
        pest::error::InputLocation::Span((s, _)) => s,
    };
    let furthest = err
        .parse_attempts()
        .map_or(pos, |a| a.max_position)
        .min(text.len());
    let moved = furthest > pos && text.is_char_boundary(furthest);
    (if moved { furthest } else { pos }, moved)
}

/// What the failing rules wanted, in words, and the keywords among them;
/// nothing when the error moved past them.
fn expected_rules(err: &pest::error::Error<Rule>, moved: bool) -> (Vec<String>, Vec<&'static str>) {
    let mut expected: Vec<String> = Vec::new();
    let mut keywords: Vec<&'static str> = Vec::new();
    if let (false, pest::error::ErrorVariant::ParsingError { positives, .. }) =
        (moved, &err.variant)
    {
        for rule in positives {
            if let Some(kw) = keyword_of(*rule) {
                keywords.push(kw);
            }
            if let Some(name) = describe(*rule) {
                if !expected.contains(&name) {
                    expected.push(name);
                }
            }
        }
    }
    (expected, keywords)
}

/// Adds the tokens the parse attempts wanted: punctuation (`{`, `->`,
/// `@`, ...), but not the comment marker; words only when the rules named
/// nothing.
fn expected_tokens(err: &pest::error::Error<Rule>, expected: &mut Vec<String>) {
    let Some(attempts) = err.parse_attempts() else {
        return;
    };
    let nothing_yet = expected.is_empty();
    for token in attempts.expected_tokens().iter().map(|t| t.to_string()) {
        let punctuation = !token.is_empty()
            && token != "#"
            && !token.contains("..")
            && token.chars().all(|c| c.is_ascii_punctuation());
        let word =
            nothing_yet && !token.is_empty() && token.chars().all(|c| c.is_ascii_alphabetic());
        let name = format!("`{token}`");
        if (punctuation || word) && !expected.contains(&name) {
            expected.push(name);
        }
    }
}

/// What stands at `pos`, as the message names it; the word there, if any;
/// and the length to underline.
fn found_at(text: &str, pos: usize) -> (String, String, usize) {
    let found_word: String = text[pos..]
        .chars()
        .take_while(|c| c.is_alphanumeric() || *c == '_')
        .collect();
    let (found, len) = if pos >= text.len() {
        ("end of input".to_string(), 0)
    } else if !found_word.is_empty() {
        (format!("`{found_word}`"), found_word.len())
    } else {
        let c = text[pos..].chars().next().unwrap_or(' ');
        (format!("`{}`", c.escape_default()), c.len_utf8())
    };
    (found, found_word, len)
}

/// `a`, `a or b`, `a, b or c`; "something else" for none.
fn one_of(mut expected: Vec<String>) -> String {
    match expected.len() {
        0 => "something else".to_string(),
        1 => expected.remove(0),
        _ => {
            let last = expected.pop().unwrap_or_default();
            format!("{} or {}", expected.join(", "), last)
        }
    }
}

/// The keyword a `kw_*` rule matches, from the one keyword list.
fn keyword_of(rule: Rule) -> Option<&'static str> {
    let name = format!("{rule:?}");
    let word = name.strip_prefix("kw_")?;
    super::keywords().iter().find(|k| **k == word).copied()
}

/// How a rule reads in an "expected ..." message; `None` hides it.
fn describe(rule: Rule) -> Option<String> {
    if let Some(kw) = keyword_of(rule) {
        // Statement keywords are summarised as "a statement" to keep the
        // message short; the help line names the nearest one.
        let statement = matches!(
            rule,
            Rule::kw_family
                | Rule::kw_title
                | Rule::kw_task
                | Rule::kw_executor
                | Rule::kw_recipient
                | Rule::kw_public
                | Rule::kw_policy
                | Rule::kw_purpose
                | Rule::kw_norms
                | Rule::kw_person
                | Rule::kw_room
                | Rule::kw_meeting
                | Rule::kw_ticket
                | Rule::kw_levels
                | Rule::kw_outcomes
                | Rule::kw_evidence
                | Rule::kw_rubric
                | Rule::kw_rules
                | Rule::kw_exclude
                | Rule::kw_attribute
                | Rule::kw_oracle
        );
        return Some(if statement {
            "a statement".to_string()
        } else {
            format!("`{kw}`")
        });
    }
    Some(
        match rule {
            Rule::ident => "a name",
            Rule::string => "a string",
            Rule::int => "an integer",
            Rule::slot => "a time slot like `tue 10:00-11:00`",
            Rule::day => "a day (`mon` to `sun`)",
            Rule::time => "a time like `10:00`",
            Rule::ident_list => "a list `[...]`",
            Rule::slot_list => "a list of slots `[...]`",
            Rule::label => "`appropriate` or `inappropriate`",
            Rule::visibility => "`visible`",
            Rule::cmp_op => "`=` or `!=`",
            Rule::fact => "a fact like `unavailable(eli, tue 10:00-11:00)`",
            Rule::EOI => "end of file",
            Rule::scenario => "`scenario`",
            Rule::skills_clause => "`skills`",
            Rule::features_clause => "`features`",
            Rule::oracle_block => "`{`",
            Rule::oracle_slot => "a slot and room like `tue 10:00-11:00 @ cedar`",
            Rule::oracle_people => "a person",
            _ => return None,
        }
        .to_string(),
    )
}
