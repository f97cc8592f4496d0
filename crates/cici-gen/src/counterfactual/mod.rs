//! Stage 6: grow seeds into counterfactual triplets.
//!
//! In: checked seeds. Out: [`TripletRecord`]s, each an anchor, a minimal
//! edit that flips a label (`flipped`) and one that keeps it (`held`).
//!
//! ```text
//! seed ──generate──▶ candidate ──check──▶ labels, item ──critic──▶ accept ──write──▶ rows
//!                        ▲                                            │
//!                        └────────── rejected, with reasons ◀─────────┘
//! ```
//!
//! The pipeline is in stages, each a module that uses only the stages
//! before it (ARCHITECTURE.md lists them; `tests/it/layers` holds the
//! order): [`base`], the records and vocabulary all of them speak;
//! [`apply`], what an edit does to a scenario; [`generate`], the symbolic
//! generator ([`generate::mutate`]) and the model's; [`check`], which
//! prints the variant as seed text and runs the whole compiler on it, so
//! every label comes from the prover, never from the generator's
//! bookkeeping, and every accepted variant is a seed that `cici check`
//! passes; [`critic`], which judges a checked variant and knows no
//! generator; [`write`](mod@write), the dataset folder; and [`grow`], the entry, the
//! loops that call them all. Two label kinds: `decision` (the oracle) and
//! `flow` (whether sharing one form with one person is appropriate for the
//! task).
//!
//! The names below are for users outside the pipeline; its own modules
//! reach each other by their own paths.

pub mod apply;
pub mod base;
pub mod check;
pub mod critic;
pub mod generate;
pub mod grow;
pub mod write;

pub use base::config::{Config, Provenance, SeedSource, Split};
pub use base::records::{
    Evaluated, FlowReasons, Kind, Label, Minimality, Rejection, Side, Trap, TripletRecord, Variant,
    Verdict,
};
pub use base::rejections::Rejections;
pub use base::{vocab, wording};
pub use check::evaluate::evaluate;
pub use check::item;
pub use check::labels::{decision_label, flow_label, flow_reasons, flow_stated, traps};
pub use generate::listed::Listed;
pub use generate::proposal::{Proposal, Proposer};
pub use generate::{completed, mutate};
pub use grow::run::run;
pub use grow::triplets::triplets;
pub use write::row::Row;
pub use write::{card, output};
