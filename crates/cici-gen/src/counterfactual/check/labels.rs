//! The labels of a compiled variant, all read from the prover's report:
//! the one decision, whether a flow is appropriate and why, and the traps
//! a decision item shows.
//!
//! In: a checked scenario (and a flow). Out: its `Label`, `FlowReasons`
//! and `Trap`s.

use crate::counterfactual::base::records::{FlowReasons, Label, Trap};
use crate::counterfactual::base::vocab::Flow;
use crate::driver::Checked;
use crate::export::OracleEntryExport;
use crate::sema::Scenario;

/// The decision label of a checked scenario.
pub fn decision_label(c: &Checked) -> Label {
    decision_label_of(&c.scenario)
}

/// The decision label of a scenario's oracle.
pub fn decision_label_of(sc: &Scenario) -> Label {
    Label::Decision(
        crate::printer::decision_rows(sc, &sc.oracle)
            .into_iter()
            .map(|(target, value)| OracleEntryExport { target, value })
            .collect(),
    )
}

/// The flow label: the form is appropriate, a fact of it is relevant to the
/// task, and the person may see it. Computed from the prover's report.
pub fn flow_label(c: &Checked, flow: &Flow) -> Option<bool> {
    flow_reasons(c, flow).map(|r| r.needed && r.permitted)
}

/// Whether the recipients of a flow's form follow from the norms alone,
/// which the item states; a form with a written `visible` exception has
/// recipients that no reader of the item could work out, so it is not
/// asked about.
pub fn flow_stated(sc: &Scenario, flow: &Flow) -> bool {
    sc.attribute(&flow.attribute)
        .map(|a| &sc.attributes[a])
        .and_then(|attr| {
            let form = attr.form(flow.form)?;
            let norms = sc.norms();
            Some(sc.env(&norms).gives(attr, flow.form, &form.visible))
        })
        .unwrap_or(false)
}

/// The two halves of a flow's label, from the prover's report and the
/// norms.
pub fn flow_reasons(c: &Checked, flow: &Flow) -> Option<FlowReasons> {
    let sc = &c.scenario;
    let a = sc.attribute(&flow.attribute)?;
    let p = sc.person(&flow.person)?;
    let attr = &sc.attributes[a];
    let form = attr.form(flow.form)?;
    let needed = crate::driver::form_needed(c, a, flow.form);
    let norms = sc.norms();
    let env = sc.env(&norms);
    let follows = form.visible == env.derive(attr, flow.form);
    let norm = match env.grants(attr, flow.form, p).first() {
        Some((i, _)) if follows => crate::printer::norm(sc, &norms[*i]),
        _ => String::new(),
    };
    Some(FlowReasons {
        needed,
        permitted: form.visible.contains(&p),
        norm,
    })
}

/// The traps of a checked scenario, from the prover's report: every
/// attribute classed `trap`, with what honouring its fact allows.
pub fn traps(c: &Checked) -> Vec<Trap> {
    let sc = &c.scenario;
    c.report
        .attributes
        .iter()
        .enumerate()
        .filter(|(_, f)| f.class == crate::analysis::Class::Trap)
        .map(|(a, f)| Trap {
            attribute: sc.attributes[a].id.clone(),
            text: sc.attributes[a].raw.text.clone(),
            honoured_answer: f
                .facts
                .iter()
                .find_map(|&fact| {
                    c.report.facts[fact]
                        .trap
                        .as_ref()
                        .and_then(crate::analysis::TrapEffect::leads)
                        .map(|d| super::item::answer(sc, d))
                })
                .unwrap_or_default(),
        })
        .collect()
}
