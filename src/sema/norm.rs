//! Norms: who may receive which kinds of information in a scenario's
//! context, and the visibility of every form derived from them.
//!
//! A norm is `share <kinds> with <recipients> [for <purpose>]`. A form's
//! visibility is its holder plus everyone a norm that matches the form, and
//! applies to the scenario's purpose, lets receive it. A scenario without a
//! `norms` block has its family's defaults, which give what the language has
//! always given: forms appropriate for the task go to everyone, the others
//! stay with their holder and subject.

use std::borrow::Cow;

use super::scenario::{Attribute, Category, Family, FormKind, Person, PersonId, Scenario};
use crate::span::Span;

/// A kind of information a norm speaks of.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum InfoKind {
    /// Every form.
    Any,
    /// A form as its holder first put it.
    Raw,
    /// A form worded without its personal reason.
    Sanitized,
    /// A form labelled appropriate to use for the task.
    Appropriate,
    /// A form labelled not appropriate to use for the task.
    Inappropriate,
    /// A raw form of a personal category.
    Personal,
    /// A raw form of this category.
    Category(Category),
}

/// Who a norm lets receive information.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Recipient {
    /// Everyone working on the task: every person of the scenario.
    Everyone,
    /// The person who makes the decision.
    Executor,
    /// The person who holds the attribute.
    Holder,
    /// The person the attribute is about.
    Subject,
    /// The manager of the person the attribute is about.
    Manager,
    /// Every member of a group.
    Group(String),
    /// One person.
    Person(PersonId),
}

/// One norm of a scenario.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Norm {
    pub kinds: Vec<InfoKind>,
    pub recipients: Vec<Recipient>,
    /// The purpose the norm holds for; `None` for every purpose.
    pub purpose: Option<String>,
    pub span: Span,
}

/// The names a norm's kinds are written with, besides the categories.
pub const KIND_WORDS: [&str; 6] = [
    "any",
    "raw",
    "sanitized",
    "appropriate",
    "inappropriate",
    "personal",
];

/// The names a norm's recipients are written with, besides groups and people.
pub const RECIPIENT_WORDS: [&str; 5] = ["everyone", "executor", "holder", "subject", "manager"];

impl InfoKind {
    /// The kind as a seed writes it.
    pub fn name(&self) -> &'static str {
        match self {
            InfoKind::Any => "any",
            InfoKind::Raw => "raw",
            InfoKind::Sanitized => "sanitized",
            InfoKind::Appropriate => "appropriate",
            InfoKind::Inappropriate => "inappropriate",
            InfoKind::Personal => "personal",
            InfoKind::Category(c) => c.name(),
        }
    }

    pub fn from_name(name: &str) -> Option<InfoKind> {
        Some(match name {
            "any" => InfoKind::Any,
            "raw" => InfoKind::Raw,
            "sanitized" => InfoKind::Sanitized,
            "appropriate" => InfoKind::Appropriate,
            "inappropriate" => InfoKind::Inappropriate,
            "personal" => InfoKind::Personal,
            other => InfoKind::Category(Category::from_name(other)?),
        })
    }

    /// Whether one form of an attribute is of this kind. A sanitized form
    /// is of no category: sanitizing takes the personal reason out.
    pub fn matches(&self, attr: &Attribute, kind: FormKind) -> bool {
        let Some(form) = attr.form(kind) else {
            return false;
        };
        let raw_category = match kind {
            FormKind::Raw => attr.category,
            FormKind::Sanitized => None,
        };
        match self {
            InfoKind::Any => true,
            InfoKind::Raw => kind == FormKind::Raw,
            InfoKind::Sanitized => kind == FormKind::Sanitized,
            InfoKind::Appropriate => form.appropriate,
            InfoKind::Inappropriate => !form.appropriate,
            InfoKind::Personal => raw_category.is_some_and(Category::is_personal),
            InfoKind::Category(c) => raw_category == Some(*c),
        }
    }
}

impl Recipient {
    /// The recipient as a seed writes it.
    pub fn name<'a>(&'a self, people: &'a [Person]) -> &'a str {
        match self {
            Recipient::Everyone => "everyone",
            Recipient::Executor => "executor",
            Recipient::Holder => "holder",
            Recipient::Subject => "subject",
            Recipient::Manager => "manager",
            Recipient::Group(g) => g,
            Recipient::Person(p) => &people[*p].id,
        }
    }

    /// Whether person `p` is this recipient for an attribute.
    pub fn includes(&self, env: &Env, attr_holder: PersonId, about: PersonId, p: PersonId) -> bool {
        match self {
            Recipient::Everyone => true,
            Recipient::Executor => p == env.executor,
            Recipient::Holder => p == attr_holder,
            Recipient::Subject => p == about,
            Recipient::Manager => env.people[about].manager == Some(p),
            Recipient::Group(g) => env.people[p].groups.iter().any(|x| x == g),
            Recipient::Person(q) => p == *q,
        }
    }
}

/// Every group a person of the team belongs to, sorted, each once.
pub fn team_groups(people: &[Person]) -> Vec<&str> {
    let mut groups: Vec<&str> = people
        .iter()
        .flat_map(|p| p.groups.iter().map(String::as_str))
        .collect();
    groups.sort_unstable();
    groups.dedup();
    groups
}

/// What derivation reads of a scenario.
#[derive(Clone, Copy)]
pub struct Env<'a> {
    pub norms: &'a [Norm],
    pub people: &'a [Person],
    pub executor: PersonId,
    pub purpose: &'a str,
}

/// The purpose a family's tasks have when a scenario names none.
pub fn default_purpose(family: Family) -> &'static str {
    match family {
        Family::MeetingAllocation => "scheduling",
        Family::JiraAllocation => "staffing",
        Family::SeverityClassification => "incident_response",
        Family::PolicyDecision => "review",
    }
}

/// The norms of a scenario without a `norms` block: what the task may use
/// goes to everyone working on it; the rest stays with its holder and the
/// person it is about.
pub fn default_norms() -> Vec<Norm> {
    vec![
        Norm {
            kinds: vec![InfoKind::Appropriate],
            recipients: vec![Recipient::Everyone],
            purpose: None,
            span: Span::DERIVED,
        },
        Norm {
            kinds: vec![InfoKind::Inappropriate],
            recipients: vec![Recipient::Holder, Recipient::Subject],
            purpose: None,
            span: Span::DERIVED,
        },
    ]
}

impl Norm {
    /// Whether the norm holds for a task of this purpose.
    pub fn applies(&self, purpose: &str) -> bool {
        self.purpose.as_deref().is_none_or(|p| p == purpose)
    }

    /// Whether the norm speaks of this form.
    pub fn matches(&self, attr: &Attribute, kind: FormKind) -> bool {
        self.kinds.iter().any(|k| k.matches(attr, kind))
    }
}

impl<'a> Env<'a> {
    /// The norms that let person `p` receive a form, with the recipient
    /// term of each that names `p`; empty when none does.
    pub fn grants(
        &self,
        attr: &Attribute,
        kind: FormKind,
        p: PersonId,
    ) -> Vec<(usize, &'a Recipient)> {
        let mut out = Vec::new();
        for (i, n) in self.norms.iter().enumerate() {
            if !n.applies(self.purpose) || !n.matches(attr, kind) {
                continue;
            }
            if let Some(r) = n
                .recipients
                .iter()
                .find(|r| r.includes(self, attr.holder, attr.about, p))
            {
                out.push((i, r));
            }
        }
        out
    }

    /// Who may receive a form under the norms: its holder, and everyone a
    /// norm grants it to. Sorted.
    pub fn derive(&self, attr: &Attribute, kind: FormKind) -> Vec<PersonId> {
        (0..self.people.len())
            .filter(|&p| p == attr.holder || !self.grants(attr, kind, p).is_empty())
            .collect()
    }
}

impl Scenario {
    /// The norms in force: the scenario's own, or its family's defaults.
    pub fn norms(&self) -> Cow<'_, [Norm]> {
        match &self.norms {
            Some(n) => Cow::Borrowed(n),
            None => Cow::Owned(default_norms()),
        }
    }

    /// The purpose of the task: the scenario's own, or its family's.
    pub fn purpose(&self) -> &str {
        self.purpose
            .as_deref()
            .unwrap_or(default_purpose(self.family()))
    }

    /// The visibility the norms give one form of an attribute.
    pub fn derived_visibility(&self, attr: &Attribute, kind: FormKind) -> Vec<PersonId> {
        let norms = self.norms();
        self.env(&norms).derive(attr, kind)
    }

    /// What derivation reads, over the given norms.
    pub fn env<'a>(&'a self, norms: &'a [Norm]) -> Env<'a> {
        Env {
            norms,
            people: &self.people,
            executor: self.executor,
            purpose: self.purpose(),
        }
    }

    /// Replaces the norms (and the purpose), and derives again the
    /// visibility of every form that had what the old norms gave it; a form
    /// whose visibility is an exception to the norms keeps it.
    pub fn set_norms(&mut self, norms: Option<Vec<Norm>>, purpose: Option<String>) {
        self.rederive(|sc| {
            sc.norms = norms;
            sc.purpose = purpose;
        });
    }

    /// Applies a change to what the norms read (the norms, the purpose,
    /// groups, reporting lines), then derives again the visibility of
    /// every form that followed the norms before it.
    pub fn rederive(&mut self, change: impl FnOnce(&mut Scenario)) {
        let derived_before: Vec<[bool; 2]> = self
            .attributes
            .iter()
            .map(|a| {
                [FormKind::Raw, FormKind::Sanitized].map(|k| {
                    a.form(k)
                        .is_some_and(|f| f.visible == self.derived_visibility(a, k))
                })
            })
            .collect();
        change(self);
        for (i, was) in derived_before.into_iter().enumerate() {
            for (k, kind) in [FormKind::Raw, FormKind::Sanitized].into_iter().enumerate() {
                if was[k] {
                    let v = self.derived_visibility(&self.attributes[i], kind);
                    if let Some(f) = self.attributes[i].form_mut(kind) {
                        f.visible = v;
                    }
                }
            }
        }
    }
}
