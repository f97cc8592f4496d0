mod build;
mod cli;
mod common;
mod corpus;
mod fixtures;
mod language;
mod planted;
mod properties;
