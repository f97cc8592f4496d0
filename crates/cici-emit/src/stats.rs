//! Corpus statistics in the shape of PiSAs Appendix A.5.
//!
//! In: checked scenarios. Out: per family and pooled, the distribution of
//! attribute forms per scenario (total, appropriate, inappropriate),
//! participants per scenario, forms visible per participant, participants
//! per form and visibility density (mean ± standard error, range, median),
//! plus counts of attribute classes and categories. Forms are counted as
//! attributes, as every output does: a sanitized form is its own attribute.

use std::collections::BTreeMap;

use serde::Serialize;

use crate::driver::Checked;
use crate::sema::Family;

/// Mean ± standard error, range and median of a sample.
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct Summary {
    pub n: usize,
    pub mean: f64,
    pub se: f64,
    pub min: f64,
    pub max: f64,
    pub median: f64,
}

impl Summary {
    pub fn of(values: &[f64]) -> Summary {
        let n = values.len();
        if n == 0 {
            return Summary {
                n,
                mean: 0.0,
                se: 0.0,
                min: 0.0,
                max: 0.0,
                median: 0.0,
            };
        }
        let mean = values.iter().sum::<f64>() / n as f64;
        let var = if n > 1 {
            values.iter().map(|v| (v - mean).powi(2)).sum::<f64>() / (n - 1) as f64
        } else {
            0.0
        };
        let mut sorted = values.to_vec();
        sorted.sort_by(f64::total_cmp);
        let median = if n % 2 == 1 {
            sorted[n / 2]
        } else {
            (sorted[n / 2 - 1] + sorted[n / 2]) / 2.0
        };
        Summary {
            n,
            mean,
            se: (var / n as f64).sqrt(),
            min: sorted[0],
            max: sorted[n - 1],
            median,
        }
    }

    fn cell(&self, digits: usize) -> String {
        format!(
            "{:.d$} ± {:.d$} [{:.d$}–{:.d$}], median {:.d$}",
            self.mean,
            self.se,
            self.min,
            self.max,
            self.median,
            d = digits
        )
    }
}

/// The statistics of one group of scenarios.
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct GroupStats {
    /// The family, or `all` for the pooled group.
    pub group: String,
    pub scenarios: usize,
    pub attributes_total: Summary,
    pub attributes_appropriate: Summary,
    pub attributes_inappropriate: Summary,
    pub participants: Summary,
    pub visible_per_participant: Summary,
    pub participants_per_attribute: Summary,
    pub visibility_density: Summary,
    /// Attributes (not forms) per class.
    pub classes: BTreeMap<String, usize>,
    /// Attributes (not forms) per category; `none` where no category is given.
    pub categories: BTreeMap<String, usize>,
}

/// Statistics per family and pooled.
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct Stats {
    pub families: Vec<GroupStats>,
    pub pooled: GroupStats,
}

fn group(name: &str, checked: &[&Checked]) -> GroupStats {
    let (mut total, mut appropriate, mut inappropriate, mut participants) =
        (vec![], vec![], vec![], vec![]);
    let (mut per_participant, mut per_attribute, mut density) = (vec![], vec![], vec![]);
    let mut classes = BTreeMap::new();
    let mut categories = BTreeMap::new();
    for c in checked {
        let sc = &c.scenario;
        let forms: Vec<&crate::sema::Form> = sc
            .attributes
            .iter()
            .flat_map(|a| a.forms().map(|(_, f)| f))
            .collect();
        let app = forms.iter().filter(|f| f.appropriate).count();
        total.push(forms.len() as f64);
        appropriate.push(app as f64);
        inappropriate.push((forms.len() - app) as f64);
        participants.push(sc.people.len() as f64);
        for p in 0..sc.people.len() {
            per_participant.push(forms.iter().filter(|f| f.visible.contains(&p)).count() as f64);
        }
        let pairs: usize = forms.iter().map(|f| f.visible.len()).sum();
        per_attribute.extend(forms.iter().map(|f| f.visible.len() as f64));
        if !forms.is_empty() {
            density.push(pairs as f64 / (forms.len() * sc.people.len()) as f64);
        }
        for (a, f) in sc.attributes.iter().zip(&c.report.attributes) {
            *classes.entry(f.class.name().to_string()).or_insert(0) += 1;
            let cat = a.category.map_or("none", |c| c.name());
            *categories.entry(cat.to_string()).or_insert(0) += 1;
        }
    }
    GroupStats {
        group: name.to_string(),
        scenarios: checked.len(),
        attributes_total: Summary::of(&total),
        attributes_appropriate: Summary::of(&appropriate),
        attributes_inappropriate: Summary::of(&inappropriate),
        participants: Summary::of(&participants),
        visible_per_participant: Summary::of(&per_participant),
        participants_per_attribute: Summary::of(&per_attribute),
        visibility_density: Summary::of(&density),
        classes,
        categories,
    }
}

/// Statistics of a corpus of checked scenarios.
pub fn stats(checked: &[&Checked]) -> Stats {
    let families = Family::ALL
        .iter()
        .filter_map(|&f| {
            let of: Vec<&Checked> = checked
                .iter()
                .copied()
                .filter(|c| c.scenario.family() == f)
                .collect();
            (!of.is_empty()).then(|| group(f.name(), &of))
        })
        .collect();
    Stats {
        families,
        pooled: group("all", checked),
    }
}

/// The header of a table with one column per group.
fn header(groups: &[&GroupStats]) -> String {
    format!(
        "| | {} |\n|---|{}\n",
        groups
            .iter()
            .map(|g| g.group.as_str())
            .collect::<Vec<_>>()
            .join(" | "),
        "---|".repeat(groups.len())
    )
}

/// One cell of the Markdown table for a group.
type Cell = fn(&GroupStats) -> String;

/// The statistics as a Markdown report.
pub fn markdown(stats: &Stats) -> String {
    let groups: Vec<&GroupStats> = stats
        .families
        .iter()
        .chain(std::iter::once(&stats.pooled))
        .collect();
    let mut out = String::from("# Dataset statistics\n\n");
    out.push_str(
        "Mean ± standard error [range], median. Every attribute form counts as an attribute.\n\n",
    );
    out.push_str(&header(&groups));
    let rows: [(&str, Cell); 8] = [
        ("scenarios", |g| g.scenarios.to_string()),
        ("attributes per scenario", |g| g.attributes_total.cell(1)),
        ("appropriate", |g| g.attributes_appropriate.cell(1)),
        ("inappropriate", |g| g.attributes_inappropriate.cell(1)),
        ("participants per scenario", |g| g.participants.cell(1)),
        ("attributes visible per participant", |g| {
            g.visible_per_participant.cell(1)
        }),
        ("participants per attribute", |g| {
            g.participants_per_attribute.cell(1)
        }),
        ("visibility density", |g| g.visibility_density.cell(2)),
    ];
    for (label, cell) in rows {
        out.push_str(&format!(
            "| {label} | {} |\n",
            groups
                .iter()
                .map(|g| cell(g))
                .collect::<Vec<_>>()
                .join(" | ")
        ));
    }
    for (title, counts) in [("Attribute classes", true), ("Categories", false)] {
        out.push_str(&format!("\n## {title}\n\n"));
        out.push_str(&header(&groups));
        let pick = |g: &GroupStats| {
            if counts {
                g.classes.clone()
            } else {
                g.categories.clone()
            }
        };
        let mut keys: Vec<String> = groups.iter().flat_map(|g| pick(g).into_keys()).collect();
        keys.sort();
        keys.dedup();
        for k in keys {
            let cells: Vec<String> = groups
                .iter()
                .map(|g| pick(g).get(&k).copied().unwrap_or(0).to_string())
                .collect();
            out.push_str(&format!("| {k} | {} |\n", cells.join(" | ")));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn summary_of_a_small_sample() {
        let s = Summary::of(&[1.0, 2.0, 3.0, 4.0]);
        assert_eq!(s.mean, 2.5);
        assert_eq!(s.median, 2.5);
        assert_eq!((s.min, s.max), (1.0, 4.0));
        // sd = sqrt(5/3), se = sd / 2
        assert!((s.se - (5.0f64 / 3.0).sqrt() / 2.0).abs() < 1e-12);
        assert_eq!(Summary::of(&[7.0]).se, 0.0);
    }
}
