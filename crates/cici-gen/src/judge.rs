//! The model judge: what a deterministic reader cannot see.
//!
//! `analysis::agreement` reads names, days, times and numbers; it cannot
//! tell a negation, a paraphrase that says something else, or a sanitized
//! text that implies its private reason. `cici check --judge` asks an
//! OpenAI-compatible model, once per form that carries a fact, whether the
//! text states its fact and (for a sanitized form) whether it reveals its
//! raw form's reason. Calls go through the cache like the counterfactual
//! loop's, so a rerun asks nothing again; the findings are the warnings
//! `judge_entailment` and `judge_reveals`, lints like any other. A check
//! without `--judge` never calls a model.

use serde_json::{json, Value};

use crate::analysis::CheckDiagnostic;
use crate::driver::Run;
use crate::llm::{extract_json, CallError, Llm, Message};
use crate::sema::{Attribute, FormKind, Scenario};
use crate::span::SourceId;

/// One question: a form of an attribute of a checked scenario.
struct Ask {
    source: SourceId,
    scenario: usize,
    attribute: usize,
    kind: FormKind,
}

/// What a judged run adds.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Judged {
    /// Forms asked about.
    pub asked: usize,
    /// Replies that could not be read (the form is not judged).
    pub unreadable: usize,
    /// Findings added to the run.
    pub findings: usize,
}

const SYSTEM: &str =
    "You check the texts of a privacy benchmark against the facts they are meant to state. \
Read each text plainly, as a colleague would, negations included. Reply with JSON only.";

/// The JSON schema of a reply.
fn schema() -> Value {
    json!({
        "name": "judgement",
        "strict": true,
        "schema": {
            "type": "object",
            "additionalProperties": false,
            "required": ["entails", "reveals", "why"],
            "properties": {
                "entails": {"type": "boolean"},
                "reveals": {"type": "boolean"},
                "why": {"type": "string"}
            }
        }
    })
}

/// The question about one form.
fn prompt(sc: &Scenario, attr: &Attribute, kind: FormKind) -> Vec<Message> {
    let form = attr.form(kind).expect("asked forms exist");
    let facts: Vec<String> = attr
        .fact_form()
        .1
        .facts
        .iter()
        .map(|f| {
            let syntax = crate::printer::predicate(sc, &f.predicate);
            let texts = crate::phrasing::FactTexts::builtin();
            match crate::phrasing::statement(texts, sc, &f.predicate) {
                Some(words) => format!("{syntax} (\"{words}\")"),
                None => syntax,
            }
        })
        .collect();
    let mut user = format!(
        "Scenario: {}\nFact: {}\nText: {}\n",
        sc.title,
        facts.join("; "),
        form.text
    );
    if kind == FormKind::Sanitized {
        user.push_str(&format!(
            "This text is the shareable form of this private note: {}\n",
            attr.raw.text
        ));
    }
    user.push_str(
        "entails: does the text state the fact (the same people, days, times, rooms, tickets, numbers or state)?\n\
         reveals: does the text reveal or imply the private reason of the note, beyond the fact? (false when there is no private note)\n\
         why: one short sentence.\n\
         Reply {\"entails\": true|false, \"reveals\": true|false, \"why\": \"...\"}.",
    );
    vec![Message::system(SYSTEM), Message::user(user)]
}

/// Every form that carries a fact, of every checked scenario.
fn questions(run: &Run) -> Vec<Ask> {
    let mut out = Vec::new();
    for (s, c) in run.checked.iter().enumerate() {
        for (a, attr) in c.scenario.attributes.iter().enumerate() {
            let (kind, form) = attr.fact_form();
            if !form.facts.is_empty() {
                out.push(Ask {
                    source: c.scenario.span.source,
                    scenario: s,
                    attribute: a,
                    kind,
                });
            }
        }
    }
    out
}

/// A reply read: (entails, reveals, why). The reason is a decoded layer of
/// the reply, so it is redacted again, whole, before it is cut to 300
/// characters and its control characters escaped.
fn read(reply: &str, llm: &Llm) -> Option<(bool, bool, String)> {
    let v = extract_json(reply).ok()?;
    let why = llm.redact(v["why"].as_str().unwrap_or("").trim());
    let why = crate::llm::escape_controls(&why.chars().take(300).collect::<String>());
    Some((v["entails"].as_bool()?, v["reveals"].as_bool()?, why))
}

/// The model cannot be used at all (unreachable, refused, a cache miss
/// offline): the judge stops with the model's message.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct Stopped(pub String);

/// Asks the judge about every form of the run and adds its findings; a
/// fatal model error (unreachable, refused, offline miss) stops it.
pub fn judge(run: &mut Run, llm: &Llm) -> Result<Judged, Stopped> {
    let asks = questions(run);
    let workers = llm.config().concurrency;
    let replies = crate::driver::parallel_map_n(&asks, workers, |q| {
        let sc = &run.checked[q.scenario].scenario;
        let attr = &sc.attributes[q.attribute];
        llm.complete(&prompt(sc, attr, q.kind), Some(&schema()))
    });
    let first = run.diagnostics.len();
    let mut judged = Judged {
        asked: asks.len(),
        ..Judged::default()
    };
    for (q, reply) in asks.iter().zip(replies) {
        let text = match reply {
            Ok(t) => t,
            Err(CallError::Fatal(e)) => return Err(Stopped(e)),
            Err(CallError::Pending) => continue,
            Err(CallError::Failed(why)) => {
                llm.note(false, &why);
                judged.unreadable += 1;
                continue;
            }
        };
        let Some((entails, reveals, why)) = read(&text, llm) else {
            llm.note(false, "the judge's reply is not {entails, reveals, why}");
            judged.unreadable += 1;
            continue;
        };
        llm.note(true, "");
        let sc = &run.checked[q.scenario].scenario;
        let attr = &sc.attributes[q.attribute];
        let form = attr.form(q.kind).expect("asked forms exist");
        let mut found = Vec::new();
        if !entails {
            found.push(CheckDiagnostic::JudgeEntailment {
                attribute: attr.id.clone(),
                form: q.kind.name().into(),
                why: why.clone(),
                span: form.text_span.into(),
                help: Some(format!(
                    "state the fact: `{}`",
                    crate::printer::predicate(sc, &attr.fact_form().1.facts[0].predicate)
                )),
            });
        }
        if reveals && q.kind == FormKind::Sanitized {
            found.push(CheckDiagnostic::JudgeReveals {
                attribute: attr.id.clone(),
                why,
                span: form.text_span.into(),
            });
        }
        judged.findings += found.len();
        for d in found {
            run.push(q.source, d);
        }
    }
    run.apply_seed_levels_from(first);
    let most = llm.config().max_failures as usize;
    if judged.unreadable > most {
        return Err(Stopped(format!(
            "the judge gave {} unreadable repl{} of {} (more than `max_failures`, {most}); its findings are not a check",
            judged.unreadable,
            if judged.unreadable == 1 { "y" } else { "ies" },
            judged.asked
        )));
    }
    Ok(judged)
}
