//! A flow-only case (a task, a sender, a recipient, items that must or
//! must not be shared, no decision of its own) as a seed in the language.
//!
//! The case becomes a `policy_decision` scenario: one evidence variable per
//! must-share item, a rule that completes the task only when every one is
//! given, and the must-not-share items as inappropriate forms without a
//! fact. `cici check` then proves that a correct agent needs exactly the
//! must-share items, and the norms (the transmission principle as the
//! purpose they hold for) keep the others from the recipient. Both peer
//! imports build their seeds here.

use std::collections::BTreeSet;

use crate::printer::quote;

/// A person of the case.
#[derive(Clone, Debug)]
pub struct Party {
    pub id: String,
    pub name: String,
    pub role: String,
}

/// One item of a case: its id in the seed, its text, where it was read.
#[derive(Clone, Debug)]
pub struct Item {
    pub id: String,
    pub text: String,
    pub category: Option<&'static str>,
    /// The JSON path it was read from.
    pub source: String,
}

/// A flow-only case, ready to be written.
#[derive(Clone, Debug)]
pub struct FlowCase {
    pub id: String,
    pub title: String,
    pub task: String,
    pub purpose: String,
    pub public: Vec<String>,
    pub sender: Party,
    pub recipient: Party,
    /// Whom the items are about, when not the sender.
    pub subject: Option<Party>,
    /// The outcome when every must-share item is given, and the other.
    pub outcomes: (String, String),
    /// The states of a must-share item's variable: given, and not.
    pub states: (String, String),
    pub must_share: Vec<Item>,
    pub must_not_share: Vec<Item>,
}

/// `text` as an identifier: lowercase letters, digits and `_`, at most
/// `max` characters, never empty, never starting with a digit.
pub fn slug(text: &str, max: usize) -> String {
    let mut out = String::new();
    for c in text.chars().flat_map(char::to_lowercase) {
        if c.is_ascii_alphanumeric() {
            out.push(c);
        } else if !out.ends_with('_') && !out.is_empty() {
            out.push('_');
        }
        if out.len() >= max {
            break;
        }
    }
    let out = out.trim_end_matches('_').to_string();
    match out.chars().next() {
        None => "x".to_string(),
        Some(c) if c.is_ascii_digit() => format!("n{out}"),
        Some(_) => out,
    }
}

/// `user` → `User`.
pub fn capitalized(s: &str) -> String {
    let s = s.trim();
    let mut c = s.chars();
    c.next()
        .map(|f| f.to_uppercase().chain(c).collect())
        .unwrap_or_default()
}

/// A fresh id from `base`: `base`, `base_2`, ... not in `taken`.
pub fn fresh(base: &str, taken: &mut BTreeSet<String>) -> String {
    let mut id = base.to_string();
    let mut n = 2;
    while crate::syntax::keywords().contains(&id.as_str()) || taken.contains(&id) {
        id = format!("{base}_{n}");
        n += 1;
    }
    taken.insert(id.clone());
    id
}

/// The category of a personal item, from the words that name its kind.
pub fn category_of(kind: &str) -> Option<&'static str> {
    const WORDS: &[(&str, &str)] = &[
        ("mental", "mental_health"),
        ("therap", "mental_health"),
        ("depress", "mental_health"),
        ("anxiety", "mental_health"),
        ("psychiatr", "mental_health"),
        ("health", "health"),
        ("medic", "health"),
        ("diagnos", "health"),
        ("prescri", "health"),
        ("doctor", "health"),
        ("insurance", "financial"),
        ("legal", "legal"),
        ("criminal", "legal"),
        ("arrest", "legal"),
        ("court", "legal"),
        ("lawsuit", "legal"),
        ("financ", "financial"),
        ("bank", "financial"),
        ("credit", "financial"),
        ("salary", "financial"),
        ("debt", "financial"),
        ("payment", "financial"),
        ("income", "financial"),
        ("job", "employment"),
        ("employ", "employment"),
        ("interview", "employment"),
        ("performance", "performance"),
        ("grade", "performance"),
        ("relationship", "relationships"),
        ("affair", "relationships"),
        ("dating", "relationships"),
        ("sexual", "relationships"),
        ("family", "family"),
        ("pregnan", "family"),
        ("divorce", "family"),
        ("religio", "beliefs"),
        ("politic", "beliefs"),
        ("address", "location"),
        ("location", "location"),
        ("phone", "contact"),
        ("email", "contact"),
        ("passport", "identity"),
        ("ssn", "identity"),
        ("social security", "identity"),
        ("immigra", "identity"),
        ("identity", "identity"),
    ];
    let kind = kind.to_lowercase();
    WORDS
        .iter()
        .find(|(w, _)| kind.contains(w))
        .map(|&(_, c)| c)
}

/// The seed text of a case, with `named` (given names its texts mention
/// that are no one of the case) declared as people the case names.
pub fn seed_text(case: &FlowCase, named: &[String]) -> String {
    let mut s = format!("scenario {} {{\n  family policy_decision\n", case.id);
    s += &format!(
        "  title {}\n  task {}\n",
        quote(&case.title),
        quote(&case.task)
    );
    s += &format!("  executor {}\n", case.sender.id);
    s += &format!("  recipient {}\n", quote(&case.recipient.name));
    s += &format!("  purpose {}\n", case.purpose);
    for p in &case.public {
        s += &format!("  public {}\n", quote(p));
    }
    s += "\n";
    let mut taken: BTreeSet<String> = [&case.sender, &case.recipient]
        .into_iter()
        .chain(&case.subject)
        .map(|p| p.id.clone())
        .collect();
    for p in [&case.sender, &case.recipient]
        .into_iter()
        .chain(&case.subject)
    {
        s += &format!(
            "  person {} {} role {}\n",
            p.id,
            quote(&p.name),
            quote(&p.role)
        );
    }
    for name in named {
        let id = fresh(&slug(name, 32), &mut taken);
        s += &format!("  person {id} {} role \"named in the case\"\n", quote(name));
    }
    s += &format!(
        "\n  norms {{\n    share appropriate with everyone for {}\n    share inappropriate with subject\n  }}\n\n",
        case.purpose
    );
    s += &decision(case);
    let about = case.subject.as_ref().map(|p| p.id.as_str());
    for item in &case.must_share {
        s += &format!(
            "\n  attribute {} {{\n    holder {}\n    raw {} appropriate\n    fact evidence({}, {})\n  }}\n",
            item.id,
            case.sender.id,
            quote(&item.text),
            item.id,
            case.states.0
        );
    }
    for item in &case.must_not_share {
        s += &format!(
            "\n  attribute {} {{\n    holder {}\n",
            item.id, case.sender.id
        );
        if let Some(a) = about {
            s += &format!("    about {a}\n");
        }
        if let Some(c) = item.category {
            s += &format!("    category {c}\n");
        }
        s += &format!("    raw {} inappropriate\n  }}\n", quote(&item.text));
    }
    s += &format!("\n  oracle {}\n}}\n", case.outcomes.0);
    s
}

/// The outcomes, one variable per must-share item, and the rules.
fn decision(case: &FlowCase) -> String {
    let (done, other) = &case.outcomes;
    let (given, missing) = &case.states;
    let mut s = format!("  outcomes [{done}, {other}]\n");
    for item in &case.must_share {
        s += &format!("  evidence {} [{given}, {missing}]\n", item.id);
    }
    let all: Vec<String> = case
        .must_share
        .iter()
        .map(|i| format!("{} = {given}", i.id))
        .collect();
    s += &format!(
        "  rules {{\n    {done} when {}\n    otherwise {other}\n  }}\n",
        all.join(" and ")
    );
    s
}
