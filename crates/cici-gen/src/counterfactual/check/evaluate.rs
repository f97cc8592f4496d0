//! The check of a candidate: its scenario given the one decision its
//! facts allow, printed as seed text and compiled by the whole compiler,
//! so that every label comes from the prover.
//!
//! In: a candidate (or a scenario, or its text). Out: `Evaluated` (the
//! compiled variant, its text and warning codes), or the `Reason` it does
//! not check.

use crate::analysis::Options;
use crate::counterfactual::base::records::Evaluated;
use crate::counterfactual::base::vocab::{Candidate, Reason};
use crate::driver::Run;
use crate::sema::Scenario;

/// Compiles a candidate from its printed text. The oracle of a decision
/// candidate is the one decision its facts allow, found by the solver;
/// `None` with a reason when there is no single one or the seed has errors.
pub fn evaluate(candidate: &Candidate, options: &Options) -> Result<Evaluated, Reason> {
    evaluate_scenario(with_oracle(candidate, options)?, options)
}

/// The candidate's scenario with its oracle set to the one decision its
/// facts allow (see [`oracle_of`]).
pub fn with_oracle(candidate: &Candidate, options: &Options) -> Result<Scenario, Reason> {
    let decision = oracle_of(&candidate.scenario, options)?;
    let mut sc = Scenario::clone(&candidate.scenario);
    sc.oracle = decision;
    Ok(sc)
}

/// The one decision a scenario's facts allow, whatever oracle it states.
/// The solver honours the check's bound: a variant it cannot decide
/// within it does not check, as its check would time out.
pub fn oracle_of(sc: &Scenario, options: &Options) -> Result<crate::sema::Decision, Reason> {
    let deadline = options.max_solve.map(|d| std::time::Instant::now() + d);
    match crate::analysis::decided(&crate::model::lower(sc), deadline) {
        crate::analysis::Decided::Nothing => Err(Reason::NoDecision),
        crate::analysis::Decided::Several => Err(Reason::SeveralDecisions),
        crate::analysis::Decided::Unknown => {
            let timeout = crate::analysis::CheckDiagnostic::Timeout {
                scenario: sc.id.clone(),
                ms: options.max_solve.map_or(0, |d| d.as_millis() as u64),
                span: sc.id_span.into(),
            };
            let code = miette::Diagnostic::code(&timeout).map(|c| c.to_string());
            Err(Reason::DoesNotCheck(code.into_iter().collect()))
        }
        crate::analysis::Decided::One(decision) => Ok(decision),
    }
}

/// Prints a scenario and runs the whole compiler on the text.
pub fn evaluate_scenario(sc: Scenario, options: &Options) -> Result<Evaluated, Reason> {
    evaluate_text(&sc.id, crate::printer::print(&sc), options)
}

/// Runs the whole compiler on a scenario's printed text.
pub fn evaluate_text(id: &str, text: String, options: &Options) -> Result<Evaluated, Reason> {
    let mut run = Run::new();
    run.check_text(format!("{id}.cici"), text.clone(), options);
    if run.errors() > 0 || run.checked.len() != 1 {
        let codes: Vec<String> = run
            .diagnostics
            .iter()
            .filter(|d| d.is_error())
            .map(|d| d.diagnostic.code_name())
            .collect();
        return Err(Reason::DoesNotCheck(codes));
    }
    let warnings = run
        .diagnostics
        .iter()
        .map(|d| d.diagnostic.code_name())
        .collect();
    let checked = run.checked.pop().expect("one scenario");
    Ok(Evaluated {
        checked,
        text,
        warnings,
    })
}
