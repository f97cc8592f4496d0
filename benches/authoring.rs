//! Speed of the authoring tools an editor calls on every keystroke or
//! save: formatting a seed, and checking one with its fix-its proposed and
//! verified (what `cici lsp` does on each change).
//!
//! Target on a 2-core machine: both well under 100 ms for a PiSAs-size
//! seed, so that the editor never waits. Formatting costs about one parse.

/// The allocator the `cici` binary runs with, so that the figures are its.
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

use cici::analysis::Options;
use cici::driver::Run;
use cici::planted::{generate, Config};
use cici::sema::Family;

fn main() {
    divan::main();
}

fn pisas(family: Family) -> String {
    cici::printer::print(&generate(&Config::pisas(family, 3)))
}

#[divan::bench(args = [Family::MeetingAllocation, Family::JiraAllocation, Family::SeverityClassification])]
fn format_pisas_seed(bencher: divan::Bencher, family: Family) {
    let text = pisas(family);
    bencher.bench(|| cici::syntax::format(divan::black_box(&text)).unwrap().len());
}

/// A seed whose oracle is no longer unique (one critical attribute gone):
/// the not-unique fix searches for pinning facts and verifies them.
#[divan::bench(args = [Family::MeetingAllocation, Family::JiraAllocation, Family::SeverityClassification])]
fn check_with_fixes_not_unique(bencher: divan::Bencher, family: Family) {
    let mut sc = generate(&Config::pisas(family, 3));
    let i = (0..sc.attributes.len())
        .find(|&i| !sc.attributes[i].fact_form().1.facts.is_empty())
        .unwrap();
    sc.attributes.remove(i);
    let text = cici::printer::print(&sc);
    bencher.bench(|| {
        let mut run = Run::new();
        run.check_text(
            "s.cici",
            divan::black_box(text.clone()),
            &Options::default(),
        );
        run.compute_fixes(&Options::default());
        run.diagnostics.iter().map(|d| d.fixes.len()).sum::<usize>()
    });
}
