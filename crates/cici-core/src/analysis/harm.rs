//! Rubrics held to the order of harm: a severity rubric lists its levels
//! most severe first, so more evidence of harm should never give a less
//! severe level.
//!
//! A seed says which states are worse through the state words it picks:
//! an evidence variable whose states are all among `absent`, `suspected`,
//! `present` and `confirmed` is read as the presence of something harmful,
//! in that order (`present` and `confirmed` rank alike). Other variables
//! carry no order and are not linted.
//!
//! In: a severity setting. Out: one warning per rule that gives a more
//! severe level than some configuration with more harm gets. The
//! configurations are enumerated, up to [`MAX_CONFIGURATIONS`]; a larger
//! setting is not linted.

use super::diagnostic::CheckDiagnostic;
use crate::sema::RuleSetting;

/// The states a seed may use to say which is worse, and their rank.
const HARM_WORDS: &[(&str, u8)] = &[
    ("absent", 0),
    ("suspected", 1),
    ("present", 2),
    ("confirmed", 2),
];

/// The most configurations the lint enumerates.
pub const MAX_CONFIGURATIONS: usize = 1 << 16;

/// The harm rank of each state of a variable, when the seed orders it.
fn ranks(values: &[String]) -> Option<Vec<u8>> {
    let ranks: Vec<u8> = values
        .iter()
        .map(|v| HARM_WORDS.iter().find(|(w, _)| w == v).map(|(_, r)| *r))
        .collect::<Option<_>>()?;
    let ordered = ranks.iter().any(|r| *r != ranks[0]);
    ordered.then_some(ranks)
}

/// Whether no exclusion rules the configuration out.
fn valid(ss: &RuleSetting, c: &[usize]) -> bool {
    !ss.excludes.iter().any(|e| e.when.eval(c))
}

/// The index of the rule that gives a configuration its level (`None` for
/// `otherwise`), with the level.
fn fired(ss: &RuleSetting, c: &[usize]) -> Option<(Option<usize>, usize)> {
    match ss.rubric.rules.iter().position(|r| r.when.eval(c)) {
        Some(i) => Some((Some(i), ss.rubric.rules[i].level)),
        None => ss.rubric.otherwise.map(|l| (None, l)),
    }
}

/// One inversion: a configuration, the variable whose state is raised, the
/// worse state, and the levels before and after.
struct Inversion {
    config: Vec<usize>,
    variable: usize,
    worse: usize,
    rule: Option<usize>,
    after: usize,
}

/// The warnings of a severity rubric that gives a higher level for less
/// evidence of harm.
pub(super) fn inversions(ss: &RuleSetting) -> Vec<CheckDiagnostic> {
    let ranked: Vec<(usize, Vec<u8>)> = ss
        .evidence
        .iter()
        .enumerate()
        .filter_map(|(v, e)| ranks(&e.values).map(|r| (v, r)))
        .collect();
    let sizes: Vec<usize> = ss.evidence.iter().map(|e| e.values.len()).collect();
    let total = sizes
        .iter()
        .try_fold(1usize, |acc, &n| acc.checked_mul(n.max(1)))
        .filter(|&t| t <= MAX_CONFIGURATIONS);
    let (Some(total), false) = (total, ranked.is_empty()) else {
        return Vec::new();
    };
    // The first inversion found for each rule (and for `otherwise`).
    let mut found: Vec<Option<Inversion>> = (0..=ss.rubric.rules.len()).map(|_| None).collect();
    let mut c = vec![0usize; sizes.len()];
    for _ in 0..total {
        if valid(ss, &c) {
            inversions_at(ss, &ranked, &c, &mut found);
        }
        // The next configuration, in mixed radix.
        for (v, n) in sizes.iter().enumerate() {
            c[v] += 1;
            if c[v] < *n {
                break;
            }
            c[v] = 0;
        }
    }
    found
        .into_iter()
        .flatten()
        .map(|i| warning(ss, i))
        .collect()
}

/// Records, per rule, the first raise of one ranked variable at `c` that
/// lowers the level.
fn inversions_at(
    ss: &RuleSetting,
    ranked: &[(usize, Vec<u8>)],
    c: &[usize],
    found: &mut [Option<Inversion>],
) {
    let Some((rule, level)) = fired(ss, c) else {
        return;
    };
    let slot = rule.unwrap_or(ss.rubric.rules.len());
    if found[slot].is_some() {
        return;
    }
    for (v, ranks) in ranked {
        for (worse, r) in ranks.iter().enumerate() {
            if *r <= ranks[c[*v]] {
                continue;
            }
            let mut raised = c.to_vec();
            raised[*v] = worse;
            if !valid(ss, &raised) {
                continue;
            }
            // Levels are listed most severe first: a larger index is milder.
            if let Some((_, after)) = fired(ss, &raised).filter(|(_, l)| *l > level) {
                found[slot] = Some(Inversion {
                    config: c.to_vec(),
                    variable: *v,
                    worse,
                    rule,
                    after,
                });
                return;
            }
        }
    }
}

fn warning(ss: &RuleSetting, i: Inversion) -> CheckDiagnostic {
    let name = |l: usize| ss.levels.get(l).map_or("?", |x| x.id.as_str()).to_string();
    let before = match i.rule {
        Some(r) => ss.rubric.rules[r].level,
        None => ss.rubric.otherwise.unwrap_or(0),
    };
    let var = &ss.evidence[i.variable];
    let configuration = ss
        .evidence
        .iter()
        .zip(&i.config)
        .map(|(e, &s)| format!("{} = {}", e.id, e.values[s]))
        .collect::<Vec<_>>()
        .join(", ");
    let span = match i.rule {
        Some(r) => ss.rubric.rules[r].span,
        None => ss.rubric.span,
    };
    CheckDiagnostic::RubricInvertsHarm {
        level: name(before),
        milder: name(i.after),
        configuration,
        variable: var.id.clone(),
        worse: var.values[i.worse].clone(),
        span: span.into(),
        help: Some(format!(
            "levels are listed most severe first, and `{}` is worse than `{}`: \
             require the worse state in this rule, or order the rules so that more harm never gives a milder level",
            var.values[i.worse], var.values[i.config[i.variable]]
        )),
    }
}
