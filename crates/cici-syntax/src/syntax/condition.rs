//! Conditions of rubric and rules lines and of exclusions, from pest pairs
//! to the AST.

use pest::iterators::Pair;

use super::ast::Cond;
use super::grammar::Rule;
use super::parser::Cx;

impl Cx {
    pub(super) fn condition(&mut self, pair: Pair<Rule>) -> Cond {
        match pair.as_rule() {
            Rule::condition | Rule::conjunction => {
                let is_or = pair.as_rule() == Rule::condition;
                let mut parts: Vec<Cond> = pair
                    .into_inner()
                    .filter(|p| !matches!(p.as_rule(), Rule::kw_or | Rule::kw_and))
                    .map(|p| self.condition(p))
                    .collect();
                if parts.len() == 1 {
                    parts.pop().expect("one part")
                } else if is_or {
                    Cond::Or(parts)
                } else {
                    Cond::And(parts)
                }
            }
            Rule::negation => {
                let mut negations = 0;
                let mut atom = None;
                for p in pair.into_inner() {
                    if p.as_rule() == Rule::not_op {
                        negations += 1;
                    } else {
                        atom = Some(self.condition(p));
                    }
                }
                // `not not c` is `c`: fold the chain, so that no input builds
                // a deeply nested tree.
                let cond = atom.expect("negation has an atom");
                if negations % 2 == 1 {
                    Cond::Not(Box::new(cond))
                } else {
                    cond
                }
            }
            Rule::comparison => {
                let span = self.span(&pair);
                let mut c = pair.into_inner();
                let var = self.ident(c.next().expect("variable"));
                let op = c.next().expect("op");
                if op.as_rule() == Rule::kw_in {
                    let values = self.ident_list(c.next().expect("values"));
                    return Cond::In(var, values, span);
                }
                let op = op.as_str().to_string();
                let value = self.ident(c.next().expect("value"));
                if op == "=" {
                    Cond::Eq(var, value, span)
                } else {
                    Cond::Ne(var, value, span)
                }
            }
            other => unreachable!("unexpected condition rule {other:?}"),
        }
    }
}
