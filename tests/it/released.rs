//! `cici import pisas-bundle` on bundles in the shape of the release's JIRA
//! and meeting generators (`tests/fixtures/import/bundles/`, written from
//! the notebooks' documented formats with this project's own texts): the
//! setting comes from the texts and structure, the oracle from
//! `oracle_assignment` / `oracle_schedule`, the private constraints from
//! `hidden_solver_constraint`, and what the bundle's people can see decides
//! what cici proves.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use cici::sema::{JiraPredicate, MeetingPredicate, Predicate, Setting};
use serde_json::Value;

use super::common::{cici, root, tempdir};

fn bundle(name: &str) -> PathBuf {
    root().join("tests/fixtures/import/bundles").join(name)
}

/// Imports bundle folders into a fresh folder and checks what was written.
fn import(names: &[&str]) -> (super::common::TempDir, cici::driver::Run) {
    let dirs: Vec<PathBuf> = names.iter().map(|n| bundle(n)).collect();
    let (out, run, _) = import_dirs(&format!("released-{}", names.join("-")), &dirs, &[]);
    (out, run)
}

/// Imports bundle folders into a fresh folder named after `name`, with the
/// `extra` arguments, and checks what was written; with what the import
/// printed.
pub(super) fn import_dirs(
    name: &str,
    dirs: &[PathBuf],
    extra: &[&str],
) -> (super::common::TempDir, cici::driver::Run, String) {
    let out = tempdir(name);
    let dirs: Vec<String> = dirs.iter().map(|d| d.display().to_string()).collect();
    let mut args = vec!["import", "pisas-bundle"];
    args.extend(dirs.iter().map(String::as_str));
    args.extend(extra);
    args.extend(["--out", out.to_str().unwrap()]);
    let r = cici(&args);
    let told = format!(
        "{}{}",
        String::from_utf8_lossy(&r.stdout),
        String::from_utf8_lossy(&r.stderr)
    );
    assert!(r.status.success(), "{told}");
    let mut run = cici::driver::Run::new();
    run.check_paths(
        std::slice::from_ref(&*out),
        &cici::analysis::Options::default(),
    )
    .unwrap();
    (out, run, told)
}

fn codes(run: &cici::driver::Run) -> Vec<(String, String)> {
    run.diagnostics
        .iter()
        .map(|d| {
            let code = d.diagnostic.code_name();
            let text = d.diagnostic.to_string();
            (code, text)
        })
        .collect()
}

fn utility(name: &str) -> Value {
    serde_json::from_str(&std::fs::read_to_string(bundle(name).join("utility.json")).unwrap())
        .unwrap()
}

fn import_map(out: &Path) -> Value {
    serde_json::from_str(&std::fs::read_to_string(out.join("import.json")).unwrap()).unwrap()
}

#[test]
fn a_jira_bundle_imports_its_board_roster_and_private_constraint() {
    let (out, run) = import(&["jira_sole_owner"]);
    let c = &run.checked[0];
    let sc = &c.scenario;
    // The roster became skills; the board became tickets with their seats.
    let skills: BTreeMap<&str, Vec<String>> = sc
        .people
        .iter()
        .map(|p| (p.id.as_str(), p.skills.clone()))
        .collect();
    assert_eq!(sc.people[sc.executor].id, "ines_duarte");
    assert_eq!(skills["tomas"], ["backend"]);
    assert_eq!(skills["rhea"], ["security"]);
    let Setting::Jira(j) = &sc.setting else {
        panic!("a jira scenario")
    };
    let t: Vec<_> = j
        .tickets
        .iter()
        .map(|t| {
            (
                t.id.as_str(),
                t.title.as_str(),
                t.seat(0),
                t.seat(1),
                t.priority.map(|p| p.name()),
                t.collaboration_heavy,
                t.sensitive,
            )
        })
        .collect();
    assert_eq!(
        t,
        [
            (
                "jira_101",
                "Rotate signing keys",
                Some(("security", 3)),
                None,
                Some("medium"),
                false,
                true
            ),
            (
                "jira_102",
                "Harden token refresh",
                Some(("backend", 4)),
                Some(("security", 2)),
                Some("medium"),
                true,
                false
            ),
            (
                "jira_103",
                "Smoke-test the release candidate",
                Some(("qa", 2)),
                None,
                Some("low"),
                false,
                false
            ),
        ]
    );
    // The oracle, seat by seat, is the bundle's.
    let rows = cici::printer::decision_rows(sc, &sc.oracle);
    assert_eq!(
        rows.iter().map(|(_, v)| v.as_str()).collect::<Vec<_>>(),
        ["kofi", "tomas + rhea", "bo"]
    );
    // The probation detail states the constraint; nobody holds its
    // sanitized rewrite, so the raw form is the only one.
    let a = &sc.attributes[sc.attribute("a21").unwrap()];
    assert!(a.sanitized.is_none());
    assert!(!a.raw.appropriate);
    assert_eq!(
        a.raw.facts[0].predicate,
        Predicate::Jira(JiraPredicate::CannotBeSoleOwner {
            person: sc.person("rhea").unwrap()
        })
    );
    // Hours are capacities, visible to their holder only, as labelled.
    let hours = &sc.attributes[sc.attribute("a20").unwrap()];
    assert_eq!(hours.raw.visible, [sc.person("rhea").unwrap()]);
    // What cici proves: the appropriate information leaves two staffings
    // (the bundle's own count before its private constraint); only the
    // inappropriate detail tells them apart; the executor may not see the
    // hours that matter.
    assert!(!c.report.unique);
    assert_eq!(
        cici::pisas::export::count_before_private(c, 10_000, None),
        utility("jira_sole_owner")["public_valid_assignment_count_before_private_constraints"]
            .as_u64()
            .map(cici::solver::Count::Exact)
            .unwrap()
    );
    let found = codes(&run);
    let has = |code: &str, word: &str| found.iter().any(|(c, t)| c == code && t.contains(word));
    assert!(has("cici::check::inappropriate_need", "`a21`"), "{found:?}");
    assert!(has("cici::check::not_unique", ""), "{found:?}");
    assert!(has("cici::check::missing_sanitized", "`a21`"), "{found:?}");
    assert!(
        has("cici::check::executor_cannot_see", "`a20`"),
        "{found:?}"
    );
    // import.json maps the attributes, and says where the public texts went.
    let map = import_map(&out);
    let s = &map["scenarios"][0];
    assert_eq!(
        s["oracle"],
        "jira_101: kofi; jira_102: tomas + rhea; jira_103: bo"
    );
    assert_eq!(s["attributes"]["a21"]["bundle"], "a21");
    assert_eq!(s["public"]["a1"], "person tomas skills [backend]");
    assert_eq!(s["public"]["a5"], "ticket jira_101");
    let public = s["public"].as_object().unwrap().len();
    let attributes = s["attributes"].as_object().unwrap().len();
    assert_eq!(
        public + attributes,
        utility("jira_sole_owner")["attribute_values"]
            .as_object()
            .unwrap()
            .len()
    );
}

#[test]
fn a_sanitized_rewrite_an_artifact_carries_is_a_form() {
    let (out, run) = import(&["jira_sole_owner_sanitized"]);
    let c = &run.checked[0];
    let sc = &c.scenario;
    let a = &sc.attributes[sc.attribute("a21").unwrap()];
    let s = a.sanitized.as_ref().expect("the note carries the rewrite");
    assert_eq!(s.text, "Rhea should not own a ticket alone this sprint.");
    assert!(s.appropriate);
    assert_eq!(s.visible, [sc.person("rhea").unwrap()]);
    assert!(a.raw.facts.is_empty());
    // With it, the appropriate information decides; the labels still keep
    // it from the executor.
    assert!(c.report.unique);
    let found = codes(&run);
    assert!(found
        .iter()
        .any(|(c, t)| c == "cici::check::executor_cannot_see" && t.contains("a21.sanitized")));
    assert!(!found
        .iter()
        .any(|(c, _)| c == "cici::check::inappropriate_need"));
    let map = import_map(&out);
    assert_eq!(
        map["scenarios"][0]["attributes"]["a21.sanitized"]["artifact"],
        "art_note_rhea"
    );
}

#[test]
fn a_meeting_bundle_imports_its_structure_and_paired_constraints() {
    let (out, run) = import(&["meeting_deadline"]);
    let c = &run.checked[0];
    let sc = &c.scenario;
    let m = sc.meeting_setting().unwrap();
    assert_eq!(
        m.rooms.iter().map(|r| r.id.as_str()).collect::<Vec<_>>(),
        ["atlas", "cedar"]
    );
    let launch = &m.meetings[0];
    assert_eq!(launch.id, "meet_001");
    // A half-hour slot keeps its minutes.
    assert_eq!(launch.slots[2].to_string(), "wed 10:30-11:30");
    let rhs = |id: &str| {
        let a = &sc.attributes[sc.attribute(id).unwrap()];
        (
            a.raw.appropriate,
            a.sanitized.as_ref().map(|s| s.appropriate),
            a.fact_form().1.facts[0].predicate.clone(),
        )
    };
    // The raw detail and its operational twin are one attribute; the
    // deadline is a slot that ends at it.
    let (raw_ok, sanitized_ok, deadline) = rhs("a5");
    assert_eq!((raw_ok, sanitized_ok), (false, Some(true)));
    let Predicate::Meeting(MeetingPredicate::NotAfter { meeting, slot }) = deadline else {
        panic!("{deadline:?}")
    };
    assert_eq!((meeting, slot.to_string()), (0, "mon 00:00-11:00".into()));
    let (_, _, unavailable) = rhs("a9");
    assert!(matches!(
        unavailable,
        Predicate::Meeting(MeetingPredicate::Unavailable { .. })
    ));
    assert!(c.report.unique);
    assert_eq!(
        cici::pisas::export::count_before_private(c, 10_000, None),
        utility("meeting_deadline")["public_valid_schedule_count_before_private_constraints"]
            .as_u64()
            .map(cici::solver::Count::Exact)
            .unwrap()
    );
    let rows = cici::printer::decision_rows(sc, &sc.oracle);
    assert_eq!(rows[0].1, "mon 10:00-11:00 @ atlas");
    let map = import_map(&out);
    let s = &map["scenarios"][0];
    assert_eq!(s["attributes"]["a5.sanitized"]["bundle"], "a6");
    assert_eq!(s["public"]["a1"], "room atlas");
    assert_eq!(s["public"]["a3"], "meeting meet_001");
}

#[test]
fn imported_assignment_bundles_export_valid_bundles_that_import_back() {
    let names = ["jira_sole_owner_sanitized", "meeting_deadline"];
    let (seeds, first) = import(&names);
    let bundles = tempdir("released-export");
    let r = cici(&[
        "export",
        "pisas",
        seeds.to_str().unwrap(),
        "--out",
        bundles.to_str().unwrap(),
    ]);
    // The export refuses scenarios with errors: the labels keep the
    // operational forms from the executor.
    assert!(!r.status.success());
    // With the executor allowed to see what the decision needs (`--fix`
    // applies exactly that), they export and come back the same.
    let r = cici(&["check", "--fix", seeds.to_str().unwrap()]);
    assert!(r.status.success(), "{}", String::from_utf8_lossy(&r.stderr));
    let r = cici(&[
        "export",
        "pisas",
        seeds.to_str().unwrap(),
        "--out",
        bundles.to_str().unwrap(),
    ]);
    assert!(r.status.success(), "{}", String::from_utf8_lossy(&r.stderr));
    for n in names {
        super::bundles::assert_accepted(&bundles.join(n));
    }
    // The export states the assignment in the release's shape, ticket ->
    // specialty -> person, as the imported bundle did.
    let exported: Value = serde_json::from_str(
        &std::fs::read_to_string(bundles.join(names[0]).join("utility.json")).unwrap(),
    )
    .unwrap();
    for (ticket, seats) in utility(names[0])["oracle_assignment"].as_object().unwrap() {
        let id = ticket.to_lowercase().replace('-', "_");
        assert_eq!(&exported["oracle_assignment"][&id], seats, "{ticket}");
    }
    let back = tempdir("released-back");
    let r = cici(&[
        "import",
        "pisas-bundle",
        bundles.join(names[0]).to_str().unwrap(),
        bundles.join(names[1]).to_str().unwrap(),
        "--out",
        back.to_str().unwrap(),
    ]);
    assert!(r.status.success(), "{}", String::from_utf8_lossy(&r.stderr));
    let (a, b) = (import_map(&seeds), import_map(&back));
    for i in 0..2 {
        assert_eq!(a["scenarios"][i]["oracle"], b["scenarios"][i]["oracle"]);
    }
    drop(first);
}

/// Whether a diagnostic at JSON path `path` says `word`.
fn named(found: &[(String, String)], path: &str, word: &str) -> bool {
    found.iter().any(|(p, e)| p == path && e.contains(word))
}

/// The bundle `name` with one file changed by `edit`, imported in memory:
/// the seed written, if any, and the diagnostics by JSON path.
fn import_edited_seed(
    name: &str,
    file: &str,
    edit: impl Fn(&mut Value),
) -> (Option<String>, Vec<(String, String)>) {
    let read = |f: &str| {
        let text = std::fs::read_to_string(bundle(name).join(f)).unwrap();
        let text = if f == file {
            let mut v: Value = serde_json::from_str(&text).unwrap();
            edit(&mut v);
            serde_json::to_string_pretty(&v).unwrap()
        } else {
            text
        };
        cici::pisas::import::JsonFile::parse(f.to_string(), text)
    };
    let files = cici::pisas::import::BundleFiles {
        scenario: read("scenario.json"),
        utility: read("utility.json"),
        visibility: read("visibility.json"),
        appropriateness: read("appropriateness.json"),
    };
    let (written, files) = cici::pisas::import::pisas_bundle(files, name, None);
    let found = files
        .iter()
        .flat_map(|f| &f.diagnostics)
        .map(|d| (d.path.clone(), d.error.to_string()))
        .collect();
    (written.map(|w| w.text), found)
}

fn import_edited(name: &str, file: &str, edit: impl Fn(&mut Value)) -> Vec<(String, String)> {
    import_edited_seed(name, file, edit).1
}

#[test]
fn public_availability_a_bundle_lists_narrows_the_candidate_slots() {
    let (seed, found) = import_edited_seed("meeting_deadline", "scenario.json", |s| {
        s["people"] = serde_json::json!([
            {"id": "owen", "name": "Owen", "public_available_slots": ["MON_0900", "MON_1000"]},
            {"id": "eli", "name": "Eli"}
        ]);
    });
    assert!(found.is_empty(), "{found:?}");
    let run = super::common::check("narrowed.cici", &seed.unwrap());
    let sc = &run.checked[0].scenario;
    let m = sc.meeting_setting().unwrap();
    assert_eq!(
        m.meetings[1]
            .slots
            .iter()
            .map(|s| s.to_string())
            .collect::<Vec<_>>(),
        ["mon 09:00-10:00"]
    );
    // Owen's Tuesday constraint now rules out nothing the public allows.
    assert!(run.checked[0].report.unique);
    assert!(run
        .diagnostics
        .iter()
        .any(|d| d.diagnostic.code_name() == "cici::check::idle_fact"));
}

#[test]
fn what_a_bundle_cannot_say_in_cici_is_named_by_its_json_path() {
    let found = import_edited("jira_sole_owner", "utility.json", |u| {
        u["attribute_values"]["a21"]["hidden_solver_constraint"]["type"] =
            Value::from("must_mentor_juniors");
        u["attribute_values"]["a5"]["value"] =
            Value::from("JIRA-101 requires security: lots hours");
    });
    assert!(
        named(
            &found,
            "attribute_values.a21.hidden_solver_constraint.type",
            "must_mentor_juniors"
        ),
        "{found:?}"
    );
    assert!(named(&found, "attribute_values.a5.value", ""), "{found:?}");
    // A ticket of three specialties cannot be seated: it is left out, and
    // the other tickets keep their own oracle seats.
    let found = import_edited("jira_sole_owner", "utility.json", |u| {
        u["attribute_values"]["a99"] = serde_json::json!({
            "value": "JIRA-102 requires qa: 1 hours", "type": "required", "source": "art_board"
        });
    });
    assert!(
        named(
            &found,
            "attribute_values",
            "one or two specialties on `JIRA-102`"
        ),
        "{found:?}"
    );
    assert!(
        named(&found, "oracle_assignment.JIRA-102", "JIRA-102"),
        "{found:?}"
    );
    let found = import_edited("meeting_deadline", "utility.json", |u| {
        u["oracle_schedule"]["MEET-001"]["slot"] = Value::from("FRI_1600");
    });
    assert!(
        named(&found, "oracle_schedule.MEET-001.slot", "FRI_1600"),
        "{found:?}"
    );
    let found = import_edited("meeting_deadline", "scenario.json", |s| {
        s["slots"][0]["end"] = Value::from(8.0);
    });
    assert!(named(&found, "slots[0]", ""), "{found:?}");
    // An oracle seat the board does not have, and a meeting with no room
    // the bundle lists, are named too.
    let found = import_edited("jira_sole_owner", "utility.json", |u| {
        u["oracle_assignment"]["JIRA-103"]["ux"] = Value::from("bo");
    });
    assert!(
        named(&found, "oracle_assignment.JIRA-103.ux", "`ux`"),
        "{found:?}"
    );
    let found = import_edited("meeting_deadline", "scenario.json", |s| {
        s["meetings"][1]["candidate_rooms"] = serde_json::json!(["vault"]);
    });
    assert!(
        named(&found, "meetings[1].candidate_rooms", "vault"),
        "{found:?}"
    );
    assert!(named(&found, "meetings[1]", ""), "{found:?}");
}

#[test]
fn one_scenario_in_several_mode_folders_imports_once_per_folder() {
    // The JIRA notebook writes each scenario once per artifact mode, under
    // the same id.
    let modes = tempdir("released-modes");
    for mode in ["trap_only", "trap_plus_sanitized"] {
        let dir = modes.join(mode).join("jira_sole_owner");
        std::fs::create_dir_all(&dir).unwrap();
        for f in [
            "scenario.json",
            "utility.json",
            "visibility.json",
            "appropriateness.json",
        ] {
            std::fs::copy(bundle("jira_sole_owner").join(f), dir.join(f)).unwrap();
        }
    }
    let out = tempdir("released-modes-out");
    let r = cici(&[
        "import",
        "pisas-bundle",
        modes.join("trap_only").to_str().unwrap(),
        modes.join("trap_plus_sanitized").to_str().unwrap(),
        modes.join("trap_only/jira_sole_owner").to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
    ]);
    assert!(r.status.success(), "{}", String::from_utf8_lossy(&r.stderr));
    let map = import_map(&out);
    let ids: Vec<&str> = map["scenarios"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["scenario"].as_str().unwrap())
        .collect();
    assert_eq!(
        ids,
        ["jira_sole_owner", "jira_sole_owner_trap_plus_sanitized"]
    );
    let text =
        std::fs::read_to_string(out.join("jira_sole_owner_trap_plus_sanitized.cici")).unwrap();
    assert!(text.starts_with("scenario jira_sole_owner_trap_plus_sanitized {"));
    let mut run = cici::driver::Run::new();
    run.check_paths(
        std::slice::from_ref(&out),
        &cici::analysis::Options::default(),
    )
    .unwrap();
    assert_eq!(run.checked.len(), 2);
}
