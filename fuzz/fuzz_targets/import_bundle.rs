//! Any four texts as a scenario bundle (`scenario.json`, `utility.json`,
//! `visibility.json`, `appropriateness.json`, split at 0xFF bytes): no
//! panic; a scenario made of it is a seed that parses; every diagnostic
//! has a code and a span inside its file.
#![no_main]

use libfuzzer_sys::fuzz_target;
use miette::Diagnostic;

fuzz_target!(|data: &[u8]| {
    let mut parts = data.split(|&b| b == 0xFF);
    let mut next = |name: &str| {
        let text = String::from_utf8_lossy(parts.next().unwrap_or(b"{}")).into_owned();
        cici::pisas::import::JsonFile::parse(format!("fuzz/{name}"), text)
    };
    let bundle = cici::pisas::import::BundleFiles {
        scenario: next("scenario.json"),
        utility: next("utility.json"),
        visibility: next("visibility.json"),
        appropriateness: next("appropriateness.json"),
    };
    let (written, files) = cici::pisas::import::pisas_bundle(bundle, "fuzz", None);
    for f in &files {
        for d in &f.diagnostics {
            assert!(d.code().is_some());
            if let Some(span) = d.span {
                assert!(span.offset() + span.len() <= f.text.len());
            }
        }
    }
    if let Some(w) = written {
        let (_, errors) = cici::syntax::parse(cici::span::SourceId(0), &w.text);
        assert!(errors.is_empty(), "an imported seed does not parse:\n{}", w.text);
    }
});
