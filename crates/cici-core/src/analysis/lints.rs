//! Text lints: does a sanitized form give its raw reason away?

use super::vocabulary::{DAY_WORDS, STOP_WORDS};
use crate::sema::{Attribute, Family, Scenario, Setting};

pub use super::leak::{words, Lexicon, Shareable, Vocabulary};
pub use super::tokens::{privacy_words, stem};

/// Words that a sanitized text may share with its raw text.
pub fn shareable_words(sc: &Scenario) -> Shareable<'static> {
    let mut ok = Shareable::new(family_words(sc.family()));
    let mut add = |text: &str| ok.add_text(text);
    add(&sc.id);
    add(&sc.title);
    add(&sc.task);
    add(sc.policy.as_deref().unwrap_or(""));
    for p in &sc.public {
        add(p);
    }
    if let Some(r) = &sc.recipient {
        add(r);
    }
    for p in &sc.people {
        add(&p.id);
        add(&p.name);
        add(&p.role);
        for s in &p.skills {
            add(s);
        }
    }
    // Attribute ids are not shareable: `eli_infusion` names its reason.
    match &sc.setting {
        Setting::Meeting(ms) => {
            for r in &ms.rooms {
                add(&r.id);
                add(r.name.as_deref().unwrap_or(""));
                for f in &r.features {
                    add(f);
                }
            }
            for m in &ms.meetings {
                add(&m.id);
                add(&m.title);
            }
        }
        Setting::Jira(js) => {
            for t in &js.tickets {
                add(&t.id);
                add(&t.title);
                add(&t.needs);
            }
        }
        Setting::Rule(ss) => {
            for l in &ss.levels {
                add(&l.id);
            }
            for e in &ss.evidence {
                add(&e.id);
                for v in &e.values {
                    add(v);
                }
            }
        }
    }
    ok
}

/// The words every scenario of a family may share: stop words, day
/// words and the words of the family's facts, gathered once.
fn family_words(family: Family) -> &'static Vocabulary {
    use std::sync::LazyLock;
    fn gather(family: Family) -> Vocabulary {
        let words = STOP_WORDS
            .iter()
            .chain(DAY_WORDS)
            .chain(family.fact_words());
        words.map(|w| w.to_string()).collect()
    }
    static MEETING: LazyLock<Vocabulary> = LazyLock::new(|| gather(Family::MeetingAllocation));
    static JIRA: LazyLock<Vocabulary> = LazyLock::new(|| gather(Family::JiraAllocation));
    static SEVERITY: LazyLock<Vocabulary> =
        LazyLock::new(|| gather(Family::SeverityClassification));
    static POLICY: LazyLock<Vocabulary> = LazyLock::new(|| gather(Family::PolicyDecision));
    match family {
        Family::MeetingAllocation => &MEETING,
        Family::JiraAllocation => &JIRA,
        Family::SeverityClassification => &SEVERITY,
        Family::PolicyDecision => &POLICY,
    }
}

/// The words an attribute's sanitized form may share with its raw form on
/// top of the scenario's: the phrasing of its own facts (every template
/// phrasing `templates/facts.yaml` gives them, which name no reason).
pub fn attribute_shareable<'a>(
    sc: &Scenario,
    attr: &Attribute,
    base: &'a Shareable<'static>,
) -> Shareable<'a> {
    let mut ok = Shareable::new(base);
    let texts = crate::phrasing::FactTexts::builtin();
    for form in std::iter::once(&attr.raw).chain(attr.sanitized.as_ref()) {
        for fact in &form.facts {
            for kind in [crate::sema::FormKind::Raw, crate::sema::FormKind::Sanitized] {
                for t in crate::phrasing::paraphrases(texts, sc, &fact.predicate, kind) {
                    ok.add_text(&t);
                }
            }
        }
    }
    ok
}

/// The words of `sanitized`, an attribute's sanitized text, that give its
/// raw reason away, beside the scenario's shareable words (`base`) and the
/// phrasings of the attribute's own facts. Those phrasings are rendered
/// only when a word of the two texts could be private at all.
pub fn attribute_leaks(
    sc: &Scenario,
    attr: &Attribute,
    sanitized: &str,
    base: &Shareable<'static>,
) -> Vec<String> {
    if !super::leak::could_leak(&attr.raw.text, sanitized, base) {
        return Vec::new();
    }
    let own = attribute_shareable(sc, attr, base);
    leaked_words(&attr.raw.text, sanitized, &own)
}

/// The private words of an attribute's raw text: the words of its reason,
/// not of the fact it shares with its sanitized text, nor the scenario's
/// names (the leak lint's notion), sorted.
pub fn private_words(sc: &Scenario, attr: &Attribute) -> Vec<String> {
    let base = shareable_words(sc);
    let own = attribute_shareable(sc, attr, &base);
    let sanitized = attr.sanitized.as_ref().map_or("", |s| s.text.as_str());
    let mut out: Vec<String> = super::leak::private_words(&attr.raw.text, sanitized, &own)
        .into_iter()
        .collect();
    out.sort();
    out
}

/// Words of any note, private or not, that identify no form in a write.
const EVERYDAY: &[&str] = &[
    "another", "ask", "asked", "asks", "given", "give", "gives", "said", "says", "say", "told",
    "went", "rather", "still", "also", "just", "really", "very", "some", "someone", "thing",
    "things", "look", "looked", "month", "week", "time", "again", "back",
];

/// The words that identify a form in a write, their stems, and how many
/// of the stems a write must carry to carry the form. A raw form is its
/// private words (two of them, or all where it has fewer); a sanitized
/// form, or a raw one whose words are all shareable, is all its words,
/// numbers included: four in five of them, and two at least, so that the
/// form restated carries it and a sentence on the same person does not.
pub fn identifying_words(
    sc: &Scenario,
    attr: &Attribute,
    kind: crate::sema::FormKind,
) -> (Vec<String>, Vec<String>, usize) {
    let stems = |ws: &[String]| {
        let mut out: Vec<String> = ws.iter().map(|w| stem(w)).collect();
        out.sort();
        out.dedup();
        out
    };
    if kind == crate::sema::FormKind::Raw {
        // Everyday words say nothing of the reason on their own.
        let private: Vec<String> = private_words(sc, attr)
            .into_iter()
            .filter(|w| !EVERYDAY.contains(&w.as_str()))
            .collect();
        let s = stems(&private);
        if !s.is_empty() {
            let need = s.len().min(2);
            return (private, s, need);
        }
    }
    let text = attr.form(kind).map_or("", |f| f.text.as_str());
    let mut content: Vec<String> = privacy_words(text);
    content.sort();
    content.dedup();
    let s = stems(&content);
    let need = (s.len() * 4).div_ceil(5).max(2).min(s.len());
    (content, s, need)
}

/// The words of `sanitized` that repeat a private word of `raw`, in order
/// of first appearance.
///
/// A raw text is often its fact plus a private reason. Where the raw text
/// restates the sanitized one (a passage of it, or clauses whose content
/// words the sanitized text mostly uses) and says at least three more
/// content words besides, the restating part is the fact: its words are
/// the fact's own, and only words that stand in the rest alone are
/// private. Otherwise (the raw text is no more than its fact with the
/// reason worded in) every raw word that is not shareable is private.
/// See `analysis::leak`.
pub fn leaked_words(raw: &str, sanitized: &str, shareable: &dyn Lexicon) -> Vec<String> {
    let private = super::leak::private_words(raw, sanitized, shareable);
    let mut out: Vec<String> = Vec::new();
    for w in words(sanitized) {
        if private.contains(&w) && !out.contains(&w) {
            out.push(w);
        }
    }
    out
}

/// Where the `leaked` words stand in a sanitized text, as labels: found in
/// a plain literal without escapes, whose offsets match its value's; else
/// one label on the whole literal.
pub fn word_spans(
    text: &str,
    literal: crate::span::Span,
    leaked: &[String],
) -> Vec<miette::LabeledSpan> {
    let whole = || {
        vec![miette::LabeledSpan::new_with_span(
            Some("may give away the raw reason".into()),
            literal,
        )]
    };
    if literal.is_derived() || literal.len() != text.len() + 2 {
        return whole();
    }
    let mut out = Vec::new();
    for (start, w) in crate::words::alphanumeric_runs(text) {
        if leaked.contains(&w.to_lowercase()) {
            out.push(miette::LabeledSpan::new(
                Some(format!("`{w}` is in the raw text")),
                literal.start as usize + 1 + start,
                w.len(),
            ));
        }
    }
    if out.is_empty() {
        return whole();
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_extract_of_the_raw_text_leaks_only_what_the_rest_repeats() {
        let none = Vocabulary::default();
        assert!(leaked_words(
            "Forecast visibility is 3 statute miles, and Lucia's supervisor doubts her.",
            "Forecast visibility is 3 statute miles.",
            &none
        )
        .is_empty());
        // Words the restated passage uses are the fact's own, even where
        // the private rest uses them again.
        assert!(leaked_words(
            "The pilot is current, although a colleague says the pilot's spouse doubts every certificate.",
            "The pilot is current.",
            &none
        )
        .is_empty());
        // A word that stands in the private rest alone leaks.
        assert_eq!(
            leaked_words(
                "The pilot is current, although a colleague says the pilot's spouse doubts every certificate.",
                "The pilot is current despite spouse doubts.",
                &none
            ),
            vec!["spouse".to_string(), "doubts".to_string()]
        );
        // A paraphrase of the fact inside a longer sentence.
        let stop: Vocabulary = STOP_WORDS.iter().map(|w| w.to_string()).collect();
        assert!(leaked_words(
            "A labmate says the student struggled in a mock session, but I consider the current manuscript academically ready.",
            "The current thesis manuscript is academically ready.",
            &stop
        )
        .is_empty());
        // No more than the sanitized text plus a word: the plain rule.
        assert_eq!(
            leaked_words(
                "Eli has an oncology infusion Tuesday.",
                "Eli has an oncology infusion.",
                &none
            ),
            vec!["eli", "has", "an", "oncology", "infusion"]
        );
    }

    #[test]
    fn reason_words_leak_but_common_ones_do_not() {
        let shareable: Vocabulary = ["eli", "unavailable"]
            .iter()
            .map(|s| s.to_string())
            .chain(STOP_WORDS.iter().chain(DAY_WORDS).map(|s| s.to_string()))
            .collect();
        assert!(leaked_words(
            "Oncology infusion appointment Tuesday 10-11.",
            "Eli is unavailable Tuesday 10-11.",
            &shareable
        )
        .is_empty());
        assert_eq!(
            leaked_words(
                "Oncology infusion Tuesday 10-11.",
                "Eli has an infusion on Tuesday.",
                &shareable
            ),
            vec!["infusion".to_string()]
        );
    }
}
