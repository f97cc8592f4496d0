//! The statements with a body of their own, one function each: what
//! `Cx::item` hands a statement's inner pairs to.

use pest::iterators::Pairs;

use super::{Cx, Rule};
use crate::span::Span;
use crate::syntax::ast::*;

impl Cx {
    pub(super) fn person(&mut self, mut inner: Pairs<Rule>, span: Span) -> PersonAst {
        let id = self.ident(inner.next().expect("id"));
        let name = self.string(inner.next().expect("name"));
        inner.next(); // kw_role
        let role = self.string(inner.next().expect("role"));
        let (mut skills, mut groups, mut reports_to) = (None, None, None);
        let mut clauses = Vec::new();
        for clause in inner {
            let rule = clause.as_rule();
            let mut c = clause.into_inner();
            let kw = self.keyword(&c.next().expect("kw"));
            let value = c.next().expect("value");
            let what = match rule {
                Rule::skills_clause => {
                    let list = self.ident_list(value);
                    skills.get_or_insert((kw.clone(), list));
                    "skills"
                }
                Rule::groups_clause => {
                    let list = self.ident_list(value);
                    groups.get_or_insert((kw.clone(), list));
                    "groups"
                }
                _ => {
                    let to = self.ident(value);
                    reports_to.get_or_insert((kw.clone(), to));
                    "reports_to"
                }
            };
            clauses.push((what, kw));
        }
        PersonAst {
            id,
            name,
            role,
            skills,
            groups,
            reports_to,
            clauses,
            span,
        }
    }

    pub(super) fn room(&mut self, mut inner: Pairs<Rule>, span: Span) -> RoomAst {
        let id = self.ident(inner.next().expect("id"));
        let mut name = None;
        let mut capacity = None;
        let mut features = None;
        for p in inner {
            match p.as_rule() {
                Rule::string => name = Some(self.string(p)),
                Rule::int => capacity = Some(self.int(p)),
                Rule::features_clause => {
                    let list = p.into_inner().nth(1).expect("list");
                    features = Some(self.ident_list(list));
                }
                _ => {}
            }
        }
        RoomAst {
            id,
            name,
            capacity: capacity.expect("grammar requires a capacity"),
            features,
            span,
        }
    }

    pub(super) fn meeting(&mut self, mut inner: Pairs<Rule>, span: Span) -> MeetingAst {
        let id = self.ident(inner.next().expect("id"));
        let title = self.string(inner.next().expect("title"));
        let items = inner
            .map(|p| {
                let rule = p.as_rule();
                let mut c = p.into_inner();
                let kw = self.keyword(&c.next().expect("kw"));
                let list = c.next().expect("list");
                match rule {
                    Rule::attendees_clause => MeetingItem::Attendees(kw, self.ident_list(list)),
                    Rule::slots_clause => {
                        let lspan = self.span(&list);
                        let items = list.into_inner().map(|s| self.slot(s)).collect();
                        MeetingItem::Slots(kw, List { items, span: lspan })
                    }
                    Rule::rooms_clause => MeetingItem::Rooms(kw, self.ident_list(list)),
                    _ => MeetingItem::Features(kw, self.ident_list(list)),
                }
            })
            .collect();
        MeetingAst {
            id,
            title,
            items,
            span,
        }
    }

    pub(super) fn ticket(&mut self, mut inner: Pairs<Rule>, span: Span) -> TicketAst {
        let id = self.ident(inner.next().expect("id"));
        let title = self.string(inner.next().expect("title"));
        let items = inner
            .map(|p| {
                let rule = p.as_rule();
                let mut c = p.into_inner();
                let kw = self.keyword(&c.next().expect("kw"));
                match rule {
                    Rule::needs_clause => {
                        TicketItem::Needs(kw, self.ident(c.next().expect("skill")))
                    }
                    Rule::hours_clause => TicketItem::Hours(kw, self.int(c.next().expect("hours"))),
                    Rule::pair_flag => TicketItem::Pair(kw),
                    Rule::with_clause => {
                        let skill = self.ident(c.next().expect("skill"));
                        let _hours_kw = c.next();
                        TicketItem::With(kw, skill, self.int(c.next().expect("hours")))
                    }
                    Rule::priority_clause => {
                        TicketItem::Priority(kw, self.ident(c.next().expect("level")))
                    }
                    Rule::collaboration_flag => TicketItem::CollaborationHeavy(kw),
                    _ => TicketItem::Sensitive(kw),
                }
            })
            .collect();
        TicketAst {
            id,
            title,
            items,
            span,
        }
    }

    /// A `rubric` or `rules` block: rules in order, then `otherwise`.
    pub(super) fn rubric(&mut self, inner: Pairs<Rule>, span: Span) -> RubricAst {
        let mut rules = Vec::new();
        let mut otherwise = None;
        for p in inner {
            let pspan = self.span(&p);
            match p.as_rule() {
                Rule::rubric_rule => {
                    let mut c = p.into_inner();
                    let level = self.ident(c.next().expect("level"));
                    c.next(); // kw_when
                    let when = self.condition(c.next().expect("condition"));
                    rules.push(RubricRuleAst {
                        level,
                        when,
                        span: pspan,
                    });
                }
                _ => {
                    otherwise = Some(self.ident(p.into_inner().nth(1).expect("level")));
                }
            }
        }
        RubricAst {
            rules,
            otherwise,
            span,
        }
    }

    pub(super) fn oracle(&mut self, mut inner: Pairs<Rule>, span: Span) -> OracleAst {
        let body = inner.next().expect("oracle body");
        let body = match body.as_rule() {
            Rule::oracle_block => {
                OracleBody::Entries(body.into_inner().map(|e| self.oracle_entry(e)).collect())
            }
            _ => OracleBody::Level(self.ident(body)),
        };
        OracleAst { body, span }
    }
}
