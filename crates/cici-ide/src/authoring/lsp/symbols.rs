//! The outline (document symbols), rename, and semantic tokens, all from
//! the parser's tree (whole or partial scenarios): they work on text that
//! does not parse.

use std::collections::HashMap;

use lsp_types::{
    DocumentSymbol, SemanticToken, SemanticTokenType, SemanticTokens, SemanticTokensLegend,
    SymbolKind, TextEdit, Uri, WorkspaceEdit,
};

use super::complete::kind_name;
use super::tree::{at, is_ident, tokens, Kind};
use super::Document;

/// One outline entry per scenario, with its people, rooms, meetings,
/// tickets, attributes, levels and evidence variables.
#[allow(deprecated)] // `DocumentSymbol::deprecated` must still be given
pub(super) fn outline(doc: &Document) -> Vec<DocumentSymbol> {
    let (text, lines) = (&doc.text, &doc.lines);
    doc.views
        .iter()
        .map(|s| {
            let id = s.id.clone().unwrap_or_default();
            let range = lines.range(text, s.start, s.end.saturating_sub(s.start));
            let children = s
                .decls
                .iter()
                .map(|d| {
                    let r = lines.range(text, d.start, d.name.len());
                    DocumentSymbol {
                        name: d.name.clone(),
                        detail: Some(kind_name(d.kind).to_string()),
                        kind: match d.kind {
                            Kind::Person => SymbolKind::VARIABLE,
                            Kind::Room => SymbolKind::ENUM_MEMBER,
                            Kind::Meeting | Kind::Ticket => SymbolKind::EVENT,
                            Kind::Attribute => SymbolKind::STRUCT,
                            Kind::Level => SymbolKind::CONSTANT,
                            Kind::Variable => SymbolKind::PROPERTY,
                        },
                        tags: None,
                        deprecated: None,
                        range: r,
                        selection_range: r,
                        children: None,
                    }
                })
                .collect();
            DocumentSymbol {
                name: id,
                detail: s.family.map(|f| f.name().to_string()),
                kind: SymbolKind::MODULE,
                tags: None,
                deprecated: None,
                range,
                selection_range: range,
                children: Some(children),
            }
        })
        .collect()
}

/// Why a rename cannot be done.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub(super) enum RenameError {
    #[error("there is no name at the cursor")]
    NoName,
    #[error("`{0}` is not declared in this scenario")]
    Undeclared(String),
    #[error("`{0}` is not a name: use letters, digits and `_`, not starting with a digit")]
    NotAName(String),
    #[error("`{name}` already names a {kind} in this scenario")]
    Taken { name: String, kind: &'static str },
}

/// Renames a declared name everywhere in its scenario (names only: strings
/// and comments are text, and stay as they are). `Err` says why not.
pub(super) fn rename(
    doc: &Document,
    uri: &Uri,
    offset: usize,
    new_name: &str,
) -> Result<WorkspaceEdit, RenameError> {
    let (text, lines) = (&doc.text, &doc.lines);
    let (_, word) = super::navigate::word_at(text, offset).ok_or(RenameError::NoName)?;
    let s = at(&doc.views, offset).ok_or_else(|| RenameError::Undeclared(word.to_string()))?;
    let decl = s
        .decls
        .iter()
        .find(|d| d.name == word)
        .ok_or_else(|| RenameError::Undeclared(word.to_string()))?;
    if !is_ident(new_name) {
        return Err(RenameError::NotAName(new_name.to_string()));
    }
    if let Some(clash) = s.decls.iter().find(|d| d.name == new_name) {
        return Err(RenameError::Taken {
            name: new_name.to_string(),
            kind: kind_name(clash.kind),
        });
    }
    let edits: Vec<TextEdit> = tokens(&text[s.start..s.end])
        .into_iter()
        .filter(|t| t.text == decl.name)
        .map(|t| TextEdit {
            range: lines.range(text, s.start + t.start, t.text.len()),
            new_text: new_name.to_string(),
        })
        .collect();
    Ok(WorkspaceEdit {
        changes: Some(HashMap::from([(uri.clone(), edits)])),
        ..WorkspaceEdit::default()
    })
}

/// The token types, in the legend's order.
const TYPES: &[SemanticTokenType] = &[
    SemanticTokenType::KEYWORD,
    SemanticTokenType::VARIABLE,
    SemanticTokenType::ENUM_MEMBER,
    SemanticTokenType::EVENT,
    SemanticTokenType::STRUCT,
    SemanticTokenType::ENUM,
    SemanticTokenType::PROPERTY,
    SemanticTokenType::FUNCTION,
    SemanticTokenType::TYPE,
];

pub(super) fn legend() -> SemanticTokensLegend {
    SemanticTokensLegend {
        token_types: TYPES.to_vec(),
        token_modifiers: Vec::new(),
    }
}

/// Keywords, names by what they name (people, rooms, meetings and tickets,
/// attributes, levels, evidence variables), predicates and families.
pub(super) fn semantic_tokens(doc: &Document) -> SemanticTokens {
    let (text, lines) = (&doc.text, &doc.lines);
    let mut data = Vec::new();
    let (mut last_line, mut last_col) = (0u32, 0u32);
    for s in &doc.views {
        let kinds: HashMap<&str, Kind> =
            s.decls.iter().map(|d| (d.name.as_str(), d.kind)).collect();
        let predicates: Vec<&str> = crate::sema::PREDICATES.iter().map(|s| s.name).collect();
        let toks = tokens(&text[s.start..s.end]);
        for (k, t) in toks.iter().enumerate() {
            let next_is_paren = toks.get(k + 1).is_some_and(|n| n.text == "(");
            let ty = if let Some(kind) = kinds.get(t.text) {
                Some(match kind {
                    Kind::Person => 1,
                    Kind::Room => 2,
                    Kind::Meeting | Kind::Ticket => 3,
                    Kind::Attribute => 4,
                    Kind::Level => 5,
                    Kind::Variable => 6,
                })
            } else if next_is_paren && predicates.contains(&t.text) {
                Some(7)
            } else if crate::sema::Family::from_name(t.text).is_some() {
                Some(8)
            } else if crate::syntax::keywords().contains(&t.text) {
                Some(0)
            } else {
                None
            };
            let Some(ty) = ty else { continue };
            let pos = lines.position(text, s.start + t.start);
            let length: u32 = t.text.encode_utf16().count() as u32;
            let delta_line = pos.line - last_line;
            let delta_start = if delta_line == 0 {
                pos.character - last_col
            } else {
                pos.character
            };
            data.push(SemanticToken {
                delta_line,
                delta_start,
                length,
                token_type: ty,
                token_modifiers_bitset: 0,
            });
            (last_line, last_col) = (pos.line, pos.character);
        }
    }
    SemanticTokens {
        result_id: None,
        data,
    }
}
