//! `cici import ci-rl`: the CI-RL release (Lan et al., "Contextual
//! Integrity in LLMs via Reasoning and Reinforcement Learning", 2025) as
//! seeds, and the flow-only case → scenario construction that the
//! PrivacyLens import shares.
//!
//! In: the release's `dataset.json`, a list of examples whose annotation
//! names the values a message must carry (`allowed`) and must not
//! (`disallowed`). Out: one seed per example (`cirl_NNN.cici`) whose
//! task needs exactly its must-share items, proven by `cici check`, and
//! `import.json`, what became of every example. The release's defects are
//! diagnostics at their JSON paths: values the prompt never shows, values
//! too short for a substring reward, a key on both sides, a must-share
//! value that holds a must-not-share one, repeated examples.

pub mod diagnostic;
pub mod fields;
pub mod flow;
pub mod prove;
pub mod records;

mod convert;

pub use convert::import;
