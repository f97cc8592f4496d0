//! What cici may delete or write in an output folder: only its own files,
//! known by a signature, never a user's for its name, never through a
//! symlink, and never twice at once.

use std::path::Path;
use std::process::Command;

use super::files::{cici_in, text_of};

/// A folder with one seed under `seeds/`.
fn workspace(name: &str) -> crate::it::common::TempDir {
    super::files::workspace(name).0
}

#[test]
fn another_tools_file_list_named_manifest_json_deletes_nothing() {
    let dir = workspace("out-foreign-list");
    std::fs::create_dir_all(dir.join("p")).unwrap();
    std::fs::write(dir.join("p/notes.txt"), "mine").unwrap();
    std::fs::write(dir.join("p/manifest.json"), r#"["notes.txt"]"#).unwrap();
    let out = cici_in(&dir, &["build", "seeds", "--out", "p"]);
    assert_eq!(out.status.code(), Some(2), "{}", text_of(&out));
    assert!(text_of(&out).contains("manifest.json was not written by cici"));
    assert_eq!(
        std::fs::read_to_string(dir.join("p/notes.txt")).unwrap(),
        "mine"
    );
}

#[test]
fn a_planted_journal_is_refused_by_name_and_nothing_it_lists_is_pruned() {
    let dir = workspace("out-planted-journal");
    let out = cici_in(&dir, &["build", "seeds", "--out", "p"]);
    assert!(out.status.success(), "{}", text_of(&out));
    std::fs::write(dir.join("p/notes.txt"), "mine").unwrap();
    for planted in [
        r#"["notes.txt"]"#.to_string(),
        // Its shape, with a signature that does not hold.
        r#"{"format":"cici-journal/1","token":"0123456789abcdef","files":["notes.txt"],"digest":"00"}"#
            .to_string(),
    ] {
        std::fs::write(dir.join("p/.cici-journal.json"), &planted).unwrap();
        let out = cici_in(&dir, &["build", "seeds", "--out", "p"]);
        assert_eq!(out.status.code(), Some(2), "{}", text_of(&out));
        assert!(text_of(&out).contains(".cici-journal.json"), "{}", text_of(&out));
        assert_eq!(std::fs::read_to_string(dir.join("p/notes.txt")).unwrap(), "mine");
    }
}

#[test]
fn a_user_file_named_like_a_temporary_is_never_removed() {
    let dir = workspace("out-tmp-name");
    let out = cici_in(&dir, &["build", "seeds", "--out", "p"]);
    assert!(out.status.success(), "{}", text_of(&out));
    for f in ["p/.cici-tmp-mine", "p/ops_scheduling/.cici-tmp-draft.md"] {
        std::fs::write(dir.join(f), "mine").unwrap();
    }
    let out = cici_in(&dir, &["build", "seeds", "--out", "p"]);
    assert!(out.status.success(), "{}", text_of(&out));
    for f in ["p/.cici-tmp-mine", "p/ops_scheduling/.cici-tmp-draft.md"] {
        assert_eq!(std::fs::read_to_string(dir.join(f)).unwrap(), "mine", "{f}");
    }
}

#[cfg(unix)]
fn fifo(path: &Path) {
    let made = Command::new("mkfifo").arg(path).status().unwrap();
    assert!(made.success());
}

#[cfg(unix)]
#[test]
fn a_fifo_at_the_journal_is_refused_without_blocking() {
    let dir = workspace("out-fifo-journal");
    let out = cici_in(&dir, &["build", "seeds", "--out", "p"]);
    assert!(out.status.success(), "{}", text_of(&out));
    fifo(&dir.join("p/.cici-journal.json"));
    let out = cici_in(&dir, &["build", "seeds", "--out", "p"]);
    assert_eq!(out.status.code(), Some(2), "{}", text_of(&out));
    assert!(
        text_of(&out).contains("not a regular file"),
        "{}",
        text_of(&out)
    );
}

#[cfg(unix)]
#[test]
fn counterfactual_inputs_that_are_fifos_are_refused_without_blocking() {
    let dir = workspace("out-fifo-inputs");
    fifo(&dir.join("batch.jsonl"));
    fifo(&dir.join("cici.yaml"));
    let out = cici_in(
        &dir,
        &[
            "counterfactual",
            "seeds",
            "--out",
            "cf",
            "--config",
            "cici.yaml",
        ],
    );
    assert_eq!(out.status.code(), Some(2), "{}", text_of(&out));
    assert!(
        text_of(&out).contains("not a regular file"),
        "{}",
        text_of(&out)
    );
    let out = cici_in(
        &dir,
        &[
            "counterfactual",
            "seeds",
            "--out",
            "cf",
            "--generator",
            "llm",
            "--ingest-batch",
            "batch.jsonl",
        ],
    );
    assert_eq!(out.status.code(), Some(2), "{}", text_of(&out));
    assert!(
        text_of(&out).contains("not a regular file"),
        "{}",
        text_of(&out)
    );
}

#[cfg(unix)]
#[test]
fn counterfactual_never_writes_through_a_symlink_in_its_folder() {
    let dir = workspace("out-cf-symlink");
    let outside = dir.join("outside.jsonl");
    std::fs::write(&outside, "precious\nno newline at the end").unwrap();
    std::fs::create_dir_all(dir.join("cf/decision")).unwrap();
    std::os::unix::fs::symlink(&outside, dir.join("cf/decision/train.jsonl")).unwrap();
    let out = cici_in(
        &dir,
        &["counterfactual", "seeds", "--out", "cf", "--per-seed", "1"],
    );
    assert_eq!(out.status.code(), Some(2), "{}", text_of(&out));
    assert!(text_of(&out).contains("symlink"), "{}", text_of(&out));
    assert_eq!(
        std::fs::read_to_string(&outside).unwrap(),
        "precious\nno newline at the end"
    );
}

#[test]
fn two_counterfactual_runs_into_one_folder_write_each_row_once() {
    let dir = workspace("out-cf-concurrent");
    let args = ["counterfactual", "seeds", "--out", "cf", "--per-seed", "2"];
    let spawn = || {
        Command::new(env!("CARGO_BIN_EXE_cici"))
            .current_dir(&dir)
            .args(args)
            .output()
    };
    let (a, b) = std::thread::scope(|s| {
        let a = s.spawn(spawn);
        let b = s.spawn(spawn);
        (a.join().unwrap().unwrap(), b.join().unwrap().unwrap())
    });
    assert!(
        a.status.success() && b.status.success(),
        "{}{}",
        text_of(&a),
        text_of(&b)
    );
    for file in ["decision/train.jsonl", "flow/train.jsonl"] {
        let text = std::fs::read_to_string(dir.join("cf").join(file)).unwrap();
        let ids: Vec<String> = text
            .lines()
            .map(|l| serde_json::from_str::<serde_json::Value>(l).unwrap()["id"].to_string())
            .collect();
        let distinct: std::collections::BTreeSet<&String> = ids.iter().collect();
        assert_eq!(ids.len(), distinct.len(), "{file} holds a row twice");
    }
    // A file that already holds a row twice (as two unlocked runs once
    // wrote) loses the duplicate on resume, and the card counts it once.
    let path = dir.join("cf/decision/train.jsonl");
    let text = std::fs::read_to_string(&path).unwrap();
    let first = text.lines().next().unwrap().to_string();
    std::fs::write(&path, format!("{text}{first}\n")).unwrap();
    let out = cici_in(&dir, &args);
    assert!(out.status.success(), "{}", text_of(&out));
    assert!(
        text_of(&out).contains("0 triplets written"),
        "{}",
        text_of(&out)
    );
    assert_eq!(std::fs::read_to_string(&path).unwrap(), text);
}

#[test]
fn building_other_seeds_into_the_seeds_build_removes_nothing_and_names_out() {
    let dir = workspace("out-other-inputs");
    std::fs::create_dir_all(dir.join("other")).unwrap();
    std::fs::copy(
        crate::it::common::root().join("seeds/payments_sprint.cici"),
        dir.join("other/pay.cici"),
    )
    .unwrap();
    // `seeds/` into the default `generated/`, then another folder without
    // --out: the same folder.
    let out = cici_in(&dir, &["build"]);
    assert!(out.status.success(), "{}", text_of(&out));
    let before = super::exports::tree(&dir.join("generated"));
    let out = cici_in(&dir, &["build", "other"]);
    assert_eq!(out.status.code(), Some(2), "{}", text_of(&out));
    let text = text_of(&out);
    assert!(
        text.contains("cici::build::other_inputs")
            && text.contains("--out")
            && text.contains("--force"),
        "{text}"
    );
    assert_eq!(super::exports::tree(&dir.join("generated")), before);
    let check = cici_in(&dir, &["build", "other", "--check"]);
    assert_eq!(check.status.code(), Some(1), "{}", text_of(&check));
    let check = cici_in(&dir, &["build", "--check"]);
    assert!(check.status.success(), "{}", text_of(&check));
    // Elsewhere, the other folder builds; forced, it replaces the build.
    let out = cici_in(&dir, &["build", "other", "--out", "elsewhere"]);
    assert!(out.status.success(), "{}", text_of(&out));
    std::fs::write(dir.join("generated/notes.txt"), "mine").unwrap();
    let out = cici_in(&dir, &["build", "other", "--force"]);
    assert!(out.status.success(), "{}", text_of(&out));
    assert!(!dir.join("generated/ops_scheduling").exists());
    assert!(dir
        .join("generated/payments_sprint/scenario.json")
        .is_file());
    assert_eq!(
        std::fs::read_to_string(dir.join("generated/notes.txt")).unwrap(),
        "mine"
    );
}
