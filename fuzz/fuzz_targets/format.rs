//! Any text through the formatter: no panic, and what it formats is a
//! fixed point that parses to the same scenarios.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    if let Ok(once) = cici::syntax::format(text) {
        let twice = cici::syntax::format(&once).expect("formatted text parses");
        assert_eq!(once, twice, "formatting is not idempotent");
        let count = |t: &str| {
            cici::syntax::parse(cici::span::SourceId(0), t)
                .0
                .scenarios
                .len()
        };
        assert_eq!(count(text), count(&once));
    }
});
