//! A triplet's record: its sides put together under an id that is a hash
//! of its content, so that the same triplet has the same id in every run.
//!
//! In: the seed, the kind, the anchor and both variants. Out: a
//! `TripletRecord`.

use crate::counterfactual::base::config::Config;
use crate::counterfactual::base::records::{fnv, Kind, Side, TripletRecord, Variant};
use crate::sema::Scenario;

/// A record's id: a hash of its kind, anchor and both changes, so that the
/// same triplet has the same id whatever else a run made.
fn content_id(kind: Kind, anchor: &Side, flipped: &Variant, held: &Variant) -> String {
    let key = serde_json::json!([
        kind.name(),
        anchor.seed,
        anchor.flow,
        anchor.condition,
        flipped.edits,
        flipped.side.flow,
        held.edits,
        held.side.flow,
    ]);
    let text = key.to_string();
    // FNV-1a of the text and of its reverse: 128 bits, stable everywhere.
    let second: String = text.chars().rev().collect();
    format!("{:016x}{:016x}", fnv(&text), fnv(&second))
}

pub(crate) fn record(
    sc: &Scenario,
    kind: Kind,
    anchor: Side,
    flipped: Variant,
    held: Variant,
    config: &Config,
) -> TripletRecord {
    TripletRecord {
        id: content_id(kind, &anchor, &flipped, &held),
        kind,
        scenario: sc.id.clone(),
        family: sc.family().name().to_string(),
        anchor,
        flipped,
        held,
        generator: config.generator_name(),
    }
}
