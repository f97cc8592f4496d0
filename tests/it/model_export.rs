//! `cici export model`: the lowered model of every proven seed, with
//! literals inside its variables, the oracle as a valid option per group,
//! and the findings of the report the library computes for the same seed.

use cici::analysis::{Options, TrapEffect};
use cici::driver::Run;
use serde_json::Value;

use super::common::{cici, root, tempdir};

fn lits_in_range(v: &Value, num_vars: i64) {
    match v {
        Value::Number(n) => {
            let l = n.as_i64().unwrap();
            assert!(l != 0 && l.abs() <= num_vars, "literal {l} of {num_vars}");
        }
        Value::Array(items) => items.iter().for_each(|i| lits_in_range(i, num_vars)),
        Value::Object(map) => map
            .iter()
            .filter(|(k, _)| k.as_str() != "bound")
            .for_each(|(_, i)| lits_in_range(i, num_vars)),
        _ => {}
    }
}

#[test]
fn every_proven_seed_exports_its_model_and_findings() {
    let out = tempdir("model-export");
    let r = cici(&["export", "model", "seeds/", "--out", out.to_str().unwrap()]);
    assert_eq!(
        r.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&r.stderr)
    );
    let mut run = Run::new();
    run.check_paths(&[root().join("seeds")], &Options::default())
        .unwrap();
    assert_eq!(run.checked.len(), 11);
    for c in &run.checked {
        let path = out.join(format!("{}.json", c.scenario.id));
        let m: Value = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
        let n = m["num_vars"].as_i64().unwrap();
        for key in ["decision_groups", "aux_groups", "public"] {
            lits_in_range(&m[key], n);
        }
        let groups = m["decision_groups"].as_array().unwrap();
        let oracle = m["oracle"].as_array().unwrap();
        assert_eq!(groups.len(), oracle.len());
        for (g, o) in groups.iter().zip(oracle) {
            assert!((o.as_u64().unwrap() as usize) < g.as_array().unwrap().len());
        }
        let facts = m["facts"].as_array().unwrap();
        assert_eq!(facts.len(), c.report.facts.len());
        for (f, found) in facts.iter().zip(&c.report.facts) {
            lits_in_range(&f["indicator"], n);
            lits_in_range(&f["holds"], n);
            assert_eq!(f["relevant"].as_bool(), found.relevant);
            assert_eq!(f["necessary"].as_bool(), found.necessary);
            let trap = found.trap.as_ref().map(|t| match t {
                TrapEffect::Keeps => "keeps",
                TrapEffect::Changes(_) => "changes",
                TrapEffect::NoDecision => "no_decision",
                TrapEffect::Leads(_) => "leads",
                TrapEffect::Unclear(_) => "unclear",
            });
            assert_eq!(f["trap"].as_str(), trap);
        }
        assert_eq!(m["unique"], Value::Bool(true));
    }
}

#[test]
fn a_seed_that_does_not_check_writes_no_model() {
    let dir = tempdir("model-export-bad");
    let bad = dir.join("bad.cici");
    std::fs::write(&bad, "scenario broken {\n  family meeting_allocation\n").unwrap();
    let out = dir.join("out");
    let r = cici(&[
        "export",
        "model",
        bad.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
    ]);
    let stderr = String::from_utf8_lossy(&r.stderr);
    assert!(!r.status.success());
    assert!(stderr.contains("no scenario without errors"), "{stderr}");
    assert!(!out.exists() || std::fs::read_dir(&out).unwrap().next().is_none());
}
