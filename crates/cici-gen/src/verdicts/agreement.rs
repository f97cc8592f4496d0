//! What a ledger adds up to: counts, acceptance and, for each pair of
//! reviewers who judged the same rows, Cohen's κ.

use std::collections::{BTreeMap, BTreeSet};

use super::ledger::{Ledger, Verdict};

/// Two reviewers' agreement over the rows both judged.
#[derive(Clone, Debug, PartialEq)]
pub struct Pair {
    pub a: String,
    pub b: String,
    /// Rows both judged.
    pub rows: usize,
    /// Rows on which they gave the same verdict.
    pub agree: usize,
    /// Cohen's κ; `None` when chance agreement is total (both gave one
    /// verdict only), where κ is undefined.
    pub kappa: Option<f64>,
}

/// The figures of a ledger.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Summary {
    /// Current verdicts (one per row and reviewer).
    pub reviews: usize,
    pub accepted: usize,
    pub rejected: usize,
    /// Verdicts on rows that changed since, applied to nothing.
    pub stale: usize,
    /// Rows with at least one current verdict.
    pub rows: usize,
    pub reviewers: Vec<String>,
    pub pairs: Vec<Pair>,
}

/// Cohen's κ of paired binary verdicts.
pub fn cohen_kappa(pairs: &[(Verdict, Verdict)]) -> Option<f64> {
    if pairs.is_empty() {
        return None;
    }
    let n = pairs.len() as f64;
    let agree = pairs.iter().filter(|(a, b)| a == b).count() as f64 / n;
    let acc = |pick: fn(&(Verdict, Verdict)) -> Verdict| {
        pairs.iter().filter(|p| pick(p) == Verdict::Accept).count() as f64 / n
    };
    let (pa, pb) = (acc(|p| p.0), acc(|p| p.1));
    let chance = pa * pb + (1.0 - pa) * (1.0 - pb);
    if (1.0 - chance).abs() < 1e-12 {
        return None;
    }
    Some((agree - chance) / (1.0 - chance))
}

/// Adds up `ledger`.
pub fn summary(ledger: &Ledger) -> Summary {
    let mut by_reviewer: BTreeMap<&str, BTreeMap<&str, Verdict>> = BTreeMap::new();
    for r in &ledger.current {
        by_reviewer
            .entry(&r.reviewer)
            .or_default()
            .insert(&r.id, r.verdict);
    }
    let rows: BTreeSet<&str> = ledger.current.iter().map(|r| r.id.as_str()).collect();
    let names: Vec<&str> = by_reviewer.keys().copied().collect();
    let mut pairs = Vec::new();
    for (i, a) in names.iter().enumerate() {
        for b in &names[i + 1..] {
            let (va, vb) = (&by_reviewer[a], &by_reviewer[b]);
            let both: Vec<(Verdict, Verdict)> = va
                .iter()
                .filter_map(|(id, v)| vb.get(id).map(|w| (*v, *w)))
                .collect();
            if both.is_empty() {
                continue;
            }
            pairs.push(Pair {
                a: a.to_string(),
                b: b.to_string(),
                rows: both.len(),
                agree: both.iter().filter(|(x, y)| x == y).count(),
                kappa: cohen_kappa(&both),
            });
        }
    }
    let count = |v| ledger.current.iter().filter(|r| r.verdict == v).count();
    Summary {
        reviews: ledger.current.len(),
        accepted: count(Verdict::Accept),
        rejected: count(Verdict::Reject),
        stale: ledger.stale.len(),
        rows: rows.len(),
        reviewers: names.iter().map(|s| s.to_string()).collect(),
        pairs,
    }
}

/// The dataset card's section on the review, or nothing without reviews.
pub fn card_section(s: &Summary) -> String {
    if s.reviews == 0 && s.stale == 0 {
        return String::new();
    }
    let pct = |n: usize| {
        if s.reviews == 0 {
            0.0
        } else {
            100.0 * n as f64 / s.reviews as f64
        }
    };
    let mut out = format!(
        "## Human review\n\n{} verdicts on {} rows by {} reviewer(s) in `review.jsonl`: \
         {} accepted ({:.1}%), {} rejected. Rejected rows are left out of the data files. \
         {} verdicts on rows that changed since are stale and apply to nothing.\n",
        s.reviews,
        s.rows,
        s.reviewers.len(),
        s.accepted,
        pct(s.accepted),
        s.rejected,
        s.stale,
    );
    if !s.pairs.is_empty() {
        out.push_str("\n| reviewers | rows both judged | agree | Cohen's κ |\n|---|---|---|---|\n");
        for p in &s.pairs {
            let kappa = p
                .kappa
                .map_or_else(|| "undefined".to_string(), |k| format!("{k:.2}"));
            out.push_str(&format!(
                "| {} and {} | {} | {} | {kappa} |\n",
                p.a, p.b, p.rows, p.agree
            ));
        }
    }
    out.push('\n');
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use Verdict::{Accept as A, Reject as R};

    #[test]
    fn kappa_matches_the_textbook_example() {
        // 50 items: both accept 20, both reject 15, a accepts b rejects 5,
        // a rejects b accepts 10. po = 0.7, pe = 0.5*0.6+0.5*0.4 = 0.5.
        let mut pairs = vec![(A, A); 20];
        pairs.extend(vec![(R, R); 15]);
        pairs.extend(vec![(A, R); 5]);
        pairs.extend(vec![(R, A); 10]);
        let k = cohen_kappa(&pairs).unwrap();
        assert!((k - 0.4).abs() < 1e-9, "{k}");
    }

    #[test]
    fn kappa_is_undefined_when_chance_agreement_is_total() {
        assert_eq!(cohen_kappa(&[(A, A), (A, A)]), None);
        assert_eq!(cohen_kappa(&[]), None);
        assert_eq!(cohen_kappa(&[(A, A), (R, R)]), Some(1.0));
    }
}
