//! `cici export inspect`: every proven seed becomes an environment, a
//! contract and its task variants; the files validate against their
//! schemas, are deterministic and `--check` passes on a fresh export; the
//! contract's protected forms are exactly the sensitive raw forms some
//! teammate may not receive, read again here from the checked seeds.

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
            let value = json(&dir.join(format!("{name}.json")));
            let v = jsonschema::validator_for(&schema).unwrap();
            assert!(v.is_valid(&value), "{}/{name}.json", sc.id);
            assert_eq!(
                std::fs::read(dir.join(format!("{name}.json"))).unwrap(),
                std::fs::read(a.join(&sc.id).join(format!("{name}.json"))).unwrap()
            );
        }
        let contract = json(&dir.join("contract.json"));
        let protected: Vec<&str> = contract["protected"]
            .as_array()
            .unwrap()
            .iter()
            .map(|p| p["form"].as_str().unwrap())
            .collect();
        let expected: Vec<&str> = sc
            .attributes
            .iter()
            .filter(|a| {
                (a.category.is_some_and(cici::sema::Category::is_personal) || !a.raw.appropriate)
                    && a.raw.visible.len() < sc.people.len()
            })
            .map(|a| a.id.as_str())
            .collect();
        assert_eq!(protected, expected, "{}", sc.id);
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
