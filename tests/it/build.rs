//! `cici build`: golden artifacts, schema validation, determinism, the
//! stale-tree check, what knowledge files may hold, atomic writes.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;

use cici::analysis::Options;
use cici::build;
use cici::driver::Run;
use cici::render::{knowledge, Cue, Scope, Templates};

use super::common::{cici, root, tempdir};

fn run_of(paths: &[PathBuf]) -> Run {
    let mut run = Run::new();
    run.check_paths(paths, &Options::default()).unwrap();
    run
}

fn seeds() -> Run {
    run_of(&[root().join("seeds")])
}

/// Every file under `dir`, relative path to bytes.
/// A build into `out` of no named inputs.
fn target(out: &Path) -> build::Target<'_> {
    build::Target {
        out,
        writer: build::Writer::Build,
        inputs: &[],
        force: false,
    }
}

fn tree(dir: &Path) -> BTreeMap<String, Vec<u8>> {
    let mut out = BTreeMap::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                stack.push(p);
            } else {
                out.insert(
                    p.strip_prefix(dir).unwrap().display().to_string(),
                    std::fs::read(&p).unwrap(),
                );
            }
        }
    }
    out
}

#[test]
fn language_examples_render_as_snapshotted() {
    let plan = build::plan(&seeds(), &Templates::builtin());
    for id in ["ops_scheduling", "payments_sprint", "meridian_incident"] {
        // One copy of each distinct artifact: tasks per rule, knowledge per cue.
        let mut out = String::new();
        for (path, text) in &plan.files {
            let Some(rest) = path.strip_prefix(&format!("{id}/")) else {
                continue;
            };
            let keep = rest == "brief.md"
                || rest == "gathered.md"
                || rest == "scenario.json"
                || rest.starts_with("stress/")
                || (rest.starts_with("none-") && rest.ends_with("/task.md"))
                || (rest.contains("-none/knowledge/"));
            if keep {
                out.push_str(&format!("=== {rest}\n{text}"));
            }
        }
        insta::assert_snapshot!(format!("artifacts_{id}"), out);
    }
}

/// A leakage-skill variant changes how the task is phrased, never what it
/// asks: it carries the strict condition's decision rules word for word, so
/// that its utility is measured on a task that is solvable as written.
#[test]
fn every_stress_variant_keeps_the_strict_decision_rules() {
    let plan = build::plan(&seeds(), &Templates::builtin());
    let files: BTreeMap<&str, &str> = plan
        .files
        .iter()
        .map(|(p, t)| (p.as_str(), t.as_str()))
        .collect();
    let rules_of = |t: &str| t.find("## Decision rules").map(|i| t[i..].to_string());
    let mut variants = 0;
    for (path, text) in &files {
        let Some((id, _)) = path.split_once("/stress/") else {
            continue;
        };
        let strict = files[format!("{id}/none-strict/task.md").as_str()];
        let want = rules_of(strict).expect("the strict task states its rules");
        let want = want.trim_end();
        assert!(
            text.contains(want),
            "{path} lacks the strict rules:\n{want}\n--- it reads:\n{text}"
        );
        variants += 1;
    }
    assert_eq!(variants, 6 * 11, "six skills for each of the eleven seeds");
}

#[test]
fn every_export_on_disk_validates_against_the_schema_on_disk() {
    let generated = root().join("generated");
    let schema: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(generated.join("schema/scenario.schema.json")).unwrap(),
    )
    .unwrap();
    let validator = jsonschema::validator_for(&schema).unwrap();
    let mut n = 0;
    for e in std::fs::read_dir(&generated).unwrap() {
        let path = e.unwrap().path().join("scenario.json");
        if path.is_file() {
            let value: serde_json::Value =
                serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
            let errors: Vec<String> = validator
                .iter_errors(&value)
                .map(|e| e.to_string())
                .collect();
            assert!(errors.is_empty(), "{}: {errors:?}", path.display());
            n += 1;
        }
    }
    assert!(n >= 9);
}

#[test]
fn the_schema_rejects_a_broken_export() {
    let plan = build::plan(&seeds(), &Templates::builtin());
    let mut value: serde_json::Value =
        serde_json::from_str(&plan.files["ops_scheduling/scenario.json"]).unwrap();
    let validator = cici::export::Validator::new();
    assert!(validator.errors(&value).is_empty());
    value["forms"][0]["appropriate"] = serde_json::json!("yes");
    value["surprise"] = serde_json::json!(1);
    assert_eq!(
        validator.errors(&value).len(),
        2,
        "{:?}",
        validator.errors(&value)
    );
}

#[test]
fn builds_are_byte_for_byte_deterministic() {
    let (a, b) = (tempdir("det-a"), tempdir("det-b"));
    let first = build::plan(&seeds(), &Templates::builtin());
    let second = build::plan(&seeds(), &Templates::builtin());
    assert_eq!(first.files, second.files);
    build::write(&target(&a), &first.files, true).unwrap();
    build::write(&target(&b), &second.files, true).unwrap();
    assert_eq!(tree(&a), tree(&b));
    // A rebuild over an up-to-date tree touches nothing (the manifest
    // included).
    let again = build::write(&target(&a), &first.files, true).unwrap();
    assert_eq!(again.written, 0);
    assert_eq!(again.unchanged, first.files.len() + 1);
}

#[test]
fn the_committed_generated_tree_is_current() {
    let out = cici(&["build", "--check"]);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn check_fails_with_a_diff_on_a_stale_tree_and_build_prunes() {
    let out = tempdir("stale");
    let out_s = out.to_str().unwrap();
    assert_eq!(cici(&["build", "--out", out_s]).status.code(), Some(0));
    assert_eq!(
        cici(&["build", "--check", "--out", out_s]).status.code(),
        Some(0)
    );
    std::fs::write(out.join("ops_scheduling/brief.md"), "edited by hand\n").unwrap();
    std::fs::remove_file(out.join("payments_sprint/scenario.json")).unwrap();
    let stale = cici(&["build", "--check", "--out", out_s]);
    assert_eq!(stale.status.code(), Some(1));
    let diff = String::from_utf8_lossy(&stale.stdout);
    assert!(diff.contains("--- a/ops_scheduling/brief.md"), "{diff}");
    assert!(diff.contains("-edited by hand"), "{diff}");
    assert!(
        diff.contains("+++ b/payments_sprint/scenario.json"),
        "{diff}"
    );
    // Building only some seeds into the build of them all is another
    // build: refused, nothing removed; forced, it prunes the others.
    let only = cici(&["build", "seeds/ops_scheduling.cici", "--out", out_s]);
    assert_eq!(only.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&only.stderr);
    assert!(
        stderr.contains("cici::build::other_inputs") && stderr.contains("--out"),
        "{stderr}"
    );
    assert!(out.join("payments_sprint").exists());
    let only = cici(&[
        "build",
        "seeds/ops_scheduling.cici",
        "--out",
        out_s,
        "--force",
    ]);
    assert_eq!(only.status.code(), Some(0));
    assert!(!out.join("payments_sprint").exists());
    assert!(out.join("ops_scheduling/brief.md").is_file());
}

#[test]
fn a_seed_with_errors_is_not_built_but_the_others_are() {
    let seeds = tempdir("mixed-seeds");
    std::fs::copy(
        root().join("seeds/ops_scheduling.cici"),
        seeds.join("ok.cici"),
    )
    .unwrap();
    std::fs::copy(
        root().join("tests/fixtures/check/err/not_unique.cici"),
        seeds.join("bad.cici"),
    )
    .unwrap();
    let out = tempdir("mixed-out");
    let r = cici(&[
        "build",
        seeds.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
        "--max-output-ratio",
        "8",
    ]);
    assert_eq!(r.status.code(), Some(1));
    assert!(out.join("ops_scheduling/scenario.json").is_file());
    assert!(!out.join("not_unique").exists());
    assert!(String::from_utf8_lossy(&r.stderr).contains("not built (errors): not_unique"));
}

#[test]
fn user_templates_override_the_built_in_ones() {
    let dir = tempdir("templates");
    std::fs::write(
        dir.join("brief.md.j2"),
        "Brief of {{ title }} for {{ executor.name }}.",
    )
    .unwrap();
    let plan = build::plan(&seeds(), &Templates::load(&dir).unwrap());
    assert_eq!(
        plan.files["ops_scheduling/brief.md"],
        "Brief of Operations Scheduling for Maya Chen.\n"
    );
    assert!(plan.files["ops_scheduling/none-strict/task.md"].contains("Decision rules"));
}

#[test]
fn template_and_cue_errors_have_codes() {
    let bad = tempdir("bad-templates");
    std::fs::write(bad.join("task.md.j2"), "{% if %}").unwrap();
    let e = Templates::load(&bad).err().unwrap();
    assert_eq!(
        miette::Diagnostic::code(&e).unwrap().to_string(),
        "cici::render::template"
    );

    let cues = tempdir("bad-cues");
    std::fs::write(
        cues.join("cues.yaml"),
        "implication: []\nnot_evidence: [x]\n",
    )
    .unwrap();
    let e = Templates::load(&cues).err().unwrap();
    assert_eq!(
        miette::Diagnostic::code(&e).unwrap().to_string(),
        "cici::render::cues"
    );

    let facts = tempdir("bad-facts");
    std::fs::write(
        facts.join("facts.yaml"),
        "reasons: {}\nirrelevant: []\nfacts: {}\n",
    )
    .unwrap();
    let e = Templates::load(&facts).err().unwrap();
    assert_eq!(
        miette::Diagnostic::code(&e).unwrap().to_string(),
        "cici::render::facts"
    );

    let unreadable = tempdir("unreadable");
    std::fs::create_dir(unreadable.join("brief.md.j2")).unwrap();
    std::fs::write(unreadable.join("brief.md.j2/x"), "").unwrap();
    // A folder where a template should be is not a template file: the
    // built-in one stays. A file that cannot be decoded is an error.
    assert!(Templates::load(&unreadable).is_ok());
    std::fs::write(unreadable.join("stress.md.j2"), [0xff, 0xfe, 0x00]).unwrap();
    let e = Templates::load(&unreadable).err().unwrap();
    assert_eq!(
        miette::Diagnostic::code(&e).unwrap().to_string(),
        "cici::render::io"
    );

    let undefined = tempdir("undefined");
    std::fs::write(undefined.join("brief.md.j2"), "{{ no_such_value }}").unwrap();
    let plan = build::plan(&seeds(), &Templates::load(&undefined).unwrap());
    assert!(!plan.errors.is_empty());
    assert_eq!(
        miette::Diagnostic::code(&plan.errors[0])
            .unwrap()
            .to_string(),
        "cici::build::render"
    );
    assert!(plan.built.is_empty());
    // The schema guard's code exists for exports that break their schema.
    let src = std::fs::read_to_string(root().join("crates/cici-emit/src/build/mod.rs")).unwrap();
    assert!(src.contains("code(cici::build::schema)"));
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig { cases: 24, ..Default::default() })]

    /// A knowledge file never holds a form its person may not see.
    #[test]
    fn knowledge_files_hold_only_visible_forms(fam in 0usize..3, seed in 0u64..5000, vis in proptest::collection::vec(proptest::prelude::any::<u16>(), 40)) {
        let mut sc = cici::planted::generate(&cici::planted::Config::pisas(cici::sema::Family::ALL[fam], seed));
        // Random visibility sets, so that the property is not only met by defaults.
        let n = sc.people.len();
        for (i, a) in sc.attributes.iter_mut().enumerate() {
            let bits = vis[i % vis.len()] as usize;
            let mut v: Vec<usize> = (0..n).filter(|p| bits >> (p % 16) & 1 == 1).collect();
            v.push(a.holder);
            v.sort_unstable();
            v.dedup();
            a.raw.visible = v;
        }
        let text = cici::printer::print(&sc);
        let mut run = Run::new();
        run.check_text("p.cici", text, &Options::default());
        let c = &run.checked[0];
        let templates = Templates::builtin();
        let files = cici::render::render(c, &templates).unwrap();
        for cue in Cue::ALL {
            for p in 0..n {
                for item in knowledge(c, p, cue, templates.cues(), Scope::MayReceive) {
                    let attr = &c.scenario.attributes[item.attribute];
                    let form = attr.form(item.form).unwrap();
                    proptest::prop_assert!(form.visible.contains(&p));
                    if item.shareable.is_some() {
                        proptest::prop_assert!(attr.sanitized.as_ref().unwrap().visible.contains(&p));
                    }
                }
                // A knowledge file holds what p holds, and nothing else.
                for item in knowledge(c, p, cue, templates.cues(), Scope::Holds) {
                    proptest::prop_assert_eq!(c.scenario.attributes[item.attribute].holder, p);
                }
                // And the rendered file holds no text of a form p may not see.
                let person = &c.scenario.people[p].id;
                let path = format!("{}/{}-none/knowledge/{person}.md", c.scenario.id, cue.name());
                let file = &files.iter().find(|(f, _)| *f == path).unwrap().1;
                let seen: Vec<&str> = c.scenario.attributes.iter()
                    .flat_map(|a| a.forms().filter(|(_, f)| f.visible.contains(&p)).map(|(_, f)| f.text.as_str()))
                    .collect();
                for a in &c.scenario.attributes {
                    for (_, f) in a.forms() {
                        if !f.visible.contains(&p) && !seen.iter().any(|s| s.contains(f.text.as_str())) {
                            proptest::prop_assert!(!file.contains(&f.text), "{} leaks {:?}", path, f.text);
                        }
                    }
                }
            }
        }
    }
}

#[test]
fn an_interrupted_build_leaves_no_partial_file() {
    // A corpus big enough that the build is still writing when it is killed.
    let seeds = tempdir("interrupt-seeds");
    for i in 0..150u64 {
        let family = cici::sema::Family::ALL[(i % 3) as usize];
        let sc = cici::planted::generate(&cici::planted::Config::pisas(family, i));
        std::fs::write(seeds.join(format!("s{i}.cici")), cici::printer::print(&sc)).unwrap();
    }
    // What the command line builds: with the counterfactual triplet's schema.
    let options = build::Options {
        schemas: BTreeMap::from([(
            "triplet.schema.json".to_string(),
            cici::counterfactual::output::schema(),
        )]),
        ..build::Options::default()
    };
    let run = run_of(std::slice::from_ref(&seeds));
    let expected = build::plan_with(&run, &Templates::builtin(), &options).files;
    let out = tempdir("interrupt-out");
    let mut caught_half_way = 0;
    for delay_ms in [0u64, 5, 20, 60] {
        let _ = std::fs::remove_dir_all(&out);
        let mut child = Command::new(env!("CARGO_BIN_EXE_cici"))
            .args([
                "build",
                seeds.to_str().unwrap(),
                "--out",
                out.to_str().unwrap(),
            ])
            .current_dir(root())
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .spawn()
            .unwrap();
        // Wait for the first output, then let it write a little longer.
        let started = std::time::Instant::now();
        while std::fs::read_dir(&out).map_or(true, |mut d| d.next().is_none())
            && started.elapsed() < std::time::Duration::from_secs(60)
        {
            std::thread::sleep(std::time::Duration::from_millis(1));
        }
        std::thread::sleep(std::time::Duration::from_millis(delay_ms));
        let _ = child.kill();
        let _ = child.wait();
        let on_disk = tree(&out);
        for (path, bytes) in &on_disk {
            let name = Path::new(path)
                .file_name()
                .unwrap()
                .to_string_lossy()
                .to_string();
            // Temporaries, and the journal that lets the next build prune
            // what this one wrote.
            if name.starts_with(".cici-tmp-") || name == build::JOURNAL {
                continue;
            }
            let want = expected
                .get(path)
                .unwrap_or_else(|| panic!("unexpected file {path}"));
            assert_eq!(
                std::str::from_utf8(bytes).unwrap(),
                want,
                "{path} is partial"
            );
        }
        if !on_disk.contains_key(build::MANIFEST) {
            caught_half_way += 1;
        }
    }
    assert!(
        caught_half_way > 0,
        "every build finished before it was killed"
    );
    // The next build completes the tree and removes leftover temporaries.
    let seeds_path = [seeds.to_path_buf()];
    let target = build::Target {
        inputs: &seeds_path,
        ..target(&out)
    };
    build::write(&target, &expected, true).unwrap();
    let done = tree(&out);
    assert!(done.keys().all(|p| !p.contains(".cici-tmp-")));
    assert_eq!(done.len(), expected.len() + 1);
}

/// `cici::build::too_large`: a title of half a million characters, repeated
/// in every rendered file (about 12.3 times the seed per person), is
/// refused under `--max-output-ratio 8`; the default builds it.
#[test]
fn output_larger_than_its_seed_allows_is_refused() {
    let seed = std::fs::read_to_string(root().join("seeds/ops_scheduling.cici")).unwrap();
    let title = seed
        .lines()
        .find(|l| l.trim_start().starts_with("title "))
        .unwrap();
    let seed = seed.replace(
        title,
        &format!("  title \"{}\"", "Operations ".repeat(45_000)),
    );
    let dir = super::common::tempdir("build-too-large");
    std::fs::write(dir.join("huge.cici"), &seed).unwrap();
    let out = dir.join("out");
    let r = super::common::cici(&[
        "build",
        dir.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
        "--max-output-ratio",
        "8",
    ]);
    assert_eq!(r.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&r.stderr);
    assert!(
        stderr.contains("cici::build::too_large") && stderr.contains("--max-output-ratio"),
        "{stderr}"
    );
    assert!(!out.join("ops_scheduling").exists());
    let r = super::common::cici(&[
        "build",
        dir.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
    ]);
    assert!(r.status.success(), "{}", String::from_utf8_lossy(&r.stderr));
}
