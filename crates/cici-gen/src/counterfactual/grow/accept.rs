//! The loop of one side: candidates are evaluated, labelled, rendered as
//! items and judged until one is accepted or the rounds run out.

use crate::counterfactual::base::config::Config;
use crate::counterfactual::base::records::{
    Evaluated, Label, Minimality, Rejection, Side, Variant, Verdict,
};
use crate::counterfactual::base::vocab::{Candidate, Flow, Reason};
use crate::counterfactual::check::distance::char_distance;
use crate::counterfactual::check::evaluate::{evaluate_text, oracle_of};
use crate::counterfactual::check::item;
use crate::counterfactual::check::labels::{
    decision_label, decision_label_of, flow_label, flow_reasons, flow_stated, traps,
};
use crate::counterfactual::critic::rules::{self as critic, Judged};
use crate::counterfactual::generate::listed::Listed;
use crate::counterfactual::generate::proposal::{Proposal, Proposer};
use crate::counterfactual::generate::{idle, reaim};
use crate::counterfactual::{critic::llm as model_critic, generate::llm};
use crate::diff::unified;
use crate::driver::Checked;
use crate::render::{Cue, Templates};
use crate::sema::{Decision, Scenario};
use std::borrow::Cow;
/// The loop's maps are keyed by whole texts, hashed on every ask: with
/// foldhash, not the default SipHash.
type HashMap<K, V> = std::collections::HashMap<K, V, foldhash::fast::RandomState>;
use std::rc::Rc;
use std::sync::Arc;

/// The anchor of a seed: compiled from its canonical text.
pub(crate) struct Anchor<'a> {
    pub checked: &'a Checked,
    /// The anchor compiled: what a candidate with no seed edit evaluates to.
    pub ev: &'a Evaluated,
    pub text: String,
    /// The anchor's scenario, shared by the candidates made from it.
    pub shared: Arc<Scenario>,
    /// The variants of this seed compiled so far.
    pub compiled: &'a Compiled,
}

/// The variants of one seed compiled so far, by their text: the searches
/// of a seed meet the same variant again (each cue condition of a decision
/// triplet starts from the same random stream, a flip's second pass tries
/// its list again, flows share the setting edits), and compiling is a pure
/// function of the text and the options, which stay the same for the seed.
///
/// It also keeps the oracle each candidate scenario was found to have, by
/// the scenario's shared allocation (kept alive here, so that no other
/// scenario takes its address): the conditions of a decision triplet try
/// the same drawn candidates, and a flow's flip and hold lists share
/// theirs; and the label found for a flow of one.
#[derive(Default)]
pub(crate) struct Compiled {
    seen: std::cell::RefCell<HashMap<String, Result<Rc<Evaluated>, Reason>>>,
    oracles: std::cell::RefCell<HashMap<usize, Oracle>>,
    flows: std::cell::RefCell<HashMap<(usize, Flow), Option<bool>>>,
    /// The characters between the seed's text and a variant's, by the
    /// variant's text: the cue conditions of a decision triplet accept the
    /// same variants, each with its own item.
    distances: std::cell::RefCell<HashMap<String, usize>>,
}

/// A candidate scenario and the oracle its facts give it, or why none.
type Oracle = (Arc<Scenario>, Result<Decision, Reason>);

/// The most variants of one seed kept compiled: a bound on the memory a
/// seed with very many candidates may hold.
const MAX_COMPILED: usize = 2048;

impl Compiled {
    /// The scenario compiled from its printed text, or why it does not
    /// check.
    fn get(&self, sc: &Scenario, config: &Config) -> Result<Rc<Evaluated>, Reason> {
        let text = crate::printer::print(sc);
        if let Some(found) = self.seen.borrow().get(&text) {
            return found.clone();
        }
        let out = evaluate_text(&sc.id, text.clone(), &config.options).map(Rc::new);
        let mut seen = self.seen.borrow_mut();
        if seen.len() < MAX_COMPILED {
            seen.insert(text, out.clone());
        }
        out
    }

    /// The one decision the candidate's facts allow (see `oracle_of`),
    /// solved once per scenario.
    pub(crate) fn oracle(
        &self,
        candidate: &Candidate,
        config: &Config,
    ) -> Result<Decision, Reason> {
        let key = Arc::as_ptr(&candidate.scenario) as usize;
        if let Some((_, found)) = self.oracles.borrow().get(&key) {
            return found.clone();
        }
        let out = oracle_of(&candidate.scenario, &config.options);
        let mut oracles = self.oracles.borrow_mut();
        if oracles.len() < MAX_COMPILED {
            oracles.insert(key, (Arc::clone(&candidate.scenario), out.clone()));
        }
        out
    }

    /// The candidate's scenario with its oracle set (see `with_oracle`),
    /// solved once per scenario; the candidate's own when it states that
    /// oracle already.
    pub(crate) fn with_oracle<'c>(
        &self,
        candidate: &'c Candidate,
        config: &Config,
    ) -> Result<Cow<'c, Scenario>, Reason> {
        let oracle = self.oracle(candidate, config)?;
        if oracle == candidate.scenario.oracle {
            return Ok(Cow::Borrowed(&candidate.scenario));
        }
        let mut sc = Scenario::clone(&candidate.scenario);
        sc.oracle = oracle;
        Ok(Cow::Owned(sc))
    }

    /// [`char_distance`] from the seed's text `anchor` to `text`.
    fn seed_chars(&self, anchor: &str, text: &str) -> usize {
        if let Some(&d) = self.distances.borrow().get(text) {
            return d;
        }
        let d = char_distance(anchor, text);
        let mut distances = self.distances.borrow_mut();
        if distances.len() < MAX_COMPILED {
            distances.insert(text.to_string(), d);
        }
        d
    }

    /// A flow candidate's label from the proofs (see
    /// `Want::early_flow_label`), found once per scenario and flow.
    fn early_flow_label(
        &self,
        want: &Want,
        sc: &Scenario,
        candidate: &Candidate,
        config: &Config,
    ) -> Option<bool> {
        let flow = want.flow_in(sc, candidate)?;
        let key = (Arc::as_ptr(&candidate.scenario) as usize, flow);
        if let Some(found) = self.flows.borrow().get(&key) {
            return *found;
        }
        let label = want.early_flow_label(sc, candidate, &config.options);
        // Kept only while the scenario is, so that its address stays its own.
        if self.oracles.borrow().contains_key(&key.0) {
            self.flows.borrow_mut().insert(key, label);
        }
        label
    }
}

/// Which label a side wants.
pub(crate) enum Want<'a> {
    /// The decision differs from `base` (`flip`) or equals it; a flip
    /// also avoids the decisions in `avoid`.
    Decision {
        flip: bool,
        base: &'a Label,
        avoid: &'a [&'a Label],
        /// The cue condition of the items.
        cue: Cue,
    },
    /// A flow label that differs from `base` (`flip`) or equals it. The
    /// flow is the candidate's own, or else the anchor's followed by
    /// position (attribute and person index) through renames.
    Flow {
        flip: bool,
        base: bool,
        at: (usize, usize),
        anchor: &'a Flow,
    },
}

impl Want<'_> {
    /// The flow a compiled candidate asks about.
    fn flow(&self, c: &Checked, candidate: &Candidate) -> Option<Flow> {
        self.flow_in(&c.scenario, candidate)
    }

    /// The flow a candidate whose scenario is `sc` asks about.
    fn flow_in(&self, sc: &Scenario, candidate: &Candidate) -> Option<Flow> {
        let Want::Flow { at, anchor, .. } = self else {
            return None;
        };
        if let Some(f) = &candidate.flow {
            return Some(f.clone());
        }
        Some(Flow {
            attribute: sc.attributes.get(at.0)?.id.clone(),
            form: anchor.form,
            person: sc.people.get(at.1)?.id.clone(),
        })
    }

    /// A flow candidate's label from its scenario and the proofs alone,
    /// before its text is compiled and the text lints run: the form is
    /// appropriate, carries the attribute's facts, is evidence for the task
    /// and the recipient may receive it (as [`flow_label`] reads them from
    /// the compiled report). `None` when the flow is not one the item
    /// states or the proofs ran out of time: the whole compile says then
    /// why the candidate is turned down.
    fn early_flow_label(
        &self,
        sc: &Scenario,
        candidate: &Candidate,
        options: &crate::analysis::Options,
    ) -> Option<bool> {
        let flow = self.flow_in(sc, candidate)?;
        if !flow_stated(sc, &flow) {
            return None;
        }
        let (a, p) = (sc.attribute(&flow.attribute)?, sc.person(&flow.person)?);
        let attr = &sc.attributes[a];
        let form = attr.form(flow.form)?;
        if !(form.appropriate && attr.fact_form().0 == flow.form && form.visible.contains(&p)) {
            return Some(false);
        }
        let model = crate::model::lower(sc);
        crate::analysis::form_needed_proved(sc, &model, a, flow.form, options)
    }

    fn label(&self, c: &Checked, flow: Option<&Flow>) -> Option<Label> {
        match self {
            Want::Decision {
                flip, base, avoid, ..
            } => Some(decision_label(c)).filter(|l| (l != *base) == *flip && !avoid.contains(&l)),
            Want::Flow { flip, base, .. } => flow_label(c, flow?)
                .filter(|&l| (l != *base) == *flip)
                .map(Label::Flow),
        }
    }
}

/// How one side of a triplet came out.
pub(crate) enum Attempt {
    Accepted(Box<Variant>),
    /// No candidate made it within the rounds.
    Failed,
    /// A model's answer waits in a batch (or the model stopped the run).
    Waiting,
}

/// One side's search.
pub(crate) struct Search<'a> {
    pub anchor: &'a Anchor<'a>,
    /// The anchor's side, item included.
    pub side: &'a Side,
    pub goal: &'a str,
    pub want: Want<'a>,
}

/// Renders a variant's item, or why it cannot be.
fn item_of(
    c: &Checked,
    want: &Want,
    flow: Option<&Flow>,
    templates: &Templates,
) -> Result<String, Reason> {
    let rendered = match (want, flow) {
        (Want::Decision { cue, .. }, _) => item::decision_item(c, templates, *cue),
        (_, Some(f)) => item::flow_item(c, f, templates),
        (_, None) => return Err(Reason::NoFlow),
    };
    rendered.map_err(|e| Reason::ItemDoesNotRender(e.to_string()))
}

/// Tries candidates until one is accepted: it compiles, has the wanted
/// label relation to the anchor, reads differently, and passes the critic
/// (and the model critic, when one is configured).
pub(crate) fn accept(
    s: &Search,
    proposer: &mut dyn Proposer,
    accepted: &mut std::collections::HashSet<String>,
    config: &Config,
    templates: &Templates,
) -> Attempt {
    let anchor = s.anchor;
    let mut rejected = Vec::new();
    for round in 0..config.rounds {
        let candidate = match proposer.next(&rejected) {
            Proposal::Candidate(c) => *c,
            Proposal::Rejected(r) => {
                rejected.push(r);
                continue;
            }
            Proposal::Done => {
                config
                    .rejections
                    .add(&anchor.checked.scenario.id, &rejected);
                return Attempt::Failed;
            }
            Proposal::Wait | Proposal::Stop => return Attempt::Waiting,
        };
        let tried = Tried {
            s,
            config,
            templates,
            round,
        };
        if let Some(attempt) = tried.candidate(candidate, accepted, &mut rejected) {
            return attempt;
        }
    }
    config
        .rejections
        .add(&anchor.checked.scenario.id, &rejected);
    Attempt::Failed
}

/// One round of a side's search.
struct Tried<'a, 's> {
    s: &'a Search<'s>,
    config: &'a Config,
    templates: &'a Templates,
    round: usize,
}

impl Tried<'_, '_> {
    /// The attempt's end when the candidate is accepted (or the model
    /// critic must wait); `None` when it is rejected, its reason pushed.
    fn candidate(
        &self,
        candidate: Candidate,
        accepted: &mut std::collections::HashSet<String>,
        rejected: &mut Vec<Rejection>,
    ) -> Option<Attempt> {
        let s = self.s;
        let (candidate, fresh) = match self.compile(&candidate) {
            Ok(fresh) => self.reaimed(candidate, fresh),
            Err(reason) => (candidate, Err(reason)),
        };
        let reject = |reason: Reason, rejected: &mut Vec<Rejection>| {
            rejected.push(Rejection {
                edits: candidate.edits.clone(),
                reason,
            });
            None
        };
        let fresh = match fresh {
            Ok(fresh) => fresh,
            Err(reason) => return reject(reason, rejected),
        };
        let ev: &Evaluated = fresh.as_deref().unwrap_or(s.anchor.ev);
        let flow = s.want.flow(&ev.checked, &candidate);
        if flow
            .as_ref()
            .is_some_and(|f| !flow_stated(&ev.checked.scenario, f))
        {
            return reject(Reason::UnstatedException, rejected);
        }
        let Some(label) = s.want.label(&ev.checked, flow.as_ref()) else {
            return reject(Reason::WrongLabel, rejected);
        };
        let item = match item_of(&ev.checked, &s.want, flow.as_ref(), self.templates) {
            Ok(item) => item,
            Err(reason) => return reject(reason, rejected),
        };
        let changes_flow = flow.is_some() && candidate.flow.is_some() && flow != s.side.flow;
        let verdicts = match self.verdicts(ev, &candidate, &item, changes_flow, accepted) {
            Some(v) => v,
            // Waiting for a batch, or stopped: nothing more this run.
            None => return Some(Attempt::Waiting),
        };
        if !verdicts.iter().all(|v| v.ok) {
            let failed = verdicts
                .iter()
                .filter(|v| !v.ok)
                .map(|v| (v.check, v.reason.clone()))
                .collect();
            return reject(Reason::Critic(failed), rejected);
        }
        accepted.insert(critic::accepted_key(&ev.text, &item));
        let found = Found {
            ev,
            label,
            flow,
            item,
            verdicts,
        };
        Some(Attempt::Accepted(Box::new(self.variant(
            found,
            candidate,
            std::mem::take(rejected),
        ))))
    }

    /// A decision variant repaired where its edit broke what the anchor
    /// had: the details it left idle dropped (see `idle`), then a trap
    /// that leads nowhere re-aimed (see `reaim`), each compiled again; any
    /// other compiled candidate as it is.
    fn reaimed(
        &self,
        mut candidate: Candidate,
        mut fresh: Option<Rc<Evaluated>>,
    ) -> (Candidate, Result<Option<Rc<Evaluated>>, Reason>) {
        if !matches!(self.s.want, Want::Decision { .. }) {
            return (candidate, Ok(fresh));
        }
        let anchor = self.s.anchor.ev;
        let reaim = |c: &Candidate, ev: &Evaluated| {
            reaim::needed(&anchor.warnings, ev).then(|| reaim::reaimed(c, ev))?
        };
        let idle = |c: &Candidate, ev: &Evaluated| idle::dropped(anchor, c, ev);
        let repairs: [&Repair; 2] = [&idle, &reaim];
        for repair in repairs {
            let Some(again) = fresh.as_deref().and_then(|ev| repair(&candidate, ev)) else {
                continue;
            };
            match self.compile(&again) {
                Ok(f) => (candidate, fresh) = (again, f),
                Err(reason) => return (again, Err(reason)),
            }
        }
        (candidate, Ok(fresh))
    }

    /// The candidate compiled, or why it is turned down; `None` when it
    /// only asks about another flow of the anchor's seed, compiled already.
    fn compile(&self, candidate: &Candidate) -> Result<Option<Rc<Evaluated>>, Reason> {
        if candidate.edits.is_empty() && candidate.flow.is_some() {
            return Ok(None);
        }
        let compiled = self.s.anchor.compiled;
        let sc = compiled.with_oracle(candidate, self.config)?;
        // A decision label is known once the oracle is: a candidate with
        // the wrong one is turned down before the whole compiler runs.
        if let Want::Decision {
            flip, base, avoid, ..
        } = &self.s.want
        {
            let label = decision_label_of(&sc);
            if (label == **base) == *flip || avoid.contains(&&label) {
                return Err(Reason::WrongLabel);
            }
        }
        // So is a flow label, from the proofs alone: a candidate with the
        // wrong one is turned down before its text lints run.
        if let Want::Flow { flip, base, .. } = &self.s.want {
            let early = compiled.early_flow_label(&self.s.want, &sc, candidate, self.config);
            if early.is_some_and(|l| (l != *base) != *flip) {
                return Err(Reason::WrongLabel);
            }
        }
        self.s.anchor.compiled.get(&sc, self.config).map(Some)
    }

    /// The critic's verdicts, and the model critic's once those pass;
    /// `None` while the model critic waits.
    fn verdicts(
        &self,
        ev: &Evaluated,
        candidate: &Candidate,
        item: &str,
        changes_flow: bool,
        accepted: &std::collections::HashSet<String>,
    ) -> Option<Vec<Verdict>> {
        let s = self.s;
        let mut verdicts = critic::judge(
            &Judged {
                anchor: s.anchor.checked,
                anchor_item: &s.side.item,
                anchor_warnings: &s.anchor.ev.warnings,
                variant: ev,
                item,
                edits: &candidate.edits,
                changes_flow,
                may_add: match s.want {
                    Want::Flow { .. } => &["idle_fact"],
                    Want::Decision { .. } => &[],
                },
                traps: matches!(s.want, Want::Decision { .. }),
            },
            accepted,
        );
        if verdicts.iter().all(|v| v.ok) {
            if let Some(model) = &self.config.critic_llm {
                verdicts.extend(model_critic::critique(
                    model,
                    self.templates,
                    s.anchor.checked,
                    &ev.checked,
                    candidate,
                    s.goal,
                )?);
            }
        }
        Some(verdicts)
    }

    /// The accepted side, with its distances and diffs from the anchor.
    fn variant(&self, f: Found, candidate: Candidate, rejected: Vec<Rejection>) -> Variant {
        let (s, ev) = (self.s, f.ev);
        let anchor = s.anchor;
        let text = ev.text.clone();
        let answer = match &f.label {
            Label::Flow(l) => item::flow_answer(*l),
            Label::Decision(_) => item::answer(&ev.checked.scenario, &ev.checked.scenario.oracle),
        };
        let change = item::change(&candidate.edits, s.side.flow.as_ref(), f.flow.as_ref());
        Variant {
            minimality: Minimality {
                edits: candidate.edits.len(),
                seed_chars: anchor.compiled.seed_chars(&anchor.text, &text),
                item_chars: char_distance(&s.side.item, &f.item),
            },
            seed_diff: unified(
                &format!("{}.cici", anchor.checked.scenario.id),
                &anchor.text,
                &text,
                true,
            ),
            item_diff: unified("item.md", &s.side.item, &f.item, true),
            change,
            side: Side {
                seed: text,
                label: f.label,
                answer,
                reasons: f.flow.as_ref().and_then(|fl| flow_reasons(&ev.checked, fl)),
                condition: s.side.condition.clone(),
                traps: match s.want {
                    Want::Decision { .. } => traps(&ev.checked),
                    Want::Flow { .. } => Vec::new(),
                },
                flow: f.flow,
                item: f.item,
            },
            edits: candidate.edits,
            critic: f.verdicts,
            rounds: self.round + 1,
            rejected,
        }
    }
}

/// A repair of a compiled decision candidate: the candidate mended, or
/// None when it needs none.
type Repair<'a> = dyn Fn(&Candidate, &Evaluated) -> Option<Candidate> + 'a;

/// What an accepted candidate came to.
struct Found<'e> {
    ev: &'e Evaluated,
    label: Label,
    flow: Option<Flow>,
    item: String,
    verdicts: Vec<Verdict>,
}

/// The model's proposer for one side, or the listed candidates.
pub(crate) fn proposer<'a>(
    config: &'a Config,
    templates: &'a Templates,
    anchor: &'a Anchor,
    goal: &str,
    taken: &[Variant],
    listed: Vec<Candidate>,
    flows: bool,
) -> Box<dyn Proposer + 'a> {
    match &config.generator_llm {
        Some(model) => Box::new(llm::LlmProposer {
            llm: model,
            templates,
            anchor: anchor.checked,
            seed_text: &anchor.text,
            goal: goal.to_string(),
            taken: taken
                .iter()
                .map(|v| serde_json::to_string(&v.edits).expect("edits serialize"))
                .collect(),
        }),
        None if flows => Box::new(Listed::for_flows(listed)),
        None => Box::new(Listed::new(listed)),
    }
}
