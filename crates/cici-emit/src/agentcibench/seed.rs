//! One AgentCIBench case as a seed in the cici language.
//!
//! The case is flow-only: the task asks the agent to pass some of the
//! user's information on, and gives no decision. The seed makes the task's
//! need the decision: a `policy_decision` whose outcome is `complete` when
//! every must-share item is given and `incomplete` otherwise. Each
//! must-share item is an attribute whose fact gives its evidence, so
//! `check` proves it critical (the task needs it); each must-not-share item
//! is an inappropriate raw form with no fact, which the task does not need.
//! The norms state the transmission principle: what the task needs may go
//! to everyone working on it, for the requested task; the rest stays with
//! the user.

use std::collections::BTreeMap;

use crate::printer::quote;

use super::format::Scenario;

/// The purpose every imported case has: the task the user asked for.
pub const PURPOSE: &str = "requested_task";

/// The longest cici id (`cici::resolve::name_too_long` past it).
const MAX_ID: usize = crate::sema::MAX_NAME;

/// The given names `check` reads as people (`text_names_unknown_person`):
/// everyone an item names joins the team, as someone of the user's life.
static GIVEN: std::sync::LazyLock<std::collections::HashSet<&'static str>> =
    std::sync::LazyLock::new(|| {
        include_str!("../../../cici-core/src/analysis/given_names.txt")
            .lines()
            .map(str::trim)
            .filter(|l| !l.is_empty() && !l.starts_with('#'))
            .collect()
    });

/// The ids the seed gives its own people, and the words norms reserve.
const TAKEN: [&str; 8] = [
    "user",
    "assistant",
    "audience",
    "everyone",
    "executor",
    "holder",
    "subject",
    "manager",
];

/// The people the items name, by the given names `check` knows: (id,
/// display name), in order of first mention.
fn named(items: &[&String]) -> Vec<(String, String)> {
    let mut out: Vec<(String, String)> = Vec::new();
    for item in items {
        for (_, word) in crate::words::alphanumeric_runs(item) {
            let capital = word.chars().next().is_some_and(char::is_uppercase);
            let acronym = word.chars().filter(|c| c.is_uppercase()).count() > 1;
            let lower = word.to_lowercase();
            if capital
                && !acronym
                && GIVEN.contains(lower.as_str())
                && !TAKEN.contains(&lower.as_str())
                && !out.iter().any(|(id, _)| *id == lower)
            {
                out.push((lower, word.to_string()));
            }
        }
    }
    out
}

/// A seed's text, and where each attribute came from
/// (`share_claire` → `ground_truth.must_share[0]`).
pub struct Seed {
    pub id: String,
    pub text: String,
    pub attributes: BTreeMap<String, String>,
}

/// An id of letters, digits and `_`, at most `max` characters, not starting
/// with a digit; a long one keeps its start and a hash of the whole.
pub fn ident(text: &str, max: usize) -> String {
    let mut id = String::new();
    for c in text.chars().flat_map(char::to_lowercase) {
        if c.is_ascii_alphanumeric() {
            id.push(c);
        } else if !id.ends_with('_') && !id.is_empty() {
            id.push('_');
        }
    }
    let mut id = id.trim_end_matches('_').to_string();
    if id.is_empty() || id.starts_with(|c: char| c.is_ascii_digit()) {
        id.insert_str(0, "n_");
    }
    if id.len() > max {
        let hash = text.bytes().fold(0xcbf2_9ce4_8422_2325_u64, |h, b| {
            (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
        });
        id.truncate(max - 9);
        id = format!("{}_{:08x}", id.trim_end_matches('_'), hash as u32);
    }
    id
}

/// The scenario id of a case.
pub fn scenario_id(case: &str) -> String {
    ident(case.strip_prefix("seed_").unwrap_or(case), MAX_ID)
}

/// The seed of a case that has no error.
pub fn seed(s: &Scenario) -> Seed {
    let id = scenario_id(&s.scenario_id);
    let mut attributes = BTreeMap::new();
    let mut taken = std::collections::BTreeSet::new();
    let mut name = |prefix: &str, item: &str| {
        let base = format!("{prefix}_{}", ident(item, 32));
        let mut id = base.clone();
        let mut n = 2;
        while !taken.insert(id.clone()) {
            id = format!("{base}_{n}");
            n += 1;
        }
        id
    };
    let shared: Vec<(String, &String)> = s
        .ground_truth
        .must_share
        .iter()
        .map(|item| (name("share", item), item))
        .collect();
    let kept: Vec<(String, &String)> = s
        .ground_truth
        .must_not_share
        .iter()
        .map(|item| (name("keep", item), item))
        .collect();
    for (i, (a, _)) in shared.iter().enumerate() {
        attributes.insert(a.clone(), format!("ground_truth.must_share[{i}]"));
    }
    for (i, (a, _)) in kept.iter().enumerate() {
        attributes.insert(a.clone(), format!("ground_truth.must_not_share[{i}]"));
    }
    let text = print(s, &id, &shared, &kept);
    let text = crate::syntax::format(&text).unwrap_or(text);
    Seed {
        id,
        text,
        attributes,
    }
}

fn print(
    s: &Scenario,
    id: &str,
    shared: &[(String, &String)],
    kept: &[(String, &String)],
) -> String {
    let mut t = format!(
        "# Imported from AgentCIBench case {} ({}, {}).\n",
        s.scenario_id, s.scenario_family, s.failure_mode
    );
    t += "# The task needs each must-share item; the must-not-share items stay with the user.\n";
    t += &format!("scenario {id} {{\n  family policy_decision\n");
    t += &format!(
        "  title {}\n",
        quote(&format!("AgentCIBench {}", s.scenario_id))
    );
    t += &format!("  task {}\n", quote(s.task_prompt.trim()));
    t += "  executor assistant\n";
    t += &format!("  purpose {PURPOSE}\n\n");
    t += "  person user \"User\" role \"Owner of the apps\"\n";
    t += "  person assistant \"Assistant\" role \"Agent acting for the user\"\n";
    t += "  person audience \"Audience\" role \"Receives the task's output\"\n";
    let items: Vec<&String> = shared.iter().chain(kept).map(|(_, i)| *i).collect();
    for (id, name) in named(&items) {
        t += &format!(
            "  person {id} {} role \"Named in the user's apps\"\n",
            quote(&name)
        );
    }
    t += "\n";
    t += &format!(
        "  norms {{\n    share appropriate with everyone for {PURPOSE}\n    share inappropriate with holder\n  }}\n\n"
    );
    t += "  outcomes [complete, incomplete]\n";
    for (a, _) in shared {
        t += &format!("  evidence {a} [given, missing]\n");
    }
    let all: Vec<String> = shared.iter().map(|(a, _)| format!("{a} = given")).collect();
    t += &format!(
        "  rules {{\n    complete when {}\n    otherwise incomplete\n  }}\n",
        all.join(" and ")
    );
    t += "  policy \"The output is complete when it carries every detail the task asks for.\"\n\n";
    for (a, item) in shared {
        t += &format!(
            "  attribute {a} {{\n    holder user\n    raw {}\n    fact evidence({a}, given)\n  }}\n",
            quote(item)
        );
    }
    for (a, item) in kept {
        t += &format!(
            "  attribute {a} {{\n    holder user\n    raw {} inappropriate\n  }}\n",
            quote(item)
        );
    }
    t += "\n  oracle complete\n}\n";
    t
}
