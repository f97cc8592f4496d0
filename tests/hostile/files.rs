//! Files: the manifest as untrusted input, non-regular inputs, files kept
//! as they were, concurrent and interrupted builds, number bounds.

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

use crate::it::common::{root, tempdir};

/// Runs the binary in `dir` and gives up (failing the test) after 60 s:
/// a hang is a failure here, never a stuck suite. Its output is read while
/// it runs, so a long diff never fills the pipe and stalls it.
pub(crate) fn cici_in(dir: &Path, args: &[&str]) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_cici"))
        .args(args)
        .current_dir(dir)
        .env("NO_COLOR", "1")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary runs");
    let drain = |mut pipe: Box<dyn std::io::Read + Send>| {
        std::thread::spawn(move || {
            let mut bytes = Vec::new();
            let _ = pipe.read_to_end(&mut bytes);
            bytes
        })
    };
    let stdout = drain(Box::new(child.stdout.take().unwrap()));
    let stderr = drain(Box::new(child.stderr.take().unwrap()));
    let start = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        if start.elapsed() > Duration::from_secs(60) {
            let _ = child.kill();
            panic!("cici {args:?} did not finish within 60 s");
        }
        std::thread::sleep(Duration::from_millis(10));
    };
    Output {
        status,
        stdout: stdout.join().unwrap(),
        stderr: stderr.join().unwrap(),
    }
}

pub(super) fn text_of(o: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    )
}

/// A folder with one seed in `seeds/`, and the path of the seed.
pub(super) fn workspace(name: &str) -> (crate::it::common::TempDir, PathBuf) {
    let dir = tempdir(name);
    std::fs::create_dir_all(dir.join("seeds")).unwrap();
    let seed = dir.join("seeds/ops.cici");
    std::fs::copy(root().join("seeds/ops_scheduling.cici"), &seed).unwrap();
    (dir, seed)
}

/// Adds entries to a manifest. Signed again (as anyone can, the digest is
/// no secret) unless `sign` is false, when the edit breaks the signature.
fn add_to_manifest(manifest: &Path, extra: &[&str], sign: bool) {
    let mut json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(manifest).unwrap()).unwrap();
    let files = json["files"].as_array_mut().unwrap();
    for e in extra {
        files.push(serde_json::json!(e));
    }
    if sign {
        let files: Vec<String> = serde_json::from_value(json["files"].clone()).unwrap();
        let origin = cici::build::Origin {
            command: json["command"].as_str().unwrap().into(),
            inputs: serde_json::from_value(json["inputs"].clone()).unwrap(),
        };
        let signed = cici::build::Manifest::new(&origin, files);
        std::fs::write(manifest, signed.text()).unwrap();
    } else {
        std::fs::write(manifest, serde_json::to_string(&json).unwrap()).unwrap();
    }
}

#[test]
fn a_build_never_removes_a_file_outside_its_folder() {
    let (dir, _) = workspace("hostile-prune");
    let victim = dir.join("victim.txt");
    let outside = tempdir("hostile-prune-abs");
    let absolute = outside.join("secret.txt");
    let nested = outside.join("sub/inner.txt");
    std::fs::write(&victim, "keep me").unwrap();
    std::fs::write(&absolute, "keep me too").unwrap();
    std::fs::create_dir_all(nested.parent().unwrap()).unwrap();
    std::fs::write(&nested, "and me").unwrap();
    let out = cici_in(&dir, &["build", "seeds", "--out", "p"]);
    assert!(out.status.success(), "{}", text_of(&out));
    // A symlink inside the folder that leads out of it.
    #[cfg(unix)]
    std::os::unix::fs::symlink(&outside, dir.join("p/escape")).unwrap();
    add_to_manifest(
        &dir.join("p/manifest.json"),
        &[
            "../victim.txt",
            absolute.to_str().unwrap(),
            "ops_scheduling/../../victim.txt",
            "escape/sub/inner.txt",
            "escape",
        ],
        true,
    );
    let out = cici_in(&dir, &["build", "seeds", "--out", "p"]);
    assert!(out.status.success(), "{}", text_of(&out));
    assert!(text_of(&out).contains("0 removed"), "{}", text_of(&out));
    // An edit that does not sign again is a foreign manifest: refused by
    // name, nothing removed.
    add_to_manifest(&dir.join("p/manifest.json"), &["../victim.txt"], false);
    let out = cici_in(&dir, &["build", "seeds", "--out", "p"]);
    assert_eq!(out.status.code(), Some(2), "{}", text_of(&out));
    assert!(text_of(&out).contains("manifest.json was not written by cici"));
    assert_eq!(std::fs::read_to_string(&victim).unwrap(), "keep me");
    assert_eq!(std::fs::read_to_string(&absolute).unwrap(), "keep me too");
    assert_eq!(std::fs::read_to_string(&nested).unwrap(), "and me");
}

#[test]
fn build_check_never_prints_a_file_outside_its_folder() {
    let (dir, _) = workspace("hostile-check");
    let secret_dir = tempdir("hostile-check-secret");
    let secret = secret_dir.join("secret.txt");
    std::fs::write(&secret, "TOP-SECRET-CONTENT").unwrap();
    std::fs::write(dir.join("outside.txt"), "ALSO-SECRET").unwrap();
    let out = cici_in(&dir, &["build", "seeds", "--out", "p"]);
    assert!(out.status.success(), "{}", text_of(&out));
    add_to_manifest(
        &dir.join("p/manifest.json"),
        &[secret.to_str().unwrap(), "../outside.txt"],
        true,
    );
    // A planned output replaced by a link to the secret is not read either.
    let brief = dir.join("p/ops_scheduling/brief.md");
    std::fs::remove_file(&brief).unwrap();
    #[cfg(unix)]
    std::os::unix::fs::symlink(&secret, &brief).unwrap();
    let out = cici_in(&dir, &["build", "seeds", "--out", "p", "--check"]);
    let shown = text_of(&out);
    assert!(!shown.contains("TOP-SECRET-CONTENT"), "{shown}");
    assert!(!shown.contains("ALSO-SECRET"), "{shown}");
    assert_eq!(out.status.code(), Some(1), "{shown}");
}

#[test]
fn a_foreign_manifest_is_refused_not_overwritten() {
    let (dir, _) = workspace("hostile-foreign");
    std::fs::create_dir_all(dir.join("p")).unwrap();
    let foreign = r#"{"name": "some-web-app", "version": "1.0"}"#;
    std::fs::write(dir.join("p/manifest.json"), foreign).unwrap();
    let out = cici_in(&dir, &["build", "seeds", "--out", "p"]);
    assert_eq!(out.status.code(), Some(2), "{}", text_of(&out));
    assert!(
        text_of(&out).contains("not written by cici"),
        "{}",
        text_of(&out)
    );
    assert_eq!(
        std::fs::read_to_string(dir.join("p/manifest.json")).unwrap(),
        foreign
    );
}

#[test]
fn the_files_of_a_killed_build_are_pruned_by_the_next() {
    let (dir, _) = workspace("hostile-journal");
    let out = cici_in(&dir, &["build", "seeds", "--out", "p"]);
    assert!(out.status.success(), "{}", text_of(&out));
    // What a build of a larger seed set, killed before its manifest, leaves:
    // the journal it wrote first, and files the manifest does not list.
    let orphan = dir.join("p/other_scenario/brief.md");
    std::fs::create_dir_all(orphan.parent().unwrap()).unwrap();
    std::fs::write(&orphan, "half a build").unwrap();
    cici::io::journal::Journal::with_origin(
        vec!["build".into(), "../seeds".into()],
        vec![
            "other_scenario/brief.md".into(),
            "ops_scheduling/brief.md".into(),
        ],
    )
    .write(&dir.join("p"))
    .unwrap();
    let check = cici_in(&dir, &["build", "seeds", "--out", "p", "--check"]);
    assert_eq!(check.status.code(), Some(1), "{}", text_of(&check));
    assert!(text_of(&check).contains("other_scenario/brief.md"));
    let out = cici_in(&dir, &["build", "seeds", "--out", "p"]);
    assert!(out.status.success(), "{}", text_of(&out));
    assert!(!orphan.exists());
    assert!(!dir.join("p/other_scenario").exists());
    assert!(!dir.join("p").join(cici::build::JOURNAL).exists());
    let check = cici_in(&dir, &["build", "seeds", "--out", "p", "--check"]);
    assert!(check.status.success(), "{}", text_of(&check));
}

#[test]
fn concurrent_builds_into_one_folder_all_succeed() {
    let (dir, _) = workspace("hostile-concurrent");
    let children: Vec<_> = (0..4)
        .map(|_| {
            Command::new(env!("CARGO_BIN_EXE_cici"))
                .args(["build", "seeds", "--out", "p"])
                .current_dir(&dir)
                .stdout(Stdio::piped())
                .stderr(Stdio::piped())
                .spawn()
                .unwrap()
        })
        .collect();
    for c in children {
        let out = c.wait_with_output().unwrap();
        assert!(out.status.success(), "{}", text_of(&out));
    }
    let check = cici_in(&dir, &["build", "seeds", "--out", "p", "--check"]);
    assert!(check.status.success(), "{}", text_of(&check));
}

#[cfg(unix)]
#[test]
fn outputs_follow_the_umask() {
    use std::os::unix::fs::PermissionsExt as _;
    let (dir, _) = workspace("hostile-umask");
    let out = cici_in(&dir, &["build", "seeds", "--out", "p"]);
    assert!(out.status.success(), "{}", text_of(&out));
    // A file this process creates the ordinary way has the mode the
    // umask gives; cici's outputs must have the same.
    let probe = dir.join("probe.txt");
    std::fs::write(&probe, "x").unwrap();
    let want = std::fs::metadata(&probe).unwrap().permissions().mode() & 0o777;
    let got = std::fs::metadata(dir.join("p/ops_scheduling/brief.md"))
        .unwrap()
        .permissions()
        .mode()
        & 0o777;
    assert_eq!(format!("{got:o}"), format!("{want:o}"));
}

#[cfg(unix)]
#[test]
fn fifos_and_devices_never_block() {
    let (dir, _) = workspace("hostile-fifo");
    let fifo = dir.join("seeds/blocked.cici");
    let made = Command::new("mkfifo").arg(&fifo).status().unwrap();
    assert!(made.success());
    for args in [
        &["check", "seeds"][..],
        &["fmt", "--check", "seeds"],
        &["build", "seeds", "--out", "p"],
    ] {
        let out = cici_in(&dir, args);
        let shown = text_of(&out);
        assert!(
            shown.contains("blocked.cici: skipped, not a regular file"),
            "{args:?}: {shown}"
        );
        assert!(out.status.success(), "{args:?}: {shown}");
    }
    for named in ["/dev/zero", fifo.to_str().unwrap()] {
        let out = cici_in(&dir, &["check", named]);
        assert_eq!(out.status.code(), Some(2), "{}", text_of(&out));
        assert!(
            text_of(&out).contains("not a regular file"),
            "{}",
            text_of(&out)
        );
    }
}

#[test]
fn fix_refuses_a_file_that_is_not_utf8() {
    let (dir, seed) = workspace("hostile-latin1");
    // A misspelled person (a fix-it `--fix` applies) and a Latin-1 byte.
    let mut bytes = std::fs::read_to_string(&seed)
        .unwrap()
        .replacen("executor maya", "executor mya", 1)
        .into_bytes();
    bytes.extend_from_slice(b"# caf\xe9\n");
    std::fs::write(&seed, &bytes).unwrap();
    // The file is reported and left out, so no fix touches it.
    let out = cici_in(&dir, &["check", "--fix", "seeds"]);
    assert_eq!(out.status.code(), Some(1), "{}", text_of(&out));
    assert!(text_of(&out).contains("not UTF-8"), "{}", text_of(&out));
    assert_eq!(std::fs::read(&seed).unwrap(), bytes);
}

#[cfg(unix)]
#[test]
fn fmt_and_fix_write_through_a_symlink() {
    let (dir, seed) = workspace("hostile-symlink");
    let messy = std::fs::read_to_string(&seed)
        .unwrap()
        .replace("executor maya", "executor     mya");
    std::fs::write(&seed, &messy).unwrap();
    let link = dir.join("link.cici");
    std::os::unix::fs::symlink(&seed, &link).unwrap();
    let out = cici_in(&dir, &["check", "--fix", "link.cici"]);
    assert!(
        text_of(&out).contains("fixed link.cici"),
        "{}",
        text_of(&out)
    );
    let out = cici_in(&dir, &["fmt", "link.cici"]);
    assert!(out.status.success(), "{}", text_of(&out));
    assert!(std::fs::symlink_metadata(&link)
        .unwrap()
        .file_type()
        .is_symlink());
    let fixed = std::fs::read_to_string(&seed).unwrap();
    assert!(fixed.contains("executor maya"), "{fixed}");
}

#[test]
fn hour_sums_cannot_wrap_into_a_wrong_verdict() {
    let dir = tempdir("hostile-overflow");
    let seed = dir.join("overflow.cici");
    std::fs::copy(
        root().join("tests/fixtures/resolve/err/number_too_large.cici"),
        &seed,
    )
    .unwrap();
    let out = cici_in(&dir, &["check", "overflow.cici"]);
    assert_eq!(out.status.code(), Some(1), "{}", text_of(&out));
    assert!(text_of(&out).contains("cici::resolve::number_too_large"));
    assert!(!text_of(&out).contains("unique"), "{}", text_of(&out));
    // At the bound, the sum is right: 100000 + 2 hours break a 1-hour
    // capacity, a conflict and never `unique`.
    let at_bound = std::fs::read_to_string(&seed)
        .unwrap()
        .replace("4294967295", "100000");
    std::fs::write(&seed, at_bound).unwrap();
    let out = cici_in(&dir, &["check", "--format", "json", "overflow.cici"]);
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(json["scenarios"][0]["unique"], false, "{}", text_of(&out));
}

#[test]
fn an_over_long_id_is_a_diagnostic_not_a_failed_build() {
    let dir = tempdir("hostile-long-id");
    std::fs::create_dir_all(dir.join("seeds")).unwrap();
    std::fs::copy(
        root().join("tests/fixtures/resolve/err/name_too_long.cici"),
        dir.join("seeds/long.cici"),
    )
    .unwrap();
    std::fs::copy(
        root().join("seeds/ops_scheduling.cici"),
        dir.join("seeds/ops.cici"),
    )
    .unwrap();
    let out = cici_in(&dir, &["build", "seeds", "--out", "p"]);
    assert_eq!(out.status.code(), Some(1), "{}", text_of(&out));
    assert!(text_of(&out).contains("cici::resolve::name_too_long"));
    assert!(text_of(&out).contains("long.cici"), "{}", text_of(&out));
    // The other seed still builds, with a manifest.
    assert!(dir.join("p/ops_scheduling/brief.md").is_file());
    assert!(dir.join("p/manifest.json").is_file());
}

#[test]
fn terminal_escapes_in_a_seed_never_reach_the_terminal() {
    let (dir, seed) = workspace("hostile-escape");
    let text = std::fs::read_to_string(&seed)
        .unwrap()
        .replacen("\"Maya Chen\"", "\"Maya \u{1b}]0;pwned\u{7}Chen\"", 1)
        .replacen("executor maya", "executor mya", 1);
    std::fs::write(&seed, text).unwrap();
    let out = cici_in(&dir, &["check", "seeds"]);
    let shown = text_of(&out);
    assert!(shown.contains("unknown person"), "{shown}");
    assert!(
        !shown.contains('\u{1b}') && !shown.contains('\u{7}'),
        "{shown:?}"
    );
}

#[test]
fn an_empty_file_and_a_bom_are_told_apart() {
    let dir = tempdir("hostile-empty");
    std::fs::write(dir.join("empty.cici"), "# only a comment\n").unwrap();
    let out = cici_in(&dir, &["check", "empty.cici"]);
    assert_eq!(out.status.code(), Some(1), "{}", text_of(&out));
    assert!(text_of(&out).contains("cici::syntax::no_scenario"));
    assert!(
        text_of(&out).contains("empty.cici:1:1"),
        "{}",
        text_of(&out)
    );
    let mut bom = vec![0xef, 0xbb, 0xbf];
    bom.extend(std::fs::read(root().join("seeds/ops_scheduling.cici")).unwrap());
    std::fs::write(dir.join("bom.cici"), bom).unwrap();
    let out = cici_in(&dir, &["check", "bom.cici"]);
    assert_eq!(out.status.code(), Some(0), "{}", text_of(&out));
}

#[test]
fn a_variants_folder_checks_as_a_whole() {
    let out = cici_in(&root(), &["check", "generated/counterfactuals/variants"]);
    assert_eq!(out.status.code(), Some(0), "{}", text_of(&out));
    assert!(!text_of(&out).contains("duplicate_scenario"));
}

#[test]
fn crlf_files_read_like_lf_files() {
    let dir = tempdir("hostile-crlf");
    let lf = "scenario s {\n  family severity_classification\n  title \"\"\"\n    Two\n    lines\n  \"\"\"\n  task \"t\"\n  executor a\n  person a \"A\" role \"R\"\n  person b \"B\" role \"R\"\n  levels [hi, lo]\n  evidence x [yes, no]\n  rubric {\n    hi when x = yes\n    otherwise lo\n  }\n  attribute e {\n    holder b\n    raw \"X is no.\"\n    fact evidence(x, no)\n  }\n  oracle lo\n}\n";
    std::fs::write(dir.join("lf.cici"), lf).unwrap();
    std::fs::write(
        dir.join("crlf.cici"),
        lf.replace('\n', "\r\n")
            .replace("scenario s", "scenario s2"),
    )
    .unwrap();
    let out = cici_in(&dir, &["check", "--format", "json", "."]);
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(
        json["scenarios"].as_array().unwrap().len(),
        2,
        "{}",
        text_of(&out)
    );
    let mut run = cici::driver::Run::new();
    run.check_paths(
        std::slice::from_ref(&dir),
        &cici::analysis::Options::default(),
    )
    .unwrap();
    let titles: Vec<&str> = run
        .checked
        .iter()
        .map(|c| c.scenario.title.as_str())
        .collect();
    assert_eq!(titles, vec!["Two\nlines", "Two\nlines"]);
}

#[test]
fn synth_refuses_sizes_it_cannot_build_in_seconds() {
    let dir = tempdir("hostile-synth");
    let out = cici_in(
        &dir,
        &[
            "synth",
            "jira_allocation",
            "--size",
            "200",
            "--people",
            "200",
        ],
    );
    assert_eq!(out.status.code(), Some(2), "{}", text_of(&out));
    assert!(
        text_of(&out).contains("at most --size 80"),
        "{}",
        text_of(&out)
    );
    // Rule-based seeds grow with solver queries, not configurations.
    let out = cici_in(&dir, &["synth", "severity_classification", "--size", "26"]);
    assert_eq!(out.status.code(), Some(0), "{}", text_of(&out));
}

#[test]
fn resuming_a_counterfactual_run_with_other_options_adds_and_never_mixes() {
    let (dir, _) = workspace("hostile-resume");
    let run = |extra: &[&str]| {
        let mut args = vec!["counterfactual", "seeds", "--out", "cf", "--per-seed", "1"];
        args.extend_from_slice(extra);
        cici_in(&dir, &args)
    };
    let first = run(&["--seed", "0"]);
    assert_eq!(first.status.code(), Some(0), "{}", text_of(&first));
    let read = |f: &str| std::fs::read_to_string(dir.join("cf").join(f)).unwrap_or_default();
    let (decisions, flows) = (read("decision/train.jsonl"), read("flow/train.jsonl"));
    assert!(!decisions.is_empty() && !flows.is_empty());
    // A user's file named like a temporary, and a temporary of a run that
    // was killed, whose journal names its token.
    std::fs::write(dir.join("cf/variants/.cici-tmp-left"), "mine").unwrap();
    let killed = cici::io::journal::Journal::new(Vec::new());
    killed.write(&dir.join("cf")).unwrap();
    let torn = dir.join(format!("cf/variants/.cici-tmp-{}-x1", killed.token));
    std::fs::write(&torn, "half").unwrap();
    // Another seed and kind: new rows are added after the old, which stay
    // byte for byte, each in the file of its kind.
    for extra in [&["--seed", "1"][..], &["--seed", "0", "--kind", "flow"]] {
        let other = run(extra);
        assert_eq!(other.status.code(), Some(0), "{}", text_of(&other));
        assert!(read("decision/train.jsonl").starts_with(&decisions));
        assert!(read("flow/train.jsonl").starts_with(&flows));
        assert!(!read("flow/train.jsonl").contains("\"kind\":\"decision\""));
    }
    let runs: serde_json::Value = serde_json::from_str(&read("run.json")).unwrap();
    assert_eq!(runs["runs"].as_array().unwrap().len(), 3, "{runs}");
    let same = run(&["--seed", "0", "--kind", "flow"]);
    assert_eq!(same.status.code(), Some(0), "{}", text_of(&same));
    assert!(
        text_of(&same).contains("0 triplets written"),
        "{}",
        text_of(&same)
    );
    assert!(!torn.exists(), "the killed run's temporary is removed");
    assert_eq!(
        std::fs::read_to_string(dir.join("cf/variants/.cici-tmp-left")).unwrap(),
        "mine",
        "a file is never removed for its name"
    );
}

/// Byte offsets in `--format json` were shifted for a file that was not
/// UTF-8 (it was read with replacement characters); such a file is now
/// reported, with the offset of its first bad byte as its span, and left
/// out.
#[test]
fn check_refuses_a_seed_that_is_not_utf8() {
    let (dir, seed) = workspace("hostile-latin1");
    let mut bytes = std::fs::read(&seed).unwrap();
    let at = bytes.windows(3).position(|w| w == b"Eli").unwrap();
    bytes[at + 1] = 0xE9;
    std::fs::write(&seed, &bytes).unwrap();
    let out = cici_in(&dir, &["check", "--format", "json", "seeds"]);
    assert_eq!(out.status.code(), Some(1), "{}", text_of(&out));
    assert!(text_of(&out).contains(&format!(
        "not UTF-8 (first invalid byte at offset {})",
        at + 1
    )));
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let d = &json["diagnostics"][0];
    assert_eq!(d["code"], "cici::syntax::not_utf8", "{json}");
    assert_eq!(
        d["labels"][0]["offset"].as_u64(),
        Some(at as u64 + 1),
        "{d}"
    );
}
