//! `cici export inspect`

use std::process::ExitCode;

use super::export_args::InspectArgs;
use super::output::{fail, Outcome};

pub(super) fn run(args: InspectArgs) -> Outcome {
    let (templates, run) = args.input.checked()?;
    let proven = args.input.proven(&run)?;
    let files = crate::export::inspect::files(&proven, &templates).map_err(fail)?;
    let failed = run.errors() > 0;
    let target = args.input.target(crate::build::Writer::ExportInspect);
    // A seed with errors keeps what an earlier export wrote for it.
    if let Some(s) = super::build::put(&target, &files, !failed, args.check)? {
        super::output::say!(
            "exported {} scenario{} into {}: {} written, {} unchanged, {} removed",
            proven.len(),
            if proven.len() == 1 { "" } else { "s" },
            target.out.display(),
            s.written,
            s.unchanged,
            s.removed
        );
    }
    if failed {
        eprintln!("scenarios with errors are not exported");
        Ok(ExitCode::from(1))
    } else {
        Ok(ExitCode::SUCCESS)
    }
}
