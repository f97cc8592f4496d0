//! `scenario.json`: the task, the cast, the organisation, the timeline of
//! artifacts, and, in the release's meeting bundles, the calendar.

use indexmap::IndexMap;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// `scenario.json` of a bundle.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct ScenarioFile {
    pub scenario_id: String,
    pub task: Task,
    pub cast: Cast,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub org: Option<Org>,
    #[serde(default)]
    pub timeline: Vec<Artifact>,
    /// The calendar of a meeting bundle: its meetings, rooms and slots,
    /// and people's public availability.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub meetings: Option<Vec<MeetingEntry>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rooms: Option<Vec<RoomEntry>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub slots: Option<Vec<SlotEntry>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub people: Option<Vec<PersonEntry>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub domain: Option<String>,
    /// The scenario's title.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
}

/// What the executor is asked to do, and who takes part.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct Task {
    /// The task family (`jira_allocation`, `uas_flight_readiness`).
    #[serde(rename = "type", default, skip_serializing_if = "Option::is_none")]
    pub kind: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// The key of the executor among `participants`.
    pub executor_role: String,
    /// Who receives the executor's answer; `null` when nobody does.
    #[serde(default)]
    pub recipient: Option<String>,
    #[serde(default)]
    pub participants: IndexMap<String, Participant>,
    /// What the task is about (a sprint board, a calendar).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub subject: Option<Subject>,
}

/// A participant of the task, under the key the oracle names them by.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct Participant {
    pub name: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub role: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cast_id: Option<String>,
}

/// The subject of a task.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct Subject {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cast_id: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub role: Option<String>,
}

/// The cast: a map from cast id to member, or a list of members.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(untagged)]
pub enum Cast {
    Map(IndexMap<String, CastMember>),
    List(Vec<CastMember>),
}

impl Cast {
    /// The members in the order the file gives them.
    pub fn members(&self) -> Vec<&CastMember> {
        match self {
            Cast::Map(m) => m.values().collect(),
            Cast::List(l) => l.iter().collect(),
        }
    }
}

/// One person of the cast.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct CastMember {
    pub name: String,
    #[serde(default)]
    pub role: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub team: Option<String>,
    /// `executor`, `participant`, `subject`...
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub task_slot: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub participant: Option<bool>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub background: Option<String>,
}

/// Teams and relations; cici writes them and reads nothing from them.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct Org {
    #[serde(default)]
    pub teams: Vec<Team>,
    #[serde(default)]
    pub relations: Vec<serde_json::Value>,
}

/// One team of the organisation.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct Team {
    pub id: String,
    #[serde(default)]
    pub manager: Option<String>,
    #[serde(default)]
    pub members: Vec<String>,
    #[serde(default)]
    pub collaborators: Vec<String>,
}

/// One artifact of the timeline: a note, a brief, the task.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct Artifact {
    pub id: String,
    /// `artifact`, or `task` for the executor's assignment.
    #[serde(rename = "type")]
    pub kind: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub author: Option<String>,
    /// Who may read it, by name.
    #[serde(default)]
    pub visible_to: Vec<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub timestamp: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub source_type: Option<String>,
    pub content: String,
    /// The bundle attributes its content carries.
    #[serde(default)]
    pub attributes: Vec<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reveals: Option<Vec<serde_json::Value>>,
}

/// A meeting of a meeting bundle.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct MeetingEntry {
    pub id: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    #[serde(rename = "type", default, skip_serializing_if = "Option::is_none")]
    pub kind: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub duration_minutes: Option<u64>,
    #[serde(default)]
    pub required_attendees: Vec<String>,
    #[serde(default)]
    pub optional_attendees: Vec<String>,
    #[serde(default)]
    pub candidate_slots: Vec<String>,
    #[serde(default)]
    pub candidate_rooms: Vec<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub priority: Option<String>,
}

/// A room of a meeting bundle.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct RoomEntry {
    pub id: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    pub capacity: u64,
    #[serde(default)]
    pub features: Vec<String>,
}

/// A slot of a meeting bundle: a day and hours of the day (9.5 is 9:30).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct SlotEntry {
    pub id: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub label: Option<String>,
    pub day: String,
    pub start: f64,
    pub end: f64,
}

/// A person of a meeting bundle, with their public availability.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct PersonEntry {
    pub id: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// The slots the person is publicly free in; every slot when absent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub public_available_slots: Option<Vec<String>>,
}
