//! Whether one claim is a consequential trap: the question the re-aiming
//! of a trap asks of every scenario it tries, answered without the rest of
//! the proofs (relevance, necessity and the other details' traps).

use std::time::Instant;

use super::{Cx, Options, TimedOut, TrapEffect};
use crate::model::{FactId, FactStatus, Model};
use crate::sema::Scenario;

/// Whether the oracle is the one decision the appropriate facts allow and
/// every fact of claim `at` (its attribute, and its index among that
/// attribute's claims) leads a reader who honours it to one other decision
/// ([`TrapEffect::Leads`]): what [`prove`](super::prove) reports as
/// `unique` and as each of those facts' `trap`, by the same queries. False
/// when the proofs run out of time.
pub fn claim_leads(sc: &Scenario, model: &Model, at: (usize, usize), options: &Options) -> bool {
    leads(sc, model, at, options, false)
}

/// [`claim_leads`] of a scenario whose oracle is already proved to be the
/// one decision its appropriate facts allow: as when it differs from a
/// scenario proved `unique` only in its claims (their predicates, texts,
/// categories and holders), which no appropriate fact reads. Only the
/// claim's traps are asked.
pub fn claim_leads_unique(
    sc: &Scenario,
    model: &Model,
    at: (usize, usize),
    options: &Options,
) -> bool {
    leads(sc, model, at, options, true)
}

/// [`claim_leads`], the oracle's uniqueness taken as proved when `unique`.
fn leads(
    sc: &Scenario,
    model: &Model,
    at: (usize, usize),
    options: &Options,
    unique: bool,
) -> bool {
    let deadline = options.max_solve.map(|d| Instant::now() + d);
    let mut cx = Cx::new(sc, model, deadline);
    cx.claim_leads(at, unique).unwrap_or(false)
}

impl Cx<'_> {
    fn claim_leads(&mut self, at: (usize, usize), unique: bool) -> Result<bool, TimedOut> {
        let Some(oracle) = self.model.encode(&self.sc.oracle) else {
            return Ok(false);
        };
        let appropriate = self.model.facts_with(FactStatus::Appropriate);
        let oracle_lits = self.model.choice_lits(&oracle);
        if !unique {
            if self.solve(&appropriate, &oracle_lits)?.is_none() {
                return Ok(false);
            }
            let not_oracle = self.session.differ_from(&oracle);
            if self.solve(&appropriate, &[not_oracle])?.is_some() {
                return Ok(false);
            }
        }
        let claims: Vec<FactId> = self
            .model
            .facts_with(FactStatus::Claim)
            .into_iter()
            .filter(|&f| {
                let o = &self.model.facts[f].origin;
                (o.attribute, o.index) == at
            })
            .collect();
        let mut guards = Vec::new();
        for f in claims {
            let h = self.honour(&appropriate, &[f], &oracle_lits, &mut guards)?;
            if !matches!(h.effect, TrapEffect::Leads(_)) {
                return Ok(false);
            }
        }
        Ok(true)
    }
}
