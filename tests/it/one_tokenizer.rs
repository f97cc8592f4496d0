//! Text becomes words in one place: `cici-text`'s `words` module
//! (ARCHITECTURE.md, "Code map"). This scans the workspace's sources
//! (`crates/*/src` and `src/`) for a word split of their own and fails on
//! any outside `cici-text` that the allow-list below does not explain.

use std::path::{Path, PathBuf};

/// What splits a text into words, or tests a character for being part of
/// one: each is `cici-text`'s to use.
const SPLITTERS: &[&str] = &[
    "split_whitespace",
    "split_ascii_whitespace",
    "unicode_words",
    "unicode_word_indices",
    "split_word_bounds",
    "is_alphanumeric",
];

/// Uses that read something other than words: (file, what it calls, why).
const ALLOWED: &[(&str, &str, &str)] = &[
    (
        "crates/cici-syntax/src/syntax/recover.rs",
        "is_alphanumeric",
        "the grammar's identifier characters (letters, digits, `_`), to find where a \
         statement's keyword and name end in broken text",
    ),
    (
        "crates/cici-ide/src/authoring/fixit/mod.rs",
        "is_alphanumeric",
        "whether a fix's text ends in an identifier character of the grammar",
    ),
    (
        "crates/cici-ide/src/authoring/lsp/complete.rs",
        "split_whitespace",
        "the keyword that opens a block on a line of the document being edited",
    ),
];

/// The word splits in one file's text: `file:line: splitter`, comments
/// left out.
fn splits_in(file: &str, text: &str) -> Vec<(String, &'static str)> {
    let mut out = Vec::new();
    for (n, line) in text.lines().enumerate() {
        if line.trim_start().starts_with("//") {
            continue;
        }
        for s in SPLITTERS.iter().filter(|s| line.contains(**s)) {
            out.push((format!("{file}:{}", n + 1), *s));
        }
    }
    out
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for e in entries.flatten() {
        let p = e.path();
        if p.is_dir() {
            rust_files(&p, out);
        } else if p.extension().is_some_and(|x| x == "rs") {
            out.push(p);
        }
    }
}

/// Every source file of the workspace but the tokenizer's, by its path
/// from the repository's root.
fn sources() -> Vec<(String, String)> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    rust_files(&root.join("src"), &mut files);
    for c in std::fs::read_dir(root.join("crates")).unwrap().flatten() {
        if c.file_name() != "cici-text" {
            rust_files(&c.path().join("src"), &mut files);
        }
    }
    files.sort();
    files
        .into_iter()
        .map(|p| {
            let rel = p
                .strip_prefix(root)
                .unwrap()
                .to_string_lossy()
                .replace('\\', "/");
            (rel, std::fs::read_to_string(&p).unwrap())
        })
        .collect()
}

/// The splits the allow-list does not explain.
fn unexplained(files: &[(String, String)]) -> Vec<String> {
    let mut out = Vec::new();
    for (file, text) in files {
        for (at, s) in splits_in(file, text) {
            if !ALLOWED.iter().any(|(f, a, _)| f == file && *a == s) {
                out.push(format!("{at}: {s}"));
            }
        }
    }
    out
}

#[test]
fn no_source_splits_text_into_words_outside_the_tokenizer() {
    let files = sources();
    assert!(files.len() > 100, "the scan sees {} files", files.len());
    let found = unexplained(&files);
    assert!(
        found.is_empty(),
        "split words with `cici_text::words`, or add to ALLOWED why this is not about words:\n{}",
        found.join("\n")
    );
    // Each allowed use is still there: the list shrinks as uses go.
    for (file, s, why) in ALLOWED {
        assert!(!why.is_empty());
        let text = &files.iter().find(|(f, _)| f == file).unwrap().1;
        assert!(
            !splits_in(file, text).is_empty(),
            "{file} no longer calls {s}"
        );
    }
}

#[test]
fn the_scan_finds_a_planted_split() {
    let planted = "fn f(t: &str) -> usize {\n    // split_whitespace in a comment is fine\n    \
                   t.split(|c: char| !c.is_alphanumeric()).count()\n        \
                   + t.split_whitespace().count()\n}\n";
    let files = [(
        "crates/cici-core/src/planted.rs".to_string(),
        planted.to_string(),
    )];
    assert_eq!(
        unexplained(&files),
        [
            "crates/cici-core/src/planted.rs:3: is_alphanumeric",
            "crates/cici-core/src/planted.rs:4: split_whitespace"
        ]
    );
    // An allowed file is allowed only the splitter its entry names.
    let allowed = [(
        "crates/cici-syntax/src/syntax/recover.rs".to_string(),
        "let a = t.take_while(|c| c.is_alphanumeric());\nlet b = t.split_whitespace();\n"
            .to_string(),
    )];
    assert_eq!(
        unexplained(&allowed),
        ["crates/cici-syntax/src/syntax/recover.rs:2: split_whitespace"]
    );
}
