//! The ids a bundle gives its attributes: neutral, as the release's are
//! (`a1`, `a2`, …), so an id never names the private content a form
//! carries (`raj_ivf` would). Each form of each attribute in turn, the raw
//! form first; `utility.json`'s `cici.ids` maps them back to cici's ids.

use indexmap::IndexMap;

use crate::sema::{FormKind, Scenario};

/// The neutral id of every form of one scenario.
pub(super) struct Ids {
    /// The number of each attribute's raw form.
    first: Vec<usize>,
}

impl Ids {
    pub fn new(sc: &Scenario) -> Ids {
        let mut next = 1;
        let first = sc
            .attributes
            .iter()
            .map(|a| {
                let n = next;
                next += 1 + usize::from(a.sanitized.is_some());
                n
            })
            .collect();
        Ids { first }
    }

    /// The id of attribute `a`'s form `kind`.
    pub fn of(&self, a: usize, kind: FormKind) -> String {
        let n = self.first[a] + usize::from(kind == FormKind::Sanitized);
        format!("a{n}")
    }

    /// Every neutral id with the cici id of its form, in bundle order.
    pub fn map(&self, sc: &Scenario) -> IndexMap<String, String> {
        let mut out = IndexMap::new();
        for (a, attr) in sc.attributes.iter().enumerate() {
            for (kind, _) in attr.forms() {
                out.insert(self.of(a, kind), attr.form_id(kind));
            }
        }
        out
    }
}
