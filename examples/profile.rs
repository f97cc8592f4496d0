//! Times each stage of the check on one seed file: `cargo run --release --example profile -- FILE`.

use std::time::Instant;

fn main() {
    let path = std::env::args().nth(1).expect("usage: profile FILE");
    let text = std::fs::read_to_string(&path).expect("readable file");
    let t = Instant::now();
    let (file, errors) = cici::syntax::parse(cici::span::SourceId(0), &text);
    assert!(errors.is_empty());
    let parsed = t.elapsed();
    for ast in &file.scenarios {
        let t = Instant::now();
        let sc = cici::sema::resolve(ast).expect("resolves");
        let resolved = t.elapsed();
        let t = Instant::now();
        let model = cici::model::lower(&sc);
        let lowered = t.elapsed();
        let t = Instant::now();
        let session = cici::solver::Session::new(&model, None);
        let compiled = t.elapsed();
        eprintln!("solver vars {}", session.stats.vars);
        drop(session);
        let t = Instant::now();
        let report = cici::analysis::analyse(&sc, &model, &Default::default());
        let analysed = t.elapsed();
        println!(
            "{}: parse {parsed:?}, resolve {resolved:?}, lower {lowered:?}, compile {compiled:?}, analyse {analysed:?} ({} solves, {} facts, {} vars)",
            sc.id,
            report.solves,
            model.facts.len(),
            model.num_vars
        );
    }
}
