//! `cici import privacylens`, `cici import ci-rl` and `cici export
//! privacylens` on the release samples under `tests/data/`.

use super::common::{cici, root, tempdir};
use cici::cirl::prove::PeerImport;

/// One line per diagnostic: code, case, path and message.
fn lines(import: &PeerImport) -> String {
    import
        .diagnostics
        .iter()
        .map(|d| {
            format!(
                "{} [{}] {}\n",
                d.code().trim_start_matches("cici::peer::"),
                d.case.as_deref().unwrap_or("release"),
                d
            )
        })
        .collect()
}

fn proven(import: &PeerImport) -> Vec<&str> {
    let cases = import.map.cases.iter();
    cases
        .filter(|c| c.proven)
        .map(|c| c.case.as_str())
        .collect()
}

#[test]
fn privacylens_sample_imports_with_its_defects_named() {
    let import = cici::privacylens::import(&root().join("tests/data/privacylens/main_data.json"));
    insta::assert_snapshot!(lines(&import));
    // Every case ends in a seed that checks or in a named defect.
    for c in &import.map.cases {
        assert!(c.proven || !c.defects.is_empty(), "{} has neither", c.case);
    }
    assert_eq!(import.map.cases.len(), 6);
    // main26's one item is a paraphrase the trajectory never states.
    assert!(!proven(&import).contains(&"main26"));
    assert!(proven(&import).contains(&"main1"));
    // A sensitive item is never needed; the norm always is.
    for c in import.map.cases.iter().filter(|c| c.proven) {
        for (id, item) in &c.items {
            let class = serde_json::to_value(item.class).unwrap();
            let want = if item.label == "norm" {
                "critical"
            } else {
                "irrelevant"
            };
            assert_eq!(class, want, "{} {id}", c.case);
        }
    }
}

#[test]
fn privacylens_malformed_cases_are_reported_at_their_paths() {
    let import = cici::privacylens::import(&root().join("tests/data/privacylens/malformed.json"));
    insta::assert_snapshot!(lines(&import));
    assert_eq!(proven(&import), ["main1", "malformed_unknown"]);
}

#[test]
fn cirl_sample_imports_with_its_defects_named() {
    let import = cici::cirl::import(&root().join("tests/data/cirl/dataset.json"));
    insta::assert_snapshot!(lines(&import));
    assert_eq!(import.map.cases.len(), 6);
    for c in &import.map.cases {
        assert!(c.proven || !c.defects.is_empty(), "{} has neither", c.case);
        for item in c.items.values().filter(|_| c.proven) {
            let class = serde_json::to_value(item.class).unwrap();
            let want = if item.label == "must_share" {
                "critical"
            } else {
                "irrelevant"
            };
            assert_eq!(class, want);
        }
    }
}

#[test]
fn the_built_binary_imports_checks_and_exports_round_trip() {
    let dir = tempdir("peers");
    let seeds = dir.join("seeds");
    let seeds = seeds.to_str().unwrap();
    let r = cici(&[
        "import",
        "ci-rl",
        "tests/data/cirl/dataset.json",
        "--out",
        seeds,
    ]);
    let stdout = String::from_utf8_lossy(&r.stdout);
    assert!(r.status.success(), "{}", String::from_utf8_lossy(&r.stderr));
    assert!(stdout.contains("imported 6 seeds of 6 cases"), "{stdout}");
    let r = cici(&["check", seeds]);
    assert!(r.status.success(), "{}", String::from_utf8_lossy(&r.stdout));
    let r = cici(&["fmt", "--check", seeds]);
    assert!(r.status.success(), "{}", String::from_utf8_lossy(&r.stdout));
    let map: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("seeds/import.json")).unwrap())
            .unwrap();
    assert_eq!(map["release"], "ci-rl");
    // The seeds as PrivacyLens cases, read back by the import.
    let out = dir.join("export");
    let r = cici(&[
        "export",
        "privacylens",
        seeds,
        "--out",
        out.to_str().unwrap(),
    ]);
    assert!(r.status.success(), "{}", String::from_utf8_lossy(&r.stderr));
    let back = cici::privacylens::import(&out);
    assert_eq!(back.errors(), 0, "{}", lines(&back));
    assert_eq!(back.map.cases.len(), 6);
    assert!(back.map.cases.iter().all(|c| c.proven), "{}", lines(&back));
}

#[test]
fn an_unreadable_release_is_a_diagnostic() {
    let dir = tempdir("peers-bad");
    let file = dir.join("data.json");
    std::fs::write(&file, "{\"not\": \"a list\"}").unwrap();
    let import = cici::cirl::import(&file);
    assert_eq!(import.errors(), 1);
    assert_eq!(import.diagnostics[0].code(), "cici::peer::read");
    assert!(import.seeds.is_empty());
}
