//! Why an attribute has its class, in words: what `cici explain` prints and
//! what the language server shows on hover.

use crate::analysis::{side_by_side, Class, TrapEffect};
use crate::driver::Checked;
use crate::model::FactStatus;
use crate::printer::predicate;

/// Why an attribute has its class, in words.
pub fn explain(c: &Checked, attribute: &str) -> String {
    let sc = &c.scenario;
    let Some(a) = sc.attribute(attribute) else {
        return format!("no attribute `{attribute}` in `{}`", sc.id);
    };
    let attr = &sc.attributes[a];
    let finding = &c.report.attributes[a];
    let mut out = format!(
        "`{}` in scenario `{}` is {}.\n",
        attr.id,
        sc.id,
        class_words(finding.class)
    );
    for (kind, form) in attr.forms() {
        let who: Vec<&str> = form
            .visible
            .iter()
            .map(|&p| sc.people[p].id.as_str())
            .collect();
        let vis = if who.len() == sc.people.len() {
            "everyone".to_string()
        } else {
            who.join(", ")
        };
        out.push_str(&format!(
            "  {} form {:?}: {}, visible to {vis}\n",
            kind.name(),
            form.text,
            if form.appropriate {
                "appropriate"
            } else {
                "inappropriate"
            },
        ));
    }
    out.push_str(&receivers(c, a));
    if !c.report.unique {
        out.push_str("  The scenario's oracle is not unique, so no fact can be necessary; run `cici check` for the reason.\n");
    }
    let facts = crate::model::scenario_facts(sc);
    for &f in &finding.facts {
        let text = predicate(sc, facts[f].2);
        match c.model.facts[f].status {
            FactStatus::Appropriate => out.push_str(&appropriate_fact(c, f, &text)),
            status => out.push_str(&unusable_fact(c, f, status, &text)),
        }
    }
    if finding.facts.is_empty() {
        out.push_str("  It states no fact and suggests none: it has no bearing on the decision.\n");
    }
    out
}

fn class_words(class: Class) -> &'static str {
    match class {
        Class::Critical => "critical",
        Class::Supporting => "supporting",
        Class::Idle => "idle",
        Class::Trap => "a salient trap",
        Class::Benign => "salient but benign",
        Class::Irrelevant => "irrelevant",
        Class::Unknown => "unknown: a query about it hit the solver bound (raise --max-solve-ms)",
    }
}

/// An appropriate fact: whether it is necessary, and whether it is
/// relevant, each with the decision that shows it.
fn appropriate_fact(c: &Checked, f: usize, text: &str) -> String {
    let sc = &c.scenario;
    let ff = &c.report.facts[f];
    let mut out = format!("\n  Fact {text}:\n");
    match (&ff.necessary, &ff.lets_in) {
        (Some(true), Some(d)) => {
            out.push_str("    necessary: without it this decision would also be allowed, so the oracle would not be unique:\n");
            out.push_str(&indent(&side_by_side(sc, &sc.oracle, d), 4));
        }
        (Some(false), _) => out.push_str(
            "    not necessary: the other facts already rule out everything it rules out.\n",
        ),
        _ => {}
    }
    // The words follow the definition the checker uses: in the
    // rule-based families a fact may also count for what it rules
    // out next to the other appropriate facts.
    let rule_based = sc.family().is_rule_based();
    match (&ff.relevant, &ff.forbids) {
        (Some(true), Some(d)) => {
            out.push_str(if rule_based {
                "    relevant: it rules out a decision that the public constraints, or the other appropriate facts without it, allow, such as:\n"
            } else {
                "    relevant: it rules out a decision the public constraints allow, such as:\n"
            });
            out.push_str(&indent(&side_by_side(sc, &sc.oracle, d), 4));
        }
        (Some(false), _) => out.push_str(if rule_based {
            "    idle: it rules out nothing that the public constraints, or the other appropriate facts without it, allow.\n"
        } else {
            "    idle: it rules out nothing the public constraints allow.\n"
        }),
        _ => {}
    }
    out
}

/// A soft or inappropriate fact: what honouring it as a rule would do.
fn unusable_fact(c: &Checked, f: usize, status: FactStatus, text: &str) -> String {
    let sc = &c.scenario;
    let kind = match status {
        FactStatus::Soft => "Soft fact",
        FactStatus::Claim => "Claim",
        _ => "Inappropriate fact",
    };
    let mut out = format!("\n  {kind} {text}:\n");
    match &c.report.facts[f].trap {
        Some(TrapEffect::Keeps) => {
            out.push_str("    honouring it as a rule keeps the oracle: benign.\n")
        }
        Some(TrapEffect::NoDecision) => {
            out.push_str("    honouring it as a rule would leave no allowed decision: a trap.\n")
        }
        Some(TrapEffect::Changes(d)) => {
            out.push_str("    honouring it as a rule would rule out the oracle and allow this instead: a trap.\n");
            out.push_str(&indent(&side_by_side(sc, &sc.oracle, d), 4));
        }
        Some(TrapEffect::Leads(d)) => {
            let k = c.report.facts[f].drops.unwrap_or(1);
            out.push_str(&format!(
                "    honouring it as a rule rules out the oracle; giving up the fewest appropriate facts it must ({k}), a reader reaches this decision: a consequential trap.\n"
            ));
            out.push_str(&indent(&side_by_side(sc, &sc.oracle, d), 4));
        }
        Some(TrapEffect::Unclear(ds)) => match ds.as_slice() {
            [a, b, ..] => {
                out.push_str("    honouring it as a rule rules out the oracle but leads to no one decision: a trap that leads nowhere. Two it allows:\n");
                out.push_str(&indent(&side_by_side(sc, a, b), 4));
            }
            _ => out.push_str(&format!(
                "    honouring it as a rule rules out the oracle, and only giving up more than {} appropriate facts allows anything: a trap that leads nowhere.\n",
                crate::analysis::traps::MAX_DROPS
            )),
        },
        None => out.push_str("    not judged: the oracle is not allowed.\n"),
    }
    out
}

/// For each form: whether the task needs it, and who may receive it under
/// which norm (or by a `visible` exception): the two halves of a flow's
/// label.
fn receivers(c: &crate::driver::Checked, a: usize) -> String {
    let sc = &c.scenario;
    let attr = &sc.attributes[a];
    let norms = sc.norms();
    let env = sc.env(&norms);
    let mut out = String::new();
    for (kind, form) in attr.forms() {
        let needed = crate::driver::form_needed(c, a, kind);
        let why = if needed {
            "it is appropriate and carries a fact that rules out a decision the public constraints allow"
        } else if !form.appropriate {
            "it is not appropriate to use for the task"
        } else if attr.fact_form().0 != kind {
            "its sanitized form carries the same fact without the reason"
        } else if attr.fact_form().1.facts.is_empty() {
            "it states no fact"
        } else {
            "its facts rule out nothing the public constraints allow"
        };
        out.push_str(&format!(
            "    {} form: the task {} it: {why}
",
            kind.name(),
            if needed { "needs" } else { "does not need" }
        ));
        let exception = form.visible != env.derive(attr, kind);
        let who: Vec<String> = form
            .visible
            .iter()
            .filter(|&&p| p != attr.holder)
            .map(|&p| {
                let name = &sc.people[p].id;
                match env.grants(attr, kind, p).first() {
                    Some((i, r)) if !exception => format!(
                        "{name} (`{}` names {})",
                        crate::printer::norm(sc, &norms[*i]),
                        r.name(&sc.people)
                    ),
                    _ => format!("{name} (its `visible` clause)"),
                }
            })
            .collect();
        out.push_str(&format!(
            "      received by {}{}\n",
            sc.people[attr.holder].id,
            who.iter().map(|w| format!(", {w}")).collect::<String>()
        ));
    }
    out
}

fn indent(text: &str, n: usize) -> String {
    text.lines()
        .map(|l| format!("{}{l}\n", " ".repeat(n)))
        .collect()
}
