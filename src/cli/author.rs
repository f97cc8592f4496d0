//! `cici new` and `cici synth`: a starting point for a new seed.

use std::io::Write;
use std::process::ExitCode;

use super::output::{fail, print_all, Outcome};
use super::{FamilyArg, NewArgs, SynthArgs};
use crate::sema::Family;

const STARTERS: [(Family, &str); 4] = [
    (
        Family::MeetingAllocation,
        include_str!("../../templates/starters/meeting_allocation.cici"),
    ),
    (
        Family::JiraAllocation,
        include_str!("../../templates/starters/jira_allocation.cici"),
    ),
    (
        Family::SeverityClassification,
        include_str!("../../templates/starters/severity_classification.cici"),
    ),
    (
        Family::PolicyDecision,
        include_str!("../../templates/starters/policy_decision.cici"),
    ),
];

fn family(f: FamilyArg) -> Family {
    match f {
        FamilyArg::MeetingAllocation => Family::MeetingAllocation,
        FamilyArg::JiraAllocation => Family::JiraAllocation,
        FamilyArg::SeverityClassification => Family::SeverityClassification,
        FamilyArg::PolicyDecision => Family::PolicyDecision,
    }
}

fn is_identifier(s: &str) -> bool {
    let mut chars = s.chars();
    chars
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
}

/// Writes `text` to a new file, or to stdout when `path` is `-`; never
/// overwrites an existing file.
fn emit(path: &std::path::Path, text: &str) -> Outcome {
    if path.as_os_str() == "-" {
        return print_all(text.as_bytes());
    }
    let mut file = std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(path)
        .map_err(|e| fail(format!("cannot create {}: {e}", path.display())))?;
    file.write_all(text.as_bytes())
        .map_err(|e| fail(format!("writing {}: {e}", path.display())))?;
    super::output::note!(
        "wrote {}; check it with `cici check {}`",
        path.display(),
        path.display()
    );
    Ok(ExitCode::SUCCESS)
}

pub(super) fn new(args: NewArgs) -> Outcome {
    if !is_identifier(&args.name) {
        return Err(fail(format!(
            "`{}` is not an identifier: use letters, digits and `_`, not starting with a digit",
            args.name
        )));
    }
    let fam = family(args.family);
    let starter = STARTERS
        .iter()
        .find(|(f, _)| *f == fam)
        .map(|(_, t)| *t)
        .expect("a starter per family");
    let text = starter.replace("__NAME__", &args.name);
    let path = args
        .out
        .unwrap_or_else(|| format!("{}.cici", args.name).into());
    emit(&path, &text)
}

pub(super) fn synth(args: SynthArgs) -> Outcome {
    if let Some(id) = &args.id {
        if !is_identifier(id) {
            return Err(fail(format!("`{id}` is not an identifier")));
        }
    }
    let fam = family(args.family);
    let defaults = crate::planted::Config::pisas(fam, args.seed);
    let config = crate::planted::Config {
        family: fam,
        people: args.people.map_or(defaults.people, |n| n as usize),
        size: args.size.map_or(defaults.size, |n| n as usize),
        soft: args.soft.map_or(defaults.soft, |n| n as usize),
        irrelevant: args.irrelevant.map_or(defaults.irrelevant, |n| n as usize),
        seed: args.seed,
        id: args.id,
        norms: args.norms,
    };
    // The sizes the generator builds in a few seconds on two cores; the
    // allocation families grow steeply beyond them.
    let (max_size, max_people) = match fam {
        Family::JiraAllocation => (80, 40),
        Family::MeetingAllocation => (100, 60),
        Family::SeverityClassification | Family::PolicyDecision => (200, 200),
    };
    if config.size > max_size || config.people > max_people {
        return Err(fail(format!(
            "synth {} builds at most --size {max_size} and --people {max_people} in a few seconds; larger ones take minutes",
            fam.name()
        )));
    }
    let printed = crate::printer::print(&crate::planted::generate(&config));
    // In the canonical layout, as `cici fmt` writes it, so that a planted
    // seed needs no formatting before it joins a formatted corpus.
    let text = crate::syntax::format(&printed).unwrap_or(printed);
    emit(&args.out, &text)
}
