//! Lints of the rules themselves (the rule-based families), independent of
//! any attribute: a valid configuration that no rule covers (an error when
//! there is no `otherwise`), a rule that never fires first, and two rules
//! with different outcomes that both hold for a valid configuration.
//!
//! In: a rule setting. Out: diagnostics, each naming a configuration that
//! shows it. Every question is one solver query over the configurations
//! (the model of [`crate::model::configurations`]), so the cost follows
//! the number of rules, never the number of configurations.

use std::time::Instant;

use super::diagnostic::CheckDiagnostic;
use crate::model::{configurations, kept_exclusions, Lit};
use crate::sema::{Condition, RuleSetting};
use crate::solver::{Outcome, Session};

/// Beyond this many variables, a configuration is shown by the variables
/// the rules in question mention.
const SHOW_ALL_UP_TO: usize = 10;

/// The rule lints; `Err(())` when the deadline passed first.
pub(super) fn lint(
    ss: &RuleSetting,
    policy: bool,
    deadline: Option<Instant>,
) -> Result<Vec<CheckDiagnostic>, ()> {
    let mut out = Vec::new();
    if !policy {
        out.extend(super::harm::inversions(ss));
    }
    let (model, fires) = configurations(ss);
    let mut session = Session::new(&model, deadline);
    let none: Vec<bool> = Vec::new();
    let mut solve = |extra: &[Lit]| match session.solve(&none, extra) {
        Outcome::Sat(c) => Ok(Some(c)),
        Outcome::Unsat => Ok(None),
        Outcome::Timeout => Err(()),
    };
    // No valid configuration at all: the exclusions' own error says so, and
    // every rule would read as dead.
    if solve(&[])?.is_none() {
        return Ok(out);
    }
    let rules = &ss.rubric.rules;
    if ss.rubric.otherwise.is_none() {
        let uncovered: Vec<Lit> = fires.iter().map(|&c| !c).collect();
        if let Some(c) = solve(&uncovered)? {
            let mentioned: Vec<&Condition> = rules.iter().map(|r| &r.when).collect();
            out.push(CheckDiagnostic::UncoveredConfiguration {
                configuration: describe(ss, &c, &mentioned),
                span: ss.rubric.span.into(),
            });
        }
    }
    let mut dead = vec![false; rules.len()];
    for (i, rule) in rules.iter().enumerate() {
        let mut first: Vec<Lit> = fires[..i].iter().map(|&c| !c).collect();
        first.push(fires[i]);
        if solve(&first)?.is_none() {
            dead[i] = true;
            let alone = solve(&[fires[i]])?.is_some();
            out.push(CheckDiagnostic::DeadRule {
                outcome: ss.levels[rule.level].id.clone(),
                span: rule.span.into(),
                help: Some(if alone {
                    "every configuration it matches is taken by an earlier rule: move it up, or drop it".into()
                } else {
                    "no valid configuration matches its condition: check the condition and the exclusions".into()
                }),
            });
        }
    }
    // Overlaps are a lint of `policy_decision`: a severity rubric lists
    // levels most severe first, and its rules nest by design.
    if !policy {
        return Ok(out);
    }
    // A dead rule is reported as such, not again as an overlap. One
    // warning per scenario: the first pair, and how many there are.
    let live: Vec<usize> = (0..rules.len()).filter(|&i| !dead[i]).collect();
    let mut pairs = 0usize;
    let mut first_pair = None;
    for (n, &i) in live.iter().enumerate() {
        for &j in &live[n + 1..] {
            if rules[i].level == rules[j].level {
                continue;
            }
            if let Some(c) = solve(&[fires[i], fires[j]])? {
                pairs += 1;
                first_pair.get_or_insert((i, j, c));
            }
        }
    }
    if let Some((i, j, c)) = first_pair {
        out.push(CheckDiagnostic::OverlappingRules {
            first: ss.levels[rules[i].level].id.clone(),
            second: ss.levels[rules[j].level].id.clone(),
            configuration: describe(ss, &c, &[&rules[i].when, &rules[j].when]),
            pairs,
            first_span: rules[i].span.into(),
            second_span: rules[j].span.into(),
        });
    }
    Ok(out)
}

/// A configuration in seed syntax: every variable when there are few,
/// else those the conditions mention.
fn describe(ss: &RuleSetting, states: &[usize], conditions: &[&Condition]) -> String {
    let mut shown: Vec<usize> = if ss.evidence.len() <= SHOW_ALL_UP_TO {
        (0..ss.evidence.len()).collect()
    } else {
        let mut vars = Vec::new();
        for c in conditions {
            variables(c, &mut vars);
        }
        vars
    };
    shown.sort_unstable();
    shown.dedup();
    let mut text: Vec<String> = shown
        .iter()
        .map(|&v| {
            format!(
                "{} = {}",
                ss.evidence[v].id, ss.evidence[v].values[states[v]]
            )
        })
        .collect();
    if shown.len() < ss.evidence.len() {
        text.push("…".into());
    }
    text.join(", ")
}

fn variables(c: &Condition, out: &mut Vec<usize>) {
    match c {
        Condition::Eq(v, _) | Condition::Ne(v, _) | Condition::In(v, _) => out.push(*v),
        Condition::Not(inner) => variables(inner, out),
        Condition::And(parts) | Condition::Or(parts) => {
            for p in parts {
                variables(p, out);
            }
        }
    }
}

/// The rules (by index) that no valid configuration reaches first.
pub fn dead_rules(ss: &RuleSetting) -> Vec<usize> {
    let (model, fires) = configurations(ss);
    let mut session = Session::new(&model, None);
    (0..fires.len())
        .filter(|&i| {
            let mut first: Vec<Lit> = fires[..i].iter().map(|&c| !c).collect();
            first.push(fires[i]);
            session.solve(&[], &first) == Outcome::Unsat
        })
        .collect()
}

/// The error for exclusions that leave no configuration, labelling a
/// smallest set of them; `None` when some configuration survives.
pub(super) fn exclusions_rule_out_all(ss: &RuleSetting) -> Option<CheckDiagnostic> {
    let core = excluding_all(ss)?;
    let excludes = core
        .iter()
        .map(|&i| miette::LabeledSpan::new_with_span(Some("excludes".into()), ss.excludes[i].span))
        .collect();
    Some(CheckDiagnostic::ExclusionsRuleOutAll {
        excludes,
        help: Some(if core.len() == 1 {
            "this exclusion alone rules out every configuration: drop it or narrow it".into()
        } else {
            "drop or narrow one of these; together they leave no configuration".into()
        }),
    })
}

/// Whether some configuration survives the exclusions marked in `keep`
/// (the evidence groups and those exclusions alone).
fn some_configuration(ss: &RuleSetting, keep: &[bool]) -> bool {
    let model = kept_exclusions(ss, keep);
    let mut session = Session::new(&model, None);
    matches!(session.solve(&[], &[]), Outcome::Sat(_))
}

/// When the exclusions alone leave no configuration, a smallest set of
/// them that does (deletion-based: each one kept is needed); `None`
/// otherwise.
fn excluding_all(ss: &RuleSetting) -> Option<Vec<usize>> {
    let mut keep = vec![true; ss.excludes.len()];
    if ss.excludes.is_empty() || some_configuration(ss, &keep) {
        return None;
    }
    for i in 0..keep.len() {
        keep[i] = false;
        if some_configuration(ss, &keep) {
            keep[i] = true;
        }
    }
    Some((0..keep.len()).filter(|&i| keep[i]).collect())
}
