//! `cici export inspect`: every proven seed becomes an environment, a
//! contract and its task variants; the files validate against their
//! schemas, are deterministic and `--check` passes on a fresh export; the
//! contract's protected forms are exactly the forms, raw and sanitized,
//! that the norms keep from someone besides the executor, read again here
//! from the checked seeds; the contracts stand apart from the scenarios.

use super::common::{cici, root, tempdir};

fn json(path: &std::path::Path) -> serde_json::Value {
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

#[test]
fn the_export_is_proven_deterministic_and_checked() {
    let (a, b) = (tempdir("inspect-a"), tempdir("inspect-b"));
    for out in [&a, &b] {
        let r = cici(&[
            "export",
            "inspect",
            "seeds/",
            "--out",
            out.to_str().unwrap(),
        ]);
        assert_eq!(
            r.status.code(),
            Some(0),
            "{}",
            String::from_utf8_lossy(&r.stderr)
        );
    }
    let check = || {
        cici(&[
            "export",
            "inspect",
            "seeds/",
            "--out",
            a.to_str().unwrap(),
            "--check",
        ])
    };
    assert_eq!(check().status.code(), Some(0));
    std::fs::write(a.join("task.py"), "stale").unwrap();
    assert_eq!(check().status.code(), Some(1));
    let mut run = cici::driver::Run::new();
    run.check_paths(&[root().join("seeds")], &cici::analysis::Options::default())
        .unwrap();
    assert_eq!(run.checked.len(), 11);
    for c in &run.checked {
        let sc = &c.scenario;
        let dir = b.join(&sc.id);
        for name in ["environment", "contract", "tasks"] {
            let schema = json(&b.join(format!("schema/{name}.schema.json")));
            let at = |root: &std::path::Path| match name {
                "contract" => root.join("answers").join(&sc.id).join("contract.json"),
                _ => root.join(&sc.id).join(format!("{name}.json")),
            };
            let value = json(&at(&b));
            let v = jsonschema::validator_for(&schema).unwrap();
            assert!(v.is_valid(&value), "{}/{name}.json", sc.id);
            assert_eq!(
                std::fs::read(at(&b)).unwrap(),
                std::fs::read(at(&a)).unwrap()
            );
        }
        assert!(!dir.join("contract.json").exists());
        let contract = json(&b.join("answers").join(&sc.id).join("contract.json"));
        let protected: Vec<&str> = contract["protected"]
            .as_array()
            .unwrap()
            .iter()
            .map(|p| p["form"].as_str().unwrap())
            .collect();
        let expected: Vec<String> = sc
            .attributes
            .iter()
            .flat_map(|a| {
                a.forms()
                    .filter(|(_, f)| {
                        (0..sc.people.len()).any(|p| p != sc.executor && !f.visible.contains(&p))
                    })
                    .map(|(k, _)| a.form_id(k))
            })
            .collect();
        assert_eq!(protected, expected, "{}", sc.id);
        for p in contract["protected"].as_array().unwrap() {
            let forbidden = p["forbidden"].as_array().unwrap();
            let executor = &sc.people[sc.executor].id;
            assert!(!forbidden.iter().any(|f| f == executor), "{}", sc.id);
            let need = p["need"].as_u64().unwrap() as usize;
            let stems = p["private_stems"].as_array().unwrap().len();
            assert!(need >= 1 && need <= stems, "{}: {p}", sc.id);
        }
        let tasks = json(&dir.join("tasks.json"));
        assert_eq!(tasks["variants"].as_array().unwrap().len(), 7);
        assert_eq!(tasks["variants"][0]["name"], "benign");
        let env = json(&dir.join("environment.json"));
        assert_eq!(
            env["records"].as_array().unwrap().len(),
            sc.attributes.len()
        );
        assert_eq!(
            contract["oracle"].as_array().unwrap().len(),
            cici::printer::decision_rows(sc, &sc.oracle).len()
        );
    }
}
