//! What a reader who honours a soft, inappropriate or claimed fact reaches.
//!
//! Facts are restrictions, so adding one to the appropriate facts F (which
//! allow only the oracle) keeps the oracle or leaves nothing. A reader who
//! takes a detail as binding instead keeps as much of F as it can: for a
//! set T of such facts,
//!
//! - P ∪ F ∪ T allows the oracle, or honouring T as below reaches the
//!   oracle alone: [`TrapEffect::Keeps`];
//! - P ∪ F ∪ T allows another decision (F alone is not unique):
//!   [`TrapEffect::Changes`];
//! - P ∪ T allows nothing: [`TrapEffect::NoDecision`];
//! - otherwise, with k the fewest facts of F that must be given up for
//!   P ∪ T ∪ (the rest of F) to allow a decision, and D every decision so
//!   allowed with k given up: one decision is [`TrapEffect::Leads`] (a
//!   consequential trap), more is [`TrapEffect::Unclear`] with two of
//!   them, and k beyond [`MAX_DROPS`] is `Unclear` with none.
//!
//! A fact of T may rule the oracle out, or only contradict a fact of F (a
//! finding told with another value): then giving that fact up can bring
//! the reader back to the oracle, and D = {oracle} keeps it.

use super::{Cx, TimedOut, TrapEffect};
use crate::model::{FactId, Lit};
use crate::solver::Outcome;

/// The most appropriate facts a reader gives up to honour a detail; a
/// detail that needs more leads nowhere definite.
pub const MAX_DROPS: u32 = 3;

/// What honouring a set of facts does, and how many appropriate facts it
/// takes to give up (for [`TrapEffect::Leads`] and a bounded `Unclear`).
pub(super) struct Honoured {
    pub effect: TrapEffect,
    pub drops: Option<u32>,
}

impl Cx<'_> {
    /// What a reader who takes every fact of `honour` as binding reaches.
    pub(super) fn honour(
        &mut self,
        appropriate: &[FactId],
        honour: &[FactId],
        oracle_lits: &[Lit],
        guards: &mut Vec<Lit>,
    ) -> Result<Honoured, TimedOut> {
        let plain = |effect| Honoured {
            effect,
            drops: None,
        };
        let mut with = appropriate.to_vec();
        with.extend_from_slice(honour);
        if self.solve(&with, oracle_lits)?.is_some() {
            return Ok(plain(TrapEffect::Keeps));
        }
        if let Some(c) = self.solve(&with, &[])? {
            return Ok(plain(TrapEffect::Changes(self.model.decode(&c))));
        }
        if self.solve(honour, &[])?.is_none() {
            return Ok(plain(TrapEffect::NoDecision));
        }
        let on = self.mask(honour);
        let free = self.mask(appropriate);
        for k in 1..=MAX_DROPS {
            let g = self.drop_guard(appropriate, k, guards);
            let Some(first) = self.solve_free(&on, &free, &[g])? else {
                continue;
            };
            let other = self.session.differ_from(&first);
            let d = self.model.decode(&first);
            let effect = match self.solve_free(&on, &free, &[g, other])? {
                // A detail that contradicts an appropriate fact without
                // ruling the oracle out (a check `pending` where the record
                // says `passed`, and only `failed` counts) brings the
                // reader back to the oracle: it misleads no one.
                None if d == self.sc.oracle => return Ok(plain(TrapEffect::Keeps)),
                None => TrapEffect::Leads(d),
                Some(second) => TrapEffect::Unclear(vec![d, self.model.decode(&second)]),
            };
            return Ok(Honoured {
                effect,
                drops: Some(k),
            });
        }
        Ok(plain(TrapEffect::Unclear(Vec::new())))
    }

    /// The guard of "at most `k` of the appropriate facts are off", made
    /// once per `k` and kept in `guards` (index `k - 1`).
    fn drop_guard(&mut self, appropriate: &[FactId], k: u32, guards: &mut Vec<Lit>) -> Lit {
        while guards.len() < k as usize {
            let next = guards.len() as u32 + 1;
            guards.push(self.session.at_most_off(appropriate, next));
        }
        guards[k as usize - 1]
    }

    fn solve_free(
        &mut self,
        on: &[bool],
        free: &[bool],
        extra: &[Lit],
    ) -> Result<Option<Vec<usize>>, TimedOut> {
        match self.session.solve_free(on, free, extra) {
            Outcome::Sat(c) => Ok(Some(c)),
            Outcome::Unsat => Ok(None),
            Outcome::Timeout => Err(TimedOut),
        }
    }
}
