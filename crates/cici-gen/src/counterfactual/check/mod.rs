//! The check stage: a candidate compiled and labelled, and its item
//! rendered, so that the critic judges what a reader would see.
//!
//! In: a candidate from `generate` (or `apply`). Out: the compiled variant
//! (`evaluate`), its labels, flow reasons and traps (`labels`), its
//! evaluation item with its answer (`item`), and how far it reads from the
//! anchor (`distance`).

pub mod distance;
pub mod evaluate;
pub mod item;
pub mod labels;
