//! The symbolic generator's proposer: listed candidates, in order, minus
//! those the rejections so far show cannot succeed.

use super::proposal::{Proposal, Proposer};
use crate::counterfactual::base::records::Rejection;
use crate::counterfactual::base::vocab::{Candidate, Edit, PublicField, Reason};

/// A list of candidates, in order, that learns from the rejections: some
/// numbers are monotone, so one changed one way and turned down rules out
/// changing it further the same way. Raising a ticket's hours, or lowering
/// a room's capacity or a person's `capacity` fact, only removes decisions:
/// once none is left, changing it further leaves none either. Changing it the other way only
/// adds decisions: once several are allowed, further still allows several.
/// And once a change leaves exactly one decision with the wrong label,
/// going further leaves that decision or none (tighter), or that decision
/// or several (looser): wrong again. Candidates that differ from a
/// rejected one in their texts alone meet the same decision. Such
/// candidates are dropped unseen, so they use up no round.
pub struct Listed {
    rest: std::collections::VecDeque<Candidate>,
    /// Rejections already learnt from.
    seen: usize,
    /// Whether a wrong label is the decision's: for flow labels it is not
    /// (the same seed asked about another flow, or a setting changed
    /// further, may give the other label), so only the decision's own
    /// reasons are learnt from.
    decision_labels: bool,
}

impl Listed {
    /// Candidates for a decision label.
    pub fn new(candidates: Vec<Candidate>) -> Listed {
        Listed {
            rest: candidates.into(),
            seen: 0,
            decision_labels: true,
        }
    }

    /// Candidates for a flow label.
    pub fn for_flows(candidates: Vec<Candidate>) -> Listed {
        Listed {
            decision_labels: false,
            ..Listed::new(candidates)
        }
    }

    fn learn(&mut self, r: &Rejection) {
        // These reasons depend on the decision alone, which texts do not
        // change: a candidate making the same other edits meets the same.
        if !r.reason.about_decision() || (r.reason == Reason::WrongLabel && !self.decision_labels) {
            return;
        }
        let structural = |edits: &[Edit]| -> Vec<Edit> {
            edits
                .iter()
                .filter(|e| !matches!(e, Edit::ReplaceText { .. }))
                .cloned()
                .collect()
        };
        let same = structural(&r.edits);
        self.rest.retain(|c| structural(&c.edits) != same);
        let Some(k) = Knob::of(&r.edits) else {
            return;
        };
        let tight = k.tightens();
        let dead_end = match r.reason {
            Reason::WrongLabel => true,
            Reason::NoDecision => tight,
            Reason::SeveralDecisions => !tight,
            _ => false,
        };
        if !dead_end {
            return;
        }
        self.rest.retain(|c| {
            // Same number, same start, same direction, at least as far.
            !Knob::of(&c.edits).is_some_and(|o| {
                o.what == k.what
                    && o.from == k.from
                    && o.tightens() == tight
                    && o.to.abs_diff(o.from) >= k.to.abs_diff(k.from)
            })
        });
    }
}

/// A number that only removes decisions when it moves one way: a ticket's
/// hours (up), a room's capacity (down), a person's `capacity` fact (down).
struct Knob {
    what: String,
    from: u32,
    to: u32,
    /// Whether raising the number removes decisions.
    up_tightens: bool,
}

impl Knob {
    /// The knob an edit turns, when that is all it does to the decision
    /// (text edits beside it change no decision).
    fn of(edits: &[Edit]) -> Option<Knob> {
        let mut knobs = edits
            .iter()
            .filter(|e| !matches!(e, Edit::ReplaceText { .. }));
        let knob = match (knobs.next()?, knobs.next()) {
            (
                Edit::SetPublic {
                    target,
                    field,
                    from,
                    to,
                },
                None,
            ) => Knob {
                what: format!("{target}.{field}"),
                from: *from,
                to: *to,
                up_tightens: match field {
                    PublicField::Hours => true,
                    PublicField::Capacity => false,
                },
            },
            (
                Edit::ReplaceFact {
                    attribute,
                    from,
                    to,
                },
                None,
            ) => {
                // `capacity(<person>, <n>)` on both sides, the same person.
                let parse = |f: &str| -> Option<(String, u32)> {
                    let args = f.trim().strip_prefix("capacity(")?.strip_suffix(')')?;
                    let (who, n) = args.split_once(',')?;
                    Some((who.trim().to_string(), n.trim().parse().ok()?))
                };
                let ((p, a), (q, b)) = (parse(from)?, parse(to)?);
                if p != q {
                    return None;
                }
                Knob {
                    what: format!("{attribute}.capacity({p})"),
                    from: a,
                    to: b,
                    up_tightens: false,
                }
            }
            _ => return None,
        };
        Some(knob)
    }

    fn tightens(&self) -> bool {
        (self.to > self.from) == self.up_tightens
    }
}

impl Proposer for Listed {
    fn next(&mut self, rejected: &[Rejection]) -> Proposal {
        for r in &rejected[self.seen.min(rejected.len())..] {
            self.learn(r);
        }
        self.seen = rejected.len();
        self.rest
            .pop_front()
            .map_or(Proposal::Done, |c| Proposal::Candidate(Box::new(c)))
    }
}
