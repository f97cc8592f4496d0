//! Decision triplets: a flip changes the one decision the scenario allows,
//! a hold keeps it, and both read differently from the anchor.

use rand_chacha::ChaCha8Rng;

use super::accept::{accept, proposer, Anchor, Attempt, Search, Want};
use super::{decision_label, item, mutate, record, Config, Kind, Side, TripletRecord};
use crate::driver::Checked;
use crate::render::{Cue, RenderError, Templates};

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
pub(super) fn triplets(
    anchor: &Anchor,
    config: &Config,
    templates: &Templates,
    rng: &mut ChaCha8Rng,
    accepted: &mut std::collections::HashSet<String>,
) -> Result<Vec<TripletRecord>, RenderError> {
    let mut out = Vec::new();
    for &cue in &config.cues {
        let mut stream = rng.clone();
        out.extend(in_condition(
            anchor,
            cue,
            config,
            templates,
            &mut stream,
            accepted,
        )?);
    }
    Ok(out)
}

/// The decision triplets of one anchor whose items are written for `cue`.
fn in_condition(
    anchor: &Anchor,
    cue: Cue,
    config: &Config,
    templates: &Templates,
    rng: &mut ChaCha8Rng,
    accepted: &mut std::collections::HashSet<String>,
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
        traps: super::traps(c),
    };
    let words = decision_words(c);
    let executor = &sc.people[sc.executor].id;
    let flip_goal = format!(
        "make a minimal edit after which the one decision the scenario allows is different from the current one ({words})"
    );
    let hold_goal = format!(
        "make a minimal edit that leaves the decision exactly as it is ({words}) and that a reader of the item sees (the item shows the public brief and what the executor `{executor}` can see): paraphrase a text the executor can see and keep what it states, add a personal detail of the executor's with no bearing on the task, drop a detail the decision does not need, or rename a person"
    );
    let (mut flips_taken, mut holds_taken) = (Vec::new(), Vec::new());
    let mut out = Vec::new();
    for _ in 0..config.per_seed {
        // Candidates of every fact and of the public setting, interleaved
        // so that no single fact uses up the rounds. Both lists are drawn
        // up front, so that the random stream does not depend on which
        // side succeeds.
        let mut flip_list = mutate::decision_flips(c, templates.facts(), rng);
        flip_list.extend(mutate::public_edits(sc, rng));
        rand::seq::SliceRandom::shuffle(&mut flip_list[..], rng);
        // Flips that reach a decision no accepted flip reached come first,
        // so that the flips of a seed spread over its alternatives.
        let reached: Vec<&super::Label> = flips_taken
            .iter()
            .map(|v: &super::Variant| &v.side.label)
            .collect();
        let hold_list = mutate::decision_holds(c, templates.facts(), rng);
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
                &flip_goal,
                &flips_taken,
                // A second pass (without `avoid`) needs the list again.
                if reached.is_empty() || !symbolic {
                    flip_list.take().unwrap_or_default()
                } else {
                    flip_list.clone().unwrap_or_default()
                },
                false,
            );
            let flip_search = Search {
                anchor,
                side: &side,
                goal: &flip_goal,
                want: Want::Decision {
                    flip: true,
                    base: &base,
                    avoid,
                    cue,
                },
            };
            flipped = accept(&flip_search, flips.as_mut(), accepted, config, templates);
            if !matches!(flipped, Attempt::Failed) || reached.is_empty() {
                break;
            }
        }
        if matches!(flipped, Attempt::Failed) {
            break;
        }
        let mut holds = proposer(
            config,
            templates,
            anchor,
            &hold_goal,
            &holds_taken,
            hold_list,
            false,
        );
        // Tried even while the flip waits for a batch, so that both sides'
        // requests go out in the same batch.
        let hold_search = Search {
            anchor,
            side: &side,
            goal: &hold_goal,
            want: Want::Decision {
                flip: false,
                base: &base,
                avoid: &[],
                cue,
            },
        };
        let held = accept(&hold_search, holds.as_mut(), accepted, config, templates);
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
