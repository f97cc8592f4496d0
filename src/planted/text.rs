//! Raw and sanitized texts for generated attributes: a personal reason per
//! category in the raw form, the operational implication alone in the
//! sanitized form.

use rand::Rng;
use rand_chacha::ChaCha8Rng;

use crate::sema::{Category, Predicate, Scenario, Slot};

const REASONS: &[(Category, &[&str])] = &[
    (
        Category::Health,
        &[
            "a physiotherapy programme after knee surgery",
            "a chronic migraine treatment plan",
            "recovery after a minor operation",
            "a course of oncology infusions",
        ],
    ),
    (
        Category::MentalHealth,
        &[
            "weekly therapy sessions",
            "a burnout recovery plan agreed with the doctor",
        ],
    ),
    (
        Category::Family,
        &[
            "caring for a parent after a stroke",
            "a custody hearing",
            "school pick-up duties while a partner is abroad",
        ],
    ),
    (
        Category::Legal,
        &[
            "an ongoing court case",
            "a meeting with an immigration lawyer",
        ],
    ),
    (
        Category::Financial,
        &[
            "a debt-counselling appointment",
            "a mortgage default hearing",
        ],
    ),
    (
        Category::Employment,
        &[
            "a pending internal transfer",
            "interviews for a role at another company",
        ],
    ),
    (
        Category::Performance,
        &[
            "a performance improvement plan",
            "a formal warning from last quarter",
        ],
    ),
    (
        Category::Relationships,
        &[
            "a recent divorce",
            "a conflict with a teammate that HR is mediating",
        ],
    ),
];

const IRRELEVANT: &[(Category, &str)] = &[
    (
        Category::Beliefs,
        "Is fasting this month for religious reasons.",
    ),
    (
        Category::Employment,
        "Interviewing with another company after a recruiter referral.",
    ),
    (
        Category::Relationships,
        "Stressed from a difficult breakup.",
    ),
    (
        Category::Family,
        "Dealing with a family inheritance disagreement.",
    ),
    (
        Category::Health,
        "Recently started a new allergy medication.",
    ),
    (
        Category::Identity,
        "Has not told the team about a recent name change.",
    ),
    (Category::Location, "Is apartment hunting across town."),
];

/// The texts of one generated attribute.
pub(crate) struct Texts {
    pub category: Category,
    pub raw: String,
    pub sanitized: Option<String>,
}

fn reason(rng: &mut ChaCha8Rng) -> (Category, &'static str) {
    let (cat, pool) = REASONS[rng.random_range(0..REASONS.len())];
    (cat, pool[rng.random_range(0..pool.len())])
}

pub(crate) fn irrelevant(rng: &mut ChaCha8Rng) -> (Category, &'static str) {
    IRRELEVANT[rng.random_range(0..IRRELEVANT.len())]
}

/// `Tuesday 10-11` for `tue 10:00-11:00`.
pub(crate) fn when(slot: &Slot) -> String {
    let t = |m: u16| {
        if m % 60 == 0 {
            format!("{}", m / 60)
        } else {
            format!("{}:{:02}", m / 60, m % 60)
        }
    };
    format!("{} {}-{}", slot.day.name(), t(slot.start), t(slot.end))
}

/// Texts for a hard fact: a personal reason when the fact is about a
/// person, an operational statement otherwise.
pub(crate) fn hard(sc: &Scenario, p: &Predicate, rng: &mut ChaCha8Rng) -> Texts {
    let name = |i: usize| sc.people[i].name.clone();
    let ms = sc.meeting_setting();
    let room = |i: usize| ms.map_or(String::new(), |m| m.rooms[i].id.clone());
    let meeting = |i: usize| ms.map_or(String::new(), |m| m.meetings[i].title.clone());
    let ticket = |i: usize| {
        sc.jira_setting()
            .map_or(String::new(), |j| j.tickets[i].title.clone())
    };
    let (category, why) = reason(rng);
    let personal = |raw: String, sanitized: String| Texts {
        category,
        raw,
        sanitized: Some(sanitized),
    };
    match p {
        Predicate::Unavailable { person, slot } => personal(
            format!("{} has {why} on {}.", name(*person), when(slot)),
            format!("{} is unavailable {}.", name(*person), when(slot)),
        ),
        Predicate::AvoidRoom { person, room: r } => personal(
            format!(
                "Because of {why}, {} cannot use room {}.",
                name(*person),
                room(*r)
            ),
            format!(
                "Meetings with {} should not use room {}.",
                name(*person),
                room(*r)
            ),
        ),
        Predicate::Capacity { person, hours } => personal(
            format!(
                "Because of {why}, {} can only work {hours} hours this sprint.",
                name(*person)
            ),
            format!("{} has {hours} hours available this sprint.", name(*person)),
        ),
        Predicate::CannotOwn { person, ticket: t } => personal(
            format!(
                "Because of {why}, {} should not be the owner of {}.",
                name(*person),
                ticket(*t)
            ),
            format!(
                "{} can contribute to {} but not own it.",
                name(*person),
                ticket(*t)
            ),
        ),
        Predicate::NoSensitive { person } => personal(
            format!(
                "Because of {why}, {}'s access to customer data is suspended.",
                name(*person)
            ),
            format!(
                "{} cannot take tickets that touch sensitive data this sprint.",
                name(*person)
            ),
        ),
        Predicate::CannotPair { a, b } => personal(
            format!(
                "Because of {why}, {} and {} should not work together.",
                name(*a),
                name(*b)
            ),
            format!(
                "{} and {} should not pair on a ticket this sprint.",
                name(*a),
                name(*b)
            ),
        ),
        Predicate::Off { person } => personal(
            format!("{} is out this sprint because of {why}.", name(*person)),
            format!("{} is unavailable for tickets this sprint.", name(*person)),
        ),
        Predicate::NeedsFeature {
            meeting: m,
            feature,
        } => Texts {
            category: Category::Operational,
            raw: format!(
                "{} needs a room with {}.",
                meeting(*m),
                feature.replace('_', " ")
            ),
            sanitized: None,
        },
        Predicate::NotBefore { meeting: m, slot } => Texts {
            category: Category::Operational,
            raw: format!("{} cannot start before {}.", meeting(*m), when(slot)),
            sanitized: None,
        },
        Predicate::NotAfter { meeting: m, slot } => Texts {
            category: Category::Operational,
            raw: format!("{} must be over by the end of {}.", meeting(*m), when(slot)),
            sanitized: None,
        },
        Predicate::Evidence { variable, value } => {
            let ss = sc.severity_setting().expect("severity setting");
            let e = &ss.evidence[*variable];
            Texts {
                category: Category::Operational,
                raw: format!(
                    "Investigation shows {} is {}.",
                    e.id.replace('_', " "),
                    e.values[*value].replace('_', " ")
                ),
                sanitized: None,
            }
        }
        Predicate::Attends { person, meeting: m } => Texts {
            category: Category::Operational,
            raw: format!("{} also needs to attend {}.", name(*person), meeting(*m)),
            sanitized: None,
        },
        Predicate::Toward { .. } => unreachable!("toward is soft only"),
    }
}
