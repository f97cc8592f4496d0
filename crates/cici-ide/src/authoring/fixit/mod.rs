//! Fix-its: concrete edits that would resolve a diagnostic.
//!
//! In: a [`Run`] whose diagnostics are known. Out: for each diagnostic the
//! fixes proposed for it. Every fix is verified before it is offered: it is
//! applied to the text, the text is checked again, and the fix is kept only
//! if the diagnostic went away without a new error in its place. A fix is
//! *unambiguous* when it is of a kind with one right answer (a misspelled
//! name with one close match, a fact whose removal alone lets the oracle in,
//! a sanitized form derived from the fact) and it is the only verified fix
//! of its diagnostic; `cici check --fix` applies exactly those.
//!
//! What is proposed:
//! - a name that resolves to nothing, with one close match: the match;
//! - an oracle that is not the only allowed decision: new attributes whose
//!   facts rule out each other decision while keeping the oracle, with a
//!   suggested raw and sanitized text;
//! - facts that conflict, or that rule the oracle out: which fact to drop;
//! - a fact that forbids nothing: drop it;
//! - a personal raw form used as evidence without a sanitized form, or an
//!   oracle that only inappropriate forms reach: the sanitized form the
//!   fact implies;
//! - an executor who cannot see a form the decision needs: the executor
//!   joins its `visible` list;
//! - a sanitized text that leaks: the leaking words are labelled, and a
//!   sanitized text derived from the fact is proposed.

mod forms;
mod pin;

use forms::derived_sanitized;
use pin::{pin_after, pin_oracle};
use rand::SeedableRng;

use crate::analysis::CheckDiagnostic;
use crate::analysis::Options;
use crate::driver::{Checked, Diagnosed, Fix, Problem, Run};
use crate::sema::{Attribute, Scenario};
use crate::span::SourceId;
pub use crate::span::{apply, Edit};

/// A proposal before verification.
struct Candidate {
    fix: Fix,
    /// Of a kind with one right answer.
    sole_kind: bool,
}

/// How much checking again the verification of one file's fixes may do:
/// at most this many checks, and at most this many bytes checked in all.
/// Each fix is verified by checking the whole file again, so a file with
/// thousands of fixable errors would take thousands of checks; past the
/// bound its diagnostics are offered no fix (no fix is offered unverified),
/// and `cici check --fix` run again takes up the rest. A seed of 50 KB
/// keeps every fix of 100 diagnostics; one of 4 MiB or more gets none.
const VERIFY_CHECKS: u32 = 100;
const VERIFY_BYTES: usize = 4 << 20;

/// What is left of a file's verification bound.
struct Verify {
    checks: u32,
    bytes: usize,
}

impl Verify {
    fn new() -> Verify {
        Verify {
            checks: VERIFY_CHECKS,
            bytes: VERIFY_BYTES,
        }
    }

    /// Takes `n` checks of a text of `len` bytes, if they are left.
    fn take(&mut self, n: usize, len: usize) -> bool {
        let (Ok(n32), Some(bytes)) = (u32::try_from(n), len.checked_mul(n)) else {
            return false;
        };
        if n32 > self.checks || bytes > self.bytes {
            return false;
        }
        self.checks -= n32;
        self.bytes -= bytes;
        true
    }
}

/// The fix-its of a [`Run`], which is the driver's, a layer below: its
/// methods for them are this trait's.
pub trait Fixes {
    /// Proposes and verifies fixes for every diagnostic of the run, within
    /// each file's verification bound.
    fn compute_fixes(&mut self, options: &Options);

    /// The unambiguous fixes of each file, as edits that do not overlap.
    fn unambiguous_edits(&self) -> Vec<(SourceId, Vec<Edit>)>;
}

impl Fixes for Run {
    fn compute_fixes(&mut self, options: &Options) {
        let mut all: Vec<Vec<Fix>> = Vec::with_capacity(self.diagnostics.len());
        let mut tallies: Vec<(SourceId, &Problem, Tally)> = Vec::new();
        let mut bounds: std::collections::HashMap<SourceId, Verify> = Default::default();
        for d in &self.diagnostics {
            let Some(file) = self.sources.get(d.source) else {
                all.push(Vec::new());
                continue;
            };
            let bound = bounds.entry(d.source).or_insert_with(Verify::new);
            // Nothing is proposed where nothing could be verified: some
            // proposals are searches of their own.
            if bound.checks == 0 || file.text.len() > bound.bytes {
                all.push(Vec::new());
                continue;
            }
            let candidates = candidates(self, d, &file.text, options);
            let kind = &d.diagnostic;
            let known = tallies
                .iter()
                .position(|(s, k, _)| *s == d.source && k.same_kind(kind));
            let needed = candidates.len() + usize::from(known.is_none());
            if candidates.is_empty() || !bound.take(needed, file.text.len()) {
                all.push(Vec::new());
                continue;
            }
            let before = match known {
                Some(i) => &tallies[i].2,
                None => {
                    let t = Tally::of(&file.name, &file.text, kind, options);
                    tallies.push((d.source, kind, t));
                    &tallies.last().expect("just pushed").2
                }
            };
            let mut verified: Vec<Candidate> = candidates
                .into_iter()
                .filter(|c| before.improved_by(&file.name, &file.text, &c.fix, d, options))
                .collect();
            let sole = verified.len() == 1;
            for c in &mut verified {
                c.fix.unambiguous = sole && c.sole_kind;
            }
            all.push(verified.into_iter().map(|c| c.fix).collect());
        }
        for (d, fixes) in self.diagnostics.iter_mut().zip(all) {
            d.fixes = fixes;
        }
    }

    fn unambiguous_edits(&self) -> Vec<(SourceId, Vec<Edit>)> {
        let mut out: Vec<(SourceId, Vec<Edit>)> = Vec::new();
        for d in &self.diagnostics {
            for fix in d.fixes.iter().filter(|f| f.unambiguous) {
                let entry = match out.iter().position(|(s, _)| *s == d.source) {
                    Some(i) => &mut out[i].1,
                    None => {
                        out.push((d.source, Vec::new()));
                        &mut out.last_mut().expect("just pushed").1
                    }
                };
                let overlaps = fix.edits.iter().any(|e| {
                    entry.iter().any(|o| {
                        e.offset < o.offset + o.length.max(1)
                            && o.offset < e.offset + e.length.max(1)
                    })
                });
                if !overlaps {
                    entry.extend(fix.edits.iter().cloned());
                }
            }
        }
        out
    }
}

/// What a check of one text found, to compare a fixed text against.
struct Tally {
    errors: usize,
    same_code: usize,
    syntax: usize,
}

impl Tally {
    fn of(name: &str, text: &str, kind: &Problem, options: &Options) -> Tally {
        let mut run = Run::new();
        run.check_text(name, text, options);
        Tally {
            errors: run.errors(),
            same_code: run
                .diagnostics
                .iter()
                .filter(|d| d.diagnostic.same_kind(kind))
                .count(),
            syntax: run
                .diagnostics
                .iter()
                .filter(|d| matches!(d.diagnostic, Problem::Syntax(_)))
                .count(),
        }
    }

    /// The fixed text has fewer diagnostics of this code and no new syntax
    /// error, and, for a fix of the analyses, no more errors than before
    /// (one fewer for an error). A fix of a keyword or a name may uncover
    /// findings of later stages, which is progress.
    fn improved_by(
        &self,
        name: &str,
        text: &str,
        fix: &Fix,
        d: &Diagnosed,
        options: &Options,
    ) -> bool {
        let Some(fixed) = apply(text, &fix.edits) else {
            return false;
        };
        let after = Tally::of(name, &fixed, &d.diagnostic, options);
        if after.same_code >= self.same_code || after.syntax > self.syntax {
            return false;
        }
        if matches!(d.diagnostic, Problem::Check(_)) {
            let allowed = if d.is_error() {
                self.errors - 1
            } else {
                self.errors
            };
            after.errors <= allowed
        } else {
            true
        }
    }
}

/// The checked scenario a diagnostic points into.
fn scenario_at<'r>(run: &'r Run, d: &Diagnosed, offset: usize) -> Option<&'r Checked> {
    run.checked.iter().find(|c| {
        c.scenario.span.source == d.source
            && c.scenario.span.start as usize <= offset
            && offset <= c.scenario.span.end as usize
    })
}

/// The word under a span replaced by the one close match a help names.
fn replace_word(
    text: &str,
    span: miette::SourceSpan,
    help: Option<&crate::suggest::Help>,
) -> Vec<Candidate> {
    let (offset, length) = (span.offset(), span.len());
    let word = text.get(offset..offset + length).unwrap_or("");
    let is_word = !word.is_empty() && word.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
    let Some(name) = help
        .and_then(|h| h.suggestion.as_deref())
        .filter(|_| is_word)
    else {
        return Vec::new();
    };
    vec![Candidate {
        fix: Fix {
            message: format!("replace `{word}` with `{name}`"),
            unambiguous: false,
            edits: vec![Edit {
                offset,
                length,
                replacement: name.to_string(),
            }],
        },
        sole_kind: true,
    }]
}

/// The start offsets of a diagnostic's labels.
fn offsets(spans: &[miette::LabeledSpan]) -> Vec<usize> {
    spans.iter().map(|l| l.offset()).collect()
}

fn candidates(run: &Run, d: &Diagnosed, text: &str, options: &Options) -> Vec<Candidate> {
    let check = match &d.diagnostic {
        Problem::Syntax(crate::syntax::SyntaxError::Unexpected { span, help, .. }) => {
            return replace_word(text, *span, help.as_ref());
        }
        Problem::Syntax(_) => return Vec::new(),
        Problem::Resolve(e) => {
            return e
                .unknown_name()
                .map(|(span, help)| replace_word(text, span, help))
                .unwrap_or_default();
        }
        Problem::Check(c) => c,
    };
    let mut out = Vec::new();
    let Some(offset) = d.diagnostic.offset() else {
        return out;
    };
    let Some(checked) = scenario_at(run, d, offset) else {
        return out;
    };
    let sc = &checked.scenario;
    match check {
        CheckDiagnostic::NotUnique { .. } => {
            if let Some(fix) = pin_oracle(sc, text, options) {
                out.push(Candidate {
                    fix,
                    sole_kind: false,
                });
            }
        }
        CheckDiagnostic::Conflict { facts, .. }
        | CheckDiagnostic::OracleForbidden { facts, .. } => {
            out.extend(drop_facts(sc, text, &offsets(facts), true, options));
        }
        CheckDiagnostic::IdleFact { span, .. } => {
            out.extend(drop_facts(sc, text, &[span.offset()], false, options));
        }
        CheckDiagnostic::MissingSanitized { span, .. } => {
            out.extend(add_sanitized(sc, text, &[span.offset()]));
        }
        CheckDiagnostic::InappropriateNeed { forms, .. } => {
            out.extend(add_sanitized(sc, text, &offsets(forms)));
        }
        CheckDiagnostic::ExecutorCannotSee { .. } => {
            out.extend(forms::executor_sees(sc, text, offset));
        }
        CheckDiagnostic::Leak { .. } => {
            out.extend(forms::state_only_the_implication(sc, offset));
        }
        _ => {}
    }
    out
}

/// Dropping each fact that starts at one of `offsets`; with `pin`, a drop
/// that lets other decisions in also rules those out.
fn drop_facts(
    sc: &Scenario,
    text: &str,
    offsets: &[usize],
    pin: bool,
    options: &Options,
) -> Vec<Candidate> {
    let mut out = Vec::new();
    for &at in offsets {
        let Some((attr, fact_span)) = fact_at(sc, at) else {
            continue;
        };
        let Some(edit) = remove_clause(text, fact_span.0, fact_span.1) else {
            continue;
        };
        let clause = text[edit_clause_start(text, fact_span.0)..fact_span.1].to_string();
        let mut message = format!("drop `{clause}` from `{}`", attr.id);
        let mut sole_kind = pin;
        let mut edits = vec![edit.clone()];
        // Without the fact the oracle may be allowed beside others:
        // then the fix also rules those out.
        if pin {
            if let Some(pin) = pin_after(sc, text, &edit, options) {
                message = format!("{message}, and {}", pin.message);
                edits.extend(pin.edits);
                sole_kind = false;
            }
        }
        out.push(Candidate {
            fix: Fix {
                message,
                unambiguous: false,
                edits,
            },
            sole_kind,
        });
    }
    out
}

/// A sanitized form for every attribute whose raw form starts at one of
/// `offsets`: the one the fact implies, all in one fix.
fn add_sanitized(sc: &Scenario, text: &str, offsets: &[usize]) -> Vec<Candidate> {
    let mut out = Vec::new();
    // Every attribute labelled whose raw form states the facts.
    let mut edits = Vec::new();
    let mut forms = Vec::new();
    for &at in offsets {
        let Some(attr) = sc
            .attributes
            .iter()
            .find(|a| a.sanitized.is_none() && a.raw.span.start as usize == at)
        else {
            continue;
        };
        let Some(sanitized) = derived_sanitized(sc, attr) else {
            return out;
        };
        let indent = indentation(text, attr.raw.span.start as usize);
        let clause = format!("sanitized {}", crate::printer::quote(&sanitized));
        edits.push(Edit {
            offset: attr.raw.span.end as usize,
            length: 0,
            replacement: format!("\n{indent}{clause}"),
        });
        forms.push(format!("`{clause}` to `{}`", attr.id));
    }
    if !edits.is_empty() {
        out.push(Candidate {
            fix: Fix {
                message: format!(
                    "add {} (the sanitized form states the fact; the raw form stays with its holder)",
                    forms.join(" and ")
                ),
                unambiguous: false,
                edits,
            },
            sole_kind: true,
        });
    }
    out
}

/// The attribute and the `(start, end)` of the fact whose predicate starts
/// at `offset`.
fn fact_at(sc: &Scenario, offset: usize) -> Option<(&Attribute, (usize, usize))> {
    sc.attributes.iter().find_map(|a| {
        let forms = std::iter::once(&a.raw).chain(a.sanitized.as_ref());
        forms
            .flat_map(|f| &f.facts)
            .find(|f| !f.span.is_derived() && f.span.start as usize == offset)
            .map(|f| (a, (f.span.start as usize, f.span.end as usize)))
    })
}

/// Where the `fact`, `soft` or `claim` keyword before a predicate starts.
fn edit_clause_start(text: &str, predicate: usize) -> usize {
    let before = text[..predicate].trim_end();
    for kw in ["fact", "soft", "claim"] {
        if let Some(rest) = before.strip_suffix(kw) {
            if !rest.ends_with(|c: char| c.is_alphanumeric() || c == '_') {
                return rest.len();
            }
        }
    }
    predicate
}

/// An edit that removes a `fact ...` clause: its whole line when it stands
/// alone on it (a comment after it goes too), else just the clause.
fn remove_clause(text: &str, predicate: usize, end: usize) -> Option<Edit> {
    let start = edit_clause_start(text, predicate);
    if start == predicate {
        return None;
    }
    let line_start = crate::syntax::lex::line_start(text, start);
    let line_end = crate::syntax::lex::line_end(text, end);
    let after = text[end..line_end].trim();
    if text[line_start..start].trim().is_empty() && (after.is_empty() || after.starts_with('#')) {
        let length = line_end + crate::syntax::lex::break_len(text, line_end) - line_start;
        return Some(Edit {
            offset: line_start,
            length,
            replacement: String::new(),
        });
    }
    let trailing = text[end..].len() - text[end..].trim_start_matches([' ', '\t']).len();
    Some(Edit {
        offset: start,
        length: end - start + trailing,
        replacement: String::new(),
    })
}

/// The blanks that open the line holding `offset`.
fn indentation(text: &str, offset: usize) -> String {
    let line_start = crate::syntax::lex::line_start(text, offset);
    text[line_start..offset]
        .chars()
        .take_while(|c| *c == ' ' || *c == '\t')
        .collect()
}
