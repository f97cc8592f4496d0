//! Large inputs that once took time in a product of two of their sizes:
//! tens of thousands of people (the text reader compared every name with
//! every other), of unknown names among them (each was compared with every
//! declared one, and its line and column counted from the file's start),
//! of misspelled names with one close match (each fix checked the whole
//! file again), and of errors in the language server (its stand-in check
//! blanked the text one character per error). Each ends within a hang
//! guard; `benches/check.rs` and `benches/authoring.rs` measure them.

use std::sync::mpsc::channel;
use std::time::Duration;

use serde_json::json;

use cici::analysis::Options;
use cici::authoring::fixit::Fixes as _;
use cici::driver::{CheckOutput, Run};

use crate::it::common::cici;
use crate::it::lsp::Client;

const GUARD: Duration = Duration::from_secs(20);

/// A large JIRA seed as `cici synth` writes it, with `extra` more lines
/// inserted among its people, the `i`-th from `line(i)`.
fn with_people(extra: usize, line: impl Fn(usize) -> String) -> String {
    let out = cici(&[
        "synth",
        "jira_allocation",
        "--people",
        "26",
        "--size",
        "60",
        "--seed",
        "1",
    ]);
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    let at = text.find("\n  ticket ").expect("a ticket");
    let lines: String = (0..extra).map(|i| line(i) + "\n").collect();
    format!("{}\n{lines}{}", &text[..at], &text[at..])
}

/// A name of letters only, different for each `i` (`Bab`, `Bac`, ...).
fn letters(i: usize) -> String {
    let mut n = i + 26 * 26;
    let mut out = Vec::new();
    while n > 0 {
        out.push(b'a' + (n % 26) as u8);
        n /= 26;
    }
    out.reverse();
    let mut s = String::from_utf8(out).unwrap();
    s[..1].make_ascii_uppercase();
    s
}

/// Runs `f` in a thread of its own, so that a hang fails the test.
fn guarded<T: Send + 'static>(what: &str, f: impl FnOnce() -> T + Send + 'static) -> T {
    let (tx, rx) = channel();
    std::thread::spawn(move || {
        let _ = tx.send(f());
    });
    rx.recv_timeout(GUARD)
        .unwrap_or_else(|_| panic!("{what} did not end"))
}

#[test]
fn forty_thousand_people_check() {
    let text = with_people(40_000, |i| {
        format!(
            "  person x{i} \"{} Extra\" role \"Engineer\" skills []",
            letters(i)
        )
    });
    let run = guarded("the check", move || {
        let mut run = Run::new();
        run.check_text("people.cici", text, &Options::default());
        run
    });
    assert_eq!(run.errors(), 0);
    assert!(run.checked[0].report.unique);
    assert_eq!(run.checked[0].scenario.people.len(), 40_026);
}

#[test]
fn thirty_two_thousand_unknown_names_check() {
    let text = with_people(32_000, |i| {
        format!("  person q{i} \"Q{i}\" role \"E\" reports_to nobody{i}")
    });
    let run = guarded("the check", move || {
        let mut run = Run::new();
        run.check_text("errors.cici", text, &Options::default());
        run.compute_fixes(&Options::default());
        let json = serde_json::to_value(CheckOutput::new(&run, false)).unwrap();
        (run.errors(), json)
    });
    assert_eq!(run.0, 32_000);
    let diagnostics = run.1["diagnostics"].as_array().unwrap();
    // Every one has its help and its place, the last one included.
    assert!(diagnostics.iter().all(|d| d["help"].is_string()));
    let last = &diagnostics[31_999];
    assert_eq!(last["code"], "cici::resolve::unknown_person");
    assert!(last["line"].as_u64().unwrap() > 32_000, "{last}");
}

#[test]
fn thousands_of_fixable_names_are_fixed_within_a_bound() {
    let text = with_people(4_000, |i| {
        format!("  person q{i} \"Q{i}\" role \"E\" reports_to mgrr")
    });
    let run = guarded("the fixes", move || {
        let mut run = Run::new();
        run.check_text("typos.cici", text, &Options::default());
        run.compute_fixes(&Options::default());
        run
    });
    assert_eq!(run.errors(), 4_000);
    let fixed = run
        .diagnostics
        .iter()
        .filter(|d| !d.fixes.is_empty())
        .count();
    // The first ones are verified and offered; the file is too large for
    // all of them to be.
    assert!(!run.diagnostics[0].fixes.is_empty());
    assert!(run.diagnostics[0].fixes[0].unambiguous);
    assert!(fixed > 0 && fixed < 4_000, "{fixed}");
}

#[test]
fn the_language_server_answers_on_a_document_with_thirty_two_thousand_errors() {
    let text = with_people(32_000, |i| {
        format!("  person q{i} \"Q{i}\" role \"E\" reports_to nobody{i}")
    });
    assert!(text.len() > 1_400_000);
    let uri = "file:///work/seeds/errors.cici";
    let mut c = Client::start();
    c.request(
        "initialize",
        json!({"processId": null, "rootUri": null, "capabilities": {}}),
    );
    c.notify("initialized", json!({}));
    c.notify(
        "textDocument/didOpen",
        json!({"textDocument": {"uri": uri, "languageId": "cici", "version": 1, "text": text}}),
    );
    // The client waits a minute at most for each message: the hang guard.
    assert_eq!(c.diagnostics(uri).len(), 32_000);
    // Hover on a person reads the stand-in check without the errors.
    let line = text.lines().position(|l| l.contains("person mgr")).unwrap();
    let hover = c.hover(uri, json!({"line": line, "character": 10}));
    assert!(hover.contains("(mgr)"), "{hover}");
    c.request("shutdown", json!(null));
    c.notify("exit", json!(null));
    let _ = c.child.wait();
}
