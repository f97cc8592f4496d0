//! Flow items show everything their label rests on: no flow the dataset
//! asks about has recipients from a written `visible` exception, which the
//! item does not state.

use cici::analysis::Options;
use cici::counterfactual::vocab::Flow;
use cici::driver::Run;
use cici::sema::FormKind;

use super::common::{cici, root, tempdir};

fn flow(text: &str) -> Flow {
    let (af, person) = text.split_once(" -> ").unwrap();
    let (attribute, form) = af.split_once('/').unwrap();
    Flow {
        attribute: attribute.to_string(),
        form: if form == "raw" {
            FormKind::Raw
        } else {
            FormKind::Sanitized
        },
        person: person.to_string(),
    }
}

#[test]
fn no_flow_item_rests_on_an_unstated_exception() {
    let out = tempdir("cf-stated");
    let made = cici(&[
        "counterfactual",
        root().join("seeds").to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
        "--kind",
        "flow",
        "--per-seed",
        "3",
    ]);
    assert!(made.status.success(), "{made:?}");
    let mut asked = 0;
    for file in ["train", "validation", "test"] {
        // A split with no row has no file.
        let text =
            std::fs::read_to_string(out.join(format!("flow/{file}.jsonl"))).unwrap_or_default();
        for row in text.lines() {
            let row: serde_json::Value = serde_json::from_str(row).unwrap();
            for side in ["anchor", "flipped", "held"] {
                let mut run = Run::new();
                let seed = row[format!("{side}_seed")].as_str().unwrap();
                run.check_text("s.cici", seed.to_string(), &Options::default());
                let c = &run.checked[0];
                let f = flow(row[format!("{side}_flow")].as_str().unwrap());
                assert!(
                    cici::counterfactual::flow_stated(&c.scenario, &f),
                    "{} {side}: {f:?} rests on a `visible` exception",
                    row["id"]
                );
                asked += 1;
            }
        }
    }
    assert!(asked >= 60, "only {asked} flow items");
}
