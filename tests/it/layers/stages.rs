//! The stages of the counterfactual pipeline as ARCHITECTURE.md lists them
//! under "Layers": each a folder of `counterfactual` that uses only the
//! stages before it, and reaches another by its own path, never through
//! the re-exports `counterfactual` keeps for users outside the pipeline.

use super::graph::{Graph, ModPath};
use super::root;

/// The sentence of ARCHITECTURE.md's "Layers" that lists the stages.
const MARKER: &str = "counterfactual stages, the lowest first:";

/// The counterfactual stages, the lowest first.
fn stages() -> Vec<String> {
    let text = std::fs::read_to_string(root().join("ARCHITECTURE.md")).unwrap();
    let section = text
        .split("\n## ")
        .find(|s| s.starts_with("Layers\n"))
        .expect("ARCHITECTURE.md has a section \"Layers\"");
    let folded = section.split_whitespace().collect::<Vec<_>>().join(" ");
    let at = folded
        .find(MARKER)
        .unwrap_or_else(|| panic!("ARCHITECTURE.md's \"Layers\" says {MARKER:?}"));
    let sentence = folded[at + MARKER.len()..].split('.').next().unwrap();
    let names: Vec<String> = sentence
        .split('`')
        .skip(1)
        .step_by(2)
        .map(str::to_string)
        .collect();
    assert!(names.len() > 1, "no stages in {sentence:?}");
    names
}

/// Every reference in `g` that breaks the stage order of the folder
/// `parent`: a stage using a later one, a child of `parent` in no stage,
/// or a stage reaching another through `parent`'s re-exports.
fn broken(g: &Graph, parent: &str, stages: &[String]) -> Vec<String> {
    let stage = |m: &ModPath| -> Option<usize> {
        (m.len() > 1 && m[0] == parent).then(|| stages.iter().position(|s| *s == m[1]))?
    };
    let mut found: Vec<String> = g
        .modules
        .iter()
        .filter(|m| m.len() == 2 && m[0] == parent && stage(m).is_none())
        .map(|m| format!("{} is in no stage", m.join("::")))
        .collect();
    for e in &g.edges {
        let (Some(a), Some(b)) = (stage(&e.from), stage(&e.to)) else {
            continue;
        };
        if a < b {
            found.push(format!(
                "{} uses the later {}: {}",
                stages[a],
                stages[b],
                e.at()
            ));
        } else if e.via.as_deref() == Some(&[parent.to_string()][..]) {
            found.push(format!(
                "{} through {parent}'s re-exports: {}",
                stages[a],
                e.at()
            ));
        }
    }
    found
}

#[test]
fn each_counterfactual_stage_uses_only_the_stages_before_it() {
    let found = broken(super::crate_graph(), "counterfactual", &stages());
    assert!(
        found.is_empty(),
        "{} breaks of the stage order:\n{}",
        found.len(),
        found.join("\n")
    );
}

/// The check sees a use of a later stage, a stage that is not listed and
/// a use through the parent's re-exports, test code included.
#[test]
fn the_stage_check_finds_a_use_of_a_later_stage() {
    let dir = tempfile::tempdir().unwrap();
    let files = [
        ("lib.rs", "pub mod cf;\n"),
        (
            "cf/mod.rs",
            "pub mod base;\npub mod check;\npub mod critic;\npub mod extra;\npub use base::Thing;\n",
        ),
        ("cf/base.rs", "pub struct Thing;\n"),
        (
            "cf/check.rs",
            "use super::base::Thing;\n#[cfg(test)]\nmod tests { use crate::cf::critic::judge; }\n",
        ),
        ("cf/critic.rs", "pub fn judge() {}\nuse crate::cf::Thing;\n"),
        ("cf/extra.rs", "\n"),
    ];
    for (name, text) in files {
        let path = dir.path().join(name);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    }
    let g = Graph::of_crate(&dir.path().join("lib.rs"));
    let stages = ["base", "check", "critic"].map(String::from);
    let found = broken(&g, "cf", &stages);
    assert_eq!(found.len(), 3, "{found:#?}");
    assert!(found[0].starts_with("cf::extra is in no stage"));
    assert!(found[1].starts_with("check uses the later critic") && found[1].contains("(test)"));
    assert!(found[2].starts_with("critic through cf's re-exports"));
}
