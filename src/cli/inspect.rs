//! `cici export inspect`

use std::process::ExitCode;

use super::{export_args::InspectArgs, output::fail};

pub(super) fn run(args: InspectArgs) -> ExitCode {
    let (templates, run) = match args.input.checked() {
        Ok(checked) => checked,
        Err(code) => return code,
    };
    let proven = match args.input.proven(&run) {
        Ok(p) => p,
        Err(code) => return code,
    };
    let files = match crate::export::inspect::files(&proven, &templates) {
        Ok(f) => f,
        Err(e) => return fail(e),
    };
    let failed = run.errors() > 0;
    let target = args.input.target(crate::build::Writer::ExportInspect);
    // A seed with errors keeps what an earlier export wrote for it.
    match super::build::put(&target, &files, !failed, args.check) {
        Ok(Some(s)) => super::output::say!(
            "exported {} scenario{} into {}: {} written, {} unchanged, {} removed",
            proven.len(),
            if proven.len() == 1 { "" } else { "s" },
            target.out.display(),
            s.written,
            s.unchanged,
            s.removed
        ),
        Ok(None) => {}
        Err(code) => return code,
    }
    if failed {
        eprintln!("scenarios with errors are not exported");
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    }
}
