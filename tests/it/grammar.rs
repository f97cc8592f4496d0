//! The grammar check: every phrasing of `facts.yaml`, rendered with every
//! reason, every state and a number of hours of 1 and of more, is held to
//! a list of forbidden patterns seeded by the broken texts found in
//! generated scenarios ("has 1 hours", "will be at a performance
//! improvement plan", "are involved in a custody hearing", variable names
//! in a text).

use cici::phrasing::{FactTexts, Reason, ReasonKind};
use cici::planted::{generate, Config};
use cici::sema::{ArgValue, Family, Predicate, RulePredicate};

use super::phrasings::sample;

/// What is wrong with a text, if anything: each forbidden pattern it
/// matches, named.
fn faults(text: &str, conditions: &[&Reason]) -> Vec<String> {
    faults_among(text, &Events::of(conditions))
}

/// The phrases that would tell a condition as an event (`has <noun>`,
/// `at <noun>`, ...), each with whether the condition's own verb phrase
/// says it: spelled once for every text checked against them.
struct Events(Vec<(String, bool)>);

impl Events {
    fn of(conditions: &[&Reason]) -> Events {
        let mut out = Vec::new();
        for c in conditions {
            let (noun, vp) = (c.noun.to_lowercase(), c.vp.to_lowercase());
            for verb in ["has", "at", "be at", "involved in"] {
                let said = format!("{verb} {noun}");
                let own = vp.contains(&said);
                out.push((said, own));
            }
        }
        Events(out)
    }
}

/// [`faults`], with the conditions' event phrases spelled already.
fn faults_among(text: &str, events: &Events) -> Vec<String> {
    let mut out = Vec::new();
    let mut bad = |what: &str| out.push(what.to_string());
    if text.contains("{{") || text.contains("}}") {
        bad("a template left unrendered");
    }
    if !text.ends_with(['.', '!', '?']) {
        bad("no final punctuation");
    }
    if !text.starts_with(|c: char| c.is_uppercase() || c.is_ascii_digit()) {
        bad("no capital at the start");
    }
    for gap in [" ,", " .", " ;", " :", "  ", ",,", "..", ".,"] {
        if text.contains(gap) {
            bad(&format!("{gap:?}"));
        }
    }
    let lower = text.to_lowercase();
    let words: Vec<&str> = lower
        .split(|c: char| !c.is_alphanumeric() && c != '_' && c != '\'')
        .filter(|w| !w.is_empty())
        .collect();
    for pair in words.windows(2) {
        if pair[0] == pair[1] {
            bad(&format!("doubled word {:?}", pair[0]));
        }
        if pair[0] == "1" && pair[1] == "hours" {
            bad("1 hours");
        }
        let verb = ["is", "has", "had", "was", "are", "works", "received"];
        if ["has", "is", "be"].contains(&pair[0]) && verb.contains(&pair[1]) {
            bad(&format!("two verbs {:?}", pair.join(" ")));
        }
        let vowel = pair[1].starts_with(['a', 'e', 'i', 'o']) && !pair[1].starts_with("one");
        if pair[0] == "a" && vowel && pair[1] != "eu" {
            bad(&format!("\"a {}\"", pair[1]));
        }
        let acronym = || text.contains(&format!("an {}", pair[1].to_uppercase()));
        if pair[0] == "an" && !pair[1].starts_with(['a', 'e', 'i', 'o', 'u', 'h']) && !acronym() {
            bad(&format!("\"an {}\"", pair[1]));
        }
    }
    // A phrase said twice, as a reason spliced in as both its verb phrase
    // and its event; a meeting or ticket named twice (it has a number) may be.
    let grams: Vec<String> = words.windows(4).map(|g| g.join(" ")).collect();
    for (i, g) in grams.iter().enumerate() {
        let named = g.chars().any(|c| c.is_ascii_digit());
        if !named && grams[i + 4.min(grams.len() - i)..].contains(g) {
            bad(&format!("a phrase said twice {g:?}"));
        }
    }
    if lower.contains("are involved in") {
        bad("a pair \"involved in\" one person's reason");
    }
    for w in &words {
        if w.contains('_') {
            bad(&format!("snake_case {w:?}"));
        }
        let letters_then_digits =
            w.starts_with(|c: char| c.is_alphabetic()) && w.chars().any(|c| c.is_ascii_digit());
        if letters_then_digits {
            bad(&format!("an id {w:?}"));
        }
    }
    for (said, own) in &events.0 {
        if !own && lower.contains(said.as_str()) {
            bad(&format!("a condition as an event: \"{said}\""));
        }
    }
    out
}

/// `p` with every integer argument set to `n`.
fn with_integers(p: &Predicate, n: u32) -> Predicate {
    let args: Vec<ArgValue> = p
        .args()
        .into_iter()
        .map(|a| match a {
            ArgValue::Integer(_) => ArgValue::Integer(n),
            a => a,
        })
        .collect();
    Predicate::from_args(p.kind(), &args).expect("the same kinds")
}

/// `p` with its evidence value set to `value`.
fn with_value(p: &Predicate, value: usize) -> Predicate {
    match p {
        Predicate::Rule(RulePredicate::Evidence { variable, .. }) => {
            Predicate::Rule(RulePredicate::Evidence {
                variable: *variable,
                value,
            })
        }
        p => p.clone(),
    }
}

#[test]
fn every_phrasing_with_every_reason_is_grammatical() {
    let texts = FactTexts::builtin();
    let conditions: Vec<&Reason> = texts
        .reasons()
        .filter(|r| r.kind == ReasonKind::Condition)
        .collect();
    let events = Events::of(&conditions);
    let mut rendered = 0usize;
    let mut failures = Vec::new();
    for family in Family::ALL {
        let sc = generate(&Config::pisas(family, 3));
        let values = sc.rule_setting().map_or(1, |ss| {
            ss.evidence
                .iter()
                .map(|e| e.values.len())
                .max()
                .unwrap_or(1)
        });
        for spec in family.predicates().filter(|s| !s.soft_only) {
            let p = sample(&sc, spec);
            for hours in [1, 5] {
                for value in 0..values {
                    let q = with_value(&with_integers(&p, hours), value);
                    if p.args().len() != q.args().len() {
                        continue;
                    }
                    for text in texts.every_text(&sc, &q, "Bea") {
                        let text = text.unwrap_or_default();
                        let found = faults_among(&text, &events);
                        rendered += 1;
                        if !found.is_empty() {
                            failures.push(format!("{text:?}: {}", found.join(", ")));
                        }
                    }
                }
            }
        }
    }
    for text in texts.every_irrelevant("Bea") {
        let text = text.unwrap_or_default();
        rendered += 1;
        let found = faults(&text, &[]);
        if !found.is_empty() {
            failures.push(format!("{text:?}: {}", found.join(", ")));
        }
    }
    failures.sort();
    failures.dedup();
    assert!(rendered > 10_000, "only {rendered} texts rendered");
    assert!(
        failures.is_empty(),
        "{} of {rendered} texts are broken, e.g.:\n{}",
        failures.len(),
        failures[..failures.len().min(40)].join("\n")
    );
}

#[test]
fn the_forbidden_patterns_catch_the_broken_texts_found_before() {
    let pip = Reason {
        kind: ReasonKind::Condition,
        noun: "a performance improvement plan".into(),
        vp: "is on a performance improvement plan".into(),
        at: "a review of a performance improvement plan".into(),
    };
    for broken in [
        "Mila has 1 hours for the sprint.",
        "Bea and Avi are involved in a custody hearing and should not work together.",
        "Omar will be at a performance improvement plan on Wednesday from 16 to 17.",
        "The recorded finding for soc2 is available.",
        "Current status of customer_data_access: missing.",
        "Cal has is on jury service.",
        "Cal is busy on Monday",
        "Cal is is busy.",
        "Since Mei has an assessment for ADHD, Wednesday from 10 to 11 goes to an assessment for ADHD.",
    ] {
        assert!(!faults(broken, &[&pip]).is_empty(), "{broken:?} passes");
    }
    let good = "On Wednesday from 16 to 17, Omar has a review of a performance improvement plan.";
    assert_eq!(faults(good, &[&pip]), Vec::<String>::new());
}
