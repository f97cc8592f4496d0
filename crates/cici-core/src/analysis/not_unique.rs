//! Why the oracle is not the one allowed decision: the other decision,
//! side by side with the oracle, which inappropriate facts the oracle would
//! need, and which facts that may not be used would tell the two apart.

use miette::LabeledSpan;

use super::diagnostic::CheckDiagnostic;
use super::{describe, Cx, TimedOut};
use crate::model::{FactId, FactStatus, Lit};
use crate::sema::AttributeId;

impl Cx<'_> {
    /// Explains a second allowed decision, `other`.
    pub(super) fn explain_not_unique(
        &mut self,
        appropriate: &[FactId],
        inappropriate: &[FactId],
        soft: &[FactId],
        not_oracle: Lit,
        other: &[usize],
    ) -> Result<(), TimedOut> {
        let sc = self.sc;
        let other_lits = self.model.choice_lits(other);
        let oracle = self
            .model
            .encode(&sc.oracle)
            .expect("the oracle was encoded before");
        let oracle_lits = self.model.choice_lits(&oracle);
        let other_decision = self.model.decode(other);
        self.inappropriate_need(appropriate, inappropriate, not_oracle, &oracle_lits)?;
        let help =
            self.tellers_help(appropriate, inappropriate, soft, &other_lits, &oracle_lits)?;
        let rows = crate::printer::decision_rows(sc, &other_decision);
        let oracle_rows = crate::printer::decision_rows(sc, &sc.oracle);
        let differing: Vec<(usize, String)> = rows
            .iter()
            .zip(&oracle_rows)
            .enumerate()
            .filter(|(_, (a, b))| a.1 != b.1)
            .map(|(i, (a, _))| (i, format!("{} -> {}", a.0, a.1)))
            .collect();
        // The label points at the first oracle entry the other decision
        // changes, not at the whole oracle block.
        let span = differing
            .first()
            .and_then(|(i, _)| sc.oracle_entries.get(*i))
            .copied()
            .unwrap_or(sc.oracle_span);
        let differing: Vec<String> = differing.into_iter().map(|(_, d)| d).collect();
        self.report.diagnostics.push(CheckDiagnostic::NotUnique {
            table: describe::side_by_side(sc, &sc.oracle, &other_decision),
            span: span.into(),
            other: differing.join(", "),
            help: Some(help),
        });
        Ok(())
    }

    /// Would the inappropriate facts pin the oracle down? Then those of
    /// them it needs are reported.
    fn inappropriate_need(
        &mut self,
        appropriate: &[FactId],
        inappropriate: &[FactId],
        not_oracle: Lit,
        oracle_lits: &[Lit],
    ) -> Result<(), TimedOut> {
        let sc = self.sc;
        let mut all = appropriate.to_vec();
        all.extend_from_slice(inappropriate);
        if inappropriate.is_empty()
            || self.solve(&all, &[not_oracle])?.is_some()
            || self.solve(&all, oracle_lits)?.is_none()
        {
            return Ok(());
        }
        let mut needed = Vec::new();
        for &i in inappropriate {
            let rest: Vec<FactId> = all.iter().copied().filter(|&f| f != i).collect();
            if self.solve(&rest, &[not_oracle])?.is_some() {
                needed.push(i);
            }
        }
        let attrs: Vec<AttributeId> = needed
            .iter()
            .map(|&f| self.model.facts[f].origin.attribute)
            .collect();
        let forms = needed
            .iter()
            .map(|&f| {
                let a = &sc.attributes[self.model.facts[f].origin.attribute];
                LabeledSpan::new_with_span(
                    Some("inappropriate, yet needed".into()),
                    a.fact_form().1.span,
                )
            })
            .collect();
        let names = attrs
            .iter()
            .map(|&a| format!("`{}`", sc.attributes[a].id))
            .collect::<Vec<_>>()
            .join(", ");
        self.report.diagnostics.push(CheckDiagnostic::InappropriateNeed {
            attributes: names,
            forms,
            help: Some(
                "give each of these attributes a sanitized form that states only the operational implication (it is appropriate by default); the raw form stays inappropriate".into(),
            ),
        });
        Ok(())
    }

    /// The help of a second decision: which facts that may not be used
    /// would have told the two apart, if any.
    fn tellers_help(
        &mut self,
        appropriate: &[FactId],
        inappropriate: &[FactId],
        soft: &[FactId],
        other_lits: &[Lit],
        oracle_lits: &[Lit],
    ) -> Result<String, TimedOut> {
        let mut tellers = Vec::new();
        for &g in soft.iter().chain(inappropriate) {
            let mut with = appropriate.to_vec();
            with.push(g);
            if self.solve(&with, other_lits)?.is_none() && self.solve(&with, oracle_lits)?.is_some()
            {
                tellers.push(g);
            }
        }
        if tellers.is_empty() {
            return Ok("no attribute tells these decisions apart: add an appropriate fact that rules out the other decision and keeps the oracle".to_string());
        }
        let kinds: Vec<String> = tellers
            .iter()
            .map(|&g| {
                let kind = if self.model.facts[g].status == FactStatus::Soft {
                    "soft"
                } else {
                    "inappropriate"
                };
                format!("`{}` ({kind})", self.attr_name(g))
            })
            .collect();
        Ok(format!(
            "{} would tell them apart but may not be used; add an appropriate fact that rules out the other decision",
            kinds.join(", ")
        ))
    }
}
