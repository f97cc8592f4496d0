//! The visibility of every form, derived from the scenario's norms (see
//! `sema::norm`): its holder plus everyone a norm that matches the form,
//! and applies to the scenario's purpose, lets receive it.

use std::borrow::Cow;

use super::norm::{default_norms, default_purpose, InfoKind, Norm, Recipient};
use super::scenario::{Attribute, Category, FormKind, Person, PersonId, Scenario};

impl InfoKind {
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

impl Norm {
    /// Whether the norm speaks of this form.
    pub fn matches(&self, attr: &Attribute, kind: FormKind) -> bool {
        self.kinds.iter().any(|k| k.matches(attr, kind))
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

    /// Marks in `to` (one flag per person of `env`) everyone this recipient
    /// is for an attribute: each `p` for which [`Recipient::includes`]
    /// holds, found without asking of every person in turn.
    pub fn mark(&self, env: &Env, attr_holder: PersonId, about: PersonId, to: &mut [bool]) {
        let one = |to: &mut [bool], p: PersonId| {
            if let Some(x) = to.get_mut(p) {
                *x = true;
            }
        };
        match self {
            Recipient::Everyone => to.fill(true),
            Recipient::Executor => one(to, env.executor),
            Recipient::Holder => one(to, attr_holder),
            Recipient::Subject => one(to, about),
            Recipient::Manager => {
                if let Some(m) = env.people.get(about).and_then(|a| a.manager) {
                    one(to, m);
                }
            }
            Recipient::Group(g) => {
                for (x, person) in to.iter_mut().zip(env.people) {
                    *x = *x || person.groups.iter().any(|h| h == g);
                }
            }
            Recipient::Person(q) => one(to, *q),
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
    /// The norms that speak of the form and apply to the purpose are
    /// found once, not once per person: derivation runs for every form of
    /// every variant the counterfactual generators try.
    pub fn derive(&self, attr: &Attribute, kind: FormKind) -> Vec<PersonId> {
        let to = self.receivers(attr, kind);
        (0..to.len()).filter(|&p| to[p]).collect()
    }

    /// Whether `visible` is who may receive a form under the norms, as
    /// [`Env::derive`] finds it, without building that list: rederiving
    /// asks it of every form of every variant.
    pub fn gives(&self, attr: &Attribute, kind: FormKind, visible: &[PersonId]) -> bool {
        let to = self.receivers(attr, kind);
        visible.len() == to.iter().filter(|&&x| x).count()
            && visible.iter().all(|&p| to.get(p) == Some(&true))
            && visible.is_sorted_by(|a, b| a < b)
    }

    /// One flag per person: whether they may receive the form. Every
    /// recipient of every norm that speaks of the form marks its people
    /// at once.
    fn receivers(&self, attr: &Attribute, kind: FormKind) -> Vec<bool> {
        let mut to = vec![false; self.people.len()];
        if let Some(x) = to.get_mut(attr.holder) {
            *x = true;
        }
        let speaking = self
            .norms
            .iter()
            .filter(|n| n.applies(self.purpose) && n.matches(attr, kind));
        for r in speaking.flat_map(|n| &n.recipients) {
            r.mark(self, attr.holder, attr.about, &mut to);
        }
        to
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
        let norms = self.norms();
        let env = self.env(&norms);
        let derived_before: Vec<[bool; 2]> = self
            .attributes
            .iter()
            .map(|a| {
                [FormKind::Raw, FormKind::Sanitized]
                    .map(|k| a.form(k).is_some_and(|f| env.gives(a, k, &f.visible)))
            })
            .collect();
        drop(norms);
        change(self);
        let norms = self.norms();
        let env = self.env(&norms);
        let mut derived: Vec<(usize, FormKind, Vec<PersonId>)> = Vec::new();
        for (i, was) in derived_before.into_iter().enumerate() {
            for (k, kind) in [FormKind::Raw, FormKind::Sanitized].into_iter().enumerate() {
                if was[k] {
                    derived.push((i, kind, env.derive(&self.attributes[i], kind)));
                }
            }
        }
        drop(norms);
        for (i, kind, v) in derived {
            if let Some(f) = self.attributes[i].form_mut(kind) {
                f.visible = v;
            }
        }
    }
}
