//! Speed of `cici build`: 1,000 PiSAs-size seeds, checked, rendered in all
//! 12 cue × rule conditions plus the six stress variants, exported and
//! validated against the schema, and written to disk.
//!
//! Target on a 2-core machine: under 5 s in all.

use cici::analysis::Options;
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

#[divan::bench(sample_count = 5)]
fn build_1000_seeds(bencher: divan::Bencher) {
    let texts = corpus(1000);
    let templates = Templates::builtin();
    let out = out_dir();
    bencher
        .with_inputs(|| {
            // Start from an empty folder, outside the measured time.
            let _ = std::fs::remove_dir_all(&out);
        })
        .bench_values(|()| {
            let mut run = Run::new();
            run.check_texts(texts.clone(), &Options::default());
            let plan = cici::build::plan(&run, &templates);
            assert_eq!(plan.built.len(), 1000);
            cici::build::write(&out, &plan.files, true).unwrap().written
        });
    let _ = std::fs::remove_dir_all(&out);
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
