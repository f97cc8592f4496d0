//! `scenario.json` of a bundle: the task, the cast, and the timeline of
//! artifacts (the brief, each holder's note, the executor's task).

use super::ids::Ids;
use indexmap::IndexMap;

use super::notes::NoteStyle;
use super::{name, note_id, notes, words};
use crate::driver::Checked;
use crate::pisas::format::{
    Artifact, Cast, CastMember, Org, Participant, ScenarioFile, Task, Team,
};
use crate::render::{RenderError, Templates};

/// The cast id of person `p`.
fn cast_id(p: usize) -> String {
    format!("c{}", p + 1)
}

/// A time on the scenario's one day, `minutes` after 8:00.
fn stamp(minutes: usize) -> String {
    format!("2026-01-05T{:02}:{:02}:00", 8 + minutes / 60, minutes % 60)
}

/// An artifact of the timeline, with nothing revealed.
fn artifact(id: String, kind: &str, author: String, visible_to: Vec<String>) -> Artifact {
    Artifact {
        id,
        kind: kind.into(),
        author: Some(author),
        visible_to,
        timestamp: None,
        source_type: None,
        content: String::new(),
        attributes: Vec::new(),
        reveals: Some(Vec::new()),
    }
}

pub(super) fn scenario_file(
    c: &Checked,
    ids: &Ids,
    templates: &Templates,
    style: NoteStyle,
) -> Result<ScenarioFile, RenderError> {
    let sc = &c.scenario;
    let everyone: Vec<String> = (0..sc.people.len()).map(|p| name(sc, p)).collect();
    let executor_key = sc.people[sc.executor].id.clone();
    let participants = IndexMap::from([(
        executor_key.clone(),
        Participant {
            name: name(sc, sc.executor),
            role: Some(sc.people[sc.executor].role.clone()),
            cast_id: Some(cast_id(sc.executor)),
        },
    )]);
    Ok(ScenarioFile {
        scenario_id: sc.id.clone(),
        task: Task {
            kind: Some(sc.family().name().into()),
            description: Some(words::task_description(sc)),
            executor_role: executor_key,
            recipient: sc.recipient.clone(),
            participants,
            subject: None,
        },
        cast: cast(c),
        org: Some(Org {
            teams: vec![Team {
                id: "team".into(),
                manager: Some(cast_id(sc.executor)),
                members: (0..sc.people.len()).map(cast_id).collect(),
                collaborators: Vec::new(),
            }],
            relations: Vec::new(),
        }),
        timeline: timeline(c, ids, templates, style, everyone)?,
        meetings: None,
        rooms: None,
        slots: None,
        people: None,
        domain: Some("workplace".into()),
        description: Some(sc.title.clone()),
    })
}

fn cast(c: &Checked) -> Cast {
    let sc = &c.scenario;
    Cast::Map(
        (0..sc.people.len())
            .map(|p| {
                let slot = if p == sc.executor {
                    "executor"
                } else {
                    "participant"
                };
                let member = CastMember {
                    name: name(sc, p),
                    role: sc.people[p].role.clone(),
                    team: Some(String::new()),
                    task_slot: Some(slot.into()),
                    participant: Some(true),
                    background: Some(String::new()),
                };
                (cast_id(p), member)
            })
            .collect(),
    )
}

/// The brief everyone sees, one private note per holder, and the task only
/// the executor sees.
fn timeline(
    c: &Checked,
    ids: &Ids,
    templates: &Templates,
    style: NoteStyle,
    everyone: Vec<String>,
) -> Result<Vec<Artifact>, RenderError> {
    let sc = &c.scenario;
    let (brief, task_text, _) =
        crate::render::brief_and_task(c, templates, crate::render::RuleCondition::Strict, None)?;
    let system = "operations_system".to_string();
    let mut context = artifact("art_context".into(), "artifact", system.clone(), everyone);
    context.timestamp = Some(stamp(0));
    context.source_type = Some("context_brief".into());
    context.content = brief;
    let mut timeline = vec![context];
    let holders: Vec<usize> = (0..sc.people.len())
        .filter(|&p| sc.attributes.iter().any(|a| a.holder == p))
        .collect();
    for (i, &p) in holders.iter().enumerate() {
        let lines = notes::lines(sc, ids, p, style);
        let mut note = artifact(note_id(sc, p), "artifact", name(sc, p), vec![name(sc, p)]);
        note.timestamp = Some(stamp(30 + 5 * i));
        note.source_type = Some("private_note".into());
        note.content = lines
            .iter()
            .map(|l| format!("- {}", l.text))
            .collect::<Vec<_>>()
            .join("\n");
        note.attributes = lines.iter().flat_map(|l| l.forms.iter().cloned()).collect();
        timeline.push(note);
    }
    let executor = vec![name(sc, sc.executor)];
    let mut task = artifact("art_task".into(), "task", system, executor);
    task.timestamp = Some(stamp(30 + 5 * holders.len() + 30));
    task.source_type = Some("task_assignment".into());
    task.content = format!(
        "{}\n\n{}\n",
        task_text.trim_end(),
        words::answer_request(sc)
    );
    timeline.push(task);
    Ok(timeline)
}
