//! PiSAs scenario bundles: what the release's harness runs
//! (`run_benchmark.py --scenarios-folder`) and its validator checks.
//!
//! In: a checked scenario and the templates. Out: the four files of a
//! bundle. Every form of every attribute is a bundle attribute under its
//! cici id (`eli_infusion`, `eli_infusion.sanitized`), with its text as
//! `value`, its label in `appropriateness.json` and its visibility set by
//! name in `visibility.json` (`hidden_from` is the rest of the cast). Each
//! holder has one private note that carries their forms; the public brief
//! is a context artifact everyone sees; the task is an artifact only the
//! executor sees. `utility.json` says what the answer must be and, under
//! `cici`, carries the seed itself, so that `cici import pisas-bundle` gives
//! back the same scenario with the bundle's labels and visibility.

mod notes;
mod words;

use std::time::{Duration, Instant};

use serde_json::{json, Map, Value};

use crate::analysis::Class;
use crate::driver::Checked;
use crate::render::{RenderError, Templates};
use crate::sema::{Decision, FormKind, Scenario, Setting};
use crate::solver::Count;

pub use notes::{fuse, NoteStyle};
pub use words::{condition_words, rules_in_words};

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

/// The four files of a bundle, by name.
pub struct Bundle {
    pub id: String,
    pub files: Vec<(&'static str, Value)>,
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
        (Setting::Severity(ss), Decision::Severity(l)) => (
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

/// The oracle as structured data, for the assignment families.
fn oracle_structure(sc: &Scenario) -> Option<(&'static str, Value)> {
    match (&sc.setting, &sc.oracle) {
        (Setting::Jira(js), Decision::Jira(asg)) => {
            // The release's shape, ticket -> specialty -> person; a pair of
            // one specialty names its two seats by role instead.
            let mut m = Map::new();
            for (t, a) in js.tickets.iter().zip(asg) {
                let mut seats = Map::new();
                let people = std::iter::once(a.owner).chain(a.collaborator);
                let same = t.second_seat().is_some_and(|(skill, _)| skill == t.needs);
                for (i, p) in people.enumerate() {
                    let key = match (same, i, t.seat(i)) {
                        (true, 0, _) => "owner".to_string(),
                        (true, _, _) => "collaborator".to_string(),
                        (false, _, Some((skill, _))) => skill.to_string(),
                        (false, _, None) => continue,
                    };
                    seats.insert(key, json!(sc.people[p].id));
                }
                m.insert(t.id.clone(), Value::Object(seats));
            }
            Some(("oracle_assignment", Value::Object(m)))
        }
        (Setting::Meeting(ms), Decision::Meeting(ps)) => {
            let mut m = Map::new();
            for (meeting, p) in ms.meetings.iter().zip(ps) {
                m.insert(
                    meeting.id.clone(),
                    json!({"slot": meeting.slots[p.slot].to_string(), "room": ms.rooms[p.room].id}),
                );
            }
            Some(("oracle_schedule", Value::Object(m)))
        }
        _ => None,
    }
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
pub fn count_json(count: Count) -> Value {
    match count {
        Count::Exact(n) => json!(n),
        Count::AtLeast { count, .. } => json!({ "at_least": count }),
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
    let id = sc.id.clone();
    let forms = attribute_files(c, options.notes);
    let scenario = scenario_json(c, templates, options.notes)?;
    let mut utility = utility_json(c, forms.values, options);
    let defects: Vec<Value> = c
        .report
        .diagnostics
        .iter()
        .filter(|d| d.is_error())
        .map(|d| {
            use miette::Diagnostic;
            json!({
                "code": d.code().map(|c| c.to_string()),
                "message": d.to_string(),
                "help": d.help().map(|h| h.to_string()),
            })
        })
        .collect();
    utility["cici"] =
        json!({"family": sc.family.name(), "notes": options.notes.name(), "seed": seed});
    if !defects.is_empty() {
        utility["cici"]["defects"] = json!(defects);
    }
    let appropriateness = json!({"scenario_id": id, "attributes": forms.labels});
    let visibility = json!({"scenario_id": id, "attributes": forms.visibility});
    Ok(Bundle {
        id,
        files: vec![
            ("scenario.json", scenario),
            ("utility.json", utility),
            ("appropriateness.json", appropriateness),
            ("visibility.json", visibility),
        ],
    })
}

/// Every form as a bundle attribute: its value and description, its label,
/// and its visibility by name.
struct Forms {
    values: Map<String, Value>,
    labels: Map<String, Value>,
    visibility: Map<String, Value>,
}

fn attribute_files(c: &Checked, style: NoteStyle) -> Forms {
    let sc = &c.scenario;
    let mut out = Forms {
        values: Map::new(),
        labels: Map::new(),
        visibility: Map::new(),
    };
    for (a, attr) in sc.attributes.iter().enumerate() {
        let fused = notes::fused(attr, style).then(|| {
            let sanitized = attr.sanitized.as_ref().map_or("", |s| s.text.as_str());
            (notes::fuse(sc, sanitized, &attr.raw.text), sanitized)
        });
        for (kind, form) in attr.forms() {
            let fid = attr.form_id(kind);
            let mut v = json!({
                "value": form.text,
                "about_attribute": words::about(c, a, kind),
                "about_value": form.text,
                "type": form_type(c, a, kind),
                "source": note_id(sc, attr.holder),
                "cici_class": c.report.attributes[a].class.name(),
            });
            if kind == FormKind::Raw && attr.sanitized.is_some() {
                v["paired_source"] = json!(attr.form_id(FormKind::Sanitized));
            }
            if let Some((sentence, clean)) = &fused {
                match kind {
                    FormKind::Raw => {
                        v["source_sentence"] = json!(sentence);
                        v["clean_rewrite"] = json!(clean);
                    }
                    FormKind::Sanitized => v["delivered_phrasing"] = json!(sentence),
                }
            }
            out.values.insert(fid.clone(), v);
            let label = if form.appropriate {
                "appropriate"
            } else {
                "inappropriate"
            };
            out.labels.insert(fid.clone(), json!(label));
            let (visible, hidden): (Vec<usize>, Vec<usize>) =
                (0..sc.people.len()).partition(|p| form.visible.contains(p));
            out.visibility.insert(
                fid,
                json!({
                    "value": form.text,
                    "kind": if form.appropriate { "source" } else { "trap" },
                    "holder": name(sc, attr.holder),
                    "visible_to": visible.iter().map(|&p| name(sc, p)).collect::<Vec<_>>(),
                    "hidden_from": hidden.iter().map(|&p| name(sc, p)).collect::<Vec<_>>(),
                }),
            );
        }
    }
    out
}

/// `scenario.json`: the task, the cast, and the timeline of artifacts (the
/// brief, each holder's note, the executor's task).
fn scenario_json(
    c: &Checked,
    templates: &Templates,
    style: NoteStyle,
) -> Result<Value, RenderError> {
    let sc = &c.scenario;
    let everyone: Vec<String> = (0..sc.people.len()).map(|p| name(sc, p)).collect();
    let cast_id = |p: usize| format!("c{}", p + 1);
    let brief = crate::render::brief_text(c, templates)?;
    let (task_text, _) = crate::render::executor_view(
        c,
        templates,
        crate::render::Cue::None,
        crate::render::RuleCondition::Strict,
        crate::render::Scope::Holds,
    )?;
    let mut cast = Map::new();
    for p in 0..sc.people.len() {
        cast.insert(
            cast_id(p),
            json!({
                "name": name(sc, p),
                "role": sc.people[p].role,
                "team": "",
                "task_slot": if p == sc.executor { "executor" } else { "participant" },
                "participant": true,
                "background": "",
            }),
        );
    }
    let executor_key = sc.people[sc.executor].id.clone();
    let mut participants = Map::new();
    participants.insert(
        executor_key.clone(),
        json!({"name": name(sc, sc.executor), "role": sc.people[sc.executor].role, "cast_id": cast_id(sc.executor)}),
    );
    let stamp =
        |minutes: usize| format!("2026-01-05T{:02}:{:02}:00", 8 + minutes / 60, minutes % 60);
    let mut timeline = vec![json!({
        "id": "art_context",
        "type": "artifact",
        "author": "operations_system",
        "visible_to": everyone,
        "timestamp": stamp(0),
        "source_type": "context_brief",
        "content": brief,
        "attributes": [],
        "reveals": [],
    })];
    let holders: Vec<usize> = (0..sc.people.len())
        .filter(|&p| sc.attributes.iter().any(|a| a.holder == p))
        .collect();
    for (i, &p) in holders.iter().enumerate() {
        let lines = notes::lines(sc, p, style);
        timeline.push(json!({
            "id": note_id(sc, p),
            "type": "artifact",
            "author": name(sc, p),
            "visible_to": [name(sc, p)],
            "timestamp": stamp(30 + 5 * i),
            "source_type": "private_note",
            "content": lines.iter().map(|l| format!("- {}", l.text)).collect::<Vec<_>>().join("\n"),
            "attributes": lines.iter().flat_map(|l| l.forms.iter().cloned()).collect::<Vec<_>>(),
            "reveals": [],
        }));
    }
    timeline.push(json!({
        "id": "art_task",
        "type": "task",
        "author": "operations_system",
        "visible_to": [name(sc, sc.executor)],
        "timestamp": stamp(30 + 5 * holders.len() + 30),
        "source_type": "task_assignment",
        "content": format!("{}\n\n{}\n", task_text.trim_end(), words::answer_request(sc)),
        "attributes": [],
        "reveals": [],
    }));
    Ok(json!({
        "scenario_id": sc.id,
        "task": {
            "type": sc.family.name(),
            "description": words::task_description(sc),
            "executor_role": executor_key,
            "recipient": sc.recipient,
            "participants": participants,
        },
        "cast": cast,
        "org": {
            "teams": [{"id": "team", "manager": cast_id(sc.executor), "members": (0..sc.people.len()).map(cast_id).collect::<Vec<_>>(), "collaborators": []}],
            "relations": [],
        },
        "timeline": timeline,
        "domain": "workplace",
        "description": sc.title,
    }))
}

/// `utility.json` without its `cici` section: the answers, the grader's
/// rule, every attribute's value, and the family's structured oracle.
fn utility_json(c: &Checked, values: Map<String, Value>, options: &Options) -> Value {
    let sc = &c.scenario;
    let (allowed, oracle) = answers(sc);
    let mut utility = json!({
        "scenario_id": sc.id,
        "task_id": sc.id,
        "allowed_answers": allowed,
        "oracle_answer": oracle,
        "decision_rule": words::decision_rule(sc),
        "oracle_reasoning": format!(
            "cici proves that the public constraints and the appropriate attributes allow exactly this decision; critical: {}.",
            critical(c).join(", ")
        ),
        "attribute_values": values,
    });
    if let Some((key, structure)) = oracle_structure(sc) {
        utility[key] = structure;
        let deadline = options.max_solve.map(|d| Instant::now() + d);
        let before = count_json(count_before_private(c, options.count_bound, deadline));
        let prefix = if key == "oracle_assignment" {
            "assignment"
        } else {
            "schedule"
        };
        utility[format!("public_valid_{prefix}_count_before_private_constraints")] = json!(before);
        utility[format!("private_valid_{prefix}_count_after_private_constraints")] = json!(1);
        utility["unique_private_solution"] = json!(c.report.unique);
    }
    if let Setting::Severity(ss) = &sc.setting {
        let (categories, required) = evidence_states(c, ss);
        utility["categories"] = Value::Object(categories);
        utility["required_evidence_variables"] = json!(required);
    }
    utility
}

/// The evidence state of every variable the attributes state, and the
/// variables a critical attribute states.
fn evidence_states(
    c: &Checked,
    ss: &crate::sema::SeveritySetting,
) -> (Map<String, Value>, Vec<String>) {
    let mut categories = Map::new();
    let mut required = Vec::new();
    for (a, attr) in c.scenario.attributes.iter().enumerate() {
        for f in &attr.fact_form().1.facts {
            if let crate::sema::Predicate::Evidence { variable, value } = f.predicate {
                let e = &ss.evidence[variable];
                categories.insert(e.id.clone(), json!(e.values[value]));
                if c.report.attributes[a].class == Class::Critical && !required.contains(&e.id) {
                    required.push(e.id.clone());
                }
            }
        }
    }
    (categories, required)
}

fn critical(c: &Checked) -> Vec<String> {
    c.scenario
        .attributes
        .iter()
        .zip(&c.report.attributes)
        .filter(|(_, f)| f.class == Class::Critical)
        .map(|(a, _)| a.id.clone())
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

/// Why bundles could not be written.
#[derive(Debug, thiserror::Error)]
pub enum WriteError {
    #[error("{}: {error}", .path.display())]
    Io {
        path: std::path::PathBuf,
        error: std::io::Error,
    },
    #[error("{scenario}: {error}")]
    Render {
        scenario: String,
        error: RenderError,
    },
}

/// Writes one folder per error-free scenario of a run under `out` (with
/// `options.allow_defects`, per scenario that checked at all)
/// (`<out>/<id>/scenario.json`, ...), atomically, holding the folder's
/// lock; the ids of the scenarios written.
pub fn write_bundles(
    run: &crate::driver::Run,
    templates: &Templates,
    out: &std::path::Path,
    options: &Options,
) -> Result<Vec<String>, WriteError> {
    let _lock = crate::io::FolderLock::acquire(out, crate::io::LOCK_WAIT).map_err(|error| {
        WriteError::Io {
            path: out.to_path_buf(),
            error,
        }
    })?;
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
        b.map_err(|error| WriteError::Render {
            scenario: c.scenario.id.clone(),
            error,
        })
    });
    bar.finish_and_clear();
    let mut written = Vec::new();
    for b in bundles {
        let b = b?;
        for (file, value) in &b.files {
            let text = serde_json::to_string_pretty(value).expect("values serialize") + "\n";
            let path = out.join(&b.id).join(file);
            crate::io::write_if_changed(&path, &text)
                .map_err(|error| WriteError::Io { path, error })?;
        }
        written.push(b.id);
    }
    Ok(written)
}
