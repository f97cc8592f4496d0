//! `cici import privacylens` and `cici export privacylens`: the
//! PrivacyLens release (Shao et al., NeurIPS 2024 Datasets and Benchmarks)
//! read as seeds, and seeds written as its cases.
//!
//! Import in: `main_data.json` (or a folder of such files). Out: one seed
//! per case (`plens_<name>.cici`), built by the flow-only construction of
//! [`crate::cirl::flow`]: the seed's norm (the probing question's answer,
//! with the transmission principle as the purpose) is what the task needs,
//! and every sensitive item is an inappropriate form the task does not
//! need; `import.json` says what became of each case. Defects: items the
//! trajectory never shows, cut-off instructions, repeated cases, items
//! the instruction itself asks for, and the probing questions' answer
//! position. Export in: checked seeds; out: the release's case list.

pub mod export;
pub mod records;

mod convert;

pub use convert::import;
