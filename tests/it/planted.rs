//! The planted generator: what it builds is unique by construction, prints
//! to seed text that parses back to the same scenario, and checks clean of
//! errors.

use cici::planted::{generate, Config};
use cici::sema::Family;

use super::common::{check, render};

#[test]
fn planted_scenarios_round_trip_and_are_unique() {
    for family in Family::ALL {
        for seed in 0..12 {
            let sc = generate(&Config::pisas(family, seed));
            let text = cici::printer::print(&sc);
            let run = check("planted", &text);
            assert_eq!(
                run.errors(),
                0,
                "{family:?} seed {seed}:\n{}\n{text}",
                render(&run)
            );
            let c = &run.checked[0];
            assert!(c.report.unique, "{family:?} seed {seed} is not unique");
            // Printing the parsed scenario gives the same text.
            assert_eq!(cici::printer::print(&c.scenario), text);
            let n = c.scenario.attributes.len();
            assert!(n >= 5, "{family:?} seed {seed}: only {n} attributes");
        }
    }
}

#[test]
fn large_jira_scenarios_have_the_requested_shape() {
    let sc = generate(&Config {
        family: Family::JiraAllocation,
        people: 25,
        size: 60,
        soft: 10,
        irrelevant: 10,
        seed: 7,
        id: None,
        norms: false,
    });
    let js = sc.jira_setting().unwrap();
    assert_eq!(js.tickets.len(), 60);
    assert_eq!(sc.people.len(), 25);
    let run = check("large", &cici::printer::print(&sc));
    assert_eq!(run.errors(), 0, "{}", render(&run));
    assert!(run.checked[0].report.unique);
}
