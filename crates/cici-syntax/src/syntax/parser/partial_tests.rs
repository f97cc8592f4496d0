use crate::span::SourceId;
use crate::syntax::ast::Item;
use crate::syntax::{parse, SyntaxError, MAX_STATEMENT_ERRORS};

fn kinds(items: &[Item]) -> Vec<String> {
    items
        .iter()
        .map(|i| {
            let debug = format!("{i:?}");
            debug.split('(').next().unwrap_or_default().to_string()
        })
        .collect()
}

fn message(e: &SyntaxError) -> String {
    e.to_string()
}

const GOOD: &str = "scenario s {\n  family meeting_allocation\n  title \"a { # b\"\n  person maya \"Maya\" role \"Lead\"\n  person eli \"Eli\" role \"Dev\"\n  attribute a {\n    holder eli\n  }\n  oracle { }\n}\n";

#[test]
fn one_bad_line_loses_only_its_statement() {
    let text = GOOD.replace("  person eli", "  persn zed\n  person eli");
    let (file, errors) = parse(SourceId(0), &text);
    assert!(file.scenarios.is_empty(), "a broken block is never whole");
    assert_eq!(errors.len(), 1, "{errors:?}");
    assert!(message(&errors[0]).contains("found `persn`"), "{errors:?}");
    let partial = &file.partial[0];
    assert_eq!(partial.id.name, "s");
    assert_eq!(
        kinds(&partial.items),
        ["Family", "Title", "Person", "Person", "Attribute", "Oracle"]
    );
    // Spans are the file's.
    assert!(has_eli_where_the_text_has_him(&partial.items, &text));
}

/// Whether a person's id in `items` stands where `text` names `eli`.
fn has_eli_where_the_text_has_him(items: &[Item], text: &str) -> bool {
    let eli = text.find("eli \"Eli\"").unwrap() as u32;
    items.iter().any(|i| match i {
        Item::Person(p) => p.id.span.start == eli,
        _ => false,
    })
}

#[test]
fn every_bad_statement_is_reported_the_first_as_before() {
    let text = GOOD
        .replace("role \"Lead\"", "\"Lead\"")
        .replace("holder eli", "holder eli extra");
    let whole = parse(SourceId(0), &text).1;
    assert_eq!(whole.len(), 2, "{whole:?}");
    // The first error is where the whole block stops: at the next person.
    assert!(message(&whole[0]).contains("`role`"), "{whole:?}");
    assert!(message(&whole[1]).contains("found `extra`"), "{whole:?}");
    let partial = &parse(SourceId(0), &text).0.partial[0];
    assert_eq!(
        kinds(&partial.items),
        ["Family", "Title", "Person", "Oracle"]
    );
}

#[test]
fn an_unclosed_block_loses_itself_not_the_next() {
    let text = GOOD.replace(
        "  attribute a {\n    holder eli\n  }\n",
        "  attribute a {\n    holder eli\n  attribute b {\n    holder maya\n  }\n",
    );
    let (file, errors) = parse(SourceId(0), &text);
    assert_eq!(errors.len(), 1, "{errors:?}");
    let items = &file.partial[0].items;
    assert!(items
        .iter()
        .any(|i| matches!(i, Item::Attribute(a) if a.id.name == "b")));
    assert!(!items
        .iter()
        .any(|i| matches!(i, Item::Attribute(a) if a.id.name == "a")));
}

#[test]
fn the_block_being_written_keeps_what_is_above_the_cursor() {
    let cut = GOOD.find("  attribute a").unwrap();
    let text = format!("{}  attribute typed {{\n    fact ", &GOOD[..cut]);
    let (file, errors) = parse(SourceId(0), &text);
    assert_eq!(errors.len(), 1, "{errors:?}");
    assert_eq!(
        kinds(&file.partial[0].items),
        ["Family", "Title", "Person", "Person"]
    );
}

#[test]
fn other_blocks_of_the_file_stay_whole() {
    let text = format!(
        "{GOOD}\n{}",
        GOOD.replace("scenario s", "scenario t")
            .replace("title", "titel")
    );
    let (file, errors) = parse(SourceId(0), &text);
    assert_eq!(errors.len(), 1, "{errors:?}");
    assert_eq!(file.scenarios.len(), 1);
    assert_eq!(file.partial.len(), 1);
    assert_eq!(file.partial[0].id.name, "t");
    assert_eq!(file.partial[0].items.len(), 5);
}

#[test]
fn recovery_stops_at_its_limit() {
    let bad: String = (0..MAX_STATEMENT_ERRORS + 50)
        .map(|i| format!("  bad{i} x\n"))
        .collect();
    let text = GOOD.replace("  oracle", &format!("{bad}  oracle"));
    let (_, errors) = parse(SourceId(0), &text);
    assert_eq!(errors.len(), 1 + MAX_STATEMENT_ERRORS);
}

#[test]
fn a_statement_keeps_its_lines_when_the_next_blocks_opening_line_is_lost() {
    // `norms {` cut away: its rules and `}` follow the last person.
    let text = GOOD.replace(
        "  attribute a {",
        "    share [sanitized] with [executor]\n  }\n  attribute a {",
    );
    let (file, errors) = parse(SourceId(0), &text);
    assert_eq!(errors.len(), 1, "{errors:?}");
    assert!(message(&errors[0]).contains("found `share`"), "{errors:?}");
    let partial = &file.partial[0];
    assert_eq!(
        kinds(&partial.items),
        ["Family", "Title", "Person", "Person", "Attribute", "Oracle"]
    );
    assert!(has_eli_where_the_text_has_him(&partial.items, &text));
}
