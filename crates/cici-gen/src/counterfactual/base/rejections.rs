//! Why sides found no variant: rejection reasons counted per seed, for the
//! run's report on stderr and the dataset card.

use std::collections::BTreeMap;
use std::sync::{Arc, Mutex};

use super::records::Rejection;

/// Rejection reasons of failed sides, counted per seed and kind of reason.
#[derive(Clone, Debug, Default)]
pub struct Rejections(Arc<Mutex<BTreeMap<String, BTreeMap<String, usize>>>>);

impl Rejections {
    /// Counts the reasons of one side that failed.
    pub(crate) fn add(&self, scenario: &str, rejected: &[Rejection]) {
        let mut all = self.0.lock().unwrap_or_else(|e| e.into_inner());
        let per = all.entry(scenario.to_string()).or_default();
        for r in rejected {
            *per.entry(r.reason.kind()).or_insert(0) += 1;
        }
    }

    /// The reasons of one seed, most frequent first.
    pub fn of(&self, scenario: &str) -> Vec<(String, usize)> {
        let all = self.0.lock().unwrap_or_else(|e| e.into_inner());
        let mut v: Vec<(String, usize)> = all
            .get(scenario)
            .map(|m| m.iter().map(|(k, n)| (k.clone(), *n)).collect())
            .unwrap_or_default();
        v.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
        v
    }

    /// The seeds with a failed side, in order.
    pub fn seeds(&self) -> Vec<String> {
        let all = self.0.lock().unwrap_or_else(|e| e.into_inner());
        all.keys().cloned().collect()
    }

    /// The reasons over every seed, most frequent first.
    pub fn all(&self) -> Vec<(String, usize)> {
        let all = self.0.lock().unwrap_or_else(|e| e.into_inner());
        let mut sum: BTreeMap<String, usize> = BTreeMap::new();
        for per in all.values() {
            for (k, n) in per {
                *sum.entry(k.clone()).or_insert(0) += n;
            }
        }
        let mut v: Vec<(String, usize)> = sum.into_iter().collect();
        v.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
        v
    }
}
