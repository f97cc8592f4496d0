//! The grammar check: every phrasing of `facts.yaml`, rendered with every
//! reason, every state and a number of hours of 1 and of more, is held to
//! a list of forbidden patterns seeded by the broken texts found in
//! generated scenarios ("has 1 hours", "will be at a performance
//! improvement plan", "are involved in a custody hearing", variable names
//! in a text).

use super::tests::sample;
use super::*;
use crate::planted::{generate, Config};
use crate::sema::{Family, Predicate};

/// What is wrong with a text, if anything: each forbidden pattern it
/// matches, named.
pub(crate) fn faults(text: &str, conditions: &[&Reason]) -> Vec<String> {
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

/// The forms of a predicate's phrasings.
const FORMS: [&str; 3] = ["raw", "sanitized", "claim"];

/// Every phrasing of `p` in every form, with every reason and every
/// phrasing of its state, each text with the faults found in it.
fn every_text(texts: &FactTexts, sc: &Scenario, p: &Predicate) -> Vec<(String, Vec<String>)> {
    let (key, base) = fact_context(texts, sc, p);
    let states =
        state_phrases(texts, sc, p).map_or(vec![None], |(_, s)| s.into_iter().map(Some).collect());
    let reasons: Vec<&Reason> = texts.reasons.values().flatten().collect();
    let conditions: Vec<&Reason> = reasons
        .iter()
        .copied()
        .filter(|r| r.kind == ReasonKind::Condition)
        .collect();
    // Every reason with the first spellings of a slot and a ticket, and
    // every other spelling with the first reason.
    let mut contexts: Vec<(&Reason, BTreeMap<&'static str, String>)> =
        reasons.iter().map(|r| (*r, base.clone())).collect();
    contexts.extend(spellings(sc, p, &base).into_iter().map(|c| (reasons[0], c)));
    let events = Events::of(&conditions);
    let mut out = Vec::new();
    for form in FORMS {
        let name = format!("{key}.{form}");
        let n = texts.counts.get(&name).copied().unwrap_or(0);
        for i in 0..n {
            for state in &states {
                for (reason, base) in &contexts {
                    let mut ctx = base.clone();
                    reason.fill(&mut ctx);
                    ctx.entry("name").or_insert_with(|| "Bea".into());
                    if let Some(s) = state {
                        ctx.insert("state", s.clone());
                    }
                    let text = texts.render_nth(&name, i, &ctx).unwrap_or_default();
                    let found = faults_among(&text, &events);
                    out.push((text, found));
                }
            }
        }
    }
    out
}

/// `base` with each other spelling of the fact's slot or ticket.
fn spellings(
    sc: &Scenario,
    p: &Predicate,
    base: &BTreeMap<&'static str, String>,
) -> Vec<BTreeMap<&'static str, String>> {
    let mut out = Vec::new();
    for a in p.args() {
        match a {
            ArgValue::Slot(slot) => {
                for w in refs::slot_words(&slot).into_iter().skip(1) {
                    let mut ctx = base.clone();
                    ctx.insert("when", w.when);
                    ctx.insert("at_when", w.at_when);
                    out.push(ctx);
                }
            }
            ArgValue::Ticket(t) => {
                let js = sc.jira_setting().expect("a ticket in a JIRA setting");
                for w in refs::ticket_words(js, t).into_iter().skip(1) {
                    let mut ctx = base.clone();
                    ctx.insert("ticket", w);
                    out.push(ctx);
                }
            }
            _ => {}
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
                    for (text, found) in every_text(texts, &sc, &q) {
                        rendered += 1;
                        if !found.is_empty() {
                            failures.push(format!("{text:?}: {}", found.join(", ")));
                        }
                    }
                }
            }
        }
    }
    for (cat, pool) in &texts.irrelevant {
        for i in 0..pool.len() {
            let ctx = BTreeMap::from([("name", "Bea".to_string())]);
            let text = texts
                .render_nth(&format!("irrelevant.{}", cat.name()), i, &ctx)
                .unwrap_or_default();
            rendered += 1;
            let found = faults(&text, &[]);
            if !found.is_empty() {
                failures.push(format!("{text:?}: {}", found.join(", ")));
            }
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

#[test]
fn variables_and_states_are_written_names() {
    let texts = FactTexts::builtin();
    let names = &texts.file.evidence;
    assert_eq!(words::variable_name(names, "soc2"), "the SOC 2 report");
    assert_eq!(words::variable_name(names, "new_check"), "the new check");
    assert_eq!(words::split_id("iso27001_audit"), "iso 27001 audit");
    let states = &texts.file.states;
    assert_eq!(
        words::state_phrases(states, "pen_test", "findings_open")[0],
        "has findings open"
    );
    assert_eq!(
        words::state_phrases(states, "x", "not_signed"),
        ["is not signed"]
    );
    assert_eq!(words::hours("1"), "1 hour");
    assert_eq!(words::hours("3"), "3 hours");
    let condition = ReasonEntry::Full {
        noun: "a plan".into(),
        kind: ReasonKind::Condition,
        vp: None,
        at: None,
    };
    assert!(
        condition.reason().is_none(),
        "a condition needs its phrases"
    );
}
