//! What the templates see: plain serializable views of a scenario.

use serde::Serialize;

use super::templates::CuePools;
use super::{Cue, RuleCondition, Skill};
use crate::driver::Checked;
use crate::records::{self, PersonExport, SettingExport};
use crate::sema::{Category, FormKind, PersonId, Scenario};

#[derive(Serialize)]
pub struct BriefView {
    /// Person id to display name, for the templates' lookups.
    pub names: std::collections::BTreeMap<String, String>,
    /// Room id to display name (the id where the room has no name).
    pub room_names: std::collections::BTreeMap<String, String>,
    pub id: String,
    pub title: String,
    pub family: &'static str,
    pub public: Vec<String>,
    pub executor: PersonExport,
    pub recipient: Option<String>,
    pub people: Vec<PersonExport>,
    pub setting: SettingExport,
    /// The scenario's stated norms in plain words; empty where it states
    /// none (its family's defaults, which the labels already say).
    pub norms: Vec<String>,
    /// The task's purpose, in words.
    pub purpose: String,
    /// Each manager with the people who report to them, in the team's
    /// order: one line per manager, so that a manager's name is written
    /// once however many people report to them.
    pub reporting: Vec<ReportingLine>,
}

#[derive(Serialize)]
pub struct ReportingLine {
    pub manager: String,
    pub reports: String,
}

fn reporting(sc: &crate::sema::Scenario) -> Vec<ReportingLine> {
    (0..sc.people.len())
        .filter_map(|m| {
            let reports: Vec<String> = sc
                .people
                .iter()
                .filter(|p| p.manager == Some(m))
                .map(|p| p.name.clone())
                .collect();
            let reports = match reports.as_slice() {
                [] => return None,
                [one] => one.clone(),
                [rest @ .., last] => format!("{} and {last}", rest.join(", ")),
            };
            Some(ReportingLine {
                manager: sc.people[m].name.clone(),
                reports,
            })
        })
        .collect()
}

#[derive(Serialize)]
pub struct RuleView {
    /// `strict` or `policy`.
    pub condition: &'static str,
    /// The seed's own policy text, where it has one.
    pub policy: Option<String>,
}

#[derive(Serialize)]
pub struct SkillView {
    pub name: &'static str,
}

/// The executor's task under one rule condition, and a leakage skill for
/// the stress variants.
#[derive(Serialize)]
pub struct TaskView {
    /// The brief as the templates read it, converted once per scenario
    /// ([`brief_value`]) however many tasks and stress variants share it.
    pub brief: minijinja::Value,
    pub task: String,
    pub rule: Option<RuleView>,
    pub skill: Option<SkillView>,
}

/// One entry of a knowledge file.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct KnowledgeItem {
    /// Index of the attribute in the scenario (not shown to readers: ids can
    /// give reasons away).
    #[serde(skip)]
    pub attribute: usize,
    /// The form whose text is shown.
    #[serde(skip)]
    pub form: FormKind,
    pub text: String,
    /// A privacy cue, under the privacy conditions.
    pub cue: Option<String>,
    /// The shareable (sanitized) version, under the sanitized conditions.
    pub shareable: Option<String>,
    /// Whether the person holds the detail themselves.
    pub own: bool,
    /// Who holds the detail, by name.
    pub holder: String,
}

/// The details one teammate would give, in a `would_gather` view.
#[derive(Serialize)]
pub struct Source {
    pub holder: PersonExport,
    pub items: Vec<KnowledgeItem>,
}

#[derive(Serialize)]
pub struct KnowledgeView {
    pub person: PersonExport,
    pub scenario: String,
    pub condition: &'static str,
    /// `holds` (the person's own attributes) or `may_receive` (every form
    /// the person may be told).
    pub scope: &'static str,
    pub items: Vec<KnowledgeItem>,
    /// For `would_gather`: the items grouped by the teammate who holds them,
    /// in the team's order.
    pub sources: Vec<Source>,
}

fn person(sc: &Scenario, p: PersonId) -> PersonExport {
    PersonExport::of(sc, p)
}

pub fn brief(c: &Checked) -> BriefView {
    let sc = &c.scenario;
    BriefView {
        names: sc
            .people
            .iter()
            .map(|p| (p.id.clone(), p.name.clone()))
            .collect(),
        room_names: sc
            .meeting_setting()
            .map(|ms| {
                ms.rooms
                    .iter()
                    .map(|r| (r.id.clone(), r.name.clone().unwrap_or_else(|| r.id.clone())))
                    .collect()
            })
            .unwrap_or_default(),
        id: sc.id.clone(),
        title: sc.title.clone(),
        family: sc.family().name(),
        public: sc.public.clone(),
        executor: person(sc, sc.executor),
        recipient: sc.recipient.clone(),
        people: PersonExport::all(sc),
        setting: records::setting(sc),
        norms: match sc.norms {
            Some(_) => super::norms::sentences(sc),
            None => Vec::new(),
        },
        purpose: super::norms::purpose_words(sc.purpose()),
        reporting: reporting(sc),
    }
}

/// The brief as the templates read it.
pub fn brief_value(brief: &BriefView) -> minijinja::Value {
    minijinja::Value::from(minijinja::value::Serde(brief))
}

pub fn task(
    c: &Checked,
    brief: &minijinja::Value,
    rule: Option<RuleCondition>,
    skill: Option<Skill>,
) -> TaskView {
    let sc = &c.scenario;
    TaskView {
        brief: brief.clone(),
        task: sc.task.clone(),
        rule: match rule {
            None | Some(RuleCondition::None) => None,
            Some(r) => Some(RuleView {
                condition: r.name(),
                policy: sc.policy.clone(),
            }),
        },
        skill: skill.map(|s| SkillView { name: s.name() }),
    }
}

/// A stable choice from a pool, keyed by scenario and attribute, so that
/// rebuilding gives the same cue.
fn pick<'a>(pool: &'a [String], key: &str) -> &'a str {
    // FNV-1a: stable across platforms and releases, unlike std's hasher.
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in key.bytes() {
        h ^= b as u64;
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    &pool[(h % pool.len() as u64) as usize]
}

/// Whose information a knowledge view shows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Scope {
    /// What the person holds: the attributes they are the holder of, as
    /// in a team where each member knows their own and the rest must be
    /// asked for. What `build` writes per person.
    Holds,
    /// Every form the person may receive: one agent that sees the whole
    /// information environment (`gathered.md`).
    MayReceive,
    /// Every detail the person would gather by asking each holder, as the
    /// holder has it: raw personal forms and soft pressures included, so
    /// that using only what is appropriate is the reader's judgement (the
    /// decision items of the counterfactual loop, after PiSAs's cue
    /// conditions).
    WouldGather,
}

impl Scope {
    pub fn name(self) -> &'static str {
        match self {
            Scope::Holds => "holds",
            Scope::MayReceive => "may_receive",
            Scope::WouldGather => "would_gather",
        }
    }
}

/// What person `p` holds, may receive or would gather (`scope`), presented
/// under the cue condition. Under `holds` and `may_receive` every item shows
/// only forms whose visibility set contains `p`; under `would_gather` every
/// attribute shows its raw form, as its holder has it.
pub fn knowledge(
    c: &Checked,
    p: PersonId,
    cue: Cue,
    pools: &CuePools,
    scope: Scope,
) -> Vec<KnowledgeItem> {
    let sc = &c.scenario;
    let mut items = Vec::new();
    for (a, attr) in sc.attributes.iter().enumerate() {
        if scope == Scope::Holds && attr.holder != p {
            continue;
        }
        let raw_visible = scope == Scope::WouldGather || attr.raw.visible.contains(&p);
        let sanitized = attr
            .sanitized
            .as_ref()
            .filter(|s| scope == Scope::WouldGather || s.visible.contains(&p));
        let own = attr.holder == p;
        let holder = sc.people[attr.holder].name.clone();
        if raw_visible {
            items.push(KnowledgeItem {
                attribute: a,
                form: FormKind::Raw,
                text: attr.raw.text.clone(),
                cue: cue.privacy().then(|| cue_text(c, a, pools)).flatten(),
                shareable: sanitized
                    .filter(|_| cue.sanitized())
                    .map(|s| s.text.clone()),
                own,
                holder,
            });
        } else if let Some(s) = sanitized {
            items.push(KnowledgeItem {
                attribute: a,
                form: FormKind::Sanitized,
                text: s.text.clone(),
                cue: None,
                shareable: None,
                own,
                holder,
            });
        }
    }
    items
}

/// The privacy note of attribute `a`'s raw form: a personal detail, or a
/// colleague's push, a guess or a preference. Chosen by the category alone,
/// never by whether the decision needs the detail or may use it (a note
/// that said so would answer the item), drawn stably from its pool, with
/// the family's decision and the category's matter in its words.
fn cue_text(c: &Checked, a: usize, pools: &CuePools) -> Option<String> {
    let sc = &c.scenario;
    let attr = &sc.attributes[a];
    let pool = match attr.category? {
        k if k.is_personal() => &pools.personal,
        Category::Pressure | Category::Speculation | Category::Preference => pools.not_basis(),
        _ => return None,
    };
    let text = pick(pool, &format!("{}/{}", sc.id, attr.id));
    Some(
        text.replace("{decision}", decision_words(sc.family()))
            .replace("{concerns}", &matter_words(attr.category)),
    )
}

/// What the family decides, as a privacy note names it.
fn decision_words(family: crate::sema::Family) -> &'static str {
    match family.name() {
        "meeting_allocation" => "the schedule",
        "jira_allocation" => "the assignment",
        "policy_decision" => "the outcome",
        _ => "the severity",
    }
}

/// What a detail concerns, as a privacy note names it.
fn matter_words(category: Option<Category>) -> String {
    category
        .map_or("a personal matter", Category::concerns)
        .to_string()
}

pub fn knowledge_view(
    c: &Checked,
    p: PersonId,
    cue: Cue,
    pools: &CuePools,
    scope: Scope,
) -> KnowledgeView {
    let items = knowledge(c, p, cue, pools, scope);
    KnowledgeView {
        person: person(&c.scenario, p),
        scenario: c.scenario.title.clone(),
        condition: cue.name(),
        scope: scope.name(),
        sources: match scope {
            Scope::WouldGather => sources(&c.scenario, &items),
            _ => Vec::new(),
        },
        items,
    }
}

/// The items grouped by holder, in the team's order.
fn sources(sc: &Scenario, items: &[KnowledgeItem]) -> Vec<Source> {
    (0..sc.people.len())
        .filter_map(|h| {
            let mine: Vec<KnowledgeItem> = items
                .iter()
                .filter(|i| sc.attributes[i.attribute].holder == h)
                .cloned()
                .collect();
            (!mine.is_empty()).then(|| Source {
                holder: person(sc, h),
                items: mine,
            })
        })
        .collect()
}
