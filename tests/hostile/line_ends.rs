//! Line ends: a seed whose lines end at `\r`, `\r\n` or `\n`, or at a mix
//! of them, means the same, and every line and column cici reports (the
//! rendered diagnostics, the JSON records, the language server's positions)
//! counts them alike, as the language server protocol does.

use serde_json::{json, Value};

use cici::driver::{DiagnosticRecord, Run};

use crate::it::common::{check, render, root};
use crate::it::lsp::{position_of, Client};

const ENDS: [&str; 3] = ["\r", "\r\n", "mixed"];

/// `text` with its line ends made `nl` (`mixed`: `\r`, `\r\n` and `\n` in
/// turn).
fn with_line_ends(text: &str, nl: &str) -> String {
    let lf = text.replace("\r\n", "\n").replace('\r', "\n");
    if nl != "mixed" {
        return lf.replace('\n', nl);
    }
    let mut out = String::new();
    for (i, line) in lf.split_inclusive('\n').enumerate() {
        match line.strip_suffix('\n') {
            Some(body) => out.push_str(&format!("{body}{}", ["\r", "\r\n", "\n"][i % 3])),
            None => out.push_str(line),
        }
    }
    out
}

/// What a run found: each scenario's verdict and classes, each
/// diagnostic's code, message and line and column, and the diagnostics
/// as rendered.
fn outcome(run: &Run) -> String {
    let mut out = String::new();
    for c in &run.checked {
        out.push_str(&format!("{} unique={}\n", c.scenario.id, c.report.unique));
        for (a, f) in c.scenario.attributes.iter().zip(&c.report.attributes) {
            let sanitized = a.sanitized.as_ref().map_or("", |s| s.text.as_str());
            out.push_str(&format!(
                "  {} {} {:?} {:?}\n",
                a.id,
                f.class.name(),
                a.raw.text,
                sanitized
            ));
        }
    }
    for d in &run.diagnostics {
        let r = DiagnosticRecord::new(d, &run.sources);
        out.push_str(&format!(
            "{} {}:{} {}\n",
            r.code, r.line, r.column, r.message
        ));
    }
    out + &render(run)
}

/// Every seed of the project and every check fixture that runs without a
/// solver bound of its own.
fn seeds_and_fixtures() -> Vec<std::path::PathBuf> {
    let mut paths = Vec::new();
    for dir in [
        "seeds",
        "tests/fixtures/check/ok",
        "tests/fixtures/check/err",
    ] {
        for e in std::fs::read_dir(root().join(dir)).unwrap() {
            let p = e.unwrap().path();
            if p.extension().is_some_and(|x| x == "cici") {
                paths.push(p);
            }
        }
    }
    paths.sort();
    paths
        .into_iter()
        .filter(|p| {
            let text = std::fs::read_to_string(p).unwrap();
            !text.starts_with("# options:")
        })
        .collect()
}

#[test]
fn a_seed_with_cr_crlf_or_mixed_line_ends_checks_as_its_lf_twin() {
    for path in seeds_and_fixtures() {
        let text = with_line_ends(&std::fs::read_to_string(&path).unwrap(), "\n");
        let name = path.file_name().unwrap().to_str().unwrap();
        let lf = outcome(&check(name, &text));
        for nl in ENDS {
            let twin = outcome(&check(name, &with_line_ends(&text, nl)));
            assert_eq!(twin, lf, "{name} with {nl:?} line ends");
        }
    }
}

#[test]
fn a_comment_ends_at_a_lone_cr_and_the_fact_after_it_counts() {
    // The fact after the comment rules out Monday: without it the
    // scenario is not unique.
    let text = std::fs::read_to_string(root().join("tests/fixtures/fix/unknown_person.cici"))
        .unwrap()
        .replace("holder elli", "holder eli")
        .replace(
            "    fact unavailable(eli, tue",
            "    # the hearing\n    fact unavailable(eli, tue",
        );
    for nl in ENDS {
        let run = check("cr.cici", &with_line_ends(&text, nl));
        assert_eq!(run.errors(), 0, "{nl:?}: {}", render(&run));
        let classes = outcome(&run);
        assert!(classes.contains("eli_court critical"), "{nl:?}: {classes}");
    }
}

/// The first diagnostic the server publishes for `text`, and the server.
fn first_diagnostic(c: &mut Client, uri: &str, text: &str) -> Value {
    c.notify(
        "textDocument/didOpen",
        json!({"textDocument": {"uri": uri, "languageId": "cici", "version": 1, "text": text}}),
    );
    let diags = c.diagnostics(uri);
    assert_eq!(diags.len(), 1, "{uri}: {diags:?}");
    diags[0].clone()
}

#[test]
fn the_language_server_counts_cr_crlf_and_lf_as_line_ends() {
    let lf = std::fs::read_to_string(root().join("tests/fixtures/fix/unknown_person.cici"))
        .unwrap()
        .replace("\r\n", "\n");
    let mut c = Client::start();
    c.request(
        "initialize",
        json!({"processId": null, "rootUri": null, "capabilities": {}}),
    );
    c.notify("initialized", json!({}));
    let start = position_of(&lf, "holder elli", 7);
    for (i, nl) in ["\n", "\r", "\r\n", "mixed"].into_iter().enumerate() {
        let uri = format!("file:///work/seeds/ends_{i}.cici");
        let text = with_line_ends(&lf, nl);
        let d = first_diagnostic(&mut c, &uri, &text);
        assert_eq!(d["code"], "cici::resolve::unknown_person", "{nl:?}");
        assert_eq!(d["range"]["start"], start, "{nl:?}");
        // An edit at that range, as an editor sends it, lands on the word.
        c.notify(
            "textDocument/didChange",
            json!({"textDocument": {"uri": uri, "version": 2},
                   "contentChanges": [{"range": d["range"], "text": "eli"}]}),
        );
        assert_eq!(c.diagnostics(&uri), Vec::<Value>::new(), "{nl:?}");
        // A hover on the line after a lone CR finds the person there.
        let shown = c.hover(&uri, position_of(&lf, "attendees [eli]", 12));
        assert!(shown.contains("Security Partner"), "{nl:?}: {shown}");
    }
    c.request("shutdown", Value::Null);
    c.notify("exit", Value::Null);
    let _ = c.child.wait();
}
