//! Every diagnostic of a check, typed by its stage until it is printed.
//!
//! Each stage keeps its own error type; [`Problem`] wraps them so that a
//! run holds one list, and so that whoever acts on a diagnostic (fix-its,
//! the language server, the counterfactual loop) matches on a variant and
//! reads its fields, never a code string or a help line.

use miette::Diagnostic;
use thiserror::Error;

use crate::analysis::CheckDiagnostic;
use crate::sema::ResolveError;
use crate::syntax::SyntaxError;

/// A diagnostic of any stage of `cici check`.
#[derive(Debug, Clone, Error, Diagnostic, PartialEq, Eq)]
pub enum Problem {
    /// The text does not parse.
    #[error(transparent)]
    #[diagnostic(transparent)]
    Syntax(#[from] SyntaxError),
    /// It parses, but names or shapes do not resolve.
    #[error(transparent)]
    #[diagnostic(transparent)]
    Resolve(#[from] ResolveError),
    /// It resolves; the analyses found this.
    #[error(transparent)]
    #[diagnostic(transparent)]
    Check(#[from] CheckDiagnostic),
}

impl Problem {
    /// An error, as opposed to a warning.
    pub fn is_error(&self) -> bool {
        !matches!(
            self.severity(),
            Some(miette::Severity::Warning) | Some(miette::Severity::Advice)
        )
    }

    /// Its code, `cici::<stage>::<name>`, for output only: what acts on a
    /// diagnostic matches its variant.
    pub fn code_name(&self) -> String {
        self.code().map(|c| c.to_string()).unwrap_or_default()
    }

    /// Whether `other` is the same kind of diagnostic (the same variant of
    /// the same stage), whatever its fields.
    pub fn same_kind(&self, other: &Problem) -> bool {
        match (self, other) {
            (Problem::Syntax(a), Problem::Syntax(b)) => {
                std::mem::discriminant(a) == std::mem::discriminant(b)
            }
            (Problem::Resolve(a), Problem::Resolve(b)) => {
                std::mem::discriminant(a) == std::mem::discriminant(b)
            }
            (Problem::Check(a), Problem::Check(b)) => {
                std::mem::discriminant(a) == std::mem::discriminant(b)
            }
            _ => false,
        }
    }

    /// Where its first label points, as a byte offset.
    pub fn offset(&self) -> Option<usize> {
        self.labels().and_then(|mut l| l.next()).map(|l| l.offset())
    }
}
