//! `cici counterfactual`

use std::process::ExitCode;
use std::time::Duration;

use super::{fail, CounterfactualArgs, GeneratorArg, KindArg};
use crate::analysis::Options;
use crate::counterfactual::{output, Config, Kind};
use crate::driver::Run;
use crate::render::Templates;

pub(super) fn run(args: CounterfactualArgs) -> ExitCode {
    let options = Options {
        max_solve: Some(Duration::from_millis(args.max_solve_ms)),
    };
    let mut run = Run::new();
    if let Err(e) = run.check_paths(&args.paths, &options) {
        return fail(e);
    }
    eprint!("{}", super::check::render(&run, &super::check::handler()));
    let seeds: Vec<&crate::driver::Checked> = run
        .checked
        .iter()
        .filter(|c| c.report.errors() == 0)
        .collect();
    if seeds.is_empty() {
        return fail("no seed without errors to grow triplets from");
    }
    let GeneratorArg::Symbolic = args.generator;
    let config = Config {
        kinds: match args.kind {
            KindArg::Decision => vec![Kind::Decision],
            KindArg::Flow => vec![Kind::Flow],
            KindArg::Both => vec![Kind::Decision, Kind::Flow],
        },
        per_seed: args.per_seed,
        seed: args.seed,
        rounds: args.rounds.max(1),
        options,
    };
    match output::run(&seeds, &config, &Templates::builtin(), &args.out) {
        Ok(s) => {
            println!(
                "{} triplet{} written to {} ({} kept from an earlier run)",
                s.written,
                if s.written == 1 { "" } else { "s" },
                args.out.join(output::TRIPLETS).display(),
                s.kept
            );
            if !s.short.is_empty() {
                eprintln!("fewer triplets than asked for: {}", s.short.join(", "));
            }
            if run.errors() > 0 {
                ExitCode::from(1)
            } else {
                ExitCode::SUCCESS
            }
        }
        Err(e) => fail(format!("writing {}: {e}", args.out.display())),
    }
}
