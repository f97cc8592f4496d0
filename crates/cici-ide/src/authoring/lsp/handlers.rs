//! One handler per request the server answers, each typed by its request
//! (see [`super::dispatch`]). A request about a document that is not open
//! is answered with nothing, as the protocol allows, except where nothing
//! would read as success (rename).

use lsp_types::{
    CodeActionParams, CodeActionResponse, CompletionParams, CompletionResponse,
    DocumentDiagnosticParams, DocumentDiagnosticReport, DocumentDiagnosticReportResult,
    DocumentFormattingParams, DocumentSymbolParams, DocumentSymbolResponse,
    FullDocumentDiagnosticReport, GotoDefinitionParams, GotoDefinitionResponse, Hover, HoverParams,
    Location, Position, Range, RelatedFullDocumentDiagnosticReport, RenameParams,
    SemanticTokensParams, SemanticTokensResult, TextEdit, Uri, WorkspaceEdit,
};

use super::dispatch::Failure;
use super::{complete, navigate, symbols, Document, Server};
use crate::syntax;

impl Server {
    fn document(&self, uri: &Uri) -> Option<&Document> {
        self.documents.get(uri.as_str())
    }
}

pub(super) fn hover(s: &Server, p: HoverParams) -> Result<Option<Hover>, Failure> {
    let at = p.text_document_position_params;
    Ok(s.document(&at.text_document.uri)
        .and_then(|doc| navigate::hover(doc, at.position)))
}

pub(super) fn definition(
    s: &Server,
    p: GotoDefinitionParams,
) -> Result<Option<GotoDefinitionResponse>, Failure> {
    let at = p.text_document_position_params;
    let uri = at.text_document.uri;
    let range = s
        .document(&uri)
        .and_then(|doc| navigate::definition(doc, at.position));
    Ok(range.map(|range| GotoDefinitionResponse::Scalar(Location { uri, range })))
}

pub(super) fn completion(
    s: &Server,
    p: CompletionParams,
) -> Result<Option<CompletionResponse>, Failure> {
    let at = p.text_document_position;
    Ok(s.document(&at.text_document.uri).map(|doc| {
        let offset = doc.lines.offset(&doc.text, at.position);
        CompletionResponse::Array(complete::completions(doc, offset))
    }))
}

pub(super) fn outline(
    s: &Server,
    p: DocumentSymbolParams,
) -> Result<Option<DocumentSymbolResponse>, Failure> {
    Ok(s.document(&p.text_document.uri)
        .map(|doc| DocumentSymbolResponse::Nested(symbols::outline(doc))))
}

pub(super) fn semantic_tokens(
    s: &Server,
    p: SemanticTokensParams,
) -> Result<Option<SemanticTokensResult>, Failure> {
    Ok(s.document(&p.text_document.uri)
        .map(|doc| SemanticTokensResult::Tokens(symbols::semantic_tokens(doc))))
}

/// The diagnostics last published for the document; none for a document
/// that is not open.
pub(super) fn diagnostics(
    s: &Server,
    p: DocumentDiagnosticParams,
) -> Result<DocumentDiagnosticReportResult, Failure> {
    let items = s
        .document(&p.text_document.uri)
        .map_or_else(Vec::new, |doc| doc.published.clone());
    Ok(DocumentDiagnosticReportResult::Report(
        DocumentDiagnosticReport::Full(RelatedFullDocumentDiagnosticReport {
            related_documents: None,
            full_document_diagnostic_report: FullDocumentDiagnosticReport {
                result_id: None,
                items,
            },
        }),
    ))
}

pub(super) fn rename(s: &Server, p: RenameParams) -> Result<Option<WorkspaceEdit>, Failure> {
    let at = p.text_document_position;
    let doc = s
        .document(&at.text_document.uri)
        .ok_or_else(|| Failure::RequestFailed("the document is not open".into()))?;
    let offset = doc.lines.offset(&doc.text, at.position);
    symbols::rename(doc, &at.text_document.uri, offset, &p.new_name)
        .map(Some)
        .map_err(|e| Failure::RequestFailed(e.to_string()))
}

pub(super) fn code_actions(
    s: &Server,
    p: CodeActionParams,
) -> Result<Option<CodeActionResponse>, Failure> {
    Ok(s.document(&p.text_document.uri)
        .map(|doc| super::code_actions(&p.text_document.uri, doc, p.range)))
}

/// `cici fmt` on the whole document. A file that does not parse cannot be
/// formatted: the error says so, so that the editor shows why nothing
/// happened.
pub(super) fn formatting(
    s: &Server,
    p: DocumentFormattingParams,
) -> Result<Option<Vec<TextEdit>>, Failure> {
    let Some(doc) = s.document(&p.text_document.uri) else {
        return Ok(None);
    };
    let formatted = match syntax::format(&doc.text) {
        Ok(f) => f,
        Err(errors) => {
            let first = errors.first().map_or_else(String::new, |first| {
                let line = miette::Diagnostic::labels(first)
                    .and_then(|mut l| l.next())
                    .map(|l| doc.lines.position(&doc.text, l.offset()).line + 1);
                match line {
                    Some(n) => format!("line {n}: {first}"),
                    None => first.to_string(),
                }
            });
            return Err(Failure::RequestFailed(format!(
                "cici cannot format this file until it parses: {first}"
            )));
        }
    };
    if formatted == doc.text {
        return Ok(Some(Vec::new()));
    }
    let end = doc.lines.position(&doc.text, doc.text.len());
    Ok(Some(vec![TextEdit {
        range: Range::new(Position::new(0, 0), end),
        new_text: formatted,
    }]))
}
