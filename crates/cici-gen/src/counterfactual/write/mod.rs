//! The write stage: accepted triplets as the rows of a dataset folder an
//! evaluator loads as it is.
//!
//! In: `TripletRecord`s and the run's `Config`. Out: the row and its
//! schema (`row`), the dataset card (`card`), the Croissant metadata
//! (`croissant`), and the folder written so that it survives interruption
//! (`output`, with the inspect_ai task file `cici_task.py`).

pub mod card;
mod croissant;
pub mod output;
pub mod row;
