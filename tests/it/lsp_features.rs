//! The language server's outline, rename, semantic tokens, pull
//! diagnostics and incremental sync, driven over stdio as an editor would,
//! on text that parses and on text that does not.

use serde_json::{json, Value};

use super::common::root;
use super::lsp::{complete_typing, position_of, Client};

fn open(c: &mut Client, uri: &str, text: &str) {
    c.request(
        "initialize",
        json!({"processId": null, "rootUri": null, "capabilities": {}}),
    );
    c.notify("initialized", json!({}));
    c.notify(
        "textDocument/didOpen",
        json!({"textDocument": {"uri": uri, "languageId": "cici", "version": 1, "text": text}}),
    );
    c.diagnostics(uri);
}

fn fixture() -> String {
    std::fs::read_to_string(root().join("tests/fixtures/fix/unknown_person.cici"))
        .unwrap()
        .replacen("holder elli", "holder eli", 1)
}

#[test]
fn outline_rename_tokens_and_pulled_diagnostics() {
    let uri = "file:///work/seeds/features.cici";
    let text = fixture();
    let mut c = Client::start();
    open(&mut c, uri, &text);

    // The outline: the scenario, then what it declares.
    let symbols = c.request(
        "textDocument/documentSymbol",
        json!({"textDocument": {"uri": uri}}),
    );
    assert_eq!(symbols[0]["name"], "typo");
    assert_eq!(symbols[0]["detail"], "meeting_allocation");
    let children: Vec<&str> = symbols[0]["children"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["name"].as_str().unwrap())
        .collect();
    assert_eq!(
        children,
        ["maya", "eli", "cedar", "elm", "m1", "eli_hvac", "eli_court"]
    );

    // Rename a person: every use in the scenario, no string or comment.
    let edit = c.request(
        "textDocument/rename",
        json!({"textDocument": {"uri": uri}, "position": position_of(&text, "person eli", 7), "newName": "elias"}),
    );
    let edits = edit["changes"][uri].as_array().unwrap();
    let uses = text.matches("eli,").count()
        + text.matches("eli ").count()
        + text.matches("eli]").count()
        + text.matches("eli\n").count();
    assert_eq!(edits.len(), uses, "{edits:?}");
    assert!(edits.iter().all(|e| e["newText"] == "elias"));
    // A clash is refused with the reason.
    let clash = c.request_raw(
        "textDocument/rename",
        json!({"textDocument": {"uri": uri}, "position": position_of(&text, "person eli", 7), "newName": "maya"}),
    );
    assert!(
        clash["error"]["message"]
            .as_str()
            .unwrap()
            .contains("already names a person"),
        "{clash}"
    );

    // Semantic tokens: names coloured by what they name.
    let tokens = c.request(
        "textDocument/semanticTokens/full",
        json!({"textDocument": {"uri": uri}}),
    );
    let data: Vec<u64> = tokens["data"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_u64().unwrap())
        .collect();
    assert_eq!(data.len() % 5, 0);
    // Decode to (line, column, length, type) and look up `holder eli`.
    let (mut line, mut col) = (0, 0);
    let mut decoded = Vec::new();
    for t in data.chunks(5) {
        if t[0] > 0 {
            line += t[0];
            col = t[1];
        } else {
            col += t[1];
        }
        decoded.push((line, col, t[2], t[3]));
    }
    let at = position_of(&text, "holder eli", 7);
    let person = decoded
        .iter()
        .find(|(l, c, _, _)| json!(l) == at["line"] && json!(c) == at["character"])
        .expect("a token for the holder");
    assert_eq!(person.3, 1, "people are variables");
    let at = position_of(&text, "@ elm", 2);
    let room = decoded
        .iter()
        .find(|(l, c, _, _)| json!(l) == at["line"] && json!(c) == at["character"])
        .expect("a token for the oracle's room");
    assert_eq!(room.3, 2, "rooms are enum members");

    // Pull diagnostics give what was published.
    let broken = text.replacen(
        "holder eli\n    category legal",
        "holder elli\n    category legal",
        1,
    );
    c.notify(
        "textDocument/didChange",
        json!({"textDocument": {"uri": uri, "version": 2}, "contentChanges": [{"text": broken}]}),
    );
    let pushed = c.diagnostics(uri);
    let pulled = c.request(
        "textDocument/diagnostic",
        json!({"textDocument": {"uri": uri}}),
    );
    assert_eq!(pulled["kind"], "full");
    assert_eq!(pulled["items"], Value::Array(pushed));
}

#[test]
fn incremental_changes_are_applied_in_order_even_when_checks_are_skipped() {
    let uri = "file:///work/seeds/incremental.cici";
    let text = fixture();
    let mut c = Client::start();
    open(&mut c, uri, &text);
    // Type `lx` after `holder eli` one character at a time, as ranged
    // edits, then delete both: the server's text follows.
    let at = position_of(&text, "holder eli\n    category legal", 10);
    for (v, ch) in ["l", "x"].iter().enumerate() {
        let line = at["line"].as_u64().unwrap();
        let character = at["character"].as_u64().unwrap() + v as u64;
        c.notify(
            "textDocument/didChange",
            json!({"textDocument": {"uri": uri, "version": 2 + v},
                   "contentChanges": [{"range": {"start": {"line": line, "character": character},
                                                 "end": {"line": line, "character": character}},
                                       "text": ch}]}),
        );
    }
    // Now `holder elilx`: one unknown person. (The first change may have
    // been checked on its own before the second arrived: `elil`.)
    let mut diags = c.diagnostics(uri);
    if diags[0]["message"].as_str().unwrap().contains("`elil`") {
        diags = c.diagnostics(uri);
    }
    assert_eq!(
        diags[0]["code"], "cici::resolve::unknown_person",
        "{diags:?}"
    );
    assert!(
        diags[0]["message"].as_str().unwrap().contains("`elilx`"),
        "{diags:?}"
    );
    // Delete the two characters: clean again.
    let line = at["line"].as_u64().unwrap();
    let character = at["character"].as_u64().unwrap();
    c.notify(
        "textDocument/didChange",
        json!({"textDocument": {"uri": uri, "version": 9},
               "contentChanges": [{"range": {"start": {"line": line, "character": character},
                                             "end": {"line": line, "character": character + 2}},
                                   "text": ""}]}),
    );
    assert_eq!(c.diagnostics(uri), Vec::<Value>::new());
    let formatted = c.request(
        "textDocument/formatting",
        json!({"textDocument": {"uri": uri}, "options": {"tabSize": 2, "insertSpaces": true}}),
    );
    // The server's text is the original again: formatting it changes what
    // formatting the original changes.
    let expected = cici::syntax::format(&text).unwrap();
    if expected == text {
        assert_eq!(formatted, json!([]));
    } else {
        assert_eq!(formatted[0]["newText"], expected);
    }
}

/// A norm being typed: kinds of information before `with`, recipients
/// after it, people after `reports_to`.
#[test]
fn completion_inside_a_norm_offers_kinds_then_recipients() {
    let uri = "file:///work/seeds/norms.cici";
    let fixed = fixture();
    let mut c = Client::start();
    open(&mut c, uri, &fixed);
    let norm = |line: &str| {
        fixed.replacen(
            "  oracle {",
            &format!("  norms {{\n    {line}\n  }}\n  oracle {{"),
            1,
        )
    };
    let kinds = complete_typing(&mut c, uri, 2, &norm("share ‸"));
    for k in ["sanitized", "personal", "health", "operational"] {
        assert!(kinds.contains(&k.to_string()), "{kinds:?}");
    }
    assert!(!kinds.contains(&"everyone".to_string()), "{kinds:?}");
    let to = complete_typing(
        &mut c,
        uri,
        3,
        &norm("share [health, legal] with [subject, ‸"),
    );
    for k in ["everyone", "executor", "manager", "maya", "eli"] {
        assert!(to.contains(&k.to_string()), "{to:?}");
    }
    assert!(!to.contains(&"health".to_string()), "{to:?}");
    let manager = complete_typing(
        &mut c,
        uri,
        4,
        &fixed.replacen(
            "role \"Security Partner\"",
            "role \"Security Partner\" reports_to ‸",
            1,
        ),
    );
    assert!(manager.contains(&"maya".to_string()), "{manager:?}");
}

/// Hover on a norm gives it in plain words; on a person, their groups and
/// manager.
#[test]
fn hover_reads_norms_and_reporting_lines() {
    let uri = "file:///work/seeds/launch_week.cici";
    let text = std::fs::read_to_string(root().join("seeds/launch_week.cici")).unwrap();
    let mut c = Client::start();
    open(&mut c, uri, &text);
    let norm = c.hover(uri, position_of(&text, "share [health", 8));
    assert!(
        norm.contains("Health details and mental-health details may go to"),
        "{norm}"
    );
    assert!(norm.contains("for accommodation"), "{norm}");
    let marcus = c.hover(uri, position_of(&text, "person marcus", 8));
    assert!(marcus.contains("reports to Priya Nair"), "{marcus}");
    let aisha = c.hover(uri, position_of(&text, "person aisha", 8));
    assert!(aisha.contains("groups: hr"), "{aisha}");
}

/// A document that has had an error since it was opened: hover elsewhere
/// still reads the person and the attribute from what does check.
#[test]
fn hover_keeps_what_it_knows_when_the_file_has_an_error_elsewhere() {
    let uri = "file:///work/seeds/launch_week_broken.cici";
    let text = std::fs::read_to_string(root().join("seeds/launch_week.cici"))
        .unwrap()
        .replacen("holder marcus", "holder nobody_here", 1);
    assert!(text.contains("nobody_here"));
    let mut c = Client::start();
    open(&mut c, uri, &text);
    let aisha = c.hover(uri, position_of(&text, "person aisha", 8));
    assert!(aisha.contains("groups: hr"), "{aisha}");
    assert!(aisha.contains("**"), "{aisha}");
}

#[test]
fn requests_are_answered_by_their_type_or_refused_with_the_right_code() {
    let mut c = Client::start();
    let uri = "file:///tmp/dispatch.cici";
    open(&mut c, uri, &fixture());
    let unknown = c.request_raw("textDocument/inlayHint", json!({}));
    assert_eq!(unknown["error"]["code"], -32601, "{unknown}");
    assert!(unknown["error"]["message"]
        .as_str()
        .unwrap()
        .contains("textDocument/inlayHint"));
    // Parameters that are not a hover's.
    let bad = c.request_raw("textDocument/hover", json!({"textDocument": 3}));
    assert_eq!(bad["error"]["code"], -32602, "{bad}");
    let bad = c.request_raw("textDocument/rename", json!({"newName": 3}));
    assert_eq!(bad["error"]["code"], -32602, "{bad}");
    // A document that is not open: nothing, or a refusal where nothing
    // would read as success.
    let elsewhere = "file:///tmp/not-open.cici";
    let hover = c.at(
        "textDocument/hover",
        elsewhere,
        json!({"line": 0, "character": 0}),
    );
    assert_eq!(hover, Value::Null);
    let pulled = c.request(
        "textDocument/diagnostic",
        json!({"textDocument": {"uri": elsewhere}}),
    );
    assert_eq!(pulled["items"], json!([]));
    let rename = c.request_raw(
        "textDocument/rename",
        json!({"textDocument": {"uri": elsewhere}, "position": {"line": 0, "character": 0}, "newName": "x"}),
    );
    assert_eq!(rename["error"]["code"], -32803, "{rename}");
}

/// After `fact ` on a line of a meeting seed that does not parse yet,
/// whatever else is unfinished, completion offers the meeting predicates
/// and none of another family's.
#[test]
fn completion_after_fact_on_broken_text_keeps_to_the_family() {
    let uri = "file:///work/seeds/broken_family.cici";
    let fixed = fixture();
    let mut c = Client::start();
    open(&mut c, uri, &fixed);
    let attribute = |body: &str| {
        fixed.replacen(
            "  oracle {",
            &format!("  attribute typed {{\n{body}\n  }}\n  oracle {{"),
            1,
        )
    };
    let cut = |marked: String| marked[..marked.find('‸').unwrap() + '‸'.len_utf8()].to_string();
    let cases = [
        ("typed before the block closes", attribute("    fact ‸")),
        (
            "the rest of the file not yet written",
            cut(attribute("    fact ‸")),
        ),
        (
            "an unclosed string on the line above",
            attribute("    raw \"Eli is out\n    fact ‸"),
        ),
        (
            "an unfinished fact above",
            attribute("    fact unavailable(eli,\n    fact ‸"),
        ),
        (
            "a first attribute above the people",
            fixed.replacen(
                "  person ",
                "  attribute early {\n    fact ‸\n  }\n  person ",
                1,
            ),
        ),
        (
            "a line above the family line",
            fixed.replacen(
                "  family ",
                "  attribute early {\n    fact ‸\n  }\n  family ",
                1,
            ),
        ),
        (
            "a second scenario of another family after it",
            format!(
                "{}\nscenario other {{\n  family jira_allocation\n}}\n",
                attribute("    fact ‸")
            ),
        ),
        (
            "a second scenario of another family before it",
            format!(
                "scenario other {{\n  family jira_allocation\n}}\n{}",
                attribute("    fact ‸")
            ),
        ),
    ];
    for (version, (case, marked)) in cases.into_iter().enumerate() {
        let got = complete_typing(&mut c, uri, 10 + version as i64, &marked);
        assert!(got.iter().any(|g| g == "unavailable"), "{case}: {got:?}");
        for other in ["cannot_own", "cannot_pair", "capacity", "evidence"] {
            assert!(
                !got.iter().any(|g| g == other),
                "{case}: offered {other}: {got:?}"
            );
        }
    }
}

/// In the middle of one seed of each family, a line being typed after
/// `fact `: the other statements still parse, so completion offers that
/// family's predicates and only those.
#[test]
fn completion_on_an_unfinished_line_mid_seed_offers_its_family_predicates() {
    let mut c = Client::start();
    let mut opened = false;
    for (k, seed) in [
        "launch_week",
        "mobile_release",
        "meridian_incident",
        "lab_access",
    ]
    .iter()
    .enumerate()
    {
        let uri = format!("file:///work/seeds/{seed}_typing.cici");
        let text = std::fs::read_to_string(root().join(format!("seeds/{seed}.cici"))).unwrap();
        let attributes: Vec<usize> = text
            .match_indices("\n  attribute ")
            .map(|(i, _)| i + 1)
            .collect();
        let middle = attributes[attributes.len() / 2];
        let marked = format!(
            "{}  attribute typing {{\n    fact ‸\n  }}\n{}",
            &text[..middle],
            &text[middle..]
        );
        if !opened {
            open(&mut c, &uri, &text);
            opened = true;
        } else {
            c.notify(
                "textDocument/didOpen",
                json!({"textDocument": {"uri": uri, "languageId": "cici", "version": 1, "text": text}}),
            );
            c.diagnostics(&uri);
        }
        let family = text
            .lines()
            .find_map(|l| l.trim().strip_prefix("family "))
            .and_then(|f| cici::sema::Family::from_name(f.trim()))
            .unwrap();
        let mut got = complete_typing(&mut c, &uri, 2 + k as i64, &marked);
        got.sort();
        let mut want: Vec<String> = family.predicates().map(|p| p.name.to_string()).collect();
        want.sort();
        assert_eq!(got, want, "{seed}");
    }
}

/// A document broken since it was opened, a line cut short above: hover
/// and definition below it read the statements the parser kept.
#[test]
fn hover_and_definition_below_a_broken_line() {
    let uri = "file:///work/seeds/launch_week_cut.cici";
    let seed = std::fs::read_to_string(root().join("seeds/launch_week.cici")).unwrap();
    let first_person = seed.find("  person ").unwrap();
    let text = format!(
        "{}  person half \"Ha\n{}",
        &seed[..first_person],
        &seed[first_person..]
    );
    let mut c = Client::start();
    open(&mut c, uri, &text);
    let aisha = c.hover(uri, position_of(&text, "person aisha", 8));
    assert!(
        aisha.contains("**") && aisha.contains("groups: hr"),
        "{aisha}"
    );
}
