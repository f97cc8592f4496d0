//! Flow triplets: whether one form of one attribute may go to one person
//! for the task. A flip changes the context, not the information: the
//! recipient, the wording (raw or sanitized), or whom the holder shared the
//! form with. A hold changes what the reader sees and keeps the label.

use rand::seq::SliceRandom;
use rand_chacha::ChaCha8Rng;

use super::accept::{accept, proposer, Anchor, Attempt, Search, Want};
use super::record::record;
use crate::counterfactual::base::config::Config;
use crate::counterfactual::base::records::{fnv, Kind, Label, Side, TripletRecord};
use crate::counterfactual::base::vocab::{Candidate, Flow};
use crate::counterfactual::check::item;
use crate::counterfactual::check::labels::{flow_label, flow_reasons};
use crate::counterfactual::generate::{mutate, norm_edits};
use crate::driver::Checked;
use crate::render::{RenderError, Templates};
use crate::sema::{FormKind, PersonId, Scenario};

/// A flow by position: attribute index, form, recipient index.
type At = (usize, FormKind, PersonId);

/// Every flow worth asking about: each form of each attribute that states
/// a fact, to each person but its holder and the executor (whose own task
/// it is, and whose name the item gives throughout). (A detail that states no fact is
/// needed by no task, whatever the context, so no change of context could
/// flip it.) Whether the task needs the form and whether the norms let the
/// recipient have it are the prover's to say.
fn flows(c: &Checked) -> Vec<At> {
    let sc = &c.scenario;
    let mut out = Vec::new();
    for (a, attr) in sc.attributes.iter().enumerate() {
        if attr.fact_form().1.facts.is_empty() {
            continue;
        }
        for (kind, form) in attr.forms() {
            // Recipients from a written exception: the item cannot state it.
            if form.visible != sc.derived_visibility(attr, kind) {
                continue;
            }
            for p in (0..sc.people.len()).filter(|&p| p != attr.holder && p != sc.executor) {
                out.push((a, kind, p));
            }
        }
    }
    out
}

/// Whether a form reads as personal: a raw form with a sanitized twin, or
/// one of a personal category. Its wording alone tells that the task does
/// not need it, so such anchors go last.
fn reads_personal(sc: &Scenario, (a, kind, _): At) -> bool {
    let attr = &sc.attributes[a];
    kind == FormKind::Raw
        && (attr.sanitized.is_some() || attr.category.is_some_and(|c| c.is_personal()))
}

fn flow_at(sc: &Scenario, (a, form, p): At) -> Flow {
    Flow {
        attribute: sc.attributes[a].id.clone(),
        form,
        person: sc.people[p].id.clone(),
    }
}

/// The same seed asking about another flow.
fn ask(shared: &std::sync::Arc<Scenario>, at: At) -> Candidate {
    let sc = shared.as_ref();
    Candidate {
        scenario: shared.clone().into(),
        edits: Vec::new(),
        flow: Some(flow_at(sc, at)),
    }
}

/// The changes offered for one anchor flow, before the prover labels
/// them, in three groups:
/// - `keep`: the statement and the recipient stay; the task (an edit of
///   the public setting), a norm, or a third person's name changes;
/// - `recipient`: another recipient;
/// - `wording`: the other form of the attribute;
/// - `groups`: the recipient's groups changed (which changes the
///   recipient's line of the team list along with the label);
/// - `revoke`: for a `yes` flow, the recipient taken out of every norm that
///   grants them the form (the statement and the recipient stay).
struct Changes {
    keep: Vec<Candidate>,
    revoke: Vec<Candidate>,
    recipient: Vec<Candidate>,
    wording: Vec<Candidate>,
    groups: Vec<Candidate>,
}

/// Whether a candidate swaps one of the recipient's groups for another.
fn is_group_swap(c: &Candidate) -> bool {
    matches!(c.edits.as_slice(), [crate::counterfactual::base::vocab::Edit::SetGroups { from, to, .. }] if from.len() == to.len())
}

/// Whether a candidate has `person` join or leave a meeting.
fn moves(c: &Candidate, person: &str) -> bool {
    matches!(c.edits.as_slice(), [crate::counterfactual::base::vocab::Edit::SetAttendees { from, to, .. }]
        if from.iter().any(|p| p == person) != to.iter().any(|p| p == person))
}

/// How many setting edits are offered for one flow.
const KEEP_FIRST: usize = 10;
/// How many candidates of a group a side tries before the next group.
const TRY_FIRST: usize = 8;

fn changes(shared: &std::sync::Arc<Scenario>, at: At, yes: bool, rng: &mut ChaCha8Rng) -> Changes {
    let sc = shared.as_ref();
    let (a, form, p) = at;
    let attr = &sc.attributes[a];
    // The norm edits that speak of the form come first (in a shuffled
    // order), then setting edits and the other norm edits, taking turns.
    // For a `yes` flow, setting edits and the near norm edits take turns
    // from the start: a setting edit flips it by making the task no longer
    // need the form, the `no` that the recipient's standing cannot tell.
    let (mut near, mut far) = norm_edits::norm_edits(shared, a, form, p);
    let mut groups = norm_edits::group_edits(shared, p);
    near.shuffle(rng);
    groups.shuffle(rng);
    // Swaps (one group for another) first: the recipient's line keeps
    // showing groups whichever way the label goes.
    groups.sort_by_key(|c| !is_group_swap(c));
    far.shuffle(rng);
    let mut setting = mutate::public_edits(shared, rng);
    // Edits of who attends a meeting that the holder joins or leaves
    // first: they are the ones that make the holder's detail needed or moot.
    let holder = &sc.people[attr.holder].id;
    setting.sort_by_key(|c| !moves(c, holder));
    setting.truncate(KEEP_FIRST);
    let mut keep = Vec::new();
    if yes {
        let k = near.len().min(setting.len());
        let (first, rest) = (setting.drain(..k), near.drain(..k));
        for (x, y) in first.zip(rest) {
            keep.extend([x, y]);
        }
    }
    keep.append(&mut near);
    let (mut n, mut s) = (far.into_iter(), setting.into_iter());
    loop {
        match (n.next(), s.next()) {
            (None, None) => break,
            (x, y) => keep.extend(x.into_iter().chain(y)),
        }
    }
    let mut others: Vec<PersonId> = (0..sc.people.len())
        .filter(|&q| q != p && q != attr.holder && q != sc.executor)
        .collect();
    others.shuffle(rng);
    keep.extend(
        others
            .iter()
            .take(2)
            .filter_map(|&q| crate::counterfactual::generate::holds::rename(shared, q, rng)),
    );
    let recipient = others
        .into_iter()
        .map(|q| ask(shared, (a, form, q)))
        .collect();
    let other = match form {
        FormKind::Raw => FormKind::Sanitized,
        FormKind::Sanitized => FormKind::Raw,
    };
    let wording = attr
        .form(other)
        .map(|_| ask(shared, (a, other, p)))
        .into_iter()
        .collect();
    let revoke = if yes {
        norm_edits::revoke(shared, a, form, p).into_iter().collect()
    } else {
        Vec::new()
    };
    Changes {
        keep,
        revoke,
        recipient,
        wording,
        groups,
    }
}

/// The candidates of one side in the order they are tried. With
/// `keep_first` (every flip), a few edits that leave the statement and the
/// recipient's line as they are come first, then the other wording, then
/// the recipient taken out of the norms, then the recipient's groups, then
/// other recipients: a flip that changes the recipient's line changes
/// along with the label what a reader of that line alone sees. A form
/// with no other wording has the norms revoked first: its `no` cannot be
/// one of a form the task does not need. Otherwise a few other recipients
/// come first, then the context edits, then the rest. Only a flip's list
/// (`flip`) has the norms revoked: revoking always flips the label, so a
/// hold would only have it turned down. Once the seed has enough `no`
/// sides the task does not need (`unneeded`), the norms are revoked
/// before the other wording is tried: a raw wording with a sanitized twin
/// is always `no`, and each one more makes the sanitized wordings lean
/// `yes`.
fn ordered(ch: &Changes, keep_first: bool, flip: bool, unneeded: bool) -> Vec<Candidate> {
    if keep_first {
        let revoke = if flip { ch.revoke.as_slice() } else { &[][..] };
        let (first, after) = if ch.wording.is_empty() || unneeded {
            (revoke, &[][..])
        } else {
            (&[][..], revoke)
        };
        return first
            .iter()
            .chain(ch.keep.iter().take(2 * TRY_FIRST))
            .chain(ch.wording.iter())
            .chain(after.iter())
            .chain(ch.groups.iter().take(TRY_FIRST))
            .chain(ch.recipient.iter().take(TRY_FIRST))
            .chain(ch.keep.iter().skip(2 * TRY_FIRST))
            .chain(ch.groups.iter().skip(TRY_FIRST))
            .chain(ch.recipient.iter().skip(TRY_FIRST))
            .cloned()
            .collect();
    }
    ch.recipient
        .iter()
        .take(TRY_FIRST)
        .chain(ch.keep.iter().take(TRY_FIRST))
        .chain(ch.wording.iter())
        .chain(ch.groups.iter())
        .chain(ch.recipient.iter().skip(TRY_FIRST))
        .chain(ch.keep.iter().skip(TRY_FIRST))
        .cloned()
        .collect()
}

/// The flow triplets of one seed. Labels are balanced over a run: the
/// label with fewer triplets so far goes next, and a seed's first label is
/// drawn from its id, so that an odd `--per-seed` does not tilt the run.
/// Anchors whose wording reads as personal go last among their label's.
pub(crate) fn triplets(
    anchor: &Anchor,
    config: &Config,
    templates: &Templates,
    rng: &mut ChaCha8Rng,
    accepted: &mut std::collections::HashSet<String>,
) -> Result<Vec<TripletRecord>, RenderError> {
    let c = anchor.checked;
    let sc = &c.scenario;
    let mut pools = labelled_pools(c, rng);
    let first = usize::from((fnv(&sc.id) ^ config.seed) & 1 == 1);
    let shared = &anchor.shared;
    let mut made = [0usize; 2];
    let mut tally = Tally::default();
    let mut tried = 0usize;
    let mut out = Vec::new();
    while out.len() < config.per_seed {
        let Some(at) = next_flow(c, &mut pools, made, first, &tally) else {
            break;
        };
        let flow = flow_at(sc, at);
        let base = flow_label(c, &flow).expect("the flow exists");
        let side = Side {
            seed: anchor.text.clone(),
            label: Label::Flow(base),
            answer: item::flow_answer(base),
            reasons: flow_reasons(c, &flow),
            flow: Some(flow.clone()),
            item: item::flow_item(c, &flow, templates)?,
            condition: String::new(),
            traps: Vec::new(),
        };
        // Both lists are drawn up front, so that the random stream does not
        // depend on which side succeeds.
        let ch = changes(shared, at, base, rng);
        // Flips try context edits first: a flip that keeps the statement
        // and the recipient is the one no lookup answers. Holds do so on
        // two triplets of three (counted from a draw of the seed's id, so
        // that `--per-seed 1` mixes them over the run) and try a recipient
        // of the same standing first on the rest.
        let turn = (tried + first) % 3;
        tried += 1;
        let enough = tally.enough_unneeded();
        let lists = [
            ordered(&ch, true, true, enough),
            ordered(&ch, turn != 0, false, enough),
        ];
        let grow = Grow {
            anchor,
            config,
            templates,
            side: &side,
            flow: &flow,
            at,
            base,
        };
        let (flipped, held) = match grow.sides(lists, accepted) {
            (Attempt::Accepted(f), Attempt::Accepted(h)) => (*f, *h),
            // Later flows wait too, so that which triplets a run makes does
            // not depend on which answers are in yet.
            (Attempt::Waiting, _) | (_, Attempt::Waiting) => break,
            _ => continue,
        };
        made[usize::from(base)] += 1;
        for s in [&side, &flipped.side, &held.side] {
            tally.count(s);
        }
        out.push(record(sc, Kind::Flow, side, flipped, held, config));
    }
    Ok(out)
}

/// The seed's flows by label (`false`, `true`), each pool shuffled, then
/// ordered so that operational wordings are popped first.
fn labelled_pools(c: &Checked, rng: &mut ChaCha8Rng) -> [Vec<At>; 2] {
    let sc = &c.scenario;
    let mut pools: [Vec<At>; 2] = [Vec::new(), Vec::new()];
    for at in flows(c) {
        if let Some(l) = flow_label(c, &flow_at(sc, at)) {
            pools[usize::from(l)].push(at);
        }
    }
    for pool in &mut pools {
        pool.shuffle(rng);
        // Popped from the back: operational wordings, in shuffled order, first.
        pool.sort_by_key(|&at| std::cmp::Reverse(reads_personal(sc, at)));
    }
    pools
}

/// How often each recipient and each statement (attribute and form) of a
/// seed was asked about so far, by label (`no`, `yes`), over every side.
#[derive(Default)]
struct Tally {
    recipients: std::collections::HashMap<String, [usize; 2]>,
    statements: std::collections::HashMap<(String, FormKind), [usize; 2]>,
    /// Sides by whether the recipient's line of the team list shows
    /// groups (`[no groups, groups]`), by label: a line that shows groups
    /// must not tell `yes` from `no`.
    lines: [[usize; 2]; 2],
    /// `no` sides whose form the task does not need, of all `no` sides.
    unneeded: [usize; 2],
}

/// The share of `no` sides that are `no` because the task does not need
/// the form, below which a flow that is not needed goes first.
const UNNEEDED_SHARE: f64 = 0.3;

/// Whether the recipient's line of a flow item's team list shows groups,
/// read from the item as a reader sees it (`None` when the item's
/// templates word the question or the team list otherwise).
fn line_shows_groups(item: &str) -> Option<bool> {
    let (_, rest) = item.split_once("worded exactly as above, to ")?;
    let (name, _) = rest.split_once(" (")?;
    let prefix = format!("- {name}, ");
    let line = item.lines().find(|l| l.starts_with(&prefix))?;
    Some(line.contains("(groups:"))
}

impl Tally {
    fn count(&mut self, side: &Side) {
        let (Some(flow), Label::Flow(l)) = (&side.flow, &side.label) else {
            return;
        };
        let l = usize::from(*l);
        if let Some(g) = line_shows_groups(&side.item) {
            self.lines[usize::from(g)][l] += 1;
        }
        if l == 0 {
            self.unneeded[1] += 1;
            self.unneeded[0] += usize::from(side.reasons.as_ref().is_some_and(|r| !r.needed));
        }
        self.recipients.entry(flow.person.clone()).or_default()[l] += 1;
        self.statements
            .entry((flow.attribute.clone(), flow.form))
            .or_default()[l] += 1;
    }

    /// Whether at least [`UNNEEDED_SHARE`] of the seed's `no` sides so far
    /// are `no` because the task does not need the form.
    fn enough_unneeded(&self) -> bool {
        let [unneeded, no] = self.unneeded;
        no > 0 && unneeded as f64 >= UNNEEDED_SHARE * no as f64
    }

    /// How much asking `at` under label `want` evens out its recipient,
    /// its statement and the look of its recipient's team line: one for
    /// each that was asked under the other label more often than under
    /// `want`; and, for `no` while few `no` sides are so, three for an
    /// operational form the task does not need (`needed`).
    fn evens(&self, sc: &Scenario, (a, form, p): At, want: usize, needed: bool) -> usize {
        let short = |n: Option<&[usize; 2]>| n.is_some_and(|n| n[1 - want] > n[want]);
        let groups = usize::from(!sc.people[p].groups.is_empty());
        let [unneeded, no] = self.unneeded;
        // A wording that reads as personal tells "not needed" by itself:
        // only operational ones are preferred so.
        let prefer_unneeded = want == 0
            && !needed
            && !reads_personal(sc, (a, form, p))
            && (unneeded as f64) < UNNEEDED_SHARE * no.max(1) as f64;
        usize::from(short(self.recipients.get(&sc.people[p].id)))
            + usize::from(short(
                self.statements.get(&(sc.attributes[a].id.clone(), form)),
            ))
            + 2 * usize::from(short(Some(&self.lines[groups])))
            // Norms grant to groups, so `yes` goes with groups unless
            // asked otherwise: `yes` to someone outside every group (a
            // manager, the subject) and `no` to a group member go first.
            + usize::from((groups == 1) == (want == 0))
            + 3 * usize::from(prefer_unneeded)
    }
}

/// Takes from a pool the flow that best evens out the seed's recipients and
/// statements over the labels (ties to the back, the pool's own order).
fn take_even(c: &Checked, pool: &mut Vec<At>, want: usize, tally: &Tally) -> Option<At> {
    let sc = &c.scenario;
    let best = (0..pool.len()).rev().max_by_key(|&i| {
        let (a, form, _) = pool[i];
        let needed = crate::driver::form_needed(c, a, form);
        (tally.evens(sc, pool[i], want, needed), i)
    })?;
    Some(pool.remove(best))
}

/// The next flow to grow: of the label with fewer triplets so far (`first`
/// when even), else of the other label while the two are even, so that a
/// seed never gives more than one triplet more of one label than the other.
/// Within a label, the flow whose recipient and statement were asked under
/// the other label goes first, so that neither predicts the label.
fn next_flow(
    c: &Checked,
    pools: &mut [Vec<At>; 2],
    made: [usize; 2],
    first: usize,
    tally: &Tally,
) -> Option<At> {
    let want = match made[1].cmp(&made[0]) {
        std::cmp::Ordering::Less => 1,
        std::cmp::Ordering::Greater => 0,
        std::cmp::Ordering::Equal => first,
    };
    match take_even(c, &mut pools[want], want, tally) {
        Some(at) => Some(at),
        None if made[1 - want] <= made[want] => take_even(c, &mut pools[1 - want], 1 - want, tally),
        None => None,
    }
}

/// One flow's anchor side and what growing its flip and hold needs.
struct Grow<'a> {
    anchor: &'a Anchor<'a>,
    config: &'a Config,
    templates: &'a Templates,
    side: &'a Side,
    flow: &'a Flow,
    at: At,
    base: bool,
}

impl Grow<'_> {
    /// The flip, then (unless it failed) the hold, from the candidates
    /// listed for each.
    fn sides(
        &self,
        [changes, holds]: [Vec<Candidate>; 2],
        accepted: &mut std::collections::HashSet<String>,
    ) -> (Attempt, Attempt) {
        let (flip_goal, hold_goal) = self.goals();
        let flipped = self.side_of(true, &flip_goal, changes, accepted);
        if matches!(flipped, Attempt::Failed) {
            return (flipped, Attempt::Failed);
        }
        let held = self.side_of(false, &hold_goal, holds, accepted);
        (flipped, held)
    }

    /// The goals a model generator is given for the flip and the hold.
    fn goals(&self) -> (String, String) {
        let (flow, base) = (self.flow, self.base);
        let form_name = self.at.1.name();
        let now = if base {
            "appropriate"
        } else {
            "not appropriate"
        };
        let flip_goal = format!(
            "the flow: sharing the {form_name} form of `{}` with `{}`, which is now {now} for the task; make a minimal edit after which it is {}, for instance of a norm (`set_norm`) or of the public setting, so that the task no longer needs it or the norms no longer let the recipient have it",
            flow.attribute,
            flow.person,
            if base { "not appropriate" } else { "appropriate" }
        );
        let hold_goal = format!(
            "the flow: sharing the {form_name} form of `{}` with `{}`, which is now {now} for the task; make a minimal edit elsewhere that keeps it {now} and that a reader of the item sees",
            flow.attribute, flow.person
        );
        (flip_goal, hold_goal)
    }

    /// Searches one side: a flip (`flip`) or a hold.
    fn side_of(
        &self,
        flip: bool,
        goal: &str,
        listed: Vec<Candidate>,
        accepted: &mut std::collections::HashSet<String>,
    ) -> Attempt {
        let (config, templates, anchor) = (self.config, self.templates, self.anchor);
        let mut source = proposer(config, templates, anchor, goal, &[], listed, true);
        accept(
            &Search {
                anchor,
                side: self.side,
                goal,
                want: Want::Flow {
                    flip,
                    base: self.base,
                    at: (self.at.0, self.at.2),
                    anchor: self.flow,
                },
            },
            source.as_mut(),
            accepted,
            config,
            templates,
        )
    }
}
