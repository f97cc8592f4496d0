//! The language server, driven as an editor would: the built binary over
//! stdio, one scripted session (initialize, open, diagnostics, hover,
//! definition, completion, code action, change, formatting, shutdown).

use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{channel, Receiver};
use std::time::Duration;

use serde_json::{json, Value};

use super::common::root;

pub(crate) struct Client {
    pub(crate) child: Child,
    stdin: ChildStdin,
    incoming: Receiver<Value>,
    next_id: i64,
    /// Notifications seen while waiting for responses.
    notifications: Vec<Value>,
}

impl Client {
    pub(crate) fn start() -> Client {
        let mut child = Command::new(env!("CARGO_BIN_EXE_cici"))
            .arg("lsp")
            .current_dir(root())
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("cici lsp starts");
        let stdin = child.stdin.take().unwrap();
        let stdout = child.stdout.take().unwrap();
        let (tx, incoming) = channel();
        std::thread::spawn(move || {
            let mut reader = BufReader::new(stdout);
            loop {
                let mut length = None;
                loop {
                    let mut line = String::new();
                    if reader.read_line(&mut line).unwrap_or(0) == 0 {
                        return;
                    }
                    let line = line.trim_end();
                    if line.is_empty() {
                        break;
                    }
                    if let Some(n) = line.strip_prefix("Content-Length: ") {
                        length = n.parse::<usize>().ok();
                    }
                }
                let mut body = vec![0; length.expect("a Content-Length header")];
                reader.read_exact(&mut body).unwrap();
                if tx.send(serde_json::from_slice(&body).unwrap()).is_err() {
                    return;
                }
            }
        });
        Client {
            child,
            stdin,
            incoming,
            next_id: 1,
            notifications: Vec::new(),
        }
    }

    pub(crate) fn send(&mut self, msg: Value) {
        let body = msg.to_string();
        write!(self.stdin, "Content-Length: {}\r\n\r\n{body}", body.len()).unwrap();
        self.stdin.flush().unwrap();
    }

    pub(crate) fn receive(&mut self) -> Value {
        self.incoming
            .recv_timeout(Duration::from_secs(60))
            .expect("the server answers within a minute")
    }

    pub(crate) fn request(&mut self, method: &str, params: Value) -> Value {
        let msg = self.request_raw(method, params);
        assert!(msg.get("error").is_none(), "{method} failed: {msg}");
        msg["result"].clone()
    }

    /// The whole response: `result` or `error`.
    pub(crate) fn request_raw(&mut self, method: &str, params: Value) -> Value {
        let id = self.next_id;
        self.next_id += 1;
        self.send(json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}));
        loop {
            let msg = self.receive();
            if msg["id"] == json!(id) {
                return msg;
            }
            self.notifications.push(msg);
        }
    }

    /// A request at a position of a document: hover, definition, completion.
    pub(crate) fn at(&mut self, method: &str, uri: &str, position: Value) -> Value {
        self.request(
            method,
            json!({"textDocument": {"uri": uri}, "position": position}),
        )
    }

    /// The text a hover shows.
    pub(crate) fn hover(&mut self, uri: &str, position: Value) -> String {
        let h = self.at("textDocument/hover", uri, position);
        h["contents"]["value"].as_str().unwrap_or("").to_string()
    }

    /// The labels a completion offers.
    pub(crate) fn complete(&mut self, uri: &str, position: Value) -> Vec<String> {
        let items = self.at("textDocument/completion", uri, position);
        items
            .as_array()
            .unwrap()
            .iter()
            .map(|i| i["label"].as_str().unwrap().to_string())
            .collect()
    }

    pub(crate) fn notify(&mut self, method: &str, params: Value) {
        self.send(json!({"jsonrpc": "2.0", "method": method, "params": params}));
    }

    /// The next diagnostics published for `uri`.
    pub(crate) fn diagnostics(&mut self, uri: &str) -> Vec<Value> {
        loop {
            let msg = match self.notifications.iter().position(|n| {
                n["method"] == "textDocument/publishDiagnostics" && n["params"]["uri"] == uri
            }) {
                Some(i) => self.notifications.remove(i),
                None => self.receive(),
            };
            if msg["method"] == "textDocument/publishDiagnostics" && msg["params"]["uri"] == uri {
                return msg["params"]["diagnostics"].as_array().unwrap().clone();
            }
            self.notifications.push(msg);
        }
    }
}

/// The line and UTF-16 column of the first occurrence of `needle`, plus
/// `shift` characters.
pub(crate) fn position_of(text: &str, needle: &str, shift: usize) -> Value {
    let offset = text
        .find(needle)
        .unwrap_or_else(|| panic!("{needle} in text"))
        + shift;
    let line = text[..offset].matches('\n').count();
    let start = text[..offset].rfind('\n').map_or(0, |i| i + 1);
    json!({"line": line, "character": text[start..offset].encode_utf16().count()})
}

#[test]
fn a_scripted_editor_session() {
    let uri = "file:///work/seeds/typo.cici";
    let text =
        std::fs::read_to_string(root().join("tests/fixtures/fix/unknown_person.cici")).unwrap();
    let mut c = Client::start();
    let init = c.request(
        "initialize",
        json!({"processId": null, "rootUri": null, "capabilities": {}}),
    );
    let caps = &init["capabilities"];
    for cap in [
        "hoverProvider",
        "definitionProvider",
        "completionProvider",
        "codeActionProvider",
        "documentFormattingProvider",
    ] {
        assert!(!caps[cap].is_null(), "{cap} announced: {caps}");
    }
    c.notify("initialized", json!({}));

    // Open a seed with a misspelled holder: one error, with its fix.
    c.notify(
        "textDocument/didOpen",
        json!({"textDocument": {"uri": uri, "languageId": "cici", "version": 1, "text": text}}),
    );
    let diags = c.diagnostics(uri);
    assert_eq!(diags.len(), 1, "{diags:?}");
    let d = &diags[0];
    assert_eq!(d["code"], "cici::resolve::unknown_person");
    assert_eq!(d["severity"], 1);
    assert_eq!(d["range"]["start"], position_of(&text, "holder elli", 7));
    assert!(d["message"]
        .as_str()
        .unwrap()
        .contains("did you mean `eli`?"));

    // The fix as a code action.
    let actions = c.request(
        "textDocument/codeAction",
        json!({"textDocument": {"uri": uri}, "range": d["range"], "context": {"diagnostics": [d]}}),
    );
    let action = &actions[0];
    assert_eq!(action["kind"], "quickfix");
    assert_eq!(action["isPreferred"], true);
    let edit = &action["edit"]["changes"][uri][0];
    assert_eq!(edit["newText"], "eli");
    assert_eq!(edit["range"], d["range"]);

    // Apply it as the editor would: the document checks clean.
    let fixed = text.replacen("holder elli", "holder eli", 1);
    c.notify(
        "textDocument/didChange",
        json!({"textDocument": {"uri": uri, "version": 2}, "contentChanges": [{"text": fixed}]}),
    );
    assert_eq!(c.diagnostics(uri), Vec::<Value>::new());

    // Hover on an attribute: labels, visibility and class.
    let shown = c.hover(uri, position_of(&fixed, "attribute eli_court", 12));
    assert!(
        shown.contains("`eli_court`") && shown.contains("critical"),
        "{shown}"
    );
    assert!(
        shown.contains("inappropriate") && shown.contains("visible to"),
        "{shown}"
    );

    // Hover on a person and on a predicate.
    assert!(c
        .hover(uri, position_of(&fixed, "attendees [eli]", 12))
        .contains("Security Partner"));
    assert!(c
        .hover(uri, position_of(&fixed, "avoid_room(", 2))
        .contains("avoid_room(person, room)"));

    // Go to definition: from a use of a room to its declaration.
    let def = c.at(
        "textDocument/definition",
        uri,
        position_of(&fixed, "@ elm", 3),
    );
    assert_eq!(def["uri"], uri);
    assert_eq!(def["range"]["start"], position_of(&fixed, "room elm", 5));
    let def = c.at(
        "textDocument/definition",
        uri,
        position_of(&fixed, "holder eli", 8),
    );
    assert_eq!(def["range"]["start"], position_of(&fixed, "person eli", 7));

    // Completion: predicates after `fact`, people after `holder`.
    let items = c.complete(uri, position_of(&fixed, "fact avoid_room", 5));
    assert!(
        items.contains(&"unavailable".to_string()) && items.contains(&"needs_feature".to_string()),
        "{items:?}"
    );
    assert!(
        !items.contains(&"evidence".to_string()),
        "only the family's predicates: {items:?}"
    );
    assert_eq!(
        c.complete(uri, position_of(&fixed, "holder eli", 7)),
        vec!["maya", "eli"]
    );
    assert_eq!(
        c.complete(uri, position_of(&fixed, "rooms [cedar", 7)),
        vec!["cedar", "elm"]
    );
    // Inside a fact, the names its argument takes: people, then rooms.
    assert_eq!(
        c.complete(uri, position_of(&fixed, "avoid_room(eli", 11)),
        vec!["maya", "eli"]
    );
    assert_eq!(
        c.complete(uri, position_of(&fixed, "avoid_room(eli, cedar", 16)),
        vec!["cedar", "elm"]
    );

    // Formatting gives the canonical layout as one edit.
    let edits = c.request(
        "textDocument/formatting",
        json!({"textDocument": {"uri": uri}, "options": {"tabSize": 2, "insertSpaces": true}}),
    );
    let formatted = cici::syntax::format(&fixed).unwrap();
    if formatted == fixed {
        assert_eq!(edits, json!([]));
    } else {
        assert_eq!(edits[0]["newText"], formatted);
    }

    // A syntax error while typing is reported, and the server keeps going.
    let broken = fixed.replacen("title", "titel", 1);
    c.notify(
        "textDocument/didChange",
        json!({"textDocument": {"uri": uri, "version": 3}, "contentChanges": [{"text": broken}]}),
    );
    let diags = c.diagnostics(uri);
    assert_eq!(diags[0]["code"], "cici::syntax::unexpected");

    // A burst of edits, as from fast typing: the broken ones may be skipped,
    // the last one is what the diagnostics describe.
    for v in 0..20 {
        let text = if v < 19 {
            broken.replacen("task", &format!("tsk{v}"), 1)
        } else {
            fixed.clone()
        };
        c.notify(
            "textDocument/didChange",
            json!({"textDocument": {"uri": uri, "version": 4 + v}, "contentChanges": [{"text": text}]}),
        );
    }
    assert!(c
        .hover(uri, position_of(&fixed, "attribute eli_court", 12))
        .contains("critical"));
    let last = c
        .notifications
        .iter()
        .rev()
        .find(|n| n["method"] == "textDocument/publishDiagnostics")
        .expect("diagnostics after the burst");
    assert_eq!(last["params"]["diagnostics"], json!([]));

    // Categories after `category`.
    let items = c.complete(uri, position_of(&fixed, "category legal", 9));
    assert!(
        items.contains(&"health".to_string()) && items.contains(&"operational".to_string()),
        "{items:?}"
    );

    assert_eq!(c.request("shutdown", Value::Null), Value::Null);
    c.notify("exit", Value::Null);
    let status = c.child.wait().unwrap();
    assert!(status.success());
}

/// Opens `text` with `‸` marking the cursor and returns what completion
/// offers there.
pub(crate) fn complete_typing(
    c: &mut Client,
    uri: &str,
    version: i64,
    marked: &str,
) -> Vec<String> {
    let offset = marked.find('‸').expect("a cursor mark");
    let text = marked.replacen('‸', "", 1);
    c.notify(
        "textDocument/didChange",
        json!({"textDocument": {"uri": uri, "version": version}, "contentChanges": [{"text": text}]}),
    );
    c.diagnostics(uri);
    c.complete(uri, position_of(&text, &text[..offset], offset))
}

/// The table of positions where an editor needs completion most: the line
/// is unfinished, so the file does not parse.
#[test]
fn completion_hover_and_definition_work_while_the_text_does_not_parse() {
    let uri = "file:///work/seeds/broken.cici";
    let fixed = std::fs::read_to_string(root().join("tests/fixtures/fix/unknown_person.cici"))
        .unwrap()
        .replacen("holder elli", "holder eli", 1);
    let mut c = Client::start();
    c.request(
        "initialize",
        json!({"processId": null, "rootUri": null, "capabilities": {}}),
    );
    c.notify("initialized", json!({}));
    c.notify(
        "textDocument/didOpen",
        json!({"textDocument": {"uri": uri, "languageId": "cici", "version": 1, "text": fixed}}),
    );
    assert_eq!(c.diagnostics(uri), Vec::<Value>::new());
    let people = vec!["maya", "eli"];
    let rooms = vec!["cedar", "elm"];
    let typed = |line: &str| {
        fixed.replacen(
            "  oracle {",
            &format!("  attribute new_one {{\n    {line}\n  }}\n  oracle {{"),
            1,
        )
    };
    let cases: Vec<(String, Vec<&str>)> = vec![
        (typed("holder ‸"), people.clone()),
        (
            fixed.replacen("executor maya", "executor ‸", 1),
            people.clone(),
        ),
        (typed("fact avoid_room(‸"), people.clone()),
        (typed("fact avoid_room(eli, ‸"), rooms.clone()),
        (
            typed("fact unavailable(eli, ‸"),
            vec!["mon 09:00-10:00", "tue 10:00-11:00"],
        ),
        (
            fixed.replacen("    attendees [eli]", "    attendees [‸", 1),
            people.clone(),
        ),
        (
            fixed.replacen("    rooms [cedar, elm]", "    rooms [‸", 1),
            rooms.clone(),
        ),
        (
            fixed.replacen("m1 -> mon 09:00-10:00 @ elm }", "m1 -> ‸", 1),
            vec!["mon 09:00-10:00", "tue 10:00-11:00"],
        ),
        (
            fixed.replacen(
                "m1 -> mon 09:00-10:00 @ elm }",
                "m1 -> mon 09:00-10:00 @ ‸",
                1,
            ),
            rooms.clone(),
        ),
    ];
    for (k, (marked, want)) in cases.iter().enumerate() {
        let got = complete_typing(&mut c, uri, 2 + k as i64, marked);
        assert_eq!(
            &got,
            want,
            "at {:?}",
            &marked[marked.find('‸').unwrap() - 30..]
        );
    }
    // Where a statement starts, the keywords of the block being typed in.
    let in_attribute = complete_typing(&mut c, uri, 40, &typed("‸"));
    let in_meeting = complete_typing(
        &mut c,
        uri,
        41,
        &fixed.replacen("    attendees [eli]", "    attendees [eli]\n    ‸", 1),
    );
    let in_scenario = complete_typing(
        &mut c,
        uri,
        42,
        &fixed.replacen("  oracle {", "  ‸\n  oracle {", 1),
    );
    for (got, has, lacks) in [
        (
            &in_attribute,
            ["holder", "sanitized", "fact"],
            ["meeting", "attendees", "family"],
        ),
        (
            &in_meeting,
            ["attendees", "slots", "rooms"],
            ["holder", "attribute", "family"],
        ),
        (
            &in_scenario,
            ["attribute", "person", "oracle"],
            ["holder", "attendees", "share"],
        ),
    ] {
        for k in has {
            assert!(got.iter().any(|g| g == k), "{k} missing: {got:?}");
        }
        for k in lacks {
            assert!(!got.iter().any(|g| g == k), "{k} offered: {got:?}");
        }
    }
    // After `fact`: the family's predicates only, each once, with its
    // signature and a snippet for its arguments.
    let marked = typed("fact ‸");
    let offset = marked.find('‸').unwrap();
    let text = marked.replacen('‸', "", 1);
    c.notify(
        "textDocument/didChange",
        json!({"textDocument": {"uri": uri, "version": 50}, "contentChanges": [{"text": text}]}),
    );
    let items = c.at(
        "textDocument/completion",
        uri,
        position_of(&text, &text[..offset], offset),
    );
    let labels: Vec<&str> = items
        .as_array()
        .unwrap()
        .iter()
        .map(|i| i["label"].as_str().unwrap())
        .collect();
    assert_eq!(
        labels,
        [
            "unavailable",
            "avoid_room",
            "needs_feature",
            "attends",
            "not_before",
            "not_after",
            "requires_feature",
            "within_hours",
            "before"
        ]
    );
    let avoid = &items[1];
    assert_eq!(avoid["detail"], "avoid_room(person, room)");
    assert_eq!(avoid["insertText"], "avoid_room(${1:person}, ${2:room})");
    assert_eq!(avoid["insertTextFormat"], 2);

    // Hover and definition with an error elsewhere in the file: what the
    // last good check knew is still shown.
    let broken = fixed.replacen("title", "titel", 1);
    c.notify(
        "textDocument/didChange",
        json!({"textDocument": {"uri": uri, "version": 60}, "contentChanges": [{"text": broken}]}),
    );
    assert_eq!(c.diagnostics(uri)[0]["code"], "cici::syntax::unexpected");
    let shown = c.hover(uri, position_of(&broken, "attribute eli_court", 12));
    assert!(shown.contains("critical"), "{shown}");
    assert!(c
        .hover(uri, position_of(&broken, "attendees [eli]", 12))
        .contains("Security Partner"));
    assert!(c
        .hover(uri, position_of(&broken, "avoid_room(", 2))
        .contains("avoid_room(person, room)"));
    let def = c.at(
        "textDocument/definition",
        uri,
        position_of(&broken, "@ elm", 3),
    );
    assert_eq!(def["range"]["start"], position_of(&broken, "room elm", 5));

    // Formatting a broken file answers with the reason, not silence.
    let answer = c.request_raw(
        "textDocument/formatting",
        json!({"textDocument": {"uri": uri}, "options": {"tabSize": 2, "insertSpaces": true}}),
    );
    let message = answer["error"]["message"].as_str().unwrap_or_default();
    assert!(
        message.contains("cannot format") && message.contains("line 4"),
        "{answer}"
    );

    assert_eq!(c.request("shutdown", Value::Null), Value::Null);
    c.notify("exit", Value::Null);
    assert!(c.child.wait().unwrap().success());
}

/// The TextMate grammar is valid JSON and highlights every keyword of the
/// seed grammar.
#[test]
fn the_textmate_grammar_knows_every_keyword() {
    let grammar: Value = serde_json::from_str(
        &std::fs::read_to_string(root().join("editors/textmate/cici.tmLanguage.json")).unwrap(),
    )
    .unwrap();
    let repo = &grammar["repository"];
    let words: String = ["keyword", "label", "operator"]
        .iter()
        .map(|k| repo[*k]["match"].as_str().unwrap())
        .collect::<Vec<_>>()
        .join("|");
    let pest = std::fs::read_to_string(root().join("grammar/cici.pest")).unwrap();
    let keywords: Vec<&str> = pest
        .lines()
        .filter_map(|l| l.strip_prefix("kw_"))
        .filter_map(|l| l.split(" = ").next())
        .collect();
    assert!(keywords.len() > 40, "{keywords:?}");
    for kw in keywords {
        assert!(
            words.split(['|', '(', ')']).any(|w| w == kw),
            "`{kw}` is not highlighted"
        );
    }
    let families = repo["family"]["match"].as_str().unwrap();
    for f in cici::sema::Family::ALL {
        assert!(families.contains(f.name()));
    }
    // The Emacs mode highlights the same words.
    let emacs = std::fs::read_to_string(root().join("editors/emacs/cici-mode.el")).unwrap();
    for kw in &keywords_of_grammar() {
        assert!(
            emacs.contains(&format!("\"{kw}\"")),
            "cici-mode lacks `{kw}`"
        );
    }
    for f in cici::sema::Family::ALL {
        assert!(emacs.contains(&format!("\"{}\"", f.name())));
    }
}

fn keywords_of_grammar() -> Vec<String> {
    std::fs::read_to_string(root().join("grammar/cici.pest"))
        .unwrap()
        .lines()
        .filter_map(|l| l.strip_prefix("kw_"))
        .filter_map(|l| l.split(" = ").next())
        .map(str::to_string)
        .collect()
}
