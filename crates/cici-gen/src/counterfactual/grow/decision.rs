//! Decision triplets: a flip changes the one decision the scenario allows,
//! a hold keeps it, and both read differently from the anchor.

use rand_chacha::ChaCha8Rng;

use super::accept::{accept, proposer, Anchor, Attempt, Compiled, Search, Want};
use super::record::record;
use crate::counterfactual::base::config::Config;
use crate::counterfactual::base::records::{Kind, Label, Side, TripletRecord, Variant};
use crate::counterfactual::base::vocab::{Candidate, Edit};
use crate::counterfactual::check::item;
use crate::counterfactual::check::labels::{decision_label, traps};
use crate::counterfactual::generate::mutate;
use crate::driver::Checked;
use crate::render::{Cue, RenderError, Templates};
use crate::sema::{Predicate, RulePredicate};

/// The decision in words, for a goal.
fn decision_words(c: &Checked) -> String {
    crate::printer::decision_rows(&c.scenario, &c.scenario.oracle)
        .iter()
        .map(|(t, v)| format!("{t} -> {v}"))
        .collect::<Vec<_>>()
        .join(", ")
}

/// The decision triplets of one anchor, grown once per cue condition of
/// the run. Each condition starts from the same random stream, so that a
/// triplet found in one condition is found in the others where their items
/// allow it, and conditions can be compared item by item.
pub(crate) fn triplets(
    anchor: &Anchor,
    config: &Config,
    templates: &Templates,
    rng: &mut ChaCha8Rng,
    accepted: &mut std::collections::HashSet<String>,
) -> Result<Vec<TripletRecord>, RenderError> {
    let mut out = Vec::new();
    let mut drawn = Drawn::default();
    for &cue in &config.cues {
        let mut stream = rng.clone();
        out.extend(in_condition(
            anchor,
            cue,
            config,
            templates,
            &mut stream,
            accepted,
            &mut drawn,
        )?);
    }
    Ok(out)
}

/// The candidate lists of one anchor as the conditions draw them: every
/// condition starts from the same random stream, so its n-th flip and hold
/// lists are the first condition's, drawn from the same state. Each entry
/// keeps the stream before and after its draw; a draw from another state
/// is made afresh.
#[derive(Default)]
struct Drawn(Vec<Lists>);

/// One draw: the stream before, the flip and hold lists, the stream after.
type Lists = (ChaCha8Rng, Vec<Candidate>, Vec<Candidate>, ChaCha8Rng);

impl Drawn {
    /// The `n`-th lists of the anchor, drawn from `rng`.
    fn lists(
        &mut self,
        n: usize,
        anchor: &Anchor,
        config: &Config,
        templates: &Templates,
        rng: &mut ChaCha8Rng,
    ) -> (Vec<Candidate>, Vec<Candidate>) {
        if let Some((before, flips, holds, after)) = self.0.get(n) {
            if before == rng {
                *rng = after.clone();
                return (flips.clone(), holds.clone());
            }
        }
        let c = anchor.checked;
        let before = rng.clone();
        // Candidates of every fact and of the public setting, interleaved
        // so that no single fact uses up the rounds. Both lists are drawn
        // up front, so that the random stream does not depend on which
        // side succeeds.
        let mut flip_list = mutate::decision_flips(c, templates.facts(), rng);
        flip_list.extend(crate::counterfactual::generate::completed::flips(
            c,
            templates.facts(),
            rng,
        ));
        let shared = &anchor.shared;
        flip_list.extend(mutate::public_edits(shared, rng));
        rand::seq::SliceRandom::shuffle(&mut flip_list[..], rng);
        // Most edits of a number or a fact leave no decision or several:
        // the prover sorts them out here, so that they use up no round.
        flip_list.retain(|f| moves_decision(f, &c.scenario, anchor.compiled, config));
        let mut hold_list = crate::counterfactual::generate::holds::decision_holds(
            c,
            shared,
            templates.facts(),
            rng,
        );
        alike_first(&c.scenario, &mut flip_list, &mut hold_list);
        if self.0.len() == n {
            self.0
                .push((before, flip_list.clone(), hold_list.clone(), rng.clone()));
        }
        (flip_list, hold_list)
    }
}

/// The decision triplets of one anchor whose items are written for `cue`.
fn in_condition(
    anchor: &Anchor,
    cue: Cue,
    config: &Config,
    templates: &Templates,
    rng: &mut ChaCha8Rng,
    accepted: &mut std::collections::HashSet<String>,
    drawn: &mut Drawn,
) -> Result<Vec<TripletRecord>, RenderError> {
    let c = anchor.checked;
    let sc = &c.scenario;
    let base = decision_label(c);
    let side = Side {
        seed: anchor.text.clone(),
        label: base.clone(),
        answer: item::answer(sc, &sc.oracle),
        flow: None,
        item: item::decision_item(c, templates, cue)?,
        reasons: None,
        condition: cue.name().to_string(),
        traps: traps(c),
    };
    let (flip_goal, hold_goal) = goals(c);
    let grow = Grow {
        anchor,
        cue,
        config,
        templates,
        side: &side,
        base: &base,
        flip_goal: &flip_goal,
        hold_goal: &hold_goal,
    };
    let (mut flips_taken, mut holds_taken) = (Vec::new(), Vec::new());
    let mut out = Vec::new();
    for n in 0..config.per_seed {
        let (flip_list, hold_list) = drawn.lists(n, anchor, config, templates, rng);
        let flipped = grow.flip(flip_list, &flips_taken, accepted);
        if matches!(flipped, Attempt::Failed) {
            break;
        }
        let mut hold_list = hold_list;
        if let Attempt::Accepted(f) = &flipped {
            like_the_flip(sc, &f.edits, &mut hold_list);
        }
        // Tried even while the flip waits for a batch, so that both sides'
        // requests go out in the same batch.
        let held = grow.hold(hold_list, &holds_taken, accepted);
        let (Attempt::Accepted(flipped), Attempt::Accepted(held)) = (flipped, held) else {
            break;
        };
        let (flipped, held) = (*flipped, *held);
        flips_taken.push(flipped.clone());
        holds_taken.push(held.clone());
        out.push(record(
            sc,
            Kind::Decision,
            side.clone(),
            flipped,
            held,
            config,
        ));
    }
    Ok(out)
}

/// Whether the candidate's facts allow exactly one decision, and not the
/// anchor's (what a flip's label needs, before its texts are judged),
/// solved through the seed's cache, which the flip's search then reads.
fn moves_decision(
    candidate: &Candidate,
    sc: &crate::sema::Scenario,
    compiled: &Compiled,
    config: &Config,
) -> bool {
    compiled
        .oracle(candidate, config)
        .is_ok_and(|d| d != sc.oracle)
}

/// The shape of a candidate's edits as a diff shows it: each edit's
/// operation, a replaced fact's predicate and, for a finding, its new
/// value (`failed`, `present`); texts rewritten with a fact go with it,
/// and a finding's text rewritten alone shows the value it states (of
/// `sc`, the anchor), as a finding told again shows it.
fn shape(sc: &crate::sema::Scenario, edits: &[Edit]) -> Vec<String> {
    let replaced = |id: &str| {
        edits
            .iter()
            .any(|e| matches!(e, Edit::ReplaceFact { attribute, .. } if attribute == id))
    };
    let kind = |to: &str| {
        let (name, args) = to.split_once('(').unwrap_or((to, ""));
        match name {
            "evidence" => format!("evidence:{}", last_argument(args)),
            _ => name.to_string(),
        }
    };
    let mut out: Vec<String> = edits
        .iter()
        .filter_map(|e| match e {
            Edit::ReplaceFact { to, .. } => Some(kind(to)),
            Edit::ReplaceText { attribute, to, .. } if !replaced(attribute) => {
                let a = sc.attribute(attribute)?;
                match &sc.attributes[a].fact_form().1.facts[..] {
                    // A finding about something no rule names reads as one
                    // that counts, by the state its text states.
                    [] if sc.rule_setting().is_some() => {
                        crate::phrasing::stated_state(crate::phrasing::FactTexts::builtin(), to)
                            .map(|s| format!("evidence:{s}"))
                    }
                    [f] if matches!(
                        f.predicate,
                        Predicate::Rule(RulePredicate::Evidence { .. })
                    ) =>
                    {
                        Some(kind(&crate::printer::predicate(sc, &f.predicate)))
                    }
                    _ => None,
                }
            }
            Edit::ReplaceText { .. } => None,
            other => op_name(other),
        })
        .collect();
    out.sort();
    out.dedup();
    out
}

/// Puts first the flips whose shape a hold has too, keeping their order
/// otherwise, then orders the holds by the first flip of their shape: the
/// holds most alike to the flips likely taken come first. Flips and holds
/// are then made of the same kinds of edits wherever the seed allows, so
/// that the diff alone does not tell them apart.
fn alike_first(sc: &crate::sema::Scenario, flips: &mut Vec<Candidate>, holds: &mut Vec<Candidate>) {
    let hold_shapes: Vec<Vec<String>> = holds.iter().map(|h| shape(sc, &h.edits)).collect();
    let (alike, rest): (Vec<_>, Vec<_>) = std::mem::take(flips)
        .into_iter()
        .map(|f| (shape(sc, &f.edits), f))
        .partition(|(s, _)| hold_shapes.contains(s));
    let flip_shapes: Vec<Vec<String>> = alike.iter().map(|(s, _)| s.clone()).collect();
    flips.extend(alike.into_iter().chain(rest).map(|(_, f)| f));
    let mut ranked: Vec<(usize, Candidate)> = std::mem::take(holds)
        .into_iter()
        .zip(&hold_shapes)
        .map(|(h, s)| {
            let first = flip_shapes.iter().position(|f| f == s);
            (first.unwrap_or(usize::MAX), h)
        })
        .collect();
    // Stable: holds of one rank keep their order.
    ranked.sort_by_key(|(rank, _)| *rank);
    holds.extend(ranked.into_iter().map(|(_, h)| h));
}

/// Orders the holds by how much of the accepted flip's diff (`edits`)
/// they share: the kinds of edit first, then the number of edits, then the share of the words
/// their texts remove and add (a state such as `failed` included), keeping their
/// order otherwise. The hold of a triplet is then made of the edits most
/// like its flip's that the seed has.
fn like_the_flip(sc: &crate::sema::Scenario, edits: &[Edit], holds: &mut [Candidate]) {
    let (flip, words, flip_ops) = (shape(sc, edits), diff_words(edits), ops(edits));
    let flip_left = left_states(sc, edits);
    let flip_told = told_as(sc, edits);
    let shared = |h: &Candidate| {
        let kinds = shape(sc, &h.edits)
            .iter()
            .filter(|k| flip.contains(k))
            .count();
        // The share of the words the two diffs have, so that a long text
        // does not win by its length alone.
        let theirs = diff_words(&h.edits);
        let both = theirs.intersection(&words).count();
        let alike = 1000 * both / theirs.union(&words).count().max(1);
        // The same edits of each kind and form as the flip's: a hold that
        // also re-aims the trap goes with a flip that does, and one that
        // tells a finding's two texts again with a flip that sets both.
        let count = std::cmp::Reverse(unmatched(&ops(&h.edits), &flip_ops));
        // The states the edits leave, as the flip's: a flip that sets a
        // pending check failed goes with a hold that does, not with one
        // that tells a failed claim again.
        let was = left_states(sc, &h.edits)
            .iter()
            .filter(|s| flip_left.contains(s))
            .count();
        // Texts of the same kind of detail as the flip's: a flip of a
        // finding in the record's words goes with a hold of one, a flip of
        // a finding told with a personal reason with a hold of a personal
        // detail.
        let details = usize::from(told_as(sc, &h.edits) == flip_told);
        std::cmp::Reverse((kinds, details, was, count, alike))
    };
    // Stable: holds of one rank keep their order.
    holds.sort_by_cached_key(shared);
}

/// Whether the texts the edits rewrite are of personal details (filed
/// under a category other than `operational`), in order of the edits.
fn told_as(sc: &crate::sema::Scenario, edits: &[Edit]) -> Vec<bool> {
    let mut out: Vec<bool> = edits
        .iter()
        .filter_map(|e| match e {
            Edit::ReplaceText { attribute, .. } => sc.attribute(attribute).map(|a| {
                sc.attributes[a]
                    .category
                    .is_some_and(|c| c != crate::sema::Category::Operational)
            }),
            _ => None,
        })
        .collect();
    out.sort();
    out.dedup();
    out
}

/// The states of findings the edits leave: a replaced finding's old
/// value, and the state an edited text of a finding stated before.
fn left_states(sc: &crate::sema::Scenario, edits: &[Edit]) -> Vec<String> {
    let texts = crate::phrasing::FactTexts::builtin();
    let mut out: Vec<String> = edits
        .iter()
        .filter_map(|e| match e {
            Edit::ReplaceFact { from, .. } => from
                .strip_prefix("evidence(")
                .map(|args| last_argument(args).to_string()),
            Edit::ReplaceText { from, .. } if sc.rule_setting().is_some() => {
                crate::phrasing::stated_state(texts, from).map(str::to_string)
            }
            _ => None,
        })
        .collect();
    out.sort();
    out.dedup();
    out
}

/// Each edit that shows in the item, by its operation and for a text its
/// form, sorted: a replaced fact and a moved detail show only through
/// their texts.
fn ops(edits: &[Edit]) -> Vec<String> {
    let mut out: Vec<String> = edits
        .iter()
        .filter(|e| !matches!(e, Edit::ReplaceFact { .. } | Edit::SetHolder { .. }))
        .map(|e| match e {
            Edit::ReplaceText { form, .. } => format!("text:{form:?}"),
            other => op_name(other).unwrap_or_default(),
        })
        .collect();
    out.sort();
    out
}

/// An edit's operation as records spell it (`add_attribute`).
fn op_name(e: &Edit) -> Option<String> {
    let v = serde_json::to_value(e).ok()?;
    Some(v.get("op")?.as_str()?.to_string())
}

/// The last argument of a printed predicate's arguments (`load_test,
/// failed)` gives `failed`): a finding's value.
fn last_argument(args: &str) -> &str {
    args.trim_end_matches(')').rsplit(", ").next().unwrap_or("")
}

/// How many entries of two sorted lists have no match in the other.
fn unmatched(a: &[String], b: &[String]) -> usize {
    let (mut i, mut j, mut same) = (0, 0, 0);
    while i < a.len() && j < b.len() {
        match a[i].cmp(&b[j]) {
            std::cmp::Ordering::Less => i += 1,
            std::cmp::Ordering::Greater => j += 1,
            std::cmp::Ordering::Equal => {
                same += 1;
                i += 1;
                j += 1;
            }
        }
    }
    a.len() + b.len() - 2 * same
}

/// The words the edits' texts remove (`-word`) and add (`+word`), as a
/// diff of the item shows them.
/// Each is its sign and the word, lower-cased as the privacy words are.
fn diff_words(
    edits: &[Edit],
) -> std::collections::HashSet<(char, String), foldhash::fast::RandomState> {
    let mut out = std::collections::HashSet::default();
    let mut add = |sign: char, text: &str| {
        out.extend(crate::analysis::lints::words(text).map(|w| (sign, w)));
    };
    for e in edits {
        match e {
            Edit::ReplaceText { from, to, .. } => {
                add('-', from);
                add('+', to);
            }
            Edit::AddAttribute { text, .. } => add('+', text),
            _ => {}
        }
    }
    out
}

/// The goals a model generator is given for the flip and the hold.
fn goals(c: &Checked) -> (String, String) {
    let sc = &c.scenario;
    let words = decision_words(c);
    let executor = &sc.people[sc.executor].id;
    let flip_goal = format!(
        "make a minimal edit after which the one decision the scenario allows is different from the current one ({words})"
    );
    let hold_goal = format!(
        "make a minimal edit that leaves the decision exactly as it is ({words}) and that a reader of the item sees (the item shows the public brief and what the executor `{executor}` can see): paraphrase a text the executor can see and keep what it states, add a personal detail of the executor's with no bearing on the task, drop a detail the decision does not need, or rename a person"
    );
    (flip_goal, hold_goal)
}

/// What the searches of one anchor's decision triplets in one condition
/// share.
struct Grow<'a> {
    anchor: &'a Anchor<'a>,
    cue: Cue,
    config: &'a Config,
    templates: &'a Templates,
    side: &'a Side,
    base: &'a Label,
    flip_goal: &'a str,
    hold_goal: &'a str,
}

impl Grow<'_> {
    /// Searches a flip. Flips that reach a decision no accepted flip
    /// reached are tried first, so that the flips of a seed spread over its
    /// alternatives; the symbolic generator then tries the whole list again.
    fn flip(
        &self,
        flip_list: Vec<Candidate>,
        flips_taken: &[Variant],
        accepted: &mut std::collections::HashSet<String>,
    ) -> Attempt {
        let (config, templates, anchor) = (self.config, self.templates, self.anchor);
        let reached: Vec<&Label> = flips_taken.iter().map(|v| &v.side.label).collect();
        let symbolic = config.generator_llm.is_none();
        let mut flipped = Attempt::Failed;
        let mut flip_list = Some(flip_list);
        for avoid in [&reached[..], &[]] {
            if avoid.is_empty() && !reached.is_empty() && !symbolic {
                break;
            }
            let mut flips = proposer(
                config,
                templates,
                anchor,
                self.flip_goal,
                flips_taken,
                // A second pass (without `avoid`) needs the list again.
                if reached.is_empty() || !symbolic {
                    flip_list.take().unwrap_or_default()
                } else {
                    flip_list.clone().unwrap_or_default()
                },
                false,
            );
            let search = Search {
                anchor,
                side: self.side,
                goal: self.flip_goal,
                want: Want::Decision {
                    flip: true,
                    base: self.base,
                    avoid,
                    cue: self.cue,
                },
            };
            flipped = accept(&search, flips.as_mut(), accepted, config, templates);
            if !matches!(flipped, Attempt::Failed) || reached.is_empty() {
                break;
            }
        }
        flipped
    }

    /// Searches a hold.
    fn hold(
        &self,
        hold_list: Vec<Candidate>,
        holds_taken: &[Variant],
        accepted: &mut std::collections::HashSet<String>,
    ) -> Attempt {
        let (config, templates, anchor) = (self.config, self.templates, self.anchor);
        let goal = self.hold_goal;
        let mut holds = proposer(
            config,
            templates,
            anchor,
            goal,
            holds_taken,
            hold_list,
            false,
        );
        let search = Search {
            anchor,
            side: self.side,
            goal,
            want: Want::Decision {
                flip: false,
                base: self.base,
                avoid: &[],
                cue: self.cue,
            },
        };
        accept(&search, holds.as_mut(), accepted, config, templates)
    }
}
