//! `cici lsp`: a Language Server Protocol server over stdio.
//!
//! Every open document is checked as it changes (incremental sync; changes
//! that a newer change makes stale are applied but not checked), with the
//! same pipeline as `cici check`, and its diagnostics are published with
//! their help and the verified fixes. On top of the last check of a
//! document the server answers:
//! - hover: an attribute's labels, visibility and class (with the reason,
//!   as `cici explain` gives it), a person's name and role, what a room,
//!   meeting, ticket, level, variable or predicate is;
//! - go to definition of people, rooms, meetings, tickets, attributes,
//!   levels and evidence variables;
//! - completion of what the statement being typed takes: names by kind,
//!   slots, features, evidence values, the family's predicates (with a
//!   snippet), keywords.
//!
//! Names come from the parser's tree ([`crate::syntax::parse`]), which
//! keeps every statement but those that do not parse, so completion, hover
//! and definition keep working while a line does not parse and read what
//! `cici check` reads (`tree`); hover also falls back on the last check in
//! which the document checked, for what only a check knows (an
//! attribute's class).
//! - code actions: the fixes of the diagnostics in range;
//! - formatting: `cici fmt` on the whole document, or an error that says
//!   why a document that does not parse cannot be formatted;
//! - the outline (document symbols), rename of a declared name across its
//!   scenario, semantic tokens (names coloured by what they name), and
//!   pulled diagnostics for clients that ask rather than listen.
//!
//! Positions are UTF-16 code units, the protocol's default.

mod capabilities;
mod complete;
mod dispatch;
mod handlers;
mod navigate;
mod symbols;
pub mod transport;
mod tree;

use std::collections::HashMap;

use lsp_server::{Connection, Message, Notification, Request, Response};
use lsp_types::notification::{
    DidChangeTextDocument, DidCloseTextDocument, DidOpenTextDocument, Notification as _,
    PublishDiagnostics,
};
use lsp_types::{
    CodeAction, CodeActionKind, CodeActionOrCommand, Diagnostic, DiagnosticRelatedInformation,
    DiagnosticSeverity, DidChangeTextDocumentParams, DidCloseTextDocumentParams,
    DidOpenTextDocumentParams, Location, NumberOrString, Position, PublishDiagnosticsParams, Range,
    TextEdit, Uri, WorkspaceEdit,
};

use crate::analysis::Options;
use crate::authoring::fixit::Fixes as _;
use crate::driver::Run;

/// The solver bound of one check in the editor (the command line's is 10 s).
pub const LSP_MAX_SOLVE: std::time::Duration = std::time::Duration::from_millis(300);

/// How the protocol loop ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ended {
    /// `exit` after `shutdown`, or the end of input.
    Clean,
    /// `exit` without `shutdown`: the protocol asks for exit status 1.
    WithoutShutdown,
}

/// Serves the protocol on stdin and stdout until the client exits;
pub fn run_stdio() -> Result<Ended, ServeError> {
    transport::run_stdio(serve)
}

/// The protocol loop on any connection.
pub fn serve(connection: &Connection) -> Result<Ended, ServeError> {
    let caps = serde_json::to_value(capabilities::capabilities())
        .map_err(|e| ServeError::Capabilities(e.to_string()))?;
    let (id, _params) = connection.initialize_start()?;
    connection.initialize_finish(
        id,
        serde_json::json!({
            "capabilities": caps,
            "serverInfo": { "name": "cici", "version": env!("CARGO_PKG_VERSION") },
        }),
    )?;
    let mut server = Server::new();
    let mut shutting_down = false;
    let mut queue: std::collections::VecDeque<Message> = std::collections::VecDeque::new();
    loop {
        let msg = match queue.pop_front() {
            Some(m) => m,
            None => match connection.receiver.recv() {
                Ok(m) => m,
                Err(_) => return Ok(Ended::Clean),
            },
        };
        // Changes typed faster than they are checked: when the next thing
        // waiting for the same document is a newer change, this one is
        // applied but not checked, so the checker never falls behind the
        // typist.
        queue.extend(connection.receiver.try_iter());
        let stale = superseded(&msg, &queue);
        match msg {
            Message::Request(req) if req.method == "shutdown" => {
                shutting_down = true;
                send(
                    connection,
                    Message::Response(Response::new_ok(req.id, serde_json::Value::Null)),
                )?;
            }
            Message::Request(req) if shutting_down => {
                send(
                    connection,
                    Message::Response(Response::new_err(
                        req.id,
                        lsp_server::ErrorCode::InvalidRequest as i32,
                        "the server is shutting down".into(),
                    )),
                )?;
            }
            Message::Request(req) => {
                let resp = server.request(req);
                send(connection, Message::Response(resp))?;
            }
            Message::Notification(n) if n.method == "exit" => {
                return Ok(if shutting_down {
                    Ended::Clean
                } else {
                    Ended::WithoutShutdown
                })
            }
            Message::Notification(n) => {
                for out in server.notification(n, stale) {
                    send(connection, Message::Notification(out))?;
                }
            }
            Message::Response(_) => {}
        }
    }
}

/// The URI a change notification is about.
fn changed_uri(msg: &Message) -> Option<String> {
    match msg {
        Message::Notification(n) if n.method == DidChangeTextDocument::METHOD => {
            n.params["textDocument"]["uri"].as_str().map(str::to_string)
        }
        _ => None,
    }
}

/// Whether a change is followed by a newer change of the same document
/// with nothing in between that would read the document.
fn superseded(msg: &Message, queue: &std::collections::VecDeque<Message>) -> bool {
    let Some(uri) = changed_uri(msg) else {
        return false;
    };
    for next in queue {
        match (changed_uri(next), next) {
            (Some(u), _) if u == uri => return true,
            (_, Message::Request(_)) => return false,
            _ => {}
        }
    }
    false
}

fn send(connection: &Connection, msg: Message) -> Result<(), ServeError> {
    connection
        .sender
        .send(msg)
        .map_err(|_| ServeError::ClientGone)
}

/// Why the server stopped before the client said `exit`.
#[derive(Debug, thiserror::Error)]
pub enum ServeError {
    /// The handshake went wrong (a message out of order, the input closed).
    #[error(transparent)]
    Protocol(#[from] lsp_server::ProtocolError),
    /// The writer to the client stopped: nobody reads the answers.
    #[error("the client's side of the connection is closed")]
    ClientGone,
    #[error("the server's capabilities: {0}")]
    Capabilities(String),
}

/// One open document and its last check.
struct Document {
    text: String,
    lines: LineIndex,
    run: Run,
    /// The last check in which every scenario checked, kept while the text
    /// has errors so that hover can still explain what it knew.
    fallback: Option<Run>,
    /// What was published for it, one per diagnostic of `run`.
    published: Vec<Diagnostic>,
    /// Its scenarios as the parser's tree has them, whole or partial.
    views: Vec<tree::View>,
}

impl Document {
    fn new(uri: &Uri, text: String) -> Document {
        // A lower bound than the command line's: an edit never waits on
        // the solver for long, and what it could not settle shows `unknown`.
        let options = Options {
            max_solve: Some(LSP_MAX_SOLVE),
        };
        let mut run = Run::new();
        run.check_text(uri.path().as_str(), text.clone(), &options);
        run.compute_fixes(&options);
        let mut doc = Document {
            lines: LineIndex::new(&text),
            text,
            run,
            fallback: None,
            published: Vec::new(),
            views: Vec::new(),
        };
        doc.views = tree::views(&doc.text);
        doc.published = diagnostics(uri, &doc);
        doc
    }
}

struct Server {
    documents: HashMap<String, Document>,
    /// Text with changes applied that a newer change made not worth
    /// checking yet.
    pending: HashMap<String, String>,
}

/// Applies the changes of one notification, in order: a whole text, or a
/// range (UTF-16 positions in the text as it is at that change).
fn apply_changes(
    mut text: String,
    changes: Vec<lsp_types::TextDocumentContentChangeEvent>,
) -> String {
    for change in changes {
        match change.range {
            None => text = change.text,
            Some(r) => {
                let lines = LineIndex::new(&text);
                let a = lines.offset(&text, r.start);
                let b = lines.offset(&text, r.end).max(a);
                text.replace_range(a..b, &change.text);
            }
        }
    }
    text
}

impl Server {
    fn new() -> Server {
        Server {
            documents: HashMap::new(),
            pending: HashMap::new(),
        }
    }

    fn notification(&mut self, n: Notification, stale: bool) -> Vec<Notification> {
        match n.method.as_str() {
            DidOpenTextDocument::METHOD => {
                let Ok(p) = serde_json::from_value::<DidOpenTextDocumentParams>(n.params) else {
                    return Vec::new();
                };
                self.update(p.text_document.uri, p.text_document.text)
            }
            DidChangeTextDocument::METHOD => {
                let Ok(p) = serde_json::from_value::<DidChangeTextDocumentParams>(n.params) else {
                    return Vec::new();
                };
                let uri = p.text_document.uri;
                let Some(before) = self
                    .pending
                    .remove(uri.as_str())
                    .or_else(|| self.documents.get(uri.as_str()).map(|d| d.text.clone()))
                else {
                    return Vec::new();
                };
                let text = apply_changes(before, p.content_changes);
                if stale {
                    self.pending.insert(uri.as_str().to_string(), text);
                    return Vec::new();
                }
                self.update(uri, text)
            }
            DidCloseTextDocument::METHOD => {
                let Ok(p) = serde_json::from_value::<DidCloseTextDocumentParams>(n.params) else {
                    return Vec::new();
                };
                self.documents.remove(p.text_document.uri.as_str());
                self.pending.remove(p.text_document.uri.as_str());
                vec![publish(p.text_document.uri, Vec::new())]
            }
            _ => Vec::new(),
        }
    }

    fn update(&mut self, uri: Uri, text: String) -> Vec<Notification> {
        self.pending.remove(uri.as_str());
        let mut doc = Document::new(&uri, text);
        if doc.run.errors() > 0 {
            doc.fallback = self.documents.remove(uri.as_str()).and_then(|old| {
                if old.run.errors() == 0 {
                    Some(old.run)
                } else {
                    old.fallback
                }
            });
        }
        let diagnostics = doc.published.clone();
        self.documents.insert(uri.as_str().to_string(), doc);
        vec![publish(uri, diagnostics)]
    }

    fn request(&mut self, req: Request) -> Response {
        use lsp_types::request::{
            CodeActionRequest, Completion, DocumentDiagnosticRequest, DocumentSymbolRequest,
            Formatting, GotoDefinition, HoverRequest, Rename, SemanticTokensFullRequest,
        };
        dispatch::Dispatch::new(self, req)
            .on::<HoverRequest>(handlers::hover)
            .on::<GotoDefinition>(handlers::definition)
            .on::<Completion>(handlers::completion)
            .on::<DocumentSymbolRequest>(handlers::outline)
            .on::<SemanticTokensFullRequest>(handlers::semantic_tokens)
            .on::<DocumentDiagnosticRequest>(handlers::diagnostics)
            .on::<Rename>(handlers::rename)
            .on::<CodeActionRequest>(handlers::code_actions)
            .on::<Formatting>(handlers::formatting)
            .finish()
    }
}

fn publish(uri: Uri, diagnostics: Vec<Diagnostic>) -> Notification {
    Notification::new(
        PublishDiagnostics::METHOD.to_string(),
        PublishDiagnosticsParams {
            uri,
            diagnostics,
            version: None,
        },
    )
}

/// Converts byte offsets to protocol positions and back.
struct LineIndex {
    /// The byte offset where each line starts.
    starts: Vec<usize>,
}

impl LineIndex {
    /// A line ends at `\n`, `\r\n` or a lone `\r`, as the protocol counts.
    fn new(text: &str) -> LineIndex {
        LineIndex {
            starts: crate::syntax::lex::line_starts(text),
        }
    }

    fn position(&self, text: &str, offset: usize) -> Position {
        let offset = offset.min(text.len());
        let line = self.starts.partition_point(|&s| s <= offset) - 1;
        let start = self.starts[line];
        let mut end = offset;
        while !text.is_char_boundary(end) {
            end -= 1;
        }
        let character: usize = text[start..end].chars().map(char::len_utf16).sum();
        Position::new(line as u32, character as u32)
    }

    fn offset(&self, text: &str, pos: Position) -> usize {
        let Some(&start) = self.starts.get(pos.line as usize) else {
            return text.len();
        };
        let mut units = 0usize;
        for (i, c) in text[start..].char_indices() {
            if units >= pos.character as usize || crate::syntax::lex::is_line_break(c) {
                return start + i;
            }
            units += c.len_utf16();
        }
        text.len()
    }

    fn range(&self, text: &str, offset: usize, len: usize) -> Range {
        Range::new(
            self.position(text, offset),
            self.position(text, offset + len),
        )
    }
}

fn diagnostics(uri: &Uri, doc: &Document) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    for d in &doc.run.diagnostics {
        let diag = &d.diagnostic;
        use miette::Diagnostic as _;
        let labels: Vec<miette::LabeledSpan> =
            diag.labels().map(|l| l.collect()).unwrap_or_default();
        let range = labels.first().map_or_else(
            || Range::new(Position::new(0, 0), Position::new(0, 0)),
            |l| doc.lines.range(&doc.text, l.offset(), l.len()),
        );
        let mut message = diag.to_string();
        if let Some(help) = diag.help() {
            message.push_str(&format!("\nhelp: {help}"));
        }
        for f in &d.fixes {
            message.push_str(&format!("\nfix: {}", f.message));
        }
        let related: Vec<DiagnosticRelatedInformation> = labels
            .iter()
            .skip(1)
            .map(|l| DiagnosticRelatedInformation {
                location: Location {
                    uri: uri.clone(),
                    range: doc.lines.range(&doc.text, l.offset(), l.len()),
                },
                message: l.label().unwrap_or("here").to_string(),
            })
            .collect();
        out.push(Diagnostic {
            range,
            severity: Some(if d.is_error() {
                DiagnosticSeverity::ERROR
            } else {
                DiagnosticSeverity::WARNING
            }),
            code: Some(NumberOrString::String(diag.code_name())),
            source: Some("cici".into()),
            message,
            related_information: (!related.is_empty()).then_some(related),
            ..Diagnostic::default()
        });
    }
    out
}

fn code_actions(uri: &Uri, doc: &Document, range: Range) -> Vec<CodeActionOrCommand> {
    let overlaps = |r: &Range| !(r.end < range.start || range.end < r.start);
    let mut out = Vec::new();
    for (d, lsp_diag) in doc.run.diagnostics.iter().zip(&doc.published) {
        if !overlaps(&lsp_diag.range) {
            continue;
        }
        for fix in &d.fixes {
            let edits: Vec<TextEdit> = fix
                .edits
                .iter()
                .map(|e| TextEdit {
                    range: doc.lines.range(&doc.text, e.offset, e.length),
                    new_text: e.replacement.clone(),
                })
                .collect();
            let title = fix.message.lines().next().unwrap_or("apply fix");
            out.push(CodeActionOrCommand::CodeAction(CodeAction {
                title: title.trim_end_matches(':').to_string(),
                kind: Some(CodeActionKind::QUICKFIX),
                diagnostics: Some(vec![lsp_diag.clone()]),
                edit: Some(WorkspaceEdit {
                    changes: Some(HashMap::from([(uri.clone(), edits)])),
                    ..WorkspaceEdit::default()
                }),
                is_preferred: Some(fix.unambiguous),
                ..CodeAction::default()
            }));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn positions_count_cr_crlf_and_lf_as_line_ends() {
        for nl in ["\n", "\r\n", "\r"] {
            let text = format!("a{nl}é{nl}{nl}xyz");
            let lines = LineIndex::new(&text);
            let y = text.find('y').unwrap();
            assert_eq!(lines.position(&text, y), Position::new(3, 1), "{nl:?}");
            assert_eq!(lines.offset(&text, Position::new(3, 1)), y, "{nl:?}");
            // A column past its line's end stops before the line break.
            let e = text.find('é').unwrap();
            let end = e + 'é'.len_utf8();
            assert_eq!(lines.offset(&text, Position::new(1, 9)), end, "{nl:?}");
            assert_eq!(lines.position(&text, end), Position::new(1, 1), "{nl:?}");
        }
    }
}
