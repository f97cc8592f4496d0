//! What README and the docs say holds: every seed they show checks clean
//! and unique, and the counts README states are the repository's.

use super::common::{check, render, root, source_dirs};

/// Every fenced block of a page that opens with a complete scenario (not
/// the syntax block with `<placeholders>`).
fn seeds_in(page: &str) -> Vec<String> {
    let text = std::fs::read_to_string(root().join(page)).unwrap();
    let mut out = Vec::new();
    let mut in_block = false;
    let mut block = String::new();
    for line in text.lines() {
        if line.starts_with("```") {
            if in_block && block.starts_with("scenario ") && !block.starts_with("scenario <") {
                out.push(std::mem::take(&mut block));
            }
            block.clear();
            in_block = !in_block;
        } else if in_block {
            block.push_str(line);
            block.push('\n');
        }
    }
    out
}

#[test]
fn every_seed_in_readme_and_the_docs_checks_clean_and_unique() {
    let mut seen = 0;
    // The diagnostics reference shows broken seeds on purpose.
    for page in doc_pages().iter().filter(|p| *p != "docs/diagnostics.md") {
        let page = page.as_str();
        for seed in seeds_in(page) {
            let run = check(page, &seed);
            assert_eq!(run.checked.len(), 1, "{page}:\n{}", render(&run));
            assert_eq!(run.errors(), 0, "{page}:\n{}", render(&run));
            assert!(run.checked[0].report.unique, "{page}: {seed}");
            seen += 1;
        }
    }
    // README's one screen, the language reference's three examples beyond
    // the core, its claim example and its three worked examples.
    assert_eq!(seen, 8);
}

/// The pages a user reads, relative to the repository root: README, the
/// language reference, the guides and the editors' page.
fn doc_pages() -> Vec<String> {
    let mut pages = vec![
        "README.md".to_string(),
        "ARCHITECTURE.md".to_string(),
        "docs/language.md".to_string(),
        "docs/diagnostics.md".to_string(),
        "editors/README.md".to_string(),
        "python/README.md".to_string(),
    ];
    let mut guides: Vec<String> = std::fs::read_dir(root().join("docs/guide"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "md"))
        .map(|p| format!("docs/guide/{}", p.file_name().unwrap().to_string_lossy()))
        .collect();
    guides.sort();
    pages.extend(guides);
    pages
}

/// README and the guides, with line breaks and runs of spaces folded: the
/// counts they state are checked wherever they now stand.
fn readme() -> String {
    let mut text = std::fs::read_to_string(root().join("README.md")).unwrap();
    for page in doc_pages().iter().filter(|p| p.starts_with("docs/guide/")) {
        text.push('\n');
        text.push_str(&std::fs::read_to_string(root().join(page)).unwrap());
    }
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

#[test]
fn the_counts_readme_states_are_the_repositorys() {
    let readme = readme();
    let seeds = std::fs::read_dir(root().join("seeds"))
        .unwrap()
        .filter(|e| {
            e.as_ref()
                .unwrap()
                .path()
                .extension()
                .is_some_and(|x| x == "cici")
        })
        .count();
    let words = [
        "zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
        "eleven", "twelve", "thirteen", "fourteen", "fifteen",
    ];
    assert!(
        readme.contains(&format!("`seeds/` has {} worked scenarios", words[seeds])),
        "README should say `seeds/` has {} worked scenarios",
        words[seeds]
    );
    // The release's task-family seeds and their valid configurations, as
    // README lists them (each count is held to the seed by `import.rs`).
    let mut counts = Vec::new();
    for e in std::fs::read_dir(root().join("tests/data/pisas/seeds")).unwrap() {
        let dir = e.unwrap().path();
        if dir.is_dir() {
            let r = cici::pisas::import::pisas_seed(
                &dir.join("seed.json"),
                Some(&dir.join("personal_context_library.json")),
                &cici::pisas::import::SeedOptions {
                    select: cici::pisas::import::build::Select::All,
                    seed: 0,
                    prefix: None,
                },
            );
            counts.push((dir.file_name().unwrap().to_owned(), r.scenarios.len()));
        }
    }
    counts.sort();
    let listed: Vec<String> = counts.iter().map(|(_, n)| n.to_string()).collect();
    assert!(
        readme.contains(&format!(
            "On the {} seeds of the release, every configuration imports ({})",
            words[counts.len()],
            listed.join(", ")
        )),
        "README should list {listed:?}"
    );
}

/// The language reference documents every predicate of the table, with the
/// signature the checker gives in its messages.
#[test]
fn the_reference_documents_every_predicate_with_its_signature() {
    let text = std::fs::read_to_string(root().join("docs/language.md")).unwrap();
    for spec in &cici::sema::PREDICATES {
        let sig = spec.signature();
        // `toward` is documented per family, with `level` or `outcome`.
        let found = text.contains(&format!("| `{sig}`"))
            || (spec.soft_only && text.contains(&format!("| `{}(", spec.name)));
        assert!(found, "docs/language.md has no row for `{sig}`");
    }
}

/// Where a top-level module's sources are: under `src/` of the crate of
/// the workspace that holds it, the file or folder without `.rs`.
fn module_base(module: &str) -> std::path::PathBuf {
    let rel = module.replace("::", "/");
    let roots = source_dirs();
    let top = rel.split('/').next().unwrap();
    let holds = |src: &std::path::PathBuf| {
        src.join(top).is_dir() || src.join(format!("{top}.rs")).is_file()
    };
    let src = roots.iter().find(|s| holds(s));
    src.unwrap_or_else(|| panic!("no crate holds `{module}`"))
        .join(rel)
}

/// ARCHITECTURE.md's stage table names functions that exist.
#[test]
fn the_architecture_names_functions_that_exist() {
    let text = std::fs::read_to_string(root().join("ARCHITECTURE.md")).unwrap();
    let mut seen = 0;
    for line in text
        .lines()
        .filter(|l| l.starts_with("| ") && !l.starts_with("| stage"))
    {
        let Some(last) = line.trim_end_matches('|').rsplit('|').next() else {
            continue;
        };
        for path in last.split('`').skip(1).step_by(2) {
            let (module, name) = path.rsplit_once("::").unwrap();
            let base = module_base(module);
            let file = if base.is_dir() {
                base.join("mod.rs")
            } else {
                base.with_extension("rs")
            };
            let dir = file.parent().unwrap().to_path_buf();
            let found = std::fs::read_dir(&dir).unwrap().any(|e| {
                let p = e.unwrap().path();
                p.extension().is_some_and(|x| x == "rs")
                    && std::fs::read_to_string(&p)
                        .unwrap()
                        .contains(&format!("pub fn {name}("))
            });
            assert!(
                found,
                "ARCHITECTURE.md names `{path}`, which {} does not define",
                dir.display()
            );
            seen += 1;
        }
    }
    assert!(seen >= 10, "{seen}");
}

/// README is a door, not the manual: short, with everything else in the
/// pages it links.
#[test]
fn readme_is_short_and_links_every_guide() {
    let text = std::fs::read_to_string(root().join("README.md")).unwrap();
    let lines = text.lines().count();
    assert!(
        lines <= 300,
        "README.md has {lines} lines; move detail to docs/"
    );
    for page in doc_pages().iter().filter(|p| p.starts_with("docs/guide/")) {
        assert!(
            text.contains(&format!("]({page})")),
            "README.md does not link {page}"
        );
    }
}

/// GitHub's anchor for a heading: lower case, spaces to dashes, and only
/// letters, digits, dashes and underscores kept.
fn anchor(heading: &str) -> String {
    heading
        .trim()
        .to_lowercase()
        .chars()
        .filter_map(|c| match c {
            ' ' => Some('-'),
            c if c.is_alphanumeric() || c == '-' || c == '_' => Some(c),
            _ => None,
        })
        .collect()
}

/// The anchors of a Markdown page's headings, outside code blocks.
fn anchors(text: &str) -> Vec<String> {
    let mut fence = false;
    let mut out = Vec::new();
    for line in text.lines() {
        if line.starts_with("```") {
            fence = !fence;
        } else if !fence && line.starts_with('#') {
            out.push(anchor(line.trim_start_matches('#')));
        }
    }
    out
}

/// Every relative link of every page a user reads names a file that
/// exists, and an anchor names a heading of that file.
#[test]
fn every_relative_link_in_the_docs_resolves() {
    let mut seen = 0;
    for page in doc_pages() {
        let path = root().join(&page);
        let text = std::fs::read_to_string(&path).unwrap();
        for (i, _) in text.match_indices("](") {
            let rest = &text[i + 2..];
            let Some(end) = rest.find(')') else { continue };
            let target = &rest[..end];
            if target.contains("://") || target.starts_with("mailto:") || target.contains(' ') {
                continue;
            }
            let (file, frag) = target.split_once('#').unwrap_or((target, ""));
            let linked = if file.is_empty() {
                path.clone()
            } else {
                path.parent().unwrap().join(file)
            };
            assert!(
                linked.exists(),
                "{page} links {target}, which does not exist"
            );
            if !frag.is_empty() {
                let linked_text = std::fs::read_to_string(&linked).unwrap();
                assert!(
                    anchors(&linked_text).iter().any(|a| a == frag),
                    "{page} links {target}, which has no heading for #{frag}"
                );
            }
            seen += 1;
        }
    }
    assert!(seen >= 20, "only {seen} relative links found");
}
