//! From text to the owned AST. pest's types stay in this file, the
//! grammar's rules and the recovery.

use pest::iterators::Pair;
use pest::Parser as _;

use super::ast::*;
use super::error::SyntaxError;
use super::grammar::{CiciParser, Rule};
use super::recover::{check_nesting, from_pest, scenario_chunks};
use super::strings::dedent;

mod partial;
mod statements;
use crate::span::{SourceId, Span};
pub use partial::MAX_STATEMENT_ERRORS;

/// Parses a seed file. On a syntax error, the file is cut at every line that
/// starts a `scenario` block and each block is parsed on its own, so one run
/// reports an error per broken block and still returns the blocks that parse;
/// inside a broken block, each statement is parsed on its own
/// ([`partial`]), so the block comes back in [`File::partial`] with the
/// statements that parse, and the errors of the others are reported too.
pub fn parse(source: SourceId, text: &str) -> (File, Vec<SyntaxError>) {
    if let Some(err) = check_nesting(text) {
        return (File::default(), vec![err]);
    }
    match parse_rule(Rule::file, text) {
        Ok(mut pairs) => {
            let file = pairs.next().expect("the file rule always yields one pair");
            let mut cx = Cx::new(source, 0);
            let scenarios = file
                .into_inner()
                .filter(|p| p.as_rule() == Rule::scenario)
                .map(|p| cx.scenario(p))
                .collect();
            let file = File {
                scenarios,
                partial: Vec::new(),
            };
            (file, cx.errors)
        }
        Err(whole) => recover_file(source, text, &whole),
    }
}

/// The blocks of a file that does not parse, each parsed on its own; a
/// block that does not parse either is recovered statement by statement.
fn recover_file(
    source: SourceId,
    text: &str,
    whole: &pest::error::Error<Rule>,
) -> (File, Vec<SyntaxError>) {
    let mut file = File::default();
    let mut errors = Vec::new();
    let mut budget = partial::Budget::new();
    let chunks = scenario_chunks(text);
    if chunks.len() <= 1 {
        let first = from_pest(whole, text, 0);
        let (ast, more) = partial::recover(source, text, 0, &first, &mut budget);
        errors.push(first);
        errors.extend(more);
        file.partial.extend(ast);
        return (file, errors);
    }
    for (start, end) in chunks {
        let chunk = &text[start..end];
        match parse_rule(Rule::scenario_only, chunk) {
            Ok(mut pairs) => {
                let only = pairs.next().expect("one pair");
                let mut cx = Cx::new(source, start);
                for p in only.into_inner() {
                    if p.as_rule() == Rule::scenario {
                        file.scenarios.push(cx.scenario(p));
                    }
                }
                errors.extend(cx.errors);
            }
            Err(e) => {
                let first = from_pest(&e, chunk, start);
                let (ast, more) = partial::recover(source, chunk, start, &first, &mut budget);
                errors.push(first);
                errors.extend(more);
                file.partial.extend(ast);
            }
        }
    }
    (file, errors)
}

/// Parses `text` as `rule`. Text that parses takes the fast path, without
/// the bookkeeping of which tokens were tried where (it costs most of the
/// parse); only text with an error is parsed again with it, so that the
/// message can name expected punctuation such as `}` too. The setting is
/// pest's process-wide one: a parse racing with a re-parse on another
/// thread is at worst slower, never different.
fn parse_rule(
    rule: Rule,
    text: &str,
) -> Result<pest::iterators::Pairs<'_, Rule>, Box<pest::error::Error<Rule>>> {
    pest::set_error_detail(false);
    match CiciParser::parse(rule, text) {
        Ok(pairs) => Ok(pairs),
        Err(_) => {
            pest::set_error_detail(true);
            let detailed = CiciParser::parse(rule, text).map_err(Box::new);
            pest::set_error_detail(false);
            detailed
        }
    }
}

/// The parse tree of a whole file that parses without any error, for the
/// formatter; otherwise every syntax error, as [`parse`] reports them.
pub(super) fn parse_tree(text: &str) -> Result<Pair<'_, Rule>, Vec<SyntaxError>> {
    if let Some(err) = check_nesting(text) {
        return Err(vec![err]);
    }
    match parse_rule(Rule::file, text) {
        Ok(mut pairs) => {
            let file = pairs.next().expect("the file rule always yields one pair");
            // Converting finds what the grammar lets through: bad escapes,
            // impossible slots, integers too large.
            let mut cx = Cx::new(SourceId(0), 0);
            for p in file.clone().into_inner() {
                if p.as_rule() == Rule::scenario {
                    cx.scenario(p);
                }
            }
            if cx.errors.is_empty() {
                Ok(file)
            } else {
                Err(cx.errors)
            }
        }
        Err(_) => Err(parse(SourceId(0), text).1),
    }
}

/// Conversion context: the source id, the offset of the parsed text in the
/// file, and the errors found while converting.
pub(super) struct Cx {
    pub(super) source: SourceId,
    pub(super) base: usize,
    pub(super) errors: Vec<SyntaxError>,
}

impl Cx {
    fn new(source: SourceId, base: usize) -> Cx {
        Cx {
            source,
            base,
            errors: Vec::new(),
        }
    }

    /// The pair's span without trailing blanks, which pest includes when an
    /// optional item at the end of a rule did not match.
    pub(super) fn span(&self, pair: &Pair<Rule>) -> Span {
        let s = pair.as_span();
        let len = pair.as_str().trim_end().len();
        Span::new(
            self.source,
            self.base + s.start(),
            self.base + s.start() + len,
        )
    }

    pub(super) fn ident(&self, pair: Pair<Rule>) -> Ident {
        Ident {
            name: pair.as_str().to_string(),
            span: self.span(&pair),
        }
    }

    fn keyword(&self, pair: &Pair<Rule>) -> Keyword {
        Keyword {
            span: self.span(pair),
        }
    }

    fn int(&mut self, pair: Pair<Rule>) -> Int {
        let span = self.span(&pair);
        let value = match pair.as_str().parse::<u32>() {
            Ok(v) => v,
            Err(_) => {
                self.errors.push(SyntaxError::IntegerTooLarge {
                    text: pair.as_str().to_string(),
                    span: span.into(),
                });
                0
            }
        };
        Int { value, span }
    }

    fn string(&mut self, pair: Pair<Rule>) -> Str {
        let span = self.span(&pair);
        let inner = pair.into_inner().next().expect("string has a body");
        let value = match inner.as_rule() {
            Rule::triple_string => {
                let body = inner.into_inner().next().expect("triple body");
                dedent(body.as_str())
            }
            _ => {
                let body = inner.into_inner().next().expect("plain body");
                let body_start = self.base + body.as_span().start();
                self.unescape(body.as_str(), body_start)
            }
        };
        Str { value, span }
    }

    fn unescape(&mut self, raw: &str, start: usize) -> String {
        let mut out = String::with_capacity(raw.len());
        let mut chars = raw.char_indices();
        while let Some((i, c)) = chars.next() {
            if c != '\\' {
                out.push(c);
                continue;
            }
            match chars.next() {
                Some((_, '"')) => out.push('"'),
                Some((_, '\\')) => out.push('\\'),
                Some((_, 'n')) => out.push('\n'),
                Some((_, other)) => self.errors.push(SyntaxError::InvalidEscape {
                    escape: format!("\\{other}"),
                    span: (start + i, 1 + other.len_utf8()).into(),
                }),
                None => {}
            }
        }
        out
    }

    pub(super) fn ident_list(&self, pair: Pair<Rule>) -> List<Ident> {
        let span = self.span(&pair);
        List {
            items: pair.into_inner().map(|p| self.ident(p)).collect(),
            span,
        }
    }

    /// One name, or a list of names: a name is a list of one.
    fn name_or_list(&self, pair: Pair<Rule>) -> List<Ident> {
        let inner = pair.into_inner().next().expect("a name or a list");
        if inner.as_rule() == Rule::ident_list {
            return self.ident_list(inner);
        }
        let one = self.ident(inner);
        List {
            span: one.span,
            items: vec![one],
        }
    }

    /// `share <kinds> with <recipients> [for <purpose>]`
    fn norm(&self, pair: Pair<Rule>) -> NormAst {
        let span = self.span(&pair);
        let mut c = pair.into_inner();
        c.next(); // kw_share
        let kinds = self.name_or_list(c.next().expect("kinds"));
        c.next(); // kw_with
        let recipients = self.name_or_list(c.next().expect("recipients"));
        let purpose = c
            .next()
            .map(|p| self.ident(p.into_inner().nth(1).expect("purpose")));
        NormAst {
            kinds,
            recipients,
            purpose,
            span,
        }
    }

    fn slot(&mut self, pair: Pair<Rule>) -> SlotLit {
        let span = self.span(&pair);
        let mut inner = pair.into_inner();
        let day = Day::from_keyword(inner.next().expect("day").as_str()).unwrap_or(Day::Mon);
        let start = inner.next().expect("start");
        let end = inner.next().expect("end");
        let parse_time = |t: &str| -> Option<u16> {
            let (h, m) = t.split_once(':')?;
            let (h, m) = (h.parse::<u16>().ok()?, m.parse::<u16>().ok()?);
            if m >= 60 || h > 24 || (h == 24 && m > 0) {
                None
            } else {
                Some(h * 60 + m)
            }
        };
        let (s, e) = (parse_time(start.as_str()), parse_time(end.as_str()));
        let reason = match (s, e) {
            (None, _) => Some(format!("`{}` is not a clock time", start.as_str())),
            (_, None) => Some(format!("`{}` is not a clock time", end.as_str())),
            (Some(s), Some(e)) if e <= s => Some("the slot ends before it starts".to_string()),
            _ => None,
        };
        if let Some(reason) = reason {
            self.errors.push(SyntaxError::InvalidSlot {
                reason,
                span: span.into(),
            });
        }
        SlotLit {
            slot: Slot {
                day,
                start: s.unwrap_or(0),
                end: e.unwrap_or(1).max(s.unwrap_or(0) + 1),
            },
            span,
        }
    }

    fn scenario(&mut self, pair: Pair<Rule>) -> ScenarioAst {
        let span = self.span(&pair);
        let mut inner = pair.into_inner();
        inner.next(); // kw_scenario
        let id = self.ident(inner.next().expect("scenario id"));
        let items = inner.map(|p| self.item(p)).collect();
        ScenarioAst { id, items, span }
    }

    fn item(&mut self, pair: Pair<Rule>) -> Item {
        let rule = pair.as_rule();
        let span = self.span(&pair);
        let mut inner = pair.into_inner();
        let kw = inner.next().expect("statement keyword");
        match rule {
            Rule::family_stmt => Item::Family(self.ident(inner.next().expect("family"))),
            Rule::title_stmt => Item::Title(self.string(inner.next().expect("title"))),
            Rule::task_stmt => Item::Task(self.string(inner.next().expect("task"))),
            Rule::executor_stmt => Item::Executor(self.ident(inner.next().expect("executor"))),
            Rule::recipient_stmt => Item::Recipient(self.string(inner.next().expect("text"))),
            Rule::public_stmt => Item::Public(self.string(inner.next().expect("text"))),
            Rule::policy_stmt => Item::Policy(self.string(inner.next().expect("text"))),
            Rule::purpose_stmt => Item::Purpose(self.ident(inner.next().expect("purpose"))),
            Rule::norms_stmt => Item::Norms(NormsAst {
                rules: inner.map(|p| self.norm(p)).collect(),
                span,
            }),
            Rule::person_stmt => Item::Person(self.person(inner, span)),
            Rule::room_stmt => Item::Room(self.room(inner, span)),
            Rule::meeting_stmt => Item::Meeting(self.meeting(inner, span)),
            Rule::ticket_stmt => Item::Ticket(self.ticket(inner, span)),
            Rule::levels_stmt => Item::Levels(self.ident_list(inner.next().expect("levels"))),
            Rule::outcomes_stmt => Item::Outcomes(self.ident_list(inner.next().expect("outcomes"))),
            Rule::exclude_stmt => Item::Exclude(ExcludeAst {
                when: self.condition(inner.next().expect("condition")),
                span,
            }),
            Rule::evidence_stmt => {
                let variable = self.ident(inner.next().expect("variable"));
                let values = self.ident_list(inner.next().expect("values"));
                Item::Evidence(EvidenceAst {
                    variable,
                    values,
                    span,
                })
            }
            Rule::rubric_stmt => Item::Rubric(self.rubric(inner, span)),
            Rule::rules_stmt => Item::Rules(self.rubric(inner, span)),
            Rule::attribute_stmt => {
                let id = self.ident(inner.next().expect("id"));
                let items = inner.map(|p| self.attribute_item(p)).collect();
                Item::Attribute(AttributeAst { id, items, span })
            }
            Rule::oracle_stmt => Item::Oracle(self.oracle(inner, span)),
            other => unreachable!("unexpected statement rule {other:?} at {:?}", kw.as_span()),
        }
    }

    fn oracle_entry(&mut self, pair: Pair<Rule>) -> OracleEntry {
        let span = self.span(&pair);
        let mut inner = pair.into_inner();
        let target = self.ident(inner.next().expect("target"));
        let value = inner.next().expect("value");
        let value = match value.as_rule() {
            Rule::oracle_slot => {
                let mut c = value.into_inner();
                let slot = self.slot(c.next().expect("slot"));
                OracleValue::SlotRoom(slot, self.ident(c.next().expect("room")))
            }
            _ => {
                let mut c = value.into_inner();
                let owner = self.ident(c.next().expect("owner"));
                OracleValue::People(owner, c.next().map(|p| self.ident(p)))
            }
        };
        OracleEntry {
            target,
            value,
            span,
        }
    }

    fn attribute_item(&mut self, pair: Pair<Rule>) -> AttributeItem {
        let rule = pair.as_rule();
        let span = self.span(&pair);
        let mut inner = pair.into_inner();
        let kw_pair = inner.next().expect("keyword");
        let kw = self.keyword(&kw_pair);
        match rule {
            Rule::holder_clause => AttributeItem::Holder(kw, self.ident(inner.next().expect("p"))),
            Rule::about_clause => AttributeItem::About(kw, self.ident(inner.next().expect("p"))),
            Rule::category_clause => {
                AttributeItem::Category(kw, self.ident(inner.next().expect("c")))
            }
            Rule::fact_clause => AttributeItem::Fact(self.fact(inner.next().expect("fact"))),
            Rule::soft_clause => AttributeItem::Soft(self.fact(inner.next().expect("fact"))),
            Rule::claim_clause => AttributeItem::Claim(kw, self.fact(inner.next().expect("fact"))),
            _ => {
                let text = self.string(inner.next().expect("text"));
                let mut label = None;
                let mut visible = None;
                for p in inner {
                    match p.as_rule() {
                        Rule::label => {
                            let l = p.into_inner().next().expect("label");
                            label = Some(LabelAst {
                                appropriate: l.as_rule() == Rule::kw_appropriate,
                                span: self.span(&l),
                            });
                        }
                        _ => visible = Some(self.visibility(p)),
                    }
                }
                let form = FormAst {
                    keyword: kw,
                    text,
                    label,
                    visible,
                    span,
                };
                if rule == Rule::raw_clause {
                    AttributeItem::Raw(form)
                } else {
                    AttributeItem::Sanitized(form)
                }
            }
        }
    }

    fn visibility(&mut self, pair: Pair<Rule>) -> VisibilityAst {
        let choice = pair.into_inner().nth(1).expect("visibility body");
        match choice.as_rule() {
            Rule::vis_all => VisibilityAst::All(self.span(&choice)),
            Rule::vis_all_except => {
                let list = choice.into_inner().nth(2).expect("list");
                VisibilityAst::AllExcept(self.ident_list(list))
            }
            _ => VisibilityAst::Only(self.ident_list(choice)),
        }
    }

    fn fact(&mut self, pair: Pair<Rule>) -> FactAst {
        let span = self.span(&pair);
        let mut inner = pair.into_inner();
        let predicate = self.ident(inner.next().expect("predicate"));
        let args = inner
            .map(|p| match p.as_rule() {
                Rule::slot => Arg::Slot(self.slot(p)),
                Rule::int => Arg::Int(self.int(p)),
                _ => Arg::Name(self.ident(p)),
            })
            .collect();
        FactAst {
            predicate,
            args,
            span,
        }
    }
}
