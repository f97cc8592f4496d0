//! A counterfactual dataset run: the triplets of every seed, grown in
//! parallel and written in the seeds' order into a folder that survives
//! interruption (see `write::output`).
//!
//! In: checked seeds, a `Config`, the templates and the folder. Out: the
//! folder, and a `Summary` of what the run wrote.

use std::path::Path;

use super::triplets::triplets;
use crate::counterfactual::base::config::Config;
use crate::counterfactual::base::records::Kind;
use crate::counterfactual::write::output::{self, Summary};
use crate::driver::Checked;
use crate::render::Templates;

/// Generates triplets for every seed into `out`, resuming what is there.
pub fn run(
    seeds: &[&Checked],
    config: &Config,
    templates: &Templates,
    out: &Path,
) -> std::io::Result<Summary> {
    let (_lock, mut w) = output::open(out, seeds, config)?;
    let wanted: usize = config
        .kinds
        .iter()
        .map(|k| match k {
            Kind::Decision => config.per_seed * config.cues.len(),
            Kind::Flow => config.per_seed,
        })
        .sum();
    let bar = crate::io::Progress::new(seeds.len(), "seeds");
    crate::driver::parallel_in_order(
        seeds,
        config.workers,
        |c| triplets(c, config, templates),
        || config.fatal().is_some(),
        |c, triplets| {
            let triplets = triplets.map_err(|e| {
                std::io::Error::other(format!("rendering the items of {}: {e}", c.scenario.id))
            })?;
            if triplets.len() < wanted {
                w.summary.short.push(c.scenario.id.clone());
            }
            for t in triplets {
                w.write(&t)?;
            }
            bar.inc(1);
            bar.set_message(format!("{} triplets", w.rows.len()));
            Ok::<(), std::io::Error>(())
        },
    )?;
    bar.finish_and_clear();
    output::finish(w, config)
}
