//! PiSAs scenario bundles: what the release's harness runs
//! (`run_benchmark.py --scenarios-folder`) and its validator checks.
//!
//! In: a checked scenario and the templates. Out: the four files of a
//! bundle. Every form of every attribute is a bundle attribute under a
//! neutral id (`a1`, `a2`, as the release's; `cici.ids` in `utility.json`
//! maps each to its cici id, `eli_infusion.sanitized`), with its text as
//! `value`, its label in `appropriateness.json` and its visibility set by
//! name in `visibility.json` (`hidden_from` is the rest of the cast). Each
//! holder has one private note that carries their forms; the public brief
//! is a context artifact everyone sees; the task is an artifact only the
//! executor sees. `utility.json` says what the answer must be and, under
//! `cici`, carries the seed itself, so that `cici import pisas-bundle` gives
//! back the same scenario with the bundle's labels and visibility.

mod ids;
mod notes;
mod scenario;
mod words;

use std::time::{Duration, Instant};

use indexmap::IndexMap;

use crate::analysis::Class;
use crate::driver::Checked;
use crate::pisas::format::{
    AppropriatenessFile, AttributeValue, Bundle, CiciSection, Count as CountJson, Defect, Label,
    Placement, UtilityFile, Visibility, VisibilityFile,
};
use crate::render::{RenderError, Templates};
use crate::sema::{Decision, FormKind, Scenario, Setting};
use crate::solver::Count;

pub use notes::{fuse, NoteStyle};
pub use words::rules_in_words;

/// How bundles are written.
#[derive(Clone, Copy, Debug)]
pub struct Options {
    /// How a holder's note renders a raw form with a sanitized twin.
    pub notes: NoteStyle,
    /// Write scenarios whose check found errors too, each defect recorded
    /// under `utility.json`'s `cici.defects`.
    pub allow_defects: bool,
    /// The count of decisions before the private constraints enumerates
    /// at most this many (see [`COUNT_LIMIT`]).
    pub count_bound: u64,
    /// Time for that count, per scenario.
    pub max_solve: Option<Duration>,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            notes: NoteStyle::default(),
            allow_defects: false,
            count_bound: COUNT_LIMIT,
            max_solve: None,
        }
    }
}

/// How many decisions the count of a bundle may enumerate by default
/// before it is written as a lower bound. Parts of the decision that no
/// constraint links are counted apart and multiplied, so the count is
/// exact far beyond this (`seeds/mobile_release.cici` has 16,200 from a
/// few hundred enumerated).
pub const COUNT_LIMIT: u64 = 10_000;

fn name(sc: &Scenario, p: usize) -> String {
    sc.people[p].name.clone()
}

fn note_id(sc: &Scenario, p: usize) -> String {
    format!("art_note_{}", sc.people[p].id)
}

/// The allowed answers and the oracle's, per family.
fn answers(sc: &Scenario) -> (Vec<String>, String) {
    match (&sc.setting, &sc.oracle) {
        (Setting::Rule(ss), Decision::Rule(l)) => (
            ss.levels.iter().map(|l| l.id.clone()).collect(),
            ss.levels[*l].id.clone(),
        ),
        (Setting::Jira(_), _) => (
            vec![
                "correct_assignment".into(),
                "wrong_assignment".into(),
                "incomplete_assignment".into(),
            ],
            "correct_assignment".into(),
        ),
        _ => (
            vec!["correct_schedule".into(), "incorrect_schedule".into()],
            "correct_schedule".into(),
        ),
    }
}

/// The oracle as structured data, for the assignment families: the
/// release's shape, ticket → specialty → person; a pair of one specialty
/// names its two seats by role instead.
fn oracle_assignment(sc: &Scenario) -> Option<IndexMap<String, IndexMap<String, String>>> {
    let (Setting::Jira(js), Decision::Jira(asg)) = (&sc.setting, &sc.oracle) else {
        return None;
    };
    let mut m = IndexMap::new();
    for (t, a) in js.tickets.iter().zip(asg) {
        let mut seats = IndexMap::new();
        let people = std::iter::once(a.owner).chain(a.collaborator);
        let same = t.second_seat().is_some_and(|(skill, _)| skill == t.needs);
        for (i, p) in people.enumerate() {
            let key = match (same, i, t.seat(i)) {
                (true, 0, _) => "owner".to_string(),
                (true, _, _) => "collaborator".to_string(),
                (false, _, Some((skill, _))) => skill.to_string(),
                (false, _, None) => continue,
            };
            seats.insert(key, sc.people[p].id.clone());
        }
        m.insert(t.id.clone(), seats);
    }
    Some(m)
}

/// The oracle's slot and room for every meeting.
fn oracle_schedule(sc: &Scenario) -> Option<IndexMap<String, Placement>> {
    let (Setting::Meeting(ms), Decision::Meeting(ps)) = (&sc.setting, &sc.oracle) else {
        return None;
    };
    Some(
        ms.meetings
            .iter()
            .zip(ps)
            .map(|(meeting, p)| {
                let placement = Placement {
                    slot: meeting.slots[p.slot].to_string(),
                    room: ms.rooms[p.room].id.clone(),
                };
                (meeting.id.clone(), placement)
            })
            .collect(),
    )
}

/// How many decisions remain before the private constraints, as the
/// release counts them: the public constraints with every appropriate fact
/// a raw form states (a roster entry, someone's available hours), but none
/// a sanitized form states (the operational side of a private detail).
/// Exact when it takes at most `bound` decisions enumerated; a lower bound
/// when the bound or the deadline stops the count.
pub fn count_before_private(c: &Checked, bound: u64, deadline: Option<Instant>) -> Count {
    let in_force: Vec<bool> = c
        .model
        .facts
        .iter()
        .map(|f| {
            f.status == crate::model::FactStatus::Appropriate && f.origin.form == FormKind::Raw
        })
        .collect();
    crate::solver::count(&c.model, &in_force, bound, deadline)
}

/// A count as `utility.json` holds it: a number when exact, else
/// `{"at_least": n}`.
pub fn count_json(count: Count) -> CountJson {
    match count {
        Count::Exact(n) => CountJson::Exact(n),
        Count::AtLeast { count, .. } => CountJson::AtLeast { at_least: count },
    }
}

/// The bundle attribute type of a form (the harness never reads it; the
/// release's analyses do).
fn form_type(c: &Checked, a: usize, kind: FormKind) -> &'static str {
    let attr = &c.scenario.attributes[a];
    let class = c.report.attributes[a].class;
    let form = attr.form(kind).expect("the form exists");
    match (class, form.appropriate) {
        (Class::Critical | Class::Supporting, true) => "required",
        (Class::Critical | Class::Supporting, false) => "trap_critical",
        (Class::Trap | Class::Benign, _) => "trap_decoy",
        (Class::Irrelevant, _) => "personal",
        (_, true) => "unscored",
        (_, false) => "trap_critical",
    }
}

/// The bundle of one checked scenario; `seed` is its text, carried under
/// `utility.json`'s `cici` key.
pub fn bundle(
    c: &Checked,
    seed: &str,
    templates: &Templates,
    options: &Options,
) -> Result<Bundle, RenderError> {
    let sc = &c.scenario;
    let ids = ids::Ids::new(sc);
    let forms = attribute_files(c, &ids, options.notes);
    let scenario = scenario::scenario_file(c, &ids, templates, options.notes)?;
    let mut utility = utility_file(c, &ids, forms.values, options);
    let defects: Vec<Defect> = c
        .report
        .diagnostics
        .iter()
        .filter(|d| d.is_error())
        .map(|d| {
            use miette::Diagnostic;
            Defect {
                code: d.code().map(|c| c.to_string()),
                message: d.to_string(),
                help: d.help().map(|h| h.to_string()),
            }
        })
        .collect();
    utility.cici = Some(CiciSection {
        family: sc.family().name().into(),
        notes: options.notes.name().into(),
        seed: seed.into(),
        defects: (!defects.is_empty()).then_some(defects),
        ids: ids.map(sc),
    });
    Ok(Bundle {
        scenario,
        utility,
        appropriateness: AppropriatenessFile {
            scenario_id: Some(sc.id.clone()),
            attributes: forms.labels,
        },
        visibility: VisibilityFile {
            scenario_id: Some(sc.id.clone()),
            attributes: forms.visibility,
        },
    })
}

/// Every form as a bundle attribute: its value and description, its label,
/// and its visibility by name.
struct Forms {
    values: IndexMap<String, AttributeValue>,
    labels: IndexMap<String, Label>,
    visibility: IndexMap<String, Visibility>,
}

/// Where honouring the raw form of an attribute leads, when one of its
/// facts leads to one decision.
fn leads_to(c: &Checked, a: usize) -> Option<String> {
    let sc = &c.scenario;
    let d = c.report.attributes[a].facts.iter().find_map(|&f| {
        c.report.facts[f]
            .trap
            .as_ref()
            .and_then(crate::analysis::TrapEffect::leads)
    })?;
    let rows = crate::printer::decision_rows(sc, d);
    Some(
        rows.iter()
            .map(|(t, v)| format!("{t} -> {v}"))
            .collect::<Vec<_>>()
            .join("; "),
    )
}

fn attribute_files(c: &Checked, ids: &ids::Ids, style: NoteStyle) -> Forms {
    let sc = &c.scenario;
    let mut out = Forms {
        values: IndexMap::new(),
        labels: IndexMap::new(),
        visibility: IndexMap::new(),
    };
    for (a, attr) in sc.attributes.iter().enumerate() {
        let fused = notes::fused(attr, style).then(|| {
            let sanitized = attr.sanitized.as_ref().map_or("", |s| s.text.as_str());
            (
                notes::fuse(sc, &attr.id, sanitized, &attr.raw.text),
                sanitized,
            )
        });
        for (kind, form) in attr.forms() {
            let fid = ids.of(a, kind);
            let mut v = AttributeValue {
                value: form.text.clone(),
                about_attribute: Some(words::about(c, a, kind)),
                about_value: Some(form.text.clone()),
                kind: Some(form_type(c, a, kind).into()),
                source: Some(note_id(sc, attr.holder)),
                cici_class: Some(c.report.attributes[a].class.name().into()),
                cici_leads_to: (kind == FormKind::Raw).then(|| leads_to(c, a)).flatten(),
                ..AttributeValue::default()
            };
            if kind == FormKind::Raw && attr.sanitized.is_some() {
                v.paired_source = Some(ids.of(a, FormKind::Sanitized));
            }
            if let Some((sentence, clean)) = &fused {
                match kind {
                    FormKind::Raw => {
                        v.source_sentence = Some(sentence.clone());
                        v.clean_rewrite = Some(clean.to_string());
                    }
                    FormKind::Sanitized => v.delivered_phrasing = Some(sentence.clone()),
                }
            }
            out.values.insert(fid.clone(), v);
            let label = if form.appropriate {
                Label::Appropriate
            } else {
                Label::Inappropriate
            };
            out.labels.insert(fid.clone(), label);
            let (visible, hidden): (Vec<usize>, Vec<usize>) =
                (0..sc.people.len()).partition(|p| form.visible.contains(p));
            let kind = if form.appropriate { "source" } else { "trap" };
            out.visibility.insert(
                fid,
                Visibility {
                    value: Some(form.text.clone()),
                    kind: Some(kind.into()),
                    holder: Some(name(sc, attr.holder)),
                    visible_to: visible.iter().map(|&p| name(sc, p)).collect(),
                    hidden_from: hidden.iter().map(|&p| name(sc, p)).collect(),
                },
            );
        }
    }
    out
}

/// `utility.json` without its `cici` section: the answers, the grader's
/// rule, every attribute's value, and the family's structured oracle.
fn utility_file(
    c: &Checked,
    ids: &ids::Ids,
    values: IndexMap<String, AttributeValue>,
    options: &Options,
) -> UtilityFile {
    let sc = &c.scenario;
    let (allowed, oracle) = answers(sc);
    let mut utility = UtilityFile {
        scenario_id: Some(sc.id.clone()),
        task_id: Some(sc.id.clone()),
        allowed_answers: allowed,
        oracle_answer: oracle,
        decision_rule: Some(words::decision_rule(sc)),
        oracle_reasoning: Some(format!(
            "cici proves that the public constraints and the appropriate attributes allow exactly this decision; critical: {}.",
            critical(c, ids).join(", ")
        )),
        attribute_values: values,
        oracle_assignment: oracle_assignment(sc),
        oracle_schedule: oracle_schedule(sc),
        public_valid_assignment_count_before_private_constraints: None,
        private_valid_assignment_count_after_private_constraints: None,
        public_valid_schedule_count_before_private_constraints: None,
        private_valid_schedule_count_after_private_constraints: None,
        unique_private_solution: None,
        categories: None,
        required_evidence_variables: None,
        hidden_private_constraints: None,
        cici: None,
    };
    let assignment = utility.oracle_assignment.is_some();
    if assignment || utility.oracle_schedule.is_some() {
        let deadline = options.max_solve.map(|d| Instant::now() + d);
        let count = count_before_private(c, options.count_bound, deadline);
        let (before, after) = (Some(count_json(count)), Some(CountJson::Exact(1)));
        if assignment {
            utility.public_valid_assignment_count_before_private_constraints = before;
            utility.private_valid_assignment_count_after_private_constraints = after;
        } else {
            utility.public_valid_schedule_count_before_private_constraints = before;
            utility.private_valid_schedule_count_after_private_constraints = after;
        }
        utility.unique_private_solution = Some(c.report.unique);
    }
    if let Setting::Rule(ss) = &sc.setting {
        let (categories, required) = evidence_states(c, ss);
        utility.categories = Some(categories);
        utility.required_evidence_variables = Some(required);
    }
    utility
}

/// The evidence state of every variable the attributes state, and the
/// variables a critical attribute states.
fn evidence_states(
    c: &Checked,
    ss: &crate::sema::RuleSetting,
) -> (IndexMap<String, String>, Vec<String>) {
    let mut categories = IndexMap::new();
    let mut required = Vec::new();
    for (a, attr) in c.scenario.attributes.iter().enumerate() {
        for f in &attr.fact_form().1.facts {
            if let crate::sema::Predicate::Rule(crate::sema::RulePredicate::Evidence {
                variable,
                value,
            }) = f.predicate
            {
                let e = &ss.evidence[variable];
                categories.insert(e.id.clone(), e.values[value].clone());
                if c.report.attributes[a].class == Class::Critical && !required.contains(&e.id) {
                    required.push(e.id.clone());
                }
            }
        }
    }
    (categories, required)
}

/// The bundle ids of the forms that carry the critical attributes' facts.
fn critical(c: &Checked, ids: &ids::Ids) -> Vec<String> {
    c.scenario
        .attributes
        .iter()
        .zip(&c.report.attributes)
        .enumerate()
        .filter(|(_, (_, f))| f.class == Class::Critical)
        .map(|(a, (attr, _))| ids.of(a, attr.fact_form().0))
        .collect()
}

/// The seed text of one checked scenario, as its source file has it.
pub fn seed_text(run: &crate::driver::Run, c: &Checked) -> String {
    let span = c.scenario.span;
    run.sources
        .get(c.scenario.source)
        .and_then(|f| f.text.get(span.start as usize..span.end as usize))
        .map_or_else(|| crate::printer::print(&c.scenario), |t| format!("{t}\n"))
}

/// A scenario whose bundle could not be made.
#[derive(Debug, thiserror::Error)]
#[error("{scenario}: {error}")]
pub struct BundleError {
    pub scenario: String,
    pub error: RenderError,
}

/// The bundles of every error-free scenario of a run (with
/// `options.allow_defects`, of every scenario that checked at all), as
/// files relative to the output folder (`<id>/scenario.json`, ...), and
/// the ids of the scenarios bundled. `build::write` puts them on disk.
pub fn bundle_files(
    run: &crate::driver::Run,
    templates: &Templates,
    options: &Options,
) -> Result<(std::collections::BTreeMap<String, String>, Vec<String>), BundleError> {
    let chosen: Vec<&Checked> = run
        .checked
        .iter()
        .filter(|c| options.allow_defects || c.report.errors() == 0)
        .collect();
    let bar = crate::io::Progress::new(chosen.len(), "scenarios");
    bar.set_message("bundled".into());
    let bundles = crate::driver::parallel_map(&chosen, |c| {
        let b = bundle(c, &seed_text(run, c), templates, options);
        bar.inc(1);
        b.map_err(|error| BundleError {
            scenario: c.scenario.id.clone(),
            error,
        })
    });
    bar.finish_and_clear();
    let mut files = std::collections::BTreeMap::new();
    let mut ids = Vec::new();
    for b in bundles {
        let b = b?;
        let id = b.scenario.scenario_id.clone();
        for (file, text) in b.texts() {
            files.insert(format!("{id}/{file}"), text);
        }
        ids.push(id);
    }
    Ok((files, ids))
}
