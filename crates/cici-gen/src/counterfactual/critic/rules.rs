//! The rule-based critic: a variant is accepted only if every verdict is
//! positive; each verdict says why.
//!
//! In: the anchor, the compiled variant, its item and its edits
//! (`Judged`). Out: the `Verdict` of every check, in order.

use std::collections::HashSet;

use crate::analysis::{lints, Class};
use crate::counterfactual::base::records::{verdict, Evaluated, Trap, Verdict};
use crate::counterfactual::base::vocab::{changes, Check, Edit, MAX_EDITS};
use crate::counterfactual::base::wording::{phrases, subject_name};
use crate::counterfactual::check::labels;
use crate::driver::Checked;

/// Words that name labels; a variant's edited text must not give its label away.
const LABEL_WORDS: &[&str] = &[
    "critical",
    "supporting",
    "trap",
    "benign",
    "irrelevant",
    "oracle",
    "appropriate",
    "inappropriate",
    "label",
    "flipped",
];

/// The texts an edit wrote.
fn written_texts(edits: &[Edit]) -> Vec<&str> {
    edits
        .iter()
        .filter_map(|e| match e {
            Edit::ReplaceText { to, .. } => Some(to.as_str()),
            _ => None,
        })
        .collect()
}

/// What the critic compares a variant with.
pub struct Judged<'a> {
    pub anchor: &'a Checked,
    /// The anchor's item and warning codes.
    pub anchor_item: &'a str,
    pub anchor_warnings: &'a [String],
    pub variant: &'a Evaluated,
    /// The variant's item.
    pub item: &'a str,
    pub edits: &'a [Edit],
    /// Whether the variant asks about another flow than the anchor.
    pub changes_flow: bool,
    /// Warnings the edit may bring: a flow's task edit makes the statement
    /// idle on purpose (`idle_fact`), so that the task no longer needs it.
    pub may_add: &'a [&'a str],
    /// Whether the item must show the variant's traps (decision items).
    pub traps: bool,
}

/// What identifies an accepted variant: its seed text and its item (flow
/// items of one seed differ in the item alone).
pub(crate) fn accepted_key(seed: &str, item: &str) -> String {
    format!("{seed}\u{0}{item}")
}

/// Every critical or supporting attribute the edit changed still states
/// its facts: its raw text is in the decision item (`item`), and its
/// carrying text names every kind of
/// thing its facts pin down that the anchor's text named (a flip that
/// moves a capacity to another person must name the new hours, not only
/// the person).
fn supports_label(anchor: &Checked, variant: &Evaluated, item: Option<&str>) -> Verdict {
    let (a_sc, v) = (&anchor.scenario, &variant.checked);
    // Read only where an edited text needs them: most edits leave the
    // critical and supporting texts as they were.
    let (a_reader, v_reader) = (
        std::cell::LazyCell::new(|| crate::analysis::mentions::Reader::new(a_sc)),
        std::cell::LazyCell::new(|| crate::analysis::mentions::Reader::new(&v.scenario)),
    );
    let mut weak = Vec::new();
    for (attr, finding) in v.scenario.attributes.iter().zip(&v.report.attributes) {
        if !matches!(finding.class, Class::Critical | Class::Supporting) {
            continue;
        }
        let before = a_sc.attributes.iter().find(|b| b.id == attr.id);
        let text = &attr.fact_form().1.text;
        if before.is_some_and(|b| b.fact_form().1.text == *text && b.holder == attr.holder) {
            continue;
        }
        // A decision item shows every raw text (and, under some cue
        // conditions, the sanitized ones beside them).
        if item.is_some_and(|i| !i.contains(attr.raw.text.as_str())) {
            weak.push(format!("`{}` is not in the item", attr.id));
            continue;
        }
        let was = before.map_or(Vec::new(), |b| crate::analysis::unstated(&a_reader, b));
        let lost: Vec<&str> = crate::analysis::unstated(&v_reader, attr)
            .into_iter()
            .filter(|k| !was.contains(k))
            .collect();
        if !lost.is_empty() {
            weak.push(format!("`{}` names no {}", attr.id, lost.join(" or ")));
        }
    }
    verdict(
        Check::SupportsLabel,
        weak.is_empty(),
        if weak.is_empty() {
            "every edited text the label depends on states its facts".into()
        } else {
            weak.join("; ")
        },
    )
}

/// A decision item shows the text of every trap of its scenario, so that a
/// reader who honours one answers otherwise; and where the anchor has a
/// consequential trap (one whose honouring leads to another decision), the
/// variant keeps one, so that using what one should not still changes the
/// answer.
fn shows_traps(anchor: &Checked, variant: &Evaluated, item: &str) -> Verdict {
    let traps = labels::traps(&variant.checked);
    let hidden: Vec<String> = traps
        .iter()
        .filter(|t| !item.contains(t.text.as_str()))
        .map(|t| format!("`{}`", t.attribute))
        .collect();
    let leads = |ts: &[Trap]| ts.iter().any(|t| !t.honoured_answer.is_empty());
    let lost = leads(&labels::traps(anchor)) && !leads(&traps);
    let reason = match (traps.is_empty(), hidden.is_empty(), lost) {
        (true, _, false) => "the scenario has no trap".into(),
        (_, _, true) => "no trap leads to another decision any more".into(),
        (false, true, false) => format!("the item shows its {} trap(s)", traps.len()),
        (false, false, false) => format!("the item hides the trap(s) {}", hidden.join(", ")),
    };
    verdict(Check::ShowsTraps, hidden.is_empty() && !lost, reason)
}

/// Judges an evaluated variant against its anchor: every check, in order.
pub fn judge(j: &Judged, accepted: &HashSet<String>) -> Vec<Verdict> {
    let mut out = vec![
        minimal(j),
        reads_differently(j),
        no_new_warnings(j),
        states_fact(j),
        no_leak(j),
        no_label_words(j),
    ];
    if j.traps {
        out.push(shows_traps(j.anchor, j.variant, j.item));
    }
    out.push(supports_label(
        j.anchor,
        j.variant,
        j.traps.then_some(j.item),
    ));
    let duplicate = accepted.contains(&accepted_key(&j.variant.text, j.item));
    out.push(verdict(
        Check::NotDuplicate,
        !duplicate,
        if duplicate {
            "the same variant was already accepted".into()
        } else {
            "a new variant".into()
        },
    ));
    out
}

/// A few changes, or a question about another flow.
fn minimal(j: &Judged) -> Verdict {
    let edits = j.edits;
    let n = changes(edits, &j.anchor.scenario, &j.variant.checked.scenario);
    verdict(
        Check::Minimal,
        (!edits.is_empty() || j.changes_flow) && n <= MAX_EDITS,
        format!(
            "{n} change(s) in {} edit operation(s), at most {MAX_EDITS} changes",
            edits.len()
        ),
    )
}

/// A reader sees the change: the item differs from the anchor's.
fn reads_differently(j: &Judged) -> Verdict {
    let same = j.item == j.anchor_item;
    verdict(
        Check::ReadsDifferently,
        !same,
        if same {
            "the item reads exactly as the anchor's".into()
        } else {
            "the item differs from the anchor's".into()
        },
    )
}

/// The variant is no worse a seed than its anchor.
fn no_new_warnings(j: &Judged) -> Verdict {
    let new: Vec<&String> = j
        .variant
        .warnings
        .iter()
        .filter(|w| !j.anchor_warnings.contains(w) && !j.may_add.contains(&w.as_str()))
        .collect();
    verdict(
        Check::NoNewWarnings,
        new.is_empty(),
        if new.is_empty() {
            "no warning the anchor did not have".into()
        } else {
            let names: Vec<&str> = new.iter().map(|w| w.as_str()).collect();
            format!("the variant adds {}", names.join(", "))
        },
    )
}

/// The text states the fact: every replaced fact's arguments appear in
/// the text of the form that carries it.
fn states_fact(j: &Judged) -> Verdict {
    let sc = &j.variant.checked.scenario;
    let mut stated = Vec::new();
    let mut unstated = Vec::new();
    for e in j.edits {
        if let Edit::ReplaceFact { attribute, to, .. } = e {
            let Some(a) = sc.attribute(attribute) else {
                continue;
            };
            let (_, form) = sc.attributes[a].fact_form();
            let phrases: Vec<String> = form
                .facts
                .iter()
                .flat_map(|f| phrases(sc, &f.predicate))
                .collect();
            let names_subject = form
                .facts
                .iter()
                .filter_map(|f| subject_name(sc, &f.predicate))
                .all(|n| form.text.contains(n.as_str()));
            let ok = names_subject
                && (phrases.is_empty() || phrases.iter().any(|p| form.text.contains(p.as_str())));
            if ok {
                stated.push(format!("`{attribute}` states {to}"));
            } else {
                unstated.push(format!("`{attribute}` does not state {to}"));
            }
        }
    }
    verdict(
        Check::StatesFact,
        unstated.is_empty(),
        match (unstated.is_empty(), stated.is_empty()) {
            (false, _) => unstated.join("; "),
            (true, true) => "no fact was replaced".into(),
            (true, false) => stated.join("; "),
        },
    )
}

/// Sanitized texts do not give the raw reason away.
fn no_leak(j: &Judged) -> Verdict {
    let sc = &j.variant.checked.scenario;
    // Gathered only once an edited sanitized text asks for them.
    let shareable = std::cell::LazyCell::new(|| lints::shareable_words(sc));
    let leaks: Vec<String> = sc
        .attributes
        .iter()
        .filter_map(|a| {
            let s = a.sanitized.as_ref()?;
            let before = j.anchor.scenario.attributes.iter().find(|b| b.id == a.id);
            let unchanged = before.is_some_and(|b| {
                b.raw.text == a.raw.text && b.sanitized.as_ref().map(|x| &x.text) == Some(&s.text)
            });
            if unchanged {
                return None;
            }
            let words = lints::attribute_leaks(sc, a, &s.text, &shareable);
            (!words.is_empty()).then(|| format!("`{}` repeats {}", a.id, words.join(", ")))
        })
        .collect();
    verdict(
        Check::NoLeak,
        leaks.is_empty(),
        if leaks.is_empty() {
            "no edited sanitized text repeats its raw reason".into()
        } else {
            leaks.join("; ")
        },
    )
}

/// The edit writes no word that names a label.
fn no_label_words(j: &Judged) -> Verdict {
    let label_words: Vec<&str> = written_texts(j.edits)
        .iter()
        .flat_map(|t| lints::words(t).collect::<Vec<_>>())
        .filter_map(|w| LABEL_WORDS.iter().copied().find(|l| *l == w))
        .collect();
    verdict(
        Check::NoLabelWords,
        label_words.is_empty(),
        if label_words.is_empty() {
            "no label word in the edited text".into()
        } else {
            format!("the edit writes {}", label_words.join(", "))
        },
    )
}
