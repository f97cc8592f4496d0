//! The layer rules ARCHITECTURE.md states, held to the sources: a module
//! reaches a sibling by the sibling's own path, never through its parent's
//! re-exports; the printer reads from no later stage; `counterfactual`
//! does not use `build`.

use std::collections::BTreeMap;

use super::common::{root, rust_files};

/// The names inside `{...}` or the one name after `<prefix>::` of every
/// `use <prefix>::...;` of the file's own module (at the start of a line,
/// so not in an inline `mod tests`), without nested paths.
fn imported(text: &str, prefix: &str) -> Vec<String> {
    let mut out = Vec::new();
    let needle = format!("\nuse {prefix}::");
    for (i, _) in text.match_indices(&needle) {
        let rest = &text[i + needle.len()..];
        let body = &rest[..rest.find(';').unwrap_or(rest.len())];
        let body = body.trim();
        let names: Vec<&str> = match body.strip_prefix('{') {
            Some(inner) => inner.trim_end_matches('}').split(',').collect(),
            None => vec![body],
        };
        out.extend(
            names
                .into_iter()
                .map(|n| n.split(" as ").next().unwrap().trim())
                .filter(|n| !n.is_empty() && !n.contains("::") && !n.contains('{'))
                .map(str::to_string),
        );
    }
    out
}

/// Name to the child module it comes from, for each `pub use child::...`.
fn reexports(text: &str) -> BTreeMap<String, String> {
    let mut out = BTreeMap::new();
    for line in text.split(';') {
        let line = line.trim();
        let Some(rest) = line
            .strip_prefix("pub use ")
            .or_else(|| line.strip_prefix("pub(crate) use "))
        else {
            continue;
        };
        let Some((child, names)) = rest.split_once("::") else {
            continue;
        };
        if child.contains(|c: char| !c.is_ascii_lowercase() && c != '_') || child == "crate" {
            continue;
        }
        for n in names.trim_matches(|c| c == '{' || c == '}').split(',') {
            let n = n.split(" as ").last().unwrap().trim();
            if !n.is_empty() && !n.contains("::") {
                out.insert(n.to_string(), child.to_string());
            }
        }
    }
    out
}

#[test]
fn no_module_reaches_a_sibling_through_its_parents_reexports() {
    let mut found = Vec::new();
    for f in &rust_files(&root().join("src")) {
        let name = f.file_stem().unwrap().to_str().unwrap();
        if matches!(name, "mod" | "lib" | "main") {
            continue;
        }
        let parent = f.with_file_name("mod.rs");
        let parent = if parent.exists() {
            parent
        } else {
            f.parent().unwrap().with_extension("rs")
        };
        let Ok(parent_text) = std::fs::read_to_string(&parent) else {
            continue;
        };
        let via = reexports(&parent_text);
        for n in imported(&std::fs::read_to_string(f).unwrap(), "super") {
            if via.get(&n).is_some_and(|child| child != name) {
                found.push(format!("{}: `{n}` from `{}`", f.display(), via[&n]));
            }
        }
    }
    assert!(found.is_empty(), "reached through a parent: {found:#?}");
}

#[test]
fn the_printer_and_counterfactual_use_no_later_stage() {
    let later = [
        "crate::analysis",
        "crate::export",
        "crate::counterfactual",
        "crate::build",
    ];
    let mut found = Vec::new();
    for f in &rust_files(&root().join("src/printer")) {
        let text = std::fs::read_to_string(f).unwrap();
        found.extend(
            later
                .iter()
                .filter(|l| text.contains(*l))
                .map(|l| format!("{}: {l}", f.display())),
        );
    }
    for f in &rust_files(&root().join("src/counterfactual")) {
        let text = std::fs::read_to_string(f).unwrap();
        if text.contains("crate::build::") || text.contains("crate::build;") {
            found.push(format!("{}: crate::build", f.display()));
        }
    }
    assert!(found.is_empty(), "{found:#?}");
}

/// Each module of `src/` by its path (`analysis::mentions`), with its code
/// without comment lines.
fn modules() -> BTreeMap<String, String> {
    let src = root().join("src");
    let mut out = BTreeMap::new();
    for f in rust_files(&src) {
        let rel = f.strip_prefix(&src).unwrap().with_extension("");
        let mut parts: Vec<String> = rel.iter().map(|p| p.to_string_lossy().into()).collect();
        if parts.last().is_some_and(|p| p == "mod") {
            parts.pop();
        }
        let code: Vec<String> = std::fs::read_to_string(&f)
            .unwrap()
            .lines()
            .filter(|l| !l.trim_start().starts_with("//"))
            .map(str::to_string)
            .collect();
        out.insert(parts.join("::"), code.join("\n"));
    }
    out
}

/// The modules a module's code names by `crate::` or `super::` paths.
fn uses(name: &str, code: &str, known: &BTreeMap<String, String>) -> Vec<String> {
    let parent: Vec<&str> = name.split("::").collect();
    let parent = &parent[..parent.len().saturating_sub(1)];
    let mut out = Vec::new();
    for start in ["crate::", "super::"] {
        for (i, _) in code.match_indices(start) {
            if code[..i].ends_with(|c: char| c.is_alphanumeric() || c == '_' || c == ':') {
                continue;
            }
            let path: String = code[i..]
                .chars()
                .take_while(|c| {
                    c.is_ascii_lowercase() || c.is_ascii_digit() || *c == '_' || *c == ':'
                })
                .collect();
            let mut segs: Vec<&str> = path.split("::").filter(|s| !s.is_empty()).collect();
            let mut base: Vec<&str> = if segs[0] == "crate" {
                segs.remove(0);
                Vec::new()
            } else {
                segs.remove(0);
                parent.to_vec()
            };
            while segs.first() == Some(&"super") {
                segs.remove(0);
                base.pop();
            }
            base.extend(segs);
            while !base.is_empty() && !known.contains_key(&base.join("::")) {
                base.pop();
            }
            let found = base.join("::");
            if !found.is_empty() && found != name {
                out.push(found);
            }
        }
    }
    out
}

#[test]
fn no_two_sibling_modules_use_each_other() {
    let known = modules();
    let deps: BTreeMap<&String, Vec<String>> = known
        .iter()
        .map(|(name, code)| (name, uses(name, code, &known)))
        .collect();
    let mut found = Vec::new();
    for (a, ds) in &deps {
        for b in ds {
            let nested = b.starts_with(&format!("{a}::")) || a.starts_with(&format!("{b}::"));
            if a.as_str() < b.as_str() && !nested && deps[b].contains(a) {
                found.push(format!("{a} <-> {b}"));
            }
        }
    }
    found.sort();
    found.dedup();
    assert!(found.is_empty(), "modules that use each other: {found:#?}");
}
