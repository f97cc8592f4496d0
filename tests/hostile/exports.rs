//! What `export pisas` and `export inspect` may write or delete: through
//! the same contained, journalled, atomic path as `build`, with a manifest
//! of their own, so that a rerun prunes what they no longer produce,
//! `--check` sees it, a killed run leaves nothing behind, and no file
//! they did not write (or that stands behind a symlink) is touched.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

use super::files::{cici_in, text_of};
use crate::it::common::{root, tempdir, TempDir};

/// Each export, with a file it writes in every scenario's folder.
const EXPORTS: [(&str, &str); 2] = [("pisas", "scenario.json"), ("inspect", "environment.json")];

/// A folder with two seeds under `seeds/`.
fn two_seeds(name: &str) -> TempDir {
    let dir = tempdir(name);
    std::fs::create_dir_all(dir.join("seeds")).unwrap();
    for (from, to) in [("ops_scheduling", "ops"), ("payments_sprint", "pay")] {
        std::fs::copy(
            root().join(format!("seeds/{from}.cici")),
            dir.join(format!("seeds/{to}.cici")),
        )
        .unwrap();
    }
    dir
}

fn export(dir: &Path, kind: &str, extra: &[&str]) -> Output {
    let mut args = vec!["export", kind, "seeds", "--out", "x"];
    args.extend(extra);
    cici_in(dir, &args)
}

/// Every regular file under `dir` by its relative path (symlinks are
/// neither followed nor listed).
pub(super) fn tree(dir: &Path) -> BTreeMap<String, Vec<u8>> {
    let mut out = BTreeMap::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&d) else {
            continue;
        };
        for e in entries {
            let e = e.unwrap();
            let kind = e.file_type().unwrap();
            if kind.is_dir() {
                stack.push(e.path());
            } else if kind.is_file() {
                let rel = e.path().strip_prefix(dir).unwrap().to_path_buf();
                out.insert(
                    rel.to_string_lossy().replace('\\', "/"),
                    std::fs::read(e.path()).unwrap(),
                );
            }
        }
    }
    out
}

fn temporaries(dir: &Path) -> Vec<String> {
    tree(dir)
        .into_keys()
        .filter(|p| p.rsplit('/').next().unwrap().starts_with(".cici-tmp-"))
        .collect()
}

#[cfg(unix)]
#[test]
fn an_export_never_writes_through_a_symlinked_scenario_folder_or_file() {
    for (kind, file) in EXPORTS {
        let dir = two_seeds(&format!("exp-link-{kind}"));
        let elsewhere = dir.join("elsewhere");
        std::fs::create_dir_all(&elsewhere).unwrap();
        std::fs::write(elsewhere.join(file), "precious").unwrap();
        std::fs::create_dir_all(dir.join("x")).unwrap();
        // The scenario's folder is a link out of the output folder.
        std::os::unix::fs::symlink(&elsewhere, dir.join("x/ops_scheduling")).unwrap();
        let out = export(&dir, kind, &[]);
        assert_eq!(out.status.code(), Some(2), "{kind}: {}", text_of(&out));
        assert!(
            text_of(&out).contains("symlink"),
            "{kind}: {}",
            text_of(&out)
        );
        assert_eq!(
            std::fs::read_to_string(elsewhere.join(file)).unwrap(),
            "precious",
            "{kind}"
        );
        assert!(!dir.join("x/payments_sprint").exists(), "{kind}");
        // A file of the scenario is a link out of the output folder.
        std::fs::remove_file(dir.join("x/ops_scheduling")).unwrap();
        std::fs::create_dir_all(dir.join("x/ops_scheduling")).unwrap();
        std::os::unix::fs::symlink(
            elsewhere.join(file),
            dir.join("x/ops_scheduling").join(file),
        )
        .unwrap();
        let out = export(&dir, kind, &[]);
        assert_eq!(out.status.code(), Some(2), "{kind}: {}", text_of(&out));
        assert!(
            text_of(&out).contains("symlink"),
            "{kind}: {}",
            text_of(&out)
        );
        assert_eq!(
            std::fs::read_to_string(elsewhere.join(file)).unwrap(),
            "precious",
            "{kind}"
        );
        assert!(
            std::fs::symlink_metadata(dir.join("x/ops_scheduling").join(file))
                .unwrap()
                .is_symlink(),
            "{kind}"
        );
    }
}

#[test]
fn a_removed_scenario_is_stale_then_pruned_and_foreign_files_stay() {
    for (kind, file) in EXPORTS {
        let dir = two_seeds(&format!("exp-prune-{kind}"));
        let out = export(&dir, kind, &[]);
        assert!(out.status.success(), "{kind}: {}", text_of(&out));
        let foreign = [
            "x/notes.txt",
            "x/payments_sprint/mine.txt",
            "x/.cici-tmp-mine",
        ];
        for f in foreign {
            std::fs::write(dir.join(f), "mine").unwrap();
        }
        let check = export(&dir, kind, &["--check"]);
        assert!(check.status.success(), "{kind}: {}", text_of(&check));
        std::fs::remove_file(dir.join("seeds/pay.cici")).unwrap();
        // The scenario is gone from the input: its files are stale.
        let check = export(&dir, kind, &["--check"]);
        assert_eq!(check.status.code(), Some(1), "{kind}: {}", text_of(&check));
        let stale = format!("payments_sprint/{file}");
        assert!(
            text_of(&check).contains(&stale),
            "{kind}: {}",
            text_of(&check)
        );
        let out = export(&dir, kind, &[]);
        assert!(out.status.success(), "{kind}: {}", text_of(&out));
        assert!(
            !text_of(&out).contains(" 0 removed"),
            "{kind}: {}",
            text_of(&out)
        );
        assert!(!dir.join("x").join(&stale).exists(), "{kind}");
        assert!(dir.join(format!("x/ops_scheduling/{file}")).is_file());
        for f in foreign {
            assert_eq!(
                std::fs::read_to_string(dir.join(f)).unwrap(),
                "mine",
                "{kind}: {f}"
            );
        }
        let check = export(&dir, kind, &["--check"]);
        assert!(check.status.success(), "{kind}: {}", text_of(&check));
    }
}

/// Seeds enough that an export is still writing when it is killed.
fn many_seeds(dir: &Path) {
    std::fs::create_dir_all(dir.join("seeds")).unwrap();
    for i in 0..150u64 {
        let family = cici::sema::Family::ALL[(i % 3) as usize];
        let sc = cici::planted::generate(&cici::planted::Config::pisas(family, i));
        std::fs::write(
            dir.join(format!("seeds/s{i}.cici")),
            cici::printer::print(&sc),
        )
        .unwrap();
    }
}

/// Starts an export into `x`, waits for the first thing it writes there
/// (its journal, or that journal's temporary), lets it write `delay`
/// longer and kills it.
fn kill_export(dir: &Path, kind: &str, delay: Duration) {
    let out = dir.join("x");
    let mut child = Command::new(env!("CARGO_BIN_EXE_cici"))
        .args(["export", kind, "seeds", "--out", "x"])
        .current_dir(dir)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let started = Instant::now();
    while std::fs::read_dir(&out).map_or(true, |mut d| d.next().is_none())
        && child.try_wait().unwrap().is_none()
        && started.elapsed() < Duration::from_secs(60)
    {
        std::thread::sleep(Duration::from_millis(1));
    }
    std::thread::sleep(delay);
    let _ = child.kill();
    let _ = child.wait();
}

#[test]
fn a_killed_export_is_completed_by_the_next_and_leaves_no_temporary() {
    let dir = tempdir("exp-kill");
    many_seeds(&dir);
    for (kind, _) in EXPORTS {
        // What an export that is not interrupted writes.
        let fresh = format!("fresh-{kind}");
        let out = cici_in(&dir, &["export", kind, "seeds", "--out", &fresh]);
        assert!(out.status.success(), "{kind}: {}", text_of(&out));
        let expected = tree(&dir.join(&fresh));
        let mut caught = 0;
        for delay_ms in [0u64, 2, 10, 40] {
            let _ = std::fs::remove_dir_all(dir.join("x"));
            kill_export(&dir, kind, Duration::from_millis(delay_ms));
            // Whatever stands is complete, or a temporary or the journal.
            for (path, bytes) in tree(&dir.join("x")) {
                let name = path.rsplit('/').next().unwrap();
                if name.starts_with(".cici-tmp-") || name == cici::build::JOURNAL {
                    continue;
                }
                assert_eq!(Some(&bytes), expected.get(&path), "{kind}: {path}");
            }
            if !dir.join("x").join(cici::build::EXPORT_MANIFEST).exists() {
                caught += 1;
            }
            let check = export(&dir, kind, &["--check"]);
            if !dir.join("x").join(cici::build::EXPORT_MANIFEST).exists() {
                assert_eq!(check.status.code(), Some(1), "{kind}: {}", text_of(&check));
            }
            let out = export(&dir, kind, &[]);
            assert!(out.status.success(), "{kind}: {}", text_of(&out));
            assert_eq!(temporaries(&dir.join("x")), Vec::<String>::new(), "{kind}");
            assert_eq!(tree(&dir.join("x")), expected, "{kind} after {delay_ms} ms");
            let check = export(&dir, kind, &["--check"]);
            assert!(check.status.success(), "{kind}: {}", text_of(&check));
        }
        assert!(
            caught > 0,
            "{kind}: every export finished before it was killed"
        );
    }
}

#[test]
fn an_export_of_nothing_is_an_error_with_a_code() {
    let dir = tempdir("exp-empty");
    std::fs::create_dir_all(dir.join("empty")).unwrap();
    for (kind, _) in EXPORTS {
        let out = cici_in(&dir, &["export", kind, "empty", "--out", "x"]);
        assert_eq!(out.status.code(), Some(2), "{kind}: {}", text_of(&out));
        let text = text_of(&out);
        assert!(
            text.contains("cici::export::no_seeds") && text.contains("help:"),
            "{kind}: {text}"
        );
        assert!(!dir.join("x").exists(), "{kind}");
    }
    // Seeds that all have errors: nothing is exported, exit 1.
    std::fs::write(dir.join("empty/bad.cici"), "scenario broken {\n").unwrap();
    for (kind, _) in EXPORTS {
        let out = cici_in(&dir, &["export", kind, "empty", "--out", "x"]);
        assert_eq!(out.status.code(), Some(1), "{kind}: {}", text_of(&out));
        assert!(
            text_of(&out).contains("cici::export::all_errors"),
            "{kind}: {}",
            text_of(&out)
        );
        assert!(!dir.join("x").exists(), "{kind}");
    }
}

/// Where each command keeps its manifest.
fn manifest_of(kind: &str) -> PathBuf {
    PathBuf::from(if kind == "build" {
        cici::build::MANIFEST
    } else {
        cici::build::EXPORT_MANIFEST
    })
}

#[test]
fn an_export_into_another_commands_folder_removes_nothing() {
    let dir = two_seeds("exp-cross");
    let out = cici_in(&dir, &["build", "seeds", "--out", "x"]);
    assert!(out.status.success(), "{}", text_of(&out));
    let before = tree(&dir.join("x"));
    for (kind, _) in EXPORTS {
        let out = export(&dir, kind, &[]);
        assert_eq!(out.status.code(), Some(2), "{kind}: {}", text_of(&out));
        let text = text_of(&out);
        assert!(
            text.contains("cici::build::other_inputs") && text.contains("--force"),
            "{kind}: {text}"
        );
        assert_eq!(tree(&dir.join("x")), before, "{kind}");
        assert!(!dir.join("x").join(manifest_of(kind)).exists());
    }
}
