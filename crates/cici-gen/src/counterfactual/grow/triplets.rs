//! The triplets of one seed: its anchor compiled again from its canonical
//! text, then each kind's triplets grown from it (`decision`, `flow`),
//! each with an id that is a hash of its content.
//!
//! In: a checked seed, the `Config` and the templates. Out: its
//! `TripletRecord`s, in a fixed order for a given `config.seed`.

use super::accept::{Anchor, Compiled};
use super::{decision, flow};
use crate::counterfactual::base::config::Config;
use crate::counterfactual::base::records::{fnv, Kind, TripletRecord};
use crate::counterfactual::base::vocab::Candidate;
use crate::counterfactual::check::evaluate::evaluate;
use crate::driver::Checked;
use crate::render::{RenderError, Templates};

/// The triplets of one seed, in a fixed order for a given `config.seed`;
/// an error when the templates cannot render the seed's items.
pub fn triplets(
    seed: &Checked,
    config: &Config,
    templates: &Templates,
) -> Result<Vec<TripletRecord>, RenderError> {
    let sc = &seed.scenario;
    let text = crate::printer::print(sc);
    // The anchor is the seed in canonical form, compiled again from text.
    let Ok(ev) = evaluate(
        &Candidate {
            scenario: sc.clone().into(),
            edits: Vec::new(),
            flow: None,
        },
        &config.options,
    ) else {
        return Ok(Vec::new());
    };
    let mut accepted = std::collections::HashSet::new();
    let compiled = Compiled::default();
    let shared = std::sync::Arc::new(ev.checked.scenario.clone());
    let mut out = Vec::new();
    for &kind in &config.kinds {
        // One random stream per kind, so that `--kind` changes no item.
        let mut rng = <rand_chacha::ChaCha8Rng as rand::SeedableRng>::seed_from_u64(
            config.seed ^ fnv(&sc.id) ^ fnv(kind.name()),
        );
        let anchor = Anchor {
            checked: &ev.checked,
            ev: &ev,
            text: text.clone(),
            shared: std::sync::Arc::clone(&shared),
            compiled: &compiled,
        };
        match kind {
            Kind::Decision => out.extend(decision::triplets(
                &anchor,
                config,
                templates,
                &mut rng,
                &mut accepted,
            )?),
            Kind::Flow => out.extend(flow::triplets(
                &anchor,
                config,
                templates,
                &mut rng,
                &mut accepted,
            )?),
        }
    }
    Ok(out)
}
