//! Counting in bundles: exact where the parts multiply, a lower bound
//! where a bound or a deadline stops it.

use std::path::Path;

use serde_json::Value;

use super::common::{cici, root, tempdir};
use cici::analysis::Options;
use cici::driver::Run;
use cici::sema::{FormKind, Predicate};
use cici::solver::{Count, Stop};

fn seeds() -> Run {
    let mut run = Run::new();
    run.check_paths(&[root().join("seeds")], &Options::default())
        .unwrap();
    run
}

fn utility(dir: &Path, id: &str) -> Value {
    let text = std::fs::read_to_string(dir.join(id).join("utility.json")).unwrap();
    serde_json::from_str(&text).unwrap()
}

fn count_field(u: &Value) -> &Value {
    let key = u
        .as_object()
        .unwrap()
        .keys()
        .find(|k| k.ends_with("_count_before_private_constraints"))
        .unwrap();
    &u[key]
}

/// The facts a raw, appropriate form states, as the release counts them.
fn raw_appropriate(sc: &cici::sema::Scenario) -> Vec<&Predicate> {
    sc.attributes
        .iter()
        .filter_map(|a| {
            let (kind, form) = a.fact_form();
            (kind == FormKind::Raw && form.appropriate).then_some(form)
        })
        .flat_map(|f| f.facts.iter().map(|f| &f.predicate))
        .collect()
}

#[test]
fn bundle_counts_agree_with_brute_force_and_say_when_they_stopped() {
    let out = tempdir("scale-counts");
    let r = cici(&["export", "pisas", "seeds/", "--out", out.to_str().unwrap()]);
    assert!(r.status.success(), "{}", String::from_utf8_lossy(&r.stderr));
    let mut exact = 0;
    for c in &seeds().checked {
        let sc = &c.scenario;
        if !matches!(
            sc.setting,
            cici::sema::Setting::Meeting(_) | cici::sema::Setting::Jira(_)
        ) {
            continue;
        }
        let field = count_field(&utility(&out, &sc.id)).clone();
        let truth = if super::reference::space_size(sc) > 200_000 {
            // Too large to walk: the solver counts to the end (the property
            // tests hold its counts to brute force on small spaces).
            cici::pisas::export::count_before_private(c, u64::MAX, None).value()
        } else {
            super::reference::allowed_set(sc, &raw_appropriate(sc)).len() as u64
        };
        // Independent parts multiply: the seeds count exactly, well past
        // the bound of enumerated decisions (mobile_release has 16,200).
        assert_eq!(field.as_u64(), Some(truth), "{}", sc.id);
        exact += 1;
    }
    assert!(exact >= 5, "{exact} exact counts");
}

#[test]
fn a_count_bound_and_a_deadline_give_lower_bounds() {
    let out = tempdir("scale-bound");
    let r = cici(&[
        "export",
        "pisas",
        "seeds/payments_sprint.cici",
        "--out",
        out.to_str().unwrap(),
        "--count-bound",
        "3",
    ]);
    assert!(r.status.success(), "{}", String::from_utf8_lossy(&r.stderr));
    let field = count_field(&utility(&out, "payments_sprint")).clone();
    let reached = field["at_least"].as_u64().unwrap();
    assert!((1..72).contains(&reached), "{field}");
    let run = seeds();
    let c = run
        .checked
        .iter()
        .find(|c| c.scenario.id == "mobile_release")
        .unwrap();
    let past = std::time::Instant::now();
    let count = cici::pisas::export::count_before_private(c, u64::MAX, Some(past));
    assert!(
        matches!(
            count,
            Count::AtLeast {
                stop: Stop::Deadline,
                ..
            }
        ),
        "{count:?}"
    );
    let r = cici(&[
        "export",
        "pisas",
        "seeds/",
        "--out",
        "x",
        "--count-bound",
        "0",
    ]);
    assert_eq!(r.status.code(), Some(2));
}
