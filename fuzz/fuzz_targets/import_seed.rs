//! Any text as a PiSAs task-family seed: no panic; every scenario the import
//! writes is a seed that parses; every diagnostic has a code, and its span,
//! when it has one, lies inside the text.
#![no_main]

use libfuzzer_sys::fuzz_target;
use miette::Diagnostic;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let file = cici::pisas::import::JsonFile::parse("fuzz/seed.json".into(), text.to_string());
    let options = cici::pisas::import::SeedOptions {
        // A handful of configurations keeps one run short; the selection
        // code is exercised all the same.
        select: cici::pisas::import::build::Select::Count(3),
        seed: 1,
        prefix: None,
    };
    let imported = cici::pisas::import::pisas_seed_files(file, None, &options);
    for f in &imported.files {
        for d in &f.diagnostics {
            assert!(d.code().is_some());
            if let Some(span) = d.span {
                assert!(span.offset() + span.len() <= f.text.len());
            }
        }
    }
    for w in &imported.scenarios {
        let (_, errors) = cici::syntax::parse(cici::span::SourceId(0), &w.text);
        assert!(errors.is_empty(), "an imported seed does not parse:\n{}", w.text);
    }
});
