//! `cici explain FILE ATTRIBUTE`

use super::output::{fail, Outcome};
use super::ExplainArgs;
use crate::authoring::explain::explain;
use crate::driver::Run;

pub(super) fn run(args: ExplainArgs) -> Outcome {
    let options = args.solver.options();
    let mut run = Run::new();
    run.check_paths(std::slice::from_ref(&args.file), &options)
        .map_err(fail)?;
    let candidates: Vec<&crate::driver::Checked> = run
        .checked
        .iter()
        .filter(|c| args.scenario.as_ref().is_none_or(|s| *s == c.scenario.id))
        .filter(|c| c.scenario.attribute(&args.attribute).is_some())
        .collect();
    let checked = match candidates.as_slice() {
        [one] => *one,
        [] => {
            if run.errors() > 0 {
                eprint!("{}", super::check::render(&run, &super::check::handler()));
            }
            let known: Vec<&str> = run
                .checked
                .iter()
                .flat_map(|c| c.scenario.attributes.iter().map(|a| a.id.as_str()))
                .collect();
            let hint =
                crate::suggest::help_for(&args.attribute, "attribute", known.iter().copied())
                    .map(|h| format!(" ({h})"))
                    .unwrap_or_default();
            return Err(fail(format!(
                "no attribute `{}` in {}{hint}",
                args.attribute,
                args.file.display()
            )));
        }
        many => {
            let ids: Vec<&str> = many.iter().map(|c| c.scenario.id.as_str()).collect();
            return Err(fail(format!(
                "`{}` is an attribute of several scenarios ({}); pick one with --scenario",
                args.attribute,
                ids.join(", ")
            )));
        }
    };
    // Through `print_all`: a reader that closes the pipe early ends the
    // command quietly, where `println!` panicked.
    super::output::print_all(format!("{}\n", explain(checked, &args.attribute)).as_bytes())
}
