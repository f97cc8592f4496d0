//! Speed of `cici build`: 1,000 PiSAs-size seeds, checked, rendered in all
//! 12 cue × rule conditions plus the six stress variants, exported and
//! validated against the schema, and written to disk.
//!
//! Target on a 2-core machine: under 5 s in all; 10,000 seeds in the
//! packed layout in at most twice the time of 1,000 in the file layout.

/// The allocator the `cici` binary runs with, so that the figures are its.
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

use cici::analysis::Options;
use cici::build::Layout;
use cici::driver::Run;
use cici::planted::{generate, Config};
use cici::render::Templates;
use cici::sema::Family;

fn main() {
    divan::main();
}

fn corpus(n: usize) -> Vec<(String, String)> {
    (0..n)
        .map(|i| {
            let family = Family::ALL[i % 3];
            let mut config = Config::pisas(family, i as u64);
            config.id = Some(format!("s{i:04}"));
            (
                format!("s{i:04}.cici"),
                cici::printer::print(&generate(&config)),
            )
        })
        .collect()
}

fn out_dir() -> std::path::PathBuf {
    // tmpfs where there is one, so that the figure is the build's, not the disk's.
    let base = std::env::var_os("CICI_BENCH_DIR")
        .map(std::path::PathBuf::from)
        .unwrap_or_else(|| {
            if std::path::Path::new("/dev/shm").is_dir() {
                "/dev/shm".into()
            } else {
                std::env::temp_dir()
            }
        });
    base.join(format!("cici-bench-{}", std::process::id()))
}

/// Checks, plans and writes `n` seeds in one layout; prints what it wrote.
fn build_seeds(bencher: divan::Bencher, n: usize, layout: Layout) {
    let texts = corpus(n);
    let templates = Templates::builtin();
    let out = out_dir();
    let options = cici::build::Options {
        layout,
        ..cici::build::Options::default()
    };
    let written = std::sync::Mutex::new((0, 0));
    bencher
        .with_inputs(|| {
            // Start from an empty folder, outside the measured time.
            let _ = std::fs::remove_dir_all(&out);
        })
        .bench_values(|()| {
            let mut run = Run::new();
            run.check_texts(texts.clone(), &Options::default());
            let plan = cici::build::plan_with(&run, &templates, &options);
            assert_eq!(plan.built.len(), n);
            let bytes: usize = plan.files.values().map(String::len).sum();
            *written.lock().unwrap() = (plan.files.len(), bytes);
            let target = cici::build::Target {
                out: &out,
                writer: cici::build::Writer::Build,
                inputs: &[],
                force: false,
            };
            cici::build::write(&target, &plan.files, true)
                .unwrap()
                .written
        });
    let written = *written.lock().unwrap();
    eprintln!(
        "{n} seeds, {layout:?} layout: {} files, {:.1} MB",
        written.0,
        written.1 as f64 / 1e6
    );
    let _ = std::fs::remove_dir_all(&out);
}

#[divan::bench(sample_count = 5, args = [Layout::Files, Layout::Packed])]
fn build_1000_seeds(bencher: divan::Bencher, layout: Layout) {
    build_seeds(bencher, 1000, layout);
}

/// The scale a lab with a large seed corpus builds at: in the packed
/// layout, within twice the time of 1,000 seeds in the file layout.
#[divan::bench(sample_count = 1)]
fn build_10000_seeds_packed(bencher: divan::Bencher) {
    build_seeds(bencher, 10_000, Layout::Packed);
}

#[divan::bench(sample_count = 5)]
fn check_and_plan_1000_seeds(bencher: divan::Bencher) {
    let texts = corpus(1000);
    let templates = Templates::builtin();
    bencher.bench(|| {
        let mut run = Run::new();
        run.check_texts(texts.clone(), &Options::default());
        cici::build::plan(&run, &templates).files.len()
    });
}

/// The check alone, the part of a build every layout pays.
#[divan::bench(sample_count = 3)]
fn check_1000_seeds(bencher: divan::Bencher) {
    let texts = corpus(1000);
    bencher.bench(|| {
        let mut run = Run::new();
        run.check_texts(texts.clone(), &Options::default());
        run.checked.len()
    });
}

/// Rendering, export and validation alone, per layout.
#[divan::bench(sample_count = 3, args = [Layout::Files, Layout::Packed])]
fn plan_1000_seeds(bencher: divan::Bencher, layout: Layout) {
    let texts = corpus(1000);
    let templates = Templates::builtin();
    let mut run = Run::new();
    run.check_texts(texts.clone(), &Options::default());
    let options = cici::build::Options {
        layout,
        ..cici::build::Options::default()
    };
    bencher.bench(|| {
        cici::build::plan_with(&run, &templates, &options)
            .files
            .len()
    });
}
