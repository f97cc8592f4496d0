//! Norm edits for flow triplets: a recipient term taken out of a norm or
//! put in, another term in its place, or a norm's purpose changed.
//! Whether an edit flips a flow is the prover's to say.

use std::sync::Arc;

use crate::counterfactual::base::vocab::{Candidate, Edit, Later};
use crate::sema::{FormKind, Norm, PersonId, Recipient, Scenario};

/// Purposes a norm may be moved to, so that it no longer holds for the task.
const PURPOSES: [&str; 5] = ["accommodation", "audit", "payroll", "review", "scheduling"];

/// The terms that name person `q` for an attribute about `about`: their
/// groups, `manager` or `executor` where that is what they are, else (on
/// a team without groups) their id. (`everyone` would name them too, but a
/// norm that lets everyone have a detail gives the answer away by its
/// words alone.)
fn terms_of(sc: &Scenario, q: PersonId, about: PersonId) -> Vec<Recipient> {
    let mut out: Vec<Recipient> = sc.people[q]
        .groups
        .iter()
        .map(|g| Recipient::Group(g.clone()))
        .collect();
    if sc.people[about].manager == Some(q) {
        out.push(Recipient::Manager);
    }
    if q == sc.executor {
        out.push(Recipient::Executor);
    }
    // Where the team has no groups, a norm may name the person.
    if out.is_empty() && sc.people.iter().all(|x| x.groups.is_empty()) {
        out.push(Recipient::Person(q));
    }
    out
}

/// Terms that do not name person `p`: the executor, the subject, and the
/// groups `p` is not in.
fn narrower(sc: &Scenario, p: PersonId, about: PersonId) -> Vec<Recipient> {
    let mut out = Vec::new();
    if sc.people[about].manager != Some(p) {
        out.push(Recipient::Manager);
    }
    out.extend(
        crate::sema::visibility::team_groups(&sc.people)
            .into_iter()
            .filter(|g| !sc.people[p].groups.iter().any(|x| x == g))
            .map(|g| Recipient::Group(g.to_string())),
    );
    out
}

/// Every norm edit worth offering for the flow of form `kind` of
/// attribute `a` to person `p`, each a copy of the scenario with the edit
/// applied (made when the candidate is first read), in two parts: edits
/// of the norms that speak of the form (the ones that can move the flow),
/// and the rest (which change the context around it).
pub(crate) fn norm_edits(
    shared: &Arc<Scenario>,
    a: usize,
    kind: FormKind,
    p: PersonId,
) -> (Vec<Candidate>, Vec<Candidate>) {
    let sc = shared.as_ref();
    let norms = Printed::of(sc);
    let attr = &sc.attributes[a];
    let (mut near, mut far) = (Vec::new(), Vec::new());
    for (index, to) in offered(sc, &norms.list, a, kind, p) {
        let speaks = norms.list.get(index).is_none_or(|n| n.matches(attr, kind));
        if let Some(c) = with_norm(shared, &norms, index, to) {
            if speaks { &mut near } else { &mut far }.push(c);
        }
    }
    (near, far)
}

/// The norm edits offered for a flow, in order: the index of a norm and
/// what it becomes (`None`: dropped).
fn offered(
    sc: &Scenario,
    norms: &[Norm],
    a: usize,
    kind: FormKind,
    p: PersonId,
) -> Vec<(usize, Option<Norm>)> {
    let attr = &sc.attributes[a];
    let mut edits: Vec<(usize, Option<Norm>)> = Vec::new();
    for (i, n) in norms.iter().enumerate() {
        for r in 0..n.recipients.len() {
            let mut m = n.clone();
            m.recipients.remove(r);
            edits.push((i, Some(m).filter(|m| !m.recipients.is_empty())));
            // The term narrowed to one that does not name the recipient.
            // `everyone` narrows to the executor too (a family's default
            // norms name no group).
            let mut narrow = narrower(sc, p, attr.about);
            if n.recipients[r] == Recipient::Everyone && p != sc.executor {
                narrow.push(Recipient::Executor);
            }
            for t in narrow {
                if !n.recipients.contains(&t) {
                    let mut m = n.clone();
                    m.recipients[r] = t;
                    edits.push((i, Some(m)));
                }
            }
        }
        if n.matches(attr, kind) {
            for t in terms_of(sc, p, attr.about) {
                if !n.recipients.contains(&t) {
                    let mut m = n.clone();
                    m.recipients.push(t);
                    edits.push((i, Some(m)));
                }
            }
        }
        let mut m = n.clone();
        m.purpose = match &n.purpose {
            Some(_) => None,
            None => PURPOSES
                .iter()
                .find(|&&x| x != sc.purpose())
                .map(|x| x.to_string()),
        };
        edits.push((i, Some(m)));
    }
    edits
}

/// A scenario's norms and each norm's line as the printer writes it,
/// printed once for every edit offered of them.
struct Printed {
    list: Vec<Norm>,
    lines: Vec<String>,
}

impl Printed {
    fn of(sc: &Scenario) -> Printed {
        Printed::new(sc, sc.norms().into_owned())
    }

    fn new(sc: &Scenario, list: Vec<Norm>) -> Printed {
        let lines = list.iter().map(|n| crate::printer::norm(sc, n)).collect();
        Printed { list, lines }
    }
}

/// The candidate that sets norm `index` to `to` (drops it when `None`),
/// built directly from the norms rather than from their text: what
/// `apply` makes of the same [`Edit::SetNorm`], or `None` where it would
/// refuse the edit (a line that is not one an edit may write, a group
/// that is also a person's id, a person or group that is not there).
fn with_norm(
    shared: &Arc<Scenario>,
    norms: &Printed,
    index: usize,
    to: Option<Norm>,
) -> Option<Candidate> {
    with_norms(shared, norms, vec![(index, to)])
}

/// [`with_norm`] for several norms, each change one [`Edit::SetNorm`] in
/// the order given (a dropped norm moves the index of the norms after
/// it): what `apply` makes of the edits, or `None` where it would refuse
/// one.
fn with_norms(
    shared: &Arc<Scenario>,
    norms: &Printed,
    changes: Vec<(usize, Option<Norm>)>,
) -> Option<Candidate> {
    let sc = shared.as_ref();
    let mut list = norms.list.clone();
    let mut lines = norms.lines.clone();
    let mut edits = Vec::new();
    for (index, to) in changes {
        let line = to
            .as_ref()
            .map_or_else(String::new, |m| crate::printer::norm(sc, m));
        let from = match to {
            Some(m) if index < list.len() => {
                list[index] = m;
                std::mem::replace(&mut lines[index], line.clone())
            }
            None if index < list.len() => {
                list.remove(index);
                lines.remove(index)
            }
            _ => return None,
        };
        edits.push(Edit::SetNorm {
            index,
            from,
            to: line,
        });
    }
    crate::counterfactual::apply::check_norm_lines(&lines).ok()?;
    let groups = crate::sema::visibility::team_groups(&sc.people);
    let resolves = |r: &Recipient| match r {
        Recipient::Group(g) => groups.contains(&g.as_str()) && sc.person(g).is_none(),
        Recipient::Person(q) => sc
            .people
            .get(*q)
            .is_some_and(|x| !groups.contains(&x.id.as_str())),
        _ => true,
    };
    if !list.iter().flat_map(|n| &n.recipients).all(resolves) {
        return None;
    }
    Some(Candidate {
        scenario: Later::variant(shared, move |v| {
            let purpose = v.purpose.clone();
            v.set_norms(Some(list), purpose);
        }),
        edits,
        flow: None,
    })
}

/// The recipient taken out of every norm that lets them have the form of
/// attribute `a`: in each such norm a term that names them gives way to
/// one that does not (`manager`, a group they are not in, `executor`),
/// so that the norms keep their length and their look, or is dropped
/// where no such term is left; a norm left naming no one is dropped. One
/// `set_norm` edit per norm, the last norm first so that a dropped one
/// does not move the index of the next. Where two norms grant the same
/// form (a norm on sanitized details and one on appropriate ones), no
/// single norm edit takes it away; this one turns the flow `no` while the
/// statement and the recipient stay as they are. `None` when no norm
/// grants the form, or too many do for a minimal edit.
pub(crate) fn revoke(
    shared: &Arc<Scenario>,
    a: usize,
    kind: FormKind,
    p: PersonId,
) -> Option<Candidate> {
    let sc = shared.as_ref();
    let norms: Vec<Norm> = sc.norms().into_owned();
    let attr = &sc.attributes[a];
    let env = sc.env(&norms);
    let granting: Vec<usize> = env
        .grants(attr, kind, p)
        .into_iter()
        .map(|(i, _)| i)
        .collect();
    if granting.is_empty() || granting.len() > crate::counterfactual::apply::MAX_EDITS {
        return None;
    }
    let mut spare = narrower(sc, p, attr.about);
    if p != sc.executor {
        spare.push(Recipient::Executor);
    }
    let changes = granting
        .iter()
        .rev()
        .map(|&i| {
            let n = &norms[i];
            // Terms to put in, taken in turn from a different start per norm.
            let mut free: Vec<Recipient> = spare
                .iter()
                .filter(|t| !n.recipients.contains(t))
                .cloned()
                .collect();
            let start = i % free.len().max(1);
            free.rotate_left(start);
            let mut free = free.into_iter();
            let mut m = n.clone();
            m.recipients = n
                .recipients
                .iter()
                .filter_map(|r| {
                    if r.includes(&env, attr.holder, attr.about, p) {
                        free.next()
                    } else {
                        Some(r.clone())
                    }
                })
                .collect();
            (i, Some(m).filter(|m| !m.recipients.is_empty()))
        })
        .collect();
    with_norms(shared, &Printed::new(sc, norms), changes)
}

/// The recipient's standing changed: person `p` swaps a group for another
/// of the team, joins one they are not in, or leaves one they are in.
pub(crate) fn group_edits(shared: &Arc<Scenario>, p: PersonId) -> Vec<Candidate> {
    let sc = shared.as_ref();
    let from = sc.people[p].groups.clone();
    let mut out = Vec::new();
    let groups = crate::sema::visibility::team_groups(&sc.people);
    // Swaps first: one group for another keeps the recipient's line
    // showing groups, so that the line's look does not move with the label.
    for g in &from {
        for h in groups.iter().filter(|h| !from.iter().any(|x| x == *h)) {
            let to = from
                .iter()
                .map(|x| if x == g { h.to_string() } else { x.clone() })
                .collect();
            out.extend(groups_candidate(shared, p, from.clone(), to));
        }
    }
    for g in groups {
        let to: Vec<String> = if from.iter().any(|x| x == g) {
            from.iter().filter(|x| *x != g).cloned().collect()
        } else {
            from.iter()
                .cloned()
                .chain(std::iter::once(g.to_string()))
                .collect()
        };
        out.extend(groups_candidate(shared, p, from.clone(), to));
    }
    out
}

/// Person `p`'s groups set to `to`, as the edit applied would set them;
/// `None` where applying it is refused. The variant is made when first
/// read.
fn groups_candidate(
    shared: &Arc<Scenario>,
    p: PersonId,
    from: Vec<String>,
    to: Vec<String>,
) -> Option<Candidate> {
    let person = shared.people[p].id.clone();
    crate::counterfactual::apply::groups_edit(shared, &person, &from, &to).ok()?;
    let groups = to.clone();
    Some(Candidate {
        scenario: Later::variant(shared, move |v| {
            crate::counterfactual::apply::put_groups(v, p, groups)
        }),
        edits: vec![Edit::SetGroups { person, from, to }],
        flow: None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::planted::{generate, Config};
    use crate::sema::Family;

    /// Every norm edit built directly is the candidate that applying the
    /// same edit as text makes (the same seed text), and is left out
    /// exactly where applying it as text is refused.
    #[test]
    fn direct_norm_edits_are_the_applied_ones() {
        let mut compared = 0;
        // Stated norms on three families, the family's defaults on one.
        for (i, family) in Family::ALL.iter().enumerate() {
            let mut config = Config::pisas(*family, 7000 + i as u64);
            config.norms = i != 3;
            let shared = Arc::new(generate(&config));
            let sc = shared.as_ref();
            let printed = Printed::of(sc);
            let norms = &printed.list;
            for a in (0..sc.attributes.len()).step_by(2) {
                for (kind, _) in sc.attributes[a].forms() {
                    for p in (0..sc.people.len()).step_by(3) {
                        for (index, to) in offered(sc, norms, a, kind, p) {
                            let direct = with_norm(&shared, &printed, index, to.clone());
                            let edit = Edit::SetNorm {
                                index,
                                from: crate::printer::norm(sc, &norms[index]),
                                to: to.map_or_else(String::new, |m| crate::printer::norm(sc, &m)),
                            };
                            let applied =
                                crate::counterfactual::apply::candidate(sc, vec![edit.clone()]);
                            let print = |c: &Candidate| crate::printer::print(&c.scenario);
                            assert_eq!(
                                direct.as_ref().map(print),
                                applied.as_ref().ok().map(print),
                                "{edit:?} on {}",
                                sc.id
                            );
                            if let Some(c) = direct {
                                assert_eq!(c.edits, vec![edit]);
                            }
                            compared += 1;
                        }
                    }
                }
            }
        }
        assert!(compared > 100, "only {compared} edits compared");
    }

    /// Revoking takes the form away from the recipient and from no one
    /// the norms do not name alike, and leaves the texts and the team as
    /// they are, on every family's planted seeds with norms.
    #[test]
    fn revoking_takes_the_form_from_the_recipient_only() {
        let mut revoked = 0;
        for (i, family) in Family::ALL.iter().enumerate() {
            let mut config = Config::pisas(*family, 7100 + i as u64);
            config.norms = true;
            let shared = Arc::new(generate(&config));
            let sc = shared.as_ref();
            for (a, attr) in sc.attributes.iter().enumerate() {
                for (kind, form) in attr.forms() {
                    if form.visible != sc.derived_visibility(attr, kind) {
                        continue;
                    }
                    for &p in form.visible.iter().filter(|&&p| p != attr.holder) {
                        // More granting norms than a minimal edit may touch: none.
                        let Some(c) = revoke(&shared, a, kind, p) else {
                            continue;
                        };
                        let applied = crate::counterfactual::apply::candidate(sc, c.edits.clone())
                            .ok()
                            .map(|c| Scenario::clone(&c.scenario));
                        // Built directly, it is what applying its edits as
                        // text makes.
                        let print = |v: &Scenario| crate::printer::print(v);
                        assert_eq!(
                            applied.as_ref().map(print),
                            Some(print(&c.scenario)),
                            "{:?}",
                            c.edits
                        );
                        let v = &c.scenario;
                        let after = v.attributes[a].form(kind).expect("the form stays");
                        assert!(!after.visible.contains(&p), "{} {kind:?} to {p}", attr.id);
                        assert_eq!(after.text, form.text);
                        assert_eq!(v.people, sc.people);
                        assert!(c.edits.len() <= crate::counterfactual::base::vocab::MAX_EDITS);
                        revoked += 1;
                    }
                }
            }
        }
        assert!(revoked > 50, "only {revoked} flows revoked");
    }
}
