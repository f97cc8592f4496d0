//! Text variety: distinct-n, the share of a corpus's word n-grams that are
//! distinct. Words are the privacy checks' (`analysis::lints::privacy_words`:
//! Unicode words, lower-cased); n-grams do not cross from one text to the
//! next.

use std::collections::HashSet;

use crate::analysis::lints::privacy_words;

/// Distinct n-grams over all n-grams of the texts, for each n of `ns`;
/// 0 where the texts hold no n-gram of that length.
pub fn distinct_n<'a>(texts: impl IntoIterator<Item = &'a str>, ns: &[usize]) -> Vec<f64> {
    let mut ids: foldhash::HashMap<String, u32> = Default::default();
    let docs: Vec<Vec<u32>> = texts
        .into_iter()
        .map(|t| {
            privacy_words(t)
                .into_iter()
                .map(|w| {
                    let next = ids.len() as u32;
                    *ids.entry(w).or_insert(next)
                })
                .collect()
        })
        .collect();
    ns.iter()
        .map(|&n| {
            let mut seen: HashSet<&[u32], foldhash::fast::RandomState> = HashSet::default();
            let mut total = 0usize;
            for d in &docs {
                if n == 0 || d.len() < n {
                    continue;
                }
                for g in d.windows(n) {
                    total += 1;
                    seen.insert(g);
                }
            }
            if total == 0 {
                0.0
            } else {
                seen.len() as f64 / total as f64
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn distinct_n_counts_ngrams_within_each_text() {
        // "a b a b" has bigrams ab, ba, ab (2 distinct of 3); "A b" adds ab.
        let d = distinct_n(["a b a b", "A b"], &[1, 2, 3]);
        assert_eq!(d[0], 2.0 / 6.0);
        assert_eq!(d[1], 2.0 / 4.0);
        // Trigrams: aba, bab; the second text has none.
        assert_eq!(d[2], 1.0);
        assert_eq!(distinct_n(["one"], &[2]), vec![0.0]);
    }
}
