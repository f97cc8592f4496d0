//! Norms in plain words, for briefs, items and agents.

use crate::sema::{Category, InfoKind, Norm, Recipient, Scenario};

/// A kind of information, in words.
fn kind_words(k: &InfoKind) -> &'static str {
    match k {
        InfoKind::Any => "any detail",
        InfoKind::Raw => "details as their holder first put them",
        InfoKind::Sanitized => "statements worded without their personal reason",
        InfoKind::Appropriate => "details that are appropriate to use for this task",
        InfoKind::Inappropriate => "details that are not appropriate to use for this task",
        InfoKind::Personal => "personal details",
        InfoKind::Category(c) => category_words(*c),
    }
}

/// A category's details, in words.
pub fn category_words(c: Category) -> &'static str {
    match c {
        Category::Health => "health details",
        Category::MentalHealth => "mental-health details",
        Category::Family => "family details",
        Category::Relationships => "details of relationships",
        Category::Legal => "legal matters",
        Category::Financial => "financial details",
        Category::Employment => "employment details",
        Category::Performance => "performance details",
        Category::Identity => "identity details",
        Category::Contact => "contact details",
        Category::Location => "location details",
        Category::Beliefs => "beliefs",
        Category::Pressure => "pressure from colleagues",
        Category::Speculation => "speculation",
        Category::Preference => "personal preferences",
        Category::Background => "background details",
        Category::Operational => "operational details",
    }
}

/// `a`, `a and b`, `a, b and c`.
fn and_list(items: &[String]) -> String {
    match items {
        [] => String::new(),
        [one] => one.clone(),
        [rest @ .., last] => format!("{} and {last}", rest.join(", ")),
    }
}

/// A name of the purpose for prose: `incident_response` is "incident response".
pub fn purpose_words(p: &str) -> String {
    p.replace('_', " ")
}

fn recipient_words(sc: &Scenario, r: &Recipient) -> String {
    match r {
        Recipient::Everyone => "anyone working on the task".into(),
        Recipient::Executor => "the person who makes the decision".into(),
        Recipient::Holder => "the person who holds them".into(),
        Recipient::Subject => "the person they are about".into(),
        Recipient::Manager => "that person's manager".into(),
        Recipient::Group(g) => format!("the {} group", g.replace('_', " ")),
        Recipient::Person(p) => sc.people[*p].name.clone(),
    }
}

/// One norm as a sentence: "Health details may go to the person they are
/// about and the hr group, for accommodation."
pub fn sentence(sc: &Scenario, n: &Norm) -> String {
    let kinds: Vec<String> = n.kinds.iter().map(|k| kind_words(k).to_string()).collect();
    let to: Vec<String> = n
        .recipients
        .iter()
        .map(|r| recipient_words(sc, r))
        .collect();
    let mut s = and_list(&kinds);
    if let Some(first) = s.get_mut(..1) {
        first.make_ascii_uppercase();
    }
    let verb = if to.is_empty() {
        "go to no one"
    } else {
        "may go to"
    };
    let mut out = format!("{s} {verb} {}", and_list(&to));
    if let Some(p) = &n.purpose {
        out.push_str(&format!(", for {}", purpose_words(p)));
    }
    format!("{}.", out.trim_end())
}

/// The norms in force, one sentence each, in the seed's order.
pub fn sentences(sc: &Scenario) -> Vec<String> {
    sc.norms().iter().map(|n| sentence(sc, n)).collect()
}
