//! Every text the phrasing can give: each phrasing of a fact with each
//! reason, state and spelling, and each irrelevant detail, for checks that
//! hold all of them at once (the grammar test, `tests/it/grammar.rs`).

use std::collections::BTreeMap;

use super::words::Reason;
use super::{fact_context, refs, state_phrases, FactTexts};
use crate::sema::{ArgValue, Predicate, Scenario};

/// The forms of a predicate's phrasings.
const FORMS: [&str; 3] = ["raw", "sanitized", "claim"];

impl FactTexts {
    /// Every reason of every category, with its phrases.
    pub fn reasons(&self) -> impl Iterator<Item = &Reason> {
        self.reasons.values().flatten()
    }

    /// Every text of `p` in every form it has (raw, sanitized, claim):
    /// each phrasing with each phrasing of its state (an evidence fact),
    /// with every reason and the first spellings of its slot and ticket,
    /// and with every other spelling and the first reason. `name` is the
    /// person a text names where the fact names no one (a claim). `None`
    /// stands for a phrasing that does not render.
    pub fn every_text(&self, sc: &Scenario, p: &Predicate, name: &str) -> Vec<Option<String>> {
        let (key, base) = fact_context(self, sc, p);
        let states = state_phrases(self, sc, p)
            .map_or(vec![None], |(_, s)| s.into_iter().map(Some).collect());
        let reasons: Vec<&Reason> = self.reasons().collect();
        let mut contexts: Vec<(&Reason, BTreeMap<&'static str, String>)> =
            reasons.iter().map(|r| (*r, base.clone())).collect();
        contexts.extend(spellings(sc, p, &base).into_iter().map(|c| (reasons[0], c)));
        let mut out = Vec::new();
        for form in FORMS {
            let template = format!("{key}.{form}");
            let n = self.counts.get(&template).copied().unwrap_or(0);
            for i in 0..n {
                for state in &states {
                    for (reason, base) in &contexts {
                        let mut ctx = base.clone();
                        reason.fill(&mut ctx);
                        ctx.entry("name").or_insert_with(|| name.into());
                        if let Some(s) = state {
                            ctx.insert("state", s.clone());
                        }
                        out.push(self.render_nth(&template, i, &ctx));
                    }
                }
            }
        }
        out
    }

    /// Every phrasing of every irrelevant detail, about a person named
    /// `name`; `None` stands for a phrasing that does not render.
    pub fn every_irrelevant(&self, name: &str) -> Vec<Option<String>> {
        let ctx = BTreeMap::from([("name", name.to_string())]);
        let mut out = Vec::new();
        for (cat, pool) in &self.irrelevant {
            for i in 0..pool.len() {
                out.push(self.render_nth(&format!("irrelevant.{}", cat.name()), i, &ctx));
            }
        }
        out
    }
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
                let Some(js) = sc.jira_setting() else {
                    continue;
                };
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
