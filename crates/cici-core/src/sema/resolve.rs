//! Name resolution and defaults for one scenario block.

use super::cx::{check_name_length, missing, not_in_family, Cx, Names, Once};
use super::error::ResolveError;
use super::scenario::*;
use crate::span::Span;
use crate::suggest::help_for;
use crate::syntax::{self as ast, Ident, Item};

/// The statements of one scenario block, sorted by kind; a statement that
/// may appear once is reported when it appears again.
struct Blocks<'a> {
    family: Once<'a, Ident>,
    title: Once<'a, ast::Str>,
    task: Once<'a, ast::Str>,
    executor: Once<'a, Ident>,
    recipient: Once<'a, ast::Str>,
    policy: Once<'a, ast::Str>,
    purpose: Once<'a, Ident>,
    norms: Once<'a, ast::NormsAst>,
    levels: Once<'a, ast::List<Ident>>,
    rubric: Once<'a, ast::RubricAst>,
    outcomes: Once<'a, ast::List<Ident>>,
    rules: Once<'a, ast::RubricAst>,
    oracle: Once<'a, ast::OracleAst>,
    excludes: Vec<&'a ast::ExcludeAst>,
    public: Vec<String>,
    persons: Vec<&'a ast::PersonAst>,
    rooms: Vec<&'a ast::RoomAst>,
    meetings: Vec<&'a ast::MeetingAst>,
    tickets: Vec<&'a ast::TicketAst>,
    evidence: Vec<&'a ast::EvidenceAst>,
    attributes: Vec<&'a ast::AttributeAst>,
}

impl<'a> Blocks<'a> {
    fn collect(sc: &'a ast::ScenarioAst, errors: &mut Vec<ResolveError>) -> Blocks<'a> {
        let mut b = Blocks {
            family: Once::new("family"),
            title: Once::new("title"),
            task: Once::new("task"),
            executor: Once::new("executor"),
            recipient: Once::new("recipient"),
            policy: Once::new("policy"),
            purpose: Once::new("purpose"),
            norms: Once::new("norms"),
            levels: Once::new("levels"),
            rubric: Once::new("rubric"),
            outcomes: Once::new("outcomes"),
            rules: Once::new("rules"),
            oracle: Once::new("oracle"),
            excludes: Vec::new(),
            public: Vec::new(),
            persons: Vec::new(),
            rooms: Vec::new(),
            meetings: Vec::new(),
            tickets: Vec::new(),
            evidence: Vec::new(),
            attributes: Vec::new(),
        };
        for item in &sc.items {
            match item {
                Item::Family(i) => b.family.set(i, i.span, errors),
                Item::Title(s) => b.title.set(s, s.span, errors),
                Item::Task(s) => b.task.set(s, s.span, errors),
                Item::Executor(i) => b.executor.set(i, i.span, errors),
                Item::Recipient(s) => b.recipient.set(s, s.span, errors),
                Item::Policy(s) => b.policy.set(s, s.span, errors),
                Item::Purpose(i) => b.purpose.set(i, i.span, errors),
                Item::Norms(n) => b.norms.set(n, n.span, errors),
                Item::Public(s) => b.public.push(s.value.clone()),
                Item::Person(p) => b.persons.push(p),
                Item::Room(r) => b.rooms.push(r),
                Item::Meeting(m) => b.meetings.push(m),
                Item::Ticket(t) => b.tickets.push(t),
                Item::Levels(l) => b.levels.set(l, l.span, errors),
                Item::Evidence(e) => b.evidence.push(e),
                Item::Rubric(r) => b.rubric.set(r, r.span, errors),
                Item::Outcomes(l) => b.outcomes.set(l, l.span, errors),
                Item::Rules(r) => b.rules.set(r, r.span, errors),
                Item::Exclude(e) => b.excludes.push(e),
                Item::Attribute(a) => b.attributes.push(a),
                Item::Oracle(o) => b.oracle.set(o, o.span, errors),
            }
        }
        b
    }

    /// The scenario's family; `None` (with the error) when it is missing
    /// or unknown, and nothing else can be resolved.
    fn family(&self, sc: &ast::ScenarioAst, errors: &mut Vec<ResolveError>) -> Option<Family> {
        let Some(i) = self.family.get() else {
            errors.push(missing(
                "family",
                &format!("scenario `{}`", sc.id.name),
                sc.id.span,
                Some(format!(
                    "add `family <name>`, one of {}",
                    Family::ALL.map(|f| format!("`{}`", f.name())).join(", ")
                )),
            ));
            return None;
        };
        let found = Family::from_name(&i.name);
        if found.is_none() {
            errors.push(ResolveError::UnknownFamily {
                name: i.name.clone(),
                span: i.span.into(),
                help: help_for(&i.name, "family", Family::ALL.map(|f| f.name())),
            });
        }
        found
    }

    /// Every declaration that belongs to another family is an error.
    fn check_family(&self, cx: &mut Cx, fam: Family) {
        let mut not_here = |what: &str, span: Span| cx.errors.push(not_in_family(what, fam, span));
        if fam != Family::MeetingAllocation {
            self.rooms.iter().for_each(|r| not_here("room", r.span));
            self.meetings
                .iter()
                .for_each(|m| not_here("meeting", m.span));
        }
        if fam != Family::JiraAllocation {
            self.tickets.iter().for_each(|t| not_here("ticket", t.span));
        }
        if fam != Family::SeverityClassification {
            if let Some(l) = self.levels.get() {
                not_here("levels", l.span);
            }
            if let Some(r) = self.rubric.get() {
                not_here("rubric", r.span);
            }
        }
        if fam != Family::PolicyDecision {
            if let Some(l) = self.outcomes.get() {
                not_here("outcomes", l.span);
            }
            if let Some(r) = self.rules.get() {
                not_here("rules", r.span);
            }
        }
        if !matches!(fam, Family::SeverityClassification | Family::PolicyDecision) {
            self.evidence
                .iter()
                .for_each(|e| not_here("evidence", e.span));
            self.excludes
                .iter()
                .for_each(|e| not_here("exclude", e.span));
        }
    }

    /// The family's setting; `None` when a rule-based setting cannot be
    /// built at all.
    fn setting(
        &self,
        cx: &mut Cx,
        fam: Family,
        people: &[Person],
        sc: &ast::ScenarioAst,
    ) -> Option<Setting> {
        Some(match fam {
            Family::MeetingAllocation => {
                Setting::Meeting(super::setting::meeting(cx, &self.rooms, &self.meetings))
            }
            Family::JiraAllocation => {
                Setting::Jira(super::setting::jira(cx, people, &self.tickets))
            }
            Family::SeverityClassification | Family::PolicyDecision => {
                let (decisions, block) = if fam == Family::PolicyDecision {
                    (self.outcomes.get(), self.rules.get())
                } else {
                    (self.levels.get(), self.rubric.get())
                };
                let container = format!("scenario `{}`", sc.id.name);
                Setting::Rule(super::setting::severity(
                    cx,
                    &container,
                    sc.id.span,
                    decisions,
                    &self.evidence,
                    block,
                    &self.excludes,
                )?)
            }
        })
    }

    /// The attributes, each with the visibility its norms give it.
    fn attributes(
        &self,
        cx: &mut Cx,
        people: &[Person],
        executor: Option<PersonId>,
        norms: &Option<Vec<super::norm::Norm>>,
        fam: Family,
    ) -> Vec<Attribute> {
        let in_force = norms.clone().unwrap_or_else(super::norm::default_norms);
        let purpose = self
            .purpose
            .get()
            .map_or(super::norm::default_purpose(fam), |p| p.name.as_str());
        let mut attrs = Vec::new();
        let mut names = Names::default();
        for a in &self.attributes {
            if !names.declare("attribute", &a.id, &mut cx.errors) {
                continue;
            }
            let Some(attr) = super::facts::attribute(cx, a, people.len()) else {
                continue;
            };
            attrs.push(match executor {
                Some(executor) => {
                    let env = super::visibility::Env {
                        norms: &in_force,
                        people,
                        executor,
                        purpose,
                    };
                    super::facts::derive_visibility(attr, &env, a)
                }
                None => attr,
            });
        }
        attrs
    }
}

/// Resolves one scenario block. Returns every error found, not just the first.
pub fn resolve(sc: &ast::ScenarioAst) -> Result<Scenario, Vec<ResolveError>> {
    let mut errors = Vec::new();
    check_name_length("scenario", &sc.id, &mut errors);
    let b = Blocks::collect(sc, &mut errors);
    let Some(fam) = b.family(sc, &mut errors) else {
        return Err(errors);
    };
    let container = format!("scenario `{}`", sc.id.name);
    for (what, present) in [
        ("title", b.title.get().is_some()),
        ("task", b.task.get().is_some()),
    ] {
        if !present {
            errors.push(missing(what, &container, sc.id.span, None));
        }
    }
    let mut cx = Cx {
        family: fam,
        people: Names::default(),
        rooms: Names::default(),
        meetings: Names::default(),
        tickets: Names::default(),
        levels: Names::default(),
        variables: Names::default(),
        values: Vec::new(),
        features: Vec::new(),
        errors,
        suggest: Default::default(),
    };
    // People, their reporting lines, and the norms that name them.
    let mut people = super::people::people(&mut cx, &b.persons);
    super::people::managers(&mut cx, &b.persons, &mut people);
    super::roster::check(&mut cx.errors, sc, &b.persons, &people);
    let norms = b
        .norms
        .get()
        .map(|n| super::people::norms(&mut cx, n, &people));
    if people.len() < 2 {
        cx.errors.push(ResolveError::TooFewPeople {
            found: people.len(),
            span: sc.id.span.into(),
        });
    }
    b.check_family(&mut cx, fam);
    let Some(setting) = b.setting(&mut cx, fam, &people, sc) else {
        return Err(cx.errors);
    };
    let executor_id = match b.executor.get() {
        Some(i) => cx.person(i),
        None => {
            cx.errors.push(missing(
                "executor",
                &container,
                sc.id.span,
                Some("name the person who must produce the decision: `executor <person>`".into()),
            ));
            None
        }
    };
    let attributes = b.attributes(&mut cx, &people, executor_id, &norms, fam);
    let decision = match b.oracle.get() {
        Some(o) => super::oracle::oracle(&mut cx, o, &setting),
        None => {
            cx.errors.push(missing(
                "oracle",
                &container,
                sc.id.span,
                Some("state the one decision the scenario is written backwards from".into()),
            ));
            None
        }
    };
    if !cx.errors.is_empty() {
        return Err(cx.errors);
    }
    let (Some(executor), Some(oracle), Some(oracle_ast)) = (executor_id, decision, b.oracle.get())
    else {
        return Err(cx.errors);
    };
    Ok(Scenario {
        id: sc.id.name.clone(),
        source: sc.span.source,
        span: sc.span,
        id_span: sc.id.span,
        title: b.title.get().map(|s| s.value.clone()).unwrap_or_default(),
        task: b.task.get().map(|s| s.value.clone()).unwrap_or_default(),
        recipient: b.recipient.get().map(|s| s.value.clone()),
        public: b.public,
        policy: b.policy.get().map(|s| s.value.clone()),
        purpose: b.purpose.get().map(|p| p.name.clone()),
        norms,
        executor,
        people,
        oracle_entries: super::oracle::entry_spans(oracle_ast, &setting),
        setting,
        attributes,
        oracle,
        oracle_span: oracle_ast.span,
    })
}
