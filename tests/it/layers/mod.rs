//! The layer rules ARCHITECTURE.md states, held to the sources as `syn`
//! reads them (`graph`): the modules of each folder use each other without
//! a circle, no module uses a module of a later layer than its own (the
//! list under "Layers" in ARCHITECTURE.md), and a module reaches a sibling
//! by the sibling's own path, never through its parent's re-exports.
//!
//! Code under `#[cfg(test)]` counts apart: it may close no circle the
//! crate's code has not (a test module sees its siblings as the code does
//! not), but it may not use a later layer either.
//!
//! The layers are also crates of a cargo workspace (`crates`): the graph
//! reads every crate's sources, and each crate's manifest is held to
//! depend only on crates of lower layers.

mod crates;
mod graph;
mod stages;

use std::collections::{BTreeMap, BTreeSet};

use graph::{Edge, Graph, ModPath};

use super::common::root;

/// The workspace's module graph, every crate's modules under one root,
/// read once.
fn crate_graph() -> &'static Graph {
    static GRAPH: std::sync::OnceLock<Graph> = std::sync::OnceLock::new();
    GRAPH.get_or_init(|| {
        let crates = crates::workspace();
        let libs: Vec<(String, std::path::PathBuf)> =
            crates.iter().map(|c| (c.code_name(), c.lib())).collect();
        let libs: Vec<(&str, &std::path::Path)> = libs
            .iter()
            .map(|(n, l)| (n.as_str(), l.as_path()))
            .collect();
        Graph::of_crates(&libs)
    })
}

/// The two modules an edge links among the children of the folder they
/// share, or `None` when one is inside the other.
fn siblings(e: &Edge) -> Option<(ModPath, ModPath)> {
    let common = e.from.iter().zip(&e.to).take_while(|(a, b)| a == b).count();
    if common == e.from.len() || common == e.to.len() {
        return None;
    }
    Some((e.from[..=common].to_vec(), e.to[..=common].to_vec()))
}

fn show(m: &ModPath) -> String {
    m.join("::")
}

/// The first edge from `a` to `b` among siblings, by which each is shown.
type Links<'g> = BTreeMap<ModPath, BTreeMap<ModPath, &'g Edge>>;

fn links(edges: &[Edge]) -> Links<'_> {
    let mut out: Links = BTreeMap::new();
    for e in edges.iter().filter(|e| !e.test) {
        if let Some((a, b)) = siblings(e) {
            out.entry(a).or_default().entry(b).or_insert(e);
        }
    }
    out
}

/// A shortest circle through `start`, if there is one.
fn circle_through(links: &Links, start: &ModPath) -> Option<Vec<ModPath>> {
    let mut prev: BTreeMap<&ModPath, &ModPath> = BTreeMap::new();
    let mut queue = std::collections::VecDeque::from([start]);
    while let Some(n) = queue.pop_front() {
        for next in links.get(n).into_iter().flat_map(|m| m.keys()) {
            if next == start {
                let mut path = vec![n.clone()];
                let mut at = n;
                while at != start {
                    at = prev[at];
                    path.push(at.clone());
                }
                path.reverse();
                return Some(path);
            }
            if !prev.contains_key(next) {
                prev.insert(next, n);
                queue.push_back(next);
            }
        }
    }
    None
}

/// Every circle among the sibling modules of `edges`, each once, as its
/// modules with the import that leads from each to the next.
fn circles(edges: &[Edge]) -> Vec<String> {
    let links = links(edges);
    let mut seen: BTreeSet<BTreeSet<ModPath>> = BTreeSet::new();
    let mut out = Vec::new();
    for start in links.keys() {
        let Some(path) = circle_through(&links, start) else {
            continue;
        };
        if !seen.insert(path.iter().cloned().collect()) {
            continue;
        }
        let mut text = path.iter().map(show).collect::<Vec<_>>().join(" → ");
        text.push_str(&format!(" → {}", show(&path[0])));
        for (i, a) in path.iter().enumerate() {
            let b = &path[(i + 1) % path.len()];
            text.push_str(&format!("\n    {}", links[a][b].at()));
        }
        out.push(text);
    }
    out
}

/// The layers ARCHITECTURE.md lists under "Layers": each top-level module
/// to its layer's number, counted from the bottom.
fn layers() -> BTreeMap<String, usize> {
    let text = std::fs::read_to_string(root().join("ARCHITECTURE.md")).unwrap();
    let section = text
        .split("\n## ")
        .find(|s| s.starts_with("Layers\n"))
        .expect("ARCHITECTURE.md has a section \"Layers\"");
    let mut out = BTreeMap::new();
    let rows = section
        .lines()
        .filter(|l| l.starts_with(|c: char| c.is_ascii_digit()));
    for (n, line) in rows.enumerate() {
        let names = line.split(':').nth(1).unwrap_or(line);
        for module in names.split('`').skip(1).step_by(2) {
            assert!(
                out.insert(module.to_string(), n).is_none(),
                "`{module}` is in two layers"
            );
        }
    }
    out
}

#[test]
fn the_modules_of_each_folder_use_each_other_without_a_circle() {
    let found = circles(&crate_graph().edges);
    assert!(
        found.is_empty(),
        "{} circles:\n{}",
        found.len(),
        found.join("\n")
    );
}

#[test]
fn no_module_uses_a_later_layer() {
    let g = crate_graph();
    let layers = layers();
    let top: BTreeSet<&String> = g.modules.iter().filter_map(|m| m.first()).collect();
    let unlisted: Vec<&&String> = top.iter().filter(|m| !layers.contains_key(**m)).collect();
    assert!(unlisted.is_empty(), "in no layer: {unlisted:?}");
    let mut found = Vec::new();
    for e in g.edges.iter().filter(|e| !e.from.is_empty()) {
        let (a, b) = (&e.from[0], &e.to[0]);
        if a == b {
            continue;
        }
        if layers[a] < layers[b] {
            found.push(format!("{a} → {b}: {}", e.at()));
        }
    }
    assert!(
        found.is_empty(),
        "{} upward imports:\n{}",
        found.len(),
        found.join("\n")
    );
}

#[test]
fn no_module_reaches_a_sibling_through_its_parents_reexports() {
    let mut found = Vec::new();
    for e in crate_graph().edges.iter().filter(|e| !e.from.is_empty()) {
        let Some(via) = &e.via else { continue };
        let parent = &e.from[..e.from.len() - 1];
        let own = e.to.starts_with(&e.from) || e.from.starts_with(&e.to);
        if via.as_slice() == parent && !own && e.to.len() > via.len() {
            found.push(format!("{} via {}: {}", show(&e.to), show(via), e.at()));
        }
    }
    assert!(
        found.is_empty(),
        "reached through a parent:\n{}",
        found.join("\n")
    );
}

#[test]
fn the_reader_sees_grouped_nested_and_inline_paths() {
    let dir = tempfile::tempdir().unwrap();
    let files = [
        (
            "lib.rs",
            "mod a;\nmod b;\npub mod c;\npub use c::deep::Thing;\n",
        ),
        (
            "a.rs",
            "use super::{b::{self, inner::{X}}, c::{deep::Y as Z}};\n\
             fn f() { crate::Thing::new(); format!(\"{}\", self::g()); }\n\
             fn g() {}\n\
             #[cfg(test)]\nmod tests { use crate::c::C; }\n",
        ),
        ("b.rs", "pub mod inner { pub struct X; }\n"),
        ("c/mod.rs", "pub mod deep;\npub struct C;\n"),
        (
            "c/deep.rs",
            "pub struct Thing; pub struct Y;\nfn h() { println!(\"{}\", super::super::a::F); }\n",
        ),
    ];
    for (name, text) in files {
        let path = dir.path().join(name);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    }
    let g = Graph::of_crate(&dir.path().join("lib.rs"));
    let seen: BTreeSet<(String, String, usize, bool)> = g
        .edges
        .iter()
        .map(|e| (show(&e.from), show(&e.to), e.line, e.test))
        .collect();
    let want = [
        ("", "c::deep", 4, false),
        ("a", "b", 1, false),
        ("a", "b::inner", 1, false),
        ("a", "c::deep", 1, false),
        ("a", "c::deep", 2, false),
        ("a::tests", "c", 5, true),
        ("c::deep", "a", 2, false),
    ];
    let want: BTreeSet<(String, String, usize, bool)> = want
        .iter()
        .map(|(a, b, l, t)| (a.to_string(), b.to_string(), *l, *t))
        .collect();
    assert_eq!(seen, want);
    assert_eq!(
        circles(&g.edges).len(),
        1,
        "a and c use each other: {:?}",
        circles(&g.edges)
    );
}
