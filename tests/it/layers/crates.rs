//! The workspace's crates as layers: ARCHITECTURE.md says which layers
//! each crate holds, and the manifests (`Cargo.toml`) are read to hold
//! each crate to them. A crate may depend only on crates of lower layers,
//! so that cargo itself refuses an upward import between crates.

use std::collections::BTreeMap;
use std::path::PathBuf;

use toml_edit::{DocumentMut, Item};

use super::{layers, root};

/// A crate of the workspace, as its manifest and ARCHITECTURE.md say.
pub struct Crate {
    /// The package's name (`cici-syntax`).
    pub name: String,
    /// Its folder.
    pub dir: PathBuf,
    /// Every package it depends on, by its package name, from the
    /// manifest's dependency tables (build and dev ones too).
    pub deps: Vec<String>,
}

impl Crate {
    /// Its root file.
    pub fn lib(&self) -> PathBuf {
        self.dir.join("src/lib.rs")
    }

    /// The top-level modules its root file declares.
    pub fn modules(&self) -> Vec<String> {
        let text = std::fs::read_to_string(self.lib()).unwrap();
        let file = syn::parse_file(&text).unwrap();
        let mods = file.items.iter().filter_map(|item| match item {
            syn::Item::Mod(m) => Some(m.ident.to_string()),
            _ => None,
        });
        mods.collect()
    }

    /// Its name as code writes it (`cici_syntax`).
    pub fn code_name(&self) -> String {
        self.name.replace('-', "_")
    }
}

fn manifest(dir: &std::path::Path) -> DocumentMut {
    let path = dir.join("Cargo.toml");
    let text = std::fs::read_to_string(&path).unwrap();
    text.parse()
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// The package names in one dependency table; a renamed dependency
/// (`x = { package = "y" }`) by the package's name.
fn dep_names(table: Option<&Item>, out: &mut Vec<String>) {
    let Some(table) = table.and_then(Item::as_table_like) else {
        return;
    };
    for (key, item) in table.iter() {
        let package = item
            .as_table_like()
            .and_then(|t| t.get("package"))
            .and_then(Item::as_str);
        out.push(package.unwrap_or(key).to_string());
    }
}

/// The workspace's members, as the root manifest lists them.
pub fn workspace() -> Vec<Crate> {
    let root_manifest = manifest(&root());
    let members = root_manifest["workspace"]["members"]
        .as_array()
        .expect("the root manifest lists the workspace's members");
    members
        .iter()
        .map(|m| {
            let dir = root().join(m.as_str().unwrap());
            let doc = manifest(&dir);
            let name = doc["package"]["name"].as_str().unwrap().to_string();
            let mut deps = Vec::new();
            for kind in ["dependencies", "dev-dependencies", "build-dependencies"] {
                dep_names(doc.get(kind), &mut deps);
                if let Some(targets) = doc.get("target").and_then(Item::as_table_like) {
                    for (_, t) in targets.iter() {
                        dep_names(t.get(kind), &mut deps);
                    }
                }
            }
            Crate { name, dir, deps }
        })
        .collect()
}

/// The crates ARCHITECTURE.md lists under "Layers", each with the layers
/// it holds (counted from 0, as `layers` counts), in order: a line
/// "- `name` (...): layers 1–2", "...: layer 3" or "...: layers 12–13
/// and 15".
fn crate_layers() -> BTreeMap<String, Vec<usize>> {
    let text = std::fs::read_to_string(root().join("ARCHITECTURE.md")).unwrap();
    let section = text
        .split("\n## ")
        .find(|s| s.starts_with("Layers\n"))
        .unwrap();
    let mut out = BTreeMap::new();
    for line in section.lines().filter(|l| l.starts_with("- `")) {
        let name = line.split('`').nth(1).unwrap().to_string();
        let (_, held) = line
            .rsplit_once(": layer")
            .unwrap_or_else(|| panic!("ARCHITECTURE.md: no layers in {line:?}"));
        let held = held.trim_start_matches('s').trim().trim_end_matches('.');
        let n = |s: &str| s.trim().parse::<usize>().unwrap() - 1;
        let mut layers = Vec::new();
        for part in held.split(" and ") {
            let (lo, hi) = part.split_once('–').unwrap_or((part, part));
            layers.extend(n(lo)..=n(hi));
        }
        assert!(layers.is_sorted(), "{line}");
        assert!(out.insert(name, layers).is_none(), "{line}");
    }
    out
}

#[test]
fn the_crates_are_the_layers_architecture_lists() {
    let listed = crate_layers();
    let crates = workspace();
    let names: Vec<&String> = crates.iter().map(|c| &c.name).collect();
    let listed_names: Vec<&String> = listed.keys().collect();
    let mut sorted = names.clone();
    sorted.sort();
    assert_eq!(sorted, listed_names, "the workspace's members");
    // Every layer is held by one crate, but the base: the tokenizer's
    // crate holds only that layer, beside the syntax crate.
    let count = layers().values().max().unwrap() + 1;
    for layer in 0..count {
        let holders: Vec<_> = listed.iter().filter(|(_, r)| r.contains(&layer)).collect();
        if layer == 0 {
            assert!(!holders.is_empty(), "layer 1 is held by no crate");
            let wider: Vec<_> = holders.iter().filter(|(_, r)| r.len() > 1).collect();
            assert!(wider.len() <= 1, "layer 1: {holders:?}");
            continue;
        }
        assert_eq!(holders.len(), 1, "layer {}: {holders:?}", layer + 1);
    }
    // Each crate's own modules are of its layers.
    let layers = layers();
    for c in &crates {
        for module in c.modules() {
            let layer = layers.get(&module).expect("every module is in a layer");
            assert!(
                listed[&c.name].contains(layer),
                "`{module}` (layer {}) is in {}, which holds layers {:?}",
                layer + 1,
                c.name,
                listed[&c.name]
            );
        }
    }
}

#[test]
fn each_crate_depends_only_on_crates_of_lower_layers() {
    let listed = crate_layers();
    let crates = workspace();
    let mut found = Vec::new();
    // Layers above the base are held by one crate each (above), so a
    // dependency below the crate's top layer is below all of it, unless the
    // crate leaves a gap: the root holds the layers on both sides of
    // `cici-ide`'s, and `no_module_uses_a_later_layer` holds its lower ones
    // from it. Of the two base crates, only the syntax one may use the
    // other, whose top layer is lower.
    let top = |name: &String| *listed[name].last().unwrap();
    for c in &crates {
        for dep in c.deps.iter().filter(|d| listed.contains_key(*d)) {
            if top(dep) >= top(&c.name) {
                found.push(format!("{} depends on {dep}", c.name));
            }
        }
    }
    assert!(found.is_empty(), "{}", found.join("\n"));
    // The check sees the workspace's links: the root depends on the rest.
    let top = crates.iter().find(|c| c.dir == root()).unwrap();
    for c in crates.iter().filter(|c| c.dir != root()) {
        assert!(top.deps.contains(&c.name), "cici does not use {}", c.name);
    }
}

/// The layer checks see every crate: each crate's modules are in the
/// graph, and the root's uses of a lower crate's modules, through its
/// re-exports, are edges to them.
#[test]
fn the_graph_reads_every_crate() {
    let g = super::crate_graph();
    let src = root().join("src");
    for c in workspace() {
        let modules = c.modules();
        assert!(!modules.is_empty(), "{} declares no module", c.name);
        for m in &modules {
            assert!(g.modules.contains(&vec![m.clone()]), "{m} of {}", c.name);
        }
        if c.dir == root() {
            continue;
        }
        let used = g
            .edges
            .iter()
            .filter(|e| e.file.starts_with(&src) && modules.contains(&e.to[0]))
            .count();
        assert!(used > 0, "no use of {} from src/ is seen", c.name);
    }
}
