//! Speed of the authoring tools an editor calls on every keystroke or
//! save: formatting a seed, and checking one with its fix-its proposed and
//! verified (what `cici lsp` does on each change).
//!
//! Target on a 2-core machine: both well under 100 ms for a PiSAs-size
//! seed, so that the editor never waits. Formatting costs about one parse.
//! On a document with 32,000 errors, the language server answers in about
//! the time `cici check` takes on it (a 1.4 MB one once took 47 s against
//! 1.3 s, before its stand-in check blanked the text in one pass).

/// The allocator the `cici` binary runs with, so that the figures are its.
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

use cici::analysis::Options;
use cici::authoring::fixit::Fixes as _;
use cici::driver::Run;
use cici::planted::{generate, Config};
use cici::sema::Family;

fn main() {
    divan::main();
}

fn pisas(family: Family) -> String {
    cici::printer::print(&generate(&Config::pisas(family, 3)))
}

#[divan::bench(args = [Family::MeetingAllocation, Family::JiraAllocation, Family::SeverityClassification])]
fn format_pisas_seed(bencher: divan::Bencher, family: Family) {
    let text = pisas(family);
    bencher.bench(|| cici::syntax::format(divan::black_box(&text)).unwrap().len());
}

/// A seed whose oracle is no longer unique (one critical attribute gone):
/// the not-unique fix searches for pinning facts and verifies them.
#[divan::bench(args = [Family::MeetingAllocation, Family::JiraAllocation, Family::SeverityClassification])]
fn check_with_fixes_not_unique(bencher: divan::Bencher, family: Family) {
    let mut sc = generate(&Config::pisas(family, 3));
    let i = (0..sc.attributes.len())
        .find(|&i| !sc.attributes[i].fact_form().1.facts.is_empty())
        .unwrap();
    sc.attributes.remove(i);
    let text = cici::printer::print(&sc);
    bencher.bench(|| {
        let mut run = Run::new();
        run.check_text(
            "s.cici",
            divan::black_box(text.clone()),
            &Options::default(),
        );
        run.compute_fixes(&Options::default());
        run.diagnostics.iter().map(|d| d.fixes.len()).sum::<usize>()
    });
}

/// A large JIRA seed with 32,000 more people, each reporting to someone
/// nobody declared: 32,000 errors in 1.8 MB.
fn thirty_two_thousand_errors() -> String {
    let defaults = Config::pisas(Family::JiraAllocation, 1);
    let text = cici::printer::print(&generate(&Config {
        people: 26,
        size: 60,
        ..defaults
    }));
    let at = text.find("\n  ticket ").expect("a ticket");
    let people: String = (0..32_000)
        .map(|i| format!("  person q{i} \"Q{i}\" role \"E\" reports_to nobody{i}\n"))
        .collect();
    format!("{}\n{people}{}", &text[..at], &text[at..])
}

/// What `cici check` does with it: the check and the fix-its.
#[divan::bench(sample_count = 5)]
fn errors_32000_check(bencher: divan::Bencher) {
    let text = thirty_two_thousand_errors();
    bencher.bench(|| {
        let mut run = Run::new();
        run.check_text(
            "e.cici",
            divan::black_box(text.clone()),
            &Options::default(),
        );
        run.compute_fixes(&Options::default());
        run.errors()
    });
}

/// What the language server does with it on a change: the check, the
/// fix-its, the diagnostics published and the stand-in check for hover,
/// then a hover answered.
#[divan::bench(sample_count = 5)]
fn errors_32000_language_server(bencher: divan::Bencher) {
    use lsp_server::{Connection, Message, Notification, Request, RequestId};
    use serde_json::json;
    let text = thirty_two_thousand_errors();
    let (server, client) = Connection::memory();
    let serving = std::thread::spawn(move || cici::authoring::lsp::serve(&server));
    let request = |id: i32, method: &str, params: serde_json::Value| {
        let req = Request::new(RequestId::from(id), method.into(), params);
        client
            .sender
            .send(Message::Request(req))
            .expect("the server listens");
        loop {
            match client.receiver.recv().expect("the server answers") {
                Message::Response(r) if r.id == RequestId::from(id) => return r,
                _ => {}
            }
        }
    };
    let notify = |method: &str, params: serde_json::Value| {
        let n = Notification::new(method.into(), params);
        client
            .sender
            .send(Message::Notification(n))
            .expect("the server listens");
    };
    request(0, "initialize", json!({"capabilities": {}}));
    notify("initialized", json!({}));
    let uri = "file:///e.cici";
    notify(
        "textDocument/didOpen",
        json!({"textDocument": {"uri": uri, "languageId": "cici", "version": 0, "text": text}}),
    );
    let mut version = 0;
    bencher.bench_local(|| {
        version += 1;
        notify(
            "textDocument/didChange",
            json!({"textDocument": {"uri": uri, "version": version},
                   "contentChanges": [{"text": text}]}),
        );
        let hover = json!({"textDocument": {"uri": uri}, "position": {"line": 6, "character": 10}});
        request(version, "textDocument/hover", hover)
            .response_result
            .is_ok()
    });
    request(-1, "shutdown", json!(null));
    notify("exit", json!(null));
    let _ = serving.join();
}
