//! The editor grammars' keyword lists are the grammar's: each test fails
//! when one of them gains, loses or misspells a keyword.

use std::collections::BTreeSet;

use super::*;

fn editor_file(path: &str) -> String {
    // The crate sits two folders below the repository's root.
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let at = root.join(path);
    std::fs::read_to_string(&at).unwrap_or_else(|e| panic!("{}: {e}", at.display()))
}

fn grammar_keywords() -> BTreeSet<String> {
    keywords().iter().map(|k| k.to_string()).collect()
}

fn is_word(w: &str) -> bool {
    !w.is_empty() && w.chars().all(|c| c.is_ascii_lowercase() || c == '_')
}

/// The quoted words of a query's `[...] @capture` lists.
fn query_list_words(query: &str) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    let segments: Vec<&str> = query.split("] @").collect();
    for segment in &segments[..segments.len().saturating_sub(1)] {
        let list = segment.rsplit_once('[').map_or("", |(_, l)| l);
        for quoted in list.split('"').skip(1).step_by(2) {
            if is_word(quoted) {
                out.insert(quoted.to_string());
            }
        }
    }
    out
}

#[test]
fn the_tree_sitter_helix_and_zed_queries_list_the_grammars_keywords() {
    for path in [
        "editors/tree-sitter-cici/queries/highlights.scm",
        "editors/helix/queries/cici/highlights.scm",
        "editors/zed/languages/cici/highlights.scm",
    ] {
        let listed = query_list_words(&editor_file(path));
        assert_eq!(listed, grammar_keywords(), "{path}");
    }
}

#[test]
fn the_tree_sitter_grammar_spells_every_keyword() {
    let grammar = editor_file("editors/tree-sitter-cici/grammar.js");
    for kw in keywords() {
        assert!(
            grammar.contains(&format!("'{kw}'")),
            "grammar.js lacks `{kw}`"
        );
    }
}

#[test]
fn the_textmate_grammar_and_emacs_mode_list_the_grammars_keywords() {
    let tm: serde_json::Value =
        serde_json::from_str(&editor_file("editors/textmate/cici.tmLanguage.json")).unwrap();
    let mut listed = BTreeSet::new();
    for key in ["keyword", "label", "operator"] {
        let regex = tm["repository"][key]["match"].as_str().unwrap_or_default();
        for group in regex.split("\\b(").skip(1) {
            let words = group.split(")\\b").next().unwrap_or_default();
            listed.extend(words.split('|').filter(|w| is_word(w)).map(String::from));
        }
    }
    assert_eq!(listed, grammar_keywords(), "the TextMate grammar");
    let emacs = editor_file("editors/emacs/cici-mode.el");
    let lists = emacs
        .split_once("(defconst cici-keywords")
        .and_then(|(_, rest)| rest.split_once("(defconst cici-families"))
        .map_or("", |(lists, _)| lists);
    let listed: BTreeSet<String> = lists
        .split('"')
        .skip(1)
        .step_by(2)
        .filter(|w| is_word(w))
        .map(String::from)
        .collect();
    assert_eq!(listed, grammar_keywords(), "cici-mode.el");
}

#[test]
fn each_block_starts_its_statements_with_the_grammars_keywords() {
    let scenario = statement_keywords(Block::Scenario);
    assert_eq!(scenario.len(), 21, "{scenario:?}");
    assert_eq!(scenario[0], "family");
    assert!(scenario.contains(&"oracle") && !scenario.contains(&"holder"));
    assert_eq!(
        statement_keywords(Block::Attribute),
        [
            "holder",
            "about",
            "category",
            "raw",
            "sanitized",
            "fact",
            "soft",
            "claim"
        ]
    );
    assert_eq!(
        statement_keywords(Block::Meeting),
        ["features", "attendees", "slots", "rooms"]
    );
    assert_eq!(statement_keywords(Block::Norms), ["share"]);
    assert_eq!(statement_keywords(Block::Ticket).len(), 7);
}
