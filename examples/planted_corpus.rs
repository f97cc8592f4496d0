//! Writes a planted-oracle corpus: `cargo run --release --example planted_corpus -- DIR N`.

fn main() {
    let mut args = std::env::args().skip(1);
    let dir = std::path::PathBuf::from(args.next().expect("usage: planted_corpus DIR N"));
    let n: usize = args
        .next()
        .and_then(|s| s.parse().ok())
        .expect("usage: planted_corpus DIR N");
    std::fs::create_dir_all(&dir).expect("creatable folder");
    for i in 0..n {
        let family = cici::sema::Family::ALL[i % 3];
        let mut config = cici::planted::Config::pisas(family, i as u64);
        config.id = Some(format!("s{i:04}"));
        let text = cici::printer::print(&cici::planted::generate(&config));
        std::fs::write(dir.join(format!("s{i:04}.cici")), text).expect("writable folder");
    }
}
