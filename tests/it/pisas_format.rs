//! The PiSAs bundle format as types: what the writer writes reads back as
//! the same values, real bundles of the release's generators read, and a
//! file that does not fit is reported at every part that does not fit.

use cici::pisas::export::{bundle, Options};
use cici::pisas::format::Bundle;
use cici::pisas::import::{BundleFiles, JsonFile};
use cici::planted::{generate, Config};
use cici::render::Templates;
use proptest::prelude::*;
use serde_json::Value;

use super::common::root;

/// The bundle's files as a folder would hold them, read back.
fn files_of(b: &Bundle) -> BundleFiles {
    let [scenario, utility, appropriateness, visibility] = b
        .texts()
        .map(|(name, text)| JsonFile::parse(name.to_string(), text));
    BundleFiles {
        scenario,
        utility,
        appropriateness,
        visibility,
    }
}

fn diagnostics(files: &BundleFiles) -> Vec<(String, String)> {
    [
        &files.scenario,
        &files.utility,
        &files.appropriateness,
        &files.visibility,
    ]
    .iter()
    .flat_map(|f| {
        f.diagnostics
            .iter()
            .map(|d| (format!("{}:{}", f.name, d.path), d.error.to_string()))
    })
    .collect()
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, ..ProptestConfig::default() })]

    /// Write, read, compare: every planted scenario's bundle reads back
    /// as the very values written, and imports without a diagnostic.
    #[test]
    fn a_written_bundle_reads_back_as_written(fam in 0usize..4, seed in 0u64..100_000) {
        let family = cici::sema::Family::ALL[fam];
        let text = cici::printer::print(&generate(&Config::pisas(family, seed)));
        let run = super::common::check("planted.cici", &text);
        let c = &run.checked[0];
        prop_assume!(c.report.errors() == 0);
        let written = bundle(c, &text, &Templates::builtin(), &Options::default()).unwrap();
        let mut files = files_of(&written);
        let read = files.typed();
        prop_assert_eq!(diagnostics(&files), Vec::<(String, String)>::new());
        prop_assert_eq!(read.as_ref(), Some(&written));
        let (imported, reported) = cici::pisas::import::pisas_bundle(files_of(&written), "planted", None);
        prop_assert!(reported.is_empty());
        prop_assert!(imported.is_some());
    }
}

/// A release bundle of the JIRA and meeting generators, with one file
/// edited.
fn release_bundle(name: &str, edit: impl Fn(&str, &mut Value)) -> BundleFiles {
    let dir = root().join("tests/fixtures/import/bundles").join(name);
    let read = |f: &str| {
        let text = std::fs::read_to_string(dir.join(f)).unwrap();
        let mut v: Value = serde_json::from_str(&text).unwrap();
        edit(f, &mut v);
        JsonFile::parse(f.to_string(), serde_json::to_string_pretty(&v).unwrap())
    };
    BundleFiles {
        scenario: read("scenario.json"),
        utility: read("utility.json"),
        appropriateness: read("appropriateness.json"),
        visibility: read("visibility.json"),
    }
}

#[test]
fn the_release_generators_bundles_fit_the_types() {
    for name in [
        "jira_sole_owner",
        "jira_sole_owner_sanitized",
        "meeting_deadline",
    ] {
        let mut files = release_bundle(name, |_, _| {});
        let typed = files.typed();
        assert_eq!(
            diagnostics(&files),
            Vec::<(String, String)>::new(),
            "{name}"
        );
        let typed = typed.unwrap();
        assert!(!typed.utility.attribute_values.is_empty(), "{name}");
        assert!(typed.scenario.cast.members().len() >= 4, "{name}");
    }
}

#[test]
fn every_part_that_does_not_fit_is_reported_at_its_path_in_its_file() {
    let mut files = release_bundle("jira_sole_owner", |file, v| match file {
        "scenario.json" => {
            v["cast"]["c2"]["name"] = Value::from(5);
            v["timeline"][1].as_object_mut().unwrap().remove("content");
        }
        "utility.json" => {
            v["attribute_values"]["a5"]
                .as_object_mut()
                .unwrap()
                .remove("value");
            v["oracle_assignment"]["JIRA-101"]["security"] = Value::from(3);
        }
        "appropriateness.json" => v["attributes"]["a2"] = Value::from("maybe"),
        "visibility.json" => v["attributes"]["a1"]["visible_to"] = Value::from("everyone"),
        _ => {}
    });
    assert!(files.typed().is_none());
    let found = diagnostics(&files);
    let expected = [
        (
            "scenario.json:timeline[1].content",
            "`content`, which the format requires here",
        ),
        (
            "utility.json:attribute_values.a5.value",
            "`value`, which the format requires here",
        ),
        (
            "utility.json:oracle_assignment.JIRA-101.security",
            "a string",
        ),
        ("appropriateness.json:attributes.a2", "one of"),
        ("visibility.json:attributes.a1.visible_to", "an array"),
    ];
    for (path, words) in expected {
        assert!(
            found.iter().any(|(p, e)| p == path && e.contains(words)),
            "{path}: {words}\n{found:#?}"
        );
    }
    // The cast may be a map or a list: in a map, the member is named.
    assert!(
        found
            .iter()
            .any(|(p, e)| p == "scenario.json:cast.c2.name" && e.contains("a string")),
        "{found:#?}"
    );
    // Each problem is located in its file's text.
    for f in [
        &files.scenario,
        &files.utility,
        &files.appropriateness,
        &files.visibility,
    ] {
        assert!(f.diagnostics.iter().all(|d| d.span.is_some()), "{}", f.name);
    }
    // Nothing is imported from files that do not fit.
    let (written, _) = cici::pisas::import::pisas_bundle(files, "edited", None);
    assert!(written.is_none());
}

#[test]
fn a_value_of_neither_form_is_told_both() {
    use cici::pisas::format::{ScenarioFile, UtilityFile};
    use cici::pisas::import::typed::problems;
    let scenario = serde_json::json!({
        "scenario_id": "s", "task": {"executor_role": "lead"}, "cast": "everyone",
    });
    let found: Vec<String> = problems::<ScenarioFile>(&scenario)
        .iter()
        .map(|d| format!("{}: {}", d.path, d.error))
        .collect();
    assert_eq!(found, ["cast: expected an object or an array"]);
    let utility = serde_json::json!({
        "oracle_answer": "x", "attribute_values": {},
        "public_valid_schedule_count_before_private_constraints": "many",
    });
    let found: Vec<String> = problems::<UtilityFile>(&utility)
        .iter()
        .map(|d| format!("{}: {}", d.path, d.error))
        .collect();
    assert_eq!(found.len(), 1, "{found:?}");
    assert!(
        found[0].starts_with("public_valid_schedule_count_before_private_constraints: expected"),
        "{found:?}"
    );
}
