//! Any text through the whole checker, fix-its included: no panic, every
//! diagnostic has a code, every fix applies to the text it was made for.
#![no_main]

use libfuzzer_sys::fuzz_target;
use miette::Diagnostic as _;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let options = cici::analysis::Options {
        max_solve: Some(std::time::Duration::from_millis(500)),
    };
    let mut run = cici::driver::Run::new();
    run.check_text("fuzz.cici", text.to_string(), &options);
    run.compute_fixes(&options);
    for d in &run.diagnostics {
        assert!(d.diagnostic.code().is_some());
        for fix in &d.fixes {
            assert!(cici::authoring::fixit::apply(text, &fix.edits).is_some());
        }
    }
});
