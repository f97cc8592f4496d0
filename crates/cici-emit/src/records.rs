//! A scenario's people and setting as plain serializable records: the
//! parts of the JSON export (`export::ScenarioExport`) that the templates
//! lay out too (`render::view`) and that a counterfactual item shows.
//! They sit below both, so neither the renderer nor the export reads the
//! other's records.

use schemars::JsonSchema;
use serde::Serialize;

use crate::printer::condition;
use crate::sema::{Condition, RuleSetting, Scenario, Setting};
use crate::words::id_words;

#[derive(Clone, Debug, Serialize, JsonSchema)]
#[schemars(deny_unknown_fields)]
pub struct PersonExport {
    pub id: String,
    pub name: String,
    pub role: String,
    pub skills: Vec<String>,
    /// The groups the person belongs to, for the norms that name them.
    #[serde(skip_serializing_if = "Vec::is_empty", default)]
    pub groups: Vec<String>,
    /// The id of the person's manager.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub reports_to: Option<String>,
}

impl PersonExport {
    /// Person `p` of a scenario.
    pub fn of(sc: &Scenario, p: crate::sema::PersonId) -> Self {
        let person = &sc.people[p];
        PersonExport {
            id: person.id.clone(),
            name: person.name.clone(),
            role: person.role.clone(),
            skills: person.skills.clone(),
            groups: person.groups.clone(),
            reports_to: person.manager.map(|m| sc.people[m].id.clone()),
        }
    }

    /// Every person of a scenario, in order.
    pub fn all(sc: &Scenario) -> Vec<Self> {
        (0..sc.people.len())
            .map(|p| PersonExport::of(sc, p))
            .collect()
    }
}

/// The family's public declarations.
#[derive(Clone, Debug, Serialize, JsonSchema)]
#[serde(tag = "family", rename_all = "snake_case")]
pub enum SettingExport {
    MeetingAllocation {
        rooms: Vec<RoomExport>,
        meetings: Vec<MeetingExport>,
    },
    JiraAllocation {
        tickets: Vec<TicketExport>,
    },
    SeverityClassification {
        levels: Vec<String>,
        evidence: Vec<EvidenceExport>,
        rubric: Vec<RuleExport>,
        /// Conditions of the configurations ruled out, in seed syntax.
        excludes: Vec<String>,
        /// The same conditions as sentences say them.
        excludes_read: Vec<String>,
    },
    PolicyDecision {
        outcomes: Vec<String>,
        evidence: Vec<EvidenceExport>,
        /// First match wins; a last rule without `when` is `otherwise`.
        rules: Vec<RuleExport>,
        /// Conditions of the configurations ruled out, in seed syntax.
        excludes: Vec<String>,
        /// The same conditions as sentences say them.
        excludes_read: Vec<String>,
    },
}

#[derive(Clone, Debug, Serialize, JsonSchema)]
#[schemars(deny_unknown_fields)]
pub struct RoomExport {
    pub id: String,
    pub name: Option<String>,
    pub capacity: u32,
    pub features: Vec<String>,
}

#[derive(Clone, Debug, Serialize, JsonSchema)]
#[schemars(deny_unknown_fields)]
pub struct MeetingExport {
    pub id: String,
    pub title: String,
    pub attendees: Vec<String>,
    /// Candidate slots as `DAY HH:MM-HH:MM`.
    pub slots: Vec<String>,
    pub rooms: Vec<String>,
    pub features: Vec<String>,
}

#[derive(Clone, Debug, Serialize, JsonSchema)]
#[schemars(deny_unknown_fields)]
pub struct TicketExport {
    pub id: String,
    pub title: String,
    pub needs: String,
    pub hours: u32,
    pub pair: bool,
    /// The second seat's skill and hours when it is not a `pair` of the
    /// first's.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub with: Option<SeatExport>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub priority: Option<crate::sema::Priority>,
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub collaboration_heavy: bool,
    pub sensitive: bool,
}

#[derive(Clone, Debug, Serialize, JsonSchema)]
#[schemars(deny_unknown_fields)]
pub struct SeatExport {
    pub skill: String,
    pub hours: u32,
}

#[derive(Clone, Debug, Serialize, JsonSchema)]
#[schemars(deny_unknown_fields)]
pub struct EvidenceExport {
    pub variable: String,
    pub values: Vec<String>,
}

/// A rubric rule; `when` is `None` for the final `otherwise`.
#[derive(Clone, Debug, Serialize, JsonSchema)]
#[schemars(deny_unknown_fields)]
pub struct RuleExport {
    pub level: String,
    pub when: Option<String>,
    /// The condition as a sentence says it (`customer data access is
    /// confirmed and active exploitation is present`); `None` with `when`.
    pub reads: Option<String>,
}

/// The family's public declarations, as exported.
pub fn setting(sc: &Scenario) -> SettingExport {
    let person = |p: &usize| sc.people[*p].id.clone();
    match &sc.setting {
        Setting::Meeting(ms) => SettingExport::MeetingAllocation {
            rooms: ms
                .rooms
                .iter()
                .map(|r| RoomExport {
                    id: r.id.clone(),
                    name: r.name.clone(),
                    capacity: r.capacity,
                    features: r.features.clone(),
                })
                .collect(),
            meetings: ms
                .meetings
                .iter()
                .map(|m| MeetingExport {
                    id: m.id.clone(),
                    title: m.title.clone(),
                    attendees: m.attendees.iter().map(person).collect(),
                    slots: m.slots.iter().map(|s| s.to_string()).collect(),
                    rooms: m.rooms.iter().map(|r| ms.rooms[*r].id.clone()).collect(),
                    features: m.features.clone(),
                })
                .collect(),
        },
        Setting::Jira(js) => SettingExport::JiraAllocation {
            tickets: js
                .tickets
                .iter()
                .map(|t| TicketExport {
                    id: t.id.clone(),
                    title: t.title.clone(),
                    needs: t.needs.clone(),
                    hours: t.hours,
                    pair: t.pair,
                    with: t.with.as_ref().map(|s| SeatExport {
                        skill: s.skill.clone(),
                        hours: s.hours,
                    }),
                    priority: t.priority,
                    collaboration_heavy: t.collaboration_heavy,
                    sensitive: t.sensitive,
                })
                .collect(),
        },
        Setting::Rule(ss) => {
            let levels: Vec<String> = ss.levels.iter().map(|l| l.id.clone()).collect();
            let evidence = ss
                .evidence
                .iter()
                .map(|e| EvidenceExport {
                    variable: e.id.clone(),
                    values: e.values.clone(),
                })
                .collect();
            let rules = ss
                .rubric
                .rules
                .iter()
                .map(|r| RuleExport {
                    level: ss.levels[r.level].id.clone(),
                    when: Some(condition(ss, &r.when)),
                    reads: Some(condition_words(ss, &r.when)),
                })
                .chain(ss.rubric.otherwise.map(|o| RuleExport {
                    level: ss.levels[o].id.clone(),
                    when: None,
                    reads: None,
                }))
                .collect();
            let excludes = ss.excludes.iter().map(|e| condition(ss, &e.when)).collect();
            let excludes_read = ss
                .excludes
                .iter()
                .map(|e| condition_words(ss, &e.when))
                .collect();
            match ss.kind {
                crate::sema::RuleKind::Policy => SettingExport::PolicyDecision {
                    outcomes: levels,
                    evidence,
                    rules,
                    excludes,
                    excludes_read,
                },
                crate::sema::RuleKind::Severity => SettingExport::SeverityClassification {
                    levels,
                    evidence,
                    rubric: rules,
                    excludes,
                    excludes_read,
                },
            }
        }
    }
}

/// A rubric condition as a sentence says it: names in words, `is` and `is
/// not` for the comparisons, lists joined with commas and a final `and` or
/// `or`, and `either … or …` or `not …` around a nested group.
pub fn condition_words(ss: &RuleSetting, c: &Condition) -> String {
    fn list(parts: Vec<String>, last: &str) -> String {
        match parts.as_slice() {
            [] => String::new(),
            [one] => one.clone(),
            [rest @ .., end] => format!("{} {last} {end}", rest.join(", ")),
        }
    }
    fn go(ss: &RuleSetting, c: &Condition, nested: bool) -> String {
        let var = |v: &usize| id_words(&ss.evidence[*v].id);
        let val = |v: &usize, x: &usize| id_words(&ss.evidence[*v].values[*x]);
        match c {
            Condition::Eq(v, x) => format!("{} is {}", var(v), val(v, x)),
            // With two values, `!= a` is `= b`; a value that is a negation
            // already is not negated again.
            Condition::Ne(v, x) => match ss.evidence[*v].values.len() {
                2 => format!("{} is {}", var(v), val(v, &(1 - x))),
                _ if val(v, x).starts_with("not ") => {
                    format!("{} is other than {}", var(v), val(v, x))
                }
                _ => format!("{} is not {}", var(v), val(v, x)),
            },
            Condition::In(v, xs) => format!(
                "{} is {}",
                var(v),
                list(xs.iter().map(|x| val(v, x)).collect(), "or")
            ),
            Condition::Not(inner) => format!("not ({})", go(ss, inner, false)),
            Condition::And(parts) => {
                let body = list(parts.iter().map(|p| go(ss, p, true)).collect(), "and");
                if nested {
                    format!("both {body}")
                } else {
                    body
                }
            }
            Condition::Or(parts) => {
                let body = list(parts.iter().map(|p| go(ss, p, true)).collect(), "or");
                if nested || parts.len() > 1 {
                    format!("either {body}")
                } else {
                    body
                }
            }
        }
    }
    go(ss, c, false)
}
